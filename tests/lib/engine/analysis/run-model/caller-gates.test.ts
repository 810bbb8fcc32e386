import { describe, expect, it } from 'vitest';
import { RunModel } from '../../../../../lib/engine/analysis/run-model/index.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildWorkflow, type Workflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { scanWith, yaml } from '../../../../support/engine.js';

/** The run model of `files` (path -> workflow text), and a lookup of a job by file and id. */
function build(files: Record<string, string>) {
  const workflows: Workflow[] = [];
  for (const [path, text] of Object.entries(files)) {
    const parsed = parseYaml(text);
    if (!parsed.ok || parsed.root.kind !== 'map') throw new Error(`bad fixture ${path}`);
    workflows.push(buildWorkflow(new SourceFile(path, text), parsed.root));
  }
  const runs = new RunModel(new RepositoryModel(workflows, [], []));
  const job = (path: string, id: string) => {
    const found = workflows.find((w) => w.file.path === path)?.jobs.find((j) => j.id === id);
    if (found === undefined) throw new Error(`no job ${id}`);
    return found;
  };
  return { runs, job };
}

/** A job's reach in the run model of `files`. */
function model(files: Record<string, string>) {
  const { runs, job } = build(files);
  return (path: string, id: string) => runs.job(job(path, id)).reach;
}

const CALLER = yaml`
  on:
    issue_comment:
      types: [created]
  jobs:
    bot:
      uses: ./.github/workflows/bot.yml
      secrets: inherit
`;

/** A reusable workflow whose first job checks the commenter's permission; `gate` is the later job's `if:`. */
const bot = (check: string, gate: string, outputs = 'allowed: ${{ steps.perm.outputs.ok }}') => yaml`
  on: workflow_call
  jobs:
    check:
      runs-on: ubuntu-latest
      outputs:
        ${outputs}
        sha: \${{ steps.pr.outputs.sha }}
      steps:
        - id: perm
          uses: actions/github-script@v7
          with:
            script: |
              ${check}
        - id: pr
          run: echo "sha=$(gh pr view --json headRefOid -q .headRefOid)" >> "$GITHUB_OUTPUT"
    fix:
      needs: check
      ${gate}
      runs-on: ubuntu-latest
      steps:
        - run: make
`;

const READS = "const { data } = await github.rest.repos.getCollaboratorPermissionLevel({ owner: context.repo.owner, repo: context.repo.repo, username: context.actor }); core.setOutput('ok', ['admin', 'write'].includes(data.permission));";
const FAILS = "const { data } = await github.rest.repos.getCollaboratorPermissionLevel({ owner: context.repo.owner, repo: context.repo.repo, username: context.actor }); if (data.permission !== 'admin') core.setFailed('no');";

