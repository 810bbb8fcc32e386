import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'deprecated-workflow-command';

describe(RULE, () => {
  it('reports each deprecated command at its position in the script', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - id: meta
              run: |
                echo "::set-output name=version::1.2.3"
                echo "::save-state name=pid::$PID"
                echo "::set-env name=FOO::bar"; echo "::add-path::/opt/bin"
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:17 LOW', '9:17 LOW', '10:17 LOW', '10:49 LOW']);
    expect(records.map((r) => r.job)).toEqual(['build', 'build', 'build', 'build']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('GITHUB_OUTPUT');
    expect(records[3]?.finding.description).toContain('GITHUB_PATH');
  });

  it('reports commands in plain one-line scripts and composite actions', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: echo ::set-output name=body::$body
    `))).toEqual(['6:19 LOW']);
    expect(positions(scanWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          runs:
            using: composite
            steps:
              - shell: pwsh
                run: Write-Output "::set-output name=x::1"
        `,
      },
    ]))).toEqual(['5:26 LOW']);
  });

  it('ignores the replacement files, comments, other commands and non-run keys', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: |
                # formerly: echo "::set-output name=x::1"
                echo "x=1" >> "$GITHUB_OUTPUT"
                echo "::add-mask::$TOKEN"
                echo "::warning::set-output is gone"
            - uses: actions/github-script@v7
              with:
                script: console.log('::set-output name=x::1')
            - run: 42
    `)).toEqual([]);
  });
});
