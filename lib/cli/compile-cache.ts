import { isAbsolute, join } from 'node:path';

/**
 * Where the CLI lets Node keep the compile cache of its bundle (bin/chainbreaker.ts, Node 22.1+):
 * `$XDG_CACHE_HOME/chainbreaker/compile-cache`, else `~/.cache/chainbreaker/compile-cache` (the online
 * audits' cache lives beside it), so one user's cache is never another's (not the shared temporary
 * directory, Node's default). Only an absolute directory: a relative one would be resolved against the
 * working directory, which is often the repository being scanned. Null (no cache) when there is none, or
 * when NODE_DISABLE_COMPILE_CACHE is set (Node's own switch for its compile cache).
 */
export function compileCacheDirectory(env: Readonly<Record<string, string | undefined>>): string | null {
  if ((env.NODE_DISABLE_COMPILE_CACHE ?? '') !== '') return null;
  const xdg = env.XDG_CACHE_HOME?.trim();
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'chainbreaker', 'compile-cache');
  const home = (env.HOME ?? env.USERPROFILE)?.trim();
  return home !== undefined && home !== '' && isAbsolute(home) ? join(home, '.cache', 'chainbreaker', 'compile-cache') : null;
}
