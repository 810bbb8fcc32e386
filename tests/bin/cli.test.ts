import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main } from '../../bin/cli.js';
import { CATALOG } from '../../lib/engine/catalog.js';
import { COMBINATION_KINDS } from '../../lib/engine/combinations/index.js';
import type { Finding } from '../../lib/engine/types.js';
import { sarifValidator } from '../support/sarif.js';
import { BROKEN, CLEAN, NO_TIMEOUT, cleanup, only, tempDir } from './support.js';

const EXAMPLES = join(import.meta.dirname, '../../examples');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: string[], options: { cwd?: string; env?: Record<string, string>; tty?: boolean } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main({
    argv,
    stdout: { write: (text: string) => (stdout += text), isTTY: options.tty ?? false },
    stderr: { write: (text: string) => (stderr += text) },
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
  });
  return { code, stdout, stderr };
}

interface JsonReport {
  findings: Finding[];
  counts: Record<string, number>;
  combinations: { id: string; file: string; components: { rule_id: string; finding: Finding }[] }[];
}

const json = (r: Run) => JSON.parse(r.stdout) as JsonReport;
const workflow = (text: string) => ({ '.github/workflows/ci.yml': text });

afterAll(cleanup);

describe('chainbreaker (no command), --help, --version', () => {
  it('--help prints the commands and every exit code', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(EXIT.ok);
    for (const text of ['scan [path ...]', 'baseline [path ...]', 'rules [rule-id]', 'rules', 'combinations', 'Exit codes:', '  0  ', '  1  ', '  2  ', '  3  ']) expect(r.stdout).toContain(text);
  });

  it('scan --help documents the options and exit codes', async () => {
    const r = await run(['scan', '--help']);
    expect(r.code).toBe(EXIT.ok);
    for (const option of ['--format', '--ruleset', '--disable', '--fail-on', '--output', '--settings', 'chainbreaker: ignore', 'Exit codes:']) expect(r.stdout).toContain(option);
  });

  it('without a command, prints the help on stderr and exits 2', async () => {
    const r = await run([]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('Usage: chainbreaker');
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });
});

