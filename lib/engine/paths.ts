/**
 * Which repository paths the engine reads, and as what. A module of its own, with no imports, so that readers
 * of a checkout (and the CLI benchmark's yaml-only baseline) can classify paths without loading the engine.
 */

export type FileKind = 'workflow' | 'action' | 'dependabot';

/** What the engine reads a path as, or null for files it ignores. */
export function classifyPath(path: string): FileKind | null {
  if (/^\.github\/workflows\/[^/]+\.ya?ml$/.test(path)) return 'workflow';
  if (/^\.github\/dependabot\.ya?ml$/.test(path)) return 'dependabot';
  if (/(^|\/)action\.ya?ml$/.test(path)) return 'action';
  return null;
}

/**
 * The places GitHub reads a CODEOWNERS file from, in the order it looks (the first found is used):
 * https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-code-owners#codeowners-file-location
 * Not scanned for findings: the engine reads the accounts it names (`codeOwners` in ./codeowners.ts).
 */
export const CODEOWNERS_PATHS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'] as const;

/** True for a CODEOWNERS file GitHub reads. */
export function isCodeOwnersPath(path: string): boolean {
  return (CODEOWNERS_PATHS as readonly string[]).includes(path);
}
