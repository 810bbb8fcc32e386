import { isFullSha, parseUses } from '../engine/model/uses.js';
import { classifyPath } from '../engine/scan.js';
import type { RepositoryFile } from '../engine/types.js';

/** One `uses:` of another repository's action or reusable workflow, where it is written. */
export interface ActionReference {
  file: string;
  /** 1-based line and column of the `uses:` value. */
  line: number;
  column: number;
  /** Lower case: GitHub's names are case-insensitive and the cache is shared. */
  owner: string;
  repo: string;
  ref: string;
  /** The version a `# vX.Y.Z` (or `# tag=vX.Y.Z`) comment on the same line names, when there is one. */
  version: string | null;
}

/** At most this many references per repository are audited; the rest are reported as unassessed. */
export const MAX_REFERENCES = 500;
const MAX_LINE = 1_000;

const USES_LINE = /^(\s*(?:-\s+)?uses\s*:\s*)(["']?)([^\s"'#]+)\2[ \t]*(?:#(.*))?$/;
const VERSION = /^\s*(?:(?:tag|version|ratchet:[^@\s]+@)\s*[=:]?\s*)?(v?\d+(?:\.\d+){0,3}(?:[-+][0-9A-Za-z.-]+)?)\b/;
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const REF = /^[A-Za-z0-9_./+-]{1,255}$/;

/**
 * The references to other repositories in a repository's workflow and action files, read line by line
 * (block-style `uses:` keys, which is how workflows write them). Names and refs that GitHub could not
 * hold are skipped, so nothing hostile reaches a request path.
 */
export function collectReferences(files: readonly RepositoryFile[]): ActionReference[] {
  const references: ActionReference[] = [];
  for (const file of files) {
    const kind = classifyPath(file.path);
    if ((kind !== 'workflow' && kind !== 'action') || file.unreadable !== undefined) continue;
    const lines = file.text.split('\n');
    for (const [i, raw] of lines.entries()) {
      if (raw.length > MAX_LINE) continue;
      const match = USES_LINE.exec(raw.replace(/\r$/, ''));
      if (match === null) continue;
      const [, prefix = '', quote = '', value = '', comment] = match;
      const uses = parseUses(value);
      if (uses.kind !== 'repository' || !NAME.test(uses.owner) || !NAME.test(uses.repo) || !REF.test(uses.ref) || uses.ref.includes('..')) continue;
      const version = comment === undefined ? null : (VERSION.exec(comment)?.[1] ?? null);
      references.push({
        file: file.path,
        line: i + 1,
        column: prefix.length + quote.length + 1,
        owner: uses.owner.toLowerCase(),
        repo: uses.repo.toLowerCase(),
        ref: isFullSha(uses.ref) ? uses.ref.toLowerCase() : uses.ref,
        version,
      });
    }
  }
  return references;
}

/**
 * The distinct references as the service stores them between scans (`owner/repo@ref#version`, sorted, at
 * most MAX_REFERENCES): what the next scan asks GitHub about while its snapshot is fetched.
 */
export function referenceKeys(references: readonly ActionReference[]): string[] {
  const keys = new Set(references.slice(0, MAX_REFERENCES).map((r) => `${r.owner}/${r.repo}@${r.ref}#${r.version ?? ''}`));
  return [...keys].sort();
}

const KEY = /^([A-Za-z0-9_.-]{1,100})\/([A-Za-z0-9_.-]{1,100})@([A-Za-z0-9_./+-]{1,255})#(v?\d+(?:\.\d+){0,3}(?:[-+][0-9A-Za-z.-]+)?)?$/;

/**
 * The references of stored keys, validated again as `collectReferences` validates a file's (anything else
 * is dropped): they reach GitHub's queries. Position fields are empty: these only say what to ask.
 */
export function referencesOfKeys(keys: readonly unknown[]): ActionReference[] {
  const references: ActionReference[] = [];
  for (const key of keys.slice(0, MAX_REFERENCES)) {
    const match = typeof key === 'string' ? KEY.exec(key) : null;
    if (match === null) continue;
    const [, owner = '', repo = '', ref = '', version] = match;
    if (ref.includes('..')) continue;
    references.push({ file: '', line: 0, column: 0, owner: owner.toLowerCase(), repo: repo.toLowerCase(), ref: isFullSha(ref) ? ref.toLowerCase() : ref, version: version ?? null });
  }
  return references;
}
