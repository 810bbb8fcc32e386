// POST /api/scan beyond the happy path (tests/api/flow.test.ts has that): input validation, the per-user
// rate limit, code-host and database faults (nothing persisted, the next request works), the snapshot
// deadline, and concurrent scans and syncs.

import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as CALLBACK } from '../../api/github/callback.js';
import { GET as COMBOS } from '../../api/repositories/[repo_id]/combos.js';
import { GET as REPOS } from '../../api/repos.js';
import { PUT as PUT_RULE_SETTING } from '../../api/rule-settings/[rule_id].js';
import { POST } from '../../api/scan.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { CodeHostError } from '../../lib/codehost/port.js';
import { useDatabase } from '../../lib/db/connection.js';
import { DatabaseError } from '../../lib/db/errors.js';
import type { Database } from '../../lib/db/port.js';
import { env } from '../../lib/env.js';
import { SNAPSHOT_DEADLINE_MS } from '../../lib/services/scan.js';
import { bearer } from '../support/auth.js';
import { examplesCodeHost, githubUser, ScriptedCodeHost } from '../support/codehost.js';
import { openTestDatabase, testDatabaseTarget, type TestDatabase } from '../support/db.js';
import { userWithRepositories } from '../support/db-fixtures.js';
import { apiRequest, errorOf, ROOT } from '../support/http.js';

let t: TestDatabase;
const defaults = { ...env().scanRateLimit };

beforeAll(async () => {
  // Concurrency tests need several connections on a real server; PGlite has one and serializes.
  t = await openTestDatabase({ maxConnections: 12 });
  useDatabase(t.db);
});
afterEach(() => {
  Object.assign(env().scanRateLimit, defaults);
  useDatabase(t.db);
  useCodeHost(examplesCodeHost());
});
afterAll(async () => t.close());

const scan = async (authorization: string, body: unknown) => POST(await apiRequest('POST', '/api/scan', { authorization, body }));

/** A user who linked the local installation, and the ids of the example repositories. */
async function examplesUser() {
  useCodeHost(examplesCodeHost());
  const { userId } = await githubUser(t);
  const authorization = await bearer(userId);
  expect((await CALLBACK(await apiRequest('GET', '/api/github/callback?installation_id=1', { authorization }))).status).toBe(200);
  const listed = (await (await REPOS(await apiRequest('GET', '/api/repos', { authorization }))).json()) as {
    repositories: { id: string; full_name: string }[];
  };
  const id = (name: string) => listed.repositories.find((r) => r.full_name === `examples/${name}`)?.id ?? '';
  return { userId, authorization, triage: id('issue-triage-bot'), release: id('release-pipeline') };
}

async function scansOf(repo: string): Promise<number> {
  const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.scans where repository_id = $1', [repo]);
  return row?.n ?? -1;
}

describe('POST /api/scan (3): input', () => {
  it('answers 400 with the issue for a bad body, before anything is read or written', async () => {
    const { authorization, triage } = await examplesUser();
    const cases: [unknown, string][] = [
      [{}, 'repo_id'],
      [{ repo_id: 'not-a-uuid' }, 'repo_id'],
      [{ repo_id: 42 }, 'repo_id'],
      [{ repo_id: triage, ruleset: 'cis' }, 'ruleset'],
      [{ repo_id: triage, ruleset: null }, 'ruleset'],
      [{ repo_id: triage, extra: true }, 'extra'],
      [{ repo_id: `${triage}' or '1'='1` }, 'repo_id'],
    ];
    for (const [body, key] of cases) {
      const response = await scan(authorization, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await errorOf(response)).toMatchObject({ code: 'invalid_request', details: [{ location: 'body', path: [key] }] });
    }
    for (const body of ['', '{', 'null', '[]', `[{"repo_id":"${triage}"}]`, '"x"']) {
      const response = await scan(authorization, body);
      expect(response.status, body).toBe(400);
      expect((await errorOf(response)).code).toBe('invalid_request');
    }
    expect(await scansOf(triage)).toBe(0);
  });

  it('answers 404 for a repository that does not exist or is not the user’s', async () => {
    const { authorization } = await examplesUser();
    const other = await examplesUser();
    for (const repo_id of [randomUUID(), other.triage]) {
      const response = await scan(authorization, { repo_id });
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toEqual({ code: 'not_found', message: 'Not found.' });
    }
    expect(await scansOf(other.triage)).toBe(0);
  });
});

