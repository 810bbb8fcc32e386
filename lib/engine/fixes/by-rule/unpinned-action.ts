import { parseUses } from '../../model/uses.js';
import { scalarAt } from '../locate.js';
import { replaceScalarValue } from '../replace-scalar.js';
import { defineFixer } from '../types.js';

/** The lock-cache and resolution key of a reference: `owner/repo@ref` with owner and repository lower-cased. */
export function pinKey(owner: string, repo: string, ref: string): string {
  return `${owner.toLowerCase()}/${repo.toLowerCase()}@${ref}`;
}

/**
 * Pins `owner/repo[/path]@ref` to the full commit SHA the ref points to, with `# <version>` beside it. The
 * SHA comes from the data the caller resolved (GitHub's API or the `.chainbreaker/pins.json` lock cache);
 * without it the fix is skipped as needing the network. It never invents a SHA.
 */
export default defineFixer({
  ruleId: 'unpinned-action',
  safe: true,
  propose({ model, offset, file, data }) {
    const scalar = scalarAt(model, offset);
    if (scalar === undefined || typeof scalar.value !== 'string') return { skipped: 'the reference was not found' };
    const ref = parseUses(scalar.value);
    if (ref.kind !== 'repository') return { skipped: 'not a repository reference' };
    const key = pinKey(ref.owner, ref.repo, ref.ref);
    const pin = data.actionPins?.get(key);
    if (pin === undefined) return { skipped: `needs network: ${key} is not resolved (set GITHUB_TOKEN, or add it to .chainbreaker/pins.json)`, needsNetwork: true };
    if (!/^[0-9a-f]{40}$/.test(pin.sha)) return { skipped: `the resolved commit of ${key} is not a full SHA` };
    const target = `${ref.owner}/${ref.repo}${ref.path === '' ? '' : `/${ref.path}`}@${pin.sha}`;
    const edits = replaceScalarValue(file.text, scalar, target, pin.version ?? ref.ref);
    return edits === null ? { skipped: 'the reference is not a one-line scalar' } : { edits, safe: true };
  },
});
