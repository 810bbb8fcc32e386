/* eslint-disable no-control-regex -- the hostile-output test matches control characters on purpose */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BROKEN, CLEAN, NO_TIMEOUT, cleanup, only, tempDir } from './support.js';

/*
 * Issue 15's CLI features, run as users run them: the built bundle (dist/, built by the suite's global
 * setup) in a child process.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'dist', 'chainbreaker.js');

function run(args: string[], options: { cwd?: string; input?: string; env?: Record<string, string> } = {}) {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  delete env.FORCE_COLOR;
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, encoding: 'utf8', env, input: options.input ?? '', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface Json {
  findings: { file: string; line: number; rule_id: string; severity: string }[];
  counts: Record<string, number>;
}
const json = (r: { stdout: string }) => JSON.parse(r.stdout) as Json;

/** Two jobs without timeouts on a larger runner: `missing-timeout` fires on lines 5 and 9, LOW (INFO on a standard hosted runner). */
const TWO_JOBS = `on: push
permissions:
  contents: read
jobs:
  build:
    runs-on: ubuntu-latest-8-cores
    steps:
      - run: make
  test:
    runs-on: ubuntu-latest-8-cores
    steps:
      - run: make test
`;

afterAll(cleanup);

describe('configuration file', () => {
  it('turns rules off and changes severities; flags win over the file', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': TWO_JOBS, '.chainbreaker.yml': 'rules:\n  missing-timeout:\n    severity: high\nfail-on: low\n' });
    const high = run(['scan', repo, '--format', 'json', ...only('missing-timeout', 'unpinned-action')]);
    expect(json(high).findings.map((f) => f.severity)).toEqual(['HIGH', 'HIGH']);
    expect(high.code).toBe(1);
    expect(run(['scan', repo, '--format', 'json', '--fail-on', 'none', ...only('missing-timeout')]).code).toBe(0);
    writeFileSync(join(repo, '.chainbreaker.yml'), 'rules:\n  missing-timeout: { enabled: false }\n');
    expect(json(run(['scan', repo, '--format', 'json', ...only('missing-timeout')])).findings).toEqual([]);
  });

  it('ignores files matching its globs', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT, '.github/workflows/experimental-x.yml': NO_TIMEOUT, '.chainbreaker.yml': 'ignore:\n  - .github/workflows/experimental-*.yml\n' });
    expect(json(run(['scan', repo, '--format', 'json', ...only('missing-timeout')])).findings.map((f) => f.file)).toEqual(['.github/workflows/ci.yml']);
  });

  it('reports unknown keys and rule ids with a suggestion, in one line, exit 2', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': CLEAN, '.chainbreaker.yml': 'fail_on: low\n' });
    const key = run(['scan', repo]);
    expect(key.code).toBe(2);
    expect(key.stderr.trim().split('\n')).toHaveLength(1);
    expect(key.stderr).toMatch(/\.chainbreaker\.yml: unknown key "fail_on" \(did you mean "fail-on"\?\)/);
    writeFileSync(join(repo, '.chainbreaker.yml'), 'rules:\n  unpined-action: { enabled: false }\n');
    expect(run(['scan', repo]).stderr).toContain('rules: unknown rule id "unpined-action" (did you mean "unpinned-action"?)');
    writeFileSync(join(repo, '.chainbreaker.yml'), 'rules:\n  unpinned-action: { severity: critical }\n');
    expect(run(['scan', repo]).stderr).toContain('rules.unpinned-action.severity: must be one of high, medium, low, info');
    writeFileSync(join(repo, '.chainbreaker.yml'), 'rules: [\n');
    const yaml = run(['scan', repo]);
    expect(yaml.code).toBe(2);
    expect(yaml.stderr).toContain('not valid YAML');
    expect(yaml.stderr).not.toMatch(/\n\s+at /);
  });

  it('--config names another file; a missing one is an error', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT, 'team.yml': 'min-severity: medium\n' });
    expect(json(run(['scan', repo, '--config', join(repo, 'team.yml'), '--format', 'json', ...only('missing-timeout')])).findings).toEqual([]);
    const missing = run(['scan', repo, '--config', join(repo, 'nope.yml')]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('cannot read config');
  });
});

