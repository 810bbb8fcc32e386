/**
 * The container images a job run pushes itself, step by step: `docker/build-push-action` (and `bake-action`) tags
 * when it pushes (and the images of the metadata step whose tags it takes: `docker/metadata-action`, or a local
 * action given `images:`, publishing.ts `isMetadataStep`), and in scripts
 * `docker push`, `docker buildx build --push -t`, `docker buildx imagetools create -t`, `docker manifest push`,
 * and the destination of `crane copy`/`cp`/`push`, `skopeo copy`, `regctl image copy` and `oras copy`.
 *
 * An image a job (or a job it needs, in the same run) pushed and then reads back (a copy to another tag or
 * registry, a pull to retag) is the run's own output, not someone else's artifact: provenance-not-verified reads
 * this before it says the job takes in an image it did not build.
 *
 * References compare by repository (`registry/path`, tag and digest removed), resolved: a variable is replaced
 * by its literal values (the `env:` the step sees, an assignment earlier in the script, the matrix: ownership.ts
 * `resolveWord`), and one the scan cannot read stays one token (`${{ env.IMAGE }}`, `$IMAGE` and `${IMAGE}` alike).
 */
import type { RepositoryModel } from '../../model/repository.js';
import { ScanCache } from '../../model/scan-cache.js';
import type { Job, Step } from '../../model/workflow.js';
import { getText, isTruthy, get } from '../../yaml/model.js';
import { logicalLines } from '../../shell.js';
import { hasAny, scriptOf, wordMask } from '../file-scripts.js';
import { resolveWord } from './ownership.js';
import { neededJobs } from '../validation.js';
import { isMetadataStep } from '../publishing.js';

export interface ImagePush {
  step: Step;
  /** Offset of the pushing command in the step's script (0 for an action). */
  offset: number;
  /** The repository keys the pushed reference matches (`imageKeys`). */
  keys: ReadonlySet<string>;
}

/** At most this many pushes are read per job. */
const MAX_PUSHES = 64;

const TOOLS = wordMask('docker', 'podman', 'buildah', 'crane', 'skopeo', 'regctl', 'oras');
/** One shell word, quotes and `${{ }}` expressions (spaces inside them included) kept whole. */
export const WORD = String.raw`(?:"[^"\n]*"|'[^'\n]*'|\$\{\{[^}\n]*\}\}|[^\s;&|"'])+`;
/** Commands that copy an image from one registry to another: the command, then its arguments (`copyImages`). */
export const IMAGE_COPY = /\b(crane\s+(?:copy|cp)|skopeo\s+copy|regctl\s+image\s+copy|oras\s+(?:copy|cp))\b([^\n;&|]*)/g;
/** Options of the copy commands that take a separate value (`--platform linux/amd64`), which is no image. */
const VALUE_OPTIONS = new Set(['--platform', '--src-creds', '--dest-creds', '--creds', '--authfile', '--src-authfile', '--dest-authfile', '--format', '-f', '--multi-arch', '--src-cert-dir', '--dest-cert-dir', '--retry-times', '--jobs', '-j', '--sign-by', '--additional-tag', '--digestfile']);

/**
 * A `skopeo` (or containers/image) transport that names no registry: a local OCI layout or archive, a directory, the
 * local Docker daemon or containers storage (`oci:image:tag`, `docker-daemon:app:dev`). A copy from one takes in the
 * job's own files; a copy to one publishes nothing.
 */
export function localTransport(reference: string): boolean {
  return /^["']?(?:oci|oci-archive|dir|docker-archive|docker-daemon|containers-storage):/i.test(reference);
}

/**
 * The image words of a copy command's arguments (options and their values left out, wherever they stand): source,
 * then destination.
 */
export function copyImages(args: string): string[] {
  const words = [...args.matchAll(new RegExp(WORD, 'g'))].map((m) => m[0]);
  const images: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word.startsWith('-')) {
      if (!word.includes('=') && VALUE_OPTIONS.has(word)) i++;
      continue;
    }
    images.push(word);
  }
  return images;
}
const CRANE_PUSH = /\bcrane\s+push\s+(?:--?\S+\s+)*\S+\s+([^\s;&|]+)/g;
const PUSH = /\b(?:docker|podman|buildah)\s+(?:image\s+|manifest\s+)?push\s+(?:--?\S+\s+)*([^\s;&|]+)/g;
const BUILD = /\b(?:docker|podman)\s+(?:buildx\s+)?(?:build|imagetools\s+create)\b([^\n|;&]*)/g;

/**
 * The keys an image reference compares by: its repository (tag and digest removed), lower-cased, with every
 * variable written one way, and its variables replaced by their literal values where the scan can read them.
 */
export function imageKeys(repository: RepositoryModel, step: Step, reference: string, script?: { text: string; offset: number }): Set<string> {
  const keys = new Set<string>();
  const add = (word: string) => {
    const key = repositoryKey(word);
    if (key !== '') keys.add(key);
  };
  // The values it takes (the word itself where nothing resolves): a variable read from different `env:` in two
  // jobs compares by its values, not by its name.
  for (const value of resolveWord(repository, step, reference, script)) add(value);
  return keys;
}

