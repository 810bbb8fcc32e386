import { describe, expect, it } from 'vitest';
import { apiFixes, fixRepository, fixesForFindings, fixesWithLimits } from '../../../../lib/engine/fixes/apply.js';
import { SETTINGS_API_FIXES, settingsApiFix } from '../../../../lib/engine/fixes/settings-api.js';
import { RULES } from '../../../../lib/engine/rules/index.js';
import { scanRepository } from '../../../../lib/engine/scan.js';
import { yaml } from '../../../support/engine.js';

const PATH = '.github/workflows/ci.yml';

describe('fixRepository', () => {
  it('tries no fix past its deadline, and says why for each', () => {
    const text = 'on: push\npermissions: {}\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n';
    const result = fixRepository([{ path: PATH, text }], { deadline: 1, limits: { now: () => 2 } });
    expect(result.applied).toEqual([]);
    expect(result.skipped.map((s) => [s.rule_id, s.reason])).toContainEqual(['missing-timeout', 'the time for fixes (--max-engine-ms) ran out before this one was tried']);
  });

  it('leaves a file it cannot edit safely alone, and says why', () => {
    const text = 'on: push\npermissions: {}\njobs:\n  build: { runs-on: ubuntu-latest, steps: [{ run: make }] }\n';
    const result = fixRepository([{ path: PATH, text }], { fixRule: (id) => id === 'missing-timeout' });
    expect(result.changed).toEqual([]);
    expect(result.skipped).toEqual([{ file: PATH, line: 4, rule_id: 'missing-timeout', reason: 'the job is not a block mapping' }]);
  });

  it('keeps unsafe fixes for --fix=unsafe and names what makes them unsafe', () => {
    const text = yaml`
      on: pull_request_target
      permissions: {}
      jobs:
        bump:
          runs-on: ubuntu-latest
          timeout-minutes: 5
          permissions:
            contents: write
          steps:
            - uses: actions/checkout@11bb71f1a3ba8b9a42aacd5ac8c14b8b3b8cf8ff # v4.2.2
            - run: git push
    `;
    const safe = fixRepository([{ path: PATH, text }], { fixRule: (id) => id === 'persisted-credentials' });
    expect(safe.changed).toEqual([]);
    expect(safe.skipped[0]?.reason).toBe('the fix changes behaviour (a later step runs `git push`): apply it with --fix=unsafe');
    const unsafe = fixRepository([{ path: PATH, text }], { mode: 'unsafe', fixRule: (id) => id === 'persisted-credentials' });
    expect(unsafe.applied.map((a) => [a.rule_id, a.safe])).toEqual([['persisted-credentials', false]]);
  });

  it('script-injection: no rewrite for cmd, with the reason', () => {
    const text = yaml`
      on: issue_comment
      permissions: {}
      jobs:
        j:
          runs-on: windows-latest
          timeout-minutes: 5
          steps:
            - shell: cmd
              run: echo ${'${{ github.event.comment.body }}'}
    `;
    const result = fixRepository([{ path: PATH, text }], { fixRule: (id) => id === 'script-injection' });
    expect(result.changed).toEqual([]);
    expect(result.skipped.map((s) => s.reason)).toEqual(['no safe rewrite for shell `cmd`']);
  });

  it('never invents a pin: an unresolved action is skipped as needing the network', () => {
    const text = yaml`
      on: push
      permissions: {}
      jobs:
        j:
          runs-on: ubuntu-latest
          timeout-minutes: 5
          steps:
            - uses: actions/setup-node@v4
    `;
    const result = fixRepository([{ path: PATH, text }], { fixRule: (id) => id === 'unpinned-action' });
    expect(result.changed).toEqual([]);
    expect(result.skipped).toMatchObject([{ rule_id: 'unpinned-action', needsNetwork: true }]);
  });
});

describe('fixesForFindings and apiFixes', () => {
  const text = yaml`
    on: push
    jobs:
      j:
        runs-on: ubuntu-latest
        steps:
          - run: curl -sSL https://example.com/install.sh | sh
  `;
  const files = [{ path: PATH, text }];
  const findings = scanRepository(files).findings;

  it('gives each fixable finding its own diff, and none to the others', () => {
    const fixes = fixesForFindings(files, findings);
    const byRule = Object.fromEntries(findings.map((f, i) => [f.rule_id, fixes[i]]));
    expect(byRule['missing-timeout']?.diff).toBe(
      '--- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n@@ -2,5 +2,6 @@\n jobs:\n   j:\n     runs-on: ubuntu-latest\n+    timeout-minutes: 60\n     steps:\n       - run: curl -sSL https://example.com/install.sh | sh\n',
    );
    expect(byRule['missing-permissions']?.safe).toBe(true);
    expect(byRule['pipe-to-shell']).toBeNull();
  });

  it('is bounded: past maxFixes, findings get no fix', () => {
    expect(fixesForFindings(files, findings, { maxFixes: 0 }).every((f) => f === null)).toBe(true);
    expect(fixesWithLimits(files, findings, { maxFixes: 0 }).limited).toMatch(/at most 0 findings get a fix per scan \(\d+ more\)/);
    expect(fixesWithLimits(files, findings).limited).toBeNull();
  });

  it('verifies no fix in a file over maxFileBytes, or past the deadline, and says so', () => {
    const big = fixesWithLimits(files, findings, { maxFileBytes: 10 });
    expect(big.fixes.every((f) => f === null)).toBe(true);
    expect(big.limited).toContain(`fixes are verified in files up to 10 bytes (2 findings in ${PATH})`);
    const late = fixesWithLimits(files, findings, { deadline: 1, now: () => 2 });
    expect(late.fixes.every((f) => f === null)).toBe(true);
    expect(late.limited).toContain('the time for fixes ran out (2 findings)');
  });

  it('verifies all fixes of a file with one re-scan of it (plus the scan it starts from)', () => {
    const many = yaml`
      on: issues
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.issue.title }}"
        b:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.issue.body }}"
        c:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.issue.title }}"
    `;
    const manyFiles = [{ path: PATH, text: many }];
    const found = scanRepository(manyFiles).findings;
    let scans = 0;
    const result = fixesWithLimits(manyFiles, found, { isEnabled: (id) => (id === 'missing-timeout' ? (scans++, true) : true) });
    const fixed = result.fixes.filter((f) => f !== null).length;
    expect(fixed).toBeGreaterThanOrEqual(5);
    expect(result.limited).toBeNull();
    // isEnabled is asked once per rule per scan: the file was scanned twice, not once per fix.
    expect(scans).toBe(2);
  });

  it('gives settings findings the GitHub call, filled with the repository', () => {
    const settings = [{ ...findings[0]!, file: '<repository settings>', rule_id: 'default-token-write', line: 0, column: 0 }];
    expect(apiFixes(files, settings, 'octo/app')).toEqual([
      { safe: false, api: { method: 'PUT', path: '/repos/octo/app/actions/permissions/workflow', body: { default_workflow_permissions: 'read' } } },
    ]);
  });
});

