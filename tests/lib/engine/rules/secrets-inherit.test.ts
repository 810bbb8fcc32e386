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

  it('is HIGH on a privileged trigger', () => {
    expect(positions(scanWith(RULE, yaml`
      on: workflow_run
      jobs:
        report:
          uses: ./.github/workflows/report.yml
          secrets: "inherit"
    `))).toEqual(['5:14 HIGH']);
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
