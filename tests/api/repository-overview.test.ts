// GET /api/repositories: every repository of the user with its latest scan's open counts, in one request
// (the Repositories view at 1,000 repositories issues this one instead of one read per repository).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as OVERVIEW } from '../../api/repositories/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { recordScan, setDismissal } from '../../lib/db/operations.js';
import type { StoredFinding } from '../../lib/db/types.js';
import { bearer } from '../support/auth.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { countsOf, finding, userWithRepositories } from '../support/db-fixtures.js';
import { apiRequest } from '../support/http.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
afterAll(async () => t.close());

interface Row {
  repo_id: string;
  full_name: string;
  latest_scan: { scan_id: string; counts: Record<string, number>; dismissed: number; ruleset: string } | null;
}

const overview = async (authorization?: string) => OVERVIEW(await apiRequest('GET', '/api/repositories', authorization === undefined ? {} : { authorization }));

describe('GET /api/repositories', () => {
  it('lists the user’s repositories by name with the latest scan’s counts minus the dismissed findings', async () => {
    const user = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, user, 3);
    const [a, b] = repositories.map((r) => r.id);
    const record = (repo: string, findings: StoredFinding[]) => recordScan(t.db, user, { repositoryId: repo, ruleset: 'all', counts: countsOf(findings), findings });
    await record(a ?? '', [finding({ fingerprint: 'aaaaaa01' })]);
    const latest = [finding({ fingerprint: 'aaaaaa02' }), finding({ fingerprint: 'aaaaaa03', severity: 'LOW' }), finding({ fingerprint: 'aaaaaa04', severity: 'LOW' })];
    const newest = await record(a ?? '', latest);
    await record(b ?? '', [finding({ fingerprint: 'bbbbbb01', severity: 'MEDIUM' })]);
    // A dismissed finding of the latest scan leaves its counts; an attack-path dismissal and another repository's do not.
    await setDismissal(t.db, user, a ?? '', { fingerprint: 'aaaaaa03', kind: 'finding', reason: 'false_positive', comment: '' });
    await setDismissal(t.db, user, a ?? '', { fingerprint: 'aaaaaa04', kind: 'attack_path', reason: 'accepted_risk', comment: '' });
    await setDismissal(t.db, user, b ?? '', { fingerprint: 'aaaaaa02', kind: 'finding', reason: 'wont_fix', comment: '' });

    const other = await t.createUser();
    await userWithRepositories(t.db, other, 2);

    const response = await overview(await bearer(user));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { repositories: Row[] };
    expect(body.repositories.map((r) => r.full_name)).toEqual(['octo-org/repo-000', 'octo-org/repo-001', 'octo-org/repo-002']);
    const [first, second, third] = body.repositories;
    expect(first?.latest_scan).toMatchObject({ scan_id: newest.scan_id, ruleset: 'all', counts: { HIGH: 1, MEDIUM: 0, LOW: 1, INFO: 0 }, dismissed: 1 });
    expect(second?.latest_scan).toMatchObject({ counts: { HIGH: 0, MEDIUM: 1, LOW: 0, INFO: 0 }, dismissed: 0 });
    expect(third?.latest_scan).toBeNull();
  });

  it('is empty for a user with no repository, and 401 without a token', async () => {
    const user = await t.createUser();
    expect(await (await overview(await bearer(user))).json()).toEqual({ repositories: [] });
    expect((await overview()).status).toBe(401);
  });
});
