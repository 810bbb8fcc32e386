import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'continue-on-error';

describe(RULE, () => {
  it('reports continue-on-error: true on a security-gate or publishing job at its value, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        audit:
          runs-on: ubuntu-latest
          continue-on-error: true
          steps: [{ run: npm audit --audit-level=high }]
        release:
          runs-on: ubuntu-latest
          continue-on-error: \${{ true }}
          steps: [{ run: npm publish }]
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['5:24 LOW', '9:24 LOW']);
    expect(records.map((r) => r.job)).toEqual(['audit', 'release']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('it runs npm audit');
    expect(records[1]?.finding.description).toContain('it publishes (');
  });

  it('leaves test, lint and best-effort jobs that may fail alone', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        flaky:
          runs-on: ubuntu-latest
          continue-on-error: true
          steps: [{ run: make test }]
        lint:
          runs-on: ubuntu-latest
          continue-on-error: true
          steps: [{ uses: actions/checkout@v4 }, { run: npx eslint . }]
        nightly:
          runs-on: ubuntu-latest
          continue-on-error: true
          steps: [{ run: cargo +nightly build }]
    `)).toEqual([]);
  });

  it('reports signature and checksum verifications as security gates, not plain hashing', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        fetch:
          runs-on: ubuntu-latest
          steps:
            - run: sha256sum -c tool.tar.gz.sha256
              continue-on-error: true
            - run: gpg --verify tool.tar.gz.asc tool.tar.gz
              continue-on-error: true
            - run: sha256sum tool.tar.gz > sums.txt
              continue-on-error: true
    `);
    expect(positions(findings)).toEqual(['7:28 LOW', '9:28 LOW']);
    expect(findings[0]?.description).toContain('a checksum verification');
  });

  it('a verification chained with `&&` to its use: silent in a read-only job, and never claims the download is used', () => {
    const wf = (permissions: string, extra = '') => yaml`
      on: pull_request
      permissions: ${permissions}
      jobs:
        fetch:
          runs-on: ubuntu-latest
          steps:
            - run: sha256sum -c tool.tar.gz.sha256 && ./install.sh
              continue-on-error: true
            - run: gpg --verify tool.tar.gz.asc tool.tar.gz && tar xzf tool.tar.gz${extra}
              continue-on-error: true
    `;
    // A read-only pull_request CI job: a failed check still stops the install, nothing is held.
    expect(scanWith(RULE, wf('{ contents: read }'))).toEqual([]);
    const held = scanWith(RULE, wf('{ contents: write }'));
    expect(positions(held)).toEqual(['8:28 LOW', '10:28 LOW']);
    expect(held[0]?.description).toContain('a failed check still stops `./install.sh`');
    expect(held[0]?.description).toContain('`contents: write`');
    // Negative: a verification whose failure lets the script go on (`||`, `;`) still hides an unverified use.
    const open = scanWith(RULE, wf('{ contents: read }', ' || true; ./tool'));
    expect(positions(open)).toEqual(['10:28 LOW']);
    expect(open[0]?.description).toContain('the job passes even when the tool fails');
    // Negative: `bash -e` does not stop at a failed command inside an `&&` list, so a later line still runs.
    expect(positions(scanWith(RULE, yaml`
      on: pull_request
      permissions: { contents: read }
      jobs:
        fetch:
          runs-on: ubuntu-latest
          steps:
            - run: |
                sha256sum -c tool.tar.gz.sha256 && tar xzf tool.tar.gz
                ./tool/install.sh
              continue-on-error: true
    `))).toEqual(['10:28 LOW']);
  });

  it('leaves expressions that decide per run (matrix experiments) alone', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              experimental: [false, true]
          continue-on-error: \${{ matrix.experimental }}
          steps:
            - uses: github/codeql-action/analyze@v3
              continue-on-error: \${{ github.event_name == 'pull_request' }}
        strict:
          runs-on: ubuntu-latest
          continue-on-error: false
          steps: [{ run: make }]
    `)).toEqual([]);
  });

  it('reports security tools on steps: actions, scanners, audits and named security checks', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        scan:
          runs-on: ubuntu-latest
          steps:
            - uses: github/codeql-action/analyze@v3
              continue-on-error: true
            - uses: aquasecurity/trivy-action@0.28.0
              continue-on-error: 'true'
            - run: npm audit --audit-level=high
              continue-on-error: true
            - run: |
                pip install pip-audit
                pip-audit -r requirements.txt
              continue-on-error: true
            - run: npx audit-ci@7 --high
              continue-on-error: true
            - name: Audit prod NPM dependencies
              run: node utils/check_audit.js
              continue-on-error: true
            - run: cargo audit
              continue-on-error: true
    `);
    expect(positions(findings)).toEqual(['7:28 LOW', '9:28 LOW', '11:28 LOW', '15:28 LOW', '17:28 LOW', '20:28 LOW', '22:28 LOW']);
    expect(findings[0]?.description).toContain('github/codeql-action/analyze');
    expect(findings[2]?.description).toContain('npm audit');
  });

  it('ignores continue-on-error on other steps and on SARIF uploads', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: npm ci && npm test
              continue-on-error: true
            - uses: github/codeql-action/upload-sarif@v3
              continue-on-error: true
            - uses: codecov/codecov-action@v4
              continue-on-error: true
            - name: Audit log upload
              run: ./upload.sh
              continue-on-error: true
            - run: npm audit
    `)).toEqual([]);
  });

  it('checks composite-action steps', () => {
    expect(positions(scanWith(RULE, [
      {
        path: '.github/actions/scan/action.yml',
        text: yaml`
          runs:
            using: composite
            steps:
              - run: trivy fs --exit-code 1 .
                shell: bash
                continue-on-error: true
        `,
      },
    ]))).toEqual(['6:26 LOW']);
  });
});
