import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';
import { MISFEATURES } from '../../../../lib/engine/data/misfeatures.js';

const RULE = 'misfeature';

describe(RULE, () => {
  /**
   * cmd at workflow, job and step level: the step's own cmd script, a script under the job's default, a pwsh step,
   * and a job under the workflow's default.
   */
  const cmdLevels = (own: string, underJob: string, pwsh: string, underWorkflow: string) => yaml`
      on: push
      defaults:
        run:
          shell: cmd
      jobs:
        win:
          runs-on: windows-latest
          defaults:
            run: { shell: CMD }
          steps:
            - run: ${own}
              shell: cmd /D /E:ON /V:OFF /S /C "CALL "{0}""
            - run: ${underJob}
            - run: ${pwsh}
              shell: pwsh
        other:
          runs-on: windows-latest
          steps:
            - run: ${underWorkflow}
    `;

  it('reports the cmd shell at step, job-default and workflow-default level', () => {
    const findings = scanWith(RULE, cmdLevels('echo %PATH% ${{ github.ref_name }}', 'echo ${{ matrix.os }}', 'echo ok', 'echo ${{ runner.temp }}'));
    expect(positions(findings)).toEqual(['4:12 LOW', '9:21 LOW', '12:16 LOW']);
    expect(findings[0]?.description).toContain('no formal grammar');
    expect(findings[0]?.recommendation).toContain('pwsh');
  });

  it('is INFO when no script the cmd shell runs expands a ${{ }} value (nothing to misparse), at each level', () => {
    const findings = scanWith(RULE, cmdLevels('call "%VS%\\vcvars64.bat" && cargo build', 'echo %PATH%', 'echo ${{ github.ref_name }}', 'echo ok'));
    expect(positions(findings)).toEqual(['4:12 INFO', '9:21 INFO', '12:16 INFO']);
    expect(findings[0]?.description).toContain('INFO: no script it runs here expands a `${{ }}` value');
  });

  it('reports the action inputs of the table, with their own severity and recommendation', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ssh-key: \${{ secrets.DEPLOY_KEY }}
                submodules: recursive
            - uses: actions/setup-python@v5
              with:
                python-version: '3.12'
                pip-install: '.[dev]'
    `);
    expect(positions(findings)).toEqual(['8:11 LOW', '9:11 INFO', '13:11 INFO']);
    expect(findings[2]?.description).toContain('`actions/setup-python` with `pip-install`');
    expect(findings[2]?.recommendation).toContain('venv');
    // Submodules come at the commits the superproject pins: a push to one changes nothing without a bump here.
    expect(findings[1]?.description).toContain('at the commits this repository pins');
    expect(findings[1]?.description).toContain('own owner add no one new');
    expect(findings[1]?.description).not.toContain('whoever can push');
  });

  it('does not report other shells, absent or false inputs, or other actions', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: echo cmd
              shell: bash
            - uses: actions/checkout@v3
              with: { submodules: false, ssh-key: '' }
            - uses: someone/checkout@v1
              with: { ssh-key: key }
            - uses: actions/setup-python@v5
              with: { python-version: '3.12' }
    `)).toEqual([]);
  });

  it('has a source for every entry of its table', () => {
    for (const entry of MISFEATURES) expect(entry.source).toMatch(/^https:\/\//);
    expect(new Set(MISFEATURES.map((m) => m.id)).size).toBe(MISFEATURES.length);
  });
});
