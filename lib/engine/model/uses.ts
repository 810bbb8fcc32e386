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

export function parseUses(text: string): UsesRef {
  const value = text.trim();
  const self = SELF_REPOSITORY.exec(value);
  if (self !== null) return { kind: 'local', path: `./${self[1] ?? ''}`, self: true };
  if (value.startsWith('./') || value.startsWith('../') || value === '.') return { kind: 'local', path: value };
  if (value.startsWith('docker://')) return { kind: 'docker', image: value.slice('docker://'.length) };
  const at = value.lastIndexOf('@');
  if (at <= 0) return { kind: 'invalid', text: value };
  const target = value.slice(0, at);
  const ref = value.slice(at + 1);
  const parts = target.split('/');
  const owner = parts[0] ?? '';
  const repo = parts[1] ?? '';
  if (owner === '' || repo === '' || ref === '') return { kind: 'invalid', text: value };
  const path = parts.slice(2).join('/');
  const isWorkflow = /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(path);
  return { kind: 'repository', owner, repo, path, ref, isWorkflow, slug: `${owner}/${repo}`.toLowerCase() };
}

export function isFullSha(ref: string): boolean {
  return SHA.test(ref);
}
