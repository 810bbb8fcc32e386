import { describe, expect, it } from 'vitest';
import { findCombinations } from '../../../../lib/engine/combinations/index.js';
import { scanRepository } from '../../../../lib/engine/scan.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'github-env-injection';

describe(RULE, () => {
  it('reports a write of an attacker-controlled env var to GITHUB_ENV at the writing line, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: pull_request_target
      jobs:
        label:
          runs-on: ubuntu-latest
          steps:
            - env:
                TITLE: \${{ github.event.pull_request.title }}
              run: |
                echo "starting"
                echo "PR_TITLE=$TITLE" >> "$GITHUB_ENV"
            - run: ./scripts/label.sh
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['10:11 HIGH']);
    expect(records[0]?.finding.description).toContain('step 2 of job `label` (line 11) then runs with it');
    expect(records[0]?.facts).toEqual(expect.arrayContaining(['exec', 'reach:anyone', 'holds', 'holds:token']));
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.job).toBe('label');
    expect(records[0]?.finding.description).toContain('`github.event.pull_request.title`');
    expect(records[0]?.finding.description).toContain('`$TITLE`');
  });

  it('recognises the ways of writing to GITHUB_ENV and GITHUB_PATH', () => {
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        j:
          runs-on: ubuntu-latest
          env:
            BODY: \${{ github.event.comment.body }}
          steps:
            - run: echo "A=\${{ github.event.comment.body }}" >> $GITHUB_ENV
            - run: |
                value="$BODY"
                echo "B=$value" | tee -a "\${GITHUB_ENV}"
            - run: |
                {
                  echo "C<<EOF"
                  echo "$BODY"
                  echo "EOF"
                } >> "$GITHUB_ENV"
            - run: echo "$BODY" >> $GITHUB_PATH
            - shell: pwsh
              run: |
                "D=$env:BODY" | Out-File -FilePath $env:GITHUB_ENV -Append
    `);
    // The last write has nothing after it to run with it: LOW.
    expect(positions(findings)).toEqual(['8:14 HIGH', '11:11 HIGH', '17:11 HIGH', '18:14 HIGH', '21:11 LOW']);
    expect(findings[4]?.description).toContain('no step of the job runs after it');
    expect(findings[3]?.description).toContain('`$GITHUB_PATH`');
  });

  it('reports file contents written after a download of another run\'s artifacts', () => {
    const findings = scanWith(RULE, yaml`
      on:
        workflow_run:
          workflows: [CI]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
                path: \${{ runner.temp }}/pr
            - run: echo "PR_NUMBER=$(cat "$RUNNER_TEMP/pr/number")" >> "$GITHUB_ENV"
            - run: ./report.sh
        without-download:
          runs-on: ubuntu-latest
          steps:
            - run: echo "VERSION=$(cat VERSION)" >> "$GITHUB_ENV"
    `);
    expect(positions(findings)).toEqual(['12:14 HIGH']);
    expect(findings[0]?.description).toContain('artifact');
  });

  it('a pipe stage reads the stage before it: a value piped from the event or a literal reads no artifact file; one piped from `cat` does', () => {
    const wf = (line: string) => yaml`
      on:
        workflow_run:
          workflows: [CI]
      jobs:
        j:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              java: ['17']
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
            - run: |
                mv server-*.tar.gz build/
                version=\${{ github.ref_name }}-$(uuidgen)
                ${line}
            - run: ./report.sh
              env:
                TOKEN: \${{ secrets.TOKEN }}
    `;
    expect(scanWith(RULE, wf('echo TAG=${version}-$(echo ${{ matrix.java }} | sed -e "s/:/-/g") >> $GITHUB_ENV'))).toEqual([]);
    expect(positions(scanWith(RULE, wf('echo TAG=${version}-$(cat pr.txt | sed -e "s/:/-/g") >> $GITHUB_ENV')))).toEqual(['17:11 HIGH']);
  });

  it("reads a field of the event's payload that jq takes from its file as that field: a title is text anyone writes, a number is not", () => {
    const wf = (read: string) => yaml`
      on: issues
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: |
                t="$(${read})"
                echo "VALUE=$t" >> "$GITHUB_ENV"
            - run: ./notify.sh
              env:
                TOKEN: \${{ secrets.BOT }}
    `;
    for (const read of ['jq -r .issue.title "$GITHUB_EVENT_PATH"', "jq -r '.issue.body' < $GITHUB_EVENT_PATH", 'cat "$GITHUB_EVENT_PATH" | jq -r .issue.title', `jq -r '.issue.title // ""' "$GITHUB_EVENT_PATH"`]) {
      const found = scanWith(RULE, wf(read));
      expect(positions(found), read).toEqual(['8:11 HIGH']);
      expect(found[0]?.description, read).toMatch(/github\.event\.issue\.(title|body)/);
    }
    for (const read of ['jq -r .issue.number "$GITHUB_EVENT_PATH"', 'jq -r .repository.default_branch "$GITHUB_EVENT_PATH"', 'jq -r .issue.title other.json', `jq -r '.issue.labels[].name' "$GITHUB_EVENT_PATH"`]) {
      expect(scanWith(RULE, wf(read)), read).toEqual([]);
    }
  });

  it("reports the line that writes the file, not a quoted delimiter line; a real here-document's body still feeds its write", () => {
    const findings = scanWith(RULE, yaml`
      on:
        workflow_run:
          workflows: [CI]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with: { run-id: "\${{ github.event.workflow_run.id }}" }
            - run: |
                echo 'EVENT_JSON<<EOFEVENTJSON' >> $GITHUB_ENV
                cat event.json >> $GITHUB_ENV
                echo -e '\\nEOFEVENTJSON' >> $GITHUB_ENV
            - run: ./report.sh
    `);
    expect(findings.map((f) => f.line)).toEqual([12]);
    const heredoc = scanWith(RULE, yaml`
      on: issues
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: |
                cat <<'EOF' >> "$GITHUB_ENV"
                TITLE=\${{ github.event.issue.title }}
                EOF
            - run: ./report.sh
    `);
    expect(heredoc.map((f) => f.line)).toEqual([7]);
  });

  it('does not report constants, fixed values, validated variables or unprivileged workflows', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "MODE=release" >> "$GITHUB_ENV"
            - run: echo "PR=\${{ github.event.pull_request.number }}" >> "$GITHUB_ENV"
            - env:
                BRANCH: \${{ github.head_ref }}
              run: |
                if [[ ! "$BRANCH" =~ ^[A-Za-z0-9._/-]+$ ]]; then exit 1; fi
                echo "BRANCH=$BRANCH" >> "$GITHUB_ENV"
    `)).toEqual([]);
    expect(scanWith(RULE, yaml`
      on: pull_request
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "T=\${{ github.event.pull_request.title }}" >> "$GITHUB_ENV"
    `)).toEqual([]);
  });

  it('does not report an artifact\'s value written after a strict check that stops the script; reports one grep or a soft check lets through', () => {
    const job = (check: string) => yaml`
      on:
        workflow_run:
          workflows: [CI]
          types: [completed]
      jobs:
        j:
          runs-on: ubuntu-latest
          permissions:
            pull-requests: write
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: pr
                run-id: \${{ github.event.workflow_run.id }}
                github-token: \${{ github.token }}
            - run: |
                PR=$(cat pr/number)
                ${check}
                echo "PR_NUMBER=$PR" >> "$GITHUB_ENV"
            - run: gh pr comment "$PR_NUMBER" --body done
    `;
    for (const check of [
      'if ! [[ "$PR" =~ ^[1-9][0-9]*$ ]]; then exit 1; fi',
      '[[ $PR =~ ^[0-9]+$ ]] || exit 1',
      "case \"$PR\" in *[!0-9]*|'') exit 1;; esac",
      '[[ "$PR" =~ ^[0-9]+$ ]] || (echo "bad"; exit 1)',
    ]) {
      expect(scanWith(RULE, job(check)), check).toEqual([]);
    }
    for (const check of [
      // grep matches line by line: `1`, a newline and `BASH_ENV=...` pass.
      "echo \"$PR\" | grep -Eq '^[0-9]+$' || exit 1",
      // A failed check that goes on, an open pattern, a class admitting a space.
      'if ! [[ "$PR" =~ ^[0-9]+$ ]]; then echo "not a number"; fi',
      '[[ "$PR" =~ ^.*$ ]] || exit 1',
      '[[ "$PR" =~ ^[0-9\\ ]+$ ]] || exit 1',
    ]) {
      expect(positions(scanWith(RULE, job(check))), check).toEqual(['19:11 MEDIUM']);
    }
  });

  it('lowers data a guard vouches for to LOW and names the gate', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        j:
          if: github.event.pull_request.head.repo.full_name == github.repository
          runs-on: ubuntu-latest
          steps:
            - run: echo "T=\${{ github.event.pull_request.title }}" >> "$GITHUB_ENV"
    `);
    expect(findings.map((f) => f.severity)).toEqual(['LOW']);
    expect(findings[0]?.description).toContain('keeps outsiders\' values out');
  });

  it('does not report a value only a collaborator sets (dispatch payload); a followed run is a fork\'s whatever the repository\'s workflow of that name runs on', () => {
    expect(scanWith(RULE, yaml`
      on: repository_dispatch
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "T=\${{ github.event.client_payload.tag }}" >> "$GITHUB_ENV"
    `)).toEqual([]);
    const ci = '.github/workflows/ci.yml';
    const follow = (ciTriggers: string) => scanWith(RULE, [
      { path: ci, text: yaml`
        name: CI
        on: ${ciTriggers}
        jobs:
          b:
            runs-on: ubuntu-latest
            steps:
              - run: make
      ` },
      { path: '.github/workflows/after.yml', text: yaml`
        on:
          workflow_run:
            workflows: [CI]
        jobs:
          j:
            runs-on: ubuntu-latest
            steps:
              - run: echo "B=\${{ github.event.workflow_run.head_commit.message }}" >> "$GITHUB_ENV"
              - run: make report
      ` },
    ]);
    // CI runs only on pushes here, but a fork's pull request can add a workflow named CI: its head commit message is theirs.
    expect(follow('push').map((f) => f.severity)).toEqual(['HIGH']);
    expect(follow('pull_request').map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('does not report a value whose newlines a command took out before it is written (tr -d, head -n 1)', () => {
    const workflow = (assign: string) => yaml`
      on:
        issues:
          types: [opened]
      permissions: { contents: write }
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - env:
                BODY: \${{ github.event.issue.body }}
              run: |
                ${assign}
                echo "LANGUAGE=$language" >> "$GITHUB_ENV"
            - run: make report
    `;
    for (const assign of [
      `language=$(awk '/SDK language/{f=1;next} f' <<< "$BODY" | tr -d '[:space:]')`,
      `language=$(echo "$BODY" | tr -d '\\r\\n')`,
      `language="$(grep -m1 Language <<< "$BODY" | head -n 1)"`,
      `language=$(echo "$BODY" | tr '\\n' ' ')`,
      // Then commands that work within the one line left: a substitution with no newline in it, a `cut`.
      `language=$(echo "$BODY" | tr '\\n' ',' | sed 's/,$//')`,
      `language=$(echo "$BODY" | tr -d '\\n' | cut -c1-40)`,
    ]) {
      expect(scanWith(RULE, workflow(assign)), assign).toEqual([]);
    }
    // Taking out other characters, or keeping more lines, leaves the newline in: HIGH.
    expect(positions(scanWith(RULE, workflow(`language=$(echo "$BODY" | tr -d ' ')`)))).toEqual(['13:11 HIGH']);
    expect(positions(scanWith(RULE, workflow(`language=$(echo "$BODY" | head -n 2)`)))).toEqual(['13:11 HIGH']);
    // A `sed` that writes a newline back, or any other command after the `tr`, may put one back: HIGH.
    expect(positions(scanWith(RULE, workflow(`language=$(echo "$BODY" | tr '\\n' ',' | sed 's/,/\\n/g')`)))).toEqual(['13:11 HIGH']);
    expect(positions(scanWith(RULE, workflow(`language=$(echo "$BODY" | tr '\\n' ',' | awk '{print}')`)))).toEqual(['13:11 HIGH']);
  });

  it('does not report a branch name written to the file: it cannot hold the newline that would define another variable', () => {
    const workflow = (value: string) => yaml`
      on: pull_request_target
      permissions: { contents: write }
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - env:
                BRANCH: ${value}
              run: |
                echo "PR_BRANCH=$BRANCH" >> "$GITHUB_ENV"
                echo "REF=$GITHUB_HEAD_REF" >> "$GITHUB_ENV"
            - run: make report
    `;
    for (const value of ['${{ github.head_ref }}', '${{ github.event.pull_request.head.ref }}', '${{ github.event.pull_request.head.label }}']) {
      expect(scanWith(RULE, workflow(value)), value).toEqual([]);
    }
    // Text that can hold a newline still does, also beside a branch name on the same line.
    expect(positions(scanWith(RULE, workflow('${{ github.event.pull_request.title }}')))).toEqual(['10:11 HIGH']);
    const both = scanWith(RULE, yaml`
      on: pull_request_target
      permissions: { contents: write }
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "X=\${{ github.head_ref }}-\${{ github.event.pull_request.body }}" >> "$GITHUB_ENV"
            - run: make report
    `);
    expect(both.map((f) => f.severity)).toEqual(['HIGH']);
    expect(both[0]?.description).toContain('github.event.pull_request.body');
    // Through a command's output a branch name may turn into several lines.
    const command = scanWith(RULE, yaml`
      on: pull_request_target
      permissions: { contents: write }
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - env:
                BRANCH: \${{ github.head_ref }}
              run: |
                PARTS=$(echo "$BRANCH" | sed 's/-/ /g')
                echo "PARTS=$PARTS" >> "$GITHUB_ENV"
            - run: make report
    `);
    expect(command.map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('does not report the number a gh lookup steered by a branch name answers with; the looked-up text still counts', () => {
    const workflow = (lookup: string) => yaml`
      on:
        workflow_run:
          workflows: [Build]
          types: [completed]
      permissions: {}
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - env:
                GH_TOKEN: \${{ github.token }}
                PR_BRANCH: \${{ github.event.workflow_run.head_branch }}
              run: |
                PR_NUMBER="$(gh pr view --repo o/r "\${PR_BRANCH}" ${lookup})"
                echo "PR_NUMBER=\${PR_NUMBER}" >> "\${GITHUB_ENV}"
                echo "PR_BRANCH=\${PR_BRANCH}" >> "\${GITHUB_ENV}"
            - run: ./publish.sh
              env:
                KEY: \${{ secrets.DEPLOY_KEY }}
    `;
    for (const lookup of ["--json 'number' --jq '.number'", '--json number -q .number', "--json databaseId --jq '.databaseId'"]) {
      expect(scanWith(RULE, workflow(lookup)), lookup).toEqual([]);
    }
    // The pull request's title is its author's text, several lines of it if they like.
    expect(scanWith(RULE, workflow("--json title --jq '.title'")).map((f) => `${f.line} ${f.severity}`)).toEqual(['15 HIGH']);
  });
});

describe(`${RULE}: severity from the run model`, () => {
  const job = (permissions: string, after: string, condition = '') => yaml`
    on: pull_request_target
    ${permissions}
    jobs:
      j:${condition}
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - run: echo "T=\${{ github.event.pull_request.title }}" >> "$GITHUB_ENV"
${after}
  `;

  it('an earlier action\'s post step runs with the environment too', () => {
    // actions/checkout's cleanup runs after the last step: HIGH even with nothing after the write.
    expect(scanWith(RULE, job('permissions:\n      contents: write', '')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, job('permissions:\n      contents: write', ''))[0]?.description).toContain('post step of step 1 of job `j` (actions/checkout@v3)');
  });

  it('is MEDIUM when the job holds nothing worth taking; a label checked on the labelled event vouches for the text (LOW)', () => {
    const later = '          - run: npm test';
    expect(scanWith(RULE, job('permissions: {}', later)).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith(RULE, job('permissions:\n      contents: write', later, "\n        if: contains(github.event.pull_request.labels.*.name, 'ok')")).map((f) => f.severity)).toEqual(['HIGH']);
    const labelled = yaml`
      on:
        pull_request_target:
          types: [labeled]
      permissions:
        contents: write
      jobs:
        j:
          if: github.event.label.name == 'ok'
          runs-on: ubuntu-latest
          steps:
            - run: echo "T=\${{ github.event.pull_request.title }}" >> "$GITHUB_ENV"
            - run: npm test
    `;
    expect(scanWith(RULE, labelled).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('a redirect of a group, subshell or loop applies to every command inside it, nested blocks included', () => {
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        j:
          runs-on: ubuntu-latest
          env:
            BODY: \${{ github.event.comment.body }}
          steps:
            - run: |
                {
                  for word in $BODY; do
                    if [ -n "$word" ]; then
                      echo "W_$word=1"
                    fi
                  done
                  echo "DONE=1"
                } >> "$GITHUB_ENV"
            - run: |
                (
                  echo "X=$BODY"
                ) >> "$GITHUB_ENV"
            - run: |
                while read -r line; do
                  echo "L=$line"
                done <<< "$BODY" >> "$GITHUB_ENV"
            - run: |
                {
                  echo "SAFE=1"
                } >> "$GITHUB_ENV"
                echo "$BODY"
            - run: make
    `);
    expect(positions(findings)).toEqual(['16:11 HIGH', '20:11 HIGH', '24:11 HIGH']);
  });
});

describe(`${RULE}: env-injection-hijack`, () => {
  const paths = (text: string) => findCombinations(scanRepository([{ path: '.github/workflows/w.yml', text }], {}).records, () => true).map((c) => c.id);
  const workflow = (after: string) => yaml`
    on: pull_request_target
    jobs:
      j:
        runs-on: ubuntu-latest
        steps:
          - run: echo "T=\${{ github.event.pull_request.title }}" >> "$GITHUB_ENV"
${after}
  `;

  it('forms only when a later step runs with the environment (exec) in a job an outsider starts', () => {
    expect(paths(workflow('          - run: npm test'))).toContain('env-injection-hijack');
    expect(paths(workflow(''))).not.toContain('env-injection-hijack');
  });
});
