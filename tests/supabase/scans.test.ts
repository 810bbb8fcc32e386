// Recording scans and reading their findings back for combinations: record_scan, repository_combo_inputs,
// attack_path_inputs.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DatabaseError } from '../../lib/db/errors.js';
import {
  attackPathInputs,
  getScan,
  recordScan,
  repositoryComboInputs,
  setRuleOverride,
  setRuleSetting,
  clearRuleOverride,
} from '../../lib/db/operations.js';
import type { AttackPathCatalog } from '../../lib/db/operations.js';
import type { CompactFinding, Repository, StoredFinding } from '../../lib/db/types.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { countsOf, finding, userWithRepositories } from '../support/db-fixtures.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

async function userWithRepository(): Promise<{ user: string; repo: Repository }> {
  const user = await t.createUser();
  const { repositories } = await userWithRepositories(t.db, user, 1);
  return { user, repo: repositories[0]! };
}

async function stored(user: string): Promise<{ scans: number; findings: number }> {
  const [row] = await t.query<{ scans: number; findings: number }>(
    `select (select count(*)::int from public.scans where user_id = $1) as scans,
            (select count(*)::int from public.findings where user_id = $1) as findings`,
    [user],
  );
  return row!;
}

function scanOf(repo: Repository, findings: StoredFinding[]) {
  return { repositoryId: repo.id, ruleset: 'all' as const, counts: countsOf(findings), findings };
}

/** A finding as attack_path_inputs returns it, its recommendation null when it is `defaultRecommendation`. */
function compact(f: StoredFinding, defaultRecommendation?: string): CompactFinding {
  const recommendation = f.recommendation === defaultRecommendation ? null : f.recommendation;
  return [f.file, f.line, f.column, f.severity, f.rule_id, f.description, recommendation, f.job, f.fingerprint, f.facts ?? null];
}

/** A catalog of one kind requiring any of `rules` (and, when given, a second group), for tests that are not about kinds. */
function catalogOf(rules: readonly string[], secondGroup: readonly string[] = []): AttackPathCatalog {
  const all = [...rules, ...secondGroup];
  return {
    rules: Object.fromEntries(all.map((id) => [id, `default recommendation of ${id}`])),
    kinds: [{ requires: secondGroup.length > 0 ? [rules, secondGroup] : [rules], rules: all }],
  };
}