describe('POST /api/scan (3): pedantic rules', () => {
  const pedantic = ['anonymous-definition', 'self-repository', 'undocumented-permissions', 'secrets-outside-env'];
  const ruleIds = async (response: Response) => ((await response.json()) as { findings: { rule_id: string }[] }).findings.map((f) => f.rule_id);

  // The contract: a rule with no stored preference is enabled. Unlike the CLI, the service runs them by default.
  it('runs them by default (no stored preference), and a preference turns one off', async () => {
    const { authorization, release } = await examplesUser();
    const before = await ruleIds(await scan(authorization, { repo_id: release }));
    expect(before.filter((id) => id === 'anonymous-definition').length).toBeGreaterThan(0);
    const set = await PUT_RULE_SETTING(await apiRequest('PUT', '/api/rule-settings/anonymous-definition', { authorization, body: { enabled: false } }));
    expect(set.status).toBeLessThan(300);
    const after = await ruleIds(await scan(authorization, { repo_id: release }));
    expect(after).not.toContain('anonymous-definition');
    expect(new Set(before.filter((id) => pedantic.includes(id) && id !== 'anonymous-definition'))).toEqual(new Set(after.filter((id) => pedantic.includes(id))));
  });
});

describe('POST /api/scan (3): rate limit', () => {
  it('allows SCAN_RATE_LIMIT scans per user and window, then 429 with Retry-After; other users are unaffected', async () => {
    Object.assign(env().scanRateLimit, { max: 3, windowSeconds: 60 });
    const alice = await examplesUser();
    for (let i = 0; i < 3; i += 1) expect((await scan(alice.authorization, { repo_id: alice.triage })).status).toBe(200);
    const refused = await scan(alice.authorization, { repo_id: alice.release });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await errorOf(refused)).toMatchObject({ code: 'rate_limited' });
    expect(await scansOf(alice.release)).toBe(0);
    // Every attempt counts, also one for a repository that is not the user's.
    expect((await scan(alice.authorization, { repo_id: randomUUID() })).status).toBe(429);

    const bob = await examplesUser();
    expect((await scan(bob.authorization, { repo_id: bob.triage })).status).toBe(200);
  });

  it('opens a new window once the old one has passed', async () => {
    Object.assign(env().scanRateLimit, { max: 1, windowSeconds: 1 });
    const { authorization, triage } = await examplesUser();
    expect((await scan(authorization, { repo_id: triage })).status).toBe(200);
    expect((await scan(authorization, { repo_id: triage })).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await scan(authorization, { repo_id: triage })).status).toBe(200);
  });

  it('is off with SCAN_RATE_LIMIT=0', async () => {
    Object.assign(env().scanRateLimit, { max: 1, windowSeconds: 60 });
    const { authorization, triage } = await examplesUser();
    expect((await scan(authorization, { repo_id: triage })).status).toBe(200);
    expect((await scan(authorization, { repo_id: triage })).status).toBe(429);
    Object.assign(env().scanRateLimit, { max: 0 });
    for (let i = 0; i < 3; i += 1) expect((await scan(authorization, { repo_id: triage })).status).toBe(200);
  });

  it('admits exactly the limit when a user fires many scans at once', async () => {
    Object.assign(env().scanRateLimit, { max: 5, windowSeconds: 60 });
    const { authorization, triage } = await examplesUser();
    const statuses = (await Promise.all(Array.from({ length: 12 }, () => scan(authorization, { repo_id: triage })))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    // The five admitted scans read the same files and found the same: stored once.
    expect(await scansOf(triage)).toBe(1);
  });
});

