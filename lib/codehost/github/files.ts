import { classifyPath } from '../../engine/scan.js';
import { isCodeOwnersPath } from '../../engine/paths.js';
import type { RepositoryFile } from '../../engine/types.js';
import { MAX_FILE_BYTES } from '../../engine/yaml/parse.js';
import { localActionPaths } from '../checkout.js';
import { isObject } from '../../engine/settings/json.js';

/** Git's mode of a symbolic link (0o120000): a checkout has a link there, which the local reader skips. */
const SYMLINK_MODE = 0o120000;
/** GitHub's GraphQL API cuts `Blob.text` at this many bytes and sets `isTruncated`. */
export const GRAPHQL_TEXT_LIMIT = 512_000;

interface Entry {
  type: string;
  mode: number;
}

/**
 * The files of one repository as GraphQL delivers them, gathered the way `collectRepositoryFiles` reads
 * a checkout (lib/codehost/checkout.ts), so that a scan through GitHub and a scan of a clone see the same
 * files with the same bytes: only regular files (no symbolic links, no submodules), only the paths the
 * engine classifies, local actions followed from every file's `uses: ./path`. It also remembers every
 * directory listing it saw, which tells whether a local action still needs to be fetched.
 */
export class FileCollector {
  private readonly files = new Map<string, RepositoryFile>();
  private readonly listings = new Map<string, Map<string, Entry>>();
  /** Directories already asked for in a follow-up: never asked twice. */
  private readonly requested = new Set<string>();

  /** A tree object (`{ entries }`) at `dir`, walked `levels` deep; blobs with text become files. */
  addTree(dir: string, tree: unknown, levels: number): void {
    const entries = entriesOf(tree);
    if (entries === null) return;
    const listing = new Map<string, Entry>();
    this.listings.set(dir, listing);
    for (const entry of entries) {
      const name = entry.name;
      if (typeof name !== 'string' || typeof entry.type !== 'string' || typeof entry.mode !== 'number') continue;
      const kind = { type: entry.type, mode: entry.mode };
      listing.set(name, kind);
      const path = join(dir, name);
      if (isRegularFile(kind) && isObject(entry.object) && 'byteSize' in entry.object) this.addBlob(path, entry.object);
      else if (entry.type === 'tree' && levels > 1 && isObject(entry.object)) this.addTree(path, entry.object, levels - 1);
    }
  }

  /** A blob fetched by path: kept only when its directory's listing shows a regular file of that name. */
  addBlobAt(path: string, blob: unknown): void {
    if (!isObject(blob)) return;
    const slash = path.lastIndexOf('/');
    const entry = this.listings.get(slash < 0 ? '' : path.slice(0, slash))?.get(path.slice(slash + 1));
    if (entry !== undefined && isRegularFile(entry)) this.addBlob(path, blob);
  }

  /**
   * The entries of a recursive git tree (REST `GET .../git/trees/{sha}?recursive=1`): each directory's
   * listing, where GraphQL did not already give it. Only a complete tree may be passed: a listing cut short
   * would rule out local actions that exist.
   */
  addTreeListings(entries: readonly TreeEntry[]): void {
    for (const entry of entries) {
      const slash = entry.path.lastIndexOf('/');
      const dir = slash < 0 ? '' : entry.path.slice(0, slash);
      let listing = this.listings.get(dir);
      if (listing === undefined) {
        listing = new Map();
        this.listings.set(dir, listing);
      }
      const name = entry.path.slice(slash + 1);
      if (!listing.has(name)) listing.set(name, { type: entry.type, mode: entry.mode });
    }
  }

  /** A blob a tree entry showed to be a regular file. */
  addRegularBlob(path: string, blob: unknown): void {
    if (isObject(blob)) this.addBlob(path, blob);
  }

  /** Whether a file of that path was collected (readable or not). */
  has(path: string): boolean {
    return this.files.has(path);
  }

  /** Paths collected so far. */
  paths(): Set<string> {
    return new Set(this.files.keys());
  }

  /** Whether `dir` has a regular file `name` (false when the listing is unknown). */
  hasFile(dir: string, name: string): boolean {
    const entry = this.listings.get(dir)?.get(name);
    return entry !== undefined && entry.type === 'blob';
  }

