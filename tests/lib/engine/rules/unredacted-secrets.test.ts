import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'unredacted-secrets';

describe(RULE, () => {
  it('reports fromJSON of a secret, with or without a field, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        deploy:
          runs-on: ubuntu-latest
          env:
            DB_PASSWORD: \${{ fromJSON(secrets.DB_CREDENTIALS).password }}
          steps:
            - uses: azure/login@v2
              with:
                client-id: \${{ fromJson(secrets.AZURE)['clientId'] }}
                creds: \${{ fromJSON(secrets.AZURE_CREDS) }}
                tenant: \${{ secrets.AZURE_TENANT }}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['6:20 MEDIUM', '10:22 MEDIUM', '11:18 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual(['deploy', 'deploy', 'deploy']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('reads a field of `secrets.DB_CREDENTIALS`');
    expect(records[2]?.finding.description).toContain('decodes `secrets.AZURE_CREDS`');
  });

  it('does not report fromJSON results that only feed a test', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          if: \${{ fromJSON(secrets.FLAGS).deploy == true }}
          steps:
            - run: echo "\${{ fromJSON(secrets.CONFIG).enabled && 'yes' || 'no' }}" > /dev/null
              if: fromJSON(secrets.CONFIG).enabled
    `)).toEqual([]);
  });

  it('reports pieces of a secret taken in a script', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps:
            - env:
                TOKEN: \${{ secrets.API_TOKEN }}
                LEVEL: debug
              run: |
                echo "prefix: \${TOKEN:0:6}"
                ID="\${TOKEN%%.*}"
                echo "\${LEVEL:0:1} \${#TOKEN} \${TOKEN:-none}"
                $short = $env:TOKEN.Substring(0, 4)
    `);
    // Printed by `echo`: MEDIUM; kept in a variable or a PowerShell value, not printed here: LOW.
    expect(positions(records.map((r) => r.finding))).toEqual(['10:25 MEDIUM', '11:15 LOW', '13:20 LOW']);
    expect(records[0]?.finding.description).toContain('takes a piece of `TOKEN`');
    expect(records[0]?.finding.description).toContain('`echo` writes it to the job log');
    expect(records[1]?.finding.description).toContain('this script does not print it');
  });

  it('does not call a piece printed when a group, subshell or loop sends it to a file or $GITHUB_ENV', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps:
            - env:
                TOKEN: \${{ secrets.API_TOKEN }}
              run: |
                {
                  echo "id=\${TOKEN:0:6}"
                } >> "$GITHUB_ENV"
                (
                  echo "\${TOKEN:0:6}"
                ) > id.txt
                for i in 1 2; do
                  printf '%s\\n' "\${TOKEN:0:6}"
                done | sort > ids.txt
                if true; then echo "\${TOKEN:0:6}"; fi > /dev/null
                cat <<EOF > config
                token_prefix=\${TOKEN:0:6}
                EOF
                cat <<EOF
                token_prefix=\${TOKEN:0:6}
                EOF
                { echo "\${TOKEN:0:6}"; } >&2
                curl -H "X-Id: \${TOKEN:0:6}" https://example.com
    `);
    expect(positions(findings)).toEqual(['10:22 LOW', '13:19 LOW', '16:28 LOW', '18:31 LOW', '20:24 LOW', '23:24 MEDIUM', '25:19 MEDIUM', '26:26 LOW']);
    expect(findings[0]?.description).toContain('this script does not print it');
    expect(findings[5]?.description).toContain('`cat` writes it to the job log');
  });

  it('judges fromJSON of a secret inside a script by the command around it', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps:
            - run: |
                echo "user: \${{ fromJSON(secrets.CREDS).user }}"
                curl -u "\${{ fromJSON(secrets.CREDS).user }}:x" https://example.com
                {
                  echo "USER=\${{ fromJSON(secrets.CREDS).user }}"
                } >> "$GITHUB_ENV"
    `);
    expect(positions(findings)).toEqual(['7:23 MEDIUM', '8:20 LOW', '10:24 LOW']);
    expect(findings[0]?.description).toContain('`echo` writes it to the job log');
    expect(findings[2]?.description).toContain('this script does not print it');
  });

  it('checks workflow-level values and composite actions', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      env:
        USER: \${{ fromJSON(secrets.CREDS).user }}
      jobs: {}
    `))).toEqual(['3:9 MEDIUM']);
    expect(positions(scanWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          name: x
          runs:
            using: composite
            steps:
              - run: echo "\${KEY:2}"
                shell: bash
                env:
                  KEY: \${{ inputs.key }}
        `,
      },
    ]))).toEqual([]);
  });

  it('does not throw on odd shapes', () => {
    const odd = [
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps: 3\n',
      'on: push\nenv: [a]\njobs:\n  a:\n    runs-on: x\n    env: 7\n    container: {image: x, credentials: {password: 5}}\n    services: {db: 3}\n    steps:\n      - 1\n      - run: 42\n        env: {A: {b: c}, B: [1], C: null, PASSWORD: 98765432}\n      - run: ""\n      - uses: actions/checkout@v3\n        with: {persist-credentials: {a: 1}, path: [x], token: [1]}\n      - uses: actions/upload-artifact@v3\n        with: {path: {a: b}}\n      - uses: pypa/gh-action-pypi-publish@v1\n        with: {password: {x: 1}, repository-url: [1]}\n      - uses: actions/create-github-app-token@v1\n        with: {owner: {a: b}, skip-token-revoke: [true]}\n      - uses: tibdex/github-app-token@v1\n        with: 5\n      - uses: actions/github-script@v7\n        with: {script: [1]}\n',
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: "echo ${{ secrets.X"\n      - run: "X=$(echo ${{ }} ${ $(( <<EOF"\n',
    ];
    for (const text of odd) expect(() => scanWith(RULE, text)).not.toThrow();
  });
});