describe('POST /api/scan (3): faults', () => {
  const failures: [string, CodeHostError | Error, number, string | null][] = [
    ['GitHub 5xx', new CodeHostError('unavailable', 'GitHub answered 502'), 502, null],
    ['secondary rate limit', new CodeHostError('rate_limited', 'You have exceeded a secondary rate limit', { retryAfter: 30 }), 503, '30'],
    ['primary rate limit without a reset', new CodeHostError('rate_limited', 'API rate limit exceeded for installation ID 4711'), 503, '60'],
    ['timeout', new CodeHostError('timeout', 'deadline passed'), 503, null],
    ['installation lost access', new CodeHostError('forbidden', 'Resource not accessible by integration'), 502, null],
  ];

  for (const [name, error, status, retryAfter] of failures) {
    it(`answers ${status} for a code-host failure (${name}), persists nothing, and the next request works`, async () => {
      const { authorization, triage } = await examplesUser();
      const host = new ScriptedCodeHost();
      host.fail = () => error;
      useCodeHost(host);
      const response = await scan(authorization, { repo_id: triage });
      expect(response.status).toBe(status);
      expect(response.headers.get('retry-after')).toBe(retryAfter);
      const body = await errorOf(response);
      expect(body.code).toBe('upstream_unavailable');
      expect(body.message).not.toContain(error.message);
      expect(host.calls.map((c) => c.method)).toEqual(['fetchSnapshot']);
      expect(await scansOf(triage)).toBe(0);

      useCodeHost(examplesCodeHost());
      expect((await scan(authorization, { repo_id: triage })).status).toBe(200);
      expect(await scansOf(triage)).toBe(1);
    });
  }

  it('answers 404 when the code host no longer has the repository', async () => {
    const { authorization, triage } = await examplesUser();
    const host = new ScriptedCodeHost();
    host.fail = () => new CodeHostError('not_found', 'gone');
    useCodeHost(host);
    expect((await scan(authorization, { repo_id: triage })).status).toBe(404);
    expect(await scansOf(triage)).toBe(0);
  });

  it('answers 500 with only a request id for an unexpected adapter error, persisting nothing', async () => {
    const { authorization, triage } = await examplesUser();
    const host = new ScriptedCodeHost();
    host.fail = () => new TypeError('private key /secret/path is malformed');
    useCodeHost(host);
    const response = await scan(authorization, { repo_id: triage });
    expect(response.status).toBe(500);
    const body = await errorOf(response);
    expect(body).toEqual({ code: 'internal', message: 'Internal server error.', details: { request_id: response.headers.get('x-request-id') } });
    expect(await scansOf(triage)).toBe(0);
  });

  it('answers 503 when the database fails while recording, leaving no partial scan', async () => {
    const { authorization, triage } = await examplesUser();
    const failing: Database = {
      call: (fn, args) => (fn === 'record_scan' ? Promise.reject(new DatabaseError('unavailable', fn)) : t.db.call(fn, args)),
      close: async () => undefined,
    };
    useDatabase(failing);
    const response = await scan(authorization, { repo_id: triage });
    expect(response.status).toBe(503);
    expect((await errorOf(response)).code).toBe('upstream_unavailable');
    useDatabase(t.db);
    expect(await scansOf(triage)).toBe(0);
    expect((await scan(authorization, { repo_id: triage })).status).toBe(200);
  });

  it('gives the code host a deadline well inside the function limit', async () => {
    const vercel = JSON.parse(await readFile(`${ROOT}vercel.json`, 'utf8')) as { functions: Record<string, { maxDuration: number }> };
    const maxDurationMs = (vercel.functions['api/**/*.ts']?.maxDuration ?? 0) * 1000;
    expect(SNAPSHOT_DEADLINE_MS).toBeLessThanOrEqual(maxDurationMs * 0.75);

    const user = await t.createUser();
    const { repositories, installationId } = await userWithRepositories(t.db, user);
    const repo = repositories[0];
    const host = new ScriptedCodeHost();
    useCodeHost(host);
    const before = Date.now();
    const response = await scan(await bearer(user), { repo_id: repo?.id });
    const after = Date.now();
    expect(response.status).toBe(200);
    const [locator, options] = host.calls[0]?.args as [unknown, { deadline: number }];
    expect(locator).toEqual({ installationId, fullName: repo?.full_name, defaultBranch: 'main', private: false });
    expect(options.deadline).toBeGreaterThanOrEqual(before + SNAPSHOT_DEADLINE_MS);
    expect(options.deadline).toBeLessThanOrEqual(after + SNAPSHOT_DEADLINE_MS);
  });
});

describe('POST /api/scan (3) and GET /api/repos (2): concurrency', () => {
  it(`keeps every scan whole when 20 scans of one repository run at once (${testDatabaseTarget.kind})`, async () => {
    const { authorization, triage } = await examplesUser();
    const responses = await Promise.all(Array.from({ length: 20 }, () => scan(authorization, { repo_id: triage })));
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as { scan_id: string; counts: Record<string, number>; findings: unknown[] }[];
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    // Identical scans of one repository are stored once: every response names that scan.
    expect(new Set(bodies.map((b) => b.scan_id)).size).toBe(1);
    expect(await scansOf(triage)).toBe(1);
    const counts = await t.query<{ n: number }>(
      'select count(f.*)::int as n from public.scans s left join public.findings f on f.scan_id = s.id where s.repository_id = $1 group by s.id',
      [triage],
    );
    expect(counts.map((c) => c.n)).toEqual(Array(1).fill(bodies[0]?.findings.length));
    const combos = await COMBOS(await apiRequest('GET', `/api/repositories/${triage}/combos`, { authorization }));
    expect(await combos.json()).toMatchObject({ critical_count: 2, high_count: 0 });
  });

  it(`stores each repository once when one user's syncs race (${testDatabaseTarget.kind})`, async () => {
    const { userId, authorization } = await examplesUser();
    const responses = await Promise.all(Array.from({ length: 10 }, async () => REPOS(await apiRequest('GET', '/api/repos', { authorization }))));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    const listings = (await Promise.all(responses.map((r) => r.json()))) as { repositories: { id: string }[] }[];
    for (const listing of listings) expect(listing).toEqual(listings[0]);
    const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.repositories where user_id = $1', [userId]);
    expect(row?.n).toBe(3);
  });
});
