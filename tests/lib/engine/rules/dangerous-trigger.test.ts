import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'dangerous-trigger';

describe(RULE, () => {
  it('reports each privileged trigger at its key as a workflow-level fact', () => {
    const records = recordsWith(RULE, yaml`
      on:
        push:
        pull_request_target:
          types: [opened]
        workflow_run:
          workflows: [CI]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 MEDIUM', '5:3 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual([null, null]);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[1]?.finding.description).toContain('`workflow_run`');
  });

  it('finds the trigger in scalar and list forms of on:', () => {
    const job = 'jobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "$GITHUB_HEAD_REF"\n';
    expect(positions(scanWith(RULE, `on: pull_request_target\n${job}`))).toEqual(['1:5 MEDIUM']);
    expect(positions(scanWith(RULE, `on: [push, workflow_run]\n${job}`))).toEqual(['1:12 MEDIUM']);
  });

  it('is LOW when every job only runs well-known triage actions', () => {
    expect(positions(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        label:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/labeler@v5
        title:
          runs-on: ubuntu-latest
          steps:
            - uses: step-security/harden-runner@v2
            - uses: amannn/action-semantic-pull-request@v5
    `))).toEqual(['1:5 LOW']);
  });

  it('is MEDIUM when a job touches pull request code or data, LOW (saying why) when none does', () => {
    const variants: [string, string][] = [
      ['- uses: actions/labeler@v5\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}', 'MEDIUM'],
      ['- uses: actions/labeler@v5\n      - run: echo "${{ github.event.pull_request.title }}"', 'MEDIUM'],
      ['- uses: actions/github-script@v7\n        with:\n          script: console.log(context.payload.pull_request.number)', 'MEDIUM'],
      ['- uses: actions/labeler@v5\n      - uses: actions/checkout@v4', 'LOW'],
      ['- uses: actions/labeler@v5\n      - run: echo done', 'LOW'],
      ['- uses: actions/github-script@v7', 'LOW'],
    ];
    for (const [steps, severity] of variants) {
      const text = `on: pull_request_target\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      ${steps}\n`;
      const found = scanWith(RULE, text);
      expect(positions(found), steps).toEqual([`1:5 ${severity}`]);
      if (severity === 'LOW') expect(found[0]?.description).toContain('no job checks out, downloads or reads pull request code or data');
    }
    expect(positions(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        call:
          uses: ./.github/workflows/label.yml
    `))).toEqual(['1:5 MEDIUM']);
  });

  it('says whether the runs a workflow_run follows can come from fork pull requests', () => {
    const follower = { path: '.github/workflows/deploy.yml', text: 'on:\n  workflow_run:\n    workflows: [CI]\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./deploy.sh "${{ github.event.workflow_run.head_branch }}"\n' };
    const ci = (trigger: string) => ({ path: '.github/workflows/ci.yml', text: `name: CI\non: ${trigger}\njobs: {}\n` });
    const trusted = scanWith(RULE, [follower, ci('push')]);
    expect(positions(trusted)).toEqual(['2:3 LOW']);
    expect(trusted[0]?.description).toContain('do not run on pull requests today');
    const untrusted = scanWith(RULE, [follower, ci('pull_request')]);
    expect(positions(untrusted)).toEqual(['2:3 MEDIUM']);
    expect(untrusted[0]?.description).toContain('started by fork pull requests');
  });

  it('ignores other triggers', () => {
    expect(scanWith(RULE, yaml`
      on: [pull_request, issue_comment, push]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: make
    `)).toEqual([]);
  });
});
