import { describe, expect, it } from 'vitest';
import { CODE_SINK_ACTIONS } from '../../../../lib/engine/analysis/code-sinks.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'script-injection';

describe(RULE, () => {
  it('reports an outsider-chosen context at its `${{` inside a run script, HIGH, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: issues
      jobs:
        greet:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo "hello"
                echo "\${{ github.event.issue.title }}"
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:17 HIGH']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.job).toBe('greet');
    expect(records[0]?.finding.description).toContain('`github.event.issue.title`');
  });

  it("reads a comment parser's arguments (skjnldsv/parse-command-comment) as the comment's words, and no other output of it", () => {
    const source = (output: string) => yaml`
      on: issue_comment
      jobs:
        cmd:
          runs-on: ubuntu-latest
          steps:
            - id: parse
              uses: skjnldsv/parse-command-comment@v2
            - run: echo "\${{ ${output} }}"
    `;
    const findings = scanWith(RULE, source('fromJSON(steps.parse.outputs.arguments)[1]'));
    expect(positions(findings)).toEqual(['8:20 HIGH']);
    expect(findings[0]?.description).toContain('the words of the comment');
    expect(scanWith(RULE, source('steps.parse.outputs.command'))).toEqual([]);
  });

  it('grades the source: structured text MEDIUM, string inputs LOW, typed inputs not at all', () => {
    const findings = scanWith(RULE, yaml`
      on:
        issues:
        workflow_dispatch:
          inputs:
            name: { type: string }
            dry: { type: boolean }
            level: { type: choice, options: [a, b] }
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo \${{ github.event.issue.user.email }}
            - run: echo \${{ inputs.name }}
            - run: echo \${{ inputs.dry }} \${{ inputs.level }}
    `);
    expect(positions(findings)).toEqual(['12:19 MEDIUM', '13:19 LOW']);
  });

  it('takes an input no workflow_dispatch or workflow_call trigger declares for empty (the API rejects it), a declared one for the dispatcher\'s', () => {
    const workflow = (on: string) => yaml`
      on:
        ${on}
          inputs:
            timeoutConstant: { type: string }
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.inputs.timeConstant }}"
            - run: echo "\${{ inputs.timeoutConstant }}"
    `;
    expect(positions(scanWith(RULE, workflow('workflow_dispatch:')))).toEqual(['10:20 LOW']);
    expect(positions(scanWith(RULE, workflow('workflow_call:')))).toEqual(['10:20 LOW']);
  });

  it('does not take fields GitHub generates (URLs it builds, ids, numbers, timestamps, SHAs) for outsider text', () => {
    expect(scanWith(RULE, yaml`
      on: [issues, issue_comment, pull_request_target]
      permissions: { issues: write }
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo "\${{ github.event.issue.html_url }} \${{ github.event.issue.url }} \${{ github.event.comment.html_url }}"
                echo "\${{ github.event.issue.id }} \${{ github.event.issue.node_id }} \${{ github.event.issue.number }}"
                echo "\${{ github.event.issue.created_at }} \${{ github.event.issue.user.id }} \${{ github.event.issue.user.html_url }}"
                echo "\${{ github.event.pull_request.html_url }} \${{ github.event.pull_request.head.sha }} \${{ github.event.pull_request.diff_url }}"
                gh issue comment "\${{ github.event.issue.number }}" --body "\${{ toJSON(github.event.issue.pull_request) }}"
    `)).toEqual([]);
    // The object's own text, and a URL a check run's creator supplies, still count.
    expect(positions(scanWith(RULE, yaml`
      on: [issues, check_run]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.issue.title }}"
            - run: echo "\${{ github.event.check_run.details_url }}"
    `)).map((p) => p.split(' ')[1])).toEqual(['HIGH', 'LOW']);
  });

  it('follows env, step outputs and shell variables, and names the chain', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        j:
          runs-on: ubuntu-latest
          env:
            TITLE: \${{ github.event.pull_request.title }}
          steps:
            - id: meta
              env:
                BODY: \${{ github.event.pull_request.body }}
              run: |
                B="$BODY"
                echo "body=$B" >> "$GITHUB_OUTPUT"
                echo "count=3" >> "$GITHUB_OUTPUT"
            - run: echo "\${{ env.TITLE }}"
            - run: echo "$TITLE"
            - run: echo "\${{ steps.meta.outputs.count }}"
            - run: echo "\${{ steps.meta.outputs.body }}"
    `);
    expect(positions(findings)).toEqual(['15:20 HIGH', '18:20 HIGH']);
    expect(findings[0]?.description).toContain('via `env.TITLE`');
    expect(findings[1]?.description).toContain('`github.event.pull_request.body`');
    expect(findings[1]?.description).toContain('`steps.meta.outputs.body` <- `env.BODY`');
  });

  it('checks actions/github-script scripts, except JSON used as a JavaScript value', () => {
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/github-script@v7
              with:
                script: |
                  const body = \${{ toJSON(github.event.comment.body) }};
                  console.log('\${{ toJSON(github.event.comment.body) }}');
                  console.log("\${{ github.event.comment.body }}");
    `);
    expect(positions(findings)).toEqual(['10:26 HIGH', '11:26 HIGH']);
    expect(findings[0]?.description).toContain('into JavaScript code');
  });

  it('checks other actions that execute an input as code, and nothing else', () => {
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        j:
          runs-on: ubuntu-latest
          if: contains(github.event.comment.body, '/deploy')
          steps:
            - uses: azure/cli@v2
              with:
                inlineScript: az group list --tag \${{ github.event.comment.body }}
            - uses: peter-evans/create-or-update-comment@v4
              with:
                body: \${{ github.event.comment.body }}
            - uses: azure/cli@v2
              with:
                inlineScript: { nested: map }
            - run: 42
    `);
    expect(positions(findings)).toEqual(['9:45 HIGH']);
    expect(findings[0]?.description).toContain('`inlineScript` input of azure/cli');
  });

  it('does not report fields only maintainers set', () => {
    expect(scanWith(RULE, yaml`
      on: [pull_request_target, release, push]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo \${{ github.event.pull_request.base.ref }}
                echo \${{ github.event.release.tag_name }}
                echo \${{ github.event.ref }}
                echo \${{ join(github.event.pull_request.labels.*.name, ',') }}
                echo \${{ github.event.repository.default_branch }}
                echo \${{ github.event.pull_request.head.sha }}
    `)).toEqual([]);
  });

  it('lowers data a guard vouches for to LOW and says why, but not behind a spoofable bot actor check', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        same-repo:
          if: github.event.pull_request.head.repo.full_name == github.repository
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.head_ref }}"
        dependabot:
          if: github.event.pull_request.user.login == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.head_ref }}"
        actor:
          if: github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.head_ref }}"
        either:
          if: github.event.pull_request.head.repo.full_name == github.repository || github.event_name == 'pull_request_target'
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.head_ref }}"
    `);
    expect(positions(findings)).toEqual(['7:20 LOW', '12:20 LOW', '17:20 HIGH', '22:20 HIGH']);
    expect(findings[0]?.description).toContain('the condition `github.event.pull_request.head.repo.full_name == github.repository` keeps outsiders');
    expect(findings[2]?.description).not.toContain('keeps outsiders');
  });

  it('knows which changed-files outputs are escaped (LOW where only plain pull_request brings them in, unless self-hosted)', () => {
    const run = (trigger: string, runner = 'ubuntu-latest') => scanWith(RULE, yaml`
      on: ${trigger}
      jobs:
        j:
          runs-on: ${runner}
          steps:
            - id: old
              uses: tj-actions/changed-files@v35
            - id: new
              uses: tj-actions/changed-files@0123456789abcdef0123456789abcdef01234567 # v45.0.1
            - id: unsafe
              uses: tj-actions/changed-files@v45
              with:
                safe_output: false
            - id: filter
              uses: dorny/paths-filter@v3
              with:
                filters: 'src: [src/**]'
                list-files: shell
            - run: |
                for f in \${{ steps.old.outputs.all_changed_files }}; do echo "$f"; done
                for f in \${{ steps.new.outputs.all_changed_files }}; do echo "$f"; done
                for f in \${{ steps.unsafe.outputs.all_changed_files }}; do echo "$f"; done
                for f in \${{ steps.filter.outputs.src_files }}; do echo "$f"; done
    `);
    expect(positions(run('pull_request_target'))).toEqual(['20:20 HIGH', '22:20 HIGH']);
    const plain = run('pull_request');
    expect(positions(plain)).toEqual(['20:20 LOW', '22:20 LOW']);
    expect(plain[0]?.description).toContain('only `pull_request` brings it in');
    expect(plain[0]?.description).toContain('the fork\'s run holds nothing worth taking');
    // A fork's run on a self-hosted machine runs the injected text there.
    const machine = run('pull_request', '[self-hosted, linux]');
    expect(positions(machine)).toEqual(['20:20 HIGH', '22:20 HIGH']);
    expect(machine[0]?.description).toContain('the job runs on a self-hosted runner, which a fork\'s run reaches too');
  });

  it("does not count a self-hosted machine that forks' pull requests already run their own code on", () => {
    // A fork's `pull_request` run that builds its own checkout on the machine: the branch name expanded into a
    // script there adds no way onto the machine (the self-hosted-runner finding is the one to fix).
    const workflow = (build: string, runner = '[self-hosted, gpu]', other = '') => yaml`
      on: pull_request
      permissions: { contents: read }
      jobs:
        test:
          runs-on: ${runner}
          env:
            REPORT_DIR: /data/reports/\${{ github.head_ref }}
          steps:
            - uses: actions/checkout@v3
${build}
            - run: mkdir -p \${{ env.REPORT_DIR }}
${other}
    `;
    const built = scanWith(RULE, workflow('            - run: pip install -e . && pytest'));
    expect(built.map((f) => f.severity)).toEqual(['LOW']);
    expect(built[0]?.description).toContain("the job runs on a self-hosted runner, but the same self-hosted runners already run forks' pull requests with no approval in this job itself, so this value adds no way onto the machine that a fork's pull request lacks");
    // Another job on the same runners that builds the fork's checkout opens the machine too.
    // A second job that checks out the fork's code and builds it on runners with these labels.
    const buildJob = (labels: string) => `        build:
          runs-on: ${labels}
          steps:
            - uses: actions/checkout@v3
            - run: make test`;
    const elsewhere = scanWith(RULE, workflow('', '[self-hosted, gpu]', buildJob('[self-hosted, gpu]')));
    expect(elsewhere.map((f) => f.severity)).toEqual(['LOW']);
    expect(elsewhere[0]?.description).toContain('already run forks\' pull requests with no approval in job `build` of this workflow');
    // Negative: nothing of the fork's checkout runs, so the injection is the way onto the machine: HIGH.
    const only = scanWith(RULE, workflow(''));
    expect(only.map((f) => f.severity)).toEqual(['HIGH']);
    expect(only[0]?.description).toContain("the job runs on a self-hosted runner, which a fork's run reaches too");
    // Negative: a build job on other runners (a label this job's runners need not carry) opens none of these.
    const apart = scanWith(RULE, workflow('', '[self-hosted, gpu]', buildJob('[self-hosted, cpu]')));
    expect(apart.map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('resolves the inputs of local composite actions through their callers', () => {
    const action = yaml`
      name: greet
      inputs:
        who: { description: who }
      runs:
        using: composite
        steps:
          - shell: bash
            run: echo "hello \${{ inputs.who }}"
    `;
    const records = recordsWith(RULE, [
      { path: '.github/actions/greet/action.yml', text: action },
      {
        path: '.github/workflows/a.yml',
        text: yaml`
          on: issues
          jobs:
            j:
              runs-on: ubuntu-latest
              steps:
                - uses: ./.github/actions/greet
                  with:
                    who: \${{ github.event.issue.user.login }}
        `,
      },
    ]);
    expect(records).toEqual([]);
    const tainted = recordsWith(RULE, [
      { path: '.github/actions/greet/action.yml', text: action },
      {
        path: '.github/workflows/a.yml',
        text: yaml`
          on: issues
          jobs:
            j:
              runs-on: ubuntu-latest
              steps:
                - uses: ./.github/actions/greet
                  with:
                    who: \${{ github.event.issue.title }}
        `,
      },
    ]);
    expect(tainted.map((r) => `${r.finding.file}:${r.finding.line}:${r.finding.column} ${r.finding.severity}`)).toEqual([
      '.github/actions/greet/action.yml:8:24 HIGH',
    ]);
    expect(tainted[0]?.job).toBeNull();
    expect(tainted[0]?.finding.description).toContain('via `inputs.who`');
  });

  it('rates pull request text behind a merge MEDIUM (a maintainer merges, the author chose the text), also in a composite action the merged-only job calls; `closed` alone stays HIGH', () => {
    const action = yaml`
      name: notify
      runs:
        using: composite
        steps:
          - shell: bash
            run: echo "Merged \${{ github.event.pull_request.title }}"
    `;
    const workflow = (condition: string) => yaml`
      on:
        pull_request_target:
          types: [closed]
      jobs:
        notify:
          ${condition}
          runs-on: ubuntu-latest
          permissions:
            contents: write
          steps:
            - uses: actions/checkout@v3
            - uses: ./.github/actions/notify
            - run: echo "\${{ github.event.pull_request.head.ref }}"
    `;
    const scan = (condition: string) =>
      recordsWith(RULE, [
        { path: '.github/actions/notify/action.yml', text: action },
        { path: '.github/workflows/merged.yml', text: workflow(condition) },
      ]);
    const merged = scan('if: github.event.pull_request.merged == true');
    expect(merged.map((r) => `${r.finding.file}:${r.finding.line} ${r.finding.severity}`)).toEqual(['.github/actions/notify/action.yml:6 MEDIUM', '.github/workflows/merged.yml:13 MEDIUM']);
    for (const r of merged) {
      expect(r.finding.description).toContain('a maintainer must merge the pull request first');
      expect(r.finding.description).toContain('its author chose this text');
      expect(r.facts).toContain('reach:approval');
    }
    // Anyone can close their own pull request: no maintainer's act stands in the way.
    const closed = scan('if: github.event.action == \'closed\'');
    expect(closed.map((r) => r.finding.severity)).toEqual(['HIGH', 'HIGH']);
    expect(closed[0]?.finding.description).not.toContain('merge');
  });

  it('reads the merge gate on the caller of a reusable workflow as the same maintainer\'s act', () => {
    const records = recordsWith(RULE, [
      {
        path: '.github/workflows/merged.yml',
        text: yaml`
          on:
            pull_request_target:
              types: [closed]
          jobs:
            call:
              if: github.event.pull_request.merged
              uses: ./.github/workflows/reusable.yml
              secrets: inherit
        `,
      },
      {
        path: '.github/workflows/reusable.yml',
        text: yaml`
          on: workflow_call
          jobs:
            notify:
              runs-on: ubuntu-latest
              steps:
                - run: echo "\${{ github.event.pull_request.body }}"
                  env:
                    TOKEN: \${{ secrets.BOT_TOKEN }}
        `,
      },
    ]);
    expect(records.map((r) => `${r.finding.file} ${r.finding.severity}`)).toEqual(['.github/workflows/reusable.yml MEDIUM']);
    expect(records[0]?.finding.description).toContain('a maintainer must merge the pull request first');
  });

  it('reports the inputs of a published action at LOW', () => {
    const findings = scanWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          name: lint
          inputs:
            args: { description: extra arguments }
          runs:
            using: composite
            steps:
              - shell: bash
                run: lint \${{ inputs.args }}
        `,
      },
    ]);
    expect(positions(findings)).toEqual(['8:17 LOW']);
  });

  it('resolves the inputs of reusable workflows called from the repository', () => {
    const reusable = yaml`
      on:
        workflow_call:
          inputs:
            target: { type: string }
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: make \${{ inputs.target }}
    `;
    const caller = (value: string) => yaml`
      on: pull_request_target
      jobs:
        call:
          uses: ./.github/workflows/build.yml
          with:
            target: ${value}
    `;
    const files = (value: string) => [
      { path: '.github/workflows/build.yml', text: reusable },
      { path: '.github/workflows/ci.yml', text: caller(value) },
    ];
    expect(scanWith(RULE, files('release'))).toEqual([]);
    expect(positions(scanWith(RULE, files('${{ github.event.pull_request.title }}')))).toEqual(['9:19 HIGH']);
  });

  it('reads the pull request a dispatch payload carries (`client_payload.pull_request.title`) as its author\'s text, behind whoever sends the event', () => {
    const dispatched = (value: string) => ({
      path: '.github/workflows/test.yml',
      text: yaml`
        on:
          repository_dispatch:
            types: [test-command]
        permissions:
          contents: write
        jobs:
          test:
            runs-on: ubuntu-latest
            steps:
              - run: echo "\${{ ${value} }}"
      `,
    });
    const dispatcher = (permission: string) => ({
      path: '.github/workflows/chatops.yml',
      text: yaml`
        on:
          issue_comment:
            types: [created]
        jobs:
          dispatch:
            runs-on: ubuntu-latest
            steps:
              - uses: peter-evans/slash-command-dispatch@v4
                with:
                  token: \${{ secrets.PAT }}
                  commands: test
                  permission: ${permission}
      `,
    });
    // A collaborator's command on the pull request: their approval does not vouch for the title (MEDIUM).
    const gated = scanWith(RULE, [dispatched('github.event.client_payload.pull_request.title'), dispatcher('write')]);
    expect(positions(gated)).toEqual(['10:20 MEDIUM']);
    expect(gated[0]?.description).toContain('but that does not vouch for this value');
    // Anyone's command: HIGH.
    expect(positions(scanWith(RULE, [dispatched('github.event.client_payload.pull_request.head.ref'), dispatcher('none')]))).toEqual(['10:20 HIGH']);
    // negative: another payload field is the sender's own choice (LOW), as is the pull request's number.
    expect(positions(scanWith(RULE, [dispatched('github.event.client_payload.slash_command.args.all'), dispatcher('write')]))).toEqual(['10:20 LOW']);
    expect(scanWith(RULE, [dispatched('github.event.client_payload.pull_request.number'), dispatcher('write')]).filter((f) => f.severity !== 'LOW')).toEqual([]);
  });

  it('follows matrix values, including the whole matrix (a dispatch payload is a collaborator\'s: LOW)', () => {
    const findings = scanWith(RULE, yaml`
      on: repository_dispatch
      jobs:
        j:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              os: [linux]
              extra: \${{ github.event.client_payload.extra }}
          steps:
            - run: echo \${{ matrix.os }}
            - run: echo \${{ matrix.extra }}
            - run: echo '\${{ toJSON(matrix) }}'
    `);
    expect(positions(findings)).toEqual(['11:19 LOW', '12:20 LOW']);
    expect(findings[0]?.description).toContain('set by only a collaborator with write access, via `matrix.extra`');
  });

  it('ignores conditions and odd step shapes', () => {
    expect(scanWith(RULE, yaml`
      on: issues
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - if: contains(github.event.issue.title, 'bug')
              run: echo "\${{ github.event.issue.title == 'x' }}"
            - run:
            - uses: actions/github-script@v7
              with:
                script: [not, a, string]
        k:
          runs-on: ubuntu-latest
          steps: not-a-list
    `)).toEqual([]);
  });

  it('honours a suppression comment at the end of the script line', () => {
    expect(scanWith(RULE, yaml`
      on: issues
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo "\${{ github.event.issue.title }}" # chainbreaker: ignore[script-injection]
    `)).toEqual([]);
  });
});

describe('script-injection: every action input in the code-sink table is a sink', () => {
  for (const [slug, sink] of Object.entries(CODE_SINK_ACTIONS)) {
    for (const input of sink.inputs) {
      it(`${slug} \`${input}\` (${sink.language})`, () => {
        const findings = scanWith(RULE, yaml`
          on: issues
          jobs:
            j:
              runs-on: ubuntu-latest
              steps:
                - uses: ${slug}@v1
                  with:
                    ${input}: echo "\${{ github.event.issue.title }}"
                    not-a-sink-input: echo "\${{ github.event.issue.title }}"
        `);
        expect(findings.map((f) => `${f.line} ${f.severity}`)).toEqual(['8 HIGH']);
        expect(findings[0]?.description).toContain(`the \`${input}\` input of ${slug}`);
      });
    }
  }
});

