// Links follow GitHub (issue 13): DELETE /api/installations/{installation_id} unlinks; GET /api/repos
// re-checks organization ownership (cached a few minutes), unlinks uninstalled installations and drops
// repositories GitHub no longer lists; a suspended installation keeps its rows but refuses scans and syncs
// (409); an installation whose GitHub budget is nearly spent refuses them with 503 + Retry-After; GET
// /api/repos is rate-limited per user.

import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DELETE } from '../../api/installations/[installation_id].js';
import { GET as REPOS } from '../../api/repos.js';
import { POST as SCAN } from '../../api/scan.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { CodeHostError, type HostedRepository } from '../../lib/codehost/port.js';
import { useDatabase } from '../../lib/db/connection.js';
import { linkInstallation, setInstallationSuspended } from '../../lib/db/operations.js';
import { env } from '../../lib/env.js';
import { clearRoleCache, forgetRoles, organizationRole, ROLE_CACHE_MS, SCAN_ROLE_CACHE_MS } from '../../lib/services/installations.js';
import { bearer } from '../support/auth.js';
import { githubUser, ScriptedCodeHost } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest, errorOf } from '../support/http.js';

let t: TestDatabase;
let host: ScriptedCodeHost;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
beforeEach(() => {
  host = new ScriptedCodeHost();
  useCodeHost(host);
  clearRoleCache();
});
afterAll(async () => t.close());

type Listing = { connected: boolean; repositories: { id: string; full_name: string }[] };

function hosted(installationId: number, name: string): HostedRepository {
  return { githubId: randomInt(1, 2 ** 47), installationId, fullName: name, private: true, htmlUrl: `https://github.com/${name}`, defaultBranch: 'main' };
}

/** An owner of a fresh organization whose installation they linked, with `count` repositories. */
async function owner(count = 2, installationId = randomInt(1, 2 ** 40)) {
  const { userId, account } = await githubUser(t);
  const org = `org-${installationId}`;
  await linkInstallation(t.db, userId, { installationId, accountLogin: org, accountType: 'Organization', githubUserId: account.id });
  host.owners[org] = [...(host.owners[org] ?? []), account.login];
  if (!host.repositories.some((r) => r.installationId === installationId)) {
    for (let i = 0; i < count; i += 1) host.repositories.push(hosted(installationId, `${org}/repo-${i}`));
  }
  return { userId, account, org, installationId, authorization: await bearer(userId) };
}

async function list(authorization: string): Promise<Response> {
  return REPOS(await apiRequest('GET', '/api/repos', { authorization }));
}

async function listed(authorization: string): Promise<Listing> {
  const response = await list(authorization);
  expect(response.status).toBe(200);
  return (await response.json()) as Listing;
}

async function scan(authorization: string, repoId: string): Promise<Response> {
  return SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: repoId } }));
}

async function unlink(authorization: string, installationId: number | string): Promise<Response> {
  return DELETE(await apiRequest('DELETE', `/api/installations/${installationId}`, { authorization }));
}

async function rows(userId: string): Promise<{ installations: number; repositories: number; scans: number; findings: number }> {
  const [row] = await t.query<{ installations: number; repositories: number; scans: number; findings: number }>(
    `select (select count(*)::int from public.installations where user_id = $1) as installations,
            (select count(*)::int from public.repositories where user_id = $1) as repositories,
            (select count(*)::int from public.scans where user_id = $1) as scans,
            (select count(*)::int from public.findings where user_id = $1) as findings`,
    [userId],
  );
  return row!;
}

/** A workflow with findings, so that a scan stores some. */
const WORKFLOW = 'on: pull_request_target\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: make\n';

