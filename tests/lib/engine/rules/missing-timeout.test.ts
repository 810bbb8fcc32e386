import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'missing-timeout';

describe(RULE, () => {
  it('reports each job without timeout-minutes at its key, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: make
        test:
          runs-on: ubuntu-latest
          timeout-minutes: 10
          steps:
            - run: make test
        lint:
          runs-on: ubuntu-latest
          steps:
            - run: make lint
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 LOW', '12:3 LOW']);
    expect(records.map((r) => r.job)).toEqual(['build', 'lint']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
  });

  it('takes a job whose every step has timeout-minutes as bounded, not one with a step left unbounded', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        bounded:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              timeout-minutes: 2
            - run: make test
              timeout-minutes: 30
        partly:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              timeout-minutes: 2
            - run: make test
    `))).toEqual(['10:3 LOW']);
  });

  it('exempts a job on ubuntu-slim, whose runner ends every job after 15 minutes, but not one that may get another runner', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        slim:
          runs-on: ubuntu-slim
          steps:
            - run: make lint
        slimlist:
          runs-on: [ubuntu-slim]
          steps:
            - run: make lint
        mixed:
          strategy:
            matrix:
              os: [ubuntu-slim, ubuntu-latest]
          runs-on: \${{ matrix.os }}
          steps:
            - run: make test
        latest:
          runs-on: ubuntu-latest
          steps:
            - run: make test
    `))).toEqual(['11:3 LOW', '18:3 LOW']);
  });

  it('exempts reusable-workflow calls', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        call:
          uses: org/repo/.github/workflows/ci.yml@v1
    `)).toEqual([]);
  });

  it('honours an inline suppression on the job line or the line above', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build: # chainbreaker: ignore[missing-timeout]
          runs-on: ubuntu-latest
          steps: [{ run: make }]
        # chainbreaker: ignore
        test:
          runs-on: ubuntu-latest
          steps: [{ run: make test }]
        other: # chainbreaker: ignore[unpinned-action]
          runs-on: ubuntu-latest
          steps: [{ run: make other }]
    `).map((f) => f.line)).toEqual([10]);
  });
});
