// The App's side of the port: installation accounts (the ownership check of the installation callback),
// organization membership, repository listing across installations and pages, and the installation token
// cache.

import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { CodeHostError } from '../../../../lib/codehost/port.js';
import { startFakeGitHub, testAppCredentials, testGitHubCodeHost } from '../../../support/github/index.js';
import { setup } from './support.js';

// A latency well above scheduling noise: round trips are counted from overlapping request windows, and 5 ms
// and 25 ms windows were too short on a 2-core machine at a load of 17 (a parallel request could start after
// another ended): 150 ms.
const { github, close } = startFakeGitHub({ latencyMs: 150 });
afterAll(close);
afterEach(() => github.reset());

const TOKEN = 'POST /app/installations/{installation_id}/access_tokens';

github.addInstallation({ id: 1, account: { login: 'octocat', id: 583231, type: 'User' } });
github.addInstallation({ id: 2, account: { login: 'acme', id: 90210417, type: 'Organization' } });
github.addInstallation({ id: 3, account: { login: 'globex', id: 7700, type: 'Organization' }, permissions: { metadata: 'read', contents: 'read' } });
github.addMember('acme', 'octocat');
github.addMember('acme', 'newcomer', 'pending');
github.addMember('acme', { login: 'boss', id: 4242 }, 'active', 'admin');
github.addMember('acme', 'invited-owner', 'pending', 'admin');

describe('getInstallation', () => {
  test('a personal installation: the user account, with the App JWT', async () => {
    const host = testGitHubCodeHost();
    expect(await host.getInstallation(1)).toEqual({ installationId: 1, account: 'octocat', accountType: 'User', accountId: '583231' });
    expect(github.requests.map((r) => [r.route, r.auth])).toEqual([['GET /app/installations/{installation_id}', 'app']]);
  });

  test('an organization installation', async () => {
    expect(await testGitHubCodeHost().getInstallation(2)).toEqual({ installationId: 2, account: 'acme', accountType: 'Organization', accountId: '90210417' });
  });

  test('an unknown installation is not_found', async () => {
    await expect(testGitHubCodeHost().getInstallation(404)).rejects.toMatchObject({ name: 'CodeHostError', kind: 'not_found' });
  });

  test('a JWT signed with another key is refused (GitHub answers 401)', async () => {
    const { privateKey } = testAppCredentials();
    const other = testGitHubCodeHost({ appId: 999, privateKey });
    await expect(other.getInstallation(1)).rejects.toMatchObject({ kind: 'forbidden', message: 'installation 1: 401 A JSON web token could not be decoded' });
  });
});

describe('organizationRole', () => {
  const host = testGitHubCodeHost();

  test('an active member, and an active owner (admin)', async () => {
    expect(await host.organizationRole(2, 'acme', 'octocat')).toBe('member');
    expect(github.routesRequested()).toEqual([TOKEN, 'GET /orgs/{org}/memberships/{username}']);
    expect(await host.organizationRole(2, 'acme', 'boss')).toBe('admin');
  });

  test('a stranger, a pending invitation (even as owner) and an organization that does not exist have no role', async () => {
    expect(await host.organizationRole(2, 'acme', 'mallory')).toBeNull();
    expect(await host.organizationRole(2, 'acme', 'newcomer')).toBeNull();
    expect(await host.organizationRole(2, 'acme', 'invited-owner')).toBeNull();
    expect(await host.organizationRole(2, 'no-such-org', 'octocat')).toBeNull();
  });

  test('with the account id: the membership counts only when the login is still that account (ids, not logins)', async () => {
    expect(await host.organizationRole(2, 'acme', 'boss', '4242')).toBe('admin');
    // The login now belongs to someone else (renamed, then taken): same login, another account.
    expect(await host.organizationRole(2, 'acme', 'boss', '4243')).toBeNull();
    github.reassignLogin('acme', 'boss');
    expect(await host.organizationRole(2, 'acme', 'boss', '4242')).toBeNull();
    expect(await host.organizationRole(2, 'acme', 'boss')).toBe('admin');
  });

  test('without the "Members: read" permission: forbidden, without asking', async () => {
    await expect(host.organizationRole(3, 'globex', 'octocat')).rejects.toMatchObject({ kind: 'forbidden', message: expect.stringContaining('Members: read') });
    expect(github.count('GET /orgs/{org}/memberships/{username}')).toBe(0);
  });

  test('other failures are errors, not "no"', async () => {
    github.fault('GET /orgs/{org}/memberships/{username}', { kind: 'status', status: 502 });
    await expect(host.organizationRole(2, 'acme', 'octocat')).rejects.toMatchObject({ kind: 'unavailable' });
    github.clearFaults();
    await expect(host.organizationRole(2, 'globex', 'octocat')).rejects.toMatchObject({ kind: 'forbidden' });
  });
});

