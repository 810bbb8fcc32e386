import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../scripts/recall.js';
import { readPipefort } from '../../../scripts/recall/pipefort.js';
import { readPoutine } from '../../../scripts/recall/poutine.js';
import { lexRust, snapshotCalls } from '../../../scripts/recall/rust.js';
import { score } from '../../../scripts/recall/score.js';
import { parseZizmorOutput, readZizmor, repositoryPath, translateIgnores } from '../../../scripts/recall/zizmor.js';

// Small checkouts written here in each peer's layout and test style (none of the peers' files).
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'recall-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
async function put(path: string, text: string) {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), text);
}

const INJECTABLE = 'on: issues\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.issue.title }}"\n';
const SAFE = 'on: issues\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "$TITLE"\n        env:\n          TITLE: ${{ github.event.issue.title }}\n';

describe('reading zizmor', () => {
  it('lexes raw strings, nested comments, chars and lifetimes, and finds each assert_snapshot with its attributes', () => {
    const calls = snapshotCalls(
      lexRust(`/* a /* nested */ comment */
#[test]
#[cfg_attr(not(feature = "gh-token-tests"), ignore)]
fn online<'a>() { let c = 'x'; insta::assert_snapshot!(zizmor().input(input_under_test("a.yml")).run()?, @r#"quote " inside"#); }
#[test]
fn stored() { insta::assert_snapshot!(zizmor().run()?); insta::assert_snapshot!(x, @"two\\n"); }`),
    );
    expect(calls.map((c) => [c.fn, c.ordinal, c.inline, c.attributes.length])).toEqual([
      ['online', 1, 'quote " inside', 2],
      ['stored', 1, null, 1],
      ['stored', 2, 'two\n', 1],
    ]);
  });

  it('reads findings and their locations from plain output', () => {
    expect(parseZizmorOutput('warning[template-injection]: code injection\n  --> @@INPUT@@:12:9\n   |\nhelp[x-y]: t\n --> @@INPUT@@/a/b.yml:3:1\nNo findings')).toEqual([
      { audit: 'template-injection', location: '@@INPUT@@', line: 12 },
      { audit: 'x-y', location: '@@INPUT@@/a/b.yml', line: 3 },
    ]);
    expect(repositoryPath('x/y/action.yml')).toBe('x/y/action.yml');
    expect(repositoryPath('a/dependabot.yaml')).toBe('.github/dependabot.yml');
    expect(repositoryPath('a/b.yml')).toBe('.github/workflows/b.yml');
    expect(translateIgnores('run: x # zizmor: ignore[template-injection, nope]', (a) => (a === 'template-injection' ? ['script-injection'] : []))).toBe(
      'run: x # chainbreaker: ignore[script-injection]',
    );
  });

  it('turns snapshots into cases: a finding fires, a run of the audit module without one is quiet, online runs are not compared', async () => {
    const base = 'crates/zizmor/tests/integration';
    await put(`${base}/test-data/ti/bad.yml`, INJECTABLE);
    await put(`${base}/test-data/ti/good.yml`, SAFE);
    await put(
      `${base}/audit/template_injection.rs`,
      `#[test]
fn bad() -> Result<()> {
    insta::assert_snapshot!(
        zizmor().input(input_under_test("ti/bad.yml")).args(["--persona=auditor"]).run()?,
        @"
    error[template-injection]: code injection via template expansion
      --> @@INPUT@@:6:22
    1 finding
    "
    );
    insta::assert_snapshot!(zizmor().input(input_under_test("ti/good.yml")).run()?, @"No findings to report. Good job!");
    Ok(())
}
#[test]
#[cfg_attr(not(feature = "gh-token-tests"), ignore)]
fn online() -> Result<()> {
    insta::assert_snapshot!(zizmor().input(input_under_test("ti/good.yml")).run()?, @"
    error[template-injection]: x
      --> @@INPUT@@:1:1
    ");
    Ok(())
}`,
    );
    const reading = await readZizmor(dir, (a) => (a === 'template-injection' ? ['script-injection'] : []));
    expect(reading.cases.map((c) => [c.check, c.fixture, c.expect, c.target])).toEqual([
      ['template-injection', 'ti/bad.yml', 'fires', '.github/workflows/bad.yml'],
      ['template-injection', 'ti/good.yml', 'clean', '.github/workflows/good.yml'],
    ]);
    expect(reading.unmeasured).toEqual([{ check: 'template-injection', fixture: 'ti/good.yml', where: 'audit/template_injection.rs:17', why: 'an online test (gh-token-tests)' }]);
    const s = score(reading, []);
    expect(s.totals).toMatchObject({ firesExpected: 1, caught: 1, cleanExpected: 1, quiet: 1 });
  });

  it('says in one line when the directory is not a zizmor checkout', async () => {
    await expect(readZizmor(dir, () => [])).rejects.toThrow(/not a checkout of zizmor: .*test-data is missing/);
  });
});

