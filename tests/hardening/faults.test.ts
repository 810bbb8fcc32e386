// Faults below the API, through the real handlers: the GitHub App adapter against the fake GitHub (msw) with
// faults injected in every area a scan reads, timeouts, malformed GraphQL, truncated blobs; and database
// failures while a scan is being recorded. A fault is a 502/503 (Retry-After when GitHub gave one), never a
// partial scan, and the next request works. tests/api/github.test.ts covers the GraphQL query's own faults
// (5xx, rate limits, a token GitHub will not issue, a dropped connection); this file covers the rest.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useCodeHost } from '../../lib/codehost/index.js';
import type { CodeHost } from '../../lib/codehost/port.js';
import { useDatabase } from '../../lib/db/connection.js';
import { DatabaseError } from '../../lib/db/errors.js';
import type { Database } from '../../lib/db/port.js';
import { PostgresDatabase } from '../../lib/db/postgres.js';
import type { SettingsSnapshot } from '../../lib/engine/settings/snapshot.js';
import { collectRepositoryFiles } from '../../lib/codehost/checkout.js';
import { bearer } from '../support/auth.js';
import { addGithubIdentity, EXAMPLES_DIR, githubAccount } from '../support/codehost.js';
import { openTestDatabase, REAL_SERVER_ONLY, testDatabaseTarget, type TestDatabase } from '../support/db.js';
import { startFakeGitHub, testGitHubCodeHost, type Fault, type FakeGitHub, type RunningFakeGitHub } from '../support/github/index.js';
import { countingCodeHost, expectErrorBody, send, storedFor } from './support.js';

let t: TestDatabase;
let fake: RunningFakeGitHub;
let github: FakeGitHub;
let nextId = 7_100_000;
const id = () => nextId++;
let files: Record<string, string>;
let settings: SettingsSnapshot;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  fake = startFakeGitHub();
  github = fake.github;
  useCodeHost(testGitHubCodeHost());
  const dir = join(EXAMPLES_DIR, 'issue-triage-bot');
  files = Object.fromEntries((await collectRepositoryFiles(dir)).map((f) => [f.path, f.text]));
  settings = JSON.parse(await readFile(join(dir, '.chainbreaker/settings.json'), 'utf8')) as SettingsSnapshot;
});
afterEach(() => {
  github.reset();
  useDatabase(t.db);
  useCodeHost(testGitHubCodeHost());
});
afterAll(async () => {
  fake.close();
  await t.close();
});

/** A user who linked an organization installation on the fake GitHub and synced one repository there. */
async function onGitHub(init: { files?: Record<string, string | { text: string; truncated?: boolean }>; visibility?: 'public' | 'private' } = {}) {
  const userId = await t.createUser();
  const account = githubAccount();
  await addGithubIdentity(t, userId, account);
  const authorization = await bearer(userId);
  const installationId = id();
  const org = `org-${installationId}`;
  github.addInstallation({ id: installationId, account: { login: org, id: id(), type: 'Organization' } });
  github.addMember(org, account, 'active', 'admin');
  const fullName = `${org}/issue-triage-bot`;
  github.addRepository({ fullName, installationId, visibility: init.visibility ?? 'public', files: init.files ?? files, settings: { ...settings, rulesets: [] } });
  expect((await send('GET', `/api/github/callback?installation_id=${installationId}`, { authorization })).status).toBe(200);
  const listed = (await (await send('GET', '/api/repos', { authorization })).json()) as { repositories: { id: string }[] };
  github.reset();
  return { userId, authorization, repo: listed.repositories[0]?.id ?? '', fullName, installationId };
}

const scan = (authorization: string, repo_id: string) => send('POST', '/api/scan', { authorization, body: { repo_id } });

async function scansOf(userId: string): Promise<{ scans: number; findings: number }> {
  const stored = await storedFor(t, userId);
  return { scans: stored.scans as number, findings: stored.findings as number };
}

