// Concurrent calls on a real Postgres server, through a pool, as parallel function instances would make
// them. PGlite has a single connection and serializes everything, so these run only with TEST_DATABASE_URL.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  clearRuleOverride,
  clearRuleSetting,
  consumeRateLimit,
  linkInstallation,
  listInstallations,
  listRuleOverrides,
  listRuleSettings,
  recordScan,
  repositoryComboInputs,
  setRuleOverride,
  setRuleSetting,
  syncRepositories,
} from '../../lib/db/operations.js';
import { openTestDatabase, REAL_SERVER_ONLY, testDatabaseTarget, type TestDatabase } from '../support/db.js';
import { countsOf, finding, githubId, listing, userWithRepositories } from '../support/db-fixtures.js';

const onRealServer = testDatabaseTarget.kind === 'postgres';
const PARALLEL = 20;

let t: TestDatabase;
beforeAll(async () => {
  if (onRealServer) t = await openTestDatabase({ maxConnections: PARALLEL });
});
afterAll(async () => {
  if (onRealServer) await t.close();
});
beforeEach(({ skip }) => {
  skip(!onRealServer, REAL_SERVER_ONLY);
});

/** Resolves all, failing the test with the first rejection. */
function all<T>(count: number, make: (i: number) => Promise<T>): Promise<Awaited<T>[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => make(i)));
}

describe('settings', () => {
  test('parallel upserts of one setting end with one row', async () => {
    const user = await t.createUser();
    await all(40, (i) => setRuleSetting(t.db, user, 'pipe-to-shell', i % 2 === 0));
    const settings = await listRuleSettings(t.db, user);
    expect(settings).toHaveLength(1);
    expect(settings[0]!.rule_id).toBe('pipe-to-shell');
  });

  test('40 concurrent sets and clears of one setting all succeed and leave at most one row', async () => {
    const user = await t.createUser();
    await all<unknown>(40, (i) => (i % 2 === 0 ? setRuleSetting(t.db, user, 'pipe-to-shell', false) : clearRuleSetting(t.db, user, 'pipe-to-shell')));
    expect((await listRuleSettings(t.db, user)).length).toBeLessThanOrEqual(1);
  });

  test('40 concurrent sets and clears of one override all succeed and leave at most one row', async () => {
    const user = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, user, 1);
    const repoId = repositories[0]!.id;
    await all<unknown>(40, (i) =>
      i % 3 === 0 ? clearRuleOverride(t.db, user, repoId, 'pipe-to-shell') : setRuleOverride(t.db, user, repoId, 'pipe-to-shell', i % 2 === 0),
    );
    expect((await listRuleOverrides(t.db, user, repoId))!.length).toBeLessThanOrEqual(1);
    await all(PARALLEL, () => setRuleOverride(t.db, user, repoId, 'pipe-to-shell', false));
    expect(await listRuleOverrides(t.db, user, repoId)).toHaveLength(1);
  });
});

describe('scans', () => {
  test(`${PARALLEL} parallel scans of one repository all persist, and "latest" stays consistent`, async () => {
    const user = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, user, 1);
    const repo = repositories[0]!;
    const findingsOf = (i: number) => Array.from({ length: 30 }, (_, j) => finding({ fingerprint: `scan-${i}-finding-${j}`, line: j + 1 }));
    const recorded = await all(PARALLEL, (i) =>
      recordScan(t.db, user, { repositoryId: repo.id, ruleset: 'all', counts: countsOf(findingsOf(i)), findings: findingsOf(i) }),
    );
    expect(new Set(recorded.map((r) => r.scan_id)).size).toBe(PARALLEL);

    const [totals] = await t.query<{ scans: number; findings: number }>(
      `select (select count(*)::int from public.scans where repository_id = $1) as scans,
              (select count(*)::int from public.findings f join public.scans s on s.id = f.scan_id where s.repository_id = $1) as findings`,
      [repo.id],
    );
    expect(totals).toEqual({ scans: PARALLEL, findings: PARALLEL * 30 });

    const [latest] = await t.query<{ id: string }>(
      'select id from public.scans where repository_id = $1 order by seq desc limit 1',
      [repo.id],
    );
    const latestIndex = recorded.findIndex((r) => r.scan_id === latest!.id);
    const reads = await all(10, () => repositoryComboInputs(t.db, user, repo.id));
    for (const read of reads) expect(read).toEqual(findingsOf(latestIndex));
  });
});

describe('repositories and installations', () => {
  test('concurrent syncs of one user create no duplicates and agree on the ids', async () => {
    const user = await t.createUser();
    const installationId = githubId();
    await linkInstallation(t.db, user, { installationId, accountLogin: 'octo-org', accountType: 'Organization' });
    const listings = Array.from({ length: 30 }, () => listing(installationId));
    // Each sync lists an overlapping slice, in its own order, as paginated listings racing each other would.
    const results = await all(PARALLEL, (i) => {
      const slice = listings.filter((_, j) => (i + j) % 3 !== 0);
      return syncRepositories(t.db, user, i % 2 === 0 ? slice : [...slice].reverse());
    });
    const [row] = await t.query<{ rows: number; distinct_ids: number }>(
      'select count(*)::int as rows, count(distinct github_id)::int as distinct_ids from public.repositories where user_id = $1',
      [user],
    );
    expect(row).toEqual({ rows: 30, distinct_ids: 30 });
    const idByGithubId = new Map<number, string>();
    for (const repo of results.flat()) {
      expect(idByGithubId.get(repo.github_id) ?? repo.id).toBe(repo.id);
      idByGithubId.set(repo.github_id, repo.id);
    }
  });

  test('concurrent links of one installation store it once', async () => {
    const user = await t.createUser();
    const installationId = githubId();
    await all(PARALLEL, () => linkInstallation(t.db, user, { installationId, accountLogin: 'octo', accountType: 'User' }));
    expect(await listInstallations(t.db, user)).toHaveLength(1);
  });
});

describe('rate limits', () => {
  test('under concurrent calls exactly `limit` are allowed', async () => {
    const user = await t.createUser();
    const decisions = await all(30, () => consumeRateLimit(t.db, user, { bucket: 'scan', limit: 10, windowSeconds: 60 }));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
  });
});
