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

/** The environment variable that turns the CLI's caches of compiled code off (any value but empty or `0`). */
export const NO_CACHE_ENV = 'CHAINBREAKER_NO_CACHE';

/**
 * Whether the caches of compiled code are off (lib/cli/code-cache.ts, compile-cache.ts): CHAINBREAKER_NO_CACHE says
 * so, or the CLI runs in a GitHub Actions job (`GITHUB_ACTIONS=true`). There a workflow may restore `~/.cache` from
 * the Actions cache, which a pull request's run can write: a planted code cache would be V8 bytecode the scanner
 * runs with the job's token. A fresh runner has no cache to gain from anyway.
 */
export function compiledCodeCacheOff(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.GITHUB_ACTIONS?.trim().toLowerCase() === 'true') return true;
  const value = env[NO_CACHE_ENV]?.trim() ?? '';
  return value !== '' && value !== '0';
}
