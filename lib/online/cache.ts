import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { userCacheDirectory } from '../cli/cache-dir.js';

/**
 * The facts the online audits learn from GitHub, keyed by `kind:owner/repo@ref` and shared by every scan
 * that can reach the cache (one process, one machine's disk, or every user of the service in Postgres).
 * Facts are public-repository facts (a tag's commit, whether a commit is on a branch), never a user's data:
 * the audit writes only the facts of repositories GitHub said are public (`Facts.flush` in audit.ts).
 */
export interface FactCache {
  /** The live (unexpired) values of the keys that have one. */
  get(keys: readonly string[]): Promise<Map<string, unknown>>;
  set(entries: readonly CacheEntry[]): Promise<void>;
}

export interface CacheEntry {
  key: string;
  value: unknown;
  ttlSeconds: number;
}

/** How long each kind of fact is trusted: refs move, a commit's history does not. */
export const TTL = {
  /** A repository's default branch. */
  repository: 24 * 3600,
  /** Tag and branch heads (`tags`, `branches`, `refkind`, `tag`): a tag can be moved, a branch moves all the time. */
  refs: 3600,
  /** A commit found on a branch or tag stays there (7 days). */
  member: 7 * 24 * 3600,
  /** A commit found on none may be merged later (1 day). */
  notMember: 24 * 3600,
  /** An action repository's advisories (`advisories`): new ones are published any day (6 hours). */
  advisories: 6 * 3600,
  /** Whether an action repository is archived (`archived`): owners archive (or unarchive) rarely (1 day). */
  archived: 24 * 3600,
  /** Whether a tag's release is immutable (`release`), when it is not (or there is none): an owner may publish one (1 day). */
  release: 24 * 3600,
  /** A release GitHub says is immutable stays so, and its tag cannot be moved (7 days). */
  immutableRelease: 7 * 24 * 3600,
} as const;

interface Stored {
  value: unknown;
  /** Epoch milliseconds. */
  expires: number;
}

export class MemoryCache implements FactCache {
  readonly #entries = new Map<string, Stored>();
  readonly #now: () => number;
  readonly #maxEntries: number;

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    this.#now = options.now ?? Date.now;
    this.#maxEntries = options.maxEntries ?? 50_000;
  }

  get(keys: readonly string[]): Promise<Map<string, unknown>> {
    const now = this.#now();
    const found = new Map<string, unknown>();
    for (const key of keys) {
      const stored = this.#entries.get(key);
      if (stored !== undefined && stored.expires > now) found.set(key, stored.value);
    }
    return Promise.resolve(found);
  }

  set(entries: readonly CacheEntry[]): Promise<void> {
    const now = this.#now();
    for (const entry of entries) {
      this.#entries.delete(entry.key);
      this.#entries.set(entry.key, { value: entry.value, expires: now + entry.ttlSeconds * 1000 });
    }
    prune(this.#entries, now, this.#maxEntries);
    return Promise.resolve();
  }

  /** Entries as stored, for the disk cache. */
  entries(): [string, Stored][] {
    return [...this.#entries];
  }

  load(entries: Iterable<[string, Stored]>): void {
    for (const [key, stored] of entries) this.#entries.set(key, stored);
    prune(this.#entries, this.#now(), this.#maxEntries);
  }
}

/** Drops expired entries, then the oldest written ones beyond the bound (a Map keeps insertion order). */
function prune(entries: Map<string, Stored>, now: number, max: number): void {
  for (const [key, stored] of entries) if (stored.expires <= now) entries.delete(key);
  for (const key of entries.keys()) {
    if (entries.size <= max) break;
    entries.delete(key);
  }
}

/** `online.json` in the CLI's cache directory (`$XDG_CACHE_HOME/chainbreaker` or `~/.cache/chainbreaker`, absolute only). */
export function defaultCachePath(env: Readonly<Record<string, string | undefined>>): string | null {
  const dir = userCacheDirectory(env);
  return dir === null ? null : join(dir, 'online.json');
}

const DISK_VERSION = 1;
/** The disk cache keeps at most this many facts (a few MB). */
export const DISK_MAX_ENTRIES = 20_000;
const DISK_MAX_BYTES = 16_000_000;

/**
 * The CLI's cache: a JSON file read once and written once (`save`) per run, bounded in entries. A missing,
 * unreadable or foreign file is an empty cache, never an error; a failed write loses only the cache.
 */
export class DiskCache implements FactCache {
  readonly #memory: MemoryCache;
  readonly #path: string;
  #loaded = false;
  #dirty = false;

  constructor(path: string, options: { now?: () => number; maxEntries?: number } = {}) {
    this.#path = path;
    this.#memory = new MemoryCache({ ...options, maxEntries: options.maxEntries ?? DISK_MAX_ENTRIES });
  }

  async #load(): Promise<void> {
    if (this.#loaded) return;
    this.#loaded = true;
    try {
      const text = await readFile(this.#path, 'utf8');
      if (text.length > DISK_MAX_BYTES) return;
      const data = JSON.parse(text) as { version?: unknown; entries?: unknown };
      if (data.version !== DISK_VERSION || typeof data.entries !== 'object' || data.entries === null) return;
      const entries: [string, Stored][] = [];
      for (const [key, stored] of Object.entries(data.entries as Record<string, unknown>)) {
        if (typeof stored === 'object' && stored !== null && 'expires' in stored && typeof stored.expires === 'number' && 'value' in stored) {
          entries.push([key, { value: stored.value, expires: stored.expires }]);
        }
      }
      this.#memory.load(entries);
    } catch {
      // No cache yet, or one this version cannot read: start empty.
    }
  }

  async get(keys: readonly string[]): Promise<Map<string, unknown>> {
    await this.#load();
    return this.#memory.get(keys);
  }

  async set(entries: readonly CacheEntry[]): Promise<void> {
    await this.#load();
    if (entries.length > 0) this.#dirty = true;
    await this.#memory.set(entries);
  }

  /** Writes the file (atomically: a temporary file renamed over it) when anything changed. */
  async save(): Promise<void> {
    if (!this.#dirty) return;
    const text = JSON.stringify({ version: DISK_VERSION, entries: Object.fromEntries(this.#memory.entries()) });
    const temporary = `${this.#path}.${process.pid}.tmp`;
    await mkdir(dirname(this.#path), { recursive: true });
    await writeFile(temporary, text, { mode: 0o600 });
    await rename(temporary, this.#path);
    this.#dirty = false;
  }
}