describe('usage errors exit 2', () => {
  const cases: [string, string[], string][] = [
    ['an unknown command', ['lint'], 'unknown command "lint"'],
    ['an option before the command', ['--format', 'json', 'scan'], 'a command must come first'],
    ['an unknown option', ['scan', '--colour'], 'unknown option --colour'],
    ['an unknown format', ['scan', '--format', 'xml'], '--format must be one of text, json, sarif, github (got "xml")'],
    ['an unknown ruleset', ['scan', '--ruleset', 'nist'], '--ruleset must be one of all, owasp'],
    ['an unknown threshold', ['scan', '--fail-on', 'severe'], '--fail-on must be one of critical, high, medium, low, info, none'],
    ['an unknown rule id', ['scan', '--disable', 'missing-timeout,no-such-rule'], '--disable: unknown rule id no-such-rule'],
    ['a missing option value', ['scan', '--output'], '--output needs a value'],
    ['a rules format the command lacks', ['rules', '--format', 'sarif'], '--format must be one of text, json'],
    ['an unknown rule id to rules', ['rules', 'missing-timout'], 'unknown rule id "missing-timout" (did you mean "missing-timeout"?)'],
    ['a typo in an option', ['scan', '--min-severty', 'low'], 'did you mean "--min-severity"?'],
    ['a typo in --disable', ['scan', '--disable', 'unpined-action'], 'unknown rule id unpined-action (did you mean "unpinned-action"?)'],
    ['an unknown --min-severity', ['scan', '--min-severity', 'critical'], '--min-severity must be one of high, medium, low, info'],
  ];
  for (const [what, argv, message] of cases) {
    it(what, async () => {
      const r = await run(argv);
      expect(r.code).toBe(EXIT.usage);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain('chainbreaker --help');
      expect(r.stdout).toBe('');
    });
  }

  it('more --settings files than repositories', async () => {
    const repo = tempDir(workflow(CLEAN));
    const r = await run(['scan', repo, '--settings', 'a.json', '--settings', 'b.json']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('give one snapshot per repository');
  });
});

describe('operational errors exit 3', () => {
  it('a repository path that does not exist', async () => {
    const r = await run(['scan', 'no/such/dir', '--format', 'json'], { cwd: tempDir() });
    expect(r.code).toBe(EXIT.operational);
    expect(r.stderr).toBe('chainbreaker: cannot read no/such/dir: no such file or directory\n');
    expect(r.stdout).toBe('');
  });

  it('a path that is a file but not YAML is a usage error', async () => {
    const root = tempDir({ 'file.txt': 'x' });
    const r = await run(['scan', 'file.txt'], { cwd: root });
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('file.txt is neither a directory nor a workflow or action file (.yml or .yaml)');
  });

  it('a settings file that is missing, not JSON, or not an object', async () => {
    const root = tempDir({ ...workflow(CLEAN), 'bad.json': '{ nope', 'list.json': '[]' });
    expect((await run(['scan', '.', '--settings', 'missing.json'], { cwd: root })).stderr).toContain('cannot read settings snapshot missing.json: no such file or directory');
    const notJson = await run(['scan', '.', '--settings', 'bad.json'], { cwd: root });
    expect(notJson.code).toBe(EXIT.operational);
    expect(notJson.stderr).toContain('settings snapshot bad.json is not valid JSON');
    const list = await run(['scan', '.', '--settings', 'list.json'], { cwd: root });
    expect(list.code).toBe(EXIT.operational);
    expect(list.stderr).toContain('must be a JSON object');
  });

  it('an output file that cannot be written', async () => {
    const root = tempDir(workflow(CLEAN));
    const r = await run(['scan', '.', '--output', 'missing-dir/report.json'], { cwd: root });
    expect(r.code).toBe(EXIT.operational);
    expect(r.stderr).toContain('cannot write missing-dir/report.json');
  });
});

describe('scan', () => {
  it('scans the current directory by default; a clean repository exits 0', async () => {
    const r = await run(['scan', '--format', 'json'], { cwd: tempDir(workflow(CLEAN)) });
    expect(r.code).toBe(EXIT.ok);
    expect(json(r)).toEqual({ findings: [], counts: { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 }, suppressed: 0, combinations: [] });
  });

  it('reports findings in the public shape, file relative to the repository root', async () => {
    const r = await run(['scan', '.', '--format', 'json', ...only('missing-timeout')], { cwd: tempDir(workflow(NO_TIMEOUT)) });
    const { findings, counts } = json(r);
    expect(findings).toEqual([expect.objectContaining({ file: '.github/workflows/ci.yml', line: 5, column: 3, severity: 'LOW', rule_id: 'missing-timeout' })]);
    expect(Object.keys(findings[0] ?? {})).toEqual(['file', 'line', 'column', 'severity', 'category', 'rule_id', 'title', 'description', 'recommendation', 'fingerprint']);
    expect(counts).toEqual({ HIGH: 0, MEDIUM: 0, LOW: 1, INFO: 0 });
  });

  describe('--fail-on', () => {
    const cases: [string, string, number][] = [
      [NO_TIMEOUT, 'high', EXIT.ok],
      [NO_TIMEOUT, 'medium', EXIT.ok],
      [NO_TIMEOUT, 'low', EXIT.findings],
      [NO_TIMEOUT, 'info', EXIT.findings],
      [NO_TIMEOUT, 'none', EXIT.ok],
      [BROKEN, 'low', EXIT.ok],
      [BROKEN, 'info', EXIT.findings],
      [BROKEN, 'INFO', EXIT.findings],
    ];
    for (const [text, level, code] of cases) {
      it(`${text === BROKEN ? 'invalid-workflow (INFO)' : 'missing-timeout (LOW)'} with --fail-on ${level} exits ${code}`, async () => {
        const root = tempDir(workflow(text));
        expect((await run(['scan', root, '--fail-on', level, ...only('missing-timeout', 'invalid-workflow')])).code).toBe(code);
      });
    }

    it('defaults to high', async () => {
      expect((await run(['scan', tempDir(workflow(NO_TIMEOUT)), ...only('missing-timeout')])).code).toBe(EXIT.ok);
    });
  });

  it('--disable turns rules off, comma-separated or repeated', async () => {
    const root = tempDir(workflow(NO_TIMEOUT));
    const enabled = await run(['scan', root, '--format', 'json', ...only('missing-timeout', 'invalid-workflow')]);
    expect(json(enabled).findings.map((f) => f.rule_id)).toEqual(['missing-timeout']);
    const off = await run(['scan', root, '--format', 'json', ...only('missing-timeout', 'invalid-workflow'), '--disable', 'invalid-workflow, missing-timeout']);
    expect(json(off).findings).toEqual([]);
  });

  it('--ruleset owasp keeps only the CICD-SEC rules', async () => {
    const root = tempDir(workflow(NO_TIMEOUT));
    const owasp = await run(['scan', root, '--format', 'json', '--ruleset', 'owasp']);
    expect(json(owasp).findings.every((f) => f.category.startsWith('CICD-SEC-'))).toBe(true);
    expect(json(owasp).findings.map((f) => f.rule_id)).not.toContain('missing-timeout');
  });

  it('prefixes files with the repository path as given when several are scanned', async () => {
    const parent = tempDir({ 'one/.github/workflows/ci.yml': NO_TIMEOUT, 'two/.github/workflows/ci.yml': BROKEN });
    const r = await run(['scan', 'one', './two/', '--format', 'json', ...only('missing-timeout', 'invalid-workflow')], { cwd: parent });
    expect(json(r).findings.map((f) => `${f.file} ${f.rule_id}`)).toEqual(['one/.github/workflows/ci.yml missing-timeout', './two/.github/workflows/ci.yml invalid-workflow']);
    expect(json(r).counts).toEqual({ HIGH: 0, MEDIUM: 0, LOW: 1, INFO: 1 });
    const absolute = await run(['scan', join(parent, 'one'), '--format', 'json', ...only('missing-timeout')]);
    expect(json(absolute).findings[0]?.file).toBe('.github/workflows/ci.yml');
  });

  it('warns on stderr when a repository has no file to scan', async () => {
    const r = await run(['scan', '.'], { cwd: tempDir({ 'README.md': '# hi' }) });
    expect(r.code).toBe(EXIT.ok);
    expect(r.stderr).toBe('chainbreaker: no workflow, action or Dependabot file found in .\n');
    expect(r.stdout).toBe('No findings.\nExit 0: no attack path or finding at or above --fail-on high.\n');
  });

  it('--output writes the report to a file and nothing to stdout', async () => {
    const root = tempDir(workflow(NO_TIMEOUT));
    const r = await run(['scan', '.', '-o', 'report.sarif', '--format', 'sarif', '--fail-on', 'low', ...only('missing-timeout')], { cwd: root, tty: true });
    expect(r).toEqual({ code: EXIT.findings, stdout: '', stderr: '' });
    const sarif = JSON.parse(readFileSync(join(root, 'report.sarif'), 'utf8')) as { version: string; runs: { results: unknown[] }[] };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]?.results).toHaveLength(1);
  });

  it('honours inline suppressions', async () => {
    const suppressed = NO_TIMEOUT.replace('  build:', '  build: # chainbreaker: ignore[missing-timeout]');
    const r = await run(['scan', tempDir(workflow(suppressed)), '--format', 'json', ...only('missing-timeout')]);
    expect(json(r).findings).toEqual([]);
  });

  describe('text colours', () => {
    const argv = () => ['scan', tempDir(workflow(NO_TIMEOUT)), ...only('missing-timeout')];
    it('on for a terminal', async () => expect((await run(argv(), { tty: true })).stdout).toContain('\x1b['));
    it('off when not a terminal', async () => expect((await run(argv(), { tty: false })).stdout).not.toContain('\x1b['));
    it('off with NO_COLOR', async () => expect((await run(argv(), { tty: true, env: { NO_COLOR: '1' } })).stdout).not.toContain('\x1b['));
    it('on with FORCE_COLOR', async () => expect((await run(argv(), { tty: false, env: { FORCE_COLOR: '1' } })).stdout).toContain('\x1b['));
  });

  it('github format writes annotations', async () => {
    const r = await run(['scan', tempDir(workflow(NO_TIMEOUT)), '--format', 'github', ...only('missing-timeout')]);
    expect(r.stdout).toMatch(/^::notice file=\.github\/workflows\/ci\.yml,line=5,col=3,title=Job has no timeout \[missing-timeout\]::/);
  });

  describe('--settings', () => {
    const snapshot = {
      repository: { private: false, visibility: 'public', default_branch: 'main' },
      branch_protection: {
        required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true, require_code_owner_reviews: false },
        enforce_admins: { enabled: true },
        allow_force_pushes: { enabled: false },
        allow_deletions: { enabled: false },
        required_status_checks: { strict: true, contexts: ['ci'] },
        required_signatures: { enabled: true },
      },
      branch_rules: [],
      workflow_permissions: { default_workflow_permissions: 'read', can_approve_pull_request_reviews: true },
    };

    it('adds settings findings and the attack paths they complete; attack paths never change the exit code', async () => {
      const root = tempDir({ ...workflow(CLEAN), 'settings.json': JSON.stringify(snapshot) });
      const argv = ['scan', '.', '--settings', 'settings.json', '--format', 'json', ...only('actions-can-approve-prs', 'review-count-low')];
      const r = await run([...argv, '--fail-on', 'high'], { cwd: root });
      const report = json(r);
      expect(report.findings.map((f) => `${f.file}:${f.line} ${f.rule_id}`)).toEqual(['<repository settings>:0 actions-can-approve-prs', '<repository settings>:0 review-count-low']);
      expect(report.combinations.map((c) => `${c.id} ${c.file}`)).toEqual(['review-bypass <repository settings>']);
      expect(r.code).toBe(EXIT.findings);
      // Without the HIGH rule, no combination forms and the MEDIUM finding stays under the threshold.
      const medium = await run(['scan', '.', '--settings', 'settings.json', '--format', 'json', ...only('review-count-low')], { cwd: root });
      expect(json(medium).combinations).toEqual([]);
      expect(medium.code).toBe(EXIT.ok);
    });

    it('pairs one snapshot per repository, in order, when several are scanned', async () => {
      const parent = tempDir({ 'a/.github/workflows/ci.yml': CLEAN, 'b/.github/workflows/ci.yml': CLEAN, 'a.json': JSON.stringify(snapshot), 'b.json': '{}' });
      const r = await run(['scan', 'a', 'b', '--settings', 'a.json', '--settings', 'b.json', '--format', 'json', ...only('actions-can-approve-prs', 'review-count-low')], { cwd: parent });
      expect(r.code).toBe(EXIT.findings);
      const report = json(r);
      expect(report.findings.map((f) => f.file)).toEqual(['a/<repository settings>', 'a/<repository settings>']);
      expect(report.combinations.map((c) => `${c.id} ${c.file}`)).toEqual(['review-bypass a/<repository settings>']);
      expect(report.combinations[0]?.components.map((c) => c.finding.file)).toEqual(['a/<repository settings>', 'a/<repository settings>']);
    });
  });
});

