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
    const workflow = (permissions: string, env = '') => yaml`
      on: pull_request_target
      permissions: ${permissions}
      jobs:
        automerge:
          if: github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps:
            - run: gh pr review --approve "$PR"${env}
    `;
    const high = scanWith(RULE, workflow('{ contents: write }'));
    expect(positions(high)).toEqual(['5:9 HIGH']);
    expect(high[0]?.description).toContain('the job holds `contents: write`');
    expect(positions(scanWith(RULE, workflow('{}', '\n              env: { TOKEN: "${{ secrets.BOT_TOKEN }}" }')))).toEqual(['5:9 HIGH']);
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
          steps: [{ run: make }]
        b:
          if: \${{ endsWith(github.actor, '[bot]') || github.event_name == 'push' }}
          runs-on: ubuntu-latest
          steps: [{ run: make }]
        c:
          if: github.actor_id == 49699333
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `;
    expect(positions(scanWith(RULE, workflow('pull_request_target')))).toEqual(['4:9 HIGH', '8:9 HIGH', '12:9 HIGH']);
    const plain = scanWith(RULE, workflow('pull_request'));
    expect(positions(plain)).toEqual(['4:9 LOW', '8:9 LOW', '12:9 LOW']);
    expect(plain[0]?.description).toContain('no secrets and a read-only token');
  });

  it('ignores exclusions: != and negated checks only skip work for the bot', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        a:
          if: github.actor != 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps:
            - run: make
              if: \${{ !endsWith(github.actor, '[bot]') }}
            - run: make
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
          steps: [{ run: make }]
    `))).toEqual(['4:10 HIGH']);
  });

  it('accepts an actor check paired with an author or same-repository check', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        author:
          if: github.actor == 'dependabot[bot]' && github.event.pull_request.user.login == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps: [{ run: make }]
        same-repo:
          if: github.actor == 'dependabot[bot]' && github.event.pull_request.head.repo.full_name == github.repository
          runs-on: ubuntu-latest
          steps: [{ run: make }]
        not-fork:
          if: github.actor == 'dependabot[bot]' && !github.event.pull_request.head.repo.fork
          runs-on: ubuntu-latest
          steps: [{ run: make }]
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
          steps: [{ run: make }]
    `))).toEqual(['4:9 HIGH']);
  });

  it('ignores an actor check OR-ed with a clause every fork satisfies: it gates nothing forks do not already get', () => {
    expect(scanWith(RULE, yaml`
      on: workflow_run
      jobs:
        comment:
          if: github.event.workflow_run.conclusion == 'success' && (github.event.workflow_run.head_repository.full_name != github.repository || github.actor == 'dependabot[bot]')
          runs-on: ubuntu-latest
          steps: [{ run: make }]
        flag:
          if: github.event.pull_request.head.repo.fork == true || github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `)).toEqual([]);
    // The same actor check OR-ed with a same-repository clause (forks do not pass it) is still reported.
    expect(positions(scanWith(RULE, yaml`
      on: workflow_run
      jobs:
        comment:
          if: github.event.workflow_run.head_repository.full_name == github.repository || github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `))).toEqual(['4:9 HIGH']);
  });

  it('ignores workflows that are neither privileged nor pull_request-triggered, and composite actions', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          if: github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `)).toEqual([]);
    expect(scanWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          runs:
            using: composite
            steps:
              - run: make
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
            steps: [{ run: make }]
      `)), id).toEqual(['4:9 HIGH']);
    }
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        automerge:
          if: github.actor_id == 1234567
          runs-on: ubuntu-latest
          steps: [{ run: make }]
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
            - run: make
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
});