describe('script-injection: inputs an action runs without a shell are not sinks', () => {
  it("cloudflare/wrangler-action's `command` is wrangler's arguments; its `preCommands` run in a shell", () => {
    const step = (input: string) => yaml`
      on: issues
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: cloudflare/wrangler-action@v3
              with:
                ${input}: deploy --name "\${{ github.event.issue.title }}"
    `;
    expect(scanWith(RULE, step('command'))).toEqual([]);
    expect(scanWith(RULE, step('preCommands')).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe('script-injection: taint is not invented through command outputs', () => {
  it('the URL `gh pr create` prints carries no attacker text, even when its title did', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - id: pr
              env:
                TITLE: \${{ github.event.pull_request.title }}
              run: |
                URL=$(gh pr create --title "$TITLE" --body "bump")
                echo "url=$URL" >> "$GITHUB_OUTPUT"
                echo "title=$TITLE" >> "$GITHUB_OUTPUT"
            - run: echo "\${{ steps.pr.outputs.url }}"
            - run: echo "\${{ steps.pr.outputs.title }}"
    `);
    expect(findings.map((f) => `${f.line} ${f.severity}`)).toEqual(['14 HIGH']);
  });

  it("the number GitHub's API answers a query with carries none of the query's text; the query's other fields may", () => {
    const workflow = (field: string) => yaml`
      on:
        workflow_run:
          workflows: [CI]
          types: [requested]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - env:
                HEAD_BRANCH: \${{ github.event.workflow_run.head_branch }}
                GH_TOKEN: \${{ github.token }}
              run: |
                PR=$(gh api \
                  "/repos/$GITHUB_REPOSITORY/pulls?head=acme:$HEAD_BRANCH" \
                  --jq '.[0].${field}')
                echo "PR=$PR" >> "$GITHUB_ENV"
    `;
    expect(scanWith('github-env-injection', workflow('number'))).toEqual([]);
    expect(scanWith('github-env-injection', workflow('title')).length).toBe(1);
  });

  it('a `gh pr view` of a branch anyone names, whose answer written to the outputs is only the number and head SHA, carries none of the branch; its title would', () => {
    const workflow = (fields: string, program: string) => yaml`
      on:
        workflow_run:
          workflows: [format]
          types: [completed]
      permissions:
        pull-requests: write
      jobs:
        context:
          runs-on: ubuntu-latest
          outputs:
            number: \${{ steps.pr.outputs.number }}
          steps:
            - id: pr
              env:
                GH_TOKEN: \${{ github.token }}
                BRANCH: \${{ github.event.workflow_run.head_repository.owner.login }}:\${{ github.event.workflow_run.head_branch }}
              run: |
                gh pr view --repo "$GITHUB_REPOSITORY" "$BRANCH" \\
                  --json '${fields}' \\
                  --jq '${program}' \\
                  >> $GITHUB_OUTPUT
        comment:
          needs: context
          runs-on: ubuntu-latest
          steps:
            - uses: actions/github-script@v7
              with:
                script: |
                  await github.rest.issues.createComment({ ...context.repo, issue_number: \${{ needs.context.outputs.number }}, body: 'Please run the formatter' });
    `;
    expect(scanWith(RULE, workflow('number,headRefOid', '"number=\\(.number)\\nhead-sha=\\(.headRefOid)"'))).toEqual([]);
    const title = scanWith(RULE, workflow('number,title', '"number=\\(.title)"'));
    expect(title.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(title[0]?.description).toContain('github.event.workflow_run.head_branch');
    // The same program piped through another command is no plain read of GitHub's answer.
    expect(scanWith(RULE, workflow('number', '"number=\\(.number)"').replace(">> $GITHUB_OUTPUT", "| sed s/x/y/ >> $GITHUB_OUTPUT")).length).toBe(1);
  });
});

describe('script-injection: severity from the run model (docs/severity.md)', () => {
  const inject = (head: string, body = '') => yaml`
    ${head}
    jobs:
      j:
        runs-on: ubuntu-latest
        ${body}
        steps:
          - run: echo "\${{ github.event.issue.title }}"
  `;

  it('is HIGH only when the job holds something worth taking: MEDIUM with a read-only token and no secret', () => {
    expect(positions(scanWith(RULE, inject('on: issues', 'permissions: { contents: read }')))).toEqual(['7:20 MEDIUM']);
    const readOnly = scanWith(RULE, inject('on: issues', 'permissions: { issues: write }'));
    expect(positions(readOnly)).toEqual(['7:20 MEDIUM']);
    expect(readOnly[0]?.description).toContain('anyone with a GitHub account can start it through `issues`; the job holds only `issues: write` (no scope that changes code, releases or packages), no secret or OIDC token');
    expect(scanWith(RULE, inject('on: issues', 'permissions: { contents: read }'))[0]?.description).toContain('the job holds no write scope, secret or OIDC token');
    expect(positions(scanWith(RULE, inject('on: issues', 'permissions: { contents: write }')))).toEqual(['7:20 HIGH']);
    const secret = scanWith(RULE, inject('on: issues', 'permissions: {}\n        env: { TOKEN: "${{ secrets.NPM_TOKEN }}" }'));
    expect(positions(secret)).toEqual(['8:20 HIGH']);
    expect(secret[0]?.description).toContain('secret `NPM_TOKEN`');
  });

  it('attaches the facts the attack paths check: exec, reach, the events that bring the value in, holdings and run', () => {
    const records = recordsWith(RULE, inject('on: [issues, issue_comment, push]', 'permissions: { contents: write }'));
    expect(records.map((r) => r.finding.severity)).toEqual(['HIGH']);
    const facts = records[0]?.facts ?? [];
    expect(facts).toEqual(expect.arrayContaining(['exec', 'reach:anyone', 'event:issues', 'event:issue_comment', 'holds', 'holds:token']));
    expect(facts.some((f) => f.startsWith('run:'))).toBe(true);
    expect(facts).not.toContain('event:push');
  });

  it('is LOW when only `pull_request` brings the value in, though the workflow has a privileged trigger too', () => {
    const records = recordsWith(RULE, yaml`
      on: [pull_request, push, workflow_dispatch]
      permissions: { contents: write }
      jobs:
        j:
          runs-on: ubuntu-latest
          env: { TOKEN: "\${{ secrets.DEPLOY }}" }
          steps:
            - run: echo "\${{ github.event.pull_request.title }}"
    `);
    expect(records.map((r) => `${r.finding.line} ${r.finding.severity}`)).toEqual(['8 LOW']);
    expect(records[0]?.finding.description).toContain('only `pull_request` brings it in');
    expect(records[0]?.facts).toContain('reach:fork-pr');
    expect(records[0]?.facts).not.toContain('reach:anyone');
    // The same value under pull_request_target is an outsider's on a privileged run.
    const target = recordsWith(RULE, yaml`
      on: [pull_request, pull_request_target]
      permissions: { contents: write }
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.pull_request.title }}"
    `);
    expect(target.map((r) => r.finding.severity)).toEqual(['HIGH']);
    expect(target[0]?.facts).toEqual(expect.arrayContaining(['reach:anyone', 'event:pull_request_target', 'event:pull_request']));
  });

  it('keeps a value no run of the step brings in as LOW hygiene, and says why', () => {
    const findings = scanWith(RULE, yaml`
      on: [issues, push]
      jobs:
        j:
          if: github.event_name == 'push'
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.issue.title }}"
        k:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.pull_request.title }}"
    `);
    expect(positions(findings)).toEqual(['7:20 LOW', '11:20 LOW']);
    expect(findings[0]?.description).toContain('no run of this step has an event that brings the value in');
    expect(findings[1]?.description).toContain('`github.event.pull_request.title` (text an outsider sets on the events that carry it)');
    expect(findings[1]?.description).toContain('no trigger of the workflow has that field');
    expect(recordsWith(RULE, yaml`
      on: push
      jobs:
        k:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.pull_request.title }}"
    `)[0]?.facts).toBeUndefined();
  });

  it('names a member check that does not vouch for the value: MEDIUM for an outsider\'s issue title under a member\'s comment', () => {
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      permissions: { contents: write }
      jobs:
        j:
          if: github.event.comment.author_association == 'MEMBER'
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.issue.title }}"
            - run: echo "\${{ github.event.comment.body }}"
    `);
    expect(positions(findings)).toEqual(['8:20 MEDIUM', '9:20 LOW']);
    expect(findings[0]?.description).toContain('a maintainer starts the run (the condition `github.event.comment.author_association == \'MEMBER\'`), but that does not vouch for this value');
    expect(findings[1]?.description).toContain('keeps outsiders\' values out, so this is hygiene');
  });

  it('names a sticky label (HIGH) and an environment whose reviewers are unknown (MEDIUM)', () => {
    const sticky = scanWith(RULE, yaml`
      on: pull_request_target
      permissions: { contents: write }
      jobs:
        j:
          if: contains(github.event.pull_request.labels.*.name, 'safe')
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.pull_request.title }}"
    `);
    expect(positions(sticky)).toEqual(['8:20 HIGH']);
    expect(sticky[0]?.description).toContain('once a maintainer has labelled their pull request');
    const environment = scanWith(RULE, yaml`
      on: issues
      permissions: { contents: write }
      jobs:
        j:
          environment: triage
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.issue.title }}"
    `);
    expect(positions(environment)).toEqual(['8:20 MEDIUM']);
    expect(environment[0]?.description).toContain('unless the environment');
  });

  it('reads the events it knows in a reusable workflow nobody here calls, and says when none is known', () => {
    const run = (on: string) => scanWith(RULE, yaml`
      on: ${on}
      permissions: { contents: write }
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.issue.title }}"
    `);
    const both = run('{ issues: {}, workflow_call: {} }');
    expect(positions(both)).toEqual(['7:20 HIGH']);
    expect(both[0]?.description).toContain('through `issues`');
    const called = run('workflow_call');
    expect(positions(called)).toEqual(['7:20 MEDIUM']);
    expect(called[0]?.description).toContain('depends on the workflows that use it');
  });

  it('rates merged commit text MEDIUM with something to take, LOW without', () => {
    const run = (permissions: string) => scanWith(RULE, yaml`
      on: push
      permissions: ${permissions}
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.head_commit.message }}"
    `);
    const merged = run('{ contents: write }');
    expect(positions(merged)).toEqual(['7:20 MEDIUM']);
    expect(merged[0]?.description).toContain('once a maintainer merges their commits');
    expect(positions(run('{ contents: read }'))).toEqual(['7:20 LOW']);
  });

  it('rates a composite action\'s step by the worst job that calls it, and names that caller', () => {
    const action = yaml`
      name: greet
      inputs:
        who: { description: who }
      runs:
        using: composite
        steps:
          - shell: bash
            run: echo "hello \${{ inputs.who }}"
    `;
    const records = recordsWith(RULE, [
      { path: '.github/actions/greet/action.yml', text: action },
      {
        path: '.github/workflows/a.yml',
        text: yaml`
          on: issues
          permissions: { issues: write }
          jobs:
            quiet:
              runs-on: ubuntu-latest
              steps:
                - uses: ./.github/actions/greet
                  with:
                    who: \${{ github.event.issue.title }}
            loud:
              runs-on: ubuntu-latest
              permissions: { contents: write }
              steps:
                - uses: ./.github/actions/greet
                  with:
                    who: \${{ github.event.issue.title }}
        `,
      },
    ]);
    expect(records.map((r) => `${r.finding.file}:${r.finding.line} ${r.finding.severity}`)).toEqual(['.github/actions/greet/action.yml:8 HIGH']);
    expect(records[0]?.job).toBeNull();
    expect(records[0]?.finding.description).toContain('(run by step 1 of job `loud`, line 14)');
    expect(records[0]?.facts).toEqual(expect.arrayContaining(['exec', 'reach:anyone', 'event:issues', 'holds:token']));
  });

  it('finds no attacker text in the pull request URLs of an issue comment, changed-files counts and flags, or a github-script answer', () => {
    expect(scanWith(RULE, yaml`
      on: [issue_comment, pull_request_target]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - id: changed
              uses: tj-actions/changed-files@v35
            - id: merged
              uses: actions/github-script@v7
              with:
                script: |
                  const pr = await github.rest.pulls.get({ owner: context.repo.owner, repo: context.repo.repo, pull_number: context.issue.number });
                  return pr.data.merge_commit_sha;
            - run: |
                echo "\${{ github.event.issue.pull_request.html_url }}"
                [ -n "\${{ github.event.issue.pull_request }}" ] && echo pr
                echo "\${{ steps.changed.outputs.any_changed }} \${{ steps.changed.outputs.all_changed_files_count }} \${{ steps.changed.outputs.only_modified }}"
                git cherry-pick \${{ steps.merged.outputs.result }}
    `)).toEqual([]);
    // The same github-script step returning the comment's text does carry it.
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - id: cmd
              uses: actions/github-script@v7
              with:
                script: |
                  const words = context.payload.comment.body.split(' ');
                  return words
            - run: echo \${{ steps.cmd.outputs.result }}
    `);
    expect(positions(findings)).toEqual(['12:19 HIGH']);
    expect(findings[0]?.description).toContain('`github.event.comment.body`');
    expect(findings[0]?.description).not.toContain('whoever calls it');
  });

  it('follows a step output read from the files of a fork\'s artifact into a script: HIGH with secrets, nothing when validated or not an artifact', () => {
    const workflow = (read: string, on = 'workflow_run:\n    workflows: [CI]\n    types: [completed]') => `on:
  ${on}
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@v4
        with:
          name: pr
          path: pr
          run-id: \${{ github.event.workflow_run.id }}
          github-token: \${{ github.token }}
      - id: pr
        run: |
${read}
      - env:
          AWS_SECRET_ACCESS_KEY: \${{ secrets.AWS_SECRET }}
        run: aws s3 sync ./site s3://previews/\${{ steps.pr.outputs.number }}
`;
    const read = '          echo "number=$(cat pr/number.txt)" >> "$GITHUB_OUTPUT"';
    const findings = scanWith(RULE, workflow(read));
    expect(positions(findings)).toEqual(['20:47 HIGH']);
    expect(findings[0]?.description).toContain('the content of an artifact downloaded by step 1 of job `deploy`');
    const validated = '          N=$(cat pr/number.txt)\n          [[ "$N" =~ ^[0-9]+$ ]] || exit 1\n          echo "number=$N" >> "$GITHUB_OUTPUT"';
    expect(scanWith(RULE, workflow(validated))).toEqual([]);
    // A file of another directory than the artifact's, or the event payload: not the fork's files.
    expect(scanWith(RULE, workflow('          echo "number=$(cat site/version.txt)" >> "$GITHUB_OUTPUT"'))).toEqual([]);
    expect(scanWith(RULE, workflow('          echo "number=$(jq -r .number pr/x "$GITHUB_EVENT_PATH")" >> "$GITHUB_OUTPUT"'))).toEqual([]);
    // Only collaborators' runs (a workflow that follows a push-only workflow would be the base's): a dispatch is collaborators'.
    expect(positions(scanWith(RULE, workflow(read, 'workflow_dispatch:')))).toEqual([]);
  });

  it('takes a field no event has (`github.event.name`, `issue_number`, `input`: slips) for empty text: no injection, no finding', () => {
    for (const field of ['name', 'issue_number', 'input.environments']) {
      expect(scanWith(RULE, yaml`
        on: [issue_comment, workflow_dispatch]
        jobs:
          a:
            runs-on: ubuntu-latest
            steps:
              - run: if [[ "\${{ github.event.${field} }}" == "pull_request" ]]; then echo pr; fi
      `), field).toEqual([]);
    }
    // A real field of the event stays HIGH.
    expect(scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.comment.body }}"
    `).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('takes a pull request head branch name looked up through the API for free text: HIGH on a comment anyone posts, nothing when checked, for a SHA or without an outsider event', () => {
    const workflow = (lookup: string, on = 'issue_comment:\n    types: [created]') => `on:
  ${on}
permissions:
  contents: read
  actions: write
jobs:
  report:
    if: github.event.issue.pull_request
    runs-on: ubuntu-latest
    steps:
      - id: pr
        env:
          GH_TOKEN: \${{ github.token }}
          PR_URL: \${{ github.event.issue.pull_request.url }}
        run: |
${lookup}
      - run: git fetch origin \${{ steps.pr.outputs.branch }}
`;
    const curl = '          INFO="$(curl -s -H "Authorization: token $GH_TOKEN" "$PR_URL")"\n          BRANCH="$(echo "$INFO" | jq -r .head.ref)"\n          echo "branch=$BRANCH" >> "$GITHUB_OUTPUT"';
    const findings = scanWith(RULE, workflow(curl));
    expect(positions(findings)).toEqual(['20:31 HIGH']);
    expect(findings[0]?.description).toContain('the pull request head branch name looked up by step `pr` of job `report`');
    expect(findings[0]?.description).toContain('anyone with a GitHub account can start it through `issue_comment`');
    const gh = '          echo "branch=$(gh pr view "$PR_URL" --json headRefName --jq .headRefName)" >> "$GITHUB_OUTPUT"';
    expect(positions(scanWith(RULE, workflow(gh)))).toEqual(['18:31 HIGH']);
    // Checked against an anchored pattern first, the head's SHA (hex only), or a workflow only maintainers start: nothing.
    const checked = curl.replace('\n          echo', '\n          [[ "$BRANCH" =~ ^[A-Za-z0-9._/-]+$ ]] || exit 1\n          echo');
    expect(scanWith(RULE, workflow(checked))).toEqual([]);
    expect(scanWith(RULE, workflow(curl.replace('.head.ref', '.head.sha')))).toEqual([]);
    expect(scanWith(RULE, workflow(curl, 'workflow_dispatch:'))).toEqual([]);
  });

  it("follows a pull request's changed file names looked up through the API into a step output (a path may hold `$(...)`)", () => {
    const workflow = (lookup: string, on = 'pull_request_target:') => `on:
  ${on}
permissions:
  contents: read
  pull-requests: write
jobs:
  validate:
    runs-on: ubuntu-latest
    steps:
      - id: files
        run: |
${lookup}
      - run: echo "Changed \${{ steps.files.outputs.list }}" && exit 1
`;
    const curl = [
      '          info="$(curl -sSf https://api.github.com/repos/${{ github.repository }}/pulls/${{ github.event.pull_request.number }}/files)"',
      '          names=""',
      "          page=\"$(jq -r '.[].filename' <<< \"$info\")\"",
      '          names+="$page"',
      "          list=\"$(grep -E '^docs/.+\\.md$' <<< \"$names\")\" || true",
      '          echo "list<<EOF" >> "$GITHUB_OUTPUT"',
      '          echo "$list" >> "$GITHUB_OUTPUT"',
      '          echo "EOF" >> "$GITHUB_OUTPUT"',
    ].join('\n');
    const findings = scanWith(RULE, workflow(curl));
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(findings[0]?.description).toContain("the pull request's changed file names looked up by step `files` of job `validate`");
    const gh = '          echo "list=$(gh pr diff ${{ github.event.pull_request.number }} --name-only | tr \'\\n\' \' \')" >> "$GITHUB_OUTPUT"';
    expect(scanWith(RULE, workflow(gh)).map((f) => f.severity)).toEqual(['MEDIUM']);
    // Counted, not named (`.changed_files`), or on a push, where no outsider names the files: nothing.
    expect(scanWith(RULE, workflow(curl.replace(".[].filename", '.changed_files')))).toEqual([]);
    expect(scanWith(RULE, workflow(curl, 'push:'))).toEqual([]);
  });

  it('drops an artifact\'s number checked as an integer by `test -eq`, a digits-only `case` or github-script `Number.isInteger(Number(x))`; keeps a check that goes on', () => {
    const workflow = (check: string[], gs = false) => `on:
  workflow_run:
    workflows: [CI]
    types: [completed]
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@v4
        with:
          name: pr
          path: pr
          run-id: \${{ github.event.workflow_run.id }}
          github-token: \${{ github.token }}
${
  gs
    ? `      - id: pr
        uses: actions/github-script@v7
        with:
          script: |
            const n = require('fs').readFileSync('pr/number.txt', 'utf8').trim();
${check.map((l) => `            ${l}`).join('\n')}
            core.setOutput('number', n);`
    : `      - id: pr
        run: |
          N=$(cat pr/number.txt)
${check.map((l) => `          ${l}`).join('\n')}
          echo "number=$N" >> "$GITHUB_OUTPUT"`
}
      - env:
          AWS_SECRET_ACCESS_KEY: \${{ secrets.AWS_SECRET }}
        run: aws s3 sync ./site s3://previews/\${{ steps.pr.outputs.number }}
`;
    expect(scanWith(RULE, workflow(['test "$N" -eq "$N" 2>/dev/null || exit 1']))).toEqual([]);
    expect(scanWith(RULE, workflow(['if ! [ "$N" -gt 0 ]; then', '  echo "not a pull request number"', '  exit 1', 'fi']))).toEqual([]);
    expect(scanWith(RULE, workflow(['case $N in *[!0-9]*) exit 1;; esac']))).toEqual([]);
    expect(scanWith(RULE, workflow(["if (!Number.isInteger(Number(n))) { core.setFailed('bad'); return; }"], true))).toEqual([]);
    // Only a message, or `[[ -eq ]]` (arithmetic, which runs `$( )` in an array index): the text goes on.
    expect(positions(scanWith(RULE, workflow(['test "$N" -eq "$N" || echo "not a number"'])))).toEqual(['22:47 HIGH']);
    expect(positions(scanWith(RULE, workflow(['[[ $N -eq $N ]] || exit 1'])))).toEqual(['22:47 HIGH']);
    expect(positions(scanWith(RULE, workflow(["if (!Number.isInteger(parseInt(n, 10))) throw new Error('bad');"], true)))).toEqual(['24:47 HIGH']);
  });
});

