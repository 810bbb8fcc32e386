import { createHash, randomBytes } from 'node:crypto';
import { lstat, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SETTINGS_AREAS } from '../engine/settings/areas.js';
import type { SettingsSnapshot } from '../engine/settings/snapshot.js';
import { collectRepositoryFiles, kindOf, readBounded, resolveInside } from './checkout.js';
import {
  CodeHostError,
  type CodeHost,
  type FetchOptions,
  type HostedRepository,
  type InstallationAccount,
  type RepositoryLocator,
  type RepositorySnapshot,
  type UserAccessHost,
  type UserTokens,
  UserTokenRefused,
} from './port.js';

/**
 * A code host made of a local directory, for `npm run dev` and tests: every subdirectory of `dir` is a
 * repository `<account>/<subdirectory>` of one organization installation, {@link LOCAL_INSTALLATION_ID}.
 *
 * - Anyone may link the installation: every login is an owner (`admin`) of its organization, so the
 *   installation callback needs no special case for it (it still requires the user's GitHub identity).
 * - Ids are derived from names (a hash), so they are the same on every machine and across restarts.
 * - A repository's settings snapshot is `<repository>/.chainbreaker/settings.json`, in the format of
 *   lib/engine/settings/README.md (what the GitHub adapter stores). Without it, every settings area is
 *   reported unreadable (naming the missing file) rather than pretending the settings are safe, except
 *   `codeowners`, which the directory itself answers. `private` and the default branch come from the
 *   snapshot's `repository` area when it has one, else public and `main`.
 */

export const LOCAL_INSTALLATION_ID = 1;
export const DEFAULT_LOCAL_ACCOUNT = 'examples';
/** Where a local repository keeps its settings snapshot, relative to the repository. */
export const LOCAL_SETTINGS_FILE = '.chainbreaker/settings.json';

const REPOSITORY_NAME = /^[A-Za-z0-9_.-]+$/;
const CODEOWNERS_PATHS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'];
/** A settings snapshot is a few kilobytes; anything past this is not one. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

export interface LocalCodeHostOptions {
  /** Absolute path of the directory whose subdirectories are the repositories. */
  dir: string;
  /** Login of the organization the installation belongs to; default `examples`. */
  account?: string;
}

/** A positive integer below 2^48 derived from a name: stable, and collision-free in practice. */
export function localId(name: string): number {
  return (createHash('sha256').update(`chainbreaker-local:${name}`).digest().readUIntBE(0, 6) % (2 ** 48 - 1)) + 1;
}

