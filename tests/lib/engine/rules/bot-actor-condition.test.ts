import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'bot-actor-condition';

describe(RULE, () => {
  it('reports job and step conditions that admit a bot actor, at the condition, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: pull_request_target
      jobs:
        automerge:
          if: github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps:
            - run: gh pr merge --auto "$PR"
              if: \${{ 'renovate[bot]' == github.triggering_actor && github.repository == 'org/repo' }}
            - run: echo ok
              if: github.actor == 'octocat'
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['4:9 HIGH', '8:13 HIGH']);
    expect(records.map((r) => r.job)).toEqual(['automerge', 'automerge']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[1]?.finding.description).toContain("github.triggering_actor == 'renovate[bot]'");
  });

  it('rates a privileged check by what the job holds: HIGH with a write scope or secret, MEDIUM with minor writes, LOW with nothing', () => {
    const workflow = (permissions: string, env = '', command = 'gh pr merge --auto "$PR"') => yaml`
      on: pull_request_target
      permissions: ${permissions}
      jobs:
        automerge:
          if: github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps:
            - run: ${command}${env}
    `;
    const high = scanWith(RULE, workflow('{ contents: write }'));
    expect(positions(high)).toEqual(['5:9 HIGH']);
    expect(high[0]?.description).toContain('merges the pull request, while the job holds `contents: write`');
    expect(positions(scanWith(RULE, workflow('{}', '\n              env: { TOKEN: "${{ secrets.BOT_TOKEN }}" }')))).toEqual(['5:9 HIGH']);
    // What gets through only approves: the attacker gets an approval, not the job's holdings.
    const approves = scanWith(RULE, workflow('{ contents: write }', '', 'gh pr review --approve "$PR"'));
    expect(positions(approves)).toEqual(['5:9 MEDIUM']);
    expect(approves[0]?.description).toContain("runs none of the pull request's code and merges nothing");
    const medium = scanWith(RULE, workflow('{ pull-requests: write }'));
    expect(positions(medium)).toEqual(['5:9 MEDIUM']);
    expect(medium[0]?.description).toContain('`pull-requests: write`');
    const low = scanWith(RULE, workflow('{}'));
    expect(positions(low)).toEqual(['5:9 LOW']);
    expect(low[0]?.description).toContain('holds no write scope, secret or OIDC token');
  });

  it('reports contains/startsWith checks and bot lists: HIGH when privileged, LOW under plain pull_request', () => {
    const workflow = (trigger: string) => yaml`
      on: ${trigger}
      jobs:
        a:
          if: contains(fromJSON('["dependabot[bot]", "renovate[bot]"]'), github.actor)
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
        b:
          if: \${{ endsWith(github.actor, '[bot]') || github.event_name == 'push' }}
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
        c:
          if: github.actor_id == 49699333
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
    `;
    expect(positions(scanWith(RULE, workflow('pull_request_target')))).toEqual(['4:9 HIGH', '8:9 HIGH', '12:9 HIGH']);
    const plain = scanWith(RULE, workflow('pull_request'));
    expect(positions(plain)).toEqual(['4:9 LOW', '8:9 LOW', '12:9 LOW']);
    expect(plain[0]?.description).toContain('no secrets and a read-only token');
  });

  it("is LOW for Dependabot when only activities it causes on its own pull requests start the job (no synchronize)", () => {
    const workflow = (types: string, login = 'dependabot[bot]') => yaml`
      on:
        pull_request_target:
          types: ${types}
      jobs:
        automerge:
          if: github.actor == '${login}'
          runs-on: ubuntu-latest
          permissions:
            contents: write
          steps:
            - run: gh pr merge --auto --rebase "$PR_URL"
              env:
                GITHUB_TOKEN: \${{ secrets.API_TOKEN }}
    `;
    const own = scanWith(RULE, workflow('[opened, reopened]'));
    expect(positions(own)).toEqual(['6:9 LOW']);
    expect(own[0]?.description).toContain('it runs only on `opened`, `reopened`');
    // Negative: a push to the fork's branch (`synchronize`, also among the default activities) makes Dependabot the actor.
    expect(positions(scanWith(RULE, workflow('[opened, synchronize]')))).toEqual(['6:9 HIGH']);
    expect(positions(scanWith(RULE, workflow('[opened, reopened]').replace(/\n {4}types: \[opened, reopened\]/, '')))).toEqual(['5:9 HIGH']);
    // Another bot (a labeler app acting on everyone's pull requests) is not read this way.
    expect(positions(scanWith(RULE, workflow('[labeled]', 'github-actions[bot]')))).toEqual(['6:9 HIGH']);
  });

  it('ignores exclusions: != and negated checks only skip work for the bot', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        a:
          if: github.actor != 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps:
            - run: gh pr merge --auto
              if: \${{ !endsWith(github.actor, '[bot]') }}
            - run: gh pr merge --auto
              if: "!(github.triggering_actor == 'dependabot[bot]')"
    `)).toEqual([]);
  });

  it('still reports a double negation', () => {
    expect(positions(scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        a:
          if: "!(github.actor != 'dependabot[bot]')"
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
    `))).toEqual(['4:10 HIGH']);
  });

  it('accepts an actor check paired with an author or same-repository check', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        author:
          if: github.actor == 'dependabot[bot]' && github.event.pull_request.user.login == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
        same-repo:
          if: github.actor == 'dependabot[bot]' && github.event.pull_request.head.repo.full_name == github.repository
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
        not-fork:
          if: github.actor == 'dependabot[bot]' && !github.event.pull_request.head.repo.fork
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
    `)).toEqual([]);
  });

  it('does not accept a guard that sits on the other side of an ||', () => {
    expect(positions(scanWith(RULE, yaml`
      on: workflow_run
      jobs:
        comment:
          if: >-
            github.actor == 'dependabot[bot]' ||
            (github.event.workflow_run.head_repository.full_name == github.repository && github.event.workflow_run.conclusion == 'success')
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
    `))).toEqual(['4:9 HIGH']);
  });

  it('ignores an actor check OR-ed with a clause every fork satisfies: it gates nothing forks do not already get', () => {
    expect(scanWith(RULE, yaml`
      on: workflow_run
      jobs:
        comment:
          if: github.event.workflow_run.conclusion == 'success' && (github.event.workflow_run.head_repository.full_name != github.repository || github.actor == 'dependabot[bot]')
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
        flag:
          if: github.event.pull_request.head.repo.fork == true || github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
    `)).toEqual([]);
    // The same actor check OR-ed with a same-repository clause (forks do not pass it) is still reported.
    expect(positions(scanWith(RULE, yaml`
      on: workflow_run
      jobs:
        comment:
          if: github.event.workflow_run.head_repository.full_name == github.repository || github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
    `))).toEqual(['4:9 HIGH']);
  });

  it('ignores workflows that are neither privileged nor pull_request-triggered, and composite actions', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          if: github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
    `)).toEqual([]);
    expect(scanWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          runs:
            using: composite
            steps:
              - run: gh pr merge --auto
                shell: bash
                if: github.actor == 'dependabot[bot]'
        `,
      },
    ])).toEqual([]);
  });

  it('trusts the pull request author alone (a Dependabot auto-merge job), and knows the bots\' numeric ids', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      permissions: { contents: write, pull-requests: write }
      jobs:
        automerge:
          if: github.event.pull_request.user.login == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps:
            - run: gh pr merge --auto --squash "$PR_URL"
              env:
                PR_URL: \${{ github.event.pull_request.html_url }}
                GH_TOKEN: \${{ secrets.GITHUB_TOKEN }}
    `)).toEqual([]);
    for (const id of ['49699333', '27856297', '29139614', '29110']) {
      expect(positions(scanWith(RULE, yaml`
        on: pull_request_target
        jobs:
          automerge:
            if: github.actor_id == ${id}
            runs-on: ubuntu-latest
            steps: [{ run: gh pr merge --auto }]
      `)), id).toEqual(['4:9 HIGH']);
    }
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        automerge:
          if: github.actor_id == 1234567
          runs-on: ubuntu-latest
          steps: [{ run: gh pr merge --auto }]
    `)).toEqual([]);
  });
});

describe('bot-actor-condition: dependabot/fetch-metadata verifies the pull request first', () => {
  const workflow = (steps: string) => yaml`
    on: pull_request_target
    permissions: { contents: write, pull-requests: write }
    jobs:
      automerge:
        if: github.actor == 'dependabot[bot]'
        runs-on: ubuntu-latest
        steps:
          ${steps}
          - run: gh pr merge --auto --squash "$PR_URL"
            env:
              PR_URL: \${{ github.event.pull_request.html_url }}
              GH_TOKEN: \${{ github.token }}
  `;
  const metadata = `- uses: dependabot/fetch-metadata@v2
            with:
              github-token: \${{ github.token }}`;

  it("is LOW when the action runs first and fails the job for anyone else's pull request, naming it", () => {
    const found = scanWith('bot-actor-condition', workflow(metadata));
    expect(found.map((f) => f.severity)).toEqual(['LOW']);
    expect(found[0]?.description).toContain('fails the job unless the pull request was opened by Dependabot');
  });

  it('stays HIGH without it, with its verification skipped, or after a step that already acts', () => {
    expect(scanWith('bot-actor-condition', workflow('- run: echo start')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith('bot-actor-condition', workflow(`${metadata}
              skip-commit-verification: true`)).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith('bot-actor-condition', workflow(`- run: ./scripts/prepare.sh
          ${metadata}`)).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it("counts the action when its own if: is only the actor check (it runs whenever the spoofed check passes), and the action's own step check is LOW", () => {
    const conditioned = `- if: github.actor == 'dependabot[bot]'
            uses: dependabot/fetch-metadata@v2
            with:
              github-token: \${{ github.token }}`;
    expect(scanWith('bot-actor-condition', workflow(conditioned)).map((f) => f.severity)).toEqual(['LOW', 'LOW']);
  });

  it("not when its if: asks something else too, or another condition only", () => {
    for (const condition of ["github.actor == 'dependabot[bot]' && github.event.action == 'opened'", "github.event.action == 'opened'"]) {
      const conditioned = `- if: ${condition}
            uses: dependabot/fetch-metadata@v2
            with:
              github-token: \${{ github.token }}`;
      expect(scanWith('bot-actor-condition', workflow(conditioned)).map((f) => f.severity), condition).toContain('HIGH');
    }
  });

  it('reports a login checked for a text anyone can sign up for (contains, startsWith, endsWith): no bot needed', () => {
    const workflow = (condition: string, on = 'pull_request_target') => yaml`
      on: ${on}
      permissions: { contents: write }
      jobs:
        automerge:
          if: ${condition}
          runs-on: ubuntu-latest
          steps:
            - run: gh pr merge --auto "$PR"
    `;
    for (const condition of ["contains(github.actor, 'dependabot')", "startsWith(github.triggering_actor, 'renovate')", "endsWith(github.actor, 'bot')", "contains(github.event.pull_request.user.login, 'dependabot')"]) {
      const found = scanWith(RULE, workflow(condition));
      expect(positions(found), condition).toEqual(['5:9 HIGH']);
      expect(found[0]?.description).toContain('anyone can sign up for such a login');
      expect(found[0]?.description).toContain('the job holds `contents: write`');
    }
    expect(scanWith(RULE, workflow("contains(github.actor, 'dependabot')"))[0]?.description).toContain('login contains that text');
    expect(scanWith(RULE, workflow("startsWith(github.actor, 'renovate')"))[0]?.description).toContain('login starts with that text');
    // Under plain pull_request a fork's run holds nothing: hygiene.
    expect(positions(scanWith(RULE, workflow("contains(github.actor, 'dependabot')", 'pull_request')))).toEqual(['5:9 LOW']);
  });

  it('does not report a text check that excludes, that no login can hold, or where the login is the list', () => {
    const workflow = (condition: string) => yaml`
      on: pull_request_target
      permissions: { contents: write }
      jobs:
        build:
          if: ${condition}
          runs-on: ubuntu-latest
          steps:
            - run: gh pr merge --auto
    `;
    for (const condition of [
      "!contains(github.actor, 'dependabot')",
      "contains(github.actor, 'bot account')",
      "contains(github.actor, '')",
      "contains(github.event.pull_request.title, 'dependabot')",
      "contains(github.event.pull_request.user.login, 'team member')",
      "github.event.pull_request.user.login == 'octocat'",
    ]) {
      expect(scanWith(RULE, workflow(condition)), condition).toEqual([]);
    }
  });

  it("does not report a step's actor check in a job whose own if: lets only a bot's or the repository's pull requests in", () => {
    const workflow = (jobIf: string) => yaml`
      on: pull_request_target
      permissions: { contents: write }
      jobs:
        automerge:
          if: ${jobIf}
          runs-on: ubuntu-latest
          steps:
            - run: gh pr merge --auto "$PR"
              if: github.actor == 'renovate[bot]'
    `;
    expect(scanWith(RULE, workflow("github.event.pull_request.user.login == 'renovate[bot]'"))).toEqual([]);
    expect(scanWith(RULE, workflow('github.event.pull_request.head.repo.full_name == github.repository'))).toEqual([]);
    // A job anyone's pull request reaches keeps the step's finding.
    expect(positions(scanWith(RULE, workflow("github.event.pull_request.draft == false")))).toEqual(['9:13 HIGH']);
  });

  it("is HIGH when what gets through runs the pull request's code, MEDIUM when the gated step only approves", () => {
    const workflow = (steps: string) => yaml`
      on: pull_request_target
      permissions: { contents: write }
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            ${steps}
    `;
    const runsCode = scanWith(RULE, workflow(`- uses: actions/checkout@v3
              if: github.actor == 'dependabot[bot]'
              with: { ref: "\${{ github.event.pull_request.head.sha }}" }
            - run: npm ci && npm test
              if: github.actor == 'dependabot[bot]'`));
    expect(runsCode.map((f) => f.severity)).toEqual(['MEDIUM', 'HIGH']);
    expect(runsCode[1]?.description).toContain("runs the pull request's code");
    const approves = scanWith(RULE, workflow(`- uses: hmarr/auto-approve-action@v4
              if: github.actor == 'dependabot[bot]'`));
    expect(approves.map((f) => f.severity)).toEqual(['MEDIUM']);
    const merges = scanWith(RULE, workflow(`- uses: pascalgn/automerge-action@v0.16.4
              if: github.actor == 'dependabot[bot]'`));
    expect(merges.map((f) => f.severity)).toEqual(['HIGH']);
    // An action that labels pull requests with merge conflicts merges nothing.
    const labels = scanWith(RULE, workflow(`- uses: eps1lon/actions-label-merge-conflict@v3
              if: github.actor == 'dependabot[bot]'`));
    expect(labels.map((f) => f.severity)).toEqual(['MEDIUM']);
  });
});