describe('reading Pipefort', () => {
  it('reads Check* functions, scan helpers and tables, with the rule each one reports', async () => {
    await put('pkg/scanner/catalog.go', 'package scanner\nconst (\n\tRuleInj RuleID = "cicd-sec-4-ppe-shell-injection"\n\tRuleGl RuleID = "cicd-sec-4-gl-shell-injection"\n)\n');
    await put('pkg/scanner/rules.go', 'package scanner\nfunc CheckPPE(file string, wf *WorkflowNode, jobs []JobNodeWithID) []Finding { return helper() }\nfunc helper() []Finding { return []Finding{{RuleID: RuleInj}} }\n');
    await put(
      'pkg/scanner/rules_test.go',
      `package scanner
func TestCheckPPE(t *testing.T) {
	bad := \`${INJECTABLE}\`
	t.Run("vulnerable", func(t *testing.T) {
		wf, jobs := parseTestWorkflow(t, bad)
		if findings := CheckPPE("test.yml", wf, jobs); len(findings) != 1 {
			t.Fatalf("x")
		}
	})
	for _, tc := range []struct{ name, yaml string }{{"safe", \`${SAFE}\`}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := scanWF(t, tc.yaml, RuleInj); len(got) != 0 {
				t.Errorf("y")
			}
		})
	}
	findings, _ := ScanBytes(".gitlab-ci.yml", []byte("job: {script: echo}"))
	wantRule(t, findings, RuleGl)
}`,
    );
    const reading = await readPipefort(dir);
    expect(reading.cases.map((c) => [c.check, c.fixture, c.expect])).toEqual([
      ['cicd-sec-4-ppe-shell-injection', 'TestCheckPPE/vulnerable', 'fires'],
      ['cicd-sec-4-ppe-shell-injection', 'TestCheckPPE/safe', 'clean'],
    ]);
    expect(reading.unmeasured.map((u) => [u.check, u.why])).toEqual([['cicd-sec-4-gl-shell-injection', 'a GitLab CI file: Chainbreaker scans GitHub Actions only']]);
    expect(score(reading, []).totals).toMatchObject({ firesExpected: 1, caught: 1, cleanExpected: 1, quiet: 1 });
  });

  it('counts a deliberate difference as a difference, and a difference we no longer need as stale', async () => {
    await put('pkg/scanner/catalog.go', 'package scanner\nconst RuleInj RuleID = "cicd-sec-4-ppe-shell-injection"\n');
    await put('pkg/scanner/rules.go', 'package scanner\nfunc CheckPPE(a, b, c int) []Finding { return []Finding{{RuleID: RuleInj}} }\n');
    await put(
      'pkg/scanner/rules_test.go',
      `package scanner
func TestA(t *testing.T) {
	if got := scanWF(t, \`${SAFE}\`, RuleInj); len(got) != 1 {
		t.Fatal()
	}
	if got := scanWF(t, \`${INJECTABLE}\`, RuleInj); len(got) != 1 {
		t.Fatal()
	}
}`,
    );
    const reading = await readPipefort(dir);
    const reason = 'the title reaches the script through an environment variable';
    const s = score(reading, [
      { peer: 'pipefort', check: 'cicd-sec-4-ppe-shell-injection', fixture: 'TestA', expect: 'fires', reason },
      { peer: 'pipefort', check: 'cicd-sec-4-ppe-shell-injection', fixture: 'TestA#2', expect: 'fires', reason },
      { peer: 'pipefort', check: 'cicd-sec-4-ppe-shell-injection', fixture: 'TestGone', expect: 'fires', reason },
    ]);
    expect(s.outcomes.map((o) => [o.case.fixture, o.result, o.stale])).toEqual([
      ['TestA', 'difference', false],
      ['TestA#2', 'caught', true],
    ]);
    expect(s.totals).toMatchObject({ firesExpected: 2, caught: 1, firesDifferences: 1 });
    expect(s.unmatchedDifferences.map((d) => d.fixture)).toEqual(['TestGone']);
    // A difference for every fixture of a check (`*`) covers each case that disagrees, and is never stale.
    const all = score(reading, [{ peer: 'pipefort', check: 'cicd-sec-4-ppe-shell-injection', fixture: '*', expect: 'fires', reason }]);
    expect(all.outcomes.map((o) => o.result)).toEqual(['difference', 'caught']);
    expect(all.staleDifferences).toEqual([]);
  });
});

