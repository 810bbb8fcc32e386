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
            - run: make
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 MEDIUM', '5:3 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual([null, null]);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[1]?.finding.description).toContain('`workflow_run`');
  });

  it('finds the trigger in scalar and list forms of on:', () => {
    const job = 'jobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n';
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

  it('stays MEDIUM when any job checks out, runs a script, calls a workflow or runs another action', () => {
    const variants = [
      '- uses: actions/labeler@v5\n      - uses: actions/checkout@v4',
      '- uses: actions/labeler@v5\n      - run: echo done',
      '- uses: actions/github-script@v7',
    ];
    for (const steps of variants) {
      const text = `on: pull_request_target\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      ${steps}\n`;
      expect(positions(scanWith(RULE, text)), steps).toEqual(['1:5 MEDIUM']);
    }
    expect(positions(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        call:
          uses: ./.github/workflows/label.yml
    `))).toEqual(['1:5 MEDIUM']);
  });

  it('says whether the runs a workflow_run follows can come from fork pull requests', () => {
    const follower = { path: '.github/workflows/deploy.yml', text: 'on:\n  workflow_run:\n    workflows: [CI]\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./deploy.sh\n' };
    const ci = (trigger: string) => ({ path: '.github/workflows/ci.yml', text: `name: CI\non: ${trigger}\njobs: {}\n` });
    const trusted = scanWith(RULE, [follower, ci('push')]);
    expect(positions(trusted)).toEqual(['2:3 MEDIUM']);
    expect(trusted[0]?.description).toContain('do not run on pull requests today');
    expect(scanWith(RULE, [follower, ci('pull_request')])[0]?.description).toContain('started by fork pull requests');
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