/** The fault's answer, nothing stored, and a clean scan right after. */
async function expectFaultThenRecovery(
  user: Awaited<ReturnType<typeof onGitHub>>,
  expected: { status: number; retryAfter: string | null },
): Promise<void> {
  const response = await scan(user.authorization, user.repo);
  expect(response.status).toBe(expected.status);
  const header = response.headers.get('retry-after');
  if (expected.retryAfter === 'some') expect(Number(header)).toBeGreaterThanOrEqual(1);
  else expect(header).toBe(expected.retryAfter);
  const error = await expectErrorBody(response, expected.status === 404 ? 'not_found' : 'upstream_unavailable');
  expect(error.message).not.toMatch(/graphql|octokit|ghs_|https?:\/\//i);
  expect(await scansOf(user.userId)).toEqual({ scans: 0, findings: 0 });

  github.clearFaults();
  const next = await scan(user.authorization, user.repo);
  expect(next.status).toBe(200);
  const body = (await next.json()) as { findings: unknown[] };
  expect(await scansOf(user.userId)).toEqual({ scans: 1, findings: body.findings.length });
}

describe('GitHub faults in the settings areas a scan reads', () => {
  // Every REST-only area of the snapshot (lib/codehost/github/snapshot.ts): a transient fault in any of
  // them fails the scan, since a snapshot with an area silently unassessed would read as "no finding".
  const AREAS = [
    'GET /repos/{owner}/{repo}',
    'GET /repos/{owner}/{repo}/actions/permissions',
    'GET /repos/{owner}/{repo}/actions/permissions/workflow',
    'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval',
    'GET /repos/{owner}/{repo}/actions/runners',
    'GET /repos/{owner}/{repo}/hooks',
  ];
  const FAULTS: { name: string; fault: Fault; status: number; retryAfter: string | null }[] = [
    { name: '500', fault: { kind: 'status', status: 500 }, status: 502, retryAfter: null },
    { name: '503', fault: { kind: 'status', status: 503 }, status: 502, retryAfter: null },
    { name: 'a secondary rate limit', fault: { kind: 'secondary-rate-limit', retryAfter: 37 }, status: 503, retryAfter: '37' },
    { name: 'a dropped connection', fault: { kind: 'network' }, status: 502, retryAfter: null },
  ];

  for (const route of AREAS) {
    it(`fails the scan, storing nothing, for each transient fault of ${route}`, async () => {
      for (const { name, fault, status, retryAfter } of FAULTS) {
        const user = await onGitHub();
        github.fault(route, fault);
        await expectFaultThenRecovery(user, { status, retryAfter }).catch((error: unknown) => {
          throw new Error(`${route}, ${name}: ${String(error)}`);
        });
      }
    });
  }

  it('records an area GitHub refuses (403, 404) as unreadable: a finding, not a fault', async () => {
    for (const status of [403, 404]) {
      const user = await onGitHub();
      github.fault('GET /repos/{owner}/{repo}/hooks', { kind: 'status', status, message: 'Resource not accessible by integration' });
      const response = await scan(user.authorization, user.repo);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { findings: { rule_id: string; description: string }[] };
      expect(body.findings.some((f) => f.rule_id === 'settings-unreadable')).toBe(true);
      expect(await scansOf(user.userId)).toEqual({ scans: 1, findings: body.findings.length });
    }
  });
});

describe('GitHub answering late', () => {
  /**
   * The GitHub adapter with a scan deadline of `ms` instead of the service's 20 s, and the token request's
   * own timeout scaled down with it.
   */
  function withShortDeadline(ms: number): CodeHost {
    const host = testGitHubCodeHost({ requestTimeoutMs: ms / 2 });
    return {
      getInstallation: (...args) => host.getInstallation(...args),
      organizationRole: (...args) => host.organizationRole(...args),
      listRepositories: (...args) => host.listRepositories(...args),
      fetchSnapshot: (locator, options) => host.fetchSnapshot(locator, { deadline: Math.min(options?.deadline ?? Infinity, Date.now() + ms) }),
    };
  }

  it.each([
    ['the snapshot query', 'POST /graphql'],
    ['a settings area', 'GET /repos/{owner}/{repo}/actions/permissions/workflow'],
    ['the installation token', 'POST /app/installations/{installation_id}/access_tokens'],
  ])('answers 503 when %s outlives the deadline, stores nothing, and the next scan works', async (_what, route) => {
    const user = await onGitHub();
    useCodeHost(withShortDeadline(2_300));
    // The fault outlasts the deadline by far, so "did not wait for it" holds on a loaded machine too.
    github.fault(route, { kind: 'delay', ms: 25_000 }, { times: 1 });
    const started = Date.now();
    await expectFaultThenRecovery(user, { status: 503, retryAfter: null });
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('malformed answers from GitHub', () => {
  const BODIES: [string, string, string?][] = [
    ['an HTML error page', '<html><body>Unicorn! This page is taking too long to load.</body></html>', 'text/html'],
    ['an empty body', ''],
    ['a JSON array', '[]'],
    ['data: null without errors', '{"data": null}'],
    ['a repository without visibility', '{"data": {"repository": {"id": "R_1"}}}'],
    ['a repository of the wrong type', '{"data": {"repository": "acme/widget"}}'],
    ['a truncated answer', '{"data": {"repository": {"visibility": "PUBLIC", "workflows": {"entries": [{"name": "ci.yml", "ob'],
  ];

  it.each(BODIES)('answers 502 for %s on the snapshot query, storing nothing', async (_what, body, contentType) => {
    const user = await onGitHub();
    github.fault('POST /graphql', { kind: 'body', body, ...(contentType === undefined ? {} : { contentType }) });
    await expectFaultThenRecovery(user, { status: 502, retryAfter: null });
  });

  it('answers 502 for GraphQL errors beside partial data, storing nothing', async () => {
    const user = await onGitHub();
    github.fault('POST /graphql', {
      kind: 'graphql-errors',
      data: { repository: { visibility: 'PUBLIC' } },
      errors: [{ type: 'INTERNAL', path: ['repository', 'workflows'], message: 'Something went wrong' }],
    });
    await expectFaultThenRecovery(user, { status: 502, retryAfter: null });
  });

  it('answers a malformed REST settings body with 502 or a finding, never a 500', async () => {
    for (const body of ['not json', '{"enabled": "maybe", "allowed_actions": 42}', 'null']) {
      const user = await onGitHub();
      github.fault('GET /repos/{owner}/{repo}/actions/permissions', { kind: 'body', body });
      const response = await scan(user.authorization, user.repo);
      expect([200, 502], body).toContain(response.status);
      const stored = await scansOf(user.userId);
      expect(stored.scans, body).toBe(response.status === 200 ? 1 : 0);
    }
  });
});

describe('truncated blobs', () => {
  it('are an invalid-workflow finding on the file, not a failure: the rest of the repository is scanned', async () => {
    const workflow = Object.keys(files).find((path) => path.startsWith('.github/workflows/')) ?? '';
    const huge = `name: generated\non: push\njobs:\n${Array.from({ length: 12_000 }, (_, i) => `  job-${i}:\n    runs-on: ubuntu-latest\n    steps: [{run: echo ${i}}]\n`).join('')}`;
    expect(huge.length).toBeGreaterThan(512_000);
    const user = await onGitHub({
      files: { ...files, [workflow]: { text: files[workflow] ?? '', truncated: true }, '.github/workflows/generated.yml': huge },
    });
    const response = await scan(user.authorization, user.repo);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { findings: { rule_id: string; file: string; description: string }[]; counts: Record<string, number> };
    const invalid = body.findings.filter((f) => f.rule_id === 'invalid-workflow').map((f) => f.file).sort();
    expect(invalid).toEqual(['.github/workflows/generated.yml', workflow].sort());
    expect(body.findings.some((f) => f.rule_id !== 'invalid-workflow' && f.file.startsWith('.github/workflows/') && f.file !== workflow)).toBe(true);
    expect(Object.values(body.counts).reduce((a, b) => a + b, 0)).toBe(body.findings.length);
    expect(await scansOf(user.userId)).toEqual({ scans: 1, findings: body.findings.length });
  });
});

describe('GitHub faults while listing and linking', () => {
  const FAULTS: { name: string; fault: Fault; status: number; retryAfter: string | null }[] = [
    { name: '502', fault: { kind: 'status', status: 502 }, status: 502, retryAfter: null },
    { name: 'a dropped connection', fault: { kind: 'network' }, status: 502, retryAfter: null },
    { name: 'the primary rate limit', fault: { kind: 'rate-limit', resetInSeconds: 90 }, status: 503, retryAfter: 'some' },
    { name: 'a malformed page', fault: { kind: 'body', body: '{"total_count": 1, "repositories": ' }, status: 502, retryAfter: null },
  ];

  it.each(FAULTS)('GET /api/repos answers $status for $name, keeps the stored repositories as they were, and recovers', async ({ fault, status, retryAfter }) => {
    const user = await onGitHub();
    const before = await storedFor(t, user.userId);
    github.fault('GET /installation/repositories', fault);
    const response = await send('GET', '/api/repos', { authorization: user.authorization });
    expect(response.status).toBe(status);
    if (retryAfter === 'some') expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    else expect(response.headers.get('retry-after')).toBe(retryAfter);
    await expectErrorBody(response, 'upstream_unavailable');
    // Only the sync's rate-limit counter moved.
    const { rate_limit_rows: _after, rate_limits: _afterCount, ...after } = await storedFor(t, user.userId);
    const { rate_limit_rows: _before, rate_limits: _beforeCount, ...kept } = before;
    expect(after).toEqual(kept);
    github.clearFaults();
    if (fault.kind === 'rate-limit') {
      // GitHub said the installation's budget is spent until its reset: until then the service refuses by
      // itself, with GitHub's Retry-After, and asks GitHub nothing.
      const listings = github.count('GET /installation/repositories');
      const refused = await send('GET', '/api/repos', { authorization: user.authorization });
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(91); // GitHub's reset is in whole seconds
      expect(github.count('GET /installation/repositories')).toBe(listings);
      return;
    }
    expect((await send('GET', '/api/repos', { authorization: user.authorization })).status).toBe(200);
  });

  it.each(FAULTS.filter((f) => f.fault.kind !== 'body'))('the callback answers $status for $name, links nothing, and recovers', async ({ fault, status }) => {
    const userId = await t.createUser();
    const account = githubAccount();
    await addGithubIdentity(t, userId, account);
    const authorization = await bearer(userId);
    const installationId = id();
    github.addInstallation({ id: installationId, account: { login: `org-${installationId}`, id: id(), type: 'Organization' } });
    github.addMember(`org-${installationId}`, account, 'active', 'admin');
    github.fault('GET /orgs/{org}/memberships/{username}', fault);
    const response = await send('GET', `/api/github/callback?installation_id=${installationId}`, { authorization });
    expect(response.status).toBe(status);
    await expectErrorBody(response, 'upstream_unavailable');
    expect((await storedFor(t, userId)).installations).toBe(0);
    github.clearFaults();
    expect((await send('GET', `/api/github/callback?installation_id=${installationId}`, { authorization })).status).toBe(200);
  });
});

describe('database failures around recording a scan', () => {
  it('a finding the database refuses in the middle of record_scan: 500, no scan row, no finding, and the next scan works', async () => {
    const user = await onGitHub();
    // The real record_scan, given one extra finding that violates a check constraint: the scan row and the
    // findings before it are already inserted when it fails.
    const poisoning: Database = {
      call: (fn, args) => {
        if (fn !== 'record_scan') return t.db.call(fn, args);
        const findings = [...(args.p_findings as { rule_id: string; severity: string }[])];
        const counts = { ...(args.p_counts as Record<string, number>) };
        findings.push({ ...findings[0]!, rule_id: 'Not A Rule Id' });
        counts[findings[0]!.severity] = (counts[findings[0]!.severity] ?? 0) + 1;
        return t.db.call(fn, { ...args, p_findings: findings, p_counts: counts });
      },
      close: async () => undefined,
    };
    useDatabase(poisoning);
    const response = await scan(user.authorization, user.repo);
    expect(response.status).toBe(500);
    const error = await expectErrorBody(response, 'internal');
    expect(error.details).toEqual({ request_id: response.headers.get('x-request-id') });
    expect(await scansOf(user.userId)).toEqual({ scans: 0, findings: 0 });
    useDatabase(t.db);
    expect((await scan(user.authorization, user.repo)).status).toBe(200);
  });

  it.each([
    ['a serialization failure', 'conflict', '1'],
    ['a lost connection', 'unavailable', '5'],
  ] as const)('%s while recording: 503 with Retry-After %s, nothing stored', async (_what, kind, retryAfter) => {
    const user = await onGitHub();
    useDatabase({
      call: (fn, args) => (fn === 'record_scan' ? Promise.reject(new DatabaseError(kind, fn, { sqlState: kind === 'conflict' ? '40001' : '08006' })) : t.db.call(fn, args)),
      close: async () => undefined,
    });
    const response = await scan(user.authorization, user.repo);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe(retryAfter);
    await expectErrorBody(response, 'upstream_unavailable');
    useDatabase(t.db);
    expect(await scansOf(user.userId)).toEqual({ scans: 0, findings: 0 });
    expect((await scan(user.authorization, user.repo)).status).toBe(200);
  });

  it('a database down before the scan starts: 503, and GitHub is not asked', async () => {
    const user = await onGitHub();
    const host = countingCodeHost(testGitHubCodeHost());
    useCodeHost(host);
    useDatabase({ call: (fn) => Promise.reject(new DatabaseError('unavailable', fn, { sqlState: '57P01' })), close: async () => undefined });
    const response = await scan(user.authorization, user.repo);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(host.calls).toEqual([]);
    expect(github.requests).toEqual([]);
  });

  it('a statement timeout while record_scan waits for a lock, on a real server: 503, nothing stored', async ({ skip }) => {
    skip(testDatabaseTarget.kind !== 'postgres', REAL_SERVER_ONLY);
    if (testDatabaseTarget.kind !== 'postgres') return;
    const user = await onGitHub();
    const impatient = new PostgresDatabase({ connectionString: testDatabaseTarget.url, statementTimeoutMs: 400, maxConnections: 2 });
    try {
      useDatabase(impatient);
      // Another session holds the findings table: record_scan inserts the scan row, then waits on the
      // findings until its statement times out (SQLSTATE 57014), and the whole call rolls back.
      const response = await t.db.transaction(async (tx) => {
        await tx.exec('lock table public.findings in exclusive mode');
        return scan(user.authorization, user.repo);
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      await expectErrorBody(response, 'upstream_unavailable');
      expect(await scansOf(user.userId)).toEqual({ scans: 0, findings: 0 });
      expect((await scan(user.authorization, user.repo)).status).toBe(200);
    } finally {
      useDatabase(t.db);
      await impatient.close();
    }
  });
});
