import { hasAny, scriptOf, wordMask } from '../analysis/file-scripts.js';
import { expandMatrix } from '../analysis/matrix-values.js';
import type { RepositoryModel } from '../model/repository.js';
import type { Job } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import type { Severity } from '../types.js';
import { getScalar, getText, scalarText, stringScalars, type YNode } from '../yaml/model.js';
import { ScanCache } from '../model/scan-cache.js';

type Pin = { kind: 'digest' } | { kind: 'tag'; tag: string } | { kind: 'latest' } | { kind: 'untagged' };

/** How an image reference is pinned: `[registry[:port]/]name[:tag][@digest]`. */
export function imagePin(reference: string): Pin {
  const image = reference.trim();
  if (/@[a-z0-9]+:[0-9a-f]{32,}/i.test(image)) return { kind: 'digest' };
  const name = image.slice(image.lastIndexOf('/') + 1);
  const colon = name.indexOf(':');
  if (colon === -1) return { kind: 'untagged' };
  const tag = name.slice(colon + 1);
  return tag === '' || tag.toLowerCase() === 'latest' ? { kind: 'latest' } : { kind: 'tag', tag };
}

interface Unpinned {
  image: string;
  severity: Severity;
}

/** The unpinned images among the values `text` can take; null when it cannot be resolved. */
function unpinned(job: Job | null, text: string): Unpinned[] | null {
  const values = text.includes('${{') ? expandMatrix(job, text) : [text];
  if (values === null) return resolvePartially(text);
  const result: Unpinned[] = [];
  for (const value of values) {
    // An empty container value (`container: ''` in one matrix leg) means "no container".
    if (value.trim() === '') continue;
    const pin = imagePin(value);
    if (pin.kind === 'digest') continue;
    result.push({ image: value.trim(), severity: pin.kind === 'tag' ? 'MEDIUM' : 'HIGH' });
  }
  return result;
}

/**
 * An image with an expression other than a matrix value: judged only when the expression sits in the
 * registry or repository part and a literal tag or digest follows (`${{ env.REGISTRY }}/app:latest`).
 */
