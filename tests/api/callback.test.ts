// GET /api/github/callback: the installation id is validated, and the installation is linked only when it is
// the user's own account or an organization the user belongs to. The code host is scripted here.

import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET } from '../../api/github/callback.js';
import { GET as REPOS } from '../../api/repos.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { CodeHostError } from '../../lib/codehost/port.js';
import { useDatabase } from '../../lib/db/connection.js';
import { env } from '../../lib/env.js';
import { bearer } from '../support/auth.js';
import { addGithubIdentity, githubAccount, ScriptedCodeHost, type GithubAccount } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest, errorOf } from '../support/http.js';

let t: TestDatabase;
const host = new ScriptedCodeHost();

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  useCodeHost(host);
});
afterAll(async () => t.close());

const callback = async (authorization: string, installationId: number | string) =>
  GET(await apiRequest('GET', `/api/github/callback?installation_id=${installationId}`, { authorization }));

/** A user who signed in with `account` (a fresh GitHub account by default). */
async function signedIn(account: GithubAccount = githubAccount()) {
  const userId = await t.createUser();
  await addGithubIdentity(t, userId, account);
  return { userId, account, authorization: await bearer(userId) };
}

/** A personal installation on `account`, known to the code host. */
function personalInstallation(account: GithubAccount): number {
  const installationId = randomInt(1, 2 ** 40);
  host.installations.push({ installationId, account: account.login, accountType: 'User', accountId: account.id });
  return installationId;
}

/** An organization installation whose owners are `logins` (and whose plain members are `members`). */
function organizationInstallation(logins: string[], members: string[] = []): { installationId: number; org: string } {
  const installationId = randomInt(1, 2 ** 40);
  const org = `org-${installationId}`;
  host.installations.push({ installationId, account: org, accountType: 'Organization', accountId: String(installationId + 7) });
  host.owners[org] = logins;
  host.members[org] = members;
  return { installationId, org };
}

async function installationsOf(userId: string): Promise<number[]> {
  const rows = await t.query<{ installation_id: string }>('select installation_id from public.installations where user_id = $1', [userId]);
  return rows.map((r) => Number(r.installation_id));
}

