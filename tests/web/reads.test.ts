// The client's data module: the same reads through the API's read endpoints (the embedded mode) and
// through Supabase's tables under row-level security (a client configured with the project's URL and anon
// key) return the same shapes for the same rows. The Supabase side runs the queries supabase-js would send,
// on the real database, as the `authenticated` role with the user's claims, as PostgREST does.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDatabase } from '../../lib/db/connection.js';
import { clearDismissal, recordCheckRun, recordScan, recordTriggeredScan, setDismissal, setRuleOverride, setRuleSetting } from '../../lib/db/operations.js';
import { Api } from '../../web/src/data/api.js';
import { ratedBy } from '../../web/src/data/rated.js';
import { ApiReads, SupabaseReads, type TableClient, type TableQuery } from '../../web/src/data/reads.js';
import { bearer } from '../support/auth.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { countsOf, finding, userWithRepositories } from '../support/db-fixtures.js';
import { dispatch } from '../support/http.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
afterAll(async () => t.close());

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A PostgREST query as supabase-js builds it, run on the test database under row-level security. */
function tables(userId: string): TableClient {
  return {
    from: (table) => ({
      select: (columns) => {
        const filters: { column: string; op: '=' | '<'; value: unknown }[] = [];
        const order: string[] = [];
        let limit: number | null = null;
        const query: TableQuery = {
          eq: (column, value) => (filters.push({ column, op: '=', value }), query),
          lt: (column, value) => (filters.push({ column, op: '<', value }), query),
          order: (column, options) => (order.push(`${ident(column)} ${options?.ascending === false ? 'desc' : 'asc'}`), query),
          limit: (count) => ((limit = count), query),
          then: (resolve, reject) => {
            const where = filters.map((f, i) => `${ident(f.column)} ${f.op} $${i + 1}`);
            const sql = `select coalesce(json_agg(row_to_json(q)), '[]'::json) as rows from (select ${columns.split(',').map(ident).join(', ')} from public.${ident(table)}${
              where.length > 0 ? ` where ${where.join(' and ')}` : ''
            }${order.length > 0 ? ` order by ${order.join(', ')}` : ''}${limit === null ? '' : ` limit ${limit}`}) q`;
            const run = t.as('authenticated', userId, async (tx) => {
              await tx.exec("set local timezone = 'UTC'");
              const [row] = await tx.query<{ rows: Record<string, unknown>[] | string }>(sql, filters.map((f) => f.value));
              const rows = typeof row?.rows === 'string' ? (JSON.parse(row.rows) as Record<string, unknown>[]) : (row?.rows ?? []);
              return { data: rows, error: null };
            });
            return run.then(resolve, reject);
          },
        };
        return query;
      },
    }),
  };
}

function api(token: string): Api {
  return new Api(async () => token.replace(/^Bearer /, ''), (input, init) => dispatch(new Request(new URL(input, 'http://localhost'), init)));
}

