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
    expect(positions(records.map((r) => r.finding))).toEqual(['4:9 MEDIUM', '8:13 LOW', '10:13 LOW']);
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
    expect(positions(findings)).toEqual(['7:13 LOW', '13:13 LOW']);
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
    `))).toEqual(['7:13 LOW']);
  });

  it('is HIGH when the always-true condition was a trust gate, and says why', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: ./deploy-preview.sh
              if: \${{ github.event.pull_request.head.repo.full_name }} == \${{ github.repository }}
            - run: ./label.sh
              if: "\${{ contains(github.event.pull_request.labels.*.name, 'safe') }} "
            - run: ./trusted.sh
              if: \${{ github.actor == 'octocat' }} && \${{ github.event_name == 'pull_request_target' }}
    `);
    expect(findings.map((f) => f.severity)).toEqual(['HIGH', 'HIGH', 'HIGH']);
    expect(findings[0]?.description).toContain('checks who triggered the run or where its code comes from');
  });

  it('is not HIGH on path and event filters that are no security gate, and says why', () => {
    const findings = scanWith(RULE, yaml`
      on: [push, pull_request]
      jobs:
        e2e:
          if: |
            (needs.changes.outputs.lua == 'true') || \${{ github.event.inputs.run_e2e == 'true' }}
          runs-on: ubuntu-latest
          steps: [{ run: make e2e }]
        review:
          if: |
            \${{ github.event_name == 'pull_request' || github.event_name == 'merge_group' }}
          runs-on: ubuntu-latest
          steps: [{ run: make review }]
    `);
    expect(findings.map((f) => f.severity)).toEqual(['LOW', 'LOW']);
    expect(findings[0]?.description).toContain('LOW: the condition filters on events, paths, platforms or inputs');
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
    expect(positions(records.map((r) => r.finding))).toEqual(['5:11 LOW']);
    expect(records[0]?.job).toBeNull();
  });

  it('a workflow_run branches filter or head_branch check is no safety check when the job then uses the run (LOW)', () => {
    const ci = { path: '.github/workflows/ci.yml', text: 'name: CI\non: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps: [{ run: make }]\n' };
    const deploy = (filter: string, condition: string, steps: string) => ({
      path: '.github/workflows/deploy.yml',
      text: yaml`
        on:
          workflow_run:
            workflows: [CI]
            types: [completed]${filter}
        permissions: { contents: write }
        jobs:
          preview:
            runs-on: ubuntu-latest${condition}
            steps:${steps}
      `,
    });
    const download = `
              - uses: actions/download-artifact@v4
                with:
                  run-id: \${{ github.event.workflow_run.id }}
                  github-token: \${{ secrets.GITHUB_TOKEN }}
              - run: ./site/deploy.sh`;
    const branches = recordsWith(RULE, [ci, deploy('\n            branches: [main]', '', download)]);
    expect(positions(branches.map((r) => r.finding))).toEqual(['5:15 LOW']);
    expect(branches[0]?.finding.description).toContain("a fork's pull request can come from a branch of the fork with that very name");
    expect(branches[0]?.finding.description).toContain("job `preview` then uses that run's artifacts (line 11");
    const condition = recordsWith(RULE, [ci, deploy('', "\n            if: github.event.workflow_run.head_branch == 'main'", download)]);
    expect(positions(condition.map((r) => r.finding))).toEqual(['9:9 LOW']);
    expect(condition[0]?.finding.description).toContain("trusts `github.event.workflow_run.head_branch == 'main'` as a safety check");
    // Negative: a fork check, a job that uses nothing of the run, or runs no pull request can start.
    expect(recordsWith(RULE, [ci, deploy('\n            branches: [main]', '\n            if: github.event.workflow_run.head_repository.full_name == github.repository', download)])).toEqual([]);
    expect(recordsWith(RULE, [ci, deploy('\n            branches: [main]', '', '\n              - run: echo done')])).toEqual([]);
    const pushOnly = { path: '.github/workflows/ci.yml', text: 'name: CI\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps: [{ run: make }]\n' };
    expect(recordsWith(RULE, [pushOnly, deploy('\n            branches: [main]', '', download)])).toEqual([]);
  });
});