describe('DELETE /api/installations/{installation_id}', () => {
  it("removes the user's link and the repositories it gave them, with scans and findings; idempotent; other users keep theirs", async () => {
    host.snapshot = { files: [{ path: '.github/workflows/ci.yml', text: WORKFLOW }], settings: {}, defaultBranch: 'main', requests: 0 };
    const alice = await owner(2);
    const bob = await owner(2, alice.installationId);
    const other = randomInt(1, 2 ** 40);
    await linkInstallation(t.db, alice.userId, { installationId: other, accountLogin: `org-${other}`, accountType: 'Organization', githubUserId: alice.account.id });
    host.owners[`org-${other}`] = [alice.account.login];
    host.repositories.push(hosted(other, `org-${other}/kept`));
    const repos = (await listed(alice.authorization)).repositories;
    expect(repos).toHaveLength(3);
    await listed(bob.authorization);
    for (const repo of repos) expect((await scan(alice.authorization, repo.id)).status).toBe(200);
    const before = await rows(alice.userId);
    expect(before.findings).toBeGreaterThan(0);

    const response = await unlink(alice.authorization, alice.installationId);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    const after = await rows(alice.userId);
    expect(after).toMatchObject({ installations: 1, repositories: 1, scans: 1 });
    expect(after.findings).toBeLessThan(before.findings);
    expect((await listed(alice.authorization)).repositories.map((r) => r.full_name)).toEqual([`org-${other}/kept`]);
    // A scan of a repository the link gave is now a 404.
    expect((await scan(alice.authorization, repos.find((r) => r.full_name.startsWith(alice.org))!.id)).status).toBe(404);

    expect((await unlink(alice.authorization, alice.installationId)).status).toBe(204);
    expect((await unlink(alice.authorization, randomInt(1, 2 ** 40))).status).toBe(204);
    expect(await rows(bob.userId)).toMatchObject({ installations: 1, repositories: 2 });
  });

  it('answers 404 for an installation id that is not one, touching nothing', async () => {
    const alice = await owner(1);
    for (const id of ['0', '-1', 'abc', '1.5', '99999999999999999999']) {
      expect((await unlink(alice.authorization, id)).status, id).toBe(404);
    }
    expect((await rows(alice.userId)).installations).toBe(1);
  });
});

