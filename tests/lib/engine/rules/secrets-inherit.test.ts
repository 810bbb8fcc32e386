import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'secrets-inherit';

describe(RULE, () => {
  it('reports secrets: inherit on a reusable-workflow call, bound to the calling job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
        deploy:
          uses: org/infra/.github/workflows/deploy.yml@v2
          secrets: inherit
        explicit:
          uses: org/infra/.github/workflows/deploy.yml@v2
          secrets:
            token: \${{ secrets.DEPLOY_TOKEN }}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:14 MEDIUM']);
    expect(records[0]?.job).toBe('deploy');
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('org/infra/.github/workflows/deploy.yml@v2');
  });

  it('is HIGH on an outsider trigger when the called workflow belongs to another repository', () => {
    const findings = scanWith(RULE, yaml`
      on: workflow_run
      jobs:
        report:
          uses: org/infra/.github/workflows/report.yml@v1
          secrets: "inherit"
    `);
    expect(positions(findings)).toEqual(['5:14 HIGH']);
    expect(findings[0]?.description).toContain('HIGH: anyone with a GitHub account can start it through `workflow_run`');
    expect(findings[0]?.description).toContain('code of another owner');
  });

  it('reads the activity types and the job\'s conditions: a maintainer\'s act is no outsider trigger', () => {
    const on = (types: string, condition = '') => `on:\n  issues:\n    types: [${types}]\njobs:\n  triage:\n${condition}    uses: org/infra/.github/workflows/triage.yml@v1\n    secrets: inherit\n`;
    expect(scanWith(RULE, on('opened')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, on('labeled')).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith(RULE, on('opened', "    if: github.event.issue.author_association == 'OWNER'\n")).map((f) => f.severity)).toEqual(['MEDIUM']);
    // A fork's pull_request run gets no secrets: no outsider reaches them.
    expect(scanWith(RULE, 'on: pull_request\njobs:\n  ci:\n    uses: org/infra/.github/workflows/ci.yml@v1\n    secrets: inherit\n').map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('is MEDIUM at most for the repository owner\'s own workflows (first-party), LOW off outsider triggers', () => {
    const call = (on: string) => `on: ${on}\njobs:\n  report:\n    uses: acme/infra/.github/workflows/report.yml@v1\n    secrets: inherit\n`;
    const options = { repository: 'acme/widget' };
    const outsider = scanWith(RULE, call('issue_comment'), options);
    expect(positions(outsider)).toEqual(['5:14 MEDIUM']);
    expect(outsider[0]?.description).toContain("MEDIUM, not HIGH: anyone with a GitHub account can start it through `issue_comment`, but the called workflow is a workflow of the repository's own owner");
    expect(positions(scanWith(RULE, call('push'), options))).toEqual(['5:14 LOW']);
    // The same call without knowing the owner: another owner's code.
    expect(positions(scanWith(RULE, call('issue_comment')))).toEqual(['5:14 HIGH']);
    // The repository's own name, at any ref: local, INFO.
    expect(positions(scanWith(RULE, 'on: issue_comment\njobs:\n  r:\n    uses: acme/widget/.github/workflows/r.yml@main\n    secrets: inherit\n', options))).toEqual(['5:14 INFO']);
    // The same owner's other repository keeps its severity on both kinds of trigger.
    expect(positions(scanWith(RULE, 'on: issue_comment\njobs:\n  r:\n    uses: acme/widget-ci/.github/workflows/r.yml@main\n    secrets: inherit\n', options))).toEqual(['5:14 MEDIUM']);
    expect(positions(scanWith(RULE, 'on: push\njobs:\n  r:\n    uses: acme/widget-ci/.github/workflows/r.yml@main\n    secrets: inherit\n', options))).toEqual(['5:14 LOW']);
  });

  it('is INFO (least privilege, no other party) for a reusable workflow of the same repository (./ or $/), whoever starts it', () => {
    for (const prefix of ['./', '$/']) {
      const onIssues = recordsWith(RULE, `on: issues\njobs:\n  triage:\n    uses: ${prefix}.github/workflows/triage.yml\n    secrets: inherit\n`);
      expect(onIssues.map((r) => r.finding.severity), prefix).toEqual(['INFO']);
      const description = onIssues[0]?.finding.description ?? '';
      expect(description).toContain('INFO: the called workflow is a workflow of this repository');
      expect(description).toContain('hands nothing to another party');
      expect(description).toContain('anyone with a GitHub account can start it through `issues`');
      expect(description).toContain('Passing only the secrets it uses keeps a later change of the called workflow from reaching the others.');
      // The job still holds every secret: attack paths whose entry runs in it count them.
      expect(onIssues[0]?.facts).toEqual(expect.arrayContaining(['owner:first-party', 'holds:secrets']));
      const onPush = scanWith(RULE, `on: push\njobs:\n  build:\n    uses: ${prefix}.github/workflows/build.yml\n    secrets: inherit\n`);
      expect(onPush.map((f) => f.severity), prefix).toEqual(['INFO']);
    }
    // Another owner's workflow on the same outsider trigger keeps its severity.
    expect(scanWith(RULE, 'on: issues\njobs:\n  triage:\n    uses: other/infra/.github/workflows/triage.yml@v1\n    secrets: inherit\n', { repository: 'acme/widget' }).map((f) => f.severity)).toEqual(['HIGH']);
    const dispatch = scanWith(RULE, yaml`
      on: repository_dispatch
      jobs:
        info:
          uses: org/repo/.github/workflows/ci-info.yml@master
          secrets: inherit
    `);
    expect(dispatch.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(dispatch[0]?.description).not.toContain('repository_dispatch');
  });

  it('ignores jobs that are not reusable-workflow calls and odd values', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          secrets: inherit
          steps: [{ run: a }]
        b:
          uses: org/repo/.github/workflows/x.yml@v1
          secrets: [inherit]
        c:
          uses: org/repo/.github/workflows/x.yml@v1
          secrets:
    `)).toEqual([]);
  });
});
