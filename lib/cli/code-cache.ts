import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { compiledCodeCacheOff, userCacheDirectory } from './cache-dir.js';

/**
 * The V8 code cache of the CLI's body (bin/cli.ts and everything it loads), which the build writes as one classic
 * script, dist/cli.cjs (scripts/build-cli.ts), because `vm.Script` takes and produces code caches and ES modules
 * have no such interface on Node 20 (`module.enableCompileCache` is Node 22.1+, and caches only what is compiled
 * before the code runs). Without a cache, every process parses the 1 MB bundle and compiles each function the
 * first time it runs; with one, V8 deserializes the bytecode of every function the earlier run compiled
 * (docs/performance.md, "Command-line scanner").
 *
 * The cache lives in `code-cache` of the CLI's cache directory (`userCacheDirectory`: never the scanned repository,
 * never the shared temporary directory, where another user could plant one), one file per key: the script's hash,
 * Node's version, the architecture, the V8 flags of the command line (`process.execArgv`, NODE_OPTIONS) and the
 * kind of command (a scan's functions are not another command's). A file holds the SHA-256 of its data, then the
 * data: a file that does not match its digest (cut short, overwritten) is not handed to V8, and one that V8
 * rejects (`cachedDataRejected`) is replaced after the run. A cache is written once, after the command ran (so it
 * holds the functions the command compiled), to a temporary file renamed into place, and any error writing it is
 * ignored: the CLI runs the same, only slower, where nothing can be written. CHAINBREAKER_NO_CACHE=1 turns it off.
 */

/** Where the code caches live: `code-cache` in the user's cache directory; null when off or when there is none. */
export function codeCacheDirectory(env: Readonly<Record<string, string | undefined>>): string | null {
  if (compiledCodeCacheOff(env)) return null;
  const dir = userCacheDirectory(env);
  return dir === null ? null : join(dir, 'code-cache');
}

/** What besides the script decides whether V8 can use a cache: the Node binary, its V8 flags, the command. */
export interface CacheContext {
  kind: string;
  nodeVersion: string;
  arch: string;
  execArgv: readonly string[];
  nodeOptions: string;
}

/** The cache file's name for a script source and its context. */
export function codeCacheFile(source: string, context: CacheContext): string {
  const hash = createHash('sha256');
  hash.update(source);
  hash.update(JSON.stringify([context.nodeVersion, context.arch, context.execArgv, context.nodeOptions]));
  return `${context.kind.replace(/[^a-z0-9-]/gi, '_')}-${hash.digest('hex').slice(0, 32)}.bin`;
}

/** What happened to the cache: none found (or off), found and used, or found and refused (corrupt or rejected). */
export type CacheState = 'off' | 'absent' | 'accepted' | 'rejected';

export interface LoadedScript<T> {
  exports: T;
  state: CacheState;
  /** The cache file, when there is a cache directory. */
  file: string | null;
  /** Writes the cache when there was none or it was refused; true when it wrote one. Never throws. */
  save(): boolean;
}

const DIGEST_BYTES = 32;

function digest(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** The cached data of a cache file, or null when the file is missing or does not match its digest. */
export function readCodeCache(file: string): { data: Buffer | null; present: boolean } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return { data: null, present: false };
  }
  if (bytes.length <= DIGEST_BYTES) return { data: null, present: true };
  const data = bytes.subarray(DIGEST_BYTES);
  return { data: digest(data).equals(bytes.subarray(0, DIGEST_BYTES)) ? data : null, present: true };
}

/** Writes a cache file atomically (a temporary file in the same directory, renamed); false on any error. */
export function writeCodeCache(file: string, data: Uint8Array): boolean {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, Buffer.concat([digest(data), data]), { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
    return true;
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written where the directory could not be made.
    }
    return false;
  }
}

/**
 * Runs a CommonJS script (the CLI's classic-script bundle) in this context through `vm.Script` with its code cache,
 * and returns its exports. `import.meta.url` of the bundled sources is the script's own file URL
 * (`__cbImportMetaUrl`, scripts/build-cli.ts).
 */
export function loadClassicScript<T>(path: string, options: { env: Readonly<Record<string, string | undefined>>; kind: string; context?: Omit<CacheContext, 'kind'> }): LoadedScript<T> {
  const source = readFileSync(path, 'utf8');
  const directory = codeCacheDirectory(options.env);
  const context: CacheContext = {
    kind: options.kind,
    ...(options.context ?? { nodeVersion: process.version, arch: process.arch, execArgv: process.execArgv, nodeOptions: options.env.NODE_OPTIONS ?? '' }),
  };
  const file = directory === null ? null : join(directory, codeCacheFile(source, context));
  const cached = file === null ? { data: null, present: false } : readCodeCache(file);
  // On one line with the script's first, so line numbers in stack traces are the file's.
  const wrapped = `(function (exports, require, module, __filename, __dirname, __cbImportMetaUrl) {"use strict";${source}\n})`;
  const script = new Script(wrapped, { filename: path, ...(cached.data === null ? {} : { cachedData: cached.data }) });
  const state: CacheState = file === null ? 'off' : cached.data !== null ? (script.cachedDataRejected === true ? 'rejected' : 'accepted') : cached.present ? 'rejected' : 'absent';
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(path), module, path, dirname(path), pathToFileURL(path).href);
  let saved = false;
  return {
    exports: module.exports,
    state,
    file,
    save() {
      if (file === null || saved || state === 'accepted') return false;
      saved = true;
      try {
        return writeCodeCache(file, script.createCachedData());
      } catch {
        return false;
      }
    },
  };
}
