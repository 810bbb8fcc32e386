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
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 INFO', '12:3 INFO']);
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
            - uses: actions/checkout@v3
              timeout-minutes: 2
            - run: make test
              timeout-minutes: 30
        partly:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              timeout-minutes: 2
            - run: make test
    `))).toEqual(['10:3 INFO']);
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
    `))).toEqual(['11:3 INFO', '18:3 INFO']);
  });

  it('is INFO on standard GitHub-hosted runners, saying a hung run wastes only its own minutes', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        linux:
          runs-on: ubuntu-24.04-arm
          steps: [{ run: make }]
        matrix:
          strategy:
            matrix:
              os: [ubuntu-latest, windows-2025, macos-15]
          runs-on: \${{ matrix.os }}
          steps: [{ run: make test }]
    `);
    expect(positions(findings)).toEqual(['3:3 INFO', '6:3 INFO']);
    expect(findings[0]?.description).toContain('up to 6 hours (360 minutes');
    expect(findings[0]?.description).toContain('standard GitHub-hosted runner');
    expect(findings[0]?.description).toContain('free for public repositories, billed per minute for private ones');
  });

  it('is LOW on a self-hosted runner, saying a hung run keeps a machine other jobs wait for', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        labelled:
          runs-on: [self-hosted, linux]
          steps: [{ run: make }]
        cloud:
          runs-on: { group: aws-g4dn-2xlarge }
          steps: [{ run: make }]
        mixed:
          strategy:
            matrix:
              os: [ubuntu-latest, self-hosted]
          runs-on: \${{ matrix.os }}
          steps: [{ run: make test }]
    `);
    expect(positions(findings)).toEqual(['3:3 LOW', '6:3 LOW', '9:3 LOW']);
    for (const finding of findings) expect(finding.description).toContain('self-hosted runner (');
    expect(findings[0]?.description).toContain('keeps that machine from the other jobs that wait for it');
    expect(findings[1]?.description).toContain('aws-g4dn-2xlarge');
  });

  it('is LOW on a larger runner, billed at a higher rate also for public repositories, and on a label that may be one', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        cores:
          runs-on: ubuntu-latest-8-cores
          steps: [{ run: make }]
        mac:
          strategy:
            matrix:
              os: [ubuntu-latest, macos-15-xlarge]
          runs-on: \${{ matrix.os }}
          steps: [{ run: make }]
        custom:
          runs-on: gpu
          steps: [{ run: make }]
        standard:
          runs-on: macos-15
          steps: [{ run: make }]
    `);
    expect(positions(findings)).toEqual(['3:3 LOW', '6:3 LOW', '12:3 LOW', '15:3 INFO']);
    expect(findings[0]?.description).toContain('`ubuntu-latest-8-cores`, a GitHub-hosted larger runner');
    expect(findings[0]?.description).toContain('also for public repositories');
    expect(findings[1]?.description).toContain('`macos-15-xlarge`, a GitHub-hosted larger runner');
    expect(findings[2]?.description).toContain('label `gpu`');
    expect(findings[2]?.description).toContain('or a GitHub-hosted larger runner');
  });

  it('stays LOW when the runner cannot be read', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        dynamic:
          runs-on: \${{ inputs.runner }}
          steps: [{ run: make }]
        managed:
          runs-on: blacksmith-4vcpu-ubuntu-2404
          steps: [{ run: make }]
    `))).toEqual(['3:3 LOW', '6:3 LOW']);
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
