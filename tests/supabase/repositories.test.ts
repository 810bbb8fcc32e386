// Installations, repository sync and lookup, and the GitHub identity: the server functions behind
// GET /api/repos and the installation callback.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DatabaseError } from '../../lib/db/errors.js';
import {
  getRepository,
  githubIdentity,
  linkInstallation,
  listInstallations,
  syncRepositories,
} from '../../lib/db/operations.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { githubId, listing } from '../support/db-fixtures.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?\+00:00$/;

describe('installations', () => {
  test('link_installation stores the installation and list_installations returns it', async () => {
    const user = await t.createUser();
    const installationId = githubId();
    const linked = await linkInstallation(t.db, user, { installationId, accountLogin: 'octocat', accountType: 'User' });
    expect(linked).toEqual({ installation_id: installationId, account_login: 'octocat', account_type: 'User', created_at: expect.stringMatching(ISO_UTC) });
    expect(await listInstallations(t.db, user)).toEqual([{ ...linked, suspended: false, access: 'link' }]);
  });

  test('linking again is idempotent and refreshes the account', async () => {
    const user = await t.createUser();
    const installationId = githubId();
    const first = await linkInstallation(t.db, user, { installationId, accountLogin: 'old-name', accountType: 'Organization' });
    const second = await linkInstallation(t.db, user, { installationId, accountLogin: 'new-name', accountType: 'Organization' });
    expect(second).toEqual({ ...first, account_login: 'new-name' });
    expect(await listInstallations(t.db, user)).toEqual([{ ...second, suspended: false, access: 'link' }]);
  });

  test('one installation may be linked by several users, each seeing only their own links', async () => {
    const [alice, bob, carol] = [await t.createUser(), await t.createUser(), await t.createUser()];
    const shared = githubId();
    const own = githubId();
    await linkInstallation(t.db, alice, { installationId: shared, accountLogin: 'octo-org', accountType: 'Organization' });
    await linkInstallation(t.db, bob, { installationId: shared, accountLogin: 'octo-org', accountType: 'Organization' });
    await linkInstallation(t.db, bob, { installationId: own, accountLogin: 'bob', accountType: 'User' });
    expect((await listInstallations(t.db, alice)).map((i) => i.installation_id)).toEqual([shared]);
    expect((await listInstallations(t.db, bob)).map((i) => i.installation_id)).toEqual([shared, own].sort((a, b) => a - b));
    expect(await listInstallations(t.db, carol)).toEqual([]);
  });

  test('an installation id must be positive', async () => {
    const user = await t.createUser();
    const error = await linkInstallation(t.db, user, { installationId: 0, accountLogin: 'x', accountType: 'User' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseError);
    expect((error as DatabaseError).sqlState).toBe('23514');
  });
});

describe('sync_repositories', () => {
  async function linkedUser(): Promise<{ user: string; installationId: number }> {
    const user = await t.createUser();
    const installationId = githubId();
    await linkInstallation(t.db, user, { installationId, accountLogin: 'octo-org', accountType: 'Organization' });
    return { user, installationId };
  }

  test('stores what was listed and returns exactly those rows, by full_name', async () => {
    const { user, installationId } = await linkedUser();
    const listed = [listing(installationId, { full_name: 'octo-org/zeta', private: true }), listing(installationId, { full_name: 'octo-org/alpha' })];
    const stored = await syncRepositories(t.db, user, listed);
    expect(stored.map((r) => r.full_name)).toEqual(['octo-org/alpha', 'octo-org/zeta']);
    for (const row of stored) {
      const input = listed.find((l) => l.github_id === row.github_id)!;
      expect(row).toEqual({ ...input, id: expect.stringMatching(/^[0-9a-f-]{36}$/), created_at: expect.stringMatching(ISO_UTC), updated_at: expect.stringMatching(ISO_UTC) });
    }
  });

  test('ids stay stable across syncs while the other fields follow the code host', async () => {
    const { user, installationId } = await linkedUser();
    const repo = listing(installationId, { full_name: 'octo-org/before' });
    const [first] = await syncRepositories(t.db, user, [repo]);
    const renamed = { ...repo, full_name: 'octo-org/after', private: true, default_branch: 'trunk', html_url: 'https://github.com/octo-org/after' };
    const [second] = await syncRepositories(t.db, user, [renamed]);
    expect(second!.id).toBe(first!.id);
    expect(second).toMatchObject(renamed);
    expect(second!.created_at).toBe(first!.created_at);
    expect(Date.parse(second!.updated_at)).toBeGreaterThanOrEqual(Date.parse(first!.updated_at));
  });

  test('returns only what was passed now, keeping repositories not listed this time', async () => {
    const { user, installationId } = await linkedUser();
    const [a, b] = [listing(installationId), listing(installationId)];
    await syncRepositories(t.db, user, [a!, b!]);
    const now = await syncRepositories(t.db, user, [b!]);
    expect(now.map((r) => r.github_id)).toEqual([b!.github_id]);
    const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.repositories where user_id = $1', [user]);
    expect(row!.n).toBe(2);
  });

  test('an empty listing stores nothing and returns []', async () => {
    const { user } = await linkedUser();
    expect(await syncRepositories(t.db, user, [])).toEqual([]);
  });

  test('a repository listed twice in one batch is stored once, from its last occurrence', async () => {
    const { user, installationId } = await linkedUser();
    const repo = listing(installationId, { full_name: 'octo-org/first-name' });
    const stored = await syncRepositories(t.db, user, [repo, { ...repo, full_name: 'octo-org/last-name' }]);
    expect(stored.map((r) => r.full_name)).toEqual(['octo-org/last-name']);
  });

  test('users syncing the same code-host repository get separate rows and ids', async () => {
    const shared = githubId();
    const alice = await linkedUser();
    const bob = await linkedUser();
    const [forAlice] = await syncRepositories(t.db, alice.user, [listing(alice.installationId, { github_id: shared })]);
    const [forBob] = await syncRepositories(t.db, bob.user, [listing(bob.installationId, { github_id: shared })]);
    expect(forAlice!.id).not.toBe(forBob!.id);
  });

  test('a repository can only arrive through an installation the same user linked', async () => {
    const { user } = await linkedUser();
    const someoneElses = await linkedUser();
    const error = await syncRepositories(t.db, user, [listing(someoneElses.installationId)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseError);
    expect((error as DatabaseError).sqlState).toBe('23503');
    const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.repositories where user_id = $1', [user]);
    expect(row!.n).toBe(0);
  });
});

describe('get_repository', () => {
  test("returns the user's own repository and null for anyone else's or an unknown id", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const installationId = githubId();
    await linkInstallation(t.db, owner, { installationId, accountLogin: 'octo', accountType: 'User' });
    const [repo] = await syncRepositories(t.db, owner, [listing(installationId)]);
    expect(await getRepository(t.db, owner, repo!.id)).toEqual(repo);
    expect(await getRepository(t.db, other, repo!.id)).toBeNull();
    expect(await getRepository(t.db, owner, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });
});

describe('github_identity', () => {
  async function addIdentity(userId: string, provider: string, providerId: string, data: Record<string, unknown>): Promise<void> {
    await t.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at, last_sign_in_at)
       values ($1, $2, $3, $4, now(), now(), now())`,
      [providerId, userId, JSON.stringify(data), provider],
    );
  }

  test('reads the GitHub identity the auth server recorded, not the user-editable metadata', async () => {
    const user = await t.createUser();
    const providerId = String(githubId());
    await t.query(`update auth.users set raw_user_meta_data = '{"user_name": "impostor", "provider_id": "1"}' where id = $1`, [user]);
    await addIdentity(user, 'email', user, { sub: user, email: `${user}@example.test` });
    await addIdentity(user, 'github', providerId, { sub: providerId, user_name: 'octocat', preferred_username: 'octocat' });
    expect(await githubIdentity(t.db, user)).toEqual({ provider_id: providerId, login: 'octocat' });
  });

  test('is null for a user without a GitHub identity', async () => {
    const user = await t.createUser();
    await addIdentity(user, 'email', user, { sub: user });
    expect(await githubIdentity(t.db, user)).toBeNull();
  });
});

describe('ownership follows the user', () => {
  test("deleting a user removes all of that user's rows", async () => {
    const user = await t.createUser();
    const installationId = githubId();
    await linkInstallation(t.db, user, { installationId, accountLogin: 'octo', accountType: 'User' });
    await syncRepositories(t.db, user, [listing(installationId)]);
    await t.query('delete from auth.users where id = $1', [user]);
    const [row] = await t.query<{ n: number }>(
      `select (select count(*) from public.installations where user_id = $1)
            + (select count(*) from public.repositories where user_id = $1) as n`,
      [user],
    );
    expect(Number(row!.n)).toBe(0);
  });
});
