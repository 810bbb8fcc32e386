import { join } from 'node:path';
import { compiledCodeCacheOff, userCacheDirectory } from './cache-dir.js';

/**
 * Where the CLI lets Node keep the compile cache of its bundle (bin/chainbreaker.ts, Node 22.1+):
 * `compile-cache` in the CLI's cache directory (`userCacheDirectory`; the online audits' cache lives beside it),
 * not the shared temporary directory, Node's default. Null (no cache) when there is none, or when
 * NODE_DISABLE_COMPILE_CACHE is set (Node's own switch for its compile cache) or CHAINBREAKER_NO_CACHE (the CLI's,
 * for this cache and the code cache of lib/cli/code-cache.ts).
 */
export function compileCacheDirectory(env: Readonly<Record<string, string | undefined>>): string | null {
  if ((env.NODE_DISABLE_COMPILE_CACHE ?? '') !== '' || compiledCodeCacheOff(env)) return null;
  const dir = userCacheDirectory(env);
  return dir === null ? null : join(dir, 'compile-cache');
}
