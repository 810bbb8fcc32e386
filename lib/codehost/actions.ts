import type { RepositoryFile } from '../engine/types.js';

/**
 * Action definitions anywhere in a repository (`**\/action.yml|yaml`): which ones both code hosts read, and
 * within which bounds. The checkout reader (checkout.ts) and the GitHub code host (github/files.ts) share
 * these rules so that a clone and GitHub give the engine the same files (the parity test checks it).
 *
 * - The workflow surface is read as before: the root action, `.github/actions/**` (`FIXED_ACTION_LEVELS`
 *   levels) and every local action a workflow or action names with `uses: ./dir`, whatever the bounds.
 * - Beyond it, action definitions found by listing the whole repository are read in path order, at most
 *   `MAX_ACTION_DEFINITIONS`; directories named in `UNLISTED_DIRECTORIES` are not searched (vendored
 *   dependencies are not the repository's actions).
 * - A listing is bounded by `MAX_LISTED_ENTRIES` (GitHub's own limit for a recursive tree).
 * - What the bounds leave out is never dropped silently: each such file, or the listing that stopped, is
 *   passed on as a `RepositoryFile` with `skipped`, and the engine reports it as `scan-limit-reached`.
 */

/** Action definitions read beyond the workflow surface (in path order). */
export const MAX_ACTION_DEFINITIONS = 200;
/** Entries (files and directories) a listing of the repository goes through: GitHub's recursive-tree limit. */
export const MAX_LISTED_ENTRIES = 100_000;
/** Directories the repository-wide search does not enter. */
export const UNLISTED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules']);
/** Path components under `.github/actions/` the checkout reader walks (`<dir>/` x 8 + `action.yml`). */
export const FIXED_ACTION_LEVELS = 9;

/** The path the engine's limit finding names when the listing itself stopped. */
export const UNLISTED_PATH = '**/action.yml';

/** Why an action definition past the count bound was not read. */
export const OVER_COUNT = `at most ${MAX_ACTION_DEFINITIONS} action definitions outside the workflow surface (.github/workflows, .github/actions and the local actions workflows use) are read`;
/**
 * Why the search itself stopped. The count's digits are grouped by hand: `toLocaleString` here, evaluated when the
 * module loads, made every CLI scan load ICU's number formatting (about 110 M instructions, 2% of a scan of ten
 * repositories) for a message almost no scan prints.
 */
export const LISTING_TRUNCATED = `the repository has more than ${groupDigits(MAX_LISTED_ENTRIES)} files and directories, so action definitions beyond them were not looked for`;

/** `n` with its digits grouped in threes by commas, as `toLocaleString('en-US')` writes a non-negative integer. */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** An `action.yml` / `action.yaml` outside the directories the search skips. */
export function isActionDefinition(path: string): boolean {
  const parts = path.split('/');
  const name = parts[parts.length - 1];
  if (name !== 'action.yml' && name !== 'action.yaml') return false;
  return !parts.slice(0, -1).some((part) => UNLISTED_DIRECTORIES.has(part));
}

/** Read whatever the bounds: the root action and those the `.github/actions` walk covers. */
export function isWorkflowSurfaceAction(path: string): boolean {
  if (path === 'action.yml' || path === 'action.yaml') return true;
  if (!path.startsWith('.github/actions/')) return false;
  const parts = path.slice('.github/actions/'.length).split('/');
  const name = parts[parts.length - 1];
  return parts.length <= FIXED_ACTION_LEVELS && (name === 'action.yml' || name === 'action.yaml');
}

/**
 * Splits the action definitions a listing found (regular files only) into those to read and those over
 * the count bound. The workflow-surface actions are neither: they are read anyway.
 */
export function planActionDefinitions(paths: Iterable<string>): { read: string[]; over: string[] } {
  const found = [...new Set(paths)].filter((p) => isActionDefinition(p) && !isWorkflowSurfaceAction(p)).sort(compare);
  return { read: found.slice(0, MAX_ACTION_DEFINITIONS), over: found.slice(MAX_ACTION_DEFINITIONS) };
}

/**
 * The entries that tell the engine what was left out: each file over the bound that was not read after all
 * (a workflow may use it as a local action), and the listing when it stopped.
 */
export function skippedActionFiles(over: readonly string[], collected: ReadonlySet<string>, truncated: boolean): RepositoryFile[] {
  const skipped: RepositoryFile[] = over.filter((p) => !collected.has(p)).map((path) => ({ path, text: '', skipped: OVER_COUNT }));
  if (truncated) skipped.push({ path: UNLISTED_PATH, text: '', skipped: LISTING_TRUNCATED });
  return skipped;
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
