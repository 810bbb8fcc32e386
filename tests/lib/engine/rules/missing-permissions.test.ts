import { describe, expect, it } from 'vitest';
import { findCombinations } from '../../../../lib/engine/combinations/index.js';
import { scanRepository } from '../../../../lib/engine/scan.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'missing-permissions';

describe(RULE, () => {
  it('when some jobs declare their own permissions, reports each job that does not, bound to it', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: make
        lint:
          runs-on: ubuntu-latest
          permissions:
            contents: read
          steps:
            - run: make lint
        call:
          uses: org/repo/.github/workflows/ci.yml@v1
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 LOW', '13:3 LOW']);
    // `lint` has its own token: no finding is bound to it, nor to no job (which would join any job's attack path).
    expect(records.map((r) => r.job)).toEqual(['build', 'call']);
    expect(records[0]?.finding.description).toContain('job `build` sets none');
  });

  it('reports one finding for the file, bound to no job, when no job declares permissions', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: make
        call:
          uses: org/repo/.github/workflows/ci.yml@v1
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 LOW']);
    expect(records.map((r) => r.job)).toEqual([null]);
    expect(records[0]?.finding.description).toContain('neither do its jobs `build`, `call`');
  });

  it('is not HIGH when only trusted authors or a maintainer\'s approval reach the job, and says so', () => {
    const workflow = (on: string, condition: string) => yaml`
      on: ${on}
      jobs:
        test:
          ${condition}
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: refs/pull/\${{ github.event.pull_request.number }}/merge
            - run: npm test
    `;
    const labeled = scanWith(RULE, workflow('{ pull_request_target: { types: [labeled] } }', "if: github.event.label.name == 'safe to test'"));
    // The label approves the pull request, but the merge ref can move after it: MEDIUM, naming the gate.
    expect(labeled.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(labeled[0]?.description).toContain('a maintainer approves each run first');
    expect(scanWith(RULE, workflow('pull_request_target', 'if: github.event.pull_request.head.repo.full_name == github.repository')).map((f) => f.severity)).toEqual(['LOW']);
    // A label check on a workflow that also runs on new commits is no gate (the label stays), nor is an ungated job.
    expect(scanWith(RULE, workflow('pull_request_target', "if: contains(github.event.pull_request.labels.*.name, 'safe to test')")).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('pull_request_target', 'timeout-minutes: 5')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('binds the finding to the job when only one job lacks permissions', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: make
    `);
    expect(records.map((r) => [r.job, r.finding.severity])).toEqual([['build', 'LOW']]);
    expect(records[0]?.finding.description).toContain('neither does its job `build`');
  });

  it('gives a many-job workflow one finding, not one per job', () => {
    const jobs = Array.from({ length: 12 }, (_, i) => `  j${i}:\n    runs-on: x\n    steps: [{ run: a }]\n`).join('');
    const findings = scanWith(RULE, `on: pull_request\njobs:\n${jobs}`);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.description).toContain('and 9 more');
  });

  it('is HIGH on a trigger an outsider fires when a job checks out pull-request code or scripts event data, and says why', () => {
    const findings = scanWith(RULE, yaml`
      on: [pull_request_target]
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm ci
    `);
    expect(positions(findings)).toEqual(['3:3 HIGH']);
    expect(findings[0]?.description).toContain("HIGH: step 2 of job `triage` (line 9) runs `npm ci` from the pull request's checkout (`ref: ${{ github.event.pull_request.head.sha }}`, line 6), and anyone with a GitHub account can start it through `pull_request_target`");
    // The checkout alone, with no step that runs it: no code sink, LOW.
    expect(scanWith(RULE, 'on: pull_request_target\njobs:\n  t:\n    runs-on: x\n    steps:\n      - uses: actions/checkout@v3\n        with: { ref: \'${{ github.event.pull_request.head.sha }}\' }\n      - run: echo hi\n').map((f) => f.severity)).toEqual(['LOW']);
    const scripted = (expression: string) => scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        reply:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ ${expression} }}"
    `);
    expect(scripted('github.event.comment.body').map((f) => f.severity)).toEqual(['HIGH']);
    expect(scripted('github.event.comment.body')[0]?.description).toContain('expands `github.event.comment.body` into its script');
    // A number or a login is no text an outsider can turn into commands.
    expect(scripted('github.event.comment.id').map((f) => f.severity)).toEqual(['LOW']);
    expect(scripted('github.event.comment.user.login').map((f) => f.severity)).toEqual(['LOW']);
  });

  it('is not HIGH for a checkout of the base branch, or of a branch name in the base repository (the gradio and semgrep cases)', () => {
    const checkout = (ref: string) => scanWith(RULE, yaml`
      on: [pull_request_target]
      jobs:
        lint:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3${ref}
            - run: make lint
    `);
    expect(checkout('').map((f) => f.severity)).toEqual(['LOW']);
    expect(checkout('\n              with:\n                ref: ${{ github.head_ref }}').map((f) => f.severity)).toEqual(['LOW']);
    expect(checkout('\n              with:\n                ref: refs/pull/${{ github.event.number }}/merge').map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('is MEDIUM on an outsider trigger whose jobs only hand event data to actions', () => {
    const findings = scanWith(RULE, yaml`
      on:
        issues:
          types: [opened]
      jobs:
        label:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/labeler@v5
    `);
    expect(positions(findings)).toEqual(['5:3 LOW']);
    expect(findings[0]?.description).toContain("LOW: anyone with a GitHub account can start it through `issues`, but no job runs an outsider's code");
  });

  it('is not HIGH on repository_dispatch, which needs a write token to send', () => {
    const findings = scanWith(RULE, yaml`
      on:
        repository_dispatch:
          types: [deploy]
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.client_payload.ref }}"
    `);
    expect(positions(findings)).toEqual(['5:3 LOW']);
    expect(findings[0]?.description).toContain('LOW: only collaborators start it');
  });

  it('reads a dispatch whose payload names a pull request (`/ok-to-test`) as a maintainer approving that pull request\'s code: MEDIUM when it runs', () => {
    const workflow = (ref: string, run: string) => yaml`
      on:
        repository_dispatch:
          types: [ok-to-test-command]
      jobs:
        e2e:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ ${ref} }}
            - run: ${run}
    `;
    // The branch the command was given on, which can move after it.
    const approved = scanWith(RULE, workflow('github.event.client_payload.pull_request.head.ref }}\n                repository: ${{ github.event.client_payload.pull_request.head.repo.full_name', 'make e2e'));
    expect(positions(approved)).toEqual(['5:3 MEDIUM']);
    expect(approved[0]?.description).toContain('a maintainer approves each run first');
    // Nothing of the pull request runs (only git), or the ref is the sender's own value: collaborators only.
    expect(positions(scanWith(RULE, workflow('github.event.client_payload.pull_request.head.ref }}\n                repository: ${{ github.event.client_payload.pull_request.head.repo.full_name', 'git log -1')))).toEqual(['5:3 LOW']);
    const own = scanWith(RULE, workflow('github.event.client_payload.ref', 'make e2e'));
    expect(positions(own)).toEqual(['5:3 LOW']);
    expect(own[0]?.description).toContain('LOW: only collaborators start it');
  });

  it('on pull_request says that anyone starts it through a fork, with a read-only token, not that only collaborators do', () => {
    const workflow = (jobs: string) => yaml`
      on:
        pull_request:
        push:
          branches: [main]
      jobs:
${jobs}
    `;
    const job = (id: string) => `        ${id}:\n          runs-on: ubuntu-latest\n          steps:\n            - run: npm ci && npm run lint\n`;
    for (const jobs of [job('lint'), job('lint') + job('test')]) {
      const findings = scanWith(RULE, workflow(jobs));
      expect(findings.map((f) => f.severity)).toEqual(['LOW']);
      expect(findings[0]?.description).toContain("anyone can start it through a fork's `pull_request`, whose run has a read-only token");
      expect(findings[0]?.description).not.toContain('only collaborators start it');
    }
    // push alone: collaborators only.
    const pushOnly = scanWith(RULE, workflow(job('lint')).replace(/^ *pull_request:\n/m, ''));
    expect(pushOnly[0]?.description).toContain('LOW: only collaborators start it');
  });

  it('is not HIGH when a privileged workflow only calls local reusable workflows', () => {
    const caller = yaml`
      on: pull_request_target
      jobs:
        call:
          uses: ./.github/workflows/reusable.yml
    `;
    const reusable = yaml`
      on: workflow_call
      jobs:
        build:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `;
    const findings = scanWith(RULE, [
      { path: '.github/workflows/caller.yml', text: caller },
      { path: '.github/workflows/reusable.yml', text: reusable },
    ]);
    expect(positions(findings)).toEqual(['3:3 LOW']);
    expect(findings[0]?.description).toContain('LOW: the job only calls reusable workflows of this repository');
  });

  it('says nothing about a local caller (./ or $/ form) whose reusable workflow declares its own permissions', () => {
    for (const prefix of ['./', '$/']) {
      const caller = `on: pull_request_target\njobs:\n  call:\n    uses: ${prefix}.github/workflows/reusable.yml\n`;
      const reusable = yaml`
        on: workflow_call
        permissions:
          contents: read
        jobs:
          build:
            runs-on: ubuntu-latest
            steps: [{ run: make }]
      `;
      expect(scanWith(RULE, [
        { path: '.github/workflows/caller.yml', text: caller },
        { path: '.github/workflows/reusable.yml', text: reusable },
      ]), prefix).toEqual([]);
    }
  });

  it('is satisfied by any workflow-level permissions, even empty or read-all', () => {
    for (const permissions of ['{}', 'read-all', '\n  contents: read']) {
      expect(scanWith(RULE, `on: push\npermissions: ${permissions}\njobs:\n  a:\n    runs-on: x\n    steps: [{ run: a }]\n`)).toEqual([]);
    }
  });

  it('leaves workflows that only run when called to their caller', () => {
    expect(scanWith(RULE, yaml`
      on: workflow_call
      jobs:
        build:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `)).toEqual([]);
    // A reusable workflow that can also be dispatched by hand runs with the repository default.
    expect(positions(scanWith(RULE, yaml`
      on: [workflow_call, workflow_dispatch]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `))).toEqual(['3:3 LOW']);
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, 'on: push\njobs: [a, b]\n')).toEqual([]);
    expect(scanWith(RULE, 'on: push\njobs:\n  a: 3\n')).toEqual([]);
  });
});

describe(`${RULE}: privileged triggers with no permissions: block at all (issue 25)`, () => {
  const workflow = (on: string, permissions = '') => yaml`
    name: triage
    on:
      ${on}
    ${permissions}
    jobs:
      label:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/labeler@v5
      greet:
        runs-on: ubuntu-latest
        steps:
          - run: gh issue comment "$N" --body thanks
            env:
              GH_TOKEN: \${{ github.token }}
              N: \${{ github.event.issue.number }}
  `;

  it.each([
    ['issues: { types: [opened] }'],
    ['issue_comment: { types: [created] }'],
    ['pull_request_target: { types: [opened] }'],
    ['workflow_run: { workflows: [CI], types: [completed] }'],
    ['discussion: { types: [created] }'],
    ['pull_request_review: { types: [submitted] }'],
  ])('reports LOW on %s when no job runs an outsider\'s code or text, saying who starts it', (on) => {
    const findings = scanWith(RULE, workflow(on));
    expect(findings.map((f) => f.severity)).toEqual(['LOW']);
    expect(findings[0]?.description).toContain('neither do its jobs `label`, `greet`');
  });

  it('negative: a workflow-level permissions: block, even one granting writes, satisfies it', () => {
    expect(scanWith(RULE, workflow('issues: { types: [opened] }', 'permissions: { issues: write }'))).toEqual([]);
  });
});

describe(`${RULE} in attack paths`, () => {
  // A workflow_run job that unpacks the triggering run's artifact and runs a script from it (artifact-poisoning).
  const workflow = (permissions: string) => yaml`
    on:
      workflow_run:
        workflows: [CI]
        types: [completed]
    jobs:
      deploy:
        runs-on: ubuntu-latest${permissions}
        steps:
          - uses: actions/download-artifact@v4
            with:
              run-id: \${{ github.event.workflow_run.id }}
          - run: ./post.sh
      comment:
        uses: org/repo/.github/workflows/comment.yml@v1
  `;
  const paths = (text: string) =>
    findCombinations(scanRepository([{ path: '.github/workflows/deploy.yml', text }]).records, () => true)
      .filter((c) => c.id === 'artifact-poisoning-chain')
      .map((c) => c.components.map((x) => `${x.rule_id}:${x.finding.line}`).join(' '));

  it('joins the default token only to the job that runs with it (the gradio previews-deploy false path)', () => {
    // `deploy` declares its own read-only token: the call job's default token is not the artifact job's.
    expect(paths(workflow('\n        permissions:\n          actions: read'))).toEqual([]);
    // Without its own permissions, `deploy` runs with the default token: the chain holds.
    expect(paths(workflow(''))).toEqual(['artifact-poisoning:9 missing-permissions:6']);
  });
});

describe('missing-permissions: a fork run behind a gate still has a read-only token', () => {
  it("says a fork's pull_request run gets a read-only token when an environment stands before it, not that only collaborators start it", () => {
    const workflow = (condition: string) => yaml`
      on:
        push:
          branches: [main]
        pull_request:
          branches: [main]
      jobs:
        build:
          ${condition}
          runs-on: ubuntu-latest
          environment: docker
          steps:
            - uses: actions/checkout@v3
            - run: docker build .
    `;
    const gated = scanWith('missing-permissions', workflow('timeout-minutes: 30'));
    expect(gated.map((f) => f.severity)).toEqual(['LOW']);
    expect(gated[0]?.description).toContain("LOW: collaborators start it, and a fork's `pull_request` run of it gets a read-only token whatever the default");
    // Negative: a job that keeps forks' pull requests out is started by collaborators only.
    const same = scanWith('missing-permissions', workflow('if: github.event.pull_request.head.repo.full_name == github.repository || github.event_name == \'push\''));
    expect(same[0]?.description).toContain('LOW: only collaborators start it');
  });
});
