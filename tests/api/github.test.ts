// The endpoints against the GitHub App adapter and a stateful fake GitHub (msw), on a real database:
// repositories across several paginated installations, the callback's ownership checks, scans (the same
// findings as the local code host for the same repository), and GitHub faults that persist nothing.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as CALLBACK } from '../../api/github/callback.js';
import { GET as COMBOS } from '../../api/repositories/[repo_id]/combos.js';
import { GET as REPOS } from '../../api/repos.js';
import { POST as SCAN } from '../../api/scan.js';
import { GET as SCAN_BY_ID } from '../../api/scans/[scan_id].js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { ONLINE_RULES } from '../../lib/online/audit.js';
import { clearRoleCache } from '../../lib/services/installations.js';
import { collectRepositoryFiles } from '../../lib/codehost/checkout.js';
import { useDatabase } from '../../lib/db/connection.js';
import type { SettingsSnapshot } from '../../lib/engine/settings/snapshot.js';
import { bearer } from '../support/auth.js';
import { addGithubIdentity, EXAMPLES_DIR, examplesCodeHost, githubAccount, type GithubAccount } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { startFakeGitHub, testGitHubCodeHost, type FakeGitHub, type RunningFakeGitHub } from '../support/github/index.js';
import { apiRequest, errorOf } from '../support/http.js';

let t: TestDatabase;
let fake: RunningFakeGitHub;
let github: FakeGitHub;
let nextId = 5_000_000;
const id = () => nextId++;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  fake = startFakeGitHub();
  github = fake.github;
  useCodeHost(testGitHubCodeHost());
});
afterEach(() => github.reset());
afterAll(async () => {
  fake.close();
  await t.close();
});

type Repository = { id: string; full_name: string; private: boolean; html_url: string };

async function signedIn(account: GithubAccount = githubAccount()) {
  const userId = await t.createUser();
  await addGithubIdentity(t, userId, account);
  return { userId, account, authorization: await bearer(userId) };
}

const callback = async (authorization: string, installationId: number) =>
  CALLBACK(await apiRequest('GET', `/api/github/callback?installation_id=${installationId}`, { authorization }));

async function repos(authorization: string): Promise<{ connected: boolean; repositories: Repository[] }> {
  const response = await REPOS(await apiRequest('GET', '/api/repos', { authorization }));
  expect(response.status).toBe(200);
  return (await response.json()) as { connected: boolean; repositories: Repository[] };
}

const scan = async (authorization: string, repo_id: string) => SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id } }));

async function installationsOf(userId: string): Promise<number[]> {
  const rows = await t.query<{ installation_id: string }>('select installation_id from public.installations where user_id = $1 order by 1', [userId]);
  return rows.map((r) => Number(r.installation_id));
}

async function scansOf(repo: string): Promise<number> {
  const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.scans where repository_id = $1', [repo]);
  return row?.n ?? -1;
}

/** An organization with an installation of the App, `count` repositories, and the given members. */
function organization(count: number, members: GithubAccount[] = []): { installationId: number; login: string } {
  const installationId = id();
  const login = `org-${installationId}`;
  github.addInstallation({ id: installationId, account: { login, id: id(), type: 'Organization' } });
  for (let i = 0; i < count; i += 1) {
    github.addRepository({ fullName: `${login}/repo-${String(i).padStart(3, '0')}`, installationId, visibility: i % 3 === 0 ? 'private' : 'public' });
  }
  for (const member of members) github.addMember(login, member, 'active', 'admin');
  return { installationId, login };
}

