// Members of an organization through their own GitHub access (issue 30), against the GitHub App adapter and
// the fake GitHub (msw, GitHub's payload shapes), on a real database: the App's user authorization, what
// GET /api/repos lists for a member, an outside collaborator and an owner, removal taking effect at the next
// check, refresh, sign-out, a revoked authorization signing the user out, and tokens never leaving the server.

import { App } from '@octokit/app';
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DELETE as SIGN_OUT, POST as COMPLETE } from '../../api/github/authorization.js';
import { GET as AUTHORIZE } from '../../api/github/authorize.js';
import { GET as CALLBACK } from '../../api/github/callback.js';
import { POST as WEBHOOK } from '../../api/github/webhooks.js';
import { GET as REPOS } from '../../api/repos.js';
import { POST as SCAN } from '../../api/scan.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { setLogSink, type LogRecord } from '../../lib/http/log.js';
import { clearRoleCache } from '../../lib/services/installations.js';
import { forgetMemberAccess, openToken, sealToken, verifyState } from '../../lib/services/user-access.js';
import { useWebhookVerifier } from '../../lib/services/webhooks.js';
import { env } from '../../lib/env.js';
import { bearer } from '../support/auth.js';
import { addGithubIdentity, githubAccount } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { FAKE_OAUTH_CLIENT, startFakeGitHub, testAppCredentials, testGitHubCodeHost, type FakeGitHub, type RunningFakeGitHub } from '../support/github/index.js';
import { apiRequest, errorOf } from '../support/http.js';

const SECRET = 'members-webhook-secret-0123456789abcdef';
let t: TestDatabase;
let fake: RunningFakeGitHub;
let github: FakeGitHub;
let nextInstallation = 8_100_000;
let logs: LogRecord[];
let restoreLogs: () => void;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  fake = startFakeGitHub();
  github = fake.github;
  useCodeHost(testGitHubCodeHost({ oauth: { ...FAKE_OAUTH_CLIENT, webUrl: github.webUrl } }));
  const { appId, privateKey } = testAppCredentials();
  useWebhookVerifier(new App({ appId, privateKey, webhooks: { secret: SECRET } }).webhooks);
});
beforeEach(() => {
  logs = [];
  restoreLogs = setLogSink((record) => logs.push(record));
  clearRoleCache();
  forgetMemberAccess();
});
afterEach(() => {
  restoreLogs();
  github.reset();
});
afterAll(async () => {
  fake.close();
  await t.close();
});

type Repository = { id: string; full_name: string; private: boolean; html_url: string };

/** An organization with the App installed on `repositories` (all private). */
function organization(repositories: readonly string[]) {
  const id = nextInstallation++;
  const org = `org-${id}`;
  github.addInstallation({ id, account: { login: org, id: id + 1, type: 'Organization' } });
  for (const name of repositories) github.addRepository({ fullName: `${org}/${name}`, installationId: id, visibility: 'private', files: { '.github/workflows/ci.yml': 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n' } });
  return { id, org, full: (name: string) => `${org}/${name}` };
}

/** A user who signed in with GitHub account `login` (registered with the fake as an App user). */
async function person(login: string, repositories: readonly string[] = []) {
  const account = githubAccount(`${login}-${randomUUID().slice(0, 8)}`);
  const appUser = github.addAppUser(account.login, { id: Number(account.id), repositories });
  const userId = await t.createUser();
  await addGithubIdentity(t, userId, account);
  return { userId, login: account.login, appUser, authorization: await bearer(userId) };
}

async function authorize(who: { login: string; authorization: string }, login = who.login): Promise<Response> {
  const started = await AUTHORIZE(await apiRequest('GET', '/api/github/authorize', { authorization: who.authorization }));
  expect(started.status).toBe(200);
  const { url } = (await started.json()) as { url: string };
  const parsed = new URL(url);
  expect(parsed.origin + parsed.pathname).toBe(`${github.webUrl}/login/oauth/authorize`);
  expect(parsed.searchParams.get('client_id')).toBe(FAKE_OAUTH_CLIENT.clientId);
  const state = parsed.searchParams.get('state') ?? '';
  return COMPLETE(await apiRequest('POST', '/api/github/authorization', { authorization: who.authorization, body: { code: github.authorizationCode(login), state } }));
}

async function repos(authorization: string): Promise<string[]> {
  const response = await REPOS(await apiRequest('GET', '/api/repos', { authorization }));
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { repositories: Repository[] }).repositories.map((r) => r.full_name);
}

async function repoId(authorization: string, fullName: string): Promise<string> {
  const response = await REPOS(await apiRequest('GET', '/api/repos', { authorization }));
  const found = ((await response.json()) as { repositories: Repository[] }).repositories.find((r) => r.full_name === fullName);
  if (found === undefined) throw new Error(`${fullName} not listed`);
  return found.id;
}

const scan = async (authorization: string, repo_id: string) => SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id } }));

