// Code hosts for endpoint tests: the local host on the project's example repositories, a scriptable one
// (installations, members, failures), and GitHub identities for test users as the auth server stores them.

import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createLocalCodeHost } from '../../lib/codehost/local.js';
import { CodeHostError, type CodeHost, type HostedRepository, type InstallationAccount, type OrganizationRole, type RepositorySnapshot } from '../../lib/codehost/port.js';
import type { TestDatabase } from './db.js';

export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));

/** The local code host on `examples/`, as `npm run dev` serves it. */
export function examplesCodeHost(): CodeHost {
  return createLocalCodeHost({ dir: EXAMPLES_DIR });
}

export interface GithubAccount {
  /** GitHub's numeric user id, as text (as `auth.identities.provider_id` holds it). */
  id: string;
  login: string;
}

/** A fresh GitHub account: ids unique enough across the files that share a server database. */
export function githubAccount(login = `user-${randomInt(1e9)}`): GithubAccount {
  return { id: String(randomInt(1, 2 ** 47)), login };
}

/** Gives a user a GitHub identity the way Supabase's auth server records a GitHub sign-in. */
export async function addGithubIdentity(t: TestDatabase, userId: string, account: GithubAccount): Promise<void> {
  const data = JSON.stringify({ sub: account.id, provider_id: account.id, user_name: account.login, preferred_username: account.login });
  await t.query(`insert into auth.identities (provider_id, user_id, identity_data, provider) values ($1, $2, $3::jsonb, 'github')`, [
    account.id,
    userId,
    data,
  ]);
}

/** A user who signed in with a fresh GitHub account. */
export async function githubUser(t: TestDatabase, login?: string): Promise<{ userId: string; account: GithubAccount }> {
  const userId = await t.createUser();
  const account = githubAccount(login);
  await addGithubIdentity(t, userId, account);
  return { userId, account };
}

/**
 * A code host that answers from data the test may change at any time (installations, organization members,
 * repositories, the snapshot) and records the calls it gets; `fail` makes every call throw.
 */
export class ScriptedCodeHost implements CodeHost {
  installations: InstallationAccount[] = [];
  /** `org -> logins of its plain members` (role `member`). */
  members: Record<string, string[]> = {};
  /** `org -> logins of its owners` (role `admin`). */
  owners: Record<string, string[]> = {};
  repositories: HostedRepository[] = [];
  snapshot: RepositorySnapshot = { files: [], settings: {}, defaultBranch: 'main', requests: 0 };
  fail: (() => Error) | null = null;
  /** `installation id -> what is left of its request budget` (none: unknown). */
  budgets: Record<number, { remaining: number; resetAt: number }> = {};
  readonly calls: { method: string; args: unknown[] }[] = [];

  private record(method: string, args: unknown[]): void {
    this.calls.push({ method, args });
    if (this.fail !== null) throw this.fail();
  }

  async getInstallation(installationId: number): Promise<InstallationAccount> {
    this.record('getInstallation', [installationId]);
    const found = this.installations.find((i) => i.installationId === installationId);
    if (found === undefined) throw new CodeHostError('not_found', `No installation ${installationId}.`);
    return found;
  }

  async organizationRole(installationId: number, org: string, login: string): Promise<OrganizationRole | null> {
    this.record('organizationRole', [installationId, org, login]);
    if (this.owners[org]?.includes(login) === true) return 'admin';
    return this.members[org]?.includes(login) === true ? 'member' : null;
  }

  async listRepositories(installationIds: readonly number[]): Promise<HostedRepository[]> {
    this.record('listRepositories', [installationIds]);
    return this.repositories.filter((r) => installationIds.includes(r.installationId));
  }

  budget(installationId: number): { remaining: number; resetAt: number } | null {
    return this.budgets[installationId] ?? null;
  }

  async fetchSnapshot(...args: Parameters<CodeHost['fetchSnapshot']>): Promise<RepositorySnapshot> {
    this.record('fetchSnapshot', args);
    return this.snapshot;
  }
}