describe('listRepositories', () => {
  const ids = [11, 12, 13];
  const counts = [0, 150, 230];
  ids.forEach((id, i) => {
    github.addInstallation({ id, account: { login: `lister-${id}`, id: 60_000 + id, type: 'Organization' } });
    for (let n = 0; n < (counts[i] ?? 0); n++) {
      github.addRepository({ fullName: `lister-${id}/repo-${String(n).padStart(3, '0')}`, installationId: id, visibility: n % 3 === 0 ? 'private' : 'public', defaultBranch: n % 2 === 0 ? 'main' : 'master' });
    }
  });

  test('every page of every installation, installations in parallel, in a stable order', async () => {
    const repositories = await testGitHubCodeHost().listRepositories([13, 11, 12, 13]);
    expect(repositories).toHaveLength(380);
    expect(repositories.map((r) => r.installationId)).toEqual([...Array(150).fill(12), ...Array(230).fill(13)]);
    expect(repositories[0]).toEqual({
      githubId: expect.any(Number),
      installationId: 12,
      fullName: 'lister-12/repo-000',
      private: true,
      htmlUrl: 'https://github.com/lister-12/repo-000',
      defaultBranch: 'main',
    });
    expect(repositories[1]).toMatchObject({ fullName: 'lister-12/repo-001', private: false, defaultBranch: 'master' });
    expect(new Set(repositories.map((r) => r.githubId)).size).toBe(380);
    expect(github.count(TOKEN)).toBe(3);
    expect(github.count('GET /installation/repositories')).toBe(1 + 2 + 3);
    // token, the first page (its total_count says how many follow), then the other pages together; the
    // installations do not wait for each other.
    expect(github.roundTrips()).toBe(1 + 1 + 1);
  });

  test('an installation that was removed fails the listing (not_found)', async () => {
    await expect(testGitHubCodeHost().listRepositories([12, 777])).rejects.toMatchObject({ kind: 'not_found', message: 'installation 777: 404 Not Found' });
  });
});

describe('installation tokens', () => {
  test('cached: a second scan makes no token request', async () => {
    const { host, locator } = setup(github);
    await host.fetchSnapshot(locator);
    await host.fetchSnapshot(locator);
    await host.organizationRole(locator.installationId, locator.fullName.split('/')[0] ?? '', 'someone');
    expect(github.count(TOKEN)).toBe(1);
  });

  test('concurrent scans share one token request', async () => {
    const { host, locator } = setup(github);
    await Promise.all([host.fetchSnapshot(locator), host.fetchSnapshot(locator), host.fetchSnapshot(locator)]);
    expect(github.count(TOKEN)).toBe(1);
  });

  test('a token closer to its expiry than the margin is renewed before use', async () => {
    const { locator, installationId } = setup(github);
    github.installation(installationId).tokenLifetimeMs = 3 * 60_000;
    const host = testGitHubCodeHost();
    await host.fetchSnapshot(locator);
    await host.fetchSnapshot(locator);
    expect(github.count(TOKEN)).toBe(3);
    const lenient = testGitHubCodeHost({ tokenRefreshMarginMs: 60_000 });
    await lenient.fetchSnapshot(locator);
    await lenient.fetchSnapshot(locator);
    expect(github.count(TOKEN)).toBe(4);
  });

  test('a suspended installation is forbidden; errors never carry a token or the key', async () => {
    const { host, locator } = setup(github);
    await host.fetchSnapshot(locator);
    github.fault('POST /graphql', { kind: 'status', status: 403, message: 'Resource not accessible by integration' });
    const error = await host.fetchSnapshot(locator).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodeHostError);
    const suspended = setup(github);
    github.installation(suspended.installationId).suspended = true;
    const refused = await suspended.host.fetchSnapshot(suspended.locator).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: 'forbidden', message: `installation ${suspended.installationId}: 403 This installation has been suspended` });
    for (const e of [error, refused] as CodeHostError[]) {
      const text = `${e.message} ${JSON.stringify(e)} ${String(e.stack)}`;
      expect(text).not.toMatch(/ghs_|BEGIN PRIVATE KEY|authorization/i);
      expect(e.cause).toBeUndefined();
    }
  });
});