describe("a reusable workflow's own permission check, on its caller's event", () => {
  it("a later job gated on the check job's output is a maintainer's approval, not anyone's", () => {
    const reach = model({ '.github/workflows/caller.yml': CALLER, '.github/workflows/bot.yml': bot(READS, "if: needs.check.outputs.allowed == 'true'") });
    expect(reach('.github/workflows/bot.yml', 'fix')).toMatchObject({ level: 'approval', event: 'issue_comment' });
    expect(reach('.github/workflows/bot.yml', 'fix').gates.join()).toContain('needs.check.outputs.allowed');
    // The check job itself runs for anyone who comments.
    expect(reach('.github/workflows/bot.yml', 'check')).toMatchObject({ level: 'anyone', event: 'issue_comment' });
  });

  it('reads a bare or fromJSON test of the output, and a check job that fails the run', () => {
    for (const gate of ['if: needs.check.outputs.allowed', 'if: fromJSON(needs.check.outputs.allowed)', 'if: fromJSON(needs.check.outputs.allowed) == true']) {
      const reach = model({ '.github/workflows/caller.yml': CALLER, '.github/workflows/bot.yml': bot(READS, gate) });
      expect(reach('.github/workflows/bot.yml', 'fix').level).toBe('approval');
    }
    const failing = model({ '.github/workflows/caller.yml': CALLER, '.github/workflows/bot.yml': bot(FAILS, '') });
    expect(failing('.github/workflows/bot.yml', 'fix').level).toBe('approval');
  });

  it('a gate on an output that does not come from the check, or no gate at all, leaves it to anyone', () => {
    const other = model({ '.github/workflows/caller.yml': CALLER, '.github/workflows/bot.yml': bot(READS, "if: needs.check.outputs.sha != ''") });
    expect(other('.github/workflows/bot.yml', 'fix').level).toBe('anyone');
    const none = model({ '.github/workflows/caller.yml': CALLER, '.github/workflows/bot.yml': bot(READS, '') });
    expect(none('.github/workflows/bot.yml', 'fix').level).toBe('anyone');
    // An output named like the check's but taken from another step is no permission check.
    const renamed = model({ '.github/workflows/caller.yml': CALLER, '.github/workflows/bot.yml': bot(READS, "if: needs.check.outputs.allowed == 'true'", 'allowed: ${{ steps.pr.outputs.sha }}') });
    expect(renamed('.github/workflows/bot.yml', 'fix').level).toBe('anyone');
  });

  it("reads the called job's conditions per event of the caller: one event it excludes does not hide another", () => {
    const caller = yaml`
      on:
        issue_comment:
        pull_request_target:
      jobs:
        bot:
          uses: ./.github/workflows/bot.yml
    `;
    const callee = yaml`
      on: workflow_call
      jobs:
        fix:
          if: github.event_name == 'pull_request_target'
          runs-on: ubuntu-latest
          steps:
            - run: make
        comment:
          if: github.event_name == 'issue_comment' && github.event.comment.author_association == 'OWNER'
          runs-on: ubuntu-latest
          steps:
            - run: make
    `;
    const reach = model({ '.github/workflows/caller.yml': caller, '.github/workflows/bot.yml': callee });
    expect(reach('.github/workflows/bot.yml', 'fix')).toMatchObject({ level: 'anyone', event: 'pull_request_target' });
    expect(reach('.github/workflows/bot.yml', 'comment')).toMatchObject({ level: 'approval', event: 'issue_comment' });
  });
});

describe('a login searched in a string is no named-actor gate', () => {
  const workflow = (condition: string) => ({
    '.github/workflows/w.yml': yaml`
      on: issue_comment
      jobs:
        run:
          if: ${condition}
          runs-on: ubuntu-latest
          steps:
            - run: make
    `,
  });

  it("contains('<string>', github.actor) admits any login that is a piece of it; a real list names the accounts", () => {
    expect(model(workflow("contains('alice bob', github.actor)"))('.github/workflows/w.yml', 'run').level).toBe('anyone');
    expect(model(workflow(`contains(fromJSON('["alice", "bob"]'), github.actor)`))('.github/workflows/w.yml', 'run').level).toBe('trusted-author');
    expect(model(workflow("github.actor == 'alice'"))('.github/workflows/w.yml', 'run').level).toBe('trusted-author');
  });
});

describe("callers gated on a first job's trust decision, one for each value", () => {
  /** A `pull_request_target` workflow whose `triage` job writes `trusted=true|false` from the author association. */
  const caller = (conditions: readonly (string | null)[]) => [
    'on: pull_request_target',
    'jobs:',
    '  triage:',
    '    runs-on: ubuntu-latest',
    '    outputs:',
    '      trusted: ${{ steps.who.outputs.trusted }}',
    '    steps:',
    '      - id: who',
    '        run: |',
    '          case "$(jq -r .pull_request.author_association "$GITHUB_EVENT_PATH")" in OWNER|MEMBER) echo "trusted=true" >> "$GITHUB_OUTPUT";; *) echo "trusted=false" >> "$GITHUB_OUTPUT";; esac',
    ...conditions.map((c, i) => `  call${i}:\n    needs: triage${c === null ? '' : `\n    if: ${c}`}\n    uses: ./.github/workflows/called.yml`),
    '',
  ].join('\n');
  const CALLED = 'on: workflow_call\njobs:\n  work:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n';
  const reach = (conditions: readonly (string | null)[]) => model({ '.github/workflows/ci.yml': caller(conditions), '.github/workflows/called.yml': CALLED })('.github/workflows/called.yml', 'work').level;
  const TRUSTED = "needs.triage.outputs.trusted == 'true'";

  it('the called job is reached by the most open caller: a `false` caller, or one with no condition, lets everyone in', () => {
    expect(reach([TRUSTED, "needs.triage.outputs.trusted == 'false'"])).toBe('anyone');
    expect(reach(["needs.triage.outputs.trusted == 'false'", TRUSTED])).toBe('anyone');
    expect(reach([TRUSTED, null])).toBe('anyone');
    expect(reach(["needs.triage.outputs.trusted == 'no'"])).toBe('anyone');
  });

  it('callers gated only on the value that grants keep outsiders out', () => {
    expect(reach([TRUSTED])).not.toBe('anyone');
    expect(reach([TRUSTED, "needs.triage.outputs.trusted == 'yes'"])).not.toBe('anyone');
    expect(reach(['needs.triage.outputs.trusted'])).not.toBe('anyone');
  });
});

