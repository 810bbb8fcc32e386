// scans.rule_ids: the distinct rules a scan has findings of (sorted), kept by a statement trigger on the
// findings record_scan inserts; attack_path_inputs reads it to tell which combination kinds can fire in a
// repository without reading its findings.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { recordScan } from '../../lib/db/operations.js';
import type { StoredFinding } from '../../lib/db/types.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { countsOf, finding, userWithRepositories } from '../support/db-fixtures.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

test('record_scan leaves each scan with the sorted, distinct rules of its findings, and {} without findings', async () => {
  const user = await t.createUser();
  const { repositories } = await userWithRepositories(t.db, user, 2);
  const [a, b] = [repositories[0]!, repositories[1]!];
  const findings: StoredFinding[] = ['script-injection', 'excessive-permissions', 'script-injection', 'unpinned-action'].map((rule_id, i) => finding({ rule_id, line: i + 1 }));
  const first = await recordScan(t.db, user, { repositoryId: a.id, ruleset: 'all', counts: countsOf(findings), findings });
  const empty = await recordScan(t.db, user, { repositoryId: b.id, ruleset: 'all', counts: countsOf([]), findings: [] });
  const second = await recordScan(t.db, user, { repositoryId: a.id, ruleset: 'all', counts: countsOf(findings.slice(3)), findings: findings.slice(3) });
  const rows = await t.query<{ id: string; rule_ids: string[] }>('select id, rule_ids from public.scans where user_id = $1', [user]);
  const of = (id: string) => rows.find((r) => r.id === id)?.rule_ids;
  expect(of(first.scan_id)).toEqual(['excessive-permissions', 'script-injection', 'unpinned-action']);
  expect(of(empty.scan_id)).toEqual([]);
  expect(of(second.scan_id)).toEqual(['unpinned-action']);
});
