/** A parsed `uses:` reference. */
export type UsesRef =
  /** `./path`, resolved in the workspace; `self` for GitHub's `$/path`, resolved at the workflow's own commit. */
  | { readonly kind: 'local'; readonly path: string; readonly self?: true }
  | { readonly kind: 'docker'; readonly image: string }
  | {
      readonly kind: 'repository';
      readonly owner: string;
      readonly repo: string;
      /** Sub-path inside the repository (`owner/repo/path@ref`), '' when none. */
      readonly path: string;
      readonly ref: string;
      /** True for reusable workflows (`.../.github/workflows/x.yml@ref`). */
      readonly isWorkflow: boolean;
      /**
       * `owner/repo` in lower case, the identity actions are compared by: computed once here, because rules ask
       * for it for the same step many times over.
       */
      readonly slug: string;
    }
  | { readonly kind: 'invalid'; readonly text: string };

const SHA = /^[0-9a-f]{40}$/i;

/**
 * `$/path` is GitHub's self-repository form (announced 2026-07): the workflow or action at `path` of the
 * repository the run belongs to, read like `./path`. A `@ref` suffix, if any, names a revision of the same
 * repository, whose code the same people control.
 */
const SELF_REPOSITORY = /^\$\/([^@]*)(?:@.*)?$/;

/**
 * Every kind's fields, undefined where the kind has none. Each reference is this object with its own kind's
 * fields set, so all references share one object shape: the rules read `kind`, `slug`, `ref` ... of every
 * step's reference, and property reads that meet references of four or five shapes are slower than those
 * that meet one. The type stays the union: a field of another kind is not there to read.
 */
const NO_FIELDS = {
  kind: undefined,
  path: undefined,
  self: undefined,
  image: undefined,
  owner: undefined,
  repo: undefined,
  ref: undefined,
  isWorkflow: undefined,
  slug: undefined,
  text: undefined,
} as const;

const WORKFLOW_PATH = /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/;

export function parseUses(text: string): UsesRef {
  const value = text.trim();
  if (value.startsWith('$/')) {
    const self = SELF_REPOSITORY.exec(value);
    if (self !== null) return { ...NO_FIELDS, kind: 'local', path: `./${self[1] ?? ''}`, self: true };
  }
  if (value.startsWith('./') || value.startsWith('../') || value === '.') return { ...NO_FIELDS, kind: 'local', path: value };
  if (value.startsWith('docker://')) return { ...NO_FIELDS, kind: 'docker', image: value.slice('docker://'.length) };
  const at = value.lastIndexOf('@');
  if (at <= 0) return { ...NO_FIELDS, kind: 'invalid', text: value };
  const ref = value.slice(at + 1);
  // owner/repo[/path]: the path is what follows the second slash before the `@`.
  const slash = value.indexOf('/');
  const ownerEnd = slash === -1 || slash > at ? at : slash;
  const repoEnd = ownerEnd === at ? at : nextSlash(value, ownerEnd + 1, at);
  const owner = value.slice(0, ownerEnd);
  const repo = ownerEnd === at ? '' : value.slice(ownerEnd + 1, repoEnd);
  if (owner === '' || repo === '' || ref === '') return { ...NO_FIELDS, kind: 'invalid', text: value };
  const path = repoEnd === at ? '' : value.slice(repoEnd + 1, at);
  const isWorkflow = WORKFLOW_PATH.test(path);
  return { ...NO_FIELDS, kind: 'repository', owner, repo, path, ref, isWorkflow, slug: `${owner}/${repo}`.toLowerCase() };
}

/** The first `/` in `text[from, end)`, or `end`. */
function nextSlash(text: string, from: number, end: number): number {
  const slash = text.indexOf('/', from);
  return slash === -1 || slash > end ? end : slash;
}

export function isFullSha(ref: string): boolean {
  return SHA.test(ref);
}

/**
 * A step's action is a checkout: `actions/checkout`, or a copy of it kept under another owner with the same
 * repository name (`<owner>/checkout`), which organisations fork to pin or vendor it. Such copies take the same
 * inputs (`repository`, `ref`, `path`, `persist-credentials`) and check out code the same way, so every
 * question the scan asks of a checkout (what it brings in, where, and what it leaves in `.git/config`) is asked
 * of them too. A sub-path (`owner/checkout/x@v1`) is some other action kept in that repository.
 */
export function isCheckoutAction(ref: UsesRef | undefined): boolean {
  return ref?.kind === 'repository' && ref.path === '' && !ref.isWorkflow && ref.slug.endsWith('/checkout');
}