export function createLocalCodeHost(options: LocalCodeHostOptions): CodeHost {
  const dir = options.dir;
  const account = options.account ?? DEFAULT_LOCAL_ACCOUNT;
  const installation: InstallationAccount = {
    installationId: LOCAL_INSTALLATION_ID,
    account,
    accountType: 'Organization',
    accountId: String(localId(`account:${account}`)),
  };

  /** The repository directory a `full_name` names, or null when it is not one of this host's. */
  async function repositoryDir(installationId: number, fullName: string): Promise<string | null> {
    const prefix = `${account}/`;
    if (installationId !== LOCAL_INSTALLATION_ID || !fullName.startsWith(prefix)) return null;
    const name = fullName.slice(prefix.length);
    if (!isRepositoryName(name)) return null;
    return (await isDirectory(join(dir, name))) ? join(dir, name) : null;
  }

  async function listRepositories(installationIds: readonly number[]): Promise<HostedRepository[]> {
    if (!installationIds.includes(LOCAL_INSTALLATION_ID)) return [];
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
      throw new CodeHostError('unavailable', 'The local repositories directory cannot be read.', { cause: error });
    });
    const names = entries
      .filter((entry) => entry.isDirectory() && isRepositoryName(entry.name))
      .map((entry) => entry.name)
      .sort();
    return Promise.all(
      names.map(async (name) => {
        const fullName = `${account}/${name}`;
        const repository = repositoryArea(await readSnapshotFile(join(dir, name)));
        return {
          githubId: localId(fullName),
          installationId: LOCAL_INSTALLATION_ID,
          fullName,
          private: repository.private,
          htmlUrl: pathToFileURL(join(dir, name)).href,
          defaultBranch: repository.defaultBranch,
        };
      }),
    );
  }

  const self: CodeHost = {
    // Answers from a directory: no installation's GitHub budget to protect.
    spendsInstallationBudget: false,
    userAccess: localUserAccess(installation, listRepositories, (locator, fetchOptions) => self.fetchSnapshot(locator, fetchOptions)),

    async getInstallation(installationId) {
      if (installationId !== LOCAL_INSTALLATION_ID) throw new CodeHostError('not_found', `No installation ${installationId}.`);
      return { ...installation };
    },

    async organizationRole(installationId, org) {
      return installationId === LOCAL_INSTALLATION_ID && org === account ? 'admin' : null;
    },

    listRepositories,

    async fetchSnapshot(locator: RepositoryLocator, fetchOptions: FetchOptions = {}): Promise<RepositorySnapshot> {
      if (locator.ref !== undefined) throw new CodeHostError('not_found', `The local code host keeps no commits: ${locator.fullName} is read as it is on disk only.`);
      const root = await repositoryDir(locator.installationId, locator.fullName);
      if (root === null) throw new CodeHostError('not_found', `No repository ${locator.fullName}.`);
      const [files, stored, codeowners] = await Promise.all([
        collectRepositoryFiles(root),
        readSnapshotFile(root),
        hasCodeowners(root),
      ]);
      if (fetchOptions.deadline !== undefined && Date.now() > fetchOptions.deadline) {
        throw new CodeHostError('timeout', 'Reading the repository took longer than the scan allows.');
      }
      const settings = settingsOf(stored, codeowners);
      return { files, settings, defaultBranch: repositoryArea(stored).defaultBranch, requests: 0 };
    },
  };
  return self;
}

type StoredSnapshot = { kind: 'missing' } | { kind: 'invalid'; reason: string } | { kind: 'ok'; snapshot: SettingsSnapshot };

/** A file of the repository, read only when it really lies inside it (see lib/codehost/checkout.ts). */
async function readInside(root: string, path: string, limit: number): Promise<string | null> {
  const resolved = await resolveInside(await realpath(root), path);
  if (resolved.kind !== 'inside' || (await kindOf(resolved.real)) !== 'file') return null;
  return readBounded(resolved.real, limit);
}