/** `ghcr.io/acme/app:1@sha256:...` -> `ghcr.io/acme/app`; `${{ env.IMAGE }}:${{ github.sha }}` -> `$image`. */
function repositoryKey(reference: string): string {
  let word = reference.trim().replace(/^["']|["']$/g, '').replace(/^(?:docker|oci|docker-daemon):\/\//, '');
  word = word.replace(/\$\{\{\s*env\.(\w+)\s*\}\}/g, '$$$1').replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, e: string) => `\${{${e.replace(/\s+/g, '')}}}`).replace(/\$\{(\w+)\}/g, '$$$1');
  word = word.replace(/@[^/]*$/, '');
  const slash = word.lastIndexOf('/');
  const colon = word.lastIndexOf(':');
  if (colon > slash) word = word.slice(0, colon);
  word = word.toLowerCase();
  // A bare variable or expression with nothing else says nothing about which repository it is.
  return word === '' || word.startsWith('-') ? '' : word;
}

const cache = new ScanCache<Job, readonly ImagePush[]>();

/** The images a job pushes itself, in step order (read once per job). */
export function jobImagePushes(repository: RepositoryModel, job: Job): readonly ImagePush[] {
  let found = cache.get(job);
  if (found !== undefined) return found;
  const pushes: ImagePush[] = [];
  const add = (step: Step, offset: number, word: string, script?: { text: string; offset: number }) => {
    if (pushes.length >= MAX_PUSHES) return;
    const keys = imageKeys(repository, step, word, script);
    if (keys.size > 0) pushes.push({ step, offset, keys });
  };
  const metadataImages = new Map<string, string[]>();
  for (const step of job.steps) {
    const slug = step.usesRef?.kind === 'repository' ? step.usesRef.slug : null;
    if (step.id !== null && isMetadataStep(step)) {
      metadataImages.set(step.id, (getText(step.with, 'images') ?? '').split('\n').map((l) => (l.split(',')[0] ?? '').trim().replace(/^name=/, '')).filter((l) => l !== ''));
    }
    if (slug === 'docker/build-push-action' || slug === 'docker/bake-action') {
      const push = get(step.with, 'push');
      if (!(isTruthy(push) || /\$\{\{/.test(getText(step.with, 'push') ?? ''))) continue;
      const tags = getText(step.with, 'tags') ?? '';
      for (const word of tags.split(/[\n,]+/).map((t) => t.trim()).filter((t) => t !== '')) {
        const meta = /^\$\{\{\s*steps\.([\w-]+)\.outputs\.tags\s*\}\}$/.exec(word);
        if (meta !== null) for (const image of metadataImages.get(meta[1] as string) ?? []) add(step, 0, image);
        else add(step, 0, word);
      }
      continue;
    }
    const script = scriptOf(step);
    if (script === null || !hasAny(script.words, TOOLS)) continue;
    for (const line of logicalLines(script.text)) {
      const at = (index: number | undefined) => ({ text: script.text, offset: line.offset + (index ?? 0) });
      for (const m of line.text.matchAll(PUSH)) add(step, line.offset + (m.index ?? 0), m[1] ?? '', at(m.index));
      for (const m of line.text.matchAll(CRANE_PUSH)) add(step, line.offset + (m.index ?? 0), m[1] ?? '', at(m.index));
      for (const m of line.text.matchAll(IMAGE_COPY)) {
        // The last image word is the destination; an option after the operands (`--platform linux/amd64`) is none.
        const words = copyImages(m[2] ?? '');
        const destination = words[words.length - 1];
        if (words.length >= 2 && destination !== undefined && !localTransport(destination)) add(step, line.offset + (m.index ?? 0), destination, at(m.index));
      }
      for (const m of line.text.matchAll(BUILD)) {
        const args = (m[1] ?? '').replace(/\$\{\{[^}]*\}\}/g, (e) => e.replace(/\s+/g, '')).split(/\s+/);
        const creates = /imagetools/.test(m[0]);
        if (!creates && !args.some((a) => a === '--push' || /(?:^|[=,])(?:type=registry|push=true)\b/.test(a))) continue;
        for (let i = 0; i < args.length; i++) {
          const arg = args[i] as string;
          const tag = arg === '-t' || arg === '--tag' ? args[i + 1] : arg.startsWith('--tag=') ? arg.slice(6) : undefined;
          if (tag !== undefined) add(step, line.offset + (m.index ?? 0), tag, at(m.index));
        }
      }
    }
  }
  found = pushes;
  cache.set(job, found);
  return found;
}

/**
 * The push, in `step`'s run, of the image `reference` names before `step` reads it (at `offset` of its script):
 * by an earlier step of its job or earlier in the same script, or by a job it needs (directly or through others,
 * which all finish before it starts); null when the run pushed no such image.
 */
export function pushedBefore(repository: RepositoryModel, step: Step, reference: string, offset?: number): ImagePush | null {
  const job = step.job;
  if (job === null) return null;
  const script = scriptOf(step);
  const wanted = imageKeys(repository, step, reference, script === null || offset === undefined ? undefined : { text: script.text, offset });
  if (wanted.size === 0) return null;
  const matches = (push: ImagePush) => [...push.keys].some((k) => wanted.has(k));
  for (const push of jobImagePushes(repository, job)) {
    const earlier = push.step.index < step.index || (push.step === step && offset !== undefined && push.offset < offset);
    if (earlier && matches(push)) return push;
  }
  for (const needed of neededJobs(job)) {
    const push = jobImagePushes(repository, needed).find(matches);
    if (push !== undefined) return push;
  }
  return null;
}