describe('a job that needs another to succeed inherits its ways in, status function or not', () => {
  const workflow = (gate: string) => yaml`
    on:
      issue_comment:
        types: [created]
      workflow_dispatch:
    permissions: { contents: write }
    jobs:
      check:
        if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/test')
        runs-on: ubuntu-latest
        steps:
          - uses: xt0rted/slash-command-action@v2
            with: { command: test, permission-level: write }
      dispatch:
        if: github.event_name == 'workflow_dispatch'
        runs-on: ubuntu-latest
        steps: [{ run: echo }]
      evaluate:
        needs: [check, dispatch]
        if: (needs.check.result == 'success' || needs.dispatch.result == 'success') && !cancelled()
        runs-on: ubuntu-latest
        steps: [{ run: echo }]
      build:
        needs: [check, dispatch, evaluate]
        if: ${gate}
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with: { ref: "refs/pull/\${{ github.event.issue.number }}/head" }
          - run: make
  `;
  it("is behind the needed job's permission check when it requires that job's success (always() aside)", () => {
    const found = scanWith('untrusted-checkout', workflow("always() && !cancelled() && needs.evaluate.result == 'success'"));
    expect(found.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(found[0]?.description).toContain('permission check by `xt0rted/slash-command-action`');
  });

  it('is not when a skip of that job passes too, or another way round it does', () => {
    expect(scanWith('untrusted-checkout', workflow("always() && contains(fromJSON('[\"success\", \"skipped\"]'), needs.evaluate.result)")).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith('untrusted-checkout', workflow("always() && (needs.evaluate.result == 'success' || github.event.comment.body == '/force')")).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe('labels read through the API in an earlier job, tested with contains(fromJSON(needs.x.outputs.labels), ...)', () => {
  const workflow = (script: string, test = "contains(fromJSON(needs.default.outputs.labels || '[]'), 'integration/aws')") => yaml`
    on: pull_request
    jobs:
      default:
        runs-on: ubuntu-latest
        outputs:
          labels: \${{ steps.labels.outputs.result }}
        steps:
          - id: labels
            uses: actions/github-script@v7
            with:
              script: |
                ${script}
      e2e:
        needs: [default]
        runs-on: [self-hosted, linux]
        if: ${test}
        steps:
          - uses: actions/checkout@v3
          - run: make e2e
  `;
  const labels = 'const resp = await github.rest.issues.get({ issue_number: context.issue.number, owner: context.repo.owner, repo: context.repo.repo }); return resp.data.labels.map(label => label.name)';

  it("is the pull request's label gate, as contains(github.event.pull_request.labels.*.name, ...) is", () => {
    const found = scanWith('self-hosted-runner', workflow(labels));
    expect(found).toHaveLength(1);
    expect(found[0]?.description).toContain('once a maintainer has labelled their pull request');
  });

  it('is no gate when the output is something else or the test reads another output', () => {
    for (const found of [
      scanWith('self-hosted-runner', workflow('return context.payload.pull_request.title.split(" ")')),
      scanWith('self-hosted-runner', workflow(labels, "contains(fromJSON(needs.default.outputs.other || '[]'), 'integration/aws')")),
    ]) {
      expect(found).toHaveLength(1);
      expect(found[0]?.description).toContain('anyone with a GitHub account can start it');
    }
  });
});

describe("a value reaching a reusable workflow's job, through its caller and past the job's own gate", () => {
  /** The value reach of the first step of a job, for text the comment events bring (nothing vouches for it). */
  function valueModel(files: Record<string, string>) {
    const { runs, job } = build(files);
    return (path: string, id: string) => {
      const step = job(path, id).steps[0];
      if (step === undefined) throw new Error(`no step in ${id}`);
      return runs.valueReach(step, new Set(['issue_comment']), () => false);
    };
  }

  it("positive: the called job's permission gate holds the commenter's text back to a maintainer's act, naming it", () => {
    const reach = valueModel({ '.github/workflows/caller.yml': CALLER, '.github/workflows/bot.yml': bot(READS, "if: needs.check.outputs.allowed == 'true'") });
    expect(reach('.github/workflows/bot.yml', 'fix')).toMatchObject({ level: 'approval', event: 'issue_comment', unvouched: true });
    expect(reach('.github/workflows/bot.yml', 'fix').gates.join()).toContain('needs.check.outputs.allowed');
  });

  it('negative: without the gate, or on the check job itself, anyone who comments reaches it', () => {
    const open = valueModel({ '.github/workflows/caller.yml': CALLER, '.github/workflows/bot.yml': bot(READS, '') });
    expect(open('.github/workflows/bot.yml', 'fix')).toMatchObject({ level: 'anyone', event: 'issue_comment' });
    const gated = valueModel({ '.github/workflows/caller.yml': CALLER, '.github/workflows/bot.yml': bot(READS, "if: needs.check.outputs.allowed == 'true'") });
    expect(gated('.github/workflows/bot.yml', 'check')).toMatchObject({ level: 'anyone', event: 'issue_comment' });
  });
});

describe("GitHub Agentic Workflows' compiled membership check (pre_activation)", () => {
  /** A compiled workflow: `pre_activation` runs gh-aw's check_membership.cjs with `roles`; `agent` needs `activation`, gated on it. */
  const compiled = (roles: string) => yaml`
    on:
      issue_comment:
        types: [created]
    jobs:
      pre_activation:
        runs-on: ubuntu-latest
        outputs:
          activated: \${{ steps.check_membership.outputs.is_team_member == 'true' }}
        steps:
          - uses: github/gh-aw/actions/setup@de126a1f352e2b07084689e06a91ada08cab2857
            with:
              destination: \${{ runner.temp }}/gh-aw/actions
          - id: check_membership
            uses: actions/github-script@3a2844b7e9c422d3c10d287c895573f7108da1b3
            env:
              GH_AW_REQUIRED_ROLES: "${roles}"
            with:
              script: |
                const { main } = require('\${{ runner.temp }}/gh-aw/actions/check_membership.cjs');
                await main();
      activation:
        needs: pre_activation
        if: needs.pre_activation.outputs.activated == 'true'
        runs-on: ubuntu-latest
        steps:
          - run: echo ok
      agent:
        needs: activation
        if: needs.activation.outputs.daily_ai_credits_exceeded != 'true'
        runs-on: ubuntu-latest
        steps:
          - run: make
  `;

  it('positive: roles that can all write gate the jobs after it (a maintainer starts them)', () => {
    for (const roles of ['admin,maintainer,write', 'admin, maintain']) {
      const reach = model({ '.github/workflows/w.yml': compiled(roles) });
      expect(reach('.github/workflows/w.yml', 'agent'), roles).toMatchObject({ level: 'approval', event: 'issue_comment' });
      expect(reach('.github/workflows/w.yml', 'pre_activation').level).toBe('anyone');
    }
  });

  it('negative: a role that cannot write (read, triage, all) lets others in', () => {
    for (const roles of ['admin,maintainer,write,triage', 'read', 'all']) {
      expect(model({ '.github/workflows/w.yml': compiled(roles) })('.github/workflows/w.yml', 'agent').level, roles).toBe('anyone');
    }
  });
});