  /**
   * Directories named by `uses: ./dir` whose `action.yml|yaml` is not known yet: neither fetched nor
   * ruled out by a listing of the directory or of one of its parents.
   */
  pendingLocalActions(): string[] {
    const pending = new Set<string>();
    for (const file of this.files.values()) {
      if (file.unreadable !== undefined) continue;
      for (const dir of localActionPaths(file.text)) {
        if (!this.requested.has(dir) && !this.settled(dir)) pending.add(dir);
      }
    }
    const dirs = [...pending].sort();
    for (const dir of dirs) this.requested.add(dir);
    return dirs;
  }

  /** The collected files, sorted by path like the local reader's. */
  result(): RepositoryFile[] {
    return [...this.files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  private addBlob(path: string, blob: Record<string, unknown>): void {
    if ((classifyPath(path) === null && !isCodeOwnersPath(path)) || this.files.has(path)) return;
    this.files.set(path, blobFile(path, blob));
  }

  private settled(dir: string): boolean {
    const listing = this.listings.get(dir);
    if (listing !== undefined) {
      return ['action.yml', 'action.yaml'].every((name) => {
        const entry = listing.get(name);
        return entry === undefined || !isRegularFile(entry) || this.files.has(join(dir, name));
      });
    }
    // A parent listing that lacks the next component, or has a file there, rules the directory out.
    const parts = dir.split('/');
    for (let i = parts.length - 1; i >= 0; i--) {
      const parent = this.listings.get(parts.slice(0, i).join('/'));
      if (parent === undefined) continue;
      const entry = parent.get(parts[i] ?? '');
      return entry === undefined || entry.type !== 'tree';
    }
    return false;
  }
}

/**
 * A blob as the engine's input. Text GitHub could not deliver whole is never passed on partially: the
 * file carries `unreadable`, and the engine reports it. A file over the engine's own size limit gets the
 * engine's own words, so the finding is the one a checkout of the repository gives.
 */
export function blobFile(path: string, blob: Record<string, unknown>): RepositoryFile {
  const size = typeof blob.byteSize === 'number' ? blob.byteSize : undefined;
  if (size !== undefined && size > MAX_FILE_BYTES) return { path, text: '', unreadable: `the file is larger than the ${MAX_FILE_BYTES / 1024} KiB limit` };
  if (blob.isBinary === true || typeof blob.text !== 'string') return { path, text: '', unreadable: 'GitHub reports a binary file: there is no text to analyse' };
  if (blob.isTruncated === true) {
    return {
      path,
      text: '',
      unreadable: `GitHub delivered only the first ${GRAPHQL_TEXT_LIMIT.toLocaleString('en-US')} bytes of this ${size === undefined ? 'large' : `${size.toLocaleString('en-US')}-byte`} file, so it was not analysed`,
    };
  }
  return { path, text: blob.text };
}

/** One entry of a REST git tree, with its mode as a number (REST gives the octal text: `"100644"`). */
export interface TreeEntry {
  path: string;
  type: string;
  mode: number;
  /** Bytes, for blobs. */
  size?: number;
}

/** A REST recursive tree's entries (malformed ones skipped) and whether GitHub cut it short. */
export function treeEntries(body: unknown): { entries: TreeEntry[]; truncated: boolean } | null {
  if (!isObject(body) || !Array.isArray(body.tree)) return null;
  const entries: TreeEntry[] = [];
  for (const item of body.tree) {
    if (!isObject(item) || typeof item.path !== 'string' || typeof item.type !== 'string' || typeof item.mode !== 'string') continue;
    const mode = Number.parseInt(item.mode, 8);
    if (!Number.isFinite(mode)) continue;
    entries.push({ path: item.path, type: item.type, mode, ...(typeof item.size === 'number' ? { size: item.size } : {}) });
  }
  return { entries, truncated: body.truncated === true };
}

/** A tree entry that is a regular file (not a link, a submodule or a directory). */
export function isRegularTreeEntry(entry: TreeEntry): boolean {
  return isRegularFile(entry);
}

function isRegularFile(entry: Entry): boolean {
  return entry.type === 'blob' && entry.mode !== SYMLINK_MODE;
}

function entriesOf(tree: unknown): Array<Record<string, unknown> & { name?: unknown; type?: unknown; mode?: unknown; object?: unknown }> | null {
  if (!isObject(tree) || !Array.isArray(tree.entries)) return null;
  return tree.entries.filter(isObject);
}

function join(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}
