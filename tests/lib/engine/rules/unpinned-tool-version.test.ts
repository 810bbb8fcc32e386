import { describe, expect, it } from 'vitest';
import { isFloating } from '../../../../lib/engine/rules/unpinned-tool-version.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'unpinned-tool-version';

describe(RULE, () => {
  it('knows which version specs float', () => {
    for (const v of ['latest', '*', 'x', 'lts/*', 'node', 'current', 'stable', 'oldstable', '>=1.22', 'LATEST']) expect(isFloating(v), v).toBe(true);
    for (const v of ['22', '24.x', '20.11.1', 'lts/iron', '3.13', 'v2.x']) expect(isFloating(v), v).toBe(false);
    expect(isFloating('3.x', '3')).toBe(true);
    expect(isFloating('3', '3')).toBe(true);
    expect(isFloating('3.12', '3')).toBe(false);
  });

  it('reports a missing version at uses and a floating one at the input, LOW, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/setup-node@v4
            - uses: actions/setup-go@v5
              with:
                go-version: stable
            - uses: actions/setup-python@v5
              with:
                python-version: 3.x
            - uses: hashicorp/setup-terraform@v3
              with:
                cli_config_credentials_token: x
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['6:15 LOW', '9:23 LOW', '12:27 LOW', '13:15 LOW']);
    expect(records.every((r) => r.job === 'build')).toBe(true);
    expect(records[0]?.finding.description).toContain('`node-version` or `node-version-file`');
    expect(records[1]?.finding.description).toContain('`stable`');
  });

  it('accepts explicit versions, version files and actions that read a version file by default', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/setup-node@v4
              with: { node-version: 22 }
            - uses: actions/setup-node@v4
              with: { node-version-file: .nvmrc }
            - uses: actions/setup-go@v5
              with: { go-version-file: go.mod }
            - uses: actions/setup-python@v5
            - uses: ruby/setup-ruby@v1
            - uses: pnpm/action-setup@v4
            - uses: actions/setup-dotnet@v4
            - uses: actions/setup-python@v5
              with:
                python-version: |
                  3.12
                  3.13
    `)).toEqual([]);
  });

  it('knows tool installers that default to the latest release (setup-trivy, the 1Password CLI)', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        scan:
          runs-on: ubuntu-latest
          steps:
            - uses: aquasecurity/setup-trivy@v0.2.6
            - uses: aquasecurity/setup-trivy@v0.2.6
              with:
                version: latest
            - uses: 1password/load-secrets-action@v4
            - uses: 1password/load-secrets-action@v4
              with:
                version: 2.31.1
            - uses: aquasecurity/setup-trivy@v0.2.6
              with:
                version: v0.56.1
    `);
    expect(positions(findings)).toEqual(['6:15 LOW', '9:20 LOW', '10:15 LOW']);
    expect(findings[0]?.description).toBe(
      '`aquasecurity/setup-trivy` is given no `version`, so the job uses whatever version the runner image or the latest release provides.',
    );
    expect(findings[1]?.description).toContain('`version` is `latest`');
    expect(findings[2]?.description).toContain('`1password/load-secrets-action` is given no `version`');
  });

  it('resolves matrix versions and reports the floating ones', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              node: [20, 22, latest]
          steps:
            - uses: actions/setup-node@v4
              with:
                node-version: \${{ matrix.node }}
            - uses: actions/setup-node@v4
              with:
                node-version: \${{ inputs.node }}
    `);
    expect(positions(findings)).toEqual(['11:25 LOW']);
    expect(findings[0]?.description).toContain('`latest`');
  });

  it('reports floating values of actions that default to a version file', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: oven-sh/setup-bun@v2
              with:
                bun-version: latest
    `))).toEqual(['8:24 LOW']);
  });

  it('checks composite-action steps', () => {
    const records = recordsWith(RULE, [{ path: 'action.yml', text: 'runs:\n  using: composite\n  steps:\n    - uses: azure/setup-helm@v4\n' }]);
    expect(positions(records.map((r) => r.finding))).toEqual(['4:13 LOW']);
    expect(records[0]?.job).toBeNull();
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/setup-node@v4
              with: 3
            - uses: actions/setup-go@v5
              with:
                go-version: [1, 2]
            - uses: actions/setup-node@v4
              with:
                node-version: 20
    `).map((f) => f.line)).toEqual([6]);
  });
});
