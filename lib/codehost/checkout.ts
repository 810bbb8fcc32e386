import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { join, sep } from 'node:path';
import { CODEOWNERS_PATHS, classifyPath, isCodeOwnersPath } from '../engine/paths.js';
import { MAX_FILE_BYTES } from '../engine/yaml/limits.js';
import type { RepositoryFile } from '../engine/types.js';
import { compare, isActionDefinition, MAX_LISTED_ENTRIES, planActionDefinitions, skippedActionFiles, UNLISTED_DIRECTORIES } from './actions.js';

/**
 * The reader of a local checkout (the CLI and the local code host). Everything in a checkout is the scanned
 * repository's, so hostile: a path is read only when its real path (every symbolic link resolved) lies inside
 * the checkout's real path. A link that stays inside is followed; one that leaves it is refused and
 * reported, never followed: a file the engine would read becomes an unreadable file (the engine reports it as
 * a finding), and every refusal is also added to `warnings`.
 */

/** Why a path that leaves the checkout is not read. */
export const OUTSIDE_CHECKOUT = 'it is a symbolic link that leads outside the repository checkout, so it was not read';

export interface CollectOptions {
  /** Receives one line per refused path (a symbolic link leaving the checkout). */
  warnings?: string[];
}

export type Resolved = { kind: 'inside'; real: string } | { kind: 'outside' } | { kind: 'missing' };

/**
 * Where `path` (relative to a checkout) really is, judged against the checkout's real path `realRoot`
 * (`realpath(root)`): `inside` with its real path, `outside` when a link leads out, `missing` otherwise.
 */
export async function resolveInside(realRoot: string, path: string): Promise<Resolved> {
  return resolveInsideSync(realRoot, path);
}

/**
 * The synchronous form of `resolveInside`. The checkout reader makes a few system calls per file; as
 * promises each one is a round trip through libuv's thread pool, which cost more than the calls themselves
 * (most of a corpus scan's reading time), so the reader calls the file system directly.
 */
function resolveInsideSync(realRoot: string, path: string): Resolved {
  let real: string;
  try {
    real = realpathSync.native(join(realRoot, path));
  } catch {
    return { kind: 'missing' }; // absent, a dangling link or a loop: nothing to read
  }
  return isInside(realRoot, real) ? { kind: 'inside', real } : { kind: 'outside' };
}