describe('settings API fixes', () => {
  it('exist only for settings rules', () => {
    for (const id of Object.keys(SETTINGS_API_FIXES)) expect(RULES.find((r) => r.meta.id === id)?.meta.surface, id).toBe('repo-settings');
  });

  it('keep the current allowed_actions when requiring SHA pinning', () => {
    expect(settingsApiFix('sha-pinning-not-required', 'o/r', { actions_permissions: { enabled: true, allowed_actions: 'selected' } })).toEqual({
      method: 'PUT',
      path: '/repos/o/r/actions/permissions',
      body: { enabled: true, allowed_actions: 'selected', sha_pinning_required: true },
    });
  });

  it('escape the repository name in the path', () => {
    expect(settingsApiFix('dependabot-alerts-disabled', 'o/r?x=1')?.path).toBe('/repos/o/r%3Fx%3D1/vulnerability-alerts');
    expect(settingsApiFix('branch-protection-missing', 'o/r')).toBeNull();
  });
});

describe('script-injection: heredocs', () => {
  it('leaves an expression after a heredoc start alone', () => {
    const text = [
      'on: issues',
      'permissions: {}',
      'jobs:',
      '  j:',
      '    runs-on: ubuntu-latest',
      '    timeout-minutes: 5',
      '    steps:',
      '      - run: |',
      "          cat <<'EOF' > notes.md",
      '          ${{ github.event.issue.body }}',
      '          EOF',
      '',
    ].join('\n');
    const result = fixRepository([{ path: PATH, text }], { fixRule: (id) => id === 'script-injection' });
    expect(result.changed).toEqual([]);
    expect(result.skipped.map((s) => s.reason)).toEqual(['the expression may sit in a heredoc, where the rewrite would change the text']);
  });
});

describe('script-injection: the shell a step declares (analysis/step-shell.ts declaredShell)', () => {
  const fixed = (files: { path: string; text: string }[]) => {
    const result = fixRepository(files, { fixRule: (id) => id === 'script-injection' });
    return { text: result.files.filter((f) => result.changed.includes(f.path)).map((f) => f.text).join('\n'), skipped: result.skipped.map((s) => s.reason) };
  };
  const workflow = (defaults: string, runsOn: string, shell: string) => yaml`
    on: issues
    permissions: {}
    ${defaults}
    jobs:
      j:
        runs-on: ${runsOn}
        timeout-minutes: 5
        steps:
          - ${shell}run: echo ${'${{ github.event.issue.title }}'}
  `;

  it('writes the quoting of the shell the step, its job or its workflow declares, else of the runner', () => {
    expect(fixed([{ path: PATH, text: workflow('defaults: { run: { shell: pwsh } }', 'ubuntu-latest', '') }]).text).toContain('echo $env:ISSUE_TITLE');
    expect(fixed([{ path: PATH, text: workflow('defaults: { run: { shell: bash } }', 'windows-latest', '') }]).text).toContain('echo "${ISSUE_TITLE}"');
    expect(fixed([{ path: PATH, text: workflow('', 'windows-latest', 'shell: bash\n            ') }]).text).toContain('echo "${ISSUE_TITLE}"');
    expect(fixed([{ path: PATH, text: workflow('', 'windows-latest', '') }]).text).toContain('echo $env:ISSUE_TITLE');
    const action = yaml`
      name: Greet
      runs:
        using: composite
        steps:
          - shell: pwsh
            run: echo ${'${{ github.event.issue.title }}'}
    `;
    expect(fixed([{ path: 'action.yml', text: action }]).text).toContain('echo $env:ISSUE_TITLE');
  });

  it('negative: no rewrite for another shell, or one named by its path (the fixer reads only a bare name)', () => {
    expect(fixed([{ path: PATH, text: workflow('defaults: { run: { shell: cmd } }', 'windows-latest', '') }])).toEqual({ text: '', skipped: ['no safe rewrite for shell `cmd`'] });
    expect(fixed([{ path: PATH, text: workflow('', 'ubuntu-latest', "shell: '/bin/bash -e {0}'\n            ") }]).skipped).toEqual(['no safe rewrite for shell `/bin/bash`']);
  });
});