describe('sarif of a real scan', () => {
  it('validates against the SARIF 2.1.0 schema with every rule enabled, settings and several repositories', async () => {
    const risky = `on:
  pull_request_target:
  issues:
jobs:
  test:
    runs-on: [self-hosted, linux]
    steps:
      - uses: actions/checkout@v4
        with:
          ref: \${{ github.event.pull_request.head.sha }}
      - run: npm ci && npm test
      - run: echo "\${{ github.event.issue.title }}" && curl -sSL https://example.com/install.sh | bash
      - uses: some-org/deploy@v1
        with:
          token: \${{ secrets.DEPLOY_PAT }}
`;
    const parent = tempDir({
      'one/.github/workflows/pr.yml': risky,
      'one/.github/workflows/broken.yml': BROKEN,
      'two/.github/workflows/ci.yml': NO_TIMEOUT,
      'one.json': JSON.stringify({ workflow_permissions: { default_workflow_permissions: 'write', can_approve_pull_request_reviews: true } }),
      'two.json': '{}',
    });
    const r = await run(['scan', 'one', 'two', '--settings', 'one.json', '--settings', 'two.json', '--format', 'sarif'], { cwd: parent });
    expect(r.stderr).toBe('');
    const validate = sarifValidator();
    const sarif = JSON.parse(r.stdout) as { runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; ruleIndex: number }[] }[] };
    expect(validate(sarif), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const run0 = sarif.runs[0];
    expect(run0?.results.length).toBeGreaterThan(0);
    for (const result of run0?.results ?? []) expect(run0?.tool.driver.rules[result.ruleIndex]?.id).toBe(result.ruleId);
  });
});