async function deliver(event: string, payload: unknown): Promise<Response> {
  const body = JSON.stringify(payload);
  const headers = { 'x-github-event': event, 'x-github-delivery': randomUUID(), 'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` };
  return WEBHOOK(await apiRequest('POST', '/api/github/webhooks', { body, headers }));
}

describe('the App user authorization', () => {
  it('stores the token encrypted, bound to the user, and never answers it', async () => {
    const acme = organization(['api']);
    const alice = await person('alice', [acme.full('api')]);
    const response = await authorize(alice);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ github_login: alice.login });
    const [token] = github.appUserTokensOf(alice.login);
    expect(token).toMatch(/^ghu_/);
    expect(text).not.toContain(token);
    const [row] = await t.query<{ access_token: string; refresh_token: string }>('select access_token, refresh_token from public.github_user_authorizations where user_id = $1', [alice.userId]);
    expect(row?.access_token).toMatch(/^v1:/);
    expect(row?.access_token).not.toContain(token ?? '');
    const key = env().tokenEncryptionKey as Buffer;
    expect(openToken(key, alice.userId, row?.access_token ?? '')).toBe(token);
    // A ciphertext moved to another user's row does not open.
    expect(openToken(key, randomUUID(), row?.access_token ?? '')).toBeNull();
    // A tampered authentication tag (its first character: the last one has spare bits) does not open.
    const sealed = sealToken(key, alice.userId, 'x').split(':');
    const tag = sealed[3] ?? '';
    expect(openToken(key, alice.userId, [...sealed.slice(0, 3), `${tag[0] === 'A' ? 'B' : 'A'}${tag.slice(1)}`].join(':'))).toBeNull();
    // Browsers read nothing of the table, not even their own row.
    const seen = await t.as('authenticated', alice.userId, (tx) => tx.query('select * from public.github_user_authorizations').catch((error: unknown) => error));
    expect(seen).toBeInstanceOf(Error);
  });

  it("refuses a state that is another user's, forged or expired, and a code used twice", async () => {
    const alice = await person('alice');
    const bob = await person('bob');
    const started = await AUTHORIZE(await apiRequest('GET', '/api/github/authorize', { authorization: alice.authorization }));
    const state = new URL(((await started.json()) as { url: string }).url).searchParams.get('state') ?? '';
    const key = env().tokenEncryptionKey as Buffer;
    expect(verifyState(key, alice.userId, state)).toBe(true);
    expect(verifyState(key, bob.userId, state)).toBe(false);
    expect(verifyState(key, alice.userId, state, Date.now() + 11 * 60_000)).toBe(false);
    const [tag, expiry, nonce, mac] = state.split('.');
    expect(verifyState(key, alice.userId, [tag, String(Number(expiry) + 3600), nonce, mac].join('.'))).toBe(false);
    expect(verifyState(key, alice.userId, [tag, expiry, nonce, `${mac?.slice(0, 10)}${mac?.[10] === 'A' ? 'B' : 'A'}${mac?.slice(11)}`].join('.'))).toBe(false);
    const code = github.authorizationCode(alice.login);
    const asBob = await COMPLETE(await apiRequest('POST', '/api/github/authorization', { authorization: bob.authorization, body: { code, state } }));
    expect(asBob.status).toBe(400);
    expect(github.count('POST /login/oauth/access_token')).toBe(0);
    const first = await COMPLETE(await apiRequest('POST', '/api/github/authorization', { authorization: alice.authorization, body: { code, state } }));
    expect(first.status).toBe(200);
    const again = await COMPLETE(await apiRequest('POST', '/api/github/authorization', { authorization: alice.authorization, body: { code, state } }));
    expect(again.status).toBe(400);
  });

  it('refuses (403) and revokes a token of another GitHub account than the one signed in', async () => {
    const alice = await person('alice');
    const mallory = await person('mallory');
    const response = await authorize(alice, mallory.login);
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('forbidden');
    expect(github.appUserTokensOf(mallory.login)).toEqual([]);
    expect(await t.query('select 1 from public.github_user_authorizations where user_id = $1', [alice.userId])).toEqual([]);
  });
});

