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
          steps: [{ uses: actions/checkout@v3 }, { run: npx eslint . }]
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

  describe('a verification that stops the use of what it checks, in the same script', () => {
    const step = (script: string, extra = '') => yaml`
      on: push
      permissions: { contents: write }
      jobs:
        fetch:
          runs-on: ubuntu-latest${extra}
          steps:
            - run: |
${script.split('\n').map((l) => `                ${l}`).join('\n')}
              continue-on-error: true
    `;
    const reported = (script: string, extra = '') => scanWith(RULE, step(script, extra)).length;

    it('negative: an `&&` chain to the end of the script does not run the file when the check fails, whatever the job holds', () => {
      for (const script of [
        'sha256sum -c tool.tar.gz.sha256 && ./install.sh',
        'echo "$SUM  installer.sh" | sha256sum --check && bash installer.sh',
        'shasum -a 256 -c installer.sh.sha256 && sh installer.sh',
        'curl -fsSLO https://example.com/installer.sh\ncd tools && sha256sum -c ../installer.sh.sha256 && sh ../installer.sh',
        'gpg --verify tool.tar.gz.asc tool.tar.gz && tar xzf tool.tar.gz && ./tool/install.sh',
        'sha256sum -c installer.sh.sha256 && sh installer.sh || exit 1\necho done',
      ]) {
        expect(reported(script), script).toBe(0);
      }
    });

    it('negative: with `-e` (the default `bash -e`, `shell: bash`, `shell: sh`, `set -e`) a failed check on its own stops the script', () => {
      const separate = 'sha256sum -c installer.sh.sha256\nsh installer.sh';
      expect(reported(separate)).toBe(0);
      expect(reported('sha256sum -c installer.sh.sha256; sh installer.sh')).toBe(0);
      expect(reported(separate, '\n          defaults: { run: { shell: sh } }')).toBe(0);
      expect(reported(separate, '\n          defaults: { run: { shell: bash } }')).toBe(0);
      // `shell: bash` adds pipefail: a check before the end of a pipeline fails it too.
      expect(reported('sha256sum -c installer.sh.sha256 | tee check.log\nsh installer.sh', '\n          defaults: { run: { shell: bash } }')).toBe(0);
      // A custom command has only its own options; the script's `set -e` turns it on.
      expect(reported(`set -euo pipefail\n${separate}`, '\n          defaults: { run: { shell: "bash {0}" } }')).toBe(0);
      expect(reported(separate, '\n          defaults: { run: { shell: "bash -e {0}" } }')).toBe(0);
      expect(reported('sha256sum -c installer.sh.sha256 || { echo "bad checksum"; exit 1; }\nsh installer.sh', '\n          defaults: { run: { shell: "bash {0}" } }')).toBe(0);
      // An `&&` chain that uses the file after the check, then more lines that do not name it: a failed check
      // skips the rest of the chain, and the later lines never run the unverified file.
      expect(reported('wget -q https://example.com/installer.sh && echo "abc  installer.sh" | sha256sum -c && sh installer.sh\necho done\nrm -f build.log')).toBe(0);
      expect(reported('sha256sum -c tool.tar.gz.sha256 && tar xzf tool.tar.gz\n./tool/install.sh')).toBe(0);
      // The same when a later line only deletes the file, or the chain ends in an `||` branch that does not name it
      // (a best-effort install that warns): neither runs the unverified file.
      expect(reported('curl -fsSLo tool.tar.gz https://example.com/tool.tar.gz && echo "abc  tool.tar.gz" | sha256sum -c && tar xzf tool.tar.gz\nsudo mv tool /usr/local/bin/tool\nrm -f tool.tar.gz')).toBe(0);
      expect(reported('curl -fsSLo tool.tar.gz https://example.com/tool.tar.gz && echo "abc  tool.tar.gz" | sha256sum -c && tar xzf tool.tar.gz || echo "::warning::tool not installed"')).toBe(0);
      expect(reported('sha256sum -c installer.sh.sha256 && sh installer.sh || echo skipped\necho done')).toBe(0);
      // A chain whose lines end in `&&` (bash reads on to the next line), and one that extracts into a directory a
      // later line puts on the PATH: a stopped chain extracted nothing there.
      expect(reported('curl -fsSLo tool.tgz https://example.com/tool.tgz &&\n  echo "abc  tool.tgz" | sha256sum -c &&\n  tar xzf tool.tgz')).toBe(0);
      expect(reported('curl -fsSLo tool.tgz https://example.com/tool.tgz && echo "abc  tool.tgz" | sha256sum -c && tar xzf tool.tgz -C "$HOME/.local/bin"\necho "$HOME/.local/bin" >> "$GITHUB_PATH"')).toBe(0);
    });

    it('positive: a check whose failure lets the script go on to the file, or that gates nothing in its step', () => {
      for (const [script, extra] of [
        // Masked: `|| true`, or an `&&` list followed by more (`-e` does not act inside an `&&` list).
        ['sha256sum -c installer.sh.sha256 || true\nsh installer.sh', ''],
        // An `&&` chain that uses the file, followed by a line that names the same file again.
        ['wget -q https://example.com/installer.sh && echo "abc  installer.sh" | sha256sum -c && sh installer.sh\nsh installer.sh', ''],
        ['sha256sum -c installer.sh.sha256 && sh installer.sh\n./installer.sh --again', ''],
        ['sha256sum -c installer.sh.sha256 && echo verified; sh installer.sh', ''],
        // An `||` branch (or a line after it) that runs the file anyway; a deletion that runs it first.
        ['sha256sum -c installer.sh.sha256 && sh installer.sh || sh installer.sh --force', ''],
        ['sha256sum -c installer.sh.sha256 && sh installer.sh || echo skipped\nbash installer.sh', ''],
        ['sha256sum -c installer.sh.sha256 && sh installer.sh\nrm -f "$(sh installer.sh --print-path)" installer.sh', ''],
        // Lines ending in `&&` are one chain; the line after it runs the file anyway. A later line that extracts the
        // downloaded archive itself.
        ['curl -fsSLo tool.sh https://example.com/tool.sh &&\n  echo "abc  tool.sh" | sha256sum -c &&\n  sh tool.sh\nsh tool.sh', ''],
        ['curl -fsSLo tool.tgz https://example.com/tool.tgz && echo "abc  tool.tgz" | sha256sum -c && tar xzf tool.tgz -C "$HOME/bin"\ntar xzf tool.tgz -C /usr/local', ''],
        // Not the last command of a pipeline, without pipefail (the default `bash -e` has none).
        ['sha256sum -c installer.sh.sha256 | tee check.log\nsh installer.sh', ''],
        // No `-e`: a custom shell command without it, the script's `set +e`, PowerShell on a Windows runner.
        ['sha256sum -c installer.sh.sha256\nsh installer.sh', '\n          defaults: { run: { shell: "bash {0}" } }'],
        ['set +e\nsha256sum -c installer.sh.sha256\nsh installer.sh', ''],
        ['sha256sum -c installer.sh.sha256\nsh installer.sh', '\n          defaults: { run: { shell: pwsh } }'],
        // Nothing after the check in its step: the job goes on to the steps that use the file.
        ['curl -fsSLO https://example.com/installer.sh\nsha256sum -c installer.sh.sha256', ''],
        // Another security tool in the same step: its failure is hidden.
        ['sha256sum -c trivy.tar.gz.sha256 && tar xzf trivy.tar.gz && ./trivy fs .', ''],
      ] as const) {
        expect(reported(script, extra), script).toBe(1);
      }
      expect(scanWith(RULE, step('sha256sum -c installer.sh.sha256 || true\nsh installer.sh'))[0]?.description).toContain('the job passes even when the tool fails');
    });
  });

  // A container's script written over many lines inside one double-quoted `bash -c` argument: one long `&&` chain
  // from the download to the last command, with a line that starts with `#` inside the quotes.
  const containerChain = (check: string, tail = '') => [
    'docker run --rm -v "$PWD:/src" -w /src debian:12 /bin/bash -c "',
    '  apt-get update && apt-get install -y curl make &&',
    '  curl -LsSf https://example.com/setup.sh -o /tmp/setup.sh &&',
    `  ${check}`,
    '  sh /tmp/setup.sh &&',
    '  export PATH=\\$HOME/.local/bin:\\$PATH &&',
    '  # build and test with the installed tool',
    '  make build &&',
    `  make check${tail}`,
    '"',
  ].join('\n');

  describe('a verification inside a nested shell the step runs (`docker run IMAGE bash -c "..."`, `sh -c`)', () => {
    const step = (script: string, extra = '') => yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest${extra}
          steps:
            - run: |
${script.split('\n').map((l) => `                ${l}`).join('\n')}
              continue-on-error: true
    `;
    const reported = (script: string, extra = '') => scanWith(RULE, step(script, extra)).length;

    it('negative: the inner script\'s own `&&` chain or `set -e` stops the use of the file when the check fails', () => {
      for (const script of [
        `docker run --rm -v "$PWD:/w" -w /w ubuntu:24.04 bash -c "curl -fsSLo tool.tgz https://example.com/tool.tgz && echo 'abc123  tool.tgz' | sha256sum -c && tar xzf tool.tgz"`,
        `sh -c 'curl -fsSLo tool.tgz https://example.com/tool.tgz && sha256sum -c tool.tgz.sha256 && tar xzf tool.tgz'`,
        `docker exec builder sh -c 'set -e; sha256sum -c tool.tgz.sha256; tar xzf tool.tgz'`,
        // A nested shell started with `-e` (`bash -ec`): a failed check on its own stops the inner script.
        `bash -ec 'sha256sum -c tool.tgz.sha256; tar xzf tool.tgz'`,
        // The inner script ends with the failure, so the command fails, and the step's `bash -e` stops there.
        `bash -c 'sha256sum -c tool.tgz.sha256'\ntar xzf tool.tgz`,
        // The inner chain stops and the inner script goes on (a line without `&&`), then the step goes on too: neither
        // names the file again (running what the chain would have extracted finds nothing; deleting it runs nothing).
        `bash -c 'sha256sum -c tool.tgz.sha256 && tar xzf tool.tgz; echo done'\n./tool/install.sh\nrm -f tool.tgz`,
        `${containerChain("echo 'ab12cd34  /tmp/setup.sh' | sha256sum -c - &&", '\n  make test')}\nls build\necho done`,
      ]) {
        expect(reported(script), script).toBe(0);
      }
    });

    it('positive: the inner script goes on to the file (a nested shell has no `-e` of its own), or runs another security tool', () => {
      for (const script of [
        // `bash -c` starts without `-e`: the inner `;` goes on to the file.
        `docker run --rm -v "$PWD:/w" -w /w ubuntu:24.04 bash -c "curl -fsSLo tool.tgz https://example.com/tool.tgz; echo 'abc123  tool.tgz' | sha256sum -c; tar xzf tool.tgz"`,
        `sh -c 'sha256sum -c tool.tgz.sha256 || true; tar xzf tool.tgz'`,
        // The inner chain stops, but the inner script then succeeds, so the step goes on to a line that uses the file.
        `bash -c 'sha256sum -c tool.tgz.sha256 && tar xzf tool.tgz; echo done'\ntar xzf tool.tgz -C /opt`,
        `docker run --rm -v "$PWD:/w" -w /w alpine sh -c 'sha256sum -c tool.tgz.sha256 && tar xzf tool.tgz; echo done' && ./install.sh tool.tgz`,
        // The check gates nothing: the job goes on to the steps that use the file.
        `docker run --rm -v "$PWD:/w" -w /w alpine sh -c 'sha256sum -c tool.tgz.sha256'`,
        // Another security tool in the nested shell: its failure is hidden.
        `docker run --rm -v "$PWD:/w" -w /w node:22 sh -c 'sha256sum -c deps.sha256 && npm audit'`,
      ]) {
        expect(reported(script), script).toBe(1);
      }
      const found = scanWith(RULE, step(`sh -c 'sha256sum -c tool.tgz.sha256; tar xzf tool.tgz'`));
      expect(found[0]?.description).toContain('a checksum verification (`sha256sum -c`)');
    });

    it('negative: a nested script over several quoted lines, the check and every use of the file in one `&&` chain', () => {
      for (const script of [
        containerChain("echo 'ab12cd34  /tmp/setup.sh' | sha256sum -c - &&"),
        // What the chain does besides (more commands, other files) does not matter, nor what follows the container.
        `${containerChain("echo 'ab12cd34  /tmp/setup.sh' | sha256sum -c - &&", ' && make install DESTDIR=/src/out')}\nls out`,
        `ssh builder@ci.example.com sh -c '\n  curl -fsSLo tool.tgz https://example.com/tool.tgz &&\n  sha256sum -c tool.tgz.sha256 &&\n  tar xzf tool.tgz\n'`,
      ]) {
        expect(reported(script), script).toBe(0);
      }
    });

    it('positive: the same nested script when the check\'s failure is ignored, or the file is used outside the chain', () => {
      for (const script of [
        containerChain("echo 'ab12cd34  /tmp/setup.sh' | sha256sum -c - || true &&"),
        // `;` then the use, and the inner `bash -c` has no `-e`.
        containerChain("echo 'ab12cd34  /tmp/setup.sh' | sha256sum -c - ;"),
        // The chain stops, then a later line of the inner script runs the file anyway.
        containerChain("echo 'ab12cd34  /tmp/setup.sh' | sha256sum -c - &&", '\n  sh /tmp/setup.sh --again'),
      ]) {
        expect(reported(script), script).toBe(1);
      }
    });
  });

  describe('job-level `continue-on-error: true` on a job that verifies a download', () => {
    // GitHub: job-level `continue-on-error` lets the workflow run pass when the job fails; a failed step still
    // skips the job's later steps (their implicit `success()`), and jobs that need it see it as a success.
    const job = (steps: string) => yaml`
      on: push
      jobs:
        fetch:
          runs-on: ubuntu-latest
          continue-on-error: true
          steps:
${steps}
    `;

    it('negative: a failed check fails its step, so the later steps that use the file are skipped', () => {
      for (const steps of [
        `
            - run: curl -fsSLo tool.tgz https://example.com/tool.tgz
            - run: echo "abc123  tool.tgz" | sha256sum -c
            - run: tar xzf tool.tgz && ./tool/install.sh`,
        `
            - run: |
                curl -fsSLo tool.tgz https://example.com/tool.tgz
                echo "abc123  tool.tgz" | sha256sum -c
                tar xzf tool.tgz
            - run: ./tool/install.sh`,
        `
            - run: docker run --rm -v "$PWD:/w" -w /w alpine sh -c 'wget -O tool.tgz https://example.com/tool.tgz && sha256sum -c tool.tgz.sha256'
            - run: tar xzf tool.tgz`,
        // The container's script ends with the chain that holds the check and the installer: a failed check fails it,
        // and the docker command, the last of the step, fails the step.
        `
            - run: |
${containerChain("echo 'ab12cd34  /tmp/setup.sh' | sha256sum -c - &&").split('\n').map((l) => `                ${l}`).join('\n')}
            - run: ls build`,
        // The chain holds every use of the file and more follows it, so the step goes on after a failed check (as it
        // would without continue-on-error); no later step names the file. Nor does running what the chain would have
        // extracted (absent when it stopped).
        `
            - run: |
${containerChain("echo 'ab12cd34  /tmp/setup.sh' | sha256sum -c - &&", '\n  make test').split('\n').map((l) => `                ${l}`).join('\n')}
            - run: ls build`,
        `
            - run: |
                sha256sum -c tool.tgz.sha256 && tar xzf tool.tgz
                echo done
            - run: ./tool/install.sh`,
        // The container's chain ends at a line without \`&&\` (its script goes on), and the step's script goes on
        // after the container: the installer only ran in the chain, which a failed check stopped, and nothing after
        // names it. The same with the file named through a variable.
        `
            - run: |
${containerChain("echo 'ab12cd34  /tmp/setup.sh' | sha256sum -c - &&", '\n  make test').split('\n').map((l) => `                ${l}`).join('\n')}
                ls build
            - run: make dist`,
        `
            - run: |
                curl -fsSLo "$TOOL" "$URL" && echo "$SUM  $TOOL" | sha256sum -c && tar xzf "$TOOL"
                echo done
            - run: make dist`,
      ]) {
        expect(scanWith(RULE, job(steps)), steps).toEqual([]);
      }
    });

    it('positive: a check whose failure does not fail its step, a later step that runs after a failure, or an artifact uploaded before the check', () => {
      for (const steps of [
        // The `&&` chain stops, but the script then succeeds: the step passes and the next step uses the file.
        `
            - run: |
                sha256sum -c tool.tgz.sha256 && tar xzf tool.tgz
                echo done
            - run: tar xzf tool.tgz -C /opt && /opt/tool/install.sh`,
        // The same with the chain in a container's script, and a later step that runs the file.
        `
            - run: |
${containerChain("echo 'ab12cd34  /tmp/setup.sh' | sha256sum -c - &&", '\n  make test').split('\n').map((l) => `                ${l}`).join('\n')}
            - run: sh /tmp/setup.sh`,
        // The container's chain stops at a failed check, but the step's script, going on after it, runs the file.
        `
            - run: |
${containerChain("echo 'ab12cd34  /tmp/setup.sh' | sha256sum -c - &&", '\n  make test').split('\n').map((l) => `                ${l}`).join('\n')}
                sh /tmp/setup.sh
            - run: make dist`,
        // A file named through a variable, run again by a later step.
        `
            - run: |
                curl -fsSLo "$TOOL" "$URL" && echo "$SUM  $TOOL" | sha256sum -c && tar xzf "$TOOL"
                echo done
            - run: tar xzf "$TOOL" -C /opt`,
        `
            - run: sha256sum -c tool.tgz.sha256 || true
            - run: tar xzf tool.tgz`,
        `
            - run: sha256sum -c tool.tgz.sha256
            - run: tar xzf tool.tgz
              if: always()`,
        `
            - run: sha256sum -c tool.tgz.sha256
              continue-on-error: true
            - run: tar xzf tool.tgz`,
        `
            - uses: actions/upload-artifact@v4
              with: { name: tool, path: tool.tgz }
            - run: sha256sum -c tool.tgz.sha256`,
      ]) {
        const found = scanWith(RULE, job(steps)).filter((f) => f.line === 5);
        expect(found.map((f) => f.description.slice(0, 60)), steps).toHaveLength(1);
        expect(found[0]?.description, steps).toContain('a checksum verification');
      }
    });

    it('positive: a job that also runs another security gate, or publishes, is still reported', () => {
      expect(positions(scanWith(RULE, job(`
            - run: sha256sum -c tool.tgz.sha256
            - run: npm audit --audit-level=high`)))).toEqual(['5:24 LOW']);
      const published = scanWith(RULE, job(`
            - run: sha256sum -c tool.tgz.sha256
            - run: npm publish`));
      expect(positions(published)).toEqual(['5:24 LOW']);
      expect(published[0]?.description).toContain('it publishes (');
    });
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

  it('leaves a gate step whose failed outcome a later step turns back into a failed job, and reports one whose later step only reports it', () => {
    const workflow = (last: string, upload = "if: github.ref == 'refs/heads/main'") => yaml`
      on: push
      jobs:
        zizmor:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - id: zizmor
              run: uvx zizmor --format=sarif . > results.sarif
              continue-on-error: true
            - ${upload}
              uses: github/codeql-action/upload-sarif@v3
              with: { sarif_file: results.sarif }
${last}
    `;
    const fails = [
      `            - if: steps.zizmor.outcome == 'failure'
              run: exit 1`,
      `            - if: \${{ steps.zizmor.outcome != 'success' }}
              run: |
                echo "zizmor found problems"
                exit 1`,
      `            - if: steps.zizmor.outcome == 'failure'
              uses: actions/github-script@v7
              with:
                script: core.setFailed('zizmor found problems')`,
    ];
    for (const last of fails) expect(scanWith(RULE, workflow(last)), last).toEqual([]);
    const reports = [
      // Only a message: the job still passes.
      `            - if: steps.zizmor.outcome == 'failure'
              run: echo "::warning::zizmor found problems"`,
      // Another step's outcome.
      `            - if: steps.other.outcome == 'failure'
              run: exit 1`,
      // Its conclusion, which continue-on-error leaves a success.
      `            - if: steps.zizmor.conclusion == 'failure'
              run: exit 1`,
      // exit 0 does not fail.
      `            - if: steps.zizmor.outcome == 'failure'
              run: exit 0`,
    ];
    for (const last of reports) expect(positions(scanWith(RULE, workflow(last))), last).toEqual(['9:28 LOW']);
    // A script that reads the outcome itself and fails the job (the steps between may upload reports).
    const script = `            - run: |
                if [[ "\${{ steps.zizmor.outcome }}" == "failure" ]]; then
                  echo "zizmor found problems"
                  exit 1
                fi`;
    expect(scanWith(RULE, workflow(script))).toEqual([]);
    expect(positions(scanWith(RULE, workflow(script.replace('exit 1', 'exit 0'))))).toEqual(['9:28 LOW']);
    // Its SARIF report uploaded on every run: the findings reach code scanning, whose own check shows them.
    expect(scanWith(RULE, workflow('', 'if: always()'))).toEqual([]);
    expect(scanWith(RULE, workflow('', 'name: upload'))).toEqual([]);
    expect(scanWith(RULE, workflow('', 'if: success()'))).toEqual([]);
    // Uploaded on some runs only: the others hide the findings.
    expect(positions(scanWith(RULE, workflow('', "if: github.ref == 'refs/heads/main'")))).toEqual(['9:28 LOW']);
    // Uploaded whenever the report exists (another step's output, after a file-existence check): the findings reach
    // code scanning; only a scanner that wrote no report goes unnoticed.
    expect(scanWith(RULE, workflow('', "if: steps.check_files.outputs.files_exists == 'true'"))).toEqual([]);
    // Negative: a condition on the scan's own outcome, or one mixing in the ref, is no such upload.
    expect(positions(scanWith(RULE, workflow('', "if: steps.zizmor.outputs.found == 'true'")))).toEqual(['9:28 LOW']);
    expect(positions(scanWith(RULE, workflow('', "if: steps.check_files.outputs.files_exists == 'true' && github.ref == 'refs/heads/main'")))).toEqual(['9:28 LOW']);
  });

  it('leaves `snyk monitor`, which fails only when it cannot record a snapshot, and reports `snyk test`', () => {
    const workflow = (command: string) => yaml`
      on: push
      jobs:
        snyk:
          runs-on: ubuntu-latest
          steps:
            - run: ${command}
              continue-on-error: true
    `;
    expect(scanWith(RULE, workflow('snyk monitor --all-projects'))).toEqual([]);
    expect(positions(scanWith(RULE, workflow('snyk test --all-projects')))).toEqual(['7:28 LOW']);
  });
});
