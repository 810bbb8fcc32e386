import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'secret-in-log';

/** A workflow with one job whose single step runs `script` with `env`. */
function job(script: string, env = 'TOKEN: ${{ secrets.DEPLOY_TOKEN }}'): string {
  const body = script.split('\n').map((l) => `          ${l}`).join('\n');
  return `on: push\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - env:\n          ${env}\n        run: |\n${body}\n`;
}

describe(RULE, () => {
  it('reports secrets printed to the log at the secret, bound to the job', () => {
    const records = recordsWith(RULE, job('echo "deploying"\necho "token: ${{ secrets.API_KEY }}"\nprintf "%s" "$TOKEN"'));
    expect(positions(records.map((r) => r.finding))).toEqual(['10:24 LOW', '11:24 LOW']);
    expect(records.map((r) => r.job)).toEqual(['deploy', 'deploy']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    // Printed as it is, the value shows as `***`: LOW, saying why.
    expect(records[0]?.finding.description).toMatch(/^`secrets\.API_KEY` is printed to the job log by `echo`\. LOW: GitHub replaces a registered secret's exact value with `\*\*\*`/);
    expect(records[1]?.finding.description).toContain('`$TOKEN` (secrets.DEPLOY_TOKEN)');
  });

  it('does not read a secret compared inside a [[ ]] test across a line continuation as a command that prints it', () => {
    expect(scanWith(RULE, job('if [[ "${TOKEN}" != "" && \\\n      "${TOKEN}" != "none" ]]; \\\nthen\n  echo "configured"\nfi'))).toEqual([]);
    // Negative: the same value run as a command of its own (outside any test) is still read as printed.
    expect(scanWith(RULE, job('true && \\\n  "${TOKEN}" --version'))).toHaveLength(1);
  });

  it('does not report secrets piped into the command that consumes them or written to a file', () => {
    expect(scanWith(RULE, job([
      'echo "${{ secrets.REGISTRY_PASSWORD }}" | docker login ghcr.io -u bot --password-stdin',
      'echo "$TOKEN" | base64 -d > key.p12',
      'printf "%s" "$TOKEN" | base64 --decode --output=key.p12',
      'echo "//registry.npmjs.org/:_authToken=$TOKEN" > ~/.npmrc',
      'echo "$TOKEN" 2>/dev/null > /dev/null',
      'echo "issues=$(./count --token ${{ secrets.API_KEY }})" >> "$GITHUB_OUTPUT"',
      "echo 'literal $TOKEN'",
      'echo "${TOKEN:+set} ${#TOKEN}"',
      'echo "has-key=${{ secrets.API_KEY != \'\' }}" >> "$GITHUB_OUTPUT"',
    ].join('\n')))).toEqual([]);
  });

  it('reports transformed secrets, which masking misses', () => {
    const findings = scanWith(RULE, job('echo "$TOKEN" | base64\necho "${TOKEN:0:8}"'));
    expect(positions(findings)).toEqual(['9:17 HIGH', '10:17 HIGH']);
    expect(findings.every((f) => f.description.includes('in a form GitHub does not mask'))).toBe(true);
  });

  it('reads a trailing slash removed (`${URL%/}`) as the value itself, masked; a pattern that cuts the value is a piece', () => {
    const env = 'ENDPOINT: ${{ secrets.COLLECTOR_ENDPOINT }}';
    const trimmed = scanWith(RULE, job('url="${ENDPOINT:-http://localhost:6006}"\nurl="${url%/}"\necho "Checking ${url}"', env));
    expect(trimmed.map((f) => f.severity)).toEqual(['LOW']);
    expect(trimmed[0]?.description).toContain("GitHub replaces a registered secret's exact value with `***`");
    // Negative: a prefix or a wildcard pattern removed changes the value GitHub would look for.
    expect(scanWith(RULE, job('echo "${ENDPOINT#https://}"', env)).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, job('echo "${ENDPOINT%%/*}"', env)).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('reads a secret the workflow hands to an access key ID as that ID, whatever its name, unless it also hands it to a credential', () => {
    const workflow = (also = '') => yaml`
      on: push
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo "AWS_ACCESS_KEY=\${{ secrets.AWS_ACCESS_KEY }}" >> $GITHUB_ENV
                echo "AWS_SECRET_KEY=\${{ secrets.AWS_SECRET_KEY }}" >> $GITHUB_ENV
            - uses: aws-actions/configure-aws-credentials@v4
              with:
                aws-access-key-id: \${{ secrets.AWS_ACCESS_KEY }}
                aws-secret-access-key: \${{ secrets.AWS_SECRET_KEY }}${also}
            - uses: someone/deploy@v1
    `;
    const names = (found: { description: string }[]) => found.map((f) => /`secrets\.(\w+)`/.exec(f.description)?.[1]);
    expect(names(scanWith(RULE, workflow()))).toEqual(['AWS_SECRET_KEY']);
    // Negative: also handed to a name that says credential, it is one.
    expect(names(scanWith(RULE, workflow('\n              env:\n                API_TOKEN: ${{ secrets.AWS_ACCESS_KEY }}')))).toEqual(['AWS_ACCESS_KEY', 'AWS_SECRET_KEY']);
  });

  it('reports secrets written to outputs, GITHUB_ENV and the job summary', () => {
    const findings = scanWith(RULE, job([
      'echo "token=$TOKEN" >> "$GITHUB_OUTPUT"',
      'echo "TOKEN=${{ secrets.API_KEY }}" >> $GITHUB_ENV',
      'echo "::set-output name=token::$TOKEN"',
      'echo "key: $TOKEN" | tee -a "$GITHUB_STEP_SUMMARY"',
    ].join('\n')));
    // $GITHUB_ENV keeps the secret masked in the log, and only the repository's own steps come after: LOW, saying why.
    // A step output of the secret's exact value stays masked wherever it is printed, and a job output carrying a secret
    // is not passed on: LOW, saying why.
    expect(positions(findings)).toEqual(['9:23 LOW', '10:23 LOW', '11:42 LOW', '12:22 HIGH']);
    expect(findings[0]?.description).toContain("LOW: it is the secret's exact value, which GitHub replaces with `***`");
    expect(findings[1]?.description).toContain("LOW: only the repository's own scripts and actions, its owner's and GitHub's run after it");
    expect(findings.map((f) => f.description.split(' by ')[0])).toEqual([
      '`$TOKEN` (secrets.DEPLOY_TOKEN) is written to a step output',
      '`secrets.API_KEY` is written to `$GITHUB_ENV`',
      '`$TOKEN` (secrets.DEPLOY_TOKEN) is written to a step output',
      '`$TOKEN` (secrets.DEPLOY_TOKEN) is written to the job summary',
    ]);
  });

  it('lets the job token move inside the job, but not into the log', () => {
    const findings = scanWith(RULE, job('echo "GH_TOKEN=$GH" >> "$GITHUB_ENV"\necho "$GH"', 'GH: ${{ secrets.GITHUB_TOKEN }}'));
    expect(positions(findings)).toEqual(['10:17 LOW']);
  });

  it('follows values derived from a secret in the script, and honours ::add-mask::', () => {
    const findings = scanWith(RULE, job([
      'KEY=$(echo "$TOKEN" | jq -r .private_key)',
      'echo "key is $KEY"',
      'RESPONSE=$(curl -sf -H "Authorization: Bearer $TOKEN" https://api.example.com)',
      'echo "$RESPONSE"',
      'B64=$(printf "%s" "$TOKEN" | base64)',
      'echo "::add-mask::$B64"',
      'echo "$B64"',
    ].join('\n')));
    expect(positions(findings)).toEqual(['10:24 HIGH']);
    expect(findings[0]?.description).toContain('derived from secrets.DEPLOY_TOKEN');
  });

  it('reports environment dumps in steps that hold secrets', () => {
    // A dump prints each value as it is, which GitHub masks: LOW, as printing the exact value is; a dump turned into
    // other text (`| base64`) is not masked: HIGH.
    const dumped = scanWith(RULE, job('env | sort\nprintenv TOKEN\nenv | grep ^DEBUG_'));
    expect(positions(dumped)).toEqual(['9:11 LOW', '10:20 LOW']);
    expect(dumped[0]?.description).toContain('GitHub replaces a registered secret\'s exact value with `***` in the log');
    expect(positions(scanWith(RULE, job('env | base64')))).toEqual(['9:11 HIGH']);
    expect(scanWith(RULE, job('env', 'LEVEL: debug'))).toEqual([]);
  });

  it('skips scripts that name no secret, no variable of the environment and dump nothing, but not the others', () => {
    // The shared word pre-filter (file-scripts.ts) must never hide one of these.
    expect(scanWith(RULE, job('gh release create v1 --generate-notes\necho done', 'GH_TOKEN: ${{ secrets.RELEASE_TOKEN }}'))).toEqual([]);
    expect(scanWith(RULE, job('echo "$GH_TOKEN"', 'GH_TOKEN: ${{ secrets.RELEASE_TOKEN }}'))).toHaveLength(1);
    expect(scanWith(RULE, job('echo "${GH_TOKEN:0:4}"', 'GH_TOKEN: ${{ secrets.RELEASE_TOKEN }}'))).toHaveLength(1);
    expect(scanWith(RULE, job('"pri"ntenv GH_TOKEN', 'GH_TOKEN: ${{ secrets.RELEASE_TOKEN }}'))).toHaveLength(1);
    expect(scanWith(RULE, job('E\\nv | sort', 'GH_TOKEN: ${{ secrets.RELEASE_TOKEN }}'))).toHaveLength(1);
    expect(scanWith(RULE, job('Write-Host ${{ secrets.API_KEY }}', 'LEVEL: debug'))).toHaveLength(1);
  });

  it('reads here-documents: printed, written to an output, or to a file', () => {
    const findings = scanWith(RULE, job([
      'cat <<EOF',
      'token ${{ secrets.API_KEY }}',
      'EOF',
      'cat <<EOF >> "$GITHUB_OUTPUT"',
      'token=$TOKEN',
      'EOF',
      'cat <<EOF > config.ini',
      'token=$TOKEN',
      'echo $TOKEN',
      'EOF',
    ].join('\n')));
    expect(positions(findings)).toEqual(['10:17 LOW', '13:17 LOW']);
  });

  it('is HIGH for a step output of a form GitHub does not mask: a transformed copy, a part of it', () => {
    const findings = scanWith(RULE, job([
      'PLAIN="${TOKEN//-pooler/}"',
      'echo "plain=${PLAIN}" >> "$GITHUB_OUTPUT"',
      'B64=$(printf "%s" "$TOKEN" | base64)',
      'echo "b64=$B64" >> "$GITHUB_OUTPUT"',
      'echo "same=$TOKEN" >> "$GITHUB_OUTPUT"',
    ].join('\n')));
    expect(positions(findings)).toEqual(['10:23 HIGH', '12:21 HIGH', '13:22 LOW']);
    expect(findings[0]?.description).toContain('in a form GitHub does not mask');
  });

  it('reads PowerShell', () => {
    const findings = scanWith(RULE, job('Write-Host "Token: $env:TOKEN"\n"PW=$env:TOKEN" >> $env:GITHUB_ENV', 'TOKEN: ${{ secrets.PFX_PASSWORD }}'));
    expect(positions(findings)).toEqual(['9:30 LOW', '10:15 LOW']);
  });

  it('reports console.log of a secret in actions/github-script', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps:
            - uses: actions/github-script@v7
              env:
                KEY: \${{ secrets.KEY }}
              with:
                script: |
                  const token = '\${{ secrets.API_KEY }}'
                  console.log(\`using \${{ secrets.API_KEY }}\`)
                  core.info(process.env.KEY)
    `);
    expect(positions(findings)).toEqual(['12:32 HIGH', '13:23 HIGH']);
  });

  it('honours a suppression comment inside the script', () => {
    expect(scanWith(RULE, job('echo "$TOKEN" # chainbreaker: ignore[secret-in-log]\n# chainbreaker: ignore[secret-in-log]\necho "$TOKEN"'))).toEqual([]);
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

describe('secret-in-log: where a group, subshell or loop sends what it prints', () => {
  it('follows the redirect of the compound command around a printer: a file is not the log, $GITHUB_ENV is reported', () => {
    const findings = scanWith(RULE, job([
      '{',
      '  echo "key<<EOF"',
      '  printf \'%s\\n\' "$TOKEN"',
      '  echo "EOF"',
      '} >> "$GITHUB_ENV"',
      '( echo "$TOKEN" ) > token.txt',
      '{ echo "$TOKEN"; } > token2.txt',
      'for i in 1; do',
      '  echo "$TOKEN"',
      'done > token3.txt',
      '(',
      '  echo "token=$TOKEN"',
      ') > creds',
      'while read -r l; do echo "$TOKEN"; done < in.txt > out.txt',
      'if true; then',
      '  echo "$TOKEN"',
      'fi | docker login ghcr.io -u bot --password-stdin',
    ].join('\n')));
    expect(positions(findings)).toEqual(['11:28 LOW']);
    expect(findings[0]?.description).toContain('is written to `$GITHUB_ENV` by `printf`');
  });

  it('still reports what such a block prints to the log, and a command\'s own redirect inside it', () => {
    const findings = scanWith(RULE, job([
      '{',
      '  echo "$TOKEN" >&2',
      '} > /dev/null',
      'for i in 1; do echo "$TOKEN"; done',
      'if true; then echo "$TOKEN"; fi | tee out.txt',
      '(',
      '  echo "$TOKEN"',
      ') | sort',
    ].join('\n')));
    expect(positions(findings)).toEqual(['10:19 LOW', '12:32 LOW', '13:31 LOW', '15:19 LOW']);
  });

  it('reads `<<` inside quotes as text, not as a here-document that hides the rest of the script', () => {
    const findings = scanWith(RULE, job(['echo "key<<EOF" >> "$GITHUB_OUTPUT"', 'echo "$TOKEN"'].join('\n')));
    expect(positions(findings)).toEqual(['10:17 LOW']);
  });

  it('carries where the secret goes and the events and runs of the step, for the attack paths', () => {
    const records = recordsWith(RULE, job('echo "$TOKEN"\necho "T=$TOKEN" >> "$GITHUB_ENV"').replace('on: push', 'on: [push, repository_dispatch]'));
    expect(records.map((r) => r.finding.severity)).toEqual(['LOW', 'LOW']);
    expect(records[0]?.facts).toEqual(expect.arrayContaining(['dest:log', 'event:push', 'event:repository_dispatch']));
    expect(records[1]?.facts).toContain('dest:env');
    expect(records[0]?.facts?.some((f) => f.startsWith('run:'))).toBe(true);
  });
});

describe('secret-in-log: a secret in $GITHUB_ENV, by what runs after it', () => {
  const after = (uses: string) => `${job('echo "T=$TOKEN" >> "$GITHUB_ENV"')}      - uses: ${uses}\n`;

  it('is MEDIUM when someone else\'s action runs later in the job, and names it', () => {
    const findings = scanWith(RULE, after('some-vendor/upload-action@v2'));
    expect(positions(findings)).toEqual(['9:19 MEDIUM']);
    expect(findings[0]?.description).toContain('third-party actions on a ref their owner can move included (`some-vendor/upload-action@v2`)');
  });

  it('is LOW when the third-party actions after it are pinned to a commit, and names them (negative)', () => {
    const findings = scanWith(RULE, after('some-vendor/upload-action@0123456789abcdef0123456789abcdef01234567'));
    expect(positions(findings)).toEqual(['9:19 LOW']);
    expect(findings[0]?.description).toContain('(`some-vendor/upload-action@0123456789abcdef0123456789abcdef01234567`) are pinned to a commit');
  });

  it('is LOW when only GitHub\'s or the repository\'s own actions follow (negative)', () => {
    for (const uses of ['actions/upload-artifact@v4', './.github/actions/publish']) {
      expect(positions(scanWith(RULE, after(uses)))).toEqual(['9:19 LOW']);
    }
  });
});

describe('secret-in-log: a multi-line secret masked line by line', () => {
  it('counts a loop that registers each line of a variable with ::add-mask:: as masking it, for the log and outputs', () => {
    const script = [
      'key="$TOKEN"',
      'while IFS= read -r line; do',
      '  [ -n "$line" ] && echo "::add-mask::$line"',
      'done <<< "$key"',
      '{',
      '  echo "private_key<<EOF"',
      '  printf \'%s\\n\' "$key"',
      '  echo "EOF"',
      '} >> "$GITHUB_OUTPUT"',
      'echo "$key"',
    ].join('\n');
    expect(scanWith(RULE, job(script))).toEqual([]);
    // Without the masking loop the key goes to a step output in clear: HIGH.
    const unmasked = script.split('\n').filter((l, i) => i < 1 || i > 3).join('\n');
    expect(positions(scanWith(RULE, job(unmasked)))).toEqual(['12:28 HIGH', '15:17 LOW']);
  });
});

describe('secret-in-log: a secret in a multi-line output, and one beside it', () => {
  it('is HIGH inside the multi-line output, from its opening line to its delimiter, and LOW in a single-line output of the same script (negative)', () => {
    const script = [
      'key="$TOKEN"',
      'token="$TOKEN"',
      '{',
      '  echo "app_id=1"',
      "  printf 'app_pem<<EOF\\n%s\\nEOF\\n' \"$key\"",
      '  echo "token=$token"',
      '} >> "$GITHUB_OUTPUT"',
    ].join('\n');
    const findings = scanWith(RULE, job(script));
    expect(positions(findings)).toEqual(['13:47 HIGH', '14:25 LOW']);
    expect(findings[1]?.description).toContain("it is the secret's exact value");
  });

  it('ends the multi-line output at its delimiter: an echo after `EOF` is a single-line output (negative)', () => {
    const script = ['echo "notes<<EOF" >> "$GITHUB_OUTPUT"', 'echo "release notes" >> "$GITHUB_OUTPUT"', 'echo "EOF" >> "$GITHUB_OUTPUT"', 'echo "token=$TOKEN" >> "$GITHUB_OUTPUT"'].join('\n');
    expect(positions(scanWith(RULE, job(script)))).toEqual(['12:23 LOW']);
    const inside = ['echo "notes<<EOF" >> "$GITHUB_OUTPUT"', 'echo "$TOKEN" >> "$GITHUB_OUTPUT"', 'echo "EOF" >> "$GITHUB_OUTPUT"'].join('\n');
    expect(positions(scanWith(RULE, job(inside)))).toEqual(['10:17 HIGH']);
  });
});

describe(`${RULE}: secrets that only identify`, () => {
  it('does not report a signing identity or a user name written to $GITHUB_ENV or printed, and still reports the certificate password beside them', () => {
    const findings = scanWith(RULE, job([
      'echo "APPLE_IDENTITY=${{ secrets.MACOS_CERT_IDENTITY }}" >> "$GITHUB_ENV"',
      'echo "user: ${{ secrets.DOCKERHUB_USERNAME }}"',
      'echo "PFX_PASSWORD=${{ secrets.WINDOWS_PFX_PASSWORD }}" >> "$GITHUB_ENV"',
    ].join('\n')));
    expect(findings.map((f) => f.description.split(' by ')[0])).toEqual(['`secrets.WINDOWS_PFX_PASSWORD` is written to `$GITHUB_ENV`']);
  });
});
