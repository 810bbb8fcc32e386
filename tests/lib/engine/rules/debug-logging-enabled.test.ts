import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'debug-logging-enabled';

describe(RULE, () => {
  it('reports both variables in workflow, job and step env, bound to the env owner', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      env:
        ACTIONS_STEP_DEBUG: true
      jobs:
        build:
          runs-on: ubuntu-latest
          env:
            ACTIONS_RUNNER_DEBUG: "true"
          steps:
            - run: make
              env:
                ACTIONS_STEP_DEBUG: 1
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 LOW', '8:7 LOW', '12:11 LOW']);
    expect(records.map((r) => r.job)).toEqual([null, 'build', 'build']);
    expect(records[1]?.finding.rule_id).toBe(RULE);
    expect(records[1]?.finding.description).toContain('ACTIONS_RUNNER_DEBUG');
  });

  it('does not report forwarding the repository setting, false values or other keys', () => {
    expect(scanWith(RULE, yaml`
      on: push
      env:
        ACTIONS_STEP_DEBUG: \${{ secrets.ACTIONS_STEP_DEBUG }}
        ACTIONS_RUNNER_DEBUG: false
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: some/action@v1
              with:
                debug: \${{ secrets.ACTIONS_RUNNER_DEBUG == 'true' }}
                ACTIONS_STEP_DEBUG: true
              env:
                RUNNER_DEBUG_LEVEL: true
    `)).toEqual([]);
  });

  it('reports a constant-true expression', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: make
              env:
                ACTIONS_STEP_DEBUG: \${{ true }}
    `))).toEqual(['8:11 LOW']);
  });

  it('checks composite-action steps', () => {
    expect(positions(scanWith(RULE, [
      {
        path: '.github/actions/build/action.yml',
        text: yaml`
          runs:
            using: composite
            steps:
              - run: make
                shell: bash
                env:
                  ACTIONS_STEP_DEBUG: 'True'
        `,
      },
    ]))).toEqual(['7:9 LOW']);
  });
});
