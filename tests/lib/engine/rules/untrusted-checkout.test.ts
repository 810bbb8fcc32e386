import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'untrusted-checkout';

describe(RULE, () => {
  it('reports a checkout of the head SHA under pull_request_target, HIGH when a later step builds it', () => {
    const records = recordsWith(RULE, yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm ci && npm test
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:16 HIGH']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.job).toBe('test');
    expect(records[0]?.finding.description).toContain('`npm ci`');
  });

  it('is MEDIUM when nothing after the checkout runs workspace code', () => {
    expect(positions(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        diff:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                repository: \${{ github.event.pull_request.head.repo.full_name }}
                ref: \${{ github.head_ref }}
            - run: git diff --stat HEAD~1
    `))).toEqual(['9:16 MEDIUM']);
  });

  it('counts local actions and scripts from the checkout as running its code', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                ref: \${{ github.event.pull_request.merge_commit_sha }}
            - uses: ./.github/actions/setup
        b:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                ref: refs/pull/\${{ github.event.number }}/merge
            - run: python3 tools/check.py
    `);
    expect(positions(findings)).toEqual(['8:16 HIGH', '15:16 HIGH']);
    expect(findings[0]?.description).toContain('local action');
    expect(findings[1]?.description).toContain('`python tools/check.py`');
  });

  it('ignores workflows without a privileged trigger and checkouts of the base', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request
      jobs:
        t:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
    `)).toEqual([]);
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        t:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                ref: \${{ github.event.pull_request.base.sha }}
            - uses: actions/checkout@v4
            - run: make
    `)).toEqual([]);
  });

  it('does not report jobs only trusted authors can reach', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        same-repo:
          if: github.event.pull_request.head.repo.full_name == github.repository
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
        not-fork:
          runs-on: ubuntu-latest
          steps:
            - if: \${{ !github.event.pull_request.head.repo.fork }}
              uses: actions/checkout@v4
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
        member:
          if: contains(fromJSON('["OWNER", "MEMBER"]'), github.event.pull_request.author_association)
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
    `)).toEqual([]);
  });

  it('still reports a spoofable bot-actor check, or a guard on only one branch of an ||', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        bot:
          if: github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
        either:
          if: github.event.pull_request.head.repo.fork == false || github.event.action == 'labeled'
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
    `);
    expect(positions(findings)).toEqual(['9:16 HIGH', '17:16 HIGH']);
  });

  it('accepts a maintainer approval only for the approved commit', () => {
    const findings = scanWith(RULE, yaml`
      on:
        pull_request_target:
          types: [labeled]
      jobs:
        pinned:
          if: github.event.label.name == 'safe to test'
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
        branch:
          if: contains(github.event.pull_request.labels.*.name, 'safe to test')
          runs-on: ubuntu-latest
          steps:
            - run: gh pr checkout \${{ github.event.pull_request.number }} && make
    `);
    expect(positions(findings)).toEqual(['17:14 HIGH']);
    expect(findings[0]?.description).toContain("waits for a maintainer's approval");
  });

  it('reports gh pr checkout and git checkouts of fetched pull request refs, not a fetch for a diff', () => {
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        diff:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
            - run: |
                git fetch origin pull/\${{ github.event.issue.number }}/head:pr
                git diff main...pr
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
            - run: |
                git fetch origin refs/pull/\${{ github.event.issue.number }}/head
                git checkout FETCH_HEAD
            - run: make
    `);
    expect(positions(findings)).toEqual(['16:11 HIGH']);
    expect(findings[0]?.description).toContain('fetched earlier');
  });

  it('follows the head through step outputs that look it up, but not the base', () => {
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - id: pr
              uses: actions/github-script@v7
              with:
                script: |
                  const pr = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });
                  core.setOutput('base', pr.data.base.sha);
                  core.setOutput('head', pr.data.head.sha);
            - uses: actions/checkout@v4
              with:
                ref: \${{ steps.pr.outputs.base }}
            - uses: actions/checkout@v4
              with:
                ref: \${{ steps.pr.outputs.head }}
            - run: go test ./...
    `);
    expect(positions(findings)).toEqual(['18:16 HIGH']);
    expect(findings[0]?.description).toContain('steps.pr.outputs.head');
  });

  it('reports workflow_run heads only when the runs it follows come from pull requests', () => {
    const follower = yaml`
      on:
        workflow_run:
          workflows: [CI]
          types: [completed]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                ref: \${{ github.event.workflow_run.head_sha }}
            - run: make
    `;
    const ci = (trigger: string) => ({ path: '.github/workflows/ci.yml', text: `name: CI\non: ${trigger}\njobs: {}\n` });
    const fromPullRequests = scanWith(RULE, [{ path: '.github/workflows/follow.yml', text: follower }, ci('[push, pull_request]')]);
    expect(positions(fromPullRequests)).toEqual(['11:16 HIGH']);
    expect(fromPullRequests[0]?.description).toContain('workflow triggered by `workflow_run`');
    expect(scanWith(RULE, [{ path: '.github/workflows/follow.yml', text: follower }, ci('push')])).toEqual([]);
  });

  it('tolerates odd shapes', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with: { ref: [a, b] }
            - uses: actions/checkout@v4
              with:
            - run:
        k:
          steps: 3
    `)).toEqual([]);
  });
});

describe('untrusted-checkout: refs read from artifacts', () => {
  const workflow = (ci: string) => [
    { path: '.github/workflows/ci.yml', text: yaml`
      name: CI
      on: ${ci}
      jobs:
        b:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.pull_request.head.sha }}" > sha.txt
    ` },
    { path: '.github/workflows/after.yml', text: yaml`
      on:
        workflow_run:
          workflows: [CI]
          types: [completed]
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
                path: \${{ runner.temp }}/meta
            - id: meta
              run: echo "sha=$(cat "$RUNNER_TEMP/meta/sha.txt")" >> "$GITHUB_OUTPUT"
            - uses: actions/checkout@v4
              with:
                ref: \${{ steps.meta.outputs.sha }}
            - run: npm test
    ` },
  ];

  it('reports a checkout of a ref the triggering pull request wrote into an artifact', () => {
    const findings = scanWith('untrusted-checkout', workflow('pull_request'));
    expect(findings.map((f) => `${f.file}:${f.line}`)).toEqual(['.github/workflows/after.yml:17']);
    expect(findings[0]?.description).toContain('artifact content read by step meta');
  });

  it('does not when no pull request can start the runs it follows', () => {
    expect(scanWith('untrusted-checkout', workflow('push'))).toEqual([]);
  });
});
