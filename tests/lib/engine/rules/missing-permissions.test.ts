import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'missing-permissions';

describe(RULE, () => {
  it('reports each job without permissions at its key, bound to that job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: make
        lint:
          runs-on: ubuntu-latest
          permissions:
            contents: read
          steps:
            - run: make lint
        call:
          uses: org/repo/.github/workflows/ci.yml@v1
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 MEDIUM', '13:3 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual(['build', 'call']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[1]?.finding.description).toContain('calls a reusable workflow');
  });

  it('is HIGH on a privileged trigger', () => {
    const findings = scanWith(RULE, yaml`
      on: [pull_request_target]
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - run: echo hi
    `);
    expect(positions(findings)).toEqual(['3:3 HIGH']);
    expect(findings[0]?.description).toContain('pull_request_target');
  });

  it('is satisfied by any workflow-level permissions, even empty or read-all', () => {
    for (const permissions of ['{}', 'read-all', '\n  contents: read']) {
      expect(scanWith(RULE, `on: push\npermissions: ${permissions}\njobs:\n  a:\n    runs-on: x\n    steps: [{ run: a }]\n`)).toEqual([]);
    }
  });

  it('leaves workflows that only run when called to their caller', () => {
    expect(scanWith(RULE, yaml`
      on: workflow_call
      jobs:
        build:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `)).toEqual([]);
    // A reusable workflow that can also be dispatched by hand runs with the repository default.
    expect(positions(scanWith(RULE, yaml`
      on: [workflow_call, workflow_dispatch]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `))).toEqual(['3:3 MEDIUM']);
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, 'on: push\njobs: [a, b]\n')).toEqual([]);
    expect(scanWith(RULE, 'on: push\njobs:\n  a: 3\n')).toEqual([]);
  });
});