describe('GET /api/github/callback (6)', () => {
  it('answers 400 for a missing, non-numeric, negative, fractional or oversized installation_id, storing nothing', async () => {
    const { userId, authorization } = await signedIn();
    const calls = host.calls.length;
    const queries = [
      '',
      '?installation_id=',
      '?installation_id=abc',
      '?installation_id=-1',
      '?installation_id=0',
      '?installation_id=01',
      '?installation_id=1.5',
      '?installation_id=1.0',
      '?installation_id=1e3',
      '?installation_id=0x10',
      '?installation_id=%201',
      '?installation_id=1%00',
      '?installation_id=9007199254740992',
      '?installation_id=99999999999999999999',
      '?installation_id=1;drop%20table%20installations',
      '?other=1',
    ];
    for (const query of queries) {
      const response = await GET(await apiRequest('GET', `/api/github/callback${query}`, { authorization }));
      expect(response.status, query).toBe(400);
      expect(await errorOf(response), query).toMatchObject({ code: 'invalid_request', details: [{ location: 'query', path: ['installation_id'] }] });
    }
    expect(host.calls.length).toBe(calls);
    expect(await installationsOf(userId)).toEqual([]);
  });

  it("links the user's own personal installation, compared by GitHub id; linking again is idempotent", async () => {
    const { userId, account, authorization } = await signedIn();
    const installationId = personalInstallation(account);
    const response = await callback(authorization, installationId);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ installation_id: installationId, account: account.login, account_type: 'User' });
    expect(await installationsOf(userId)).toEqual([installationId]);
    expect((await callback(authorization, installationId)).status).toBe(200);
    expect(await installationsOf(userId)).toEqual([installationId]);
    const repos = await REPOS(await apiRequest('GET', '/api/repos', { authorization }));
    expect(await repos.json()).toEqual({ connected: true, repositories: [] });
  });

  it("refuses someone else's personal installation, even under the same login, and stores nothing", async () => {
    const owner = githubAccount();
    const installationId = personalInstallation(owner);
    // The owner's login with another GitHub id: a renamed account whose old login someone took.
    const impostor = await signedIn({ id: String(randomInt(1, 2 ** 47)), login: owner.login });
    const stranger = await signedIn();
    for (const { userId, authorization } of [impostor, stranger]) {
      const response = await callback(authorization, installationId);
      expect(response.status).toBe(403);
      expect(await errorOf(response)).toMatchObject({ code: 'forbidden' });
      expect(await installationsOf(userId)).toEqual([]);
    }
  });

  it('never takes the GitHub account from user metadata, which users can edit', async () => {
    const owner = githubAccount();
    const personal = personalInstallation(owner);
    const { installationId: org } = organizationInstallation([owner.login]);
    const forger = await signedIn();
    const withoutIdentity = await t.createUser();
    const metadata = JSON.stringify({ user_name: owner.login, preferred_username: owner.login, provider_id: owner.id, sub: owner.id });
    for (const userId of [forger.userId, withoutIdentity]) {
      await t.query('update auth.users set raw_user_meta_data = $2::jsonb where id = $1', [userId, metadata]);
      const authorization = await bearer(userId);
      expect((await callback(authorization, personal)).status).toBe(403);
      expect((await callback(authorization, org)).status).toBe(403);
      expect(await installationsOf(userId)).toEqual([]);
    }
  });

  it("refuses an organization's installation to a plain member, saying who can connect it, and stores nothing", async () => {
    const member = await signedIn();
    const { installationId, org } = organizationInstallation(['the-owner'], [member.account.login]);
    const refused = await callback(member.authorization, installationId);
    expect(refused.status).toBe(403);
    const error = await errorOf(refused);
    expect(error.code).toBe('forbidden');
    expect(error.message).toContain(`owner of the GitHub organization ${org}`);
    expect(await installationsOf(member.userId)).toEqual([]);
    // Nor can the plain member list the installation's repositories afterwards.
    expect(await (await REPOS(await apiRequest('GET', '/api/repos', { authorization: member.authorization }))).json()).toEqual({ connected: false, repositories: [] });
  });

  it("links an organization's installation for an owner, and refuses a non-member", async () => {
    const member = await signedIn();
    const { installationId, org } = organizationInstallation(['someone-else', member.account.login]);
    const linked = await callback(member.authorization, installationId);
    expect(linked.status).toBe(200);
    expect(await linked.json()).toEqual({ installation_id: installationId, account: org, account_type: 'Organization' });
    expect(host.calls.at(-1)).toEqual({ method: 'organizationRole', args: [installationId, org, member.account.login] });
    expect(await installationsOf(member.userId)).toEqual([installationId]);

    const outsider = await signedIn();
    const refused = await callback(outsider.authorization, installationId);
    expect(refused.status).toBe(403);
    expect(await installationsOf(outsider.userId)).toEqual([]);
  });

  it('refuses an installation the App cannot see, and accounts that are neither a user nor an organization', async () => {
    const { userId, account, authorization } = await signedIn();
    const enterprise = randomInt(1, 2 ** 40);
    host.installations.push({ installationId: enterprise, account: account.login, accountType: 'Enterprise', accountId: account.id });
    for (const id of [enterprise, randomInt(2 ** 41, 2 ** 42)]) {
      const response = await callback(authorization, id);
      expect(response.status, String(id)).toBe(403);
      expect((await errorOf(response)).code).toBe('forbidden');
    }
    expect(await installationsOf(userId)).toEqual([]);
  });

  it('answers 502/503 when the code host fails, storing nothing, and works on the next request', async () => {
    const { userId, account, authorization } = await signedIn();
    const installationId = personalInstallation(account);
    try {
      host.fail = () => new CodeHostError('unavailable', 'GitHub answered 502');
      const failed = await callback(authorization, installationId);
      expect(failed.status).toBe(502);
      expect(await errorOf(failed)).toMatchObject({ code: 'upstream_unavailable' });
      host.fail = () => new CodeHostError('rate_limited', 'secondary rate limit', { retryAfter: 42 });
      const limited = await callback(authorization, installationId);
      expect(limited.status).toBe(503);
      expect(limited.headers.get('retry-after')).toBe('42');
    } finally {
      host.fail = null;
    }
    expect(await installationsOf(userId)).toEqual([]);
    expect((await callback(authorization, installationId)).status).toBe(200);
  });

  it('answers 401 without a valid token, before asking the code host anything', async () => {
    const calls = host.calls.length;
    for (const authorization of ['', 'Bearer nope', 'Basic Zm9vOmJhcg==']) {
      expect((await callback(authorization, 1)).status).toBe(401);
    }
    expect(host.calls.length).toBe(calls);
  });
});

describe('GET /api/github/callback (6): the installation\'s GitHub budget is not for strangers to spend', () => {
  const membershipChecks = (installationId: number) => host.calls.filter((c) => c.method === 'organizationRole' && c.args[0] === installationId).length;

  it('rate-limits the callback per user before any code-host call (CALLBACK_RATE_LIMIT, 429 with Retry-After)', async () => {
    const stranger = await signedIn();
    const { installationId } = organizationInstallation(['the-owner']);
    const before = host.calls.length;
    const statuses: number[] = [];
    for (let i = 0; i < env().callbackRateLimit.max + 2; i += 1) statuses.push((await callback(stranger.authorization, installationId)).status);
    expect(statuses.slice(0, env().callbackRateLimit.max)).toEqual(Array.from({ length: env().callbackRateLimit.max }, () => 403));
    const limited = await callback(stranger.authorization, installationId);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // One membership check: the refusal is answered again from the cache; the 429s asked the code host nothing.
    expect(membershipChecks(installationId)).toBe(1);
    expect(host.calls.length - before).toBe(env().callbackRateLimit.max + 1);
  });

  it('caps the membership checks of users not linked to an installation (INSTALLATION_CHECK_LIMIT an hour); linked users are not counted', async () => {
    const owner = await signedIn();
    const { installationId, org } = organizationInstallation([owner.account.login]);
    expect((await callback(owner.authorization, installationId)).status).toBe(200);
    const limit = env().installationCheckLimit;
    const statuses: number[] = [];
    for (let i = 0; i < limit + 1; i += 1) statuses.push((await callback((await signedIn()).authorization, installationId)).status);
    expect(statuses.filter((s) => s === 403)).toHaveLength(limit - 1);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    expect(membershipChecks(installationId)).toBe(limit);
    // The owner, already linked, refreshes the link without being counted.
    expect((await callback(owner.authorization, installationId)).status).toBe(200);
    // Another installation is untouched.
    const other = organizationInstallation([owner.account.login]);
    expect((await callback(owner.authorization, other.installationId)).status).toBe(200);
    expect(host.owners[org]).toEqual([owner.account.login]);
  });
});