describe('GET /api/repos through the user authorization', () => {
  it('a member sees exactly the repositories GitHub says they can access, whoever linked the installation', async () => {
    const acme = organization(['api', 'web', 'secret']);
    const owner = await person('owner');
    github.addMember(acme.org, owner.login, 'active', 'admin');
    const alice = await person('alice', [acme.full('api'), acme.full('web')]);
    github.addMember(acme.org, alice.login);
    expect((await authorize(owner)).status).toBe(200);
    expect((await authorize(alice)).status).toBe(200);
    expect(await repos(owner.authorization)).toEqual([acme.full('api'), acme.full('secret'), acme.full('web')]);
    expect(await repos(alice.authorization)).toEqual([acme.full('api'), acme.full('web')]);
    // Nobody linked the installation through the callback.
    const links = await t.query<{ access: string }>('select access from public.installations where user_id = $1', [alice.userId]);
    expect(links).toEqual([{ access: 'member' }]);
    // Each member has their own rows (RLS): alice reads hers only.
    const seen = await t.as('authenticated', alice.userId, (tx) => tx.query<{ full_name: string }>('select full_name from public.repositories order by full_name'));
    expect(seen.map((r) => r.full_name)).toEqual([acme.full('api'), acme.full('web')]);
  });

  it('a plain member is pointed to their own access by the callback; once an owner, the callback makes the member link a link', async () => {
    const acme = organization(['api', 'web']);
    const alice = await person('alice', [acme.full('api')]);
    github.addMember(acme.org, alice.login);
    const refused = await CALLBACK(await apiRequest('GET', `/api/github/callback?installation_id=${acme.id}`, { authorization: alice.authorization }));
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toContain('Use my GitHub access');
    expect((await authorize(alice)).status).toBe(200);
    expect(await repos(alice.authorization)).toEqual([acme.full('api')]);
    github.addMember(acme.org, alice.login, 'active', 'admin');
    clearRoleCache(); // the callback answers a refusal again from memory for a minute
    const linked = await CALLBACK(await apiRequest('GET', `/api/github/callback?installation_id=${acme.id}`, { authorization: alice.authorization }));
    expect(linked.status).toBe(200);
    expect(await t.query('select access from public.installations where user_id = $1', [alice.userId])).toEqual([{ access: 'link' }]);
    expect(await repos(alice.authorization)).toEqual([acme.full('api'), acme.full('web')]);
  });

  it("a member's scan reads the repository with the member's own token, so admin-only settings are unreadable to it", async () => {
    const acme = organization(['api']);
    const alice = await person('alice', [acme.full('api')]);
    expect((await authorize(alice)).status).toBe(200);
    const api = await repoId(alice.authorization, acme.full('api'));
    github.reset();
    const response = await scan(alice.authorization, api);
    expect(response.status).toBe(200);
    const snapshotRequests = github.requests.filter((r) => r.repository?.toLowerCase() === acme.full('api').toLowerCase());
    expect(snapshotRequests.length).toBeGreaterThan(0);
    expect(snapshotRequests.every((r) => r.auth === 'app-user')).toBe(true);
    const body = (await response.json()) as { findings: { rule_id: string }[] };
    expect(body.findings.some((f) => f.rule_id === 'settings-unreadable')).toBe(true);
  });

  it("an organization delivery about a member keeps what they reach as a member; leaving the organization removes it", async () => {
    const acme = organization(['api', 'web']);
    const alice = await person('alice', [acme.full('api')]);
    github.addMember(acme.org, alice.login);
    expect((await authorize(alice)).status).toBe(200);
    expect(await repos(alice.authorization)).toEqual([acme.full('api')]);
    const payload = (action: string) => ({
      action,
      membership: { state: 'active', role: 'member', user: { login: alice.login, id: alice.appUser.id } },
      organization: { login: acme.org, id: acme.id + 1 },
      installation: { id: acme.id },
      sender: { login: 'owner', id: 1 },
    });
    expect((await deliver('organization', payload('member_added'))).status).toBe(204);
    expect(await t.query('select access from public.installations where user_id = $1', [alice.userId])).toEqual([{ access: 'member' }]);
    github.removeMember(acme.org, alice.login);
    expect((await deliver('organization', payload('member_removed'))).status).toBe(204);
    expect(await t.query('select 1 from public.installations where user_id = $1', [alice.userId])).toEqual([]);
  });

  it('an outside collaborator sees only their repositories', async () => {
    const acme = organization(['api', 'web']);
    const other = organization(['tool']);
    const bob = await person('bob', [acme.full('web')]);
    expect((await authorize(bob)).status).toBe(200);
    expect(await repos(bob.authorization)).toEqual([acme.full('web')]);
    expect(github.count((r) => r.route === 'GET /user/installations/{installation_id}/repositories' && r.url.includes(String(other.id)))).toBe(0);
  });

  it('a member removed from a team loses the repository at the next sync, and at the next scan once the listing is stale', async () => {
    const acme = organization(['api', 'web']);
    const alice = await person('alice', [acme.full('api'), acme.full('web')]);
    expect((await authorize(alice)).status).toBe(200);
    const web = await repoId(alice.authorization, acme.full('web'));
    expect((await scan(alice.authorization, web)).status).toBe(200);

    github.setRepositoryAccess(alice.login, acme.full('web'), false);
    // The `membership` webhook (team membership removed) forgets the cached listing at once.
    const delivered = await deliver('membership', { action: 'removed', scope: 'team', member: { login: alice.login, id: alice.appUser.id }, team: { id: 1, slug: 'web' }, organization: { login: acme.org, id: acme.id + 1 }, installation: { id: acme.id }, sender: { login: 'someone', id: 1 } });
    expect(delivered.status).toBe(204);
    const refused = await scan(alice.authorization, web);
    expect(refused.status).toBe(404);
    expect((await errorOf(refused)).message).toContain('no longer lets you access');
    expect(await t.query('select 1 from public.repositories where id = $1', [web])).toEqual([]);
    expect(await repos(alice.authorization)).toEqual([acme.full('api')]);

    // Removed from the last repository: the installation goes too.
    github.setRepositoryAccess(alice.login, acme.full('api'), false);
    expect(await repos(alice.authorization)).toEqual([]);
    expect(await t.query('select 1 from public.installations where user_id = $1', [alice.userId])).toEqual([]);
  });

  it('refreshes an expired token with its refresh token (rotated), and keeps working', async () => {
    const acme = organization(['api']);
    const alice = await person('alice', [acme.full('api')]);
    expect((await authorize(alice)).status).toBe(200);
    const [before] = await t.query<{ access_token: string }>('select access_token from public.github_user_authorizations where user_id = $1', [alice.userId]);
    github.expireAppUserTokens(alice.login);
    expect(await repos(alice.authorization)).toEqual([acme.full('api')]);
    expect(github.count('POST /login/oauth/access_token')).toBe(2);
    const [after] = await t.query<{ access_token: string }>('select access_token from public.github_user_authorizations where user_id = $1', [alice.userId]);
    expect(after?.access_token).not.toBe(before?.access_token);
  });

  it('sign-out revokes the token at GitHub and removes what the user reached only as a member', async () => {
    const acme = organization(['api']);
    const alice = await person('alice', [acme.full('api')]);
    expect((await authorize(alice)).status).toBe(200);
    expect(await repos(alice.authorization)).toEqual([acme.full('api')]);
    const out = await SIGN_OUT(await apiRequest('DELETE', '/api/github/authorization', { authorization: alice.authorization }));
    expect(out.status).toBe(204);
    expect(github.appUserTokensOf(alice.login)).toEqual([]);
    expect(github.count('DELETE /applications/{client_id}/token')).toBe(1);
    expect(await t.query('select 1 from public.repositories where user_id = $1', [alice.userId])).toEqual([]);
    // Idempotent.
    expect((await SIGN_OUT(await apiRequest('DELETE', '/api/github/authorization', { authorization: alice.authorization }))).status).toBe(204);
  });

  it('a revoked authorization (github_app_authorization webhook) signs the user out', async () => {
    const acme = organization(['api']);
    const alice = await person('alice', [acme.full('api')]);
    expect((await authorize(alice)).status).toBe(200);
    const api = await repoId(alice.authorization, acme.full('api'));
    github.revokeAppUser(alice.login);
    const delivered = await deliver('github_app_authorization', { action: 'revoked', sender: { login: alice.login, id: alice.appUser.id, type: 'User' } });
    expect(delivered.status).toBe(204);
    // The session that was open is refused, its member rows are gone.
    const listed = await REPOS(await apiRequest('GET', '/api/repos', { authorization: alice.authorization }));
    expect(listed.status).toBe(401);
    expect(listed.headers.get('www-authenticate')).toContain('invalid_token');
    expect((await scan(alice.authorization, api)).status).toBe(404);
    expect(await t.query('select 1 from public.installations where user_id = $1', [alice.userId])).toEqual([]);
    // Signing in again (a newer session) works, without member access until the user authorizes again.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await bearer(alice.userId);
    expect(await repos(again)).toEqual([]);
    expect((await authorize({ ...alice, authorization: again })).status).toBe(200);
    expect(await repos(again)).toEqual([acme.full('api')]);
  });

  it('a late or replayed revocation GitHub does not confirm signs nobody out', async () => {
    const acme = organization(['api']);
    const alice = await person('alice', [acme.full('api')]);
    expect((await authorize(alice)).status).toBe(200);
    const asked = github.count('GET /user');
    const delivered = await deliver('github_app_authorization', { action: 'revoked', sender: { login: alice.login, id: alice.appUser.id, type: 'User' } });
    expect(delivered.status).toBe(204);
    // GitHub was asked with the stored token, and still accepts it.
    expect(github.count('GET /user')).toBe(asked + 1);
    expect(await repos(alice.authorization)).toEqual([acme.full('api')]);
  });

  it('a token GitHub refuses without a webhook ends the authorization as well (401)', async () => {
    const acme = organization(['api']);
    const alice = await person('alice', [acme.full('api')]);
    expect((await authorize(alice)).status).toBe(200);
    github.revokeAppUser(alice.login);
    const listed = await REPOS(await apiRequest('GET', '/api/repos', { authorization: alice.authorization }));
    expect(listed.status).toBe(401);
    const [row] = await t.query<{ access_token: string | null; revoked_at: string | null }>('select access_token, revoked_at from public.github_user_authorizations where user_id = $1', [alice.userId]);
    expect(row?.access_token).toBeNull();
    expect(row?.revoked_at).not.toBeNull();
  });

  it('no user token, refresh token, code or client secret appears in a response or a log line', async () => {
    const acme = organization(['api']);
    const alice = await person('alice', [acme.full('api')]);
    const bodies: string[] = [];
    const response = await authorize(alice);
    bodies.push(await response.text());
    const repoResponse = await REPOS(await apiRequest('GET', '/api/repos', { authorization: alice.authorization }));
    bodies.push(await repoResponse.text());
    github.expireAppUserTokens(alice.login);
    bodies.push(await (await REPOS(await apiRequest('GET', '/api/repos', { authorization: alice.authorization }))).text());
    github.fault('GET /user/installations', { kind: 'status', status: 500 }, { times: 1 });
    bodies.push(await (await REPOS(await apiRequest('GET', '/api/repos', { authorization: alice.authorization }))).text());
    bodies.push(await (await SIGN_OUT(await apiRequest('DELETE', '/api/github/authorization', { authorization: alice.authorization }))).text());
    const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.github_user_authorizations where user_id = $1', [alice.userId]);
    expect(row?.n).toBe(1);
    const secrets = [FAKE_OAUTH_CLIENT.clientSecret, 'ghu_', 'ghr_'];
    const text = JSON.stringify(logs) + bodies.join('\n');
    expect(logs.length).toBeGreaterThanOrEqual(5);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});
