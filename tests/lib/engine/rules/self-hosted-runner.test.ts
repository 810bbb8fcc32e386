import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'self-hosted-runner';

describe(RULE, () => {
  it('reports the scalar, list and group forms at the label, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: self-hosted
          steps: [{ run: make }]
        b:
          runs-on: [linux, Self-Hosted, gpu]
          steps: [{ run: make }]
        c:
          runs-on:
            group: build-farm
            labels: [self-hosted, x64]
          steps: [{ run: make }]
        d:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['4:14 LOW', '7:22 LOW', '12:16 LOW']);
    expect(records.map((r) => r.job)).toEqual(['a', 'b', 'c']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
  });

  it('is HIGH when the workflow runs on pull_request* events', () => {
    const findings = scanWith(RULE, yaml`
      on:
        pull_request:
          paths: [src/**]
      jobs:
        test:
          runs-on: [self-hosted, gpu]
          steps: [{ run: make test }]
    `);
    expect(positions(findings)).toEqual(['6:15 HIGH']);
    expect(findings[0]?.description).toContain('pull requests');
    expect(positions(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: self-hosted
          steps: [{ run: make test }]
    `))).toEqual(['4:14 HIGH']);
  });

  it('follows matrix values that runs-on reads, including include entries', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        axis:
          strategy:
            matrix:
              os: [ubuntu-latest, [self-hosted, arm64]]
          runs-on: \${{ matrix.os }}
          steps: [{ run: make }]
        include:
          strategy:
            matrix:
              include:
                - runner: windows-latest
                - runner: self-hosted
          runs-on: \${{ matrix.runner }}
          steps: [{ run: make }]
        hosted:
          strategy:
            matrix:
              os: [ubuntu-latest, macos-latest]
              note: [self-hosted]
          runs-on: \${{ matrix.os }}
          steps: [{ run: make }]
    `);
    expect(positions(findings)).toEqual(['7:14 LOW', '15:14 LOW']);
    expect(findings[0]?.description).toContain('matrix.os');
  });

  it('reads the values an expression can produce, not the operands of its comparisons', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        chosen:
          runs-on: \${{ github.repository == 'org/repo' && 'self-hosted' || 'ubuntu-latest' }}
          steps: [{ run: make }]
        listed:
          runs-on: \${{ fromJSON('["self-hosted", "linux"]') }}
          steps: [{ run: make }]
        compared:
          runs-on: \${{ inputs.runner-type == 'self-hosted' && 'ubuntu-x64-small' || 'ubuntu-latest' }}
          steps: [{ run: make }]
    `))).toEqual(['4:14 LOW', '7:14 LOW']);
  });

  it('does not treat a runner group without the label, or odd shapes, as self-hosted', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request
      jobs:
        larger:
          runs-on:
            group: ubuntu-runners
          steps: [{ run: make }]
        input:
          runs-on: \${{ inputs.runner }}
          steps: [{ run: make }]
        number:
          runs-on: 42
          steps: [{ run: make }]
        nested:
          runs-on: [[self-hosted]]
          steps: [{ run: make }]
        call:
          uses: org/repo/.github/workflows/ci.yml@v1
    `)).toEqual([]);
  });
});
