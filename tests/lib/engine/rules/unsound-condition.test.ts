import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'unsound-condition';

describe(RULE, () => {
  it('reports job and step conditions that are format strings, at the if: value', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        deploy:
          if: \${{ github.ref == 'refs/heads/main' }} && \${{ github.event_name == 'push' }}
          runs-on: ubuntu-latest
          steps:
            - run: ./deploy.sh
              if: "\${{ github.event_name == 'push' }} "
            - run: ./notify.sh
              if: \${{ runner.os }} == 'Linux'
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['4:9 HIGH', '8:13 HIGH', '10:13 HIGH']);
    expect(records.map((r) => r.job)).toEqual(['deploy', 'deploy', 'deploy']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('job `deploy`');
    expect(records[1]?.finding.description).toContain('whitespace');
  });

  it('reports a block scalar that keeps its trailing newline, but not a stripped one', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: echo clip
              if: |
                \${{ github.event_name == 'pull_request' }}
            - run: echo strip
              if: |-
                \${{ github.event_name == 'pull_request' }}
            - run: echo folded
              if: >
                \${{ github.event_name == 'pull_request' }}
    `);
    expect(positions(findings)).toEqual(['7:13 HIGH', '13:13 HIGH']);
    expect(findings[0]?.description).toContain('trailing newline');
  });

  it('accepts bare conditions, a single ${{ }}, and status checks that together mean always', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          if: github.event_name == 'push' && github.ref == 'refs/heads/main'
          runs-on: ubuntu-latest
          steps:
            - run: make
              if: \${{ github.event_name == 'push' && runner.os == 'Linux' }}
            - run: make lint
              if: (\${{ success() }} || \${{ failure() }})
            - run: make always
              if: \${{ always() }}
            - run: make odd
              if: true
            - run: make broken
              if: \${{ github.event_name == 'push'
    `)).toEqual([]);
  });

  it('still reports status-only conditions that do not mean always', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: ./report-failure.sh
              if: "\${{ failure() }} "
    `))).toEqual(['7:13 HIGH']);
  });

  it('checks composite-action steps', () => {
    const records = recordsWith(RULE, [
      {
        path: '.github/actions/cache/action.yml',
        text: yaml`
          runs:
            using: composite
            steps:
              - uses: actions/cache@v4
                if: \${{ runner.os }} == 'macOS' && \${{ inputs.file }} != ''
        `,
      },
    ]);
    expect(positions(records.map((r) => r.finding))).toEqual(['5:11 HIGH']);
    expect(records[0]?.job).toBeNull();
  });
});