describe('reading poutine', () => {
  it('reads the exact list a scan of the test data is compared with: listed pairs fire, other pairs stay quiet', async () => {
    await put('scanner/testdata/.github/workflows/bad.yml', INJECTABLE);
    await put('scanner/testdata/.github/workflows/good.yml', SAFE);
    await put('scanner/testdata/.gitlab-ci.yml', 'job: {script: echo}\n');
    await put(
      'scanner/inventory_test.go',
      `package scanner
func TestFindings(t *testing.T) {
	i := NewInventory(nil)
	scanned, _ := i.ScanPackage(context.Background(), *pkg, "testdata")
	results := scanned.FindingsResults
	findings := []results.Finding{
		{RuleId: "injection", Meta: results.FindingMeta{Path: ".github/workflows/bad.yml", Line: 6}},
		{RuleId: "injection", Meta: results.FindingMeta{Path: ".gitlab-ci.yml", Line: 1}},
	}
	assert.ElementsMatch(t, findings, results.Findings)
}`,
    );
    const reading = await readPoutine(dir);
    expect(reading.cases.map((c) => [c.check, c.fixture, c.expect])).toEqual([
      ['injection', '.github/workflows/bad.yml', 'fires'],
      ['injection', '.github/workflows/good.yml', 'clean'],
    ]);
    expect(reading.unmeasured.map((u) => u.fixture)).toEqual(['.gitlab-ci.yml']);
    expect(score(reading, []).totals).toMatchObject({ caught: 1, quiet: 1 });
  });
});

describe('npm run recall', () => {
  it('prints the table, then the misses with what we report instead', async () => {
    await put('scanner/testdata/.github/workflows/good.yml', SAFE);
    await put(
      'scanner/inventory_test.go',
      `package scanner
func TestFindings(t *testing.T) {
	scanned, _ := i.ScanPackage(ctx, *pkg, "testdata")
	assert.ElementsMatch(t, []results.Finding{{RuleId: "injection", Meta: results.FindingMeta{Path: ".github/workflows/good.yml"}}}, scanned.FindingsResults.Findings)
}`,
    );
    const lines: string[] = [];
    expect(await main(['poutine', dir], (l) => lines.push(l))).toBe(0);
    const text = lines.join('\n');
    expect(text).toMatch(/^injection +script-injection +0\/1 +0%/m);
    expect(text).toContain('misses: the peer expects a finding, none of our mapped rules reports the file (1):\n  injection  .github/workflows/good.yml');
    expect(text).toMatch(/we report: .*missing-permissions/);
  });

  it('exits 2 with one line on bad input', async () => {
    const errors: string[] = [];
    expect(await main(['nobody', dir], () => {}, (l) => errors.push(l))).toBe(2);
    expect(await main(['zizmor'], () => {}, (l) => errors.push(l))).toBe(2);
    expect(await main(['pipefort', join(dir, 'missing')], () => {}, (l) => errors.push(l))).toBe(2);
    expect(errors).toEqual([
      'unknown peer "nobody": one of zizmor, pipefort, poutine',
      expect.stringMatching(/^usage: npm run recall -- <zizmor\|pipefort\|poutine>/),
      expect.stringMatching(/is not a checkout of Pipefort: pkg\/scanner\/ is missing/),
    ]);
  });
});
