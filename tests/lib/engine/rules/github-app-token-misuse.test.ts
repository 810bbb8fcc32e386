import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'github-app-token-misuse';

describe(RULE, () => {
  it('reports skip-token-revoke, an owner without repositories and missing permissions, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        sync:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/create-github-app-token@v2
              with:
                app-id: \${{ vars.APP_ID }}
                private-key: \${{ secrets.APP_KEY }}
                owner: \${{ github.repository_owner }}
                skip-token-revoke: true
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['6:15 MEDIUM', '10:18 MEDIUM', '11:30 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual(['sync', 'sync', 'sync']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records.map((r) => r.finding.description.split(' ')[0])).toEqual(['The', '`owner:', '`skip-token-revoke:']);
  });

  it('accepts a token scoped to named repositories and permissions', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        sync:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/create-github-app-token@v2
              with:
                app-id: \${{ vars.APP_ID }}
                private-key: \${{ secrets.APP_KEY }}
                owner: my-org
                repositories: docs,website
                permission-contents: write
                skip-token-revoke: false
            - uses: actions/create-github-app-token@v2
              with:
                client-id: \${{ vars.CLIENT_ID }}
                private-key: \${{ secrets.APP_KEY }}
                permission-issues: write
                skip-token-revoke: \${{ inputs.keep }}
    `)).toEqual([]);
  });

  it('reports tibdex/github-app-token without scoping or with revoke: false', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps:
            - uses: tibdex/github-app-token@v2
              with:
                app_id: \${{ vars.APP_ID }}
                private_key: \${{ secrets.APP_KEY }}
                revoke: false
            - uses: tibdex/github-app-token@v2
              with:
                app_id: \${{ vars.APP_ID }}
                private_key: \${{ secrets.APP_KEY }}
                repositories: '["org/repo"]'
                permissions: '{"contents": "write"}'
    `);
    expect(positions(findings)).toEqual(['6:15 MEDIUM', '10:19 MEDIUM']);
    expect(findings[0]?.description).toContain('every repository of the installation');
  });

  it('checks composite-action steps and survives odd shapes', () => {
    expect(positions(scanWith(RULE, [
      {
        path: '.github/actions/token/action.yml',
        text: yaml`
          name: token
          runs:
            using: composite
            steps:
              - uses: actions/create-github-app-token@v2
                with: \${{ fromJSON(inputs.options) }}
              - uses: actions/create-github-app-token@v2
                with:
                  owner: [a, b]
                  permission-contents: read
              - uses: actions/create-github-app-token@v2
        `,
      },
    ]))).toEqual(['11:13 MEDIUM']);
  });
});