describe('hygiene (pedantic) rules: on by default, as in the service', () => {
  // No `name:` on the workflow or the job: anonymous-definition (pedantic, INFO); a secret in a job without an
  // environment: secrets-outside-env (pedantic).
  const ANONYMOUS = `on: push
permissions:
  contents: read
jobs:
  build:
    runs-on: ubuntu-latest
    timeout-minutes: 10
    steps:
      - run: make
        env:
          TOKEN: \${{ secrets.DEPLOY_TOKEN }}
`;
  const rules = (r: Run) => [...new Set(json(r).findings.map((f) => f.rule_id))].filter((id) => id === 'anonymous-definition' || id === 'secrets-outside-env').sort();

  it('runs them by default; --disable and the config turn them off', async () => {
    const cwd = tempDir(workflow(ANONYMOUS));
    expect(rules(await run(['scan', '--format', 'json'], { cwd }))).toEqual(['anonymous-definition', 'secrets-outside-env']);
    expect(rules(await run(['scan', '--format', 'json', '--disable', 'anonymous-definition'], { cwd }))).toEqual(['secrets-outside-env']);
    const off = tempDir({ ...workflow(ANONYMOUS), '.chainbreaker.yml': 'rules:\n  secrets-outside-env:\n    enabled: false\n' });
    expect(rules(await run(['scan', '--format', 'json'], { cwd: off }))).toEqual(['anonymous-definition']);
  });

  it('says why --pedantic and pedantic: are gone', async () => {
    const cwd = tempDir(workflow(ANONYMOUS));
    const flag = await run(['scan', '--pedantic'], { cwd });
    expect(flag.code).toBe(EXIT.usage);
    expect(flag.stderr).toContain('--pedantic is no longer needed: every rule runs by default');
    const config = await run(['scan'], { cwd: tempDir({ ...workflow(ANONYMOUS), '.chainbreaker.yml': 'pedantic: true\n' }) });
    expect(config.code).toBe(EXIT.usage);
    expect(config.stderr).toContain('.chainbreaker.yml: pedantic: no longer needed');
  });

  it('the text report counts their INFO findings in one line instead of listing them', async () => {
    const cwd = tempDir(workflow(ANONYMOUS));
    const text = (await run(['scan'], { cwd })).stdout;
    expect(text).toMatch(/^INFO +3: anonymous-definition 2, secrets-outside-env 1$/m);
    expect(text).not.toContain("anonymous-definition (2):");
    expect((await run(["scan", "--verbose"], { cwd })).stdout).toContain("anonymous-definition (2):");
  });
});