describe('baseline', () => {
  it('gates only on new findings; line shifts and renames of unrelated jobs are not new', () => {
    const withTimeout = TWO_JOBS.replace('  test:\n    runs-on: ubuntu-latest-8-cores\n', '  test:\n    runs-on: ubuntu-latest-8-cores\n    timeout-minutes: 5\n');
    const repo = tempDir({ '.github/workflows/ci.yml': TWO_JOBS, '.github/workflows/other.yml': withTimeout });
    const baselineFile = join(repo, '.chainbreaker-baseline.json');
    const made = run(['baseline', repo, '-o', baselineFile, ...only('missing-timeout')]);
    expect(made.code).toBe(0);
    expect(made.stderr).toContain('recorded 3 findings');
    const recorded = JSON.parse(readFileSync(baselineFile, 'utf8')) as { version: number; findings: { fingerprint: string }[] };
    expect(recorded.version).toBe(1);
    expect(recorded.findings).toHaveLength(3);

    const scan = () => run(['scan', repo, '--baseline', baselineFile, '--fail-on', 'low', ...only('missing-timeout')]);
    expect(scan().code).toBe(0);
    expect(scan().stdout).toContain('Not shown: 3 in the baseline.');
    // Lines inserted above the findings, and a job without a finding renamed: nothing new.
    writeFileSync(join(repo, '.github/workflows/ci.yml'), `# CI\n# for every push\n${TWO_JOBS}`);
    writeFileSync(join(repo, '.github/workflows/other.yml'), withTimeout.replace('  test:', '  unit-tests:'));
    expect(scan().stdout).toContain('No findings. Not shown: 3 in the baseline.');
    expect(scan().code).toBe(0);
    writeFileSync(join(repo, '.github/workflows/ci.yml'), TWO_JOBS);
    // A new job without a timeout is new.
    writeFileSync(join(repo, '.github/workflows/ci.yml'), `${TWO_JOBS}  lint:\n    runs-on: ubuntu-latest-8-cores\n    steps:\n      - run: make lint\n`);
    const fresh = run(['scan', repo, '--baseline', baselineFile, '--fail-on', 'low', '--format', 'json', ...only('missing-timeout')]);
    expect(fresh.code).toBe(1);
    expect(json(fresh).findings.map((f) => f.line)).toEqual([13]);
  });

  it('a missing or malformed baseline is a one-line error', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': CLEAN, 'bad.json': '{"version":2}' });
    const missing = run(['scan', repo, '--baseline', join(repo, 'none.json')]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('cannot read baseline');
    const bad = run(['scan', repo, '--baseline', join(repo, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('targets', () => {
  it('scans a single workflow file, reported under the path given', () => {
    const repo = tempDir({ 'ci.yml': NO_TIMEOUT });
    const r = run(['scan', 'ci.yml', '--format', 'json', '--fail-on', 'low', ...only('missing-timeout')], { cwd: repo });
    expect(r.code).toBe(1);
    expect(json(r).findings.map((f) => `${f.file}:${f.line}`)).toEqual(['ci.yml:5']);
  });

  it('reads one workflow from standard input with -', () => {
    const r = run(['scan', '-', '--format', 'json', ...only('missing-timeout')], { input: NO_TIMEOUT });
    expect(r.code).toBe(0);
    expect(json(r).findings.map((f) => `${f.file}:${f.line} ${f.rule_id}`)).toEqual(['<stdin>:5 missing-timeout']);
    expect(json(run(['scan', '-', '--format', 'json', '--keep-going'], { input: BROKEN })).findings.map((f) => f.rule_id)).toContain('invalid-workflow');
    expect(run(['scan', '-'], { input: BROKEN }).code).toBe(3);
  });
});

describe('output', () => {
  it('--min-severity hides lower findings and says so', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT });
    const r = run(['scan', repo, '--min-severity', 'medium', ...only('missing-timeout')]);
    expect(r.stdout).not.toContain('[missing-timeout]');
    expect(r.stdout).toContain('Not shown: 1 below --min-severity.');
  });

  it('text counts LOW findings in one line; --verbose lists them with the fix and where the docs are', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT });
    const r = run(['scan', repo, ...only('missing-timeout')]);
    expect(r.stdout).toMatch(/^LOW +1: missing-timeout 1\n/m);
    expect(r.stdout).toContain('1 finding (0 high, 0 medium, 1 low, 0 info). LOW findings are counted above;\n--verbose lists them.\n');
    const verbose = run(['scan', repo, '--verbose', ...only('missing-timeout')]);
    expect(verbose.stdout).toMatch(/^missing-timeout \(1\): .+\n {2}- \.github\/workflows\/ci\.yml:\d+: .+\n(?: {4}.+\n)* {2}Fix: .+\n(?: {4}.+\n)* {2}Docs: chainbreaker rules missing-timeout\n/m);
  });

  it('rules <id> prints the documentation; a typo gets a suggestion', () => {
    const doc = run(['rules', 'missing-timeout']);
    expect(doc.code).toBe(0);
    expect(doc.stdout).toBe(readFileSync(join(ROOT, 'lib/engine/rules/missing-timeout.md'), 'utf8'));
    const typo = run(['rules', 'missing-timout']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean "missing-timeout"?');
  });

  it('counts suppressed findings, reports unused suppressions, rejects unknown rule ids in them', () => {
    const suppressed = NO_TIMEOUT.replace('  build:', '  build: # chainbreaker: ignore[missing-timeout]').replace('      - run: make', '      - run: make # chainbreaker: ignore[missing-timeout]');
    const repo = tempDir({ '.github/workflows/ci.yml': suppressed });
    const r = run(['scan', repo, ...only('missing-timeout')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Unused suppression comment:\n  .github/workflows/ci.yml:8 ignore[missing-timeout] (matched no finding)');
    expect(r.stdout).toContain('Not shown: 1 suppressed.');
    expect(run(['scan', repo, '--format', 'json', ...only('missing-timeout')]).stderr).toContain('.github/workflows/ci.yml:8: suppression comment ignore[missing-timeout] matched no finding');
    writeFileSync(join(repo, '.github/workflows/ci.yml'), NO_TIMEOUT.replace('  build:', '  build: # chainbreaker: ignore[missing-timout]'));
    const typo = run(['scan', repo]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('.github/workflows/ci.yml:5: the suppression comment names unknown rule "missing-timout" (did you mean "missing-timeout"?)');
  });

  it('neutralizes a hostile job id in text and github output; JSON stays exact', () => {
    const evil = 'x\x1b]0;pwn\x07\x1b[2J';
    const hostile = NO_TIMEOUT.replace('  build:', `  "${evil.replace(/\x1b/g, '\\e').replace(/\x07/g, '\\a')}\\r\\n::error::injected":`);
    const repo = tempDir({ '.github/workflows/ci.yml': hostile });
    for (const format of ['text', 'github']) {
      const out = run(['scan', repo, '--format', format, ...only('missing-timeout')]).stdout;
      expect(out, format).toContain('missing-timeout');
      expect(out, format).not.toMatch(/[\x07\x1b\r]/);
      expect(out.split('\n').filter((l) => l.startsWith('::')).every((l) => /^::(error|warning|notice) /.test(l)), format).toBe(true);
    }
    const exact = json(run(['scan', repo, '--format', 'json', ...only('missing-timeout')]));
    expect(JSON.stringify(exact)).toContain('\\u001b');
  });

  it('--settings rejects an unknown snapshot key with a suggestion', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': CLEAN, 'settings.json': '{"branch_protections": null}' });
    const r = run(['scan', repo, '--settings', join(repo, 'settings.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown key "branch_protections" (did you mean "branch_protection"?)');
  });
});

describe('the GitHub Action entry', () => {
  it('runs text, annotations and SARIF from its inputs and sets exit-code', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT });
    const outputFile = join(repo, 'out.txt');
    writeFileSync(outputFile, '');
    const result = spawnSync(process.execPath, [join(ROOT, 'dist', 'action.js')], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, GITHUB_WORKSPACE: repo, GITHUB_OUTPUT: outputFile, INPUT_PATHS: '.', 'INPUT_FAIL-ON': 'low', INPUT_SARIF: 'out.sarif', 'INPUT_MIN-SEVERITY': 'low' },
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('[missing-timeout]');
    expect(result.stdout).toMatch(/^::notice file=\.github\/workflows\/ci\.yml,line=5/m);
    expect((JSON.parse(readFileSync(join(repo, 'out.sarif'), 'utf8')) as { version: string }).version).toBe('2.1.0');
    expect(readFileSync(outputFile, 'utf8')).toBe('exit-code=1\n');
  });
});