async function readSnapshotFile(root: string): Promise<StoredSnapshot> {
  let text: string | null;
  try {
    text = await readInside(root, LOCAL_SETTINGS_FILE, MAX_SETTINGS_BYTES + 1);
  } catch {
    text = null;
  }
  if (text === null) return { kind: 'missing' };
  if (text.length > MAX_SETTINGS_BYTES) return { kind: 'invalid', reason: `${LOCAL_SETTINGS_FILE} is larger than ${MAX_SETTINGS_BYTES} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: `${LOCAL_SETTINGS_FILE} is not valid JSON` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'invalid', reason: `${LOCAL_SETTINGS_FILE} is not a JSON object` };
  }
  // The settings rules read every field defensively: a wrong type reads as unreadable, never throws.
  return { kind: 'ok', snapshot: value as SettingsSnapshot };
}

function settingsOf(stored: StoredSnapshot, codeowners: boolean): SettingsSnapshot {
  if (stored.kind === 'ok') return { codeowners, ...stored.snapshot };
  const reason =
    stored.kind === 'missing' ? `${LOCAL_SETTINGS_FILE} is missing from the local repository` : stored.reason;
  const unreadable = Object.fromEntries(SETTINGS_AREAS.filter((area) => area !== 'codeowners').map((area) => [area, reason]));
  return { codeowners, unreadable };
}

function repositoryArea(stored: StoredSnapshot): { private: boolean; defaultBranch: string } {
  const repository = stored.kind === 'ok' ? stored.snapshot.repository : undefined;
  const isPrivate = repository?.['private'];
  const defaultBranch = repository?.['default_branch'];
  return {
    private: typeof isPrivate === 'boolean' ? isPrivate : false,
    defaultBranch: typeof defaultBranch === 'string' && defaultBranch !== '' ? defaultBranch : 'main',
  };
}

async function hasCodeowners(root: string): Promise<boolean> {
  const realRoot = await realpath(root);
  const found = await Promise.all(
    CODEOWNERS_PATHS.map(async (path) => {
      const resolved = await resolveInside(realRoot, path);
      return resolved.kind === 'inside' && (await kindOf(resolved.real)) === 'file';
    }),
  );
  return found.includes(true);
}

function isRepositoryName(name: string): boolean {
  return REPOSITORY_NAME.test(name) && !name.startsWith('.');
}

// lstat: a symbolic link is neither, so a link cannot point the host outside its directory.
async function isDirectory(path: string): Promise<boolean> {
  return lstat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/**
 * The GitHub account the local host's user authorization acts for: the seeded development user's GitHub
 * identity (supabase/seed.sql), so that `npm run dev` can walk the member flow end to end.
 */
export const LOCAL_GITHUB_USER = { id: '1000001', login: 'chainbreaker-dev' } as const;
const LOCAL_TOKEN = /^local-(user|refresh)-token-[A-Za-z0-9_-]{16,64}$/;

/**
 * The local host's fake of the App's user authorization: authorizing comes straight back with a code,
 * the code and the refresh token give fresh opaque tokens (8 hours, 6 months, as GitHub's), and the token
 * reaches the one installation and every repository of it, as a member would who can access them all.
 */
function localUserAccess(
  installation: InstallationAccount,
  listRepositories: (ids: readonly number[]) => Promise<HostedRepository[]>,
  fetchSnapshot: (locator: RepositoryLocator, options?: FetchOptions) => Promise<RepositorySnapshot>,
): UserAccessHost {
  const fresh = (): UserTokens => ({
    accessToken: `local-user-token-${randomBytes(18).toString('base64url')}`,
    expiresAt: Date.now() + 8 * 3600_000,
    refreshToken: `local-refresh-token-${randomBytes(18).toString('base64url')}`,
    refreshExpiresAt: Date.now() + 183 * 24 * 3600_000,
  });
  const check = (token: string, kind: 'user' | 'refresh') => {
    if (!LOCAL_TOKEN.test(token) || !token.startsWith(`local-${kind}-token-`)) throw new UserTokenRefused('The local user authorization does not know this token.');
  };
  return {
    authorizeUrl(state, redirectUri) {
      const url = new URL(redirectUri ?? '/', 'http://localhost');
      url.searchParams.set('code', 'local-authorization-code');
      url.searchParams.set('state', state);
      return redirectUri === null ? `${url.pathname}${url.search}` : url.toString();
    },
    async exchangeCode(code) {
      if (code !== 'local-authorization-code') throw new UserTokenRefused('The local user authorization does not know this code.');
      return fresh();
    },
    async refresh(refreshToken) {
      check(refreshToken, 'refresh');
      return fresh();
    },
    async revoke() {},
    async user(accessToken) {
      check(accessToken, 'user');
      return { ...LOCAL_GITHUB_USER };
    },
    async installations(accessToken) {
      check(accessToken, 'user');
      return [{ ...installation }];
    },
    async repositories(accessToken, installationId) {
      check(accessToken, 'user');
      return listRepositories([installationId]);
    },
    async fetchSnapshot(accessToken, locator, options) {
      check(accessToken, 'user');
      return fetchSnapshot(locator, options);
    },
  };
}
