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
    // Only collaborators start a push; the default token may write: MEDIUM (what merged code or a dependency prints).
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 MEDIUM', '8:7 MEDIUM', '12:11 MEDIUM']);
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
    `))).toEqual(['6:7 MEDIUM']);
  });

  it('rates by who can get text printed and what the job holds', () => {
    const workflow = (on: string, permissions: string, runner = 'ubuntu-latest') => yaml`
      on: ${on}
      permissions: ${permissions}
      jobs:
        build:
          runs-on: ${runner}
          env:
            ACTIONS_ALLOW_UNSECURE_COMMANDS: true
          steps:
            - run: echo "\${{ github.event.comment.body }}" | ./triage
    `;
    const rated = (on: string, permissions: string, runner?: string) => {
      const found = scanWith(RULE, workflow(on, permissions, runner));
      return `${found[0]?.severity}: ${found[0]?.description.split(': ').slice(2).join(': ')}`;
    };
    expect(rated('issue_comment', '{ contents: write }')).toBe('HIGH: anyone with a GitHub account can start it through `issue_comment` and get their text printed; the job holds `contents: write`.');
    expect(rated('issue_comment', '{ issues: write }')).toMatch(/^MEDIUM: anyone with a GitHub account can start it through `issue_comment`, but the job holds only `issues: write`/);
    expect(rated('pull_request', '{ contents: read }')).toMatch(/^LOW: a fork's `pull_request` run already runs the fork's code/);
    expect(rated('pull_request', '{ contents: read }', '[self-hosted, gpu]')).toMatch(/^HIGH: a fork's `pull_request` run reaches it, and the job holds a self-hosted runner/);
    // The machine is no holding when a job on the same runners already runs a fork's checkout with no approval.
    const opened = scanWith(RULE, yaml`
      on: pull_request
      permissions: { contents: read }
      jobs:
        build:
          runs-on: [self-hosted, gpu]
          env:
            ACTIONS_ALLOW_UNSECURE_COMMANDS: true
          steps:
            - uses: actions/checkout@v3
            - run: make test
            - run: echo "\${{ github.event.comment.body }}" | ./triage
    `);
    expect(opened.map((f) => f.severity)).toEqual(['LOW']);
    expect(opened[0]?.description).toContain("LOW: a fork's `pull_request` run reaches it on a self-hosted runner, but the same self-hosted runners already run forks' pull requests with no approval in this job itself");
    expect(rated('push', '{}')).toMatch(/^LOW: only collaborators start it/);
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