function isInside(realRoot: string, real: string): boolean {
  return real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

/** Reads at most `limit` bytes (by default one byte past the engine's limit: the engine reports the file as too large). */
export async function readBounded(path: string, limit = MAX_FILE_BYTES + 1): Promise<string> {
  return readBoundedSync(path, limit);
}

function readBoundedSync(path: string, limit: number): string {
  // O_NOFOLLOW: `path` is already real; a link swapped in since then is refused rather than followed.
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    // Sized by the file, not by the limit: a zero-filled megabyte per workflow file dominated a corpus
    // scan's time and memory. One byte more than the size, so a file that grew since is seen to go on.
    let buffer = Buffer.allocUnsafe(Math.max(1, Math.min(limit, fstatSync(fd).size + 1)));
    let bytesRead = 0;
    for (;;) {
      const n = readSync(fd, buffer, bytesRead, buffer.length - bytesRead, bytesRead);
      bytesRead += n;
      if (n === 0 || bytesRead === limit) break;
      if (bytesRead === buffer.length) buffer = Buffer.concat([buffer], Math.min(limit, buffer.length * 2));
    }
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export async function kindOf(real: string): Promise<'file' | 'dir' | null> {
  return kindOfSync(real);
}

function kindOfSync(real: string): 'file' | 'dir' | null {
  try {
    const s = statSync(real);
    return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : null;
  } catch {
    return null;
  }
}

/** Local action directories a workflow or action names with `uses: ./path` (or the self-repository form `uses: $/path`). */
export function localActionPaths(text: string): string[] {
  const paths: string[] = [];
  for (const match of text.matchAll(/uses:\s*["']?[.$]\/([^"'\s#@]*)/g)) {
    const path = (match[1] ?? '').replace(/\/+$/, '');
    if (!path.split('/').includes('..')) paths.push(path);
  }
  return paths;
}

/**
 * The files of a repository checkout the engine reads: workflows, Dependabot config, the root action,
 * actions under `.github/actions/**`, any local action a workflow or action uses, and action definitions
 * anywhere else within the bounds of `./actions.ts` (what they leave out is passed on with `skipped`). Only
 * files inside the checkout are read (see above).
 */
export async function collectRepositoryFiles(root: string, options: CollectOptions = {}): Promise<RepositoryFile[]> {
  const realRoot = realpathSync.native(root);
  const files = new Map<string, RepositoryFile>();
  const refused = new Set<string>();
  const refuse = (path: string) => {
    if (refused.has(path)) return;
    refused.add(path);
    options.warnings?.push(`${path}: ${OUTSIDE_CHECKOUT}.`);
  };

  /**
   * Reads `path` when the engine reads such a file. `real` is given when a directory listing already proved
   * it: a regular file (not a link) in a directory whose real path lies inside the checkout.
   */
  const add = (path: string, real?: string) => {
    if (files.has(path) || (classifyPath(path) === null && !isCodeOwnersPath(path))) return;
    if (real === undefined) {
      const resolved = resolveInsideSync(realRoot, path);
      if (resolved.kind === 'missing') return;
      if (resolved.kind === 'outside') {
        refuse(path);
        files.set(path, { path, text: '', unreadable: OUTSIDE_CHECKOUT });
        return;
      }
      if (kindOfSync(resolved.real) !== 'file') return;
      real = resolved.real;
    }
    files.set(path, { path, text: readBoundedSync(real, MAX_FILE_BYTES + 1) });
  };

  /**
   * The entries of a directory of the checkout (`real`: the entry's real path when it is a regular file or
   * directory, not a link); a directory that leaves the checkout is refused.
   */
  const listDirectory = (path: string): { name: string; dir: boolean; real?: string }[] => {
    const resolved = resolveInsideSync(realRoot, path);
    if (resolved.kind === 'outside') refuse(path);
    if (resolved.kind !== 'inside') return [];
    let entries: Dirent[];
    try {
      entries = readdirSync(resolved.real, { withFileTypes: true });
    } catch {
      return [];
    }
    const listed: { name: string; dir: boolean; real?: string }[] = [];
    for (const e of entries) {
      if (!e.isSymbolicLink()) {
        listed.push(e.isFile() || e.isDirectory() ? { name: e.name, dir: e.isDirectory(), real: join(resolved.real, e.name) } : { name: e.name, dir: false });
        continue;
      }
      const target = resolveInsideSync(realRoot, `${path}/${e.name}`);
      if (target.kind === 'outside') {
        // A file the engine reads is refused by `add`, which also reports it as unreadable.
        if (classifyPath(`${path}/${e.name}`) !== null) listed.push({ name: e.name, dir: false });
        else refuse(`${path}/${e.name}`);
        continue;
      }
      if (target.kind === 'inside') listed.push({ name: e.name, dir: kindOfSync(target.real) === 'dir' });
    }
    return listed;
  };

  for (const entry of listDirectory('.github/workflows')) {
    if (!entry.dir) add(`.github/workflows/${entry.name}`, entry.real);
  }
  for (const name of ['dependabot.yml', 'dependabot.yaml']) add(`.github/${name}`);
  for (const name of ['action.yml', 'action.yaml']) add(name);
  // Who owns the code (the accounts it names are people with write access: engine/codeowners.ts).
  for (const path of CODEOWNERS_PATHS) add(path);
  const walk = (dir: string, depth: number) => {
    if (depth > 8) return;
    for (const entry of listDirectory(dir)) {
      if (entry.dir) walk(`${dir}/${entry.name}`, depth + 1);
      else add(`${dir}/${entry.name}`, entry.real);
    }
  };
  walk('.github/actions', 0);
  // Action definitions anywhere else in the repository, within the bounds both code hosts share (actions.ts).
  const listing = await listActionDefinitions(realRoot);
  const plan = planActionDefinitions(listing.paths);
  for (const path of plan.read) add(path);
  const queue = [...files.values()];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === undefined) break;
    for (const dir of localActionPaths(file.text)) {
      if (dir !== '' && resolveInsideSync(realRoot, dir).kind === 'outside') {
        refuse(dir);
        continue;
      }
      for (const name of ['action.yml', 'action.yaml']) {
        const path = dir === '' ? name : `${dir}/${name}`;
        const before = files.size;
        add(path);
        const added = files.get(path);
        if (files.size > before && added !== undefined && added.unreadable === undefined) queue.push(added);
      }
    }
  }
  for (const file of skippedActionFiles(plan.over, new Set(files.keys()), listing.truncated)) files.set(file.path, file);
  return [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The regular files named `action.yml|yaml` in a checkout, found breadth-first in name order without
 * following symbolic links (a git tree lists a link as a link, never what it points to) and without entering
 * `UNLISTED_DIRECTORIES`; at most `MAX_LISTED_ENTRIES` entries are looked at (`truncated` past them).
 */
export async function listActionDefinitions(realRoot: string, maxEntries = MAX_LISTED_ENTRIES): Promise<{ paths: string[]; truncated: boolean }> {
  const paths: string[] = [];
  const queue: string[] = [''];
  let seen = 0;
  for (let i = 0; i < queue.length; i++) {
    const dir = queue[i] ?? '';
    let entries: Dirent[];
    try {
      entries = readdirSync(dir === '' ? realRoot : join(realRoot, dir), { withFileTypes: true });
    } catch {
      continue; // unreadable or vanished: nothing to list
    }
    entries.sort((a, b) => compare(a.name, b.name));
    for (const entry of entries) {
      if (++seen > maxEntries) return { paths, truncated: true };
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!UNLISTED_DIRECTORIES.has(entry.name)) queue.push(path);
      } else if (entry.isFile() && isActionDefinition(path)) paths.push(path);
    }
  }
  return { paths, truncated: false };
}