describe('rules', () => {
  it('--format json is { rules } with the fields of GET /api/rules', async () => {
    const r = await run(['rules', '--format', 'json']);
    expect(r.code).toBe(EXIT.ok);
    const { rules } = JSON.parse(r.stdout) as { rules: Record<string, unknown>[] };
    expect(rules).toEqual(CATALOG);
    expect(Object.keys(rules[0] ?? {})).toEqual(['id', 'category', 'title', 'default_severity', 'surface', 'description', 'doc_url']);
    // The hygiene rules carry the flag, and only they.
    expect(rules.filter((rule) => rule.pedantic === true).map((rule) => rule.id).sort()).toEqual(['anonymous-definition', 'secrets-outside-env', 'self-repository', 'undocumented-permissions']);
    expect(rules.every((rule) => rule.pedantic === undefined || rule.pedantic === true)).toBe(true);
  });

  it('text lists every rule', async () => {
    const r = await run(['rules']);
    for (const rule of CATALOG) expect(r.stdout).toContain(rule.id);
    expect(r.stdout).toContain(`${CATALOG.length} rules.`);
  });
});

describe('combinations', () => {
  it('--format json lists the catalog of kinds', async () => {
    const r = await run(['combinations', '--format', 'json']);
    expect(r.code).toBe(EXIT.ok);
    expect(JSON.parse(r.stdout)).toEqual({ kinds: JSON.parse(JSON.stringify(COMBINATION_KINDS)), cannot_fire: [] });
  });

  it('marks the kinds that cannot fire with rules disabled', async () => {
    const r = await run(['combinations', '--format', 'json', '--disable', 'script-injection']);
    expect((JSON.parse(r.stdout) as { cannot_fire: string[] }).cannot_fire).toEqual(['injection-secret-exfiltration', 'injection-token-theft']);
    const text = await run(['combinations', '--disable', 'untrusted-checkout']);
    expect(text.stdout).toMatch(/pwn-request {2}CRITICAL {2}file scope {2}\(cannot fire/);
    expect(text.stdout).toContain('21 kinds of attack path, 1 of which cannot fire');
  });

  it('text lists every kind with what it requires and the rule that breaks it', async () => {
    const r = await run(['combinations']);
    for (const kind of COMBINATION_KINDS) expect(r.stdout).toContain(`${kind.id}  ${kind.severity}`);
    expect(r.stdout).toContain(
      "requires:   self-hosted-runner (job on a definite self-hosted runner that runs a fork pull request's code) AND (fork-pr-approval-weak | self-hosted-runner-public-repo)",
    );
  });
});

describe('output file content matches stdout', () => {
  it('for json', async () => {
    const root = tempDir(workflow(NO_TIMEOUT));
    const toStdout = await run(['scan', '.', '--format', 'json', ...only('missing-timeout')], { cwd: root });
    await run(['scan', '.', '--format', 'json', '--output', 'out.json', ...only('missing-timeout')], { cwd: root });
    expect(readFileSync(join(root, 'out.json'), 'utf8')).toBe(toStdout.stdout);
  });
});

describe('scan: the repository owner from the checkout origin remote', () => {
  // The job holds a write scope: a third party's mutable action there is MEDIUM (in a job holding nothing, LOW).
  const ACTION_WORKFLOW = `on: push
permissions:
  contents: write
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: acme/tools/setup@main
`;

  it('rates an action of the origin remote owner first-party (LOW), and third-party without a remote', async () => {
    const withOrigin = tempDir({ ...workflow(ACTION_WORKFLOW), '.git/config': '[remote "origin"]\n\turl = https://github.com/acme/app.git\n' });
    const without = tempDir(workflow(ACTION_WORKFLOW));
    const severities = async (dir: string) => json(await run(['scan', dir, '--format', 'json', ...only('unpinned-action')])).findings.map((f) => f.severity);
    expect(await severities(withOrigin)).toEqual(['LOW']);
    expect(await severities(without)).toEqual(['MEDIUM']);
  });
});

describe("scan: the default branch from the checkout's origin/HEAD", () => {
  // A dispatched pull request's checkout, in a job that never runs on the default branch (every dispatch is on it).
  const DISPATCH_WORKFLOW = `on:
  repository_dispatch:
    types: [ok-to-test-command]
  workflow_dispatch:
jobs:
  fork:
    if: github.ref != 'refs/heads/main'
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          ref: refs/pull/\${{ github.event.client_payload.pull_request.number }}/merge
      - run: make test
`;

  it('reads no pull request checkout in a job the dispatch never reaches, and does without the ref', async () => {
    const origin = { '.git/config': '[remote "origin"]\n\turl = https://github.com/acme/app.git\n' };
    const withHead = tempDir({ ...workflow(DISPATCH_WORKFLOW), ...origin, '.git/refs/remotes/origin/HEAD': 'ref: refs/remotes/origin/main\n' });
    const without = tempDir({ ...workflow(DISPATCH_WORKFLOW), ...origin });
    const found = async (dir: string) => json(await run(['scan', dir, '--format', 'json', ...only('untrusted-checkout')])).findings.length;
    expect(await found(withHead)).toBe(0);
    expect(await found(without)).toBe(1);
  });
});

describe('the gate counts attack paths at their severity', () => {
  const example = (name: string) => join(EXAMPLES, name);
  const settingsOf = (name: string) => join(EXAMPLES, name, '.chainbreaker/settings.json');

  it('an attack path fails the gate at its own severity: MEDIUM paths pass the default --fail-on high, fail --fail-on medium', async () => {
    const r = await run(['scan', example('release-pipeline')]);
    const report = json(await run(['scan', example('release-pipeline'), '--format', 'json']));
    expect(report.counts.HIGH).toBe(0);
    // Its paths enter through someone else's action or download on a tag: MEDIUM (docs/severity.md, attack paths).
    expect(report.combinations.length).toBeGreaterThan(0);
    expect(new Set(report.combinations.map((c) => (c as unknown as { severity: string }).severity))).toEqual(new Set(['MEDIUM']));
    expect(r.code).toBe(EXIT.ok);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Exit 0: no attack path or finding at or above --fail-on high.');
    const medium = await run(['scan', example('release-pipeline'), '--fail-on', 'medium']);
    expect(medium.code).toBe(EXIT.findings);
    expect(medium.stdout.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^Exit 1: ${report.combinations.length} attack paths and \\d+ findings at or above --fail-on medium\\.$`));
  });

  it('--fail-on critical fails only on a CRITICAL attack path; none never fails', async () => {
    expect((await run(['scan', example('release-pipeline'), '--fail-on', 'critical'])).code).toBe(EXIT.ok);
    const critical = await run(['scan', example('issue-triage-bot'), '--settings', settingsOf('issue-triage-bot'), '--fail-on', 'critical']);
    expect(critical.code).toBe(EXIT.findings);
    expect(critical.stdout).toMatch(/Exit 1: 2 attack paths at or above --fail-on critical\./);
    const none = await run(['scan', example('issue-triage-bot'), '--fail-on', 'none']);
    expect(none.code).toBe(EXIT.ok);
    expect(none.stdout).toContain('Exit 0: --fail-on none never fails.');
    expect((await run(['scan', example('release-pipeline')], { cwd: tempDir({ '.chainbreaker.yml': 'fail-on: medium\n' }) })).code).toBe(EXIT.ok);
  });
});

describe('bad input is loud', () => {
  it('a named file that is not YAML, not a workflow or over the limit is an error naming it as given (exit 3)', async () => {
    const cwd = tempDir({ 'bin.yml': 'on: push\njobs: [\n', 'notes.yml': 'title: a list of things\n', 'big.yml': `on: push\njobs: {}\n# ${'x'.repeat(3000)}\n` });
    const broken = await run(['scan', 'bin.yml'], { cwd });
    expect(broken.code).toBe(EXIT.operational);
    expect(broken.stderr).toMatch(/^chainbreaker: bin\.yml: not valid YAML \(line \d+: .+\) \(--keep-going scans it anyway and reports it as a finding\)\n$/);
    expect(broken.stderr).not.toContain('.github/workflows');
    expect(broken.stdout).toBe('');
    const notes = await run(['scan', 'notes.yml'], { cwd });
    expect(notes.code).toBe(EXIT.operational);
    expect(notes.stderr).toContain('chainbreaker: notes.yml: not a GitHub Actions workflow (no `jobs:`)');
    const big = await run(['scan', 'big.yml', '--max-file-bytes', '1000'], { cwd });
    expect(big.code).toBe(EXIT.operational);
    expect(big.stderr).toContain('chainbreaker: big.yml: larger than 1000 bytes, the limit for one file (raise it with --max-file-bytes)');
    const stdin = await run(['scan', '-'], { cwd });
    expect(stdin.code).not.toBe(EXIT.ok);
  });

  it('--keep-going makes it a warning, and the finding is reported under the path as given', async () => {
    const cwd = tempDir({ 'bin.yml': 'on: push\njobs: [\n' });
    const r = await run(['scan', 'bin.yml', '--keep-going', '--format', 'json'], { cwd });
    expect(r.code).toBe(EXIT.ok);
    expect(r.stderr).toMatch(/^chainbreaker: bin\.yml: not valid YAML/);
    expect(json(r).findings.map((f) => `${f.file} ${f.rule_id}`)).toEqual(['bin.yml invalid-workflow']);
  });

  it('reads .chainbreaker.yaml like .chainbreaker.yml, and refuses both at once', async () => {
    const yaml = tempDir({ ...workflow(NO_TIMEOUT), '.chainbreaker.yaml': 'fail-on: low\n' });
    expect((await run(['scan', '.', ...only('missing-timeout')], { cwd: yaml })).code).toBe(EXIT.findings);
    const typo = tempDir({ ...workflow(NO_TIMEOUT), '.chainbreaker.yaml': 'fial-on: low\n' });
    const r = await run(['scan', '.'], { cwd: typo });
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toBe('chainbreaker: .chainbreaker.yaml: unknown key "fial-on" (did you mean "fail-on"?)\n');
    const both = await run(['scan', '.'], { cwd: tempDir({ ...workflow(NO_TIMEOUT), '.chainbreaker.yml': 'fail-on: low\n', '.chainbreaker.yaml': 'fail-on: low\n' }) });
    expect(both.code).toBe(EXIT.usage);
    expect(both.stderr).toContain('both .chainbreaker.yml and .chainbreaker.yaml are in this directory: keep one');
  });

  it('every usage error is one line in one style: the option or file first, then what is wrong', async () => {
    for (const [argv, line] of [
      [['scan', '--fial-on', 'high'], 'chainbreaker: unknown option --fial-on (did you mean "--fail-on"?); run "chainbreaker --help" for usage'],
      [['scan', '--output'], 'chainbreaker: --output needs a value; run "chainbreaker --help" for usage'],
      [['scan', '--verbose=yes'], 'chainbreaker: --verbose takes no value; run "chainbreaker --help" for usage'],
      [['combinations', 'extra'], 'chainbreaker: unexpected argument "extra": this command takes none; run "chainbreaker --help" for usage'],
      [['scan', '--format', 'xml'], 'chainbreaker: --format must be one of text, json, sarif, github (got "xml"); run "chainbreaker --help" for usage'],
    ] as const) {
      const r = await run([...argv]);
      expect(r.code, argv.join(' ')).toBe(EXIT.usage);
      expect(r.stderr, argv.join(' ')).toBe(`${line}\n`);
    }
  });
});