describe('the client data module', () => {
  it('returns the same shapes for the same rows from the API and from Supabase under row-level security', async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, user, 2);
    await userWithRepositories(t.db, other, 1);
    const repo = repositories[0]?.id ?? '';
    const fix = { safe: true, diff: '--- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n@@ -1 +1,2 @@\n+permissions: {}\n on: push\n' };
    const findings = [finding({ severity: 'HIGH', fix }), finding({ severity: 'LOW', rule_id: 'unpinned-action', line: 3 })];
    const scans: { scan_id: string }[] = [];
    for (let i = 0; i < 3; i += 1) scans.push(await recordScan(t.db, user, { repositoryId: repo, ruleset: 'all', counts: countsOf(findings.slice(0, i)), findings: findings.slice(0, i) }));
    await setRuleSetting(t.db, user, 'script-injection', false);
    await setRuleOverride(t.db, user, repo, 'script-injection', true);
    await setRuleSetting(t.db, other, 'unpinned-action', false);

    const viaApi = new ApiReads(api(await bearer(user)));
    const viaSupabase = new SupabaseReads(tables(user));

    const both = async <T>(read: (reads: ApiReads | SupabaseReads) => Promise<T>): Promise<T> => {
      const [a, b] = await Promise.all([read(viaApi), read(viaSupabase)]);
      expect(b).toEqual(a);
      return a;
    };

    expect(await both((r) => r.installations())).toHaveLength(1);
    const firstPage = await both((r) => r.scans(repo, { limit: 2 }));
    expect(firstPage.scans.map((s) => s.scan_id)).toEqual([scans[2]?.scan_id, scans[1]?.scan_id]);
    expect(firstPage.next_cursor).not.toBeNull();
    const lastPage = await both((r) => r.scans(repo, { limit: 2, cursor: firstPage.next_cursor }));
    expect(lastPage).toEqual({ scans: [expect.objectContaining({ scan_id: scans[0]?.scan_id })], next_cursor: null });
    expect(await both((r) => r.scans(repositories[1]?.id ?? ''))).toEqual({ scans: [], next_cursor: null });

    const full = await both((r) => r.scan(scans[2]?.scan_id ?? ''));
    expect(full?.findings.map((f) => f.rule_id)).toEqual(['script-injection', 'unpinned-action']);
    expect(full?.counts).toEqual({ HIGH: 1, MEDIUM: 0, LOW: 1, INFO: 0 });
    // The stored fix comes back through both; a finding without one has no fix key in either.
    expect(full?.findings[0]?.fix).toEqual(fix);
    expect(full?.findings[1]).not.toHaveProperty('fix');
    expect(await both((r) => r.ruleSettings())).toEqual([{ rule_id: 'script-injection', enabled: false, updated_at: expect.any(String) }]);
    expect(await both((r) => r.overrides(repo))).toEqual([{ rule_id: 'script-injection', enabled: true, updated_at: expect.any(String) }]);

    // Severities (issue 27 item 5) come back through both, the key left out where none is set.
    await setRuleSetting(t.db, user, 'unpinned-action', true, undefined, 'INFO');
    await setRuleOverride(t.db, user, repo, 'unpinned-action', true, 'HIGH');
    await setRuleSetting(t.db, other, 'missing-timeout', true, undefined, 'HIGH');
    expect(await both((r) => r.ruleSettings())).toEqual([
      { rule_id: 'script-injection', enabled: false, updated_at: expect.any(String) },
      { rule_id: 'unpinned-action', enabled: true, updated_at: expect.any(String), severity: 'INFO' },
    ]);
    const overrides = await both((r) => r.overrides(repo));
    expect(overrides).toEqual([
      { rule_id: 'script-injection', enabled: true, updated_at: expect.any(String) },
      { rule_id: 'unpinned-action', enabled: true, updated_at: expect.any(String), severity: 'HIGH' },
    ]);
    // What the Findings view says re-rated a rule: the repository's severity over the global one.
    expect(ratedBy(await viaSupabase.ruleSettings(), overrides)).toEqual(new Map([['unpinned-action', { severity: 'HIGH', scope: 'repository' }]]));
    expect(ratedBy(await viaSupabase.ruleSettings(), [])).toEqual(new Map([['unpinned-action', { severity: 'INFO', scope: 'global' }]]));
  });

  it('returns the same triage decisions and trail, and the scanned commit, from both backends', async () => {
    const user = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, user, 1);
    const repo = repositories[0]?.id ?? '';
    const sha = 'b'.repeat(40);
    const findings = [finding({ severity: 'HIGH' })];
    const { scan_id } = await recordScan(t.db, user, {
      repositoryId: repo,
      ruleset: 'all',
      counts: countsOf(findings),
      findings,
      retention: { contentHash: 'c'.repeat(64), keep: 10, quota: 0 },
      commitSha: sha,
    });
    await setDismissal(t.db, user, repo, { fingerprint: 'abc123', kind: 'finding', reason: 'accepted_risk', comment: 'known' });
    await setDismissal(t.db, user, repo, { fingerprint: 'path-abc123', kind: 'attack_path', reason: 'wont_fix', comment: '' });
    await clearDismissal(t.db, user, repo, 'path-abc123');
    const viaApi = new ApiReads(api(await bearer(user)));
    const viaSupabase = new SupabaseReads(tables(user));
    const [a, b] = await Promise.all([viaApi.dismissals(repo), viaSupabase.dismissals(repo)]);
    expect(b).toEqual(a);
    expect(a.dismissals.map((d) => [d.fingerprint, d.reason, d.comment])).toEqual([['abc123', 'accepted_risk', 'known']]);
    expect(a.events.map((e) => [e.fingerprint, e.action])).toEqual([
      ['path-abc123', 'reopen'],
      ['path-abc123', 'dismiss'],
      ['abc123', 'dismiss'],
    ]);
    const [sa, sb] = await Promise.all([viaApi.scan(scan_id), viaSupabase.scan(scan_id)]);
    expect(sb).toEqual(sa);
    expect(sa?.commit_sha).toBe(sha);
    // Another user reads none of it: the API says 404, row-level security shows nothing.
    const stranger = await t.createUser();
    await expect(new ApiReads(api(await bearer(stranger))).dismissals(repo)).rejects.toMatchObject({ status: 404 });
    expect(await new SupabaseReads(tables(stranger)).dismissals(repo)).toEqual({ dismissals: [], events: [] });
  });

  it('returns each scan\'s trigger and commit, and the repository\'s latest check run, the same from both backends', async () => {
    const user = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, user, 1);
    const repo = repositories[0]!;
    const sha = 'e'.repeat(40);
    await recordScan(t.db, user, { repositoryId: repo.id, ruleset: 'all', counts: countsOf([]), findings: [] });
    const pushed = await recordTriggeredScan(t.db, user, {
      repositoryId: repo.id,
      ruleset: 'all',
      counts: countsOf([finding()]),
      findings: [finding()],
      retention: { contentHash: 'd'.repeat(64), keep: 10, quota: 0 },
      commitSha: sha,
      trigger: 'push',
    });
    const viaApi = new ApiReads(api(await bearer(user)));
    const viaSupabase = new SupabaseReads(tables(user));
    expect(await viaApi.checkRun(repo.id)).toBeNull();
    expect(await viaSupabase.checkRun(repo.id)).toBeNull();
    await recordCheckRun(t.db, repo.installation_id, repo.github_id, {
      pull_number: 42,
      head_sha: sha,
      check_run_id: 991,
      conclusion: 'failure',
      html_url: `https://github.com/${repo.full_name}/runs/991`,
      new_findings: 3,
      new_attack_paths: 1,
    });
    const [pa, pb] = await Promise.all([viaApi.scans(repo.id), viaSupabase.scans(repo.id)]);
    expect(pb).toEqual(pa);
    expect(pa.scans.map((s) => [s.trigger, s.commit_sha])).toEqual([
      ['push', sha],
      ['manual', undefined],
    ]);
    const [sa, sb] = await Promise.all([viaApi.scan(pushed.scan_id), viaSupabase.scan(pushed.scan_id)]);
    expect(sb).toEqual(sa);
    expect(sa).toMatchObject({ trigger: 'push', commit_sha: sha });
    const [ca, cb] = await Promise.all([viaApi.checkRun(repo.id), viaSupabase.checkRun(repo.id)]);
    expect(cb).toEqual(ca);
    expect(ca).toMatchObject({ pull_number: 42, head_sha: sha, conclusion: 'failure', new_findings: 3, new_attack_paths: 1 });
    // Another user: 404 through the API, nothing under row-level security.
    const stranger = await t.createUser();
    await expect(new ApiReads(api(await bearer(stranger))).checkRun(repo.id)).rejects.toMatchObject({ status: 404 });
    expect(await new SupabaseReads(tables(stranger)).checkRun(repo.id)).toBeNull();
  });

  it('sees none of another user’s rows through either backend', async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, owner, 1);
    const repo = repositories[0]?.id ?? '';
    const { scan_id } = await recordScan(t.db, owner, { repositoryId: repo, ruleset: 'all', counts: countsOf([finding()]), findings: [finding()] });
    for (const reads of [new ApiReads(api(await bearer(stranger))), new SupabaseReads(tables(stranger))]) {
      expect(await reads.scan(scan_id)).toBeNull();
      expect(await reads.installations()).toEqual([]);
      expect(await reads.ruleSettings()).toEqual([]);
    }
    // A repository that is not yours: the API says 404, row-level security shows no rows.
    await expect(new ApiReads(api(await bearer(stranger))).scans(repo)).rejects.toMatchObject({ status: 404 });
    expect(await new SupabaseReads(tables(stranger)).scans(repo)).toEqual({ scans: [], next_cursor: null });
  });
});
