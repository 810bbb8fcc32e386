import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, only, tempDir } from './support.js';

/*
 * Per-rule options in `.chainbreaker.yml` (issue 15) and the forbidden-uses policy (issue 17), run as users
 * run them: the built bundle (dist/, built by the suite's global setup) in a child process.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'dist', 'chainbreaker.js');

function run(args: string[], cwd = ROOT) {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.FORCE_COLOR;
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env, input: '', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const findings = (r: { stdout: string }) => (JSON.parse(r.stdout) as { findings: { line: number; rule_id: string; severity: string }[] }).findings;

const WORKFLOW = `on: push
permissions:
  contents: read
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@08eba0b27e820071cde6df949e0beb9ba4906955
      - uses: my-org/setup-tools@v2
      - uses: docker://alpine:3.20
      - run: curl -fsSL https://install.my-org.test/cli.sh | bash
`;

const RULES = ['unpinned-action', 'pipe-to-shell', 'forbidden-uses'];

afterAll(cleanup);

describe('rule options in .chainbreaker.yml', () => {
  it('without options: the unpinned first-party-looking action and the install script are reported, nothing is forbidden', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': WORKFLOW });
    const result = run(['scan', repo, '--format', 'json', '--fail-on', 'none', ...only(...RULES)]);
    expect(result.code).toBe(0);
    expect(findings(result).map((f) => `${f.line} ${f.rule_id}`)).toEqual(['9 unpinned-action', '11 pipe-to-shell']);
  });

  it('trusted-owners, trusted-hosts and a forbidden-uses deny-list change what is reported', () => {
    const config = [
      'rules:',
      '  unpinned-action:',
      '    options: { trusted-owners: [my-org] }',
      '  pipe-to-shell:',
      '    options:',
      '      trusted-hosts: ["*.my-org.test"]',
      '  forbidden-uses:',
      '    severity: high',
      '    options:',
      '      deny: ["docker://*"]',
      '',
    ].join('\n');
    const repo = tempDir({ '.github/workflows/ci.yml': WORKFLOW, '.chainbreaker.yml': config });
    const result = run(['scan', repo, '--format', 'json', ...only(...RULES)]);
    expect(findings(result)).toEqual([expect.objectContaining({ line: 10, rule_id: 'forbidden-uses', severity: 'HIGH' })]);
    // HIGH from the config and the default fail-on high: the policy gates the build.
    expect(result.code).toBe(1);
    // Flags win over the file: --disable turns the policy off.
    expect(findings(run(['scan', repo, '--format', 'json', ...only('unpinned-action', 'pipe-to-shell')]))).toEqual([]);
  });

  it('an allow-list reports every action it does not name; text output says which policy', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': WORKFLOW, '.chainbreaker.yml': 'rules:\n  forbidden-uses:\n    options:\n      allow: [actions/*]\n' });
    const result = run(['scan', repo, '--fail-on', 'none', '--verbose', ...only('forbidden-uses')]);
    expect(result.code).toBe(0);
    // The text report wraps lines: compare with spaces for line breaks.
    expect(result.stdout.replace(/\s+/g, ' ')).toContain("`my-org/setup-tools@v2` is not on the team's allow-list");
    expect(result.stdout).toContain('`docker://alpine:3.20`');
  });

  it('bad options are one-line usage errors (exit 2) that say where, with a suggestion for a typo', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': WORKFLOW });
    const cases: [string, string][] = [
      ['rules:\n  pipe-to-shell:\n    options: { trusted-host: [x.test] }\n', 'rules.pipe-to-shell.options: unknown option "trusted-host" (did you mean "trusted-hosts"?)'],
      ['rules:\n  forbidden-uses:\n    option: { deny: [x] }\n', 'rules.forbidden-uses: unknown key "option" (did you mean "options"?)'],
      ['rules:\n  forbidden-uses:\n    options: { allow: [a], deny: [b] }\n', 'rules.forbidden-uses.options: give either allow (an allow-list) or deny (a deny-list), not both'],
      ['rules:\n  forbidden-uses:\n    options: { deny: "docker://*" }\n', 'rules.forbidden-uses.options.deny: must be a list of uses patterns'],
      ['rules:\n  unpinned-action:\n    options: { trusted-owners: ["https://github.com/my-org"] }\n', 'rules.unpinned-action.options.trusted-owners.0: "https://github.com/my-org" is not a GitHub owner'],
      ['rules:\n  missing-timeout:\n    options: { minutes: 5 }\n', 'rules.missing-timeout.options: this rule takes no options (got "minutes")'],
      [`rules:\n  forbidden-uses:\n    options:\n      deny: [${Array.from({ length: 101 }, (_, i) => `o${i}`).join(', ')}]\n`, 'rules.forbidden-uses.options.deny: must have at most 100 entries'],
    ];
    for (const [config, message] of cases) {
      writeFileSync(join(repo, '.chainbreaker.yml'), config);
      const result = run(['scan', repo]);
      expect(result.code, config).toBe(2);
      expect(result.stderr.trim().split('\n'), config).toHaveLength(1);
      expect(result.stderr, config).toContain(`.chainbreaker.yml: ${message}`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('`chainbreaker rules forbidden-uses` prints the doc, which says how to set the policy', () => {
    const result = run(['rules', 'forbidden-uses']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("# forbidden-uses: Action not allowed by the team's uses policy");
    expect(result.stdout).toContain('Nothing is forbidden by default');
    const list = run(['rules']);
    expect(list.stdout).toContain('forbidden-uses');
  });
});