describe(`${RULE}: what the job holds`, () => {
  const job = (secret: string) => yaml`
    on: issues
    permissions:
      contents: read
    jobs:
      greet:
        runs-on: ubuntu-latest
        steps:
          - run: ./notify.sh "\${{ github.event.issue.title }}"
            env:
              SLACK_WEBHOOK_URL: \${{ secrets.${secret} }}
  `;

  it('is MEDIUM, not HIGH, when the job holds only a chat webhook: it lets someone post to a channel, nothing worth taking', () => {
    const findings = scanWith(RULE, job('SLACK_WEBHOOK_URL'));
    expect(positions(findings)).toEqual(['8:27 MEDIUM']);
    expect(findings[0]?.description).toContain('the job holds only a chat webhook (`SLACK_WEBHOOK_URL`), which lets someone post to a channel');
  });

  it('stays HIGH when the secret is a Slack bot token, a credential', () => {
    expect(positions(scanWith(RULE, job('SLACK_BOT_TOKEN')))).toEqual(['8:27 HIGH']);
  });
});

describe(`${RULE}: a comment's text behind a check of the actor, on edits and deletions`, () => {
  const workflow = (on: string, condition: string, steps = '') => `on:${on}
jobs:
  cmd:
    if: startsWith(github.event.comment.body, '/run') && ${condition}
    runs-on: ubuntu-latest
    steps:
${steps}      - run: echo "\${{ github.event.comment.body }}"
        env:
          TOKEN: \${{ secrets.DEPLOY_TOKEN }}
`;
  const ACTOR = "github.actor == 'octocat'";
  const ASSOCIATION = "contains(fromJSON('[\"OWNER\",\"MEMBER\"]'), github.event.comment.author_association)";
  const permission = (who: string) => `      - uses: actions/github-script@v7
        with:
          script: |
            const { data } = await github.rest.repos.getCollaboratorPermissionLevel({ ...context.repo, username: ${who} });
            if (data.permission !== 'admin') core.setFailed('not allowed');
`;
  const severity = (text: string) => scanWith(RULE, text).map((f) => f.severity);

  it('is MEDIUM when the workflow also runs on edits or deletions (no types, or listed): whoever edits or deletes the comment passes the check, not its author', () => {
    const bare = scanWith(RULE, workflow(' issue_comment', ACTOR));
    expect(bare.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(bare[0]?.description).toContain("on the comment's `edited` and `deleted` events is whoever edits or deletes it (a maintainer moderating an outsider's comment), not its author");
    expect(bare[0]?.description).toContain('but that does not vouch for this value');
    expect(severity(workflow('\n  issue_comment:\n    types: [created, edited]', 'true', permission('context.actor')))).toEqual(['MEDIUM']);
    expect(severity(workflow('\n  discussion_comment:\n    types: [deleted]', ACTOR))).toEqual(['MEDIUM']);
    // A fork's review comment runs with a read-only token and no secrets, whoever edits it.
    expect(severity(workflow('\n  pull_request_review_comment:\n    types: [deleted]', ACTOR))).toEqual(['LOW']);
  });

  it('negative: LOW on created comments only, for a check of the comment\'s author, or when the condition keeps edits out', () => {
    expect(severity(workflow('\n  issue_comment:\n    types: [created]', ACTOR))).toEqual(['LOW']);
    expect(severity(workflow(' issue_comment', ASSOCIATION))).toEqual(['LOW']);
    expect(severity(workflow(' issue_comment', 'true', permission('context.payload.comment.user.login')))).toEqual(['LOW']);
    expect(severity(workflow(' issue_comment', `${ACTOR} && github.event.action == 'created'`))).toEqual(['LOW']);
  });

  it('is HIGH on a comment\'s deletion with no check: its author deletes it as well as a maintainer does', () => {
    expect(severity(workflow('\n  issue_comment:\n    types: [deleted]', 'true'))).toEqual(['HIGH']);
  });
});

describe(`${RULE}: a step whose callers are gated on a previous job's trust decision`, () => {
  /**
   * A first job decides whether the pull request's author is trusted and writes `fast=true` or `fast=false`;
   * `callers` are the jobs that run the local composite action `build` (or the local reusable workflow that
   * runs it) under their own `if:` on that output.
   */
  const files = (event: string, conditions: readonly (string | null)[], through: 'action' | 'workflow') => {
    const callers = conditions.map((condition, i) => {
      const gate = condition === null ? '' : `\n    if: ${condition}`;
      return through === 'workflow'
        ? `  stage${i}:\n    needs: triage${gate}\n    uses: ./.github/workflows/stage.yml\n    secrets: inherit`
        : `  stage${i}:\n    needs: triage${gate}\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n      - uses: ./.github/actions/build\n        env:\n          DEPLOY_KEY: \${{ secrets.DEPLOY_KEY }}`;
    });
    return [
      {
        path: '.github/workflows/ci.yml',
        text: [
          `on: ${event}`,
          'jobs:',
          '  triage:',
          '    runs-on: ubuntu-latest',
          '    outputs:',
          '      fast: ${{ steps.who.outputs.fast }}',
          '    steps:',
          '      - id: who',
          '        run: |',
          '          association=$(jq -r .pull_request.author_association "$GITHUB_EVENT_PATH")',
          '          if [ "$association" = OWNER ] || [ "$association" = MEMBER ]; then echo "fast=true" >> "$GITHUB_OUTPUT"; else echo "fast=false" >> "$GITHUB_OUTPUT"; fi',
          ...callers,
          '',
        ].join('\n'),
      },
      ...(through === 'action' ? [] : [{
        path: '.github/workflows/stage.yml',
        text: 'on: workflow_call\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n      - uses: ./.github/actions/build\n        env:\n          DEPLOY_KEY: ${{ secrets.DEPLOY_KEY }}\n',
      }]),
      {
        path: '.github/actions/build/action.yml',
        text: 'name: build\ndescription: build the branch\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: echo "building ${{ github.event.pull_request.head.ref }}"\n',
      },
    ];
  };
  const TRUSTED = "needs.triage.outputs.fast == 'true'";
  const UNTRUSTED = "needs.triage.outputs.fast == 'false'";
  const found = (event: string, conditions: readonly (string | null)[], through: 'action' | 'workflow') =>
    scanWith(RULE, files(event, conditions, through)).filter((f) => f.file === '.github/actions/build/action.yml');

  it('positive: a caller for the authors the first job does not trust makes the step outsider-reachable, whichever caller comes first', () => {
    for (const through of ['action', 'workflow'] as const) {
      for (const conditions of [[TRUSTED, UNTRUSTED], [UNTRUSTED, TRUSTED], [TRUSTED, null], [UNTRUSTED]]) {
        const [target] = found('pull_request_target', conditions, through);
        expect(target?.severity, `${through} ${conditions.join(', ')}`).toBe('HIGH');
        expect(target?.description).toContain('anyone with a GitHub account can start it through `pull_request_target`');
        const [fork] = found('pull_request', conditions, through);
        expect(fork?.description, `${through} ${conditions.join(', ')}`).toContain("only `pull_request` brings it in, where a fork's run has a read-only token");
        expect(fork?.description).not.toContain('only trusted authors');
      }
    }
  });

  it('negative: callers all gated on the value that means trusted keep outsiders out', () => {
    for (const through of ['action', 'workflow'] as const) {
      for (const conditions of [[TRUSTED], [TRUSTED, TRUSTED]]) {
        const [target] = found('pull_request_target', conditions, through);
        expect(target?.severity, `${through} ${conditions.join(', ')}`).not.toBe('HIGH');
        expect(target?.description).not.toContain('anyone with a GitHub account can start it');
        const [fork] = found('pull_request', conditions, through);
        expect(fork?.description, `${through} ${conditions.join(', ')}`).toContain('only trusted authors reach it');
      }
    }
  });
});

describe('script-injection: a JSON document in a here-document', () => {
  const workflow = (heredoc: string, expression = 'toJson(github)') => yaml`
    on: pull_request_target
    permissions:
      contents: write
    jobs:
      show:
        runs-on: ubuntu-latest
        steps:
          - run: |
              cat ${heredoc}
              \${{ ${expression} }}
              EOF
  `;

  it('is text under a quoted delimiter, which no line of the JSON can equal', () => {
    for (const heredoc of ["<<'EOF'", '<<"EOF"', '<<\\EOF', "<<-'EOF'"]) expect(scanWith('script-injection', workflow(heredoc)), heredoc).toEqual([]);
  });

  it('still runs under an unquoted delimiter (the shell expands `$(...)` in it), and free text can close a quoted one', () => {
    expect(scanWith('script-injection', workflow('<<EOF')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith('script-injection', workflow("<<'EOF'", 'github.event.pull_request.body')).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe(`${RULE}: a fallback after a value that is always set`, () => {
  const workflow = (on: string, expression: string) => yaml`
    on:
      ${on}
    jobs:
      cancel:
        runs-on: ubuntu-latest
        steps:
          - run: echo "pipeline-\${{ ${expression} }}"
            env:
              T: \${{ secrets.DEPLOY_TOKEN }}
  `;

  it('reads `number || head.ref` on pull_request_target as the number: the branch after it is never the value', () => {
    expect(scanWith(RULE, workflow('pull_request_target:', 'github.event.pull_request.number || github.event.pull_request.head.ref || github.ref_name'))).toEqual([]);
    expect(scanWith(RULE, workflow('pull_request_target:', "github.run_id || github.event.pull_request.title"))).toEqual([]);
  });

  it('negative: the branch before it, or an event that may carry no number (issue_comment), still expands outsider text', () => {
    expect(scanWith(RULE, workflow('pull_request_target:', 'github.event.pull_request.head.ref || github.event.pull_request.number')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('pull_request_target:', "github.event.pull_request.number && github.event.pull_request.title")).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('issue_comment:', 'github.event.pull_request.number || github.event.comment.body')).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe(`${RULE}: numbers a gh lookup steered by a branch name answers with`, () => {
  const workflow = (program: string) => yaml`
    on:
      workflow_run:
        workflows: [CI]
        types: [completed]
    jobs:
      review:
        runs-on: ubuntu-latest
        steps:
          - id: gate
            env:
              GH_TOKEN: \${{ github.token }}
              RUN_HEAD_BRANCH: \${{ github.event.workflow_run.head_branch }}
              SHA: \${{ github.event.workflow_run.head_sha }}
            run: |
              PRS=$(gh api "repos/o/r/commits/\${SHA}/pulls" \\
                --jq '${program}')
              PR_NUMBER=$(printf '%s' "$PRS" | jq -r '.[0]')
              echo "pr_number=\${PR_NUMBER}" >> "$GITHUB_OUTPUT"
          - run: ./review.sh "\${{ steps.gate.outputs.pr_number }}"
            env:
              KEY: \${{ secrets.REVIEW_KEY }}
  `;

  it('takes a jq program whose last stage picks `.number` for an opaque number, whatever its select() reads', () => {
    expect(scanWith(RULE, workflow('[.[] | select(.state == "open" and .head.ref == $ENV.RUN_HEAD_BRANCH) | .number]'))).toEqual([]);
  });

  it('negative: a program that picks text (the title) still carries it', () => {
    expect(scanWith(RULE, workflow('[.[] | select(.head.ref == $ENV.RUN_HEAD_BRANCH) | .title]')).map((f) => f.severity)).not.toEqual([]);
  });
});
