// The GitHub App's user authorization adapter against the fake GitHub (msw): every page of a member's
// installations and repositories, and GitHub's failures as the service needs them (a refused token is
// UserTokenRefused, the rest CodeHostError with GitHub's Retry-After), never with a token in the message.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubUserAccess } from '../../../../lib/codehost/github/user-access.js';
import { CodeHostError, UserTokenRefused, type UserAccessHost } from '../../../../lib/codehost/port.js';
import { FAKE_OAUTH_CLIENT, startFakeGitHub, type FakeGitHub, type RunningFakeGitHub } from '../../../support/github/index.js';

let fake: RunningFakeGitHub;
let github: FakeGitHub;
let access: UserAccessHost;

beforeAll(() => {
  fake = startFakeGitHub();
  github = fake.github;
  access = createGitHubUserAccess({ ...FAKE_OAUTH_CLIENT, apiUrl: github.baseUrl, webUrl: github.webUrl, retry: false, throttle: false });
});
afterEach(() => github.reset());
afterAll(() => fake.close());

async function member(repositories = 3) {
  const id = 9_100_000 + Math.floor(Math.random() * 100_000);
  const org = `org-${id}`;
  github.addInstallation({ id, account: { login: org, id: id + 1, type: 'Organization' } });
  const names = Array.from({ length: repositories }, (_, i) => `${org}/r${String(i).padStart(3, '0')}`);
  for (const fullName of names) github.addRepository({ fullName, installationId: id, visibility: 'private' });
  const login = `m-${id}`;
  github.addAppUser(login, { repositories: names });
  const tokens = await access.exchangeCode(github.authorizationCode(login), null);
  return { id, org, login, names, token: tokens.accessToken, tokens };
}

describe('the user authorization adapter', () => {
  it('exchanges a code for expiring tokens, names the account, and lists every page', async () => {
    const m = await member(230);
    expect(m.tokens.expiresAt).toBeGreaterThan(Date.now() + 7 * 3600_000);
    expect(m.tokens.refreshToken).toMatch(/^ghr_/);
    expect((await access.user(m.token)).login).toBe(m.login);
    expect((await access.installations(m.token)).map((i) => i.installationId)).toContain(m.id);
    const repositories = await access.repositories(m.token, m.id);
    expect(repositories.map((r) => r.fullName).sort()).toEqual(m.names);
    expect(github.count('GET /user/installations/{installation_id}/repositories')).toBe(3);
    expect(github.roundTrips((r) => r.route === 'GET /user/installations/{installation_id}/repositories')).toBeLessThanOrEqual(2);
  });

  it('refuses a used code, a spent refresh token and a revoked token with UserTokenRefused', async () => {
    const m = await member();
    const code = github.authorizationCode(m.login);
    await access.exchangeCode(code, null);
    await expect(access.exchangeCode(code, null)).rejects.toBeInstanceOf(UserTokenRefused);
    const refreshed = await access.refresh(m.tokens.refreshToken ?? '');
    await expect(access.refresh(m.tokens.refreshToken ?? '')).rejects.toBeInstanceOf(UserTokenRefused);
    await access.revoke(refreshed.accessToken);
    await expect(access.user(refreshed.accessToken)).rejects.toBeInstanceOf(UserTokenRefused);
    // Revoking a token GitHub no longer knows is done already.
    await expect(access.revoke(refreshed.accessToken)).resolves.toBeUndefined();
  });

  it("maps GitHub's failures, with Retry-After, and never puts a token in a message", async () => {
    const m = await member();
    const failure = async (promise: Promise<unknown>) => {
      const error = await promise.then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(CodeHostError);
      expect(String((error as Error).message)).not.toContain(m.token);
      return error as CodeHostError;
    };
    github.fault('GET /user/installations', { kind: 'status', status: 502 }, { times: 1 });
    expect((await failure(access.installations(m.token))).kind).toBe('unavailable');
    github.fault('GET /user/installations', { kind: 'rate-limit', resetInSeconds: 90 }, { times: 1 });
    const limited = await failure(access.installations(m.token));
    expect(limited.kind).toBe('rate_limited');
    expect(limited.retryAfter).toBeGreaterThanOrEqual(85);
    github.fault('GET /user/installations/{installation_id}/repositories', { kind: 'body', body: '{"total_count": 1}' }, { times: 1 });
    expect((await failure(access.repositories(m.token, m.id))).kind).toBe('unavailable');
    github.fault('GET /user', { kind: 'network' }, { times: 1 });
    expect((await failure(access.user(m.token))).kind).toBe('unavailable');
    // An installation the user does not reach: GitHub's 404.
    expect((await failure(access.repositories(m.token, 1))).kind).toBe('not_found');
  });

  it('an OAuth client GitHub does not know is a configuration failure, not a user refusal', async () => {
    const wrong = createGitHubUserAccess({ clientId: FAKE_OAUTH_CLIENT.clientId, clientSecret: 'wrong', apiUrl: github.baseUrl, webUrl: github.webUrl });
    const m = await member();
    const error = await wrong.exchangeCode(github.authorizationCode(m.login), null).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(CodeHostError);
    expect(String((error as Error).message)).not.toContain('wrong');
  });
});
