import { describe, expect, it } from 'vitest';
import { AGENT_ACTIONS, agentAction } from '../../../../lib/engine/data/agent-actions.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'agent-untrusted-input';

describe(RULE, () => {
  it('reports an agent on issues with a write token as HIGH, at its uses:', () => {
    const findings = scanWith(RULE, yaml`
      on:
        issues:
          types: [opened]
      permissions:
        contents: write
        issues: write
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - uses: google-github-actions/run-gemini-cli@v0
              with:
                gemini_api_key: \${{ secrets.GEMINI_API_KEY }}
    `);
    expect(positions(findings)).toEqual(['11:15 HIGH']);
    expect(findings[0]?.description).toContain('Gemini CLI runs on `issues`');
    expect(findings[0]?.description).toContain('contents, issues');
    expect(findings[0]?.description).toContain('GEMINI_API_KEY');
  });

  it('reads a copy of a listed agent action under another owner as that agent, named as a copy; not a generic name', () => {
    const workflow = (uses: string) => yaml`
      on:
        issues:
          types: [opened]
      permissions:
        contents: write
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - uses: ${uses}
              with:
                gemini_api_key: \${{ secrets.GEMINI_API_KEY }}
    `;
    const copy = scanWith(RULE, workflow('acme-ci/run-gemini-cli@v0'));
    expect(positions(copy)).toEqual(['10:15 HIGH']);
    expect(copy[0]?.description).toContain('Gemini CLI (a copy at `acme-ci/run-gemini-cli`) runs on `issues`');
    expect(agentAction('acme-ci/claude-code-action', '')?.name).toBe('Claude Code (a copy at `acme-ci/claude-code-action`)');
    // A repository that only shares a generic name, or a path inside a copy, is not read as the agent.
    expect(agentAction('acme-ci/opencode', '')).toBeUndefined();
    expect(agentAction('acme-ci/run-gemini-cli', 'tools/lint')).toBeUndefined();
    expect(scanWith(RULE, workflow('acme-ci/gemini-review@v1'))).toEqual([]);
  });

  it('an environment whose protection rules the files do not show is not said to be a maintainer\'s start', () => {
    const workflow = (environment: string) => yaml`
      on:
        issues:
          types: [opened]
      permissions:
        contents: read
      jobs:
        triage:
          runs-on: ubuntu-latest
          ${environment}
          steps:
            - uses: openai/codex-action@v1
              with:
                openai-api-key: \${{ secrets.OPENAI_API_KEY }}
                allow-users: '*'
    `;
    const [gated] = scanWith(RULE, workflow('environment: automations'));
    expect(gated?.description).toContain('runs on `issues` events that anyone can cause, unless environment `automations` requires a reviewer\'s approval of each run');
    expect(gated?.description).not.toContain('started by a maintainer');
    const [open] = scanWith(RULE, workflow(''));
    expect(open?.description).toContain('runs on `issues` events that anyone can cause');
    expect(open?.description).not.toContain('unless environment');
  });

  it('is MEDIUM when anyone starts it and the job only holds secrets or conversation scopes', () => {
    expect(positions(scanWith(RULE, yaml`
      on: issue_comment
      permissions:
        issues: write
      jobs:
        reply:
          runs-on: ubuntu-latest
          steps:
            - uses: openai/codex-action@v1
              with:
                openai-api-key: \${{ secrets.OPENAI_API_KEY }}
                allow-users: '*'
    `))).toEqual(['8:15 MEDIUM']);
  });

  it('is LOW when a maintainer starts it on an outsider\'s thread and the job holds nothing worth taking beyond the model key; MEDIUM when it holds more', () => {
    // A maintainer labels the issue; the agent posts its answer with a conversation scope and its own model key.
    const labelled = (permissions: string, env = '', runsOn = 'ubuntu-latest') => yaml`
      on:
        issues:
          types: [labeled]
      permissions: ${permissions}
      jobs:
        answer:
          if: github.event.label.name == 'ask-bot'
          runs-on: ${runsOn}${env}
          steps:
            - run: copilot -p "Answer issue $NUMBER" --allow-all-tools
              env:
                NUMBER: \${{ github.event.issue.number }}
    `;
    const [idle] = scanWith(RULE, labelled('{ contents: read, issues: write, copilot-requests: write }'));
    expect(idle?.severity).toBe('LOW');
    expect(idle?.description).toContain('is started by a maintainer on `issues`');
    expect(idle?.description).toContain('LOW: a maintainer starts it, and the job holds only `issues: write`, `copilot-requests: write` (no scope that changes code, releases or packages)');
    expect(idle?.description).toContain('so an injected prompt can only shape what it posts');
    // What keeps it MEDIUM: another credential, a self-hosted machine, a scope that changes code (with a shell too: the
    // maintainer's label stands in the way, so not HIGH, and it says so).
    expect(scanWith(RULE, labelled('{ contents: read, issues: write }', '\n          env:\n            NPM_TOKEN: ${{ secrets.NPM_TOKEN }}'))[0]?.severity).toBe('MEDIUM');
    const [packages] = scanWith(RULE, labelled('{ packages: write, issues: write }'));
    expect(packages?.severity).toBe('MEDIUM');
    expect(packages?.description).toContain("MEDIUM, not HIGH: the agent has a free shell and a token that can write code or mint cloud credentials, but a maintainer's act stands between the outsider's text and the run.");
    expect(scanWith(RULE, labelled('{ contents: read, issues: write }', '', '[self-hosted, linux]'))[0]?.severity).toBe('MEDIUM');
    // Anyone who opens an issue starting it keeps it MEDIUM with the same holdings.
    expect(scanWith(RULE, yaml`
      on:
        issues:
          types: [opened]
      permissions: { contents: read, issues: write }
      jobs:
        answer:
          runs-on: ubuntu-latest
          steps:
            - run: copilot -p "Answer issue $NUMBER" --allow-all-tools
              env:
                NUMBER: \${{ github.event.issue.number }}
    `)[0]?.severity).toBe('MEDIUM');
  });

  it('claude-code-action: a maintainer starts it by default (MEDIUM without Bash); allowed_non_write_users lets anyone; Bash gives it a shell', () => {
    const workflow = (extra: string) => yaml`
      on: issue_comment
      permissions:
        contents: write
      jobs:
        claude:
          runs-on: ubuntu-latest
          steps:
            - uses: anthropics/claude-code-action@v1
              with:
                anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}${extra}
    `;
    const own = scanWith(RULE, workflow(''));
    expect(positions(own)).toEqual(['8:15 MEDIUM']);
    // The action's own check makes every start a maintainer's act: the facts say so, not the trigger's reach.
    const [started] = recordsWith(RULE, workflow(''));
    expect(started?.facts).toContain('reach:approval');
    expect(started?.facts).not.toContain('reach:anyone');
    const open = "\n                allowed_non_write_users: '*'\n                github_token: ${{ github.token }}";
    expect(recordsWith(RULE, workflow(open))[0]?.facts).toContain('reach:anyone');
    // The input lifts the check only with a `github_token` input, and only `*` lets everyone in.
    expect(recordsWith(RULE, workflow("\n                allowed_non_write_users: '*'"))[0]?.facts).toContain('reach:approval');
    expect(recordsWith(RULE, workflow('\n                allowed_non_write_users: alice,bob\n                github_token: ${{ github.token }}'))[0]?.facts).toContain('reach:approval');
    expect(recordsWith(RULE, workflow('\n                allowed_non_write_users: ${{ vars.USERS }}\n                github_token: ${{ github.token }}'))[0]?.facts).toContain('reach:anyone');
    expect(own[0]?.description).toContain("is started by a maintainer on `issue_comment` (the action's own check that the actor has write access)");
    expect(own[0]?.description).toContain('whose title, body and earlier comments an outsider can write');
    const findings = scanWith(RULE, workflow(open));
    expect(positions(findings)).toEqual(['8:15 MEDIUM']);
    expect(findings[0]?.description).toContain('anyone can cause (`allowed_non_write_users` lets actors without write access start it)');
    // A shell behind the action's own write-access check: a maintainer starts it, MEDIUM (HIGH once anyone can).
    expect(positions(scanWith(RULE, workflow('\n                claude_args: --allowedTools "Bash,Edit"')))).toEqual(['8:15 MEDIUM']);
    expect(positions(scanWith(RULE, workflow(`${open}\n                claude_args: --allowedTools "Bash,Edit"`)))).toEqual(['8:15 HIGH']);
    expect(positions(scanWith(RULE, workflow('\n                claude_args: --allowedTools "Bash(npm test),Edit"')))).toEqual(['8:15 MEDIUM']);
  });

  it('claude-code-action: its write-access check makes a start on any event whose actor acted (an issue opened, a review) a maintainer\'s act', () => {
    const workflow = (on: string, extra = '') => yaml`
      on:
${on}
      permissions:
        contents: write
        issues: write
        pull-requests: write
      jobs:
        claude:
          runs-on: ubuntu-latest
          steps:
            - uses: anthropics/claude-code-action@v1
              with:
                anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}${extra}
    `;
    // The usual set of triggers: comments, review comments and reviews (a fork's run among them), issues opened.
    const usual = [
      '        issue_comment: { types: [created] }',
      '        pull_request_review_comment: { types: [created] }',
      '        issues: { types: [opened, assigned] }',
      '        pull_request_review: { types: [submitted] }',
    ].join('\n');
    for (const on of [usual, '        issues: { types: [opened] }', '        pull_request_review_comment: { types: [created] }\n        issues: { types: [opened] }']) {
      const [record] = recordsWith(RULE, workflow(on));
      expect(record?.finding.severity).toBe('MEDIUM');
      expect(record?.facts).toContain('reach:approval');
      expect(record?.facts).not.toContain('reach:anyone');
      expect(record?.facts).not.toContain('reach:fork-pr');
      expect(record?.finding.description).toContain("is started by a maintainer on");
      expect(record?.finding.description).toContain("(the action's own check that the actor has write access)");
    }
    // Lifted for everyone: anyone who opens an issue starts it.
    const [open] = recordsWith(RULE, workflow('        issues: { types: [opened] }', "\n                allowed_non_write_users: '*'\n                github_token: ${{ github.token }}"));
    expect(open?.facts).toContain('reach:anyone');
    expect(open?.finding.description).toContain('runs on `issues` events that anyone can cause');
  });

  it('claude-code-action: a start on an event its check does not cover (workflow_run) is still anyone\'s; codex-action checks every event', () => {
    const workflow = (uses: string, input: string) => yaml`
      on:
        workflow_run:
          workflows: [CI]
          types: [completed]
      permissions:
        contents: write
      jobs:
        fix:
          runs-on: ubuntu-latest
          steps:
            - uses: ${uses}
              with:
                ${input}: \${{ secrets.API_KEY }}
                prompt: Fix the failing build of branch \${{ github.event.workflow_run.head_branch }}
    `;
    const [claude] = recordsWith(RULE, workflow('anthropics/claude-code-action@v1', 'anthropic_api_key'));
    expect(claude?.facts).toContain('reach:anyone');
    expect(claude?.finding.description).toContain("runs on `workflow_run` events that anyone can cause (the action checks the actor's write access, but not on `workflow_run`)");
    const [codex] = recordsWith(RULE, workflow('openai/codex-action@v1', 'openai-api-key'));
    expect(codex?.facts).toContain('reach:approval');
    expect(codex?.facts).not.toContain('reach:anyone');
  });

  it('reports an agent a member\'s comment starts: the issue it reads is still an outsider\'s (MEDIUM, also with a shell and a code-writing scope)', () => {
    const workflow = (permissions: string) => yaml`
      on: issue_comment
      permissions: ${permissions}
      jobs:
        guarded:
          if: contains(fromJSON('["OWNER", "MEMBER", "COLLABORATOR"]'), github.event.comment.author_association)
          runs-on: ubuntu-latest
          steps:
            - uses: openai/codex-action@v1
              with: { openai-api-key: '\${{ secrets.OPENAI_API_KEY }}' }
    `;
    const high = recordsWith(RULE, workflow('{ contents: write }'));
    expect(positions(high.map((r) => r.finding))).toEqual(['8:15 MEDIUM']);
    expect(high[0]?.finding.description).toContain('is started by a maintainer on `issue_comment` (the condition');
    expect(high[0]?.finding.description).toContain("MEDIUM, not HIGH: the agent has a free shell and a token that can write code or mint cloud credentials, but a maintainer's act stands between");
    expect(high[0]?.facts).toContain('reach:approval');
    // Only a conversation scope and the model key: an injected prompt can only shape the comment it posts (LOW).
    expect(positions(scanWith(RULE, workflow('{ issues: write }')))).toEqual(['8:15 LOW']);
    // A maintainer's act on the issue itself (labelling it) starts it too.
    expect(positions(scanWith(RULE, yaml`
      on:
        issues:
          types: [labeled]
      permissions: { contents: write }
      jobs:
        fix:
          if: github.event.label.name == 'ai-fix'
          runs-on: ubuntu-latest
          steps:
            - uses: google-github-actions/run-gemini-cli@v0
              with: { gemini_api_key: '\${{ secrets.GEMINI_API_KEY }}' }
    `))).toEqual(['10:15 MEDIUM']);
  });

  it('does not count a secret that only names a project or account as something the agent holds', () => {
    const agent = (extra: string) => yaml`
      on:
        issues:
          types: [opened]
      permissions: { contents: read }
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - uses: google-github-actions/run-gemini-cli@v0
              with:
                gcp_project_id: \${{ secrets.GCP_PROJECT_ID }}
                ${extra}
    `;
    expect(scanWith(RULE, agent('gcp_location: us-central1'))).toEqual([]);
    const keyed = scanWith(RULE, agent("gemini_api_key: '${{ secrets.GEMINI_API_KEY }}'"));
    expect(positions(keyed)).toEqual(['9:15 MEDIUM']);
    expect(keyed[0]?.description).not.toContain('GCP_PROJECT_ID');
  });

  it('does not report trusted threads, maintainer-only events, powerless jobs or non-agent steps', () => {
    expect(scanWith(RULE, yaml`
      on:
        pull_request_target:
        workflow_dispatch:
      permissions:
        contents: write
      jobs:
        same-repo:
          if: github.event.pull_request.head.repo.full_name == github.repository
          runs-on: ubuntu-latest
          steps:
            - uses: openai/codex-action@v1
              with: { openai-api-key: '\${{ secrets.OPENAI_API_KEY }}' }
        readonly:
          permissions: { contents: read }
          runs-on: ubuntu-latest
          steps:
            - uses: openai/codex-action@v1
        other:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/github-script@v7
              with: { github-token: '\${{ secrets.BOT_TOKEN }}' }
    `)).toEqual([]);
    expect(scanWith(RULE, yaml`
      on: [push, workflow_dispatch, pull_request]
      permissions: write-all
      jobs:
        fix:
          runs-on: ubuntu-latest
          steps:
            - uses: openai/codex-action@v1
              with: { openai-api-key: '\${{ secrets.OPENAI_API_KEY }}' }
    `)).toEqual([]);
  });

  it('reports the unguarded way in when only some events are guarded (OIDC: cloud credentials, HIGH with a shell)', () => {
    expect(positions(scanWith(RULE, yaml`
      on:
        issues:
        issue_comment:
      permissions: { contents: read, id-token: write }
      jobs:
        dedup:
          if: github.event_name == 'issues' || (github.event_name == 'issue_comment' && github.event.comment.author_association == 'OWNER')
          runs-on: ubuntu-latest
          steps:
            - uses: google-github-actions/run-gemini-cli@v0
    `))).toEqual(['10:15 HIGH']);
  });

  it('follows a reusable workflow to the comment that starts it and a local composite action to its call', () => {
    const files = [
      {
        path: '.github/workflows/dispatch.yml',
        text: yaml`
          on: issue_comment
          jobs:
            invoke:
              if: github.event.comment.author_association == 'MEMBER'
              uses: ./.github/workflows/invoke.yml
              secrets: inherit
        `,
      },
      {
        path: '.github/workflows/invoke.yml',
        text: yaml`
          on: workflow_call
          jobs:
            invoke:
              runs-on: ubuntu-latest
              permissions: { contents: read, issues: write }
              steps:
                - uses: google-github-actions/run-gemini-cli@v0
                  with: { gemini_api_key: '\${{ secrets.GEMINI_API_KEY }}' }
        `,
      },
    ];
    const records = recordsWith(RULE, files);
    // A member starts it and it holds `issues: write` and its model key only: LOW.
    expect(records.map((r) => `${r.finding.file}:${r.finding.line} ${r.finding.severity}`)).toEqual(['.github/workflows/invoke.yml:7 LOW']);
    expect(records[0]?.finding.description).toContain('is started by a maintainer on `issue_comment`');
    const composite = recordsWith(RULE, [
      {
        path: '.github/workflows/triage.yml',
        text: yaml`
          on:
            issues:
              types: [opened]
          permissions: { contents: write }
          jobs:
            triage:
              runs-on: ubuntu-latest
              steps:
                - uses: ./.github/actions/agent
                  with:
                    prompt: \${{ github.event.issue.body }}
                    api-key: \${{ secrets.OPENCODE_API_KEY }}
        `,
      },
      {
        path: '.github/actions/agent/action.yml',
        text: yaml`
          inputs:
            prompt: {}
            api-key: {}
          runs:
            using: composite
            steps:
              - uses: sst/opencode/github@v1
                with:
                  prompt: \${{ inputs.prompt }}
        `,
      },
    ]);
    expect(composite.map((r) => `${r.finding.file}:${r.finding.line} ${r.finding.severity}`)).toEqual(['.github/workflows/triage.yml:9 HIGH']);
    expect(composite[0]?.finding.description).toContain('opencode (inside local action `./.github/actions/agent`');
  });

  it('a dispatcher whose github-script sets the command per event: a command only a member\'s comment can set is a maintainer\'s start', () => {
    const dispatcher = (first: string) => [
      {
        path: '.github/workflows/dispatch.yml',
        text: yaml`
          on:
            issues:
              types: [opened, reopened]
            issue_comment:
              types: [created]
          jobs:
            dispatch:
              if: github.event_name == 'issues' || contains(fromJSON('["OWNER", "MEMBER"]'), github.event.comment.author_association)
              runs-on: ubuntu-latest
              outputs:
                command: \${{ steps.extract.outputs.command }}
              steps:
                - id: extract
                  uses: actions/github-script@v7
                  env:
                    EVENT_TYPE: '\${{ github.event_name }}.\${{ github.event.action }}'
                    REQUEST: \${{ github.event.comment.body || github.event.issue.body }}
                  with:
                    script: |
                      const eventType = process.env.EVENT_TYPE;
                      const request = process.env.REQUEST;
                      ${first}
                      if (['issues.opened', 'issues.reopened'].includes(eventType)) {
                        core.setOutput('command', 'triage');
                      } else if (request.startsWith('@bot /fix')) {
                        core.setOutput('command', 'fix');
                      } else {
                        core.setOutput('command', 'fallthrough');
                      }
            triage:
              needs: dispatch
              if: needs.dispatch.outputs.command == 'triage'
              uses: ./.github/workflows/triage.yml
              secrets: inherit
            fix:
              needs: dispatch
              if: \${{ needs.dispatch.outputs.command == 'fix' }}
              uses: ./.github/workflows/fix.yml
              secrets: inherit
        `,
      },
      ...['triage', 'fix'].map((name) => ({
        path: `.github/workflows/${name}.yml`,
        text: yaml`
          on: workflow_call
          jobs:
            agent:
              runs-on: ubuntu-latest
              permissions: { contents: write, issues: write }
              steps:
                - uses: google-github-actions/run-gemini-cli@v0
                  with: { gemini_api_key: '\${{ secrets.GEMINI_API_KEY }}' }
        `,
      })),
    ];
    const severities = (first: string) => recordsWith(RULE, dispatcher(first)).map((r) => `${r.finding.file} ${r.finding.severity}`).sort();
    // `fix` is set only where the issue branch is not taken: on a member's comment.
    expect(severities('')).toEqual(['.github/workflows/fix.yml MEDIUM', '.github/workflows/triage.yml HIGH']);
    // A branch the script cannot read first (the request's text, anyone's on an issue) may set `fix` on any occasion.
    const unknownFirst = "if (request.startsWith('@bot /fix now')) { core.setOutput('command', 'fix'); } else";
    expect(severities(unknownFirst)).toEqual(['.github/workflows/fix.yml HIGH', '.github/workflows/triage.yml HIGH']);
  });

  it('knows every agent of the table, each with a source', () => {
    for (const agent of AGENT_ACTIONS) expect(agent.source).toMatch(/^https:\/\//);
    const cases: [string, string, string][] = [
      ['anthropics/claude-code-action@v1', '', 'MEDIUM'],
      ['anthropics/claude-code-base-action@beta', '', 'MEDIUM'],
      ['google-github-actions/run-gemini-cli@v0', '', 'HIGH'],
      ['google-gemini/gemini-cli-action@main', '', 'HIGH'],
      // Codex and Bonk check the actor's write access themselves: a maintainer starts them, MEDIUM.
      ['openai/codex-action@v1', '', 'MEDIUM'],
      ['sst/opencode/github@latest', '', 'HIGH'],
      ['anomalyco/opencode/github@latest', '', 'HIGH'],
      ['ask-bonk/ask-bonk/github@main', '', 'MEDIUM'],
      ['ask-bonk/ask-bonk/github@main', '\n                  permissions: any', 'HIGH'],
    ];
    for (const [uses, extra, severity] of cases) {
      const findings = scanWith(RULE, yaml`
        on: issue_comment
        permissions: { contents: write }
        jobs:
          agent:
            runs-on: ubuntu-latest
            steps:
              - uses: ${uses}
                with:
                  key: \${{ secrets.MODEL_KEY }}${extra}
      `);
      expect(positions(findings), uses).toEqual([`7:15 ${severity}`]);
    }
    // Bonk checks the actor's permission unless `permissions: any`.
    expect(scanWith(RULE, yaml`
      on: issue_comment
      permissions: { contents: write }
      jobs:
        agent:
          runs-on: ubuntu-latest
          steps:
            - uses: ask-bonk/ask-bonk/github@main
              with: { key: '\${{ secrets.MODEL_KEY }}' }
    `)[0]?.description).toContain('is started by a maintainer');
    expect(scanWith(RULE, yaml`
      on: issue_comment
      permissions: { contents: write }
      jobs:
        agent:
          runs-on: ubuntu-latest
          steps:
            - uses: ask-bonk/ask-bonk/github@main
              with: { key: '\${{ secrets.MODEL_KEY }}', permissions: any }
    `)[0]?.description).toContain('events that anyone can cause (`permissions` lets actors without write access start it)');
  });

  it('is LOW when the tools of the agent are restricted to an allowlist', () => {
    const findings = scanWith(RULE, yaml`
      on: issues
      permissions: { contents: write }
      jobs:
        label:
          runs-on: ubuntu-latest
          steps:
            - uses: google-github-actions/run-gemini-cli@v0
              with:
                settings: |
                  { "tools": { "core": ["read_file", "run_shell_command(gh issue view)"] } }
    `);
    expect(positions(findings)).toEqual(['7:15 LOW']);
    expect(findings[0]?.description).toContain('allowlist');
  });

  it("is not LOW when the allowlist lets Gemini CLI run a command that writes any file (a redirect after an allowed `echo`)", () => {
    const agent = (permissions: string, core: string) => yaml`
      on:
        issues:
          types: [opened]
      jobs:
        dedup:
          runs-on: ubuntu-latest
          permissions: { ${permissions} }
          steps:
            - uses: google-github-actions/run-gemini-cli@v0
              with:
                settings: |
                  { "tools": { "core": [${core}] } }
                prompt: Append the result to the file "\${GITHUB_ENV}" with echo.
    `;
    const oidc = scanWith(RULE, agent('contents: read, id-token: write', '"run_shell_command(echo)", "run_shell_command(gh issue view)"'));
    expect(positions(oidc)).toEqual(['9:15 HIGH']);
    expect(oidc[0]?.description).toContain('lets it run `echo`');
    expect(oidc[0]?.description).toContain('`$GITHUB_ENV` and `$GITHUB_PATH`');
    // The runner refuses NODE_OPTIONS from $GITHUB_ENV (actions/runner#2775): not named as a way in.
    expect(oidc[0]?.description).not.toContain('NODE_OPTIONS');
    // printf and tee write files the same way; with only an issue-comment token it is MEDIUM.
    expect(positions(scanWith(RULE, agent('contents: read, issues: write', '"run_shell_command(printf)"')))).toEqual(['9:15 MEDIUM']);
    expect(positions(scanWith(RULE, agent('contents: read, id-token: write', '"run_shell_command(tee -a)"')))).toEqual(['9:15 HIGH']);
    // Commands that write nothing the prompt chooses keep it LOW.
    expect(positions(scanWith(RULE, agent('contents: read, id-token: write', '"run_shell_command(gh issue view)", "read_file"')))).toEqual(['9:15 LOW']);
    expect(positions(scanWith(RULE, agent('contents: read, id-token: write', '"run_shell_command(echoes)"')))).toEqual(['9:15 LOW']);
  });

  describe('claude-code-action with a permission list of reads and thread edits only', () => {
    const triage = (extra: string, options: { permissions?: string; prompt?: boolean; before?: string } = {}) => yaml`
      on:
        issues:
          types: [opened]
      permissions:
        ${options.permissions ?? '{ contents: read, issues: write, id-token: write }'}
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3${options.before ?? ''}
            - uses: anthropics/claude-code-action@v1
              with:
                anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}
                allowed_non_write_users: '*'
                github_token: \${{ secrets.GITHUB_TOKEN }}${options.prompt === false ? '' : "\n                prompt: '/label-issue REPO: x ISSUE: y'"}${extra}
    `;
    const labels = '\n                claude_args: --allowedTools "Bash(gh label list),Bash(gh issue view:*),Bash(gh issue edit:*),Bash(gh search:*)"';

    it('is LOW when every allowed tool only reads or labels, comments on and edits issues, naming them; id-token serves the action', () => {
      const [record] = recordsWith(RULE, triage(labels));
      expect(record?.finding.severity).toBe('LOW');
      expect(record?.facts).toContain('reach:anyone');
      const description = record?.finding.description ?? '';
      expect(description).toContain('limited to reading and the tools of its permission list (`Bash(gh label list)`, `Bash(gh issue view:*)`, `Bash(gh issue edit:*)`, `Bash(gh search:*)`)');
      expect(description).toContain('can only steer the labels, comments and issue or pull request edits');
      expect(description).toContain("`id-token: write` serves the action's own OIDC exchange");
      // The older `allowed_tools` input, GitHub's MCP server's thread tools and a code-writing token the checkout does not keep.
      expect(positions(scanWith(RULE, triage('\n                allowed_tools: "Read,Glob,Grep,mcp__github__get_issue,mcp__github__update_issue,mcp__github__add_issue_comment"')))).toEqual(['11:15 LOW']);
      const kept = triage(labels, { permissions: '{ contents: write, issues: write }', before: '\n              with: { persist-credentials: false }' });
      expect(positions(scanWith(RULE, kept))).toEqual(['12:15 LOW']);
      // The base action always runs with only its list.
      expect(positions(scanWith(RULE, triage(labels, { prompt: false }).replace('claude-code-action@v1', 'claude-code-base-action@beta').replace(/\n\s+allowed_non_write_users: '\*'\n\s+github_token: \S+/, '')))).toEqual(['11:15 LOW']);
    });

    it('stays MEDIUM (HIGH with a free shell) when a tool runs, edits, pushes or calls anything, or the list is not all it gets', () => {
      for (const tools of ['Bash(gh api:*)', 'Bash(gh pr create:*)', 'Bash(git push:*)', 'Edit', 'Write', 'WebFetch', 'mcp__github__create_or_update_file', 'mcp__github__*', 'Bash(gh issue:*)', 'Bash(gh issue view:*; curl x)', 'Bash(npm test)']) {
        expect(positions(scanWith(RULE, triage(`\n                claude_args: --allowedTools "Bash(gh issue edit:*),${tools}"`)))).toEqual(['11:15 MEDIUM']);
      }
      expect(positions(scanWith(RULE, triage('\n                claude_args: --allowedTools "Bash(gh issue edit:*),Bash"')))).toEqual(['11:15 HIGH']);
      // Without `prompt` (tag mode) or with `track_progress`, the action adds edit and push tools of its own.
      expect(positions(scanWith(RULE, triage(labels, { prompt: false })))).toEqual(['11:15 MEDIUM']);
      expect(positions(scanWith(RULE, triage(`${labels}\n                track_progress: true`)))).toEqual(['11:15 MEDIUM']);
      expect(positions(scanWith(RULE, triage(`${labels} --permission-mode acceptEdits`)))).toEqual(['11:15 MEDIUM']);
      expect(positions(scanWith(RULE, triage('\n                claude_args: ${{ vars.CLAUDE_ARGS }}')))).toEqual(['11:15 MEDIUM']);
      // No list at all: not confined by one.
      expect(positions(scanWith(RULE, triage('')))).toEqual(['11:15 MEDIUM']);
    });

    it('stays MEDIUM when it holds another secret, or a code-writing token lies in .git/config for its read tools', () => {
      const other = scanWith(RULE, triage(`${labels}\n              env:\n                DEPLOY_KEY: \${{ secrets.DEPLOY_KEY }}`));
      expect(positions(other)).toEqual(['11:15 MEDIUM']);
      expect(other[0]?.description).toContain('but it also holds `DEPLOY_KEY`, more than its model key');
      const persisted = scanWith(RULE, triage(labels, { permissions: '{ contents: write, issues: write }' }));
      expect(positions(persisted)).toEqual(['11:15 MEDIUM']);
      expect(persisted[0]?.description).toContain('an earlier checkout left the job\'s token, which can write code, in `.git/config`');
    });
  });

  describe('openai/codex-action keeps its model key in its own proxy', () => {
    const workflow = (permissions: string, inputs = '', env = '') => yaml`
      on: issue_comment
      permissions: ${permissions}
      jobs:
        review:
          runs-on: ubuntu-latest${env}
          steps:
            - uses: actions/checkout@v3
            - uses: openai/codex-action@v1
              with:
                openai-api-key: \${{ secrets.OPENAI_API_KEY }}
                allow-users: '*'
                prompt: Answer the question in this comment${inputs}
    `;

    it('is LOW with a read-only token and nothing else: an injected instruction only steers the output', () => {
      for (const inputs of ['', '\n                safety-strategy: drop-sudo', '\n                safety-strategy: unprivileged-user\n                codex-user: codex']) {
        const [record] = recordsWith(RULE, workflow('{ contents: read }', inputs));
        expect(record?.finding.severity, inputs).toBe('LOW');
        expect(record?.finding.description).toContain("the model key `OPENAI_API_KEY` it is handed stays in the Responses API proxy the action starts, out of the agent's reach");
        expect(record?.finding.description).toContain("its job's token is read-only");
        expect(record?.finding.description).toContain("can only steer the agent's output");
        expect(record?.finding.description).not.toContain('reach an agent holding them');
        expect(record?.facts).not.toContain('holds:secrets');
        expect(record?.facts).not.toContain('holds');
      }
      expect(recordsWith(RULE, workflow('{ contents: read }'))[0]?.finding.description).toContain('(`safety-strategy` `drop-sudo`, the default)');
      // No `permissions:` at all: the repository's default token, which another rule checks.
      const [undeclared] = scanWith(RULE, yaml`
        on: issue_comment
        jobs:
          review:
            runs-on: ubuntu-latest
            steps:
              - uses: openai/codex-action@v1
                with:
                  openai-api-key: \${{ secrets.OPENAI_API_KEY }}
      `);
      expect(undeclared?.severity).toBe('LOW');
      expect(undeclared?.description).toContain('its job declares no `permissions:`');
    });

    it('keeps its severity when the strategy lets the agent read the proxy\'s memory, or in a container', () => {
      for (const strategy of ['unsafe', "${{ inputs.strategy }}"]) {
        const inputs = `\n                safety-strategy: ${strategy}`;
        const [record] = recordsWith(RULE, workflow('{ contents: read }', inputs));
        expect(record?.finding.severity, strategy).toBe('MEDIUM');
        expect(record?.finding.description).toContain('secrets (OPENAI_API_KEY)');
        expect(record?.finding.description).not.toContain('Responses API proxy');
        expect(record?.facts).toContain('holds:secrets');
        expect(positions(scanWith(RULE, workflow('{ contents: write }', inputs))), strategy).toEqual(['8:15 HIGH']);
      }
      // `read-only` confines its tools (LOW for that), but leaves it sudo: the key is among what it holds.
      const [readOnly] = scanWith(RULE, workflow('{ contents: read }', '\n                safety-strategy: read-only'));
      expect(readOnly?.severity).toBe('LOW');
      expect(readOnly?.description).toContain('secrets (OPENAI_API_KEY)');
      expect(readOnly?.description).toContain('allowlist');
      expect(readOnly?.description).not.toContain('Responses API proxy');
      const contained = scanWith(RULE, workflow('{ contents: read }', '', '\n          container: node:20'));
      expect(contained.map((f) => f.severity)).toEqual(['MEDIUM']);
    });

    it('keeps its severity when the token can write or the agent holds the key or another secret another way', () => {
      const [talk] = recordsWith(RULE, workflow('{ issues: write }'));
      expect(talk?.finding.severity).toBe('MEDIUM');
      expect(talk?.finding.description).toContain('its job holds a token with write access (issues) (the model key `OPENAI_API_KEY` it is handed stays in the Responses API proxy');
      expect(talk?.finding.description).not.toContain('secrets (OPENAI_API_KEY)');
      // The key is referenced nowhere else in the job: the finding's holdings leave it out.
      expect(talk?.facts).not.toContain('holds:secrets');
      expect(positions(scanWith(RULE, workflow('{ contents: write }')))).toEqual(['8:15 HIGH']);
      // The key also in the job's `env:`, or the step's: the agent's shell reads it there.
      const jobEnv = '\n          env:\n            OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}';
      const [inEnv] = scanWith(RULE, workflow('{ contents: read }', '', jobEnv));
      expect(inEnv?.severity).toBe('MEDIUM');
      expect(inEnv?.description).toContain('secrets (OPENAI_API_KEY)');
      expect(scanWith(RULE, workflow('{ contents: read }', '\n                codex-args: --config key=${{ secrets.OPENAI_API_KEY }}')).map((f) => f.severity)).toEqual(['MEDIUM']);
      expect(scanWith(RULE, yaml`
        on: issue_comment
        permissions: { contents: read }
        jobs:
          review:
            runs-on: ubuntu-latest
            steps:
              - uses: openai/codex-action@v1
                env:
                  OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}
                with:
                  openai-api-key: \${{ secrets.OPENAI_API_KEY }}
                  allow-users: '*'
      `).map((f) => f.severity)).toEqual(['MEDIUM']);
      // Another secret in the job's `env:` is the agent's: MEDIUM, naming only that one.
      const [other] = scanWith(RULE, workflow('{ contents: read }', '', '\n          env:\n            NPM_TOKEN: ${{ secrets.NPM_TOKEN }}'));
      expect(other?.severity).toBe('MEDIUM');
      expect(other?.description).toContain('secrets (NPM_TOKEN) (the model key `OPENAI_API_KEY`');
    });

    it('a later step that reads the key keeps it among the job\'s holdings, without making it the agent\'s', () => {
      const [record] = recordsWith(RULE, yaml`
        on: issue_comment
        permissions: { contents: read }
        jobs:
          review:
            runs-on: ubuntu-latest
            steps:
              - uses: openai/codex-action@v1
                with:
                  openai-api-key: \${{ secrets.OPENAI_API_KEY }}
              - run: python scripts/summarize.py
                env:
                  OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}
      `);
      expect(record?.finding.severity).toBe('LOW');
      expect(record?.facts).toContain('holds:secrets');
    });

    it('follows the key into a local composite action that passes it on whole', () => {
      const files = (inner: string) => [
        {
          path: '.github/workflows/triage.yml',
          text: yaml`
            on:
              issues:
                types: [opened]
            permissions: { contents: read }
            jobs:
              triage:
                runs-on: ubuntu-latest
                steps:
                  - uses: ./.github/actions/codex
                    with:
                      key: \${{ secrets.OPENAI_API_KEY }}
                      body: \${{ github.event.issue.body }}
          `,
        },
        {
          path: '.github/actions/codex/action.yml',
          text: yaml`
            inputs:
              key: {}
              body: {}
            runs:
              using: composite
              steps:
                - uses: openai/codex-action@v1${inner}
                  with:
                    openai-api-key: \${{ inputs.key }}
                    allow-users: '*'
                    prompt: \${{ inputs.body }}
          `,
        },
      ];
      const [kept] = scanWith(RULE, files(''));
      expect(kept?.severity).toBe('LOW');
      expect(kept?.description).toContain('the model key `OPENAI_API_KEY` it is handed stays in the Responses API proxy');
      // The action's step also puts the input in its environment: the agent reads it there.
      const [exposed] = scanWith(RULE, files('\n                  env:\n                    OPENAI_API_KEY: ${{ inputs.key }}'));
      expect(exposed?.severity).toBe('MEDIUM');
      expect(exposed?.description).toContain('secrets (OPENAI_API_KEY)');
    });

    it('an agent without a proxy (a script\'s `codex exec`, another action) holds the key it is given', () => {
      expect(scanWith(RULE, yaml`
        on: issue_comment
        permissions: { contents: read }
        jobs:
          review:
            runs-on: ubuntu-latest
            steps:
              - run: codex exec --full-auto "$BODY"
                env:
                  OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}
                  BODY: \${{ github.event.comment.body }}
              - uses: anthropics/claude-code-action@v1
                with:
                  anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}
      `).map((f) => f.severity)).toEqual(['MEDIUM', 'LOW']);
      // (Claude Code checks that the commenter has write access: a maintainer starts it, and the job holds nothing
      // beyond the model key, so it is LOW; the script's tool, which anyone starts, holds the key and stays MEDIUM.)
    });
  });

  describe('an agent command-line tool run headless by a script', () => {
    const caller = {
      path: '.github/workflows/issue-fix.yml',
      text: yaml`
        on:
          issues:
            types: [opened]
          issue_comment:
            types: [created]
        permissions:
          contents: read
        jobs:
          fix:
            uses: ./.github/workflows/agent.yml
            secrets:
              PUSH_TOKEN: \${{ secrets.DOCS_REPO_PAT }}
      `,
    };
    const called = (command: string) => ({
      path: '.github/workflows/agent.yml',
      text: yaml`
        on:
          workflow_call:
            secrets:
              PUSH_TOKEN:
                required: true
        permissions:
          contents: read
        jobs:
          agent:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
              - env:
                  GH_TOKEN: \${{ secrets.PUSH_TOKEN }}
                  OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}
                run: |
                  npm install -g @openai/codex
                  ${command}
      `,
    });

    it("reports one a local reusable workflow runs on its caller's issue events: HIGH with a shell and a GitHub token passed in", () => {
      const records = recordsWith(RULE, [caller, called('codex exec --full-auto "Fix issue $NUMBER and push to example-org/docs"')]);
      expect(records.map((r) => `${r.finding.file}:${r.finding.line}:${r.finding.column} ${r.finding.severity}`)).toEqual(['.github/workflows/agent.yml:18:11 HIGH']);
      const description = records[0]?.finding.description ?? '';
      expect(description).toContain('Codex (CLI) (`codex exec --full-auto` in its script) runs on `issues` or `issue_comment` events that anyone can cause');
      expect(description).toContain('`PUSH_TOKEN` is handed over as a GitHub token');
      expect(records[0]?.facts).toContain('reach:anyone');
    });

    it('finds the tool through a package runner and reads its flags: a read-only sandbox is LOW, a shell with a code-writing token HIGH', () => {
      expect(positions(scanWith(RULE, [caller, called('npx -y @openai/codex@latest exec "Triage the issue"')]))).toEqual(['18:11 LOW']);
      const write = (command: string) => yaml`
        on: issue_comment
        permissions:
          contents: write
        jobs:
          fix:
            runs-on: ubuntu-latest
            steps:
              - run: ${command}
                env:
                  ANTHROPIC_API_KEY: \${{ secrets.ANTHROPIC_API_KEY }}
      `;
      expect(positions(scanWith(RULE, write('claude -p "fix it" --dangerously-skip-permissions')))).toEqual(['8:14 HIGH']);
      expect(positions(scanWith(RULE, write('claude -p "fix it" --allowedTools "Read,Edit"')))).toEqual(['8:14 MEDIUM']);
      // A permission list of reads and issue commands only: LOW, unless an argument grants more or the prompt follows the list.
      const talk = scanWith(RULE, write('claude -p "label it" --allowedTools "Bash(gh issue view:*),Bash(gh issue edit:*)" Read'));
      expect(positions(talk)).toEqual(['8:14 LOW']);
      expect(talk[0]?.description).toContain('(`Bash(gh issue view:*)`, `Bash(gh issue edit:*)`, `Read`)');
      expect(positions(scanWith(RULE, write('claude -p --allowedTools "Bash(gh issue edit:*)" --permission-mode acceptEdits "label it"')))).toEqual(['8:14 MEDIUM']);
      expect(positions(scanWith(RULE, write('claude -p --allowedTools "Bash(gh issue edit:*)" "label it"')))).toEqual(['8:14 MEDIUM']);
      expect(positions(scanWith(RULE, write('npx @google/gemini-cli --yolo -p "fix it"')))).toEqual(['8:14 HIGH']);
      // The agent as a later command of the line counts; its name in a message is no agent tool (the step is still
      // given a model provider's key, so it is a language-model step, MEDIUM, not the agent's HIGH).
      expect(positions(scanWith(RULE, write('npm ci && claude -p "fix it" --dangerously-skip-permissions')))).toEqual(['8:24 HIGH']);
      expect(positions(scanWith(RULE, write('npm ci && echo "ask claude -p to fix it"')))).toEqual(['8:14 MEDIUM']);
    });

    it('counts an app token minted from a stored key and handed to an agent with a shell as a push token (HIGH); without a shell, MEDIUM', () => {
      const app = (args: string) => yaml`
        on: issues
        permissions:
          contents: read
        jobs:
          fix:
            runs-on: ubuntu-latest
            steps:
              - id: app
                uses: actions/create-github-app-token@v2
                with:
                  app-id: \${{ vars.APP_ID }}
                  private-key: \${{ secrets.APP_PRIVATE_KEY }}
                  owner: example-org
              - uses: anthropics/claude-code-action@v1
                with:
                  anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}
                  github_token: \${{ steps.app.outputs.token }}
                  allowed_non_write_users: '*'${args}
      `;
      const shell = scanWith(RULE, app('\n                  claude_args: --allowedTools "Bash,Edit"'));
      expect(positions(shell)).toEqual(['14:15 HIGH']);
      expect(shell[0]?.description).toContain("`APP_PRIVATE_KEY` mints the GitHub App token handed over (`actions/create-github-app-token`), for every repository the app's installation reaches, with every permission the app's installation has");
      expect(positions(scanWith(RULE, app('')))).toEqual(['14:15 MEDIUM']);
    });

    it('reads what an app token minted with permission-* inputs can do: one that writes no code is no push token', () => {
      const app = (inputs: string) => yaml`
        on: issues
        permissions:
          contents: read
        jobs:
          fix:
            runs-on: ubuntu-latest
            steps:
              - id: app
                uses: actions/create-github-app-token@v2
                with:
                  app-id: \${{ vars.APP_ID }}
                  private-key: \${{ secrets.APP_PRIVATE_KEY }}${inputs}
              - uses: anthropics/claude-code-action@v1
                with:
                  anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}
                  github_token: \${{ steps.app.outputs.token }}
                  allowed_non_write_users: '*'
                  claude_args: --allowedTools "Bash,Edit"
      `;
      const limited = scanWith(RULE, app('\n                  permission-contents: read\n                  permission-issues: write'));
      expect(positions(limited)).toEqual(['15:15 MEDIUM']);
      expect(limited[0]?.description).toContain(
        '(`APP_PRIVATE_KEY` mints the GitHub App token handed over (`actions/create-github-app-token`), for this repository only (no `owner` or `repositories` input), with `contents: read`, `issues: write` (no scope that pushes code, changes workflows or publishes))',
      );
      expect(limited[0]?.description).not.toContain('pushes to every repository');
      // A code-writing permission, or repositories listed, keep it a push token (HIGH), saying where it reaches.
      const writes = scanWith(RULE, app('\n                  permission-contents: write\n                  repositories: site,docs'));
      expect(positions(writes)).toEqual(['15:15 HIGH']);
      expect(writes[0]?.description).toContain('for repositories `site`, `docs`, with `contents: write`)');
    });

    it('names every event on which a maintainer starts the agent, not only the first', () => {
      const text = yaml`
        on:
          issue_comment:
            types: [created]
          discussion_comment:
            types: [created]
        permissions:
          contents: write
        jobs:
          agent:
            if: contains(fromJSON('["OWNER", "MEMBER"]'), github.event.comment.author_association)
            runs-on: ubuntu-latest
            steps:
              - uses: google-github-actions/run-gemini-cli@v0
                with:
                  gemini_api_key: \${{ secrets.GEMINI_API_KEY }}
      `;
      const found = scanWith(RULE, text);
      expect(found[0]?.description).toContain('is started by a maintainer on `issue_comment` or `discussion_comment` (');
      // One event: named alone.
      const one = scanWith(RULE, text.replace(/ {2}discussion_comment:\n {4}types: \[created\]\n/, ''));
      expect(one[0]?.description).toContain('is started by a maintainer on `issue_comment` (');
    });

    it('ignores the tool when it is not run headless, or not at all, and a caller only collaborators start', () => {
      expect(scanWith(RULE, [caller, called('codex --version')])).toEqual([]);
      expect(scanWith(RULE, [caller, called('echo "ask codex later"')])).toEqual([]);
      const dispatch = { ...caller, text: caller.text.replace(/issues:\n\s+types: \[opened\]\n\s+issue_comment:\n\s+types: \[created\]/, 'workflow_dispatch:') };
      expect(scanWith(RULE, [dispatch, called('codex exec --full-auto "Fix it"')])).toEqual([]);
    });
  });
});

describe('agentAction', () => {
  it('finds a listed agent by its repository, with or without a path below it', () => {
    expect(agentAction('anthropics/claude-code-action', '')?.name).toBe('Claude Code');
    expect(agentAction('anthropics/claude-code-action', 'sub/dir')?.name).toBe('Claude Code');
  });

  it('finds none for a repository the table does not list, even one named like a listed one (a copy of the same name is the agent)', () => {
    expect(agentAction('anthropics/claude-code-action-fork', '')).toBeUndefined();
    expect(agentAction('someone/claude-code-actions', '')).toBeUndefined();
    expect(agentAction('someone/claude-code-action', '')?.slug).toBe('anthropics/claude-code-action');
  });
});

describe(`${RULE}: a language-model step without a shell`, () => {
  const workflow = (on: string, permissions: string, step: string, job = '') => `on:
${on}
permissions:
${permissions}
jobs:
  triage:
    runs-on: ubuntu-latest${job}
    steps:
      - uses: actions/checkout@v3
${step}
`;
  const script = `      - run: python .github/scripts/label.py
        env:
          OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}`;
  const issues = '  issues:\n    types: [opened, edited]';

  it('reports the repository\'s own script given an LLM key on issues: LOW when it can only label or comment', () => {
    const found = scanWith(RULE, workflow(issues, '  contents: read\n  issues: write', script));
    expect(positions(found)).toEqual(['12:14 LOW']);
    expect(found[0]?.description).toContain('calls a language model (the repository\'s own code (`python .github/scripts/label.py`), given `OPENAI_API_KEY`)');
    expect(found[0]?.description).toContain('through the event payload');
    expect(found[0]?.description).toContain('only the labels and comments the token allows');
  });

  it('is MEDIUM when its token can do more than label or comment, or it holds other secrets', () => {
    expect(positions(scanWith(RULE, workflow(issues, '  contents: write\n  issues: write', script)))).toEqual(['12:14 MEDIUM']);
    const pat = `${script}\n          GH_TOKEN: \${{ secrets.BOT_PAT }}`;
    const found = scanWith(RULE, workflow('  issue_comment:', '  issues: write', pat));
    expect(positions(found)).toEqual(['10:14 MEDIUM']);
    expect(found[0]?.description).toContain('secrets (BOT_PAT)');
  });

  it('does not count `id-token: write` as more than labelling: the step\'s own code mints with it, not the model', () => {
    expect(positions(scanWith(RULE, workflow(issues, '  contents: read\n  issues: write\n  id-token: write', script)))).toEqual(['13:14 LOW']);
    expect(positions(scanWith(RULE, workflow(issues, '  actions: write\n  issues: write\n  id-token: write', script)))).toEqual(['13:14 MEDIUM']);
  });

  it('reports actions/ai-inference and a local action when the event text is in their inputs', () => {
    const inference = `      - uses: actions/ai-inference@v1
        with:
          prompt: "Label: \${{ github.event.issue.title }}"`;
    const found = scanWith(RULE, workflow(issues, '  issues: write\n  models: read', inference));
    expect(positions(found)).toEqual(['12:15 LOW']);
    expect(found[0]?.description).toContain('`actions/ai-inference`');
    expect(found[0]?.description).toContain('passed to it in its inputs');
    const local = `      - uses: ./.github/actions/ai-reply
        with:
          anthropic-key: \${{ secrets.ANTHROPIC_API_KEY }}`;
    expect(positions(scanWith(RULE, workflow('  discussion:', '  discussions: write\n  contents: write', local)))).toEqual(['11:15 MEDIUM']);
    // Without the event text, GitHub's action sees only its prompt: nothing reaches it.
    const constant = inference.replace('${{ github.event.issue.title }}', 'hello');
    expect(scanWith(RULE, workflow(issues, '  issues: write', constant))).toEqual([]);
  });

  it('reports a local action that wraps an agent once, as that agent', () => {
    const found = scanWith(RULE, [
      {
        path: '.github/workflows/triage.yml',
        text: workflow(issues, '  issues: write', `      - uses: ./.github/actions/triage\n        with:\n          key: \${{ secrets.GEMINI_API_KEY }}`),
      },
      {
        path: '.github/actions/triage/action.yml',
        text: `name: triage
inputs:
  key: { required: true }
runs:
  using: composite
  steps:
    - uses: google-github-actions/run-gemini-cli@v0
      with:
        gemini_api_key: \${{ inputs.key }}
`,
      },
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]?.description).toContain('Gemini CLI');
  });

  it('reports nothing in a job only maintainers start, with a key that is not a model\'s, or with a read-only token', () => {
    for (const on of ['  push:', '  schedule:\n    - cron: "0 0 * * *"', '  workflow_dispatch:']) {
      expect(scanWith(RULE, workflow(on, '  contents: write', script)), on).toEqual([]);
    }
    const member = `\n    if: contains(fromJSON('["OWNER", "MEMBER"]'), github.event.comment.author_association)`;
    expect(scanWith(RULE, workflow('  issue_comment:', '  contents: write', script, member))).toEqual([]);
    for (const name of ['SENTRY_API_KEY', 'GOOGLE_MAPS_API_KEY', 'NPM_TOKEN']) {
      expect(scanWith(RULE, workflow(issues, '  issues: write', script.replace(/OPENAI_API_KEY/g, name))), name).toEqual([]);
    }
    expect(scanWith(RULE, workflow(issues, '  contents: read', script))).toEqual([]);
    // A third-party action is not counted unless it is handed the key and the text itself.
    const checkout = '      - run: echo done';
    expect(scanWith(RULE, workflow(issues, '  issues: write', checkout).replace('jobs:', 'env:\n  OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\njobs:'))).toEqual([]);
    // Nor is a build given the key only through the workflow's `env:`; the repository's script is.
    const inherit = (step: string) => workflow(issues, '  issues: write', step).replace('jobs:', 'env:\n  OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\njobs:');
    expect(scanWith(RULE, inherit('      - run: npm ci && npm test'))).toEqual([]);
    expect(positions(scanWith(RULE, inherit('      - run: node .github/scripts/reply.js')))).toEqual(['13:14 LOW']);
  });

  describe('the repository\'s own action named by its full name', () => {
    const caller = (on: string, uses: string, permissions = '  issues: write') => `on:
${on}
permissions:
${permissions}
jobs:
  first:
    runs-on: ubuntu-latest
    steps:
      - uses: ${uses}
        with:
          openai_api_key: \${{ secrets.OPENAI_API_KEY }}
          token: \${{ secrets.BOT_PAT }}
`;
    const action = (command: string) => `name: first interaction
inputs:
  openai_api_key: { required: true }
  token: { required: true }
runs:
  using: composite
  steps:
    - run: pip install acme-actions
      shell: bash
    - run: ${command}
      shell: bash
      env:
        OPENAI_API_KEY: \${{ inputs.openai_api_key }}
        GITHUB_TOKEN: \${{ inputs.token }}
`;
    const issues = '  issues:\n    types: [opened]';
    const files = (on: string, uses: string, command = 'acme-first-interaction', at = 'action.yml') => [
      { path: '.github/workflows/first.yml', text: caller(on, uses) },
      { path: at, text: action(command) },
    ];

    it('follows `owner/repo@ref` and `owner/repo/path@ref` into the checkout\'s action and reports a tool given the key at the call', () => {
      const root = scanWith(RULE, files(issues, 'acme/actions@main'), { repository: 'Acme/Actions' });
      expect(positions(root)).toEqual(['10:15 MEDIUM']);
      expect(root[0]?.description).toContain('the repository\'s own action `acme/actions@main`, whose step 2 runs `acme-first-interaction`');
      expect(root[0]?.description).toContain('BOT_PAT');
      const sub = scanWith(RULE, files(issues, 'acme/actions/first@v1', 'acme-first-interaction', 'first/action.yml'), { repository: 'acme/actions' });
      expect(positions(sub)).toEqual(['10:15 MEDIUM']);
      // A local call of the same action is reported once.
      expect(positions(scanWith(RULE, files(issues, './first', 'acme-first-interaction', 'first/action.yml'), { repository: 'acme/actions' }))).toEqual(['10:15 MEDIUM']);
    });

    it('does not follow another owner\'s action of the same name, nor any when the repository is unknown', () => {
      expect(scanWith(RULE, files(issues, 'other/actions@main'), { repository: 'acme/actions' })).toEqual([]);
      expect(scanWith(RULE, files(issues, 'acme/actions@main'))).toEqual([]);
      // A path that climbs out of the repository stays at its root, where there is no such action.
      expect(scanWith(RULE, files(issues, 'acme/actions/../../x@main'), { repository: 'acme/actions' })).toEqual([]);
    });

    it('reports nothing when only maintainers start it, or the step runs only known non-LLM tools', () => {
      for (const on of ['  push:', '  schedule:\n    - cron: "0 0 * * *"']) {
        expect(scanWith(RULE, files(on, 'acme/actions@main'), { repository: 'acme/actions' }), on).toEqual([]);
      }
      expect(scanWith(RULE, files(issues, 'acme/actions@main', 'gh issue edit 1 --add-label triage'), { repository: 'acme/actions' })).toEqual([]);
      // A step that only tests the input is given no key; a shell function's definition runs nothing.
      const test = files(issues, 'acme/actions@main', 'warn() { echo "$1"; }');
      expect(scanWith(RULE, test, { repository: 'acme/actions' })).toEqual([]);
      const present = test.map((f) => ({ ...f, text: f.text.replace('${{ inputs.openai_api_key }}', "${{ inputs.openai_api_key != '' }}").replace('warn() { echo "$1"; }', 'acme-first-interaction') }));
      expect(scanWith(RULE, present, { repository: 'acme/actions' })).toEqual([]);
    });

    it('reports an agent inside the followed action at the call', () => {
      const agent = `name: agent
inputs:
  openai_api_key: {}
runs:
  using: composite
  steps:
    - uses: sst/opencode/github@v1
`;
      const found = scanWith(RULE, [{ path: '.github/workflows/first.yml', text: caller(issues, 'acme/actions@main', '  contents: write') }, { path: 'action.yml', text: agent }], { repository: 'acme/actions' });
      expect(positions(found)).toEqual(['10:15 HIGH']);
      expect(scanWith(RULE, [{ path: '.github/workflows/first.yml', text: caller(issues, 'other/actions@main', '  contents: write') }, { path: 'action.yml', text: agent }], { repository: 'acme/actions' })).toEqual([]);
    });
  });
});

describe(`${RULE}: a reusable workflow started through a gated caller`, () => {
  const called = {
    path: '.github/workflows/fixer.yml',
    text: yaml`
      on: workflow_call
      jobs:
        fix:
          runs-on: ubuntu-latest
          permissions: { contents: write, issues: write }
          steps:
            - uses: actions/checkout@v3
            - uses: google-github-actions/run-gemini-cli@v0
              env:
                ISSUE_BODY: \${{ github.event.issue.body }}
              with: { gemini_api_key: '\${{ secrets.GEMINI_API_KEY }}' }
    `,
  };
  const MEMBER = `contains(fromJSON('["OWNER", "MEMBER", "COLLABORATOR"]'), github.event.comment.author_association)`;
  const dispatcher = (jobs: string) => ({
    path: '.github/workflows/dispatch.yml',
    text: `on:\n  issues:\n    types: [opened]\n  issue_comment:\n    types: [created]\njobs:\n${jobs}`,
  });
  const found = (jobs: string) => recordsWith(RULE, [dispatcher(jobs), called]);

  it("takes the caller's trigger as its calling job's `if:` gates it: a member's comment is a maintainer's act (MEDIUM, naming it)", () => {
    const records = found(`  fix:\n    if: github.event_name == 'issue_comment' && ${MEMBER}\n    uses: ./.github/workflows/fixer.yml\n    secrets: inherit\n`);
    expect(records.map((r) => `${r.finding.file}:${r.finding.line} ${r.finding.severity}`)).toEqual(['.github/workflows/fixer.yml:8 MEDIUM']);
    expect(records[0]?.facts).toContain('reach:approval');
    expect(records[0]?.facts).not.toContain('reach:anyone');
    const description = records[0]?.finding.description ?? '';
    expect(description).toContain('is started by a maintainer on `issue_comment` (the condition');
    expect(description).toContain('author_association');
    expect(description).toContain('MEDIUM, not HIGH');
  });

  it("also when the gate is on a job the calling job needs (a dispatcher's check)", () => {
    const records = found(`  check:\n    if: github.event_name == 'issue_comment' && ${MEMBER}\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n  fix:\n    needs: check\n    uses: ./.github/workflows/fixer.yml\n    secrets: inherit\n`);
    expect(records.map((r) => r.finding.severity)).toEqual(['MEDIUM']);
    expect(records[0]?.facts).toContain('reach:approval');
  });

  it("stays HIGH when the calling job lets an event anyone causes through (an issue opened), naming that event", () => {
    const open = found(`  fix:\n    uses: ./.github/workflows/fixer.yml\n    secrets: inherit\n`);
    expect(open.map((r) => r.finding.severity)).toEqual(['HIGH']);
    expect(open[0]?.finding.description).toContain('runs on `issues` or `issue_comment` events that anyone can cause');
    // A gate on one branch of a disjunction only: the other branch (an issue opened by anyone) still reaches it.
    const either = found(`  fix:\n    if: github.event_name == 'issues' || ${MEMBER}\n    uses: ./.github/workflows/fixer.yml\n    secrets: inherit\n`);
    expect(either.map((r) => r.finding.severity)).toEqual(['HIGH']);
    expect(either[0]?.finding.description).toContain('runs on `issues` events that anyone can cause');
  });
});

describe(`${RULE}: a pull request's text read after its merge`, () => {
  const workflow = (condition: string) => yaml`
    on:
      pull_request_target:
        types: [closed]
    permissions: { contents: write }
    jobs:
      notes:
        if: ${condition}
        runs-on: ubuntu-latest
        steps:
          - uses: google-github-actions/run-gemini-cli@v0
            with: { gemini_api_key: '\${{ secrets.GEMINI_API_KEY }}' }
  `;

  it('is MEDIUM once a maintainer merged it: the author wrote the text, a maintainer merged with it in view (one level below the unreviewed HIGH)', () => {
    const [merged] = scanWith(RULE, workflow('github.event.pull_request.merged == true'));
    expect(merged?.severity).toBe('MEDIUM');
    expect(merged?.description).toContain('is started by a maintainer on `pull_request_target` (the condition `github.event.pull_request.merged == true`)');
    expect(merged?.description).toContain('MEDIUM, not HIGH');
  });

  it('stays HIGH when a pull request closed without merging starts it too', () => {
    const [closed] = scanWith(RULE, workflow("github.event.action == 'closed'"));
    expect(closed?.severity).toBe('HIGH');
    expect(closed?.description).toContain('runs on `pull_request_target` events that anyone can cause');
  });
});

describe(`${RULE}: an allowlist that edits files and pushes them`, () => {
  const agent = (tools: string, permissions = 'contents: write') => yaml`
    on:
      issues:
        types: [opened]
    permissions:
      ${permissions}
    jobs:
      triage:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - uses: anthropics/claude-code-action@v1
            with:
              claude_code_oauth_token: \${{ secrets.CLAUDE_CODE_OAUTH_TOKEN }}
              github_token: \${{ github.token }}
              allowed_non_write_users: '*'
              claude_args: --allowedTools "${tools}"
              prompt: Triage issue #\${{ github.event.issue.number }} and push a fix branch.
  `;

  it('is HIGH when anyone starts it and the token can write code: an injected instruction commits to the repository', () => {
    const found = scanWith(RULE, agent('Read,Grep,Edit,Write,Bash(git commit:*),Bash(git push:*),Bash(gh pr create:*)'));
    expect(positions(found)).toEqual(['11:15 HIGH']);
    expect(found[0]?.description).toContain('lets it edit files and run `git push`');
  });

  it('negative: no edit tool, or a token that cannot write code, is not that', () => {
    expect(scanWith(RULE, agent('Read,Grep,Bash(git push:*)')).map((f) => f.severity)).not.toContain('HIGH');
    expect(scanWith(RULE, agent('Read,Edit,Write,Bash(git push:*)', 'issues: write')).map((f) => f.severity)).not.toContain('HIGH');
  });

  it("reads a reusable workflow's token from what its callers grant", () => {
    const called = {
      path: '.github/workflows/agent.yml',
      text: yaml`
        on:
          workflow_call:
        jobs:
          run:
            runs-on: ubuntu-latest
            steps:
              - uses: anthropics/claude-code-action@v1
                with:
                  claude_code_oauth_token: \${{ secrets.CLAUDE_CODE_OAUTH_TOKEN }}
                  github_token: \${{ github.token }}
                  allowed_non_write_users: '*'
                  claude_args: --allowedTools "Read,Edit,Bash(git push:*)"
                  prompt: Triage the issue.
      `,
    };
    const caller = (grant: string) => ({
      path: '.github/workflows/triage.yml',
      text: yaml`
        on:
          issues:
            types: [opened]
        jobs:
          agent:
            permissions:
              ${grant}
            uses: ./.github/workflows/agent.yml
            secrets: inherit
      `,
    });
    const found = scanWith(RULE, [called, caller('contents: write')]);
    expect(found.map((f) => f.severity)).toEqual(['HIGH']);
    expect(found[0]?.description).toContain('a token with write access (contents)');
    expect(scanWith(RULE, [called, caller('issues: write')]).map((f) => f.severity)).not.toContain('HIGH');
  });
});