describe('GET /api/repos (2) on GitHub', () => {
  it('lists every page of every linked installation, stores them once, and keeps their ids across syncs', async () => {
    const user = await signedIn();
    const personal = id();
    github.addInstallation({ id: personal, account: { login: user.account.login, id: Number(user.account.id), type: 'User' } });
    github.addRepository({ fullName: `${user.account.login}/dotfiles`, installationId: personal });
    const big = organization(130, [user.account]);
    const small = organization(3, [user.account]);
    const unlinked = organization(5, [user.account]);

    expect(await repos(user.authorization)).toEqual({ connected: false, repositories: [] });
    for (const installationId of [personal, big.installationId, small.installationId]) {
      expect((await callback(user.authorization, installationId)).status).toBe(200);
    }
    github.reset();

    const first = await repos(user.authorization);
    expect(first.connected).toBe(true);
    expect(first.repositories).toHaveLength(1 + 130 + 3);
    const names = first.repositories.map((r) => r.full_name);
    expect(names).toEqual([...names].sort());
    expect(names.some((n) => n.startsWith(`${unlinked.login}/`))).toBe(false);
    expect(first.repositories.find((r) => r.full_name === `${big.login}/repo-000`)).toMatchObject({
      private: true,
      html_url: `https://github.com/${big.login}/repo-000`,
    });
    expect(first.repositories.find((r) => r.full_name === `${big.login}/repo-001`)?.private).toBe(false);
    // Pages of 100: two for the big organization, one each for the others, in parallel.
    expect(github.count('GET /installation/repositories')).toBe(4);
    expect(github.requests.filter((r) => r.route === 'GET /installation/repositories').map((r) => r.installationId).sort()).toEqual(
      [personal, big.installationId, big.installationId, small.installationId].sort(),
    );

    const second = await repos(user.authorization);
    expect(second).toEqual(first);
    const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.repositories where user_id = $1', [user.userId]);
    expect(row?.n).toBe(134);
  });

  it('answers 503 with Retry-After when GitHub rate-limits the listing, and stores nothing', async () => {
    const user = await signedIn();
    const org = organization(2, [user.account]);
    expect((await callback(user.authorization, org.installationId)).status).toBe(200);
    github.fault('GET /installation/repositories', { kind: 'secondary-rate-limit', retryAfter: 17 }, { times: 1 });
    const response = await REPOS(await apiRequest('GET', '/api/repos', { authorization: user.authorization }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('17');
    expect((await errorOf(response)).code).toBe('upstream_unavailable');
    const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.repositories where user_id = $1', [user.userId]);
    expect(row?.n).toBe(0);
    expect((await repos(user.authorization)).repositories).toHaveLength(2);
  });
});

describe('GET /api/github/callback (6) on GitHub', () => {
  it("links the user's own account by GitHub id, and refuses another account with the same login", async () => {
    const owner = await signedIn();
    const installationId = id();
    github.addInstallation({ id: installationId, account: { login: owner.account.login, id: Number(owner.account.id), type: 'User' } });
    const linked = await callback(owner.authorization, installationId);
    expect(linked.status).toBe(200);
    expect(await linked.json()).toEqual({ installation_id: installationId, account: owner.account.login, account_type: 'User' });
    expect(await installationsOf(owner.userId)).toEqual([installationId]);

    const sameLogin = await signedIn({ id: String(id()), login: owner.account.login });
    const refused = await callback(sameLogin.authorization, installationId);
    expect(refused.status).toBe(403);
    expect(await installationsOf(sameLogin.userId)).toEqual([]);
  });

  it('links an organization for an active owner only: a plain member, a stranger and a pending invitee get 403, nothing stored', async () => {
    const member = await signedIn();
    const invitee = await signedIn();
    const stranger = await signedIn();
    const plain = await signedIn();
    const org = organization(1, [member.account]);
    github.addMember(org.login, invitee.account, 'pending', 'admin');
    github.addMember(org.login, plain.account, 'active', 'member');

    const linked = await callback(member.authorization, org.installationId);
    expect(linked.status).toBe(200);
    expect(await linked.json()).toEqual({ installation_id: org.installationId, account: org.login, account_type: 'Organization' });
    expect(github.requests.some((r) => r.route === 'GET /orgs/{org}/memberships/{username}' && r.url.includes(member.account.login))).toBe(true);

    for (const user of [stranger, invitee, plain]) {
      const response = await callback(user.authorization, org.installationId);
      expect(response.status).toBe(403);
      expect((await errorOf(response)).code).toBe('forbidden');
      expect(await installationsOf(user.userId)).toEqual([]);
    }
    const refused = await callback(plain.authorization, org.installationId);
    expect((await errorOf(refused)).message).toMatch(/Only an owner of the GitHub organization .* can connect/);
  });

  it("refuses an owner's login that now names another GitHub account (membership is checked by numeric id)", async () => {
    const owner = await signedIn();
    const org = organization(1, [owner.account]);
    // The signed-in account renamed itself and someone else took the login, then was made an owner.
    github.reassignLogin(org.login, owner.account.login);
    const response = await callback(owner.authorization, org.installationId);
    expect(response.status).toBe(403);
    expect(await installationsOf(owner.userId)).toEqual([]);
    // The same membership under the signed-in account's own id links (once the refusal is no longer remembered).
    github.addMember(org.login, owner.account, 'active', 'admin');
    clearRoleCache();
    expect((await callback(owner.authorization, org.installationId)).status).toBe(200);
  });

  it("spends one of the installation's requests on a stranger's repeated callbacks, then answers from the refusal", async () => {
    const owner = await signedIn();
    const stranger = await signedIn();
    const org = organization(1, [owner.account]);
    github.reset();
    for (let i = 0; i < 5; i += 1) expect((await callback(stranger.authorization, org.installationId)).status).toBe(403);
    expect(github.count('GET /orgs/{org}/memberships/{username}')).toBe(1);
    expect((await callback(owner.authorization, org.installationId)).status).toBe(200);
    expect(github.count('GET /orgs/{org}/memberships/{username}')).toBe(2);
  });

  it('refuses an installation GitHub does not know (403), and answers 502 when GitHub fails, storing nothing', async () => {
    const user = await signedIn();
    expect((await callback(user.authorization, id())).status).toBe(403);
    const org = organization(1, [user.account]);
    github.fault('GET /app/installations/{installation_id}', { kind: 'status', status: 500 }, { times: 1 });
    const failed = await callback(user.authorization, org.installationId);
    expect(failed.status).toBe(502);
    expect(await installationsOf(user.userId)).toEqual([]);
    expect((await callback(user.authorization, org.installationId)).status).toBe(200);
  });
});

describe('POST /api/scan (3) on GitHub', () => {
  /** A copy of examples/issue-triage-bot on the fake GitHub, linked and synced for a new user. */
  async function triageBotOnGitHub() {
    const user = await signedIn();
    const org = organization(0, [user.account]);
    const files = await collectRepositoryFiles(join(EXAMPLES_DIR, 'issue-triage-bot'));
    const settings = JSON.parse(await readFile(join(EXAMPLES_DIR, 'issue-triage-bot/.chainbreaker/settings.json'), 'utf8')) as SettingsSnapshot;
    github.addRepository({
      fullName: `${org.login}/issue-triage-bot`,
      installationId: org.installationId,
      files: Object.fromEntries(files.map((f) => [f.path, f.text])),
      settings: { ...settings, rulesets: [] },
    });
    expect((await callback(user.authorization, org.installationId)).status).toBe(200);
    const [repository] = (await repos(user.authorization)).repositories;
    github.reset();
    return { ...user, repo: repository?.id ?? '' };
  }

  it('finds what the local code host finds for the same repository, and its attack paths', async () => {
    const { authorization, repo } = await triageBotOnGitHub();
    const response = await scan(authorization, repo);
    expect(response.status).toBe(200);
    const fromGitHub = (await response.json()) as { findings: unknown[]; counts: unknown; scan_id: string; commit_sha?: string };
    // The commit the files were read at (the default branch's head) is in the answer and stored with the scan.
    expect(fromGitHub.commit_sha).toMatch(/^[0-9a-f]{40}$/);
    const stored = await SCAN_BY_ID(await apiRequest('GET', `/api/scans/${fromGitHub.scan_id}`, { authorization }));
    expect(((await stored.json()) as { commit_sha?: string }).commit_sha).toBe(fromGitHub.commit_sha);
    // One query reads the snapshot; the online audits (lib/online) send their own batch (`OnlineAudit`).
    expect(github.count((r) => r.route === 'POST /graphql' && r.operation !== 'OnlineAudit')).toBe(1);

    // The same repository through the local code host, for another user.
    useCodeHost(examplesCodeHost());
    try {
      const local = await signedIn();
      expect((await callback(local.authorization, 1)).status).toBe(200);
      const localRepo = (await repos(local.authorization)).repositories.find((r) => r.full_name === 'examples/issue-triage-bot');
      const fromLocal = (await (await scan(local.authorization, localRepo?.id ?? '')).json()) as { findings: unknown[]; counts: unknown; commit_sha?: string };
      // The local code host knows no commit: none is claimed.
      expect(fromLocal.commit_sha).toBeUndefined();
      // On GitHub the scan also runs the online audits (lib/online), which the local code host cannot: this
      // fake GitHub knows none of the actions used, so they are reported as unassessed, never as clean.
      const online = (f: unknown) => ONLINE_RULES.includes((f as { rule_id: string }).rule_id as never);
      // Settings fixes name the repository (`/repos/<owner>/<repo>/...`), whose owner differs here.
      const sameOwner = (findings: unknown[]) => JSON.parse(JSON.stringify(findings).replace(/\/repos\/[^/"]+\//g, '/repos/OWNER/')) as unknown;
      expect(sameOwner(fromGitHub.findings.filter((f) => !online(f)))).toEqual(sameOwner(fromLocal.findings));
      const unassessed = fromGitHub.findings.filter(online) as { rule_id: string; severity: string; description: string }[];
      expect(unassessed.length).toBeGreaterThan(0);
      for (const f of unassessed) expect(f).toMatchObject({ rule_id: 'online-audit-incomplete', severity: 'INFO', description: expect.stringContaining('unassessed, not clean') });
      expect(fromLocal.findings.filter(online)).toEqual([]);
      expect(fromGitHub.counts).toEqual({ ...(fromLocal.counts as Record<string, number>), INFO: (fromLocal.counts as Record<string, number>).INFO! + unassessed.length });
    } finally {
      useCodeHost(testGitHubCodeHost());
    }
    const combos = await COMBOS(await apiRequest('GET', `/api/repositories/${repo}/combos`, { authorization }));
    expect(((await combos.json()) as { combos: { id: string }[] }).combos.map((c) => c.id)).toEqual(['injection-token-theft', 'repository-takeover']);
  });

  const faults = [
    { name: 'GitHub 502 on the snapshot query', route: 'POST /graphql', fault: { kind: 'status', status: 502 } as const, status: 502, retryAfter: null },
    { name: 'a malformed GraphQL answer', route: 'POST /graphql', fault: { kind: 'body', body: '{"data": {"repository": ' } as const, status: 502, retryAfter: null },
    { name: 'a GraphQL answer without data', route: 'POST /graphql', fault: { kind: 'graphql-errors' } as const, status: 502, retryAfter: null },
    { name: 'a secondary rate limit', route: 'POST /graphql', fault: { kind: 'secondary-rate-limit', retryAfter: 42 } as const, status: 503, retryAfter: '42' },
    { name: 'the primary rate limit', route: '*', fault: { kind: 'rate-limit', resetInSeconds: 120 } as const, status: 503, retryAfter: 'about 120' },
    { name: 'an installation token GitHub will not issue', route: 'POST /app/installations/{installation_id}/access_tokens', fault: { kind: 'status', status: 500 } as const, status: 502, retryAfter: null },
    { name: 'a connection failure', route: 'POST /graphql', fault: { kind: 'network' } as const, status: 502, retryAfter: null },
  ];

  for (const { name, route, fault, status, retryAfter } of faults) {
    it(`answers ${status} for ${name}, persists nothing, and the next request works`, async () => {
      const { authorization, repo } = await triageBotOnGitHub();
      // A fresh adapter, so the token is requested within the scan (the token fault needs that).
      useCodeHost(testGitHubCodeHost());
      github.fault(route, fault, { times: 1 });
      const response = await scan(authorization, repo);
      expect(response.status, JSON.stringify(await response.clone().json())).toBe(status);
      expect((await errorOf(response)).code).toBe('upstream_unavailable');
      const header = response.headers.get('retry-after');
      if (retryAfter === 'about 120') expect(Number(header)).toBeGreaterThanOrEqual(115);
      else expect(header).toBe(retryAfter);
      expect(await scansOf(repo)).toBe(0);

      const next = await scan(authorization, repo);
      expect(next.status).toBe(200);
      expect(await scansOf(repo)).toBe(1);
    });
  }

  it('re-checks the owner at scan time: a demoted owner gets 404 and the link goes, whoever never syncs again', async () => {
    const { authorization, repo, userId, account } = await triageBotOnGitHub();
    expect((await scan(authorization, repo)).status).toBe(200);
    // The role read by the callback is still fresh: no membership request beside the snapshot.
    expect(github.count('GET /orgs/{org}/memberships/{username}')).toBe(0);
    const [installationId] = await installationsOf(userId);
    const org = `org-${installationId}`;
    github.addMember(org, account, 'active', 'member');
    clearRoleCache(); // a minute later (SCAN_ROLE_CACHE_MS)
    const response = await scan(authorization, repo);
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toContain(`no longer an owner of the GitHub organization ${org}`);
    expect(github.count('GET /orgs/{org}/memberships/{username}')).toBe(1);
    expect(await installationsOf(userId)).toEqual([]);
    expect(await scansOf(repo)).toBe(0);
  });

  it('answers 404 when GitHub no longer shows the repository', async () => {
    const { authorization, repo } = await triageBotOnGitHub();
    github.fault('POST /graphql', { kind: 'graphql-errors', errors: [{ type: 'NOT_FOUND', path: ['repository'], message: 'Could not resolve to a Repository.' }] }, { times: 1 });
    const response = await scan(authorization, repo);
    expect(response.status).toBe(404);
    expect(await errorOf(response)).toEqual({ code: 'not_found', message: 'Not found.' });
    expect(await scansOf(repo)).toBe(0);
  });
});
