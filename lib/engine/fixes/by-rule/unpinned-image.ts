import { scalarAt } from '../locate.js';
import { replaceScalarValue } from '../replace-scalar.js';
import { defineFixer } from '../types.js';

/**
 * Pins a container image to the digest its tag points to, keeping the tag for readers
 * (`node:22@sha256:...`). The digest comes from the caller (registry lookups for Docker Hub and GHCR);
 * without it the fix is skipped as needing the network.
 */
export default defineFixer({
  ruleId: 'unpinned-image',
  safe: true,
  propose({ model, offset, file, data }) {
    const scalar = scalarAt(model, offset);
    if (scalar === undefined || typeof scalar.value !== 'string') return { skipped: 'the image reference was not found' };
    const written = scalar.value.trim();
    const docker = written.startsWith('docker://');
    const image = docker ? written.slice('docker://'.length) : written;
    if (image.includes('${{')) return { skipped: 'the image is an expression' };
    const digest = data.imageDigests?.get(image);
    if (digest === undefined) return { skipped: `needs network: the digest of ${image} is not resolved`, needsNetwork: true };
    if (!/^sha256:[0-9a-f]{64}$/.test(digest)) return { skipped: `the digest of ${image} is malformed` };
    const edits = replaceScalarValue(file.text, scalar, `${docker ? 'docker://' : ''}${image}@${digest}`, null);
    return edits === null ? { skipped: 'the image is not a one-line scalar' } : { edits, safe: true };
  },
});
