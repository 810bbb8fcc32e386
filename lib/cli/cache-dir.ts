import { isAbsolute, join } from 'node:path';

/**
 * The CLI's own cache directory: `$XDG_CACHE_HOME/chainbreaker`, else `~/.cache/chainbreaker`, so one user's
 * cache is never another's (not the shared temporary directory). Only absolute directories, as the XDG
 * specification says: a relative one would resolve against the working directory, often the repository being
 * scanned, whose author could then plant what the cache holds. Null when there is none.
 */
export function userCacheDirectory(env: Readonly<Record<string, string | undefined>>): string | null {
  const xdg = env.XDG_CACHE_HOME?.trim();
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return join(xdg, 'chainbreaker');
  const home = (env.HOME ?? env.USERPROFILE)?.trim();
  return home !== undefined && home !== '' && isAbsolute(home) ? join(home, '.cache', 'chainbreaker') : null;
}
