import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'anonymous-definition';

describe(RULE, () => {
  it('reports a workflow without name at on:, and each job without name at its key', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
        test:
          name: Unit tests
          runs-on: ubuntu-latest
          steps: [{ run: make test }]
        call:
          uses: org/repo/.github/workflows/ci.yml@v1
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['1:1 INFO', '3:3 INFO', '10:3 INFO']);
    expect(records.map((r) => r.job)).toEqual([null, 'build', 'call']);
    expect(records[1]?.finding.description).toContain('`build`');
  });

  it('does not report named workflows and jobs', () => {
    expect(scanWith(RULE, yaml`
      name: CI
      on: push
      jobs:
        build:
          name: Build
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `)).toEqual([]);
  });

  it('does not report the workflow name of a file only other workflows call (its runs are the caller\'s), still its jobs', () => {
    const found = scanWith(RULE, yaml`
      on:
        workflow_call:
          inputs: { target: { type: string } }
      jobs:
        build:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `);
    expect(positions(found)).toEqual(['5:3 INFO']);
    expect(found[0]?.description).toContain('Job `build`');
  });

  it('reports the workflow name of a reusable workflow that also runs on its own trigger', () => {
    expect(positions(scanWith(RULE, yaml`
      on: [workflow_call, workflow_dispatch]
      jobs:
        build: { name: Build, runs-on: ubuntu-latest, steps: [{ run: make }] }
    `))).toEqual(['1:1 INFO']);
  });

  it('treats an empty name as missing', () => {
    expect(positions(scanWith(RULE, yaml`
      name: ''
      on: push
      jobs:
        build: { name: ' ', runs-on: x, steps: [{ run: make }] }
    `))).toEqual(['2:1 INFO', '4:3 INFO']);
  });
});