describe('GET /api/repos follows GitHub', () => {
  it('unlinks an organization whose user is no longer an owner (demoted or gone), after the cache expires', async () => {
    const alice = await owner(2);
    expect((await listed(alice.authorization)).repositories).toHaveLength(2);
    const asked = () => host.calls.filter((c) => c.method === 'organizationRole').length;
    expect(asked()).toBe(1);
    // Cached: a second sync does not ask again.
    await listed(alice.authorization);
    expect(asked()).toBe(1);

    host.owners[alice.org] = [];
    host.members[alice.org] = [alice.account.login]; // demoted to a plain member
    clearRoleCache(); // the cache has expired
    expect(await listed(alice.authorization)).toEqual({ connected: false, repositories: [] });
    expect(await rows(alice.userId)).toMatchObject({ installations: 0, repositories: 0 });
  });

  it('POST /api/scan re-checks the role too (cached a minute): a demoted owner is unlinked at their next scan', async () => {
    host.snapshot = { files: [{ path: '.github/workflows/ci.yml', text: WORKFLOW }], settings: {}, defaultBranch: 'main', requests: 0 };
    const alice = await owner(2);
    const bob = await owner(2, alice.installationId); // another owner of the same organization
    const [repo] = (await listed(alice.authorization)).repositories;
    const [bobRepo] = (await listed(bob.authorization)).repositories;
    const asked = () => host.calls.filter((c) => c.method === 'organizationRole').length;
    const before = asked();
    expect((await scan(alice.authorization, repo!.id)).status).toBe(200);
    expect(asked()).toBe(before); // the sync's answer is a second old
    host.owners[alice.org] = [bob.account.login];
    host.members[alice.org] = [alice.account.login]; // demoted; Alice never calls GET /api/repos again
    expect((await scan(alice.authorization, repo!.id)).status).toBe(200); // within the minute
    clearRoleCache(); // the minute has passed
    const refused = await scan(alice.authorization, repo!.id);
    expect(refused.status).toBe(404);
    expect((await errorOf(refused)).message).toContain('no longer an owner');
    expect(await rows(alice.userId)).toEqual({ installations: 0, repositories: 0, scans: 0, findings: 0 });
    // The other owner keeps scanning.
    expect((await scan(bob.authorization, bobRepo!.id)).status).toBe(200);
    // A member GitHub no longer knows at all, likewise.
    host.owners[alice.org] = [];
    clearRoleCache();
    expect((await scan(bob.authorization, bobRepo!.id)).status).toBe(404);
    expect((await rows(bob.userId)).installations).toBe(0);
  });

  it('a scan trusts a role for a minute, a sync for a few', async () => {
    const alice = await owner(0);
    const now = Date.now();
    expect(await organizationRole(host, alice.installationId, alice.org, alice.account.login, { now })).toBe('admin');
    host.owners[alice.org] = [];
    expect(await organizationRole(host, alice.installationId, alice.org, alice.account.login, { now: now + SCAN_ROLE_CACHE_MS - 1, maxAgeMs: SCAN_ROLE_CACHE_MS })).toBe('admin');
    expect(await organizationRole(host, alice.installationId, alice.org, alice.account.login, { now: now + SCAN_ROLE_CACHE_MS + 1, maxAgeMs: SCAN_ROLE_CACHE_MS })).toBeNull();
    host.owners[alice.org] = [alice.account.login];
    expect(await organizationRole(host, alice.installationId, alice.org, alice.account.login, { now: now + SCAN_ROLE_CACHE_MS + 2 })).toBeNull();
    // The organization webhook forgets a member's roles (any installation, logins case-insensitive).
    forgetRoles(alice.org.toUpperCase(), alice.account.login);
    expect(await organizationRole(host, alice.installationId, alice.org, alice.account.login, { now: now + SCAN_ROLE_CACHE_MS + 3 })).toBe('admin');
  });

  it('caches a role for a few minutes only', async () => {
    const alice = await owner(0);
    const now = Date.now();
    expect(await organizationRole(host, alice.installationId, alice.org, alice.account.login, { now })).toBe('admin');
    host.owners[alice.org] = [];
    expect(await organizationRole(host, alice.installationId, alice.org, alice.account.login, { now: now + ROLE_CACHE_MS - 1 })).toBe('admin');
    expect(await organizationRole(host, alice.installationId, alice.org, alice.account.login, { now: now + ROLE_CACHE_MS + 1 })).toBeNull();
  });

  it('unlinks an installation GitHub no longer knows, and drops repositories it no longer lists, with their scans', async () => {
    const alice = await owner(3);
    const repos = (await listed(alice.authorization)).repositories;
    expect((await scan(alice.authorization, repos[0]!.id)).status).toBe(200);
    host.repositories = host.repositories.filter((r) => r.fullName !== repos[0]!.full_name);
    expect((await listed(alice.authorization)).repositories.map((r) => r.full_name)).toEqual(repos.slice(1).map((r) => r.full_name));
    expect(await rows(alice.userId)).toMatchObject({ repositories: 2, scans: 0 });

    host.installations = [];
    host.owners = {};
    const gone = await owner(1); // another organization, still installed
    await linkInstallation(t.db, alice.userId, { installationId: gone.installationId, accountLogin: gone.org, accountType: 'Organization', githubUserId: alice.account.id });
    host.owners[gone.org] = [alice.account.login];
    host.repositories = host.repositories.filter((r) => r.installationId === gone.installationId);
    clearRoleCache();
    const original = host.organizationRole.bind(host);
    host.organizationRole = async (installationId, org, login) => {
      if (installationId === alice.installationId) throw new CodeHostError('not_found', 'uninstalled');
      return original(installationId, org, login);
    };
    expect((await listed(alice.authorization)).repositories.map((r) => r.full_name)).toEqual([`${gone.org}/repo-0`]);
    expect(await rows(alice.userId)).toMatchObject({ installations: 1, repositories: 1 });
  });

  it('a suspended installation keeps its rows but refuses scans and syncs with 409 until it is unsuspended', async () => {
    const alice = await owner(2);
    const repos = (await listed(alice.authorization)).repositories;
    await setInstallationSuspended(t.db, alice.installationId, true);
    const calls = host.calls.length;
    const sync = await list(alice.authorization);
    expect(sync.status).toBe(409);
    expect((await errorOf(sync)).message).toContain('suspended');
    const refused = await scan(alice.authorization, repos[0]!.id);
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toMatchObject({ code: 'conflict' });
    expect(host.calls.length).toBe(calls);
    expect(await rows(alice.userId)).toMatchObject({ installations: 1, repositories: 2 });

    await setInstallationSuspended(t.db, alice.installationId, false);
    expect((await scan(alice.authorization, repos[0]!.id)).status).toBe(200);
    expect((await listed(alice.authorization)).repositories).toHaveLength(2);
  });

  it('refuses scans and syncs with 503 and Retry-After while the GitHub budget is under the reserve', async () => {
    const alice = await owner(1);
    const [repo] = (await listed(alice.authorization)).repositories;
    const reserve = env().githubRateReserve;
    host.budgets[alice.installationId] = { remaining: reserve - 1, resetAt: Date.now() + 120_000 };
    const calls = host.calls.length;
    for (const response of [await scan(alice.authorization, repo!.id), await list(alice.authorization)]) {
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(119);
      expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(120);
      expect((await errorOf(response)).message).toContain('budget');
    }
    expect(host.calls.length).toBe(calls);
    host.budgets[alice.installationId] = { remaining: reserve, resetAt: Date.now() + 120_000 };
    expect((await scan(alice.authorization, repo!.id)).status).toBe(200);
    host.budgets[alice.installationId] = { remaining: 0, resetAt: Date.now() - 1 }; // already reset
    expect((await scan(alice.authorization, repo!.id)).status).toBe(200);
  });

  it('is rate-limited per user, like scans', async () => {
    const alice = await owner(1);
    const { max } = env().reposRateLimit;
    expect(max).toBeGreaterThan(0);
    await t.query(`insert into public.rate_limits (user_id, bucket, window_started_at, used) values ($1, 'repos', now(), $2)`, [alice.userId, max]);
    const response = await list(alice.authorization);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const bob = await owner(1);
    expect((await list(bob.authorization)).status).toBe(200);
  });
});