describe('record_scan', () => {
  test('stores the scan and its findings, in order, with every field', async () => {
    const { user, repo } = await userWithRepository();
    const findings = [
      finding({ severity: 'MEDIUM', rule_id: 'b-rule', line: 3 }),
      finding({ severity: 'HIGH', rule_id: 'a-rule', job: null, column: 0 }),
      finding({ severity: 'INFO', file: '.github/dependabot.yml', title: 'Ünïcödé — "quoted" \\ backslash' }),
    ];
    const recorded = await recordScan(t.db, user, { ...scanOf(repo, findings), ruleset: 'owasp' });
    expect(recorded).toEqual({ scan_id: expect.stringMatching(/^[0-9a-f-]{36}$/), created_at: expect.any(String) });

    const [scan] = await t.query<Record<string, unknown>>(
      'select repository_id, ruleset, high_count, medium_count, low_count, info_count from public.scans where id = $1',
      [recorded.scan_id],
    );
    expect(scan).toEqual({ repository_id: repo.id, ruleset: 'owasp', high_count: 1, medium_count: 1, low_count: 0, info_count: 1 });
    expect(await repositoryComboInputs(t.db, user, repo.id)).toEqual(findings);
  });

  test('stores each finding’s fix; get_scan returns it, and no fix key for a finding without one', async () => {
    const { user, repo } = await userWithRepository();
    const diffFix = { safe: true, diff: '--- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n@@ -1 +1,2 @@\n+permissions: {}\n on: push\n' };
    const apiFix = { safe: false, api: { method: 'PUT' as const, path: '/repos/o/r/actions/permissions/workflow', body: { default_workflow_permissions: 'read', nested: { none: null } } } };
    const findings = [finding({ rule_id: 'with-diff', fix: diffFix }), finding({ rule_id: 'no-fix' }), finding({ rule_id: 'with-api', fix: apiFix })];
    const recorded = await recordScan(t.db, user, scanOf(repo, findings));

    const scan = await getScan(t.db, user, recorded.scan_id);
    expect(scan?.findings.map((f) => f.rule_id)).toEqual(['with-diff', 'no-fix', 'with-api']);
    expect(scan?.findings[0]?.fix).toEqual(diffFix);
    expect(scan?.findings[1]).not.toHaveProperty('fix');
    expect(scan?.findings[2]?.fix).toEqual(apiFix);
    const rows = await t.query<{ fix: unknown }>('select fix from public.findings where scan_id = $1 order by ordinal', [recorded.scan_id]);
    expect(rows.map((r) => r.fix)).toEqual([diffFix, null, apiFix]);
    // The combination reads stay compact: no fix.
    expect((await repositoryComboInputs(t.db, user, repo.id))?.every((f) => !('fix' in f))).toBe(true);
    // Another user reads nothing of it.
    expect(await getScan(t.db, await t.createUser(), recorded.scan_id)).toBeNull();
  });

  test("stores each finding's run-model facts; the combination reads return them, and none for a finding without", async () => {
    const { user, repo } = await userWithRepository();
    const findings = [finding({ rule_id: 'untrusted-checkout', facts: ['exec', 'reach:anyone', 'run:3'] }), finding({ rule_id: 'missing-permissions' })];
    await recordScan(t.db, user, scanOf(repo, findings));
    const read = await repositoryComboInputs(t.db, user, repo.id);
    expect(read?.[0]?.facts).toEqual(['exec', 'reach:anyone', 'run:3']);
    expect(read?.[1]).not.toHaveProperty('facts');
    const compactRows = (await attackPathInputs(t.db, user, catalogOf(['untrusted-checkout'], ['missing-permissions'])))[0]![3];
    expect(compactRows.map((row) => row[9])).toEqual([['exec', 'reach:anyone', 'run:3'], null]);
  });

  test('a null fix is stored as none', async () => {
    const { user, repo } = await userWithRepository();
    const recorded = await recordScan(t.db, user, scanOf(repo, [{ ...finding(), fix: null } as unknown as StoredFinding]));
    expect((await getScan(t.db, user, recorded.scan_id))?.findings[0]).not.toHaveProperty('fix');
  });

  test('a scan with no findings is recorded', async () => {
    const { user, repo } = await userWithRepository();
    await recordScan(t.db, user, scanOf(repo, []));
    expect(await stored(user)).toEqual({ scans: 1, findings: 0 });
    expect(await repositoryComboInputs(t.db, user, repo.id)).toEqual([]);
  });

  test('a repository the user does not own is not found and nothing is stored', async () => {
    const { repo } = await userWithRepository();
    const stranger = await t.createUser();
    const error = await recordScan(t.db, stranger, scanOf(repo, [finding()])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseError);
    expect((error as DatabaseError).kind).toBe('not_found');
    expect(await stored(stranger)).toEqual({ scans: 0, findings: 0 });
  });

  describe('is atomic: a failure part-way leaves no scan and no findings', () => {
    test.each([
      ['a finding violating a check constraint', [finding(), finding(), finding({ severity: 'CRITICAL' as 'HIGH' })]],
      ['a finding missing a required field', [finding(), { ...finding(), title: undefined } as unknown as StoredFinding]],
      ['a finding with a fractional line', [finding(), finding({ line: 1.5 })]],
      ['a fix that is not an object', [finding(), { ...finding(), fix: 'rm -rf /' } as unknown as StoredFinding]],
      ['a fix without a boolean safe', [finding(), { ...finding(), fix: { diff: 'x' } } as unknown as StoredFinding]],
      ['a fix over the size bound', [finding(), finding({ fix: { safe: true, diff: 'x'.repeat(131_073) } })]],
    ])('%s', async (_case, findings) => {
      const { user, repo } = await userWithRepository();
      const counts = { HIGH: findings.length, MEDIUM: 0, LOW: 0, INFO: 0 };
      const error = await recordScan(t.db, user, { repositoryId: repo.id, ruleset: 'all', counts, findings }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DatabaseError);
      expect((error as DatabaseError).kind).toBe('internal');
      expect(await stored(user)).toEqual({ scans: 0, findings: 0 });
    });

    test('counts that disagree with the findings', async () => {
      const { user, repo } = await userWithRepository();
      const findings = [finding({ severity: 'LOW' })];
      const error = await recordScan(t.db, user, { ...scanOf(repo, findings), counts: { HIGH: 1, MEDIUM: 0, LOW: 0, INFO: 0 } }).catch(
        (e: unknown) => e,
      );
      expect((error as DatabaseError).sqlState).toBe('22023');
      expect(await stored(user)).toEqual({ scans: 0, findings: 0 });
    });

    test('an unknown ruleset', async () => {
      const { user, repo } = await userWithRepository();
      const error = await recordScan(t.db, user, { ...scanOf(repo, [finding()]), ruleset: 'everything' as 'all' }).catch((e: unknown) => e);
      expect((error as DatabaseError).sqlState).toBe('23514');
      expect(await stored(user)).toEqual({ scans: 0, findings: 0 });
    });
  });

  test('the error says nothing about the SQL or the data', async () => {
    const { user, repo } = await userWithRepository();
    const error = (await recordScan(t.db, user, scanOf(repo, [finding({ severity: 'CRITICAL' as 'HIGH' })])).catch((e: unknown) => e)) as DatabaseError;
    expect(error.message).toBe('Database error');
    expect(error.fn).toBe('record_scan');
    expect(String(error.cause)).toMatch(/check constraint|counts/);
  });
});

