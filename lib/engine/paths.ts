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
