// The read endpoints for clients without direct database access: GET /api/installations,
// GET /api/repositories/{repo_id}/scans (newest first, paginated) and GET /api/scans/{scan_id}.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as INSTALLATIONS } from '../../api/installations/index.js';
import { GET as SCANS } from '../../api/repositories/[repo_id]/scans.js';
import { GET as SCAN } from '../../api/scans/[scan_id].js';
import { useDatabase } from '../../lib/db/connection.js';
import { recordScan } from '../../lib/db/operations.js';
import type { StoredFinding } from '../../lib/db/types.js';
import { bearer } from '../support/auth.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { countsOf, finding, userWithRepositories } from '../support/db-fixtures.js';
import { apiRequest, errorOf } from '../support/http.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
afterAll(async () => t.close());

interface Summary {
  scan_id: string;
  repo_id: string;
  ruleset: string;
  counts: Record<string, number>;
  created_at: string;
}

async function owner(repositories = 1) {
  const user = await t.createUser();
  const { installationId, repositories: repos } = await userWithRepositories(t.db, user, repositories);
  return { user, installationId, repos, authorization: await bearer(user) };
}

async function record(user: string, repo: string, findings: StoredFinding[], ruleset: 'all' | 'owasp' = 'all') {
  return recordScan(t.db, user, { repositoryId: repo, ruleset, counts: countsOf(findings), findings });
}

const get = async (handler: (r: Request) => Promise<Response>, path: string, authorization?: string) =>
  handler(await apiRequest('GET', path, authorization === undefined ? {} : { authorization }));

describe('GET /api/installations', () => {
  it('lists only the user’s installations, named as the callback names them', async () => {
    const a = await owner();
    await owner(); // another user's installation must not show
    const response = await get(INSTALLATIONS, '/api/installations', a.authorization);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      installations: [{ installation_id: a.installationId, account: 'octo-org', account_type: 'User', created_at: expect.any(String) }],
    });
  });

  it('is empty for a user with none, and 401 without a token', async () => {
    const user = await t.createUser();
    expect(await (await get(INSTALLATIONS, '/api/installations', await bearer(user))).json()).toEqual({ installations: [] });
    const anonymous = await get(INSTALLATIONS, '/api/installations');
    expect(anonymous.status).toBe(401);
    expect((await errorOf(anonymous)).code).toBe('unauthorized');
  });
});

describe('GET /api/repositories/{repo_id}/scans', () => {
  it('lists scans newest first without findings, and pages through them with next_cursor', async () => {
    const a = await owner();
    const repo = a.repos[0]?.id ?? '';
    const recorded = [];
    for (let i = 0; i < 5; i += 1) recorded.push(await record(a.user, repo, Array.from({ length: i }, () => finding()), i % 2 === 0 ? 'all' : 'owasp'));
    const newestFirst = recorded.map((r) => r.scan_id).reverse();

    const seen: Summary[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/api/repositories/${repo}/scans?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`;
      const response = await get(SCANS, path, a.authorization);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { scans: Summary[]; next_cursor: string | null };
      expect(body.scans.length).toBeLessThanOrEqual(2);
      seen.push(...body.scans);
      cursor = body.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen.map((s) => s.scan_id)).toEqual(newestFirst);
    expect(seen[0]).toEqual({ scan_id: newestFirst[0], repo_id: repo, ruleset: 'all', trigger: 'manual', counts: { HIGH: 4, MEDIUM: 0, LOW: 0, INFO: 0 }, created_at: expect.any(String) });
    expect(seen[1]?.ruleset).toBe('owasp');
    // Counts by severity, as every other read gives them (clients list them in the order they come).
    expect(Object.keys(seen[0]?.counts ?? {})).toEqual(['HIGH', 'MEDIUM', 'LOW', 'INFO']);
  });

  it('defaults to 20 a page and ends with next_cursor null; a never-scanned repository has none', async () => {
    const a = await owner(2);
    const [scanned, never] = [a.repos[0]?.id ?? '', a.repos[1]?.id ?? ''];
    for (let i = 0; i < 21; i += 1) await record(a.user, scanned, []);
    const first = (await (await get(SCANS, `/api/repositories/${scanned}/scans`, a.authorization)).json()) as { scans: Summary[]; next_cursor: string };
    expect(first.scans).toHaveLength(20);
    const rest = (await (await get(SCANS, `/api/repositories/${scanned}/scans?cursor=${first.next_cursor}`, a.authorization)).json()) as {
      scans: Summary[];
      next_cursor: string | null;
    };
    expect(rest).toEqual({ scans: [expect.objectContaining({ repo_id: scanned })], next_cursor: null });
    expect(await (await get(SCANS, `/api/repositories/${never}/scans`, a.authorization)).json()).toEqual({ scans: [], next_cursor: null });
  });

  it('is 404 for another user’s repository or an unknown one, and 400 for a bad limit or cursor', async () => {
    const a = await owner();
    const b = await owner();
    const theirs = b.repos[0]?.id ?? '';
    await record(b.user, theirs, [finding()]);
    for (const repo of [theirs, randomUUID(), 'not-a-uuid']) {
      const response = await get(SCANS, `/api/repositories/${repo}/scans`, a.authorization);
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('not_found');
    }
    const mine = a.repos[0]?.id ?? '';
    for (const query of ['limit=0', 'limit=101', 'limit=-1', 'limit=abc', 'cursor=0', 'cursor=abc', 'cursor=99999999999999999999']) {
      const response = await get(SCANS, `/api/repositories/${mine}/scans?${query}`, a.authorization);
      expect(response.status, query).toBe(400);
      expect((await errorOf(response)).code).toBe('invalid_request');
    }
  });
});

describe('GET /api/scans/{scan_id}', () => {
  it('returns the scan result shape plus ruleset and created_at, findings in recorded order', async () => {
    const a = await owner();
    const repo = a.repos[0]?.id ?? '';
    const findings = [finding({ line: 3, severity: 'LOW' }), finding({ line: 1, severity: 'HIGH', rule_id: 'dangerous-triggers' })];
    const { scan_id, created_at } = await record(a.user, repo, findings, 'owasp');
    const response = await get(SCAN, `/api/scans/${scan_id}`, a.authorization);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['counts', 'created_at', 'findings', 'repo_id', 'ruleset', 'scan_id', 'trigger']);
    expect(body).toEqual({
      scan_id,
      repo_id: repo,
      ruleset: 'owasp',
      trigger: 'manual',
      created_at,
      counts: { HIGH: 1, MEDIUM: 0, LOW: 1, INFO: 0 },
      // The public finding with its fingerprint, as POST /api/scan returns it; the job binding stays inside.
      findings: findings.map(({ job: _job, ...f }) => f),
    });
  });

  it('is 404 for another user’s scan, an unknown id or a malformed one', async () => {
    const a = await owner();
    const b = await owner();
    const { scan_id } = await record(b.user, b.repos[0]?.id ?? '', [finding()]);
    for (const id of [scan_id, randomUUID(), 'nope']) {
      const response = await get(SCAN, `/api/scans/${id}`, a.authorization);
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('not_found');
    }
    expect((await get(SCAN, `/api/scans/${scan_id}`, b.authorization)).status).toBe(200);
  });
});