describe('repository_combo_inputs', () => {
  test('the latest scan is the last recorded, even when scans share a timestamp', async () => {
    const { user, repo } = await userWithRepository();
    const scans = Array.from({ length: 8 }, (_, i) => [finding({ rule_id: `scan-${i}` })]);
    for (const findings of scans) await recordScan(t.db, user, scanOf(repo, findings));
    await t.query('update public.scans set created_at = $2 where repository_id = $1', [repo.id, '2026-01-01T00:00:00Z']);
    expect(await repositoryComboInputs(t.db, user, repo.id)).toEqual(scans[7]);
    const catalog = catalogOf(scans.map((findings) => findings[0]!.rule_id));
    expect((await attackPathInputs(t.db, user, catalog))[0]![3]).toEqual(scans[7]!.map((f) => compact(f)));
  });

  test("reads the latest scan only, filtered by the rules' current effective state", async () => {
    const { user, repo } = await userWithRepository();
    await recordScan(t.db, user, scanOf(repo, [finding({ rule_id: 'old-scan-rule' })]));
    const latest = [finding({ rule_id: 'kept' }), finding({ rule_id: 'disabled-globally' }), finding({ rule_id: 'disabled-here' })];
    await recordScan(t.db, user, scanOf(repo, latest));
    expect(await repositoryComboInputs(t.db, user, repo.id)).toEqual(latest);

    // Turning rules off after the scan takes effect without a re-scan; turning one back on restores it.
    await setRuleSetting(t.db, user, 'disabled-globally', false);
    await setRuleOverride(t.db, user, repo.id, 'disabled-here', false);
    expect(await repositoryComboInputs(t.db, user, repo.id)).toEqual([latest[0]]);
    await clearRuleOverride(t.db, user, repo.id, 'disabled-here');
    expect(await repositoryComboInputs(t.db, user, repo.id)).toEqual([latest[0], latest[2]]);
  });

  test('an override enabling a globally disabled rule brings its findings back', async () => {
    const { user, repo } = await userWithRepository();
    const findings = [finding({ rule_id: 'pipe-to-shell' })];
    await recordScan(t.db, user, scanOf(repo, findings));
    await setRuleSetting(t.db, user, 'pipe-to-shell', false);
    expect(await repositoryComboInputs(t.db, user, repo.id)).toEqual([]);
    await setRuleOverride(t.db, user, repo.id, 'pipe-to-shell', true);
    expect(await repositoryComboInputs(t.db, user, repo.id)).toEqual(findings);
  });

  test('is [] for a repository never scanned and null for one the user does not own', async () => {
    const { user, repo } = await userWithRepository();
    expect(await repositoryComboInputs(t.db, user, repo.id)).toEqual([]);
    await recordScan(t.db, user, scanOf(repo, [finding()]));
    expect(await repositoryComboInputs(t.db, await t.createUser(), repo.id)).toBeNull();
  });
});

