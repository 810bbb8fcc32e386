import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'secrets-outside-env';

describe(RULE, () => {
  it('reports a job using stored secrets without an environment, once, at the first secret', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - run: ./deploy.sh
              env:
                TOKEN: \${{ secrets.DEPLOY_TOKEN }}
                KEY: \${{ secrets.SIGNING_KEY }}
            - uses: actions/checkout@v3
              with: { token: '\${{ secrets.DEPLOY_TOKEN }}' }
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:18 INFO']);
    expect(records[0]?.job).toBe('deploy');
    expect(records[0]?.finding.description).toBe(
      'Job `deploy` uses secrets `DEPLOY_TOKEN`, `SIGNING_KEY` without an `environment:`, so no environment protection rule applies to them.',
    );
  });

  it('does not report jobs with an environment, the GITHUB_TOKEN, tests of a secret, or reusable-workflow calls', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        deploy:
          environment: production
          runs-on: ubuntu-latest
          steps: [{ run: ./deploy.sh, env: { TOKEN: '\${{ secrets.DEPLOY_TOKEN }}' } }]
        build:
          runs-on: ubuntu-latest
          steps:
            - run: make
              env: { GH_TOKEN: '\${{ secrets.GITHUB_TOKEN }}' }
            - if: \${{ secrets.NPM_TOKEN != '' }}
              run: echo has a token
        call:
          uses: org/repo/.github/workflows/deploy.yml@v1
          secrets: { token: '\${{ secrets.DEPLOY_TOKEN }}' }
    `)).toEqual([]);
  });
});
