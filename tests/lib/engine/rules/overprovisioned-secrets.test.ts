import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'overprovisioned-secrets';

describe(RULE, () => {
  it('reports toJSON(secrets) and computed secret names at the expression, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        dump:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo start
                ./deploy --config '\${{ toJSON(secrets) }}'
            - env:
                TOKEN: \${{ secrets[format('{0}_TOKEN', matrix.target)] }}
              run: ./push
            - run: ./ok --token "\${{ secrets.DEPLOY_TOKEN }}" --other "\${{ secrets['NAMED'] }}"
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:30 MEDIUM', '10:18 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual(['dump', 'dump']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('every secret');
    expect(records[1]?.finding.description).toContain('computed name');
  });

  it('reports secrets mapped into the workflow-level env of a multi-job workflow, unbound', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      env:
        NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
        GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}
        LEVEL: debug
        HAS_KEY: \${{ secrets.KEY != '' }}
      jobs:
        a: { runs-on: x, steps: [{ run: a }] }
        b: { runs-on: x, steps: [{ run: b }] }
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 MEDIUM']);
    expect(records[0]?.job).toBeNull();
    expect(records[0]?.finding.description).toContain('`NPM_TOKEN`');
  });

  it('does not report the workflow env of a single-job workflow, which is that job\'s env', () => {
    expect(scanWith(RULE, yaml`
      on: push
      env:
        NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
      jobs:
        publish: { runs-on: x, steps: [{ run: npm publish }] }
    `)).toEqual([]);
  });

  it('reports toJSON(secrets) outside jobs and in composite actions', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      run-name: \${{ toJSON(secrets) }}
      jobs: {}
    `))).toEqual(['2:11 MEDIUM']);
    const findings = scanWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          name: x
          runs:
            using: composite
            steps:
              - run: echo "\${{ join(secrets) }}"
                shell: bash
        `,
      },
    ]);
    expect(positions(findings)).toEqual(['5:18 MEDIUM']);
  });
});
