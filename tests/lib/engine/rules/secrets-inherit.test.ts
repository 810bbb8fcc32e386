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
    expect(findings[0]?.description).toContain('HIGH: anyone with a GitHub account can trigger `workflow_run`');
  });

  it('is not HIGH for a reusable workflow of the same repository (./ or $/), nor on repository_dispatch', () => {
    for (const prefix of ['./', '$/']) {
      const onIssues = scanWith(RULE, `on: issues\njobs:\n  triage:\n    uses: ${prefix}.github/workflows/triage.yml\n    secrets: inherit\n`);
      expect(onIssues.map((f) => f.severity), prefix).toEqual(['MEDIUM']);
      expect(onIssues[0]?.description).toContain('Not HIGH: the called workflow is part of this repository');
      const onPush = scanWith(RULE, `on: push\njobs:\n  build:\n    uses: ${prefix}.github/workflows/build.yml\n    secrets: inherit\n`);
      expect(onPush.map((f) => f.severity), prefix).toEqual(['LOW']);
    }
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
