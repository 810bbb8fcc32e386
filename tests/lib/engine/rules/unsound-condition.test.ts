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

  describe('a workflow_run head-branch check taken for a safety check', () => {
    const ci = { path: '.github/workflows/ci.yml', text: 'name: CI\non: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps: [{ run: make }]\n' };
    const pushOnly = { path: '.github/workflows/ci.yml', text: 'name: CI\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps: [{ run: make }]\n' };
    const deploy = (condition: string, steps: string) => ({
      path: '.github/workflows/deploy.yml',
      text: yaml`
        on:
          workflow_run:
            workflows: [CI]
            types: [completed]
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
    const publish = `
              - uses: actions/checkout@v3
              - run: npm ci && npm publish --tag canary
                env:
                  NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}`;

    it('is MEDIUM when a step then runs the run\'s artifacts', () => {
      const records = recordsWith(RULE, [ci, deploy("\n            if: github.event.workflow_run.head_branch == 'main'", download)]);
      expect(positions(records.map((r) => r.finding))).toEqual(['9:9 MEDIUM']);
      expect(records[0]?.finding.description).toContain("trusts `github.event.workflow_run.head_branch == 'main'`");
      expect(records[0]?.finding.description).toContain('a fork names its branches as it likes, `main` included');
      expect(records[0]?.finding.description).toContain("job `preview` then uses that run's artifacts (line 11");
    });

    it('is LOW when the job runs only the base repository\'s code, saying what it holds', () => {
      const records = recordsWith(RULE, [ci, deploy("\n            if: github.event.workflow_run.conclusion == 'success' && startsWith(github.event.workflow_run.head_branch, 'releases/')", publish)]);
      expect(positions(records.map((r) => r.finding))).toEqual(['9:9 LOW']);
      expect(records[0]?.finding.description).toContain("trusts `startsWith(github.event.workflow_run.head_branch, 'releases/')`");
      expect(records[0]?.finding.description).toContain("runs only the base repository's own code with");
      expect(records[0]?.finding.description).toContain('secret `NPM_TOKEN`');
      const listed = recordsWith(RULE, [ci, deploy('\n            if: contains(fromJSON(\'["main","next"]\'), github.event.workflow_run.head_branch)', publish)]);
      expect(positions(listed.map((r) => r.finding))).toEqual(['9:9 LOW']);
    });

    it('reports a step condition too', () => {
      const step = `
              - uses: actions/checkout@v3
              - run: ./release.sh
                if: github.event.workflow_run.head_branch == github.event.repository.default_branch`;
      const records = recordsWith(RULE, [ci, deploy('', step)]);
      expect(positions(records.map((r) => r.finding))).toEqual(['12:13 LOW']);
      expect(records[0]?.finding.description).toContain('github.event.workflow_run.head_branch == github.event.repository.default_branch');
    });

    it('stays silent behind a check of where the run came from; a push-only followed workflow is a fork\'s name too', () => {
      for (const guard of ["github.event.workflow_run.event == 'push'", 'github.event.workflow_run.head_repository.full_name == github.repository', 'github.event.workflow_run.head_repository.fork == false', "contains(fromJSON('[\"push\",\"schedule\"]'), github.event.workflow_run.event)"]) {
        expect(recordsWith(RULE, [ci, deploy(`\n            if: github.event.workflow_run.head_branch == 'main' && ${guard}`, download)])).toEqual([]);
      }
      expect(recordsWith(RULE, [pushOnly, deploy("\n            if: github.event.workflow_run.head_branch == 'main'", download)]).map((r) => r.finding.rule_id)).toEqual([RULE]);
      // The branch check in its own conjunction with the source check, beside a disjunct that lets pull requests in by
      // design: the branch check is sound; a fork's run comes in through the other disjunct, not through it.
      const mixed = "\n            if: github.event.workflow_run.event == 'pull_request' || (github.event.workflow_run.event == 'push' && github.event.workflow_run.head_branch == 'main')";
      expect(recordsWith(RULE, [ci, deploy(mixed, download)])).toEqual([]);
      // The same branch check in the pull request's disjunct is still reported.
      const open = "\n            if: github.event.workflow_run.event == 'push' || (github.event.workflow_run.event == 'pull_request' && github.event.workflow_run.head_branch == 'main')";
      expect(recordsWith(RULE, [ci, deploy(open, download)]).map((r) => r.finding.rule_id)).toEqual([RULE]);
      // Not a grant: a branch excluded, or a check of another value.
      expect(recordsWith(RULE, [ci, deploy("\n            if: github.event.workflow_run.head_branch != 'main'", publish)])).toEqual([]);
      expect(recordsWith(RULE, [ci, deploy("\n            if: github.event.workflow_run.conclusion == 'success'", publish)])).toEqual([]);
      // A `branches:` filter is the trigger's (dangerous-trigger says so), not a condition.
      expect(recordsWith(RULE, [ci, { path: '.github/workflows/deploy.yml', text: 'on:\n  workflow_run:\n    workflows: [CI]\n    branches: [main]\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps: [{ uses: actions/checkout@v3 }, { run: make }]\n' }])).toEqual([]);
    });
  });
});

describe('unsound-condition: a bypassed trust gate, by what getting past it gives', () => {
  const workflow = (on: string, permissions: string) => `on: ${on}
permissions: ${permissions}
jobs:
  notify:
    if: |
      \${{ contains(github.event.pull_request.labels.*.name, 'trusted') }}
    runs-on: ubuntu-latest
    steps:
      - run: echo "\${{ github.event.pull_request.number }}"
`;

  it("is LOW on pull_request, where a fork's run has a read-only token and no secrets", () => {
    const found = scanWith('unsound-condition', workflow('pull_request', '{ issues: write }'));
    expect(found.map((f) => f.severity)).toEqual(['LOW']);
    expect(found[0]?.description).toContain('no privileged trigger starts the workflow');
  });

  it('is HIGH on pull_request_target when the job holds a write scope worth taking, MEDIUM when it writes only issues', () => {
    expect(scanWith('unsound-condition', workflow('pull_request_target', '{ contents: write }')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith('unsound-condition', workflow('pull_request_target', '{ issues: write }')).map((f) => f.severity)).toEqual(['MEDIUM']);
  });
});
