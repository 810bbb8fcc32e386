import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'insecure-commands';

describe(RULE, () => {
  it('reports the variable in workflow, job and step env at its key, bound to the env owner', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      env:
        ACTIONS_ALLOW_UNSECURE_COMMANDS: true
      jobs:
        build:
          runs-on: ubuntu-latest
          env:
            ACTIONS_ALLOW_UNSECURE_COMMANDS: 'true'
          steps:
            - run: echo "::add-path::/tmp"
              env:
                ACTIONS_ALLOW_UNSECURE_COMMANDS: 1
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 HIGH', '8:7 HIGH', '12:11 HIGH']);
    expect(records.map((r) => r.job)).toEqual([null, 'build', 'build']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('env of the workflow');
  });

  it('reports a value set by an expression, which may turn the commands on', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          env:
            ACTIONS_ALLOW_UNSECURE_COMMANDS: \${{ inputs.legacy }}
          steps: [{ run: make }]
    `))).toEqual(['6:7 HIGH']);
  });

  it('ignores values the runner reads as false, and the name outside env', () => {
    expect(scanWith(RULE, yaml`
      on: push
      env:
        ACTIONS_ALLOW_UNSECURE_COMMANDS: false
      jobs:
        build:
          runs-on: ubuntu-latest
          env:
            ACTIONS_ALLOW_UNSECURE_COMMANDS: 'yes'
          steps:
            - uses: some/action@v1
              with:
                ACTIONS_ALLOW_UNSECURE_COMMANDS: true
                env: "ACTIONS_ALLOW_UNSECURE_COMMANDS: true"
            - run: make
              env:
                ACTIONS_ALLOW_UNSECURE_COMMANDS: \${{ false }}
                OTHER: true
    `)).toEqual([]);
  });

  it('checks composite-action steps, bound to no job', () => {
    const records = recordsWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          name: legacy
          runs:
            using: composite
            steps:
              - run: echo hi
                shell: bash
                env:
                  ACTIONS_ALLOW_UNSECURE_COMMANDS: TRUE
        `,
      },
    ]);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:9 HIGH']);
    expect(records[0]?.job).toBeNull();
  });

  it('never throws on odd env shapes', () => {
    expect(scanWith(RULE, yaml`
      on: push
      env: [ACTIONS_ALLOW_UNSECURE_COMMANDS]
      jobs:
        build:
          runs-on: ubuntu-latest
          env: ACTIONS_ALLOW_UNSECURE_COMMANDS=true
          steps:
            - run: make
              env:
                ACTIONS_ALLOW_UNSECURE_COMMANDS: [true]
    `)).toEqual([]);
  });
});
