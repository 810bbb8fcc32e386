import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { isBranchName } from '../engine/settings/repository.js';
import { kindOf, readBounded, resolveInside } from './checkout.js';

/** `.git/config` is read up to this many bytes: a remote section is a few lines; a hostile file stays bounded. */
const MAX_GIT_CONFIG_BYTES = 64 * 1024;

const FULL_NAME = /^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/;

/**
 * The `owner/name` of a checkout's `origin` remote when it is on GitHub (github.com, or `githubHost`, the host
 * of GITHUB_API_URL for GitHub Enterprise), else null. Reads only `.git/config` inside the checkout, bounded;
 * a `.git` file (a worktree or submodule), a link leaving the checkout or anything unexpected gives null.
 */
export async function originRepository(root: string, githubHost?: string): Promise<string | null> {
  let realRoot: string;
  try {
    // Synchronous, as the checkout reader resolves paths (checkout.ts, `resolveInsideSync`).
    realRoot = realpathSync.native(root);
  } catch {
    return null;
  }
  const resolved = await resolveInside(realRoot, join('.git', 'config'));
  if (resolved.kind !== 'inside' || (await kindOf(resolved.real)) !== 'file') return null;
  let text: string;
  try {
    text = await readBounded(resolved.real, MAX_GIT_CONFIG_BYTES);
  } catch {
    return null;
  }
  const url = originUrl(text);
  return url === null ? null : repositoryOfUrl(url, githubHost);
}

/** `.git/refs/remotes/origin/HEAD` is read up to this many bytes (one line naming a ref). */
const MAX_HEAD_BYTES = 1024;

/**
 * The default branch of a checkout's `origin` remote, as `git clone` records it (`.git/refs/remotes/origin/HEAD`:
 * `ref: refs/remotes/origin/main`), else null: a checkout without it (a shallow CI fetch), a `.git` file, a link
 * leaving the checkout, or anything unexpected. Bounded, inside the checkout only, like `originRepository`.
 */
export async function originDefaultBranch(root: string): Promise<string | null> {
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    return null;
  }
  const resolved = await resolveInside(realRoot, join('.git', 'refs', 'remotes', 'origin', 'HEAD'));
  if (resolved.kind !== 'inside' || (await kindOf(resolved.real)) !== 'file') return null;
  let text: string;
  try {
    text = await readBounded(resolved.real, MAX_HEAD_BYTES);
  } catch {
    return null;
  }
  return headBranch(text);
}

/** The branch of a symbolic ref file's `ref: refs/remotes/origin/<branch>` line, or null. */
export function headBranch(text: string): string | null {
  const branch = /^ref:\s*refs\/remotes\/origin\/(\S+)$/.exec(text.trim())?.[1];
  return branch === undefined || branch === 'HEAD' || !isBranchName(branch) ? null : branch;
}

/** The `url` of the `[remote "origin"]` section of a git config, or null. */
export function originUrl(config: string): string | null {
  let inOrigin = false;
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inOrigin = /^\[\s*remote\s+"origin"\s*\]$/.test(line);
      continue;
    }
    const match = inOrigin ? /^url\s*=\s*(.+)$/.exec(line) : null;
    if (match !== null) return match[1]!.replace(/^"(.*)"$/, '$1').trim();
  }
  return null;
}

/**
 * `owner/name` from a GitHub remote URL (`https://github.com/o/r(.git)`, `git@github.com:o/r.git`,
 * `ssh://git@github.com/o/r`), when its host is github.com or `githubHost`; null otherwise.
 */
export function repositoryOfUrl(url: string, githubHost?: string): string | null {
  const hosts = new Set(['github.com', ...(githubHost === undefined ? [] : [githubHost.toLowerCase()])]);
  const scp = /^[A-Za-z0-9._-]+@([^:/]+):\/?(.+)$/.exec(url);
  let host: string;
  let path: string;
  if (scp !== null) {
    host = scp[1]!;
    path = scp[2]!;
  } else {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    if (!['https:', 'http:', 'ssh:', 'git:'].includes(parsed.protocol)) return null;
    host = parsed.hostname;
    path = parsed.pathname.replace(/^\//, '');
  }
  if (!hosts.has(host.toLowerCase())) return null;
  const fullName = path.replace(/\/+$/, '').replace(/\.git$/, '');
  return FULL_NAME.test(fullName) ? fullName : null;
}

/** The host of GITHUB_API_URL (`https://ghe.example.com/api/v3` -> `ghe.example.com`), or undefined. */
export function githubHostOf(apiUrl: string | undefined): string | undefined {
  if (apiUrl === undefined || apiUrl.trim() === '') return undefined;
  try {
    const host = new URL(apiUrl.trim()).hostname.toLowerCase();
    return host === 'api.github.com' ? 'github.com' : host;
  } catch {
    return undefined;
  }
}