function resolvePartially(text: string): Unpinned[] | null {
  const lastExpression = text.lastIndexOf('}}');
  const tail = text.slice(lastExpression + 2);
  if (lastExpression === -1 || !tail.includes('/') || /\$\{\{/.test(tail)) return null;
  const pin = imagePin(tail);
  if (pin.kind === 'digest') return [];
  return [{ image: text.trim(), severity: pin.kind === 'tag' ? 'MEDIUM' : 'HIGH' }];
}

/**
 * What marks an image as the repository's own: the names its workflows build or push (the last path
 * segment, tag removed, matrix values included) and the owners its workflows compare `github.repository`
 * or `github.repository_owner` against. Only the repository's maintainers can re-push such an image.
 */
interface OwnImages {
  names: Set<string>;
  owners: Set<string>;
}

const OWN_IMAGES = new ScanCache<RepositoryModel, OwnImages>();

const BUILD_LINE = /\bdocker\s+(?:buildx\s+)?(?:build|push|tag|image\s+push)\b|\b(?:podman|buildah)\s+(?:build|push|bud)\b/;
/** A script without one of these words has no `BUILD_LINE` (file-scripts.ts). */
const BUILDERS = wordMask('docker', 'podman', 'buildah');

function imageName(word: string): string {
  return word.replace(/@.*$/, '').replace(/:[^/]*$/, '').replace(/^.*\//, '').replace(/["']/g, '').toLowerCase();
}

export function ownImages(repository: RepositoryModel): OwnImages {
  const cached = OWN_IMAGES.get(repository);
  if (cached !== undefined) return cached;
  const own: OwnImages = { names: new Set(), owners: new Set() };
  for (const workflow of repository.workflows) {
    const text = workflow.file.text;
    for (const m of text.matchAll(/github\.repository(?:_owner)?\s*==\s*'([\w.-]+)(?:\/[\w.-]+)?'|'([\w.-]+)(?:\/[\w.-]+)?'\s*==\s*github\.repository(?:_owner)?\b/g)) {
      own.owners.add((m[1] ?? m[2] ?? '').toLowerCase());
    }
    for (const job of workflow.jobs) {
      const built: string[] = [];
      for (const step of job.steps) {
        if (step.usesRef?.kind === 'repository' && /^docker\/(build-push-action|bake-action)$/.test(step.usesRef.slug)) {
          built.push(...(getText(step.with, 'tags') ?? '').split(/[\s,]+/));
        }
        // Only string scripts can hold a build command; most name no container tool at all.
        const script = scriptOf(step);
        if (script === null || !hasAny(script.words, BUILDERS)) continue;
        for (const line of script.text.split('\n')) if (BUILD_LINE.test(line)) built.push(...line.split(/\s+/));
      }
      if (built.length === 0) continue;
      for (const word of built) if (word !== '' && !word.startsWith('-')) own.names.add(imageName(word.replace(/\$\{\{[^}]*\}\}/g, '')));
      // `tags: ${{ env.REGISTRY }}/${{ matrix.image-name }}:latest`: the matrix lists the names it builds.
      if (job.strategy === undefined || !built.some((w) => w.includes('matrix.'))) continue;
      for (const scalar of stringScalars(job.strategy)) {
        if (typeof scalar.value === 'string' && /^[\w.-]+$/.test(scalar.value)) own.names.add(scalar.value.toLowerCase());
      }
    }
  }
  own.names.delete('');
  OWN_IMAGES.set(repository, own);
  return own;
}

/**
 * Whether an image reference is one of the repository's own images: a name its workflows build, or published
 * under an owner they name, or under `owner`, the scanned repository's owner when the caller knows it.
 */
export function isOwnImage(own: OwnImages, reference: string, owner: string | null = null): boolean {
  const image = reference.trim().replace(/^docker:\/\//, '');
  if (image.includes('${{')) return false;
  const parts = image.replace(/@.*$/, '').split('/');
  if (own.names.has(imageName(image))) return true;
  const namespace = (parts.length >= 3 ? parts[1] : parts.length === 2 ? parts[0] : undefined)?.toLowerCase();
  return namespace !== undefined && (own.owners.has(namespace) || namespace === (owner ?? null));
}

export default defineWorkflowRule({
  meta: {
    id: 'unpinned-image',
    category: 'CICD-SEC-3',
    title: 'Container image not pinned by digest',
    severity: 'MEDIUM',
    surface: 'workflow',
    fix: { safe: true },
    description:
      'A job container, service container, `docker://` step image or docker action `runs.image` is referenced by a tag instead of an `@sha256:` digest, so a re-pushed tag silently changes the code that runs. HIGH when the tag is `latest` or missing.',
    recommendation:
      'Reference the image by digest and keep the tag for readers (`image: node:22-bookworm@sha256:<digest>`); let Dependabot (`package-ecosystem: docker`) or Renovate update the digest.',
  },
  create: (context) => ({
    job(job) {
      const container = job.container;
      if (container?.kind === 'scalar') check(context, job, container, 'job container');
      else check(context, job, getScalar(container, 'image'), 'job container');
      for (const pair of job.services?.pairs ?? []) {
        const service = pair.value;
        const image = service.kind === 'scalar' ? service : getScalar(service, 'image');
        check(context, job, image, `service \`${scalarText(pair.key) ?? ''}\``, undefined, true);
      }
    },
    action(action) {
      // A docker action's `runs.image: docker://...` (an `image: Dockerfile` is built from the repository).
      const image = getScalar(action.runs, 'image');
      const text = image === undefined ? null : scalarText(image);
      if (action.using !== 'docker' || text === null || !text.trim().startsWith('docker://')) return;
      check(context, null, image, 'docker action', text.trim().slice('docker://'.length));
    },
    step(step) {
      if (step.usesRef?.kind !== 'docker' || step.uses === undefined) return;
      check(context, step.job, step.uses, '`docker://` step', step.usesRef.image);
    },
  }),
});

/** Docker Official Images (`ubuntu`, `node:22`, `docker.io/library/postgres`), published by Docker's own program. */
export function isOfficialImage(reference: string): boolean {
  const name = reference.trim().replace(/^docker:\/\//, '').replace(/^(docker\.io|index\.docker\.io|registry-1\.docker\.io)\/library\//, '');
  return !name.includes('/') && !name.includes('${{');
}

function check(context: WorkflowRuleContext, job: Job | null, node: YNode | undefined, where: string, text?: string, service = false): void {
  if (node?.kind !== 'scalar' || (text === undefined && typeof node.value !== 'string')) return;
  const value = text ?? scalarText(node);
  if (value === null || value.trim() === '') return;
  const found = unpinned(job, value);
  if (found === null || found.length === 0) return;
  const own = ownImages(context.repository);
  const ownOnly = found.every((f) => isOwnImage(own, f.image, context.owner ?? null));
  // Judged per image (a matrix can list the repository's own `:latest` next to a tagged third-party image):
  // the repository's own images never make it floating.
  const others = found.filter((f) => !isOwnImage(own, f.image, context.owner ?? null));
  const floating: Severity = (ownOnly ? found : others).some((f) => f.severity === 'HIGH') ? 'HIGH' : 'MEDIUM';
  // A floating third-party image is HIGH only where it runs the job's steps with a namespace anyone can register.
  const officialOnly = others.filter((f) => f.severity === 'HIGH').every((f) => isOfficialImage(f.image));
  const capped = floating === 'HIGH' && (service || officialOnly);
  const severity: Severity = ownOnly ? 'LOW' : capped ? 'MEDIUM' : floating;
  const images = [...new Set(found.map((f) => f.image))];
  const shown = images.slice(0, 3).map((i) => `\`${i}\``).join(', ') + (images.length > 3 ? ` and ${images.length - 3} more` : '');
  const why = floating === 'HIGH' ? 'has no tag or uses `latest`, so it follows whatever is pushed next' : 'is pinned by a tag, which its publisher can re-push';
  const ownWhy = ownOnly
    ? ' LOW: it is the repository\'s own image (its workflows build or push it, or it is published under the owner\'s namespace), so only its maintainers can change it.'
    : !capped
      ? ''
      : officialOnly
        ? ' MEDIUM: it is a Docker Official Image, published by Docker\'s reviewed program rather than an arbitrary account.'
        : ' MEDIUM: a service container runs beside the job, without its steps, secrets or workspace.';
  context.report({
    node,
    severity,
    message: `The ${where} image ${shown} ${why}; it is not pinned by \`@sha256:\` digest.${ownWhy}`,
  });
}