describe('attack_path_inputs', () => {
  test('returns every scanned repository of the user with its latest enabled findings of the given rules, compact, by full_name', async () => {
    const user = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, user, 5);
    const [a, b, c, neverScanned, onlyOthers] = repositories;
    await recordScan(t.db, user, scanOf(c!, [finding({ rule_id: 'pipe-to-shell' })]));
    const cLatest = [finding({ rule_id: 'pipe-to-shell' }), finding({ rule_id: 'excessive-permissions', job: null })];
    await recordScan(t.db, user, scanOf(c!, cLatest));
    const aFindings = [finding({ rule_id: 'pipe-to-shell' }), finding({ rule_id: 'script-injection', recommendation: 'default recommendation of script-injection' })];
    await recordScan(t.db, user, scanOf(a!, aFindings));
    await recordScan(t.db, user, scanOf(b!, [finding({ rule_id: 'pipe-to-shell' })]));
    // Findings of rules outside the catalog are never returned; a repository left without any is left out.
    await recordScan(t.db, user, scanOf(onlyOthers!, [finding({ rule_id: 'missing-timeout' })]));

    await setRuleSetting(t.db, user, 'pipe-to-shell', false);
    await setRuleOverride(t.db, user, c!.id, 'pipe-to-shell', true);

    // Someone else's data never shows up.
    const stranger = await t.createUser();
    const { repositories: theirs } = await userWithRepositories(t.db, stranger, 1);
    await recordScan(t.db, stranger, scanOf(theirs[0]!, [finding()]));

    const catalog = catalogOf(['pipe-to-shell', 'script-injection', 'excessive-permissions']);
    const inputs = await attackPathInputs(t.db, user, catalog);
    expect(inputs).toEqual([
      // Then the repository's triage decisions (none) and the commit its latest scan read (none recorded here).
      [a!.id, a!.full_name, a!.html_url, [compact(aFindings[1]!, 'default recommendation of script-injection')], [], null],
      [c!.id, c!.full_name, c!.html_url, cLatest.map((f) => compact(f)), [], null],
    ]);
    // The recommendation equal to the rule's default comes back as null, the others as stored.
    expect(inputs[0]![3][0]![6]).toBeNull();
    expect(inputs[1]![3][0]![6]).toBe(cLatest[0]!.recommendation);
    expect(inputs.map((i) => i[0])).not.toContain(neverScanned!.id);
  });

  test("returns only findings of kinds whose every group has a usable finding in the repository, amplifiers included", async () => {
    const user = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, user, 2);
    const [both, half] = repositories;
    const catalog: AttackPathCatalog = {
      rules: { injection: 'r1', token: 'r2', amplifier: 'r3', 'other-kind': 'r4', 'needs-this': 'r5' },
      kinds: [
        { requires: [['injection'], ['token']], rules: ['injection', 'token', 'amplifier'] },
        { requires: [['other-kind'], ['needs-this']], rules: ['other-kind', 'needs-this'] },
      ],
    };
    const findings = [
      finding({ rule_id: 'injection' }),
      finding({ rule_id: 'other-kind' }),
      finding({ rule_id: 'token', job: null }),
      finding({ rule_id: 'amplifier' }),
    ];
    await recordScan(t.db, user, scanOf(both!, findings));
    await recordScan(t.db, user, scanOf(half!, [finding({ rule_id: 'injection' }), finding({ rule_id: 'amplifier' })]));
    // `other-kind` has no `needs-this` beside it; `half` has no `token`: neither kind can fire there.
    expect(await attackPathInputs(t.db, user, catalog)).toEqual([[both!.id, both!.full_name, both!.html_url, [0, 2, 3].map((i) => compact(findings[i]!)), [], null]]);

    // A disabled rule fills no group: with `token` off in `both`, nothing there can combine.
    await setRuleOverride(t.db, user, both!.id, 'token', false);
    expect(await attackPathInputs(t.db, user, catalog)).toEqual([]);
  });

  test('is [] for a user with nothing scanned', async () => {
    const user = await t.createUser();
    await userWithRepositories(t.db, user, 2);
    expect(await attackPathInputs(t.db, user, catalogOf(['script-injection']))).toEqual([]);
  });

  test('one call serves 200 repositories x 50 findings with everything intact', async () => {
    const user = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, user, 200);
    const rules = Array.from({ length: 10 }, (_, i) => `rule-${i}`);
    for (const repo of repositories) {
      const findings = Array.from({ length: 50 }, (_, i) => finding({ rule_id: rules[i % 10]!, line: i + 1 }));
      await recordScan(t.db, user, scanOf(repo, findings));
    }
    await setRuleSetting(t.db, user, 'rule-0', false);
    const inputs = await attackPathInputs(t.db, user, catalogOf(rules.slice(0, 5), rules.slice(5)));
    expect(inputs).toHaveLength(200);
    expect(inputs.every((i) => i[3].length === 45)).toBe(true);
    expect(inputs.flatMap((i) => i[3]).some((f) => f[4] === 'rule-0')).toBe(false);
    expect(inputs[0]![3].map((f) => f[1])).toEqual(Array.from({ length: 50 }, (_, i) => i + 1).filter((line) => (line - 1) % 10 !== 0));
  });
});
