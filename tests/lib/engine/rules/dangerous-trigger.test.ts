import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'dangerous-trigger';

describe(RULE, () => {
  it('reports each privileged trigger at its key as a workflow-level fact', () => {
    const records = recordsWith(RULE, yaml`
      on:
        push:
        pull_request_target:
          types: [opened]
        workflow_run:
          workflows: [CI]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
    `);
    // The untrusted-checkout finding of job `build` is the HIGH one; this one names the trigger, MEDIUM (not a second HIGH).
    // The ref is empty on `workflow_run`, whose payload has no `pull_request`: that trigger checks out its own commit.
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 MEDIUM', '5:3 LOW']);
    expect(records.map((r) => r.job)).toEqual([null, null]);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[1]?.finding.description).toContain('`workflow_run`');
    expect(records[1]?.finding.description).toContain("its ref is read from a pull request event's payload, which `workflow_run` does not carry");
    // Negative: a ref from the `workflow_run` payload is that trigger's outsider code.
    const onRun = scanWith(RULE, yaml`
      on:
        push:
        workflow_run:
          workflows: [CI]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.workflow_run.head_sha }}
            - run: make
    `);
    expect(positions(onRun)).toEqual(['3:3 MEDIUM']);
  });

  it('reports nothing for a workflow none of whose jobs can run (every leg on a retired runner image); one live leg keeps it (negative)', () => {
    const workflow = (systems: string) => yaml`
      on:
        pull_request_target:
          types: [opened]
      jobs:
        run:
          runs-on: \${{ matrix.os }}
          strategy:
            matrix:
              os: [${systems}]
          steps:
            - uses: actions/checkout@v3
            - run: make test
    `;
    expect(scanWith(RULE, workflow('ubuntu-20.04, windows-2019'))).toEqual([]);
    expect(positions(scanWith(RULE, workflow('ubuntu-20.04, ubuntu-latest')))).toEqual(['2:3 LOW']);
  });

  it('finds the trigger in scalar and list forms of on:', () => {
    const job = (expression: string) => `jobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "\${{ ${expression} }}"\n`;
    expect(positions(scanWith(RULE, `on: pull_request_target\n${job('github.event.pull_request.title')}`))).toEqual(['1:5 MEDIUM']);
    expect(positions(scanWith(RULE, `on: [push, workflow_run]\n${job('github.event.workflow_run.head_commit.message')}`))).toEqual(['1:12 MEDIUM']);
    // A branch name read by the shell from the environment is data, not script text.
    expect(positions(scanWith(RULE, 'on: pull_request_target\njobs:\n  j:\n    runs-on: x\n    steps:\n      - run: echo "$GITHUB_HEAD_REF"\n'))).toEqual(['1:5 LOW']);
  });

  it("is LOW when pull request text goes to $GITHUB_ENV only in a job's last step, MEDIUM when a later step runs with it", () => {
    const workflow = (after: string) => yaml`
      on: pull_request_target
      permissions: {}
      jobs:
        title:
          runs-on: ubuntu-latest
          steps:
            - run: echo "TITLE=$TITLE" >> "$GITHUB_ENV"
              env:
                TITLE: \${{ github.event.pull_request.title }}
            ${after}
    `;
    const last = scanWith(RULE, workflow(''));
    expect(positions(last)).toEqual(['1:5 LOW']);
    expect(last[0]?.description).toContain('step 1 of job `title` (line 7) writes pull request text to `$GITHUB_ENV`, but no later step of job `title` runs with it');
    expect(positions(scanWith(RULE, workflow('- run: ./check-title.sh')))).toEqual(['1:5 MEDIUM']);
  });

  it('is LOW when every job only runs well-known triage actions', () => {
    expect(positions(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        label:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/labeler@v5
        title:
          runs-on: ubuntu-latest
          steps:
            - uses: step-security/harden-runner@v2
            - uses: amannn/action-semantic-pull-request@v5
    `))).toEqual(['1:5 LOW']);
  });

  it('is armed (MEDIUM, restating a HIGH) when a job that holds the default token runs outsider code or text, LOW (saying what is there) when none does', () => {
    const variants: [string, string][] = [
      ['- uses: actions/labeler@v5\n      - uses: actions/checkout@v3\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: npm ci', 'MEDIUM'],
      ['- uses: actions/labeler@v5\n      - run: echo "${{ github.event.pull_request.title }}"', 'MEDIUM'],
      // Pull request data read through the API or the payload is data, not code.
      ['- uses: actions/github-script@v7\n        with:\n          script: console.log(context.payload.pull_request.number)', 'LOW'],
      ['- uses: actions/labeler@v5\n      - uses: actions/checkout@v3', 'LOW'],
      ['- uses: actions/labeler@v5\n      - run: echo done', 'LOW'],
      ['- uses: actions/github-script@v7', 'LOW'],
    ];
    for (const [steps, severity] of variants) {
      const text = `on: pull_request_target\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      ${steps}\n`;
      const found = scanWith(RULE, text);
      expect(positions(found), steps).toEqual([`1:5 ${severity}`]);
      if (severity === 'LOW') expect(found[0]?.description).toContain("no job runs the pull request's code");
    }
    const call = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        call:
          uses: ./.github/workflows/label.yml
    `);
    expect(positions(call)).toEqual(['1:5 LOW']);
    expect(call[0]?.description).toContain('job `call` calls reusable workflows of this repository or its owner');
  });

  it('is LOW for a job that acts on a merged pull request (a maintainer merged that code), armed when the merge is not required', () => {
    const workflow = (condition: string) => yaml`
      on:
        pull_request_target:
          types: [closed]
      jobs:
        docs:
          if: ${condition}
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with: { ref: '\${{ github.event.pull_request.merge_commit_sha }}' }
            - run: npm ci && npm run docs
    `;
    for (const condition of ['github.event.pull_request.merged == true', 'github.event.pull_request.merged']) {
      const found = scanWith(RULE, workflow(condition));
      expect(positions(found), condition).toEqual(['2:3 LOW']);
      expect(found[0]?.description).toContain('only trusted authors reach it');
    }
    // Closed without merging: the fork's code runs.
    const closed = scanWith(RULE, workflow("github.event.action == 'closed'"));
    expect(positions(closed)).toEqual(['2:3 MEDIUM']);
    expect(closed[0]?.description).toContain('MEDIUM here, not HIGH: the `untrusted-checkout` finding about the same job');
  });

  it("takes its severity from the job that runs the outsider's content: its reach, gates and actual holdings", () => {
    const workflow = (permissions: string, job = '', other = '') => yaml`
      on: pull_request_target
      ${permissions}
      jobs:
        test:
          runs-on: ubuntu-latest
          ${job}
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm install
      ${other}
    `;
    // The default token (read-write on many repositories): HIGH for untrusted-checkout on the same job, which this
    // finding restates: MEDIUM here, pointing at it.
    const open = workflow('');
    const high = scanWith(RULE, open);
    expect(positions(high)).toEqual(['1:5 MEDIUM']);
    expect(high[0]?.description).toContain('MEDIUM here, not HIGH: the `untrusted-checkout` finding about the same job states this weakness at its own severity and carries the fix');
    expect(high[0]?.description).toContain('runs `npm install` from the pull request\'s checkout');
    expect(high[0]?.description).toContain('anyone with a GitHub account can start it through `pull_request_target`');
    expect(high[0]?.description).toContain("the job holds the repository's default token");
    expect(scanWith('untrusted-checkout', open).map((f) => f.severity)).toEqual(['HIGH']);
    // A stored secret alone is worth taking.
    const secret = scanWith(RULE, workflow('permissions: {}', 'env:\n            NPM_TOKEN: ${{ secrets.NPM_TOKEN }}'));
    expect(positions(secret)).toEqual(['1:5 MEDIUM']);
    expect(secret[0]?.description).toContain('MEDIUM here, not HIGH');
    expect(secret[0]?.description).toContain('secret `NPM_TOKEN`');
    // The job holds nothing worth taking: MEDIUM, saying so, even when another job of the workflow holds secrets.
    const other = 'release:\n          runs-on: ubuntu-latest\n          steps:\n            - run: ./release.sh\n              env:\n                TOKEN: ${{ secrets.RELEASE_TOKEN }}';
    for (const permissions of ['permissions: {}', 'permissions:\n        contents: read\n        pull-requests: write']) {
      const bare = scanWith(RULE, workflow(permissions, '', other));
      expect(positions(bare), permissions).toEqual(['1:5 MEDIUM']);
      // MEDIUM on its own verdict: nothing is restated.
      expect(bare[0]?.description).not.toContain('MEDIUM here, not HIGH');
      expect(bare[0]?.description).toMatch(/the job holds (no write scope, secret or OIDC token|only `pull-requests: write`)/);
      expect(scanWith('untrusted-checkout', workflow(permissions, '', other)).map((f) => f.severity)).toEqual(['MEDIUM']);
    }
  });

  it('rates outsider text in a script as script-injection rates that expansion, never above it', () => {
    const workflow = (field: string, check = '') => yaml`
      on: pull_request_target
      permissions: {}
      jobs:
        greet:
          runs-on: ubuntu-latest
          env:
            KEY: \${{ secrets.DEPLOY_KEY }}
          steps:
            ${check}
            - run: echo "\${{ ${field} }}"
    `;
    const severities = (text: string) => [scanWith('script-injection', text).map((f) => f.severity), scanWith(RULE, text).map((f) => f.severity)];
    // An e-mail address is constrained text: script-injection's ceiling is MEDIUM, and so is this finding.
    const email = workflow('github.event.pull_request.user.email');
    expect(severities(email)).toEqual([['MEDIUM'], ['MEDIUM']]);
    expect(scanWith(RULE, email)[0]?.description).toContain('expands `github.event.pull_request.user.email` into its script; anyone with a GitHub account can start it through `pull_request_target`; the job holds secret `DEPLOY_KEY`');
    expect(scanWith(RULE, email)[0]?.description).not.toContain('MEDIUM here, not HIGH');
    // Free text, the same job: script-injection HIGH, and this finding, which restates it, MEDIUM pointing at it.
    const title = workflow('github.event.pull_request.title');
    expect(severities(title)).toEqual([['HIGH'], ['MEDIUM']]);
    expect(scanWith(RULE, title)[0]?.description).toContain('MEDIUM here, not HIGH: the `script-injection` finding about the same job');
    // A value checked against an anchored pattern first carries no code: script-injection reports nothing, and the
    // script does not arm the trigger.
    const checked = workflow('github.head_ref', '- env:\n                REF: ${{ github.head_ref }}\n              run: \'[[ "$REF" =~ ^[a-z0-9-]+$ ]] || exit 1\'');
    expect(severities(checked)).toEqual([[], ['LOW']]);
  });

  it("is MEDIUM at most behind a maintainer's label the code can move after, LOW when the job then holds nothing or the labelled commit runs", () => {
    const workflow = (permissions: string, ref: string) => yaml`
      on:
        pull_request_target:
          types: [labeled]
      ${permissions}
      jobs:
        test:
          if: github.event.label.name == 'safe to test'
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: ${ref}
            - run: npm install
    `;
    const moving = scanWith(RULE, workflow('', 'refs/pull/${{ github.event.pull_request.number }}/head'));
    expect(positions(moving)).toEqual(['2:3 MEDIUM']);
    expect(moving[0]?.description).toContain('a maintainer approves each run first');
    const bare = scanWith(RULE, workflow('permissions: {}', 'refs/pull/${{ github.event.pull_request.number }}/head'));
    expect(positions(bare)).toEqual(['2:3 LOW']);
    expect(bare[0]?.description).toContain('a maintainer approves each run first');
    expect(bare[0]?.description).toContain('the job holds no write scope, secret or OIDC token');
    expect(positions(scanWith(RULE, workflow('', '${{ github.event.pull_request.head.sha }}')))).toEqual(['2:3 LOW']);
  });

  it('never says no job checks out pull request code when one does: it names the checkout and what stands in the way', () => {
    const gated = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        test:
          if: github.event.pull_request.head.repo.full_name == github.repository
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with: { ref: '\${{ github.event.pull_request.head.sha }}' }
            - run: npm ci
        look:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with: { ref: '\${{ github.event.pull_request.head.sha }}' }
            - run: ls
    `);
    expect(positions(gated)).toEqual(['1:5 LOW']);
    expect(gated[0]?.description).toContain('job `test` checks out pull request code');
    // The gate is fork exclusion (run model `sameRepository`): the job runs the code, for this repository's branches only.
    expect(gated[0]?.description).toContain('job `test` checks out pull request code (`ref: ${{ github.event.pull_request.head.sha }}`, line 7) and step 2 of job `test` (line 9) runs `npm ci` from it');
    expect(gated[0]?.description).toContain('only pull requests from branches of this repository reach it (`github.event.pull_request.head.repo.full_name == github.repository`)');
    expect(gated[0]?.description).toContain('job `look` checks out pull request code');
    expect(gated[0]?.description).toContain('no later step runs code from it');
    expect(gated[0]?.description).not.toContain('no job');
  });

  describe('never reassures ("no job ... keep it that way") while another rule reports what an outsider\'s content does in a job', () => {
    const reassures = (text: string) => /no job runs|keep it that way/.test(text);

    it('positive: a script injection behind a gate, an argument injection without secrets, an AI agent reading the thread', () => {
      const gated = scanWith(RULE, yaml`
        on: pull_request_target
        permissions: { contents: write }
        jobs:
          label:
            runs-on: ubuntu-latest
            steps: [{ uses: actions/labeler@v5 }]
          greet:
            if: github.event.pull_request.author_association == 'MEMBER'
            runs-on: ubuntu-latest
            steps:
              - run: echo "\${{ github.event.pull_request.title }}"
      `);
      expect(positions(gated)).toEqual(['1:5 LOW']);
      expect(reassures(gated[0]?.description ?? ''), gated[0]?.description).toBe(false);
      expect(gated[0]?.description).toContain('step 1 of job `greet` (line 11) expands `${{ github.event.pull_request.title }}` into code it runs; the condition');
      expect(gated[0]?.description).toContain('LOW here, as the trigger: the `script-injection` finding about that job states that weakness');

      const argv = scanWith(RULE, [
        {
          path: '.github/workflows/comment.yml',
          text: yaml`
            on:
              workflow_run:
                workflows: [CI]
                types: [completed]
            permissions: { pull-requests: write }
            jobs:
              comment:
                runs-on: ubuntu-latest
                steps:
                  - uses: actions/download-artifact@v4
                    with: { run-id: '\${{ github.event.workflow_run.id }}', github-token: '\${{ github.token }}' }
                  - run: |
                      PR=$(cat pr.txt)
                      gh pr comment $PR --body "Thanks"
                    env: { GH_TOKEN: '\${{ github.token }}' }
          `,
        },
        { path: '.github/workflows/ci.yml', text: 'name: CI\non: pull_request\njobs: {}\n' },
      ]);
      expect(positions(argv)).toEqual(['2:3 LOW']);
      expect(reassures(argv[0]?.description ?? ''), argv[0]?.description).toBe(false);
      expect(argv[0]?.description).toContain('no step runs code from them, but a value read from them is split into the words of a call made with a write token');
      expect(argv[0]?.description).toContain('the `artifact-poisoning` finding about that job');

      const agent = scanWith(RULE, yaml`
        on:
          pull_request_target:
            types: [opened]
        permissions: { contents: read, pull-requests: write, id-token: write }
        jobs:
          review:
            runs-on: ubuntu-latest
            steps:
              - uses: anthropics/claude-code-action@v1
                with:
                  anthropic_api_key: '\${{ secrets.ANTHROPIC_API_KEY }}'
                  prompt: Review this pull request
      `);
      expect(positions(agent)).toEqual(['2:3 LOW']);
      expect(reassures(agent[0]?.description ?? ''), agent[0]?.description).toBe(false);
      expect(agent[0]?.description).toContain('step 1 of job `review` (line 9) runs Claude Code, an AI agent that reads text an outsider can write');
      expect(agent[0]?.description).toContain('the `agent-untrusted-input` finding about that job');
    });

    it('negative: the reassurance stays where no job does anything with their content (a quoted value, a read-only agent)', () => {
      const quiet = scanWith(RULE, yaml`
        on: pull_request_target
        permissions: { pull-requests: write }
        jobs:
          greet:
            runs-on: ubuntu-latest
            steps:
              - run: echo "$TITLE"
                env: { TITLE: '\${{ github.event.pull_request.title }}' }
          review:
            runs-on: ubuntu-latest
            permissions: {}
            steps:
              - uses: anthropics/claude-code-action@v1
                with: { prompt: Review this pull request }
      `);
      expect(positions(quiet)).toEqual(['1:5 LOW']);
      expect(quiet[0]?.description).toContain("no job runs the pull request's code");
      expect(quiet[0]?.description).toContain('LOW: keep it that way, with least `permissions:`.');
    });
  });

  it("names an action that downloads the triggering run's artifact itself, never saying no job downloads the run's artifacts", () => {
    const follower = {
      path: '.github/workflows/relative.yml',
      text: `on:
  workflow_run:
    workflows: [CI]
    types: [completed]
permissions:
  contents: read
jobs:
  upload:
    runs-on: ubuntu-latest
    steps:
      - uses: relative-ci/agent-action@f5dd4c8e0b2c4ad5c1e1a1b7e6fd3cbb4c2e9a11
        with:
          key: \${{ secrets.RELATIVE_CI_KEY }}
          token: \${{ github.token }}
          artifactName: frontend-bundle-stats
`,
    };
    const ci = { path: '.github/workflows/ci.yml', text: 'name: CI\non: pull_request\njobs: {}\n' };
    const found = scanWith(RULE, [follower, ci]);
    expect(positions(found)).toEqual(['2:3 LOW']);
    const text = found[0]?.description ?? '';
    expect(text).toContain('job `upload` downloads artifacts of a pull request\'s run (`relative-ci/agent-action`, which on `workflow_run` downloads artifact `frontend-bundle-stats` of the triggering run itself, line 11) in a job that holds secret `RELATIVE_CI_KEY`');
    expect(text).toContain("at worst a bundle-size report of the fork's making");
    expect(text).not.toContain('no job');
  });

  it('says whether the runs a workflow_run follows can come from fork pull requests', () => {
    const follower = { path: '.github/workflows/deploy.yml', text: 'on:\n  workflow_run:\n    workflows: [CI]\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./deploy.sh "${{ github.event.workflow_run.head_branch }}"\n' };
    const ci = (trigger: string) => ({ path: '.github/workflows/ci.yml', text: `name: CI\non: ${trigger}\njobs: {}\n` });
    // CI runs only on push here, but a fork's pull request can add a workflow named CI that runs on pull_request.
    const added = scanWith(RULE, [follower, ci('push')]);
    expect(positions(added)).toEqual(['2:3 MEDIUM']);
    expect(added[0]?.description).toContain("the repository's `CI` runs on no pull request, but a fork's pull request can add a workflow of that name that does");
    const untrusted = scanWith(RULE, [follower, ci('pull_request')]);
    expect(untrusted[0]?.description).not.toContain('can add a workflow');
    expect(positions(untrusted)).toEqual(['2:3 MEDIUM']);
    expect(untrusted[0]?.description).toContain('MEDIUM here, not HIGH: the `script-injection` finding');
    expect(untrusted[0]?.description).toContain('started by fork pull requests');
  });

  it('says a workflow_run branches filter keeps no fork out, at the severity of what the jobs do', () => {
    const ci = (trigger: string) => ({ path: '.github/workflows/ci.yml', text: `name: CI\non: ${trigger}\njobs: {}\n` });
    const canary = (filter: string) => ({
      path: '.github/workflows/canary.yml',
      text: `on:\n  workflow_run:\n    workflows: [CI]\n    types: [completed]${filter}\njobs:\n  publish:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n      - run: npm ci && npm publish --tag canary\n        env:\n          NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}\n`,
    });
    const filtered = scanWith(RULE, [canary('\n    branches: [main]'), ci('pull_request')]);
    // The job runs the base repository's own code (a checkout without `ref:` on `workflow_run`): an extra run of it.
    expect(positions(filtered)).toEqual(['2:3 LOW']);
    expect(filtered[0]?.description).toContain('`branches: [main]` filter keeps no fork out');
    expect(filtered[0]?.description).toContain('a fork can name its branch `main`');
    // Negative: no filter.
    expect(scanWith(RULE, [canary(''), ci('pull_request')])[0]?.description).not.toContain('filter');
    // A job condition that checks where the run came from does keep forks out.
    const checked = canary('\n    branches: [main]');
    checked.text = checked.text.replace('    runs-on: ubuntu-latest', "    if: github.event.workflow_run.event == 'push'\n    runs-on: ubuntu-latest");
    expect(scanWith(RULE, [checked, ci('pull_request')])[0]?.description).not.toContain('keeps no fork out');
    // A followed workflow that runs only on push: a fork's own workflow of that name, on a branch it names `main`.
    const added = scanWith(RULE, [canary('\n    branches: [main]'), ci('push')]);
    expect(positions(added)).toEqual(['2:3 LOW']);
    expect(added[0]?.description).toContain('keeps no fork out');
  });

  it('is INFO when every job keeps a fork\'s run out (its run event among those only collaborators cause), LOW when one job does not', () => {
    const ci = { path: '.github/workflows/ci.yml', text: 'name: Build\non: [push, pull_request]\njobs: {}\n' };
    const rerun = (second: string) => ({
      path: '.github/workflows/rerun.yml',
      text: `on:\n  workflow_run:\n    workflows: [Build]\n    types: [completed]\njobs:\n  rerun:\n    if: contains(fromJSON('["push", "workflow_dispatch"]'), github.event.workflow_run.event)\n    runs-on: ubuntu-latest\n    permissions:\n      actions: write\n    steps:\n      - run: gh run rerun "$ID" --failed\n        env:\n          GH_TOKEN: \${{ github.token }}\n          ID: \${{ github.event.workflow_run.id }}\n${second}`,
    });
    const quiet = scanWith(RULE, [rerun(''), ci]);
    expect(positions(quiet)).toEqual(['2:3 INFO']);
    expect(quiet[0]?.description).toContain("every job keeps a fork's run out");
    expect(quiet[0]?.description).toContain('github.event.workflow_run.event');
    // Negative: a second job without the check runs on a fork's run too.
    const open = scanWith(RULE, [rerun('  notify:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo done\n'), ci]);
    expect(positions(open)).toEqual(['2:3 LOW']);
    expect(open[0]?.description).not.toContain("every job keeps a fork's run out");
  });

  it('ignores other triggers', () => {
    expect(scanWith(RULE, yaml`
      on: [pull_request, issue_comment, push]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: make
    `)).toEqual([]);
  });

  it('is MEDIUM when a job hands the pull request\'s head to another repository\'s CI, LOW when it sends no head', () => {
    const workflow = (payload: string) => yaml`
      on: pull_request_target
      jobs:
        dispatch:
          runs-on: ubuntu-latest
          steps:
            - uses: peter-evans/repository-dispatch@v3
              with:
                token: \${{ secrets.CI_TOKEN }}
                repository: acme/integration
                event-type: pr-test
                client-payload: '{"sha": "\${{ ${payload} }}"}'
    `;
    const [armed] = scanWith(RULE, workflow('github.event.pull_request.head.sha'));
    expect(armed?.severity).toBe('MEDIUM');
    expect(armed?.description).toContain("dispatches `acme/integration` with the pull request's head");
    const [quiet] = scanWith(RULE, workflow('github.sha'));
    expect(quiet?.severity).toBe('LOW');
    expect(quiet?.description).toContain("hands its head to another repository's CI");
  });
});

describe('dangerous-trigger: what the jobs hold, in words', () => {
  const workflow = (permissions: string, secret = false) => yaml`
    on: pull_request_target
    permissions: ${permissions}
    jobs:
      label:
        runs-on: ubuntu-latest
        steps:
          - run: gh pr view "$N" --json files
            env:
              N: \${{ github.event.number }}
              ${secret ? 'GH_TOKEN: ${{ secrets.BOT }}' : 'X: y'}
  `;
  const text = (permissions: string, secret = false) => (scanWith('dangerous-trigger', workflow(permissions, secret))[0]?.description ?? '').replace(/\s+/g, ' ');

  it('says "a write token" only when a job holds a write scope, and "secrets" only when one reads a stored secret', () => {
    expect(text('{ pull-requests: write }')).toContain('with a write token (its jobs read none of the stored secrets)');
    expect(text('{ contents: read }')).toContain("with the base repository's context (its jobs' tokens are read-only here and they read none of the stored secrets)");
    expect(text('{ contents: read }', true)).toContain("with the base repository's secrets (its jobs' tokens are read-only here)");
    expect(text('{ pull-requests: write }', true)).toContain("with the base repository's secrets and a write token");
    // A token whose one write scope is `id-token` mints OIDC tokens and writes nothing to the repository.
    expect(text('{ contents: read, id-token: write }')).toContain('with an OIDC token (`id-token: write`, its only write scope) (its jobs read none of the stored secrets)');
    expect(text('{ id-token: write }', true)).toContain("with the base repository's secrets and an OIDC token (`id-token: write`, its only write scope)");
    expect(text('{ id-token: write, contents: write }')).toContain('with a write token (its jobs read none of the stored secrets)');
    // Nothing declared: the repository's default token, which may write.
    expect(scanWith('dangerous-trigger', workflow('{ contents: read }').replace(/^ *permissions:.*\n/m, ''))[0]?.description).toContain('a write token');
  });
});

describe(`${RULE}: artifacts of a pull request's run`, () => {
  const follow = (steps: string) => yaml`
    on:
      workflow_run:
        workflows: [CI]
        types: [completed]
    jobs:
      preview:
        runs-on: ubuntu-latest
        steps:
    ` + steps.split('\n').map((l) => `      ${l}`).join('\n') + '\n';
  const download = '- uses: actions/download-artifact@v4\n  with:\n    name: site\n    path: site\n    run-id: ${{ github.event.workflow_run.id }}';

  it('is LOW when the files are only published as they are, and names the upload', () => {
    const [finding] = scanWith(RULE, follow(`${download}\n- run: npx surge ./site preview.example.dev\n  env:\n    SURGE_TOKEN: \${{ secrets.SURGE_TOKEN }}`));
    expect(finding?.severity).toBe('LOW');
    expect(finding?.description).not.toContain("an outsider's content runs in it");
    expect(finding?.description).toContain('uploads or deploys them as they are (`npx surge ./site preview.example.dev`)');
    expect(finding?.description).toContain('the fork chooses only the files that upload publishes');
  });

  it('is MEDIUM when their content steers a job that holds secrets', () => {
    const [finding] = scanWith(RULE, follow(`${download}\n- run: aws s3 sync ./site "s3://docs/$(cat site/version)/"\n  env:\n    AWS_SECRET_ACCESS_KEY: \${{ secrets.AWS_SECRET_ACCESS_KEY }}`));
    expect(finding?.severity).toBe('MEDIUM');
    expect(finding?.description).toContain("downloads artifacts a fork's run made");
  });

  it("does not count a dawidd6/action-download-artifact search that skips forks' runs (its default from v4)", () => {
    const search = (extra: string) =>
      follow(`- uses: dawidd6/action-download-artifact@v6\n  with:\n    workflow: ci.yml\n    commit: \${{ github.event.workflow_run.head_sha }}${extra}\n- run: ./site/deploy.sh\n  env:\n    TOKEN: \${{ secrets.DEPLOY_TOKEN }}`);
    const [skipped] = scanWith(RULE, search(''));
    expect(skipped?.severity).toBe('LOW');
    expect(skipped?.description).not.toContain("a fork's run made");
    expect(skipped?.description).not.toContain("artifacts of a pull request's run");
    const [allowed] = scanWith(RULE, search('\n    allow_forks: true'));
    expect(allowed?.severity).toBe('MEDIUM');
    expect(allowed?.description).toContain('MEDIUM here, not HIGH: the `artifact-poisoning` finding about the same job');
  });

});

describe(`${RULE}: a step anyone starts that starts another workflow of this repository`, () => {
    const release = (extra = '') => ({
      path: '.github/workflows/release.yml',
      text: yaml`
        on:
          workflow_dispatch:
            inputs:
              note: {}
        jobs:
          publish:
            runs-on: ubuntu-latest
            ${extra}
            steps:
              - run: echo "\${{ inputs.note }}" && npm publish
                env:
                  NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
      `,
    });
    const harmless = {
      path: '.github/workflows/release.yml',
      text: 'on: workflow_dispatch\npermissions: {}\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n',
    };
    const comment = (steps: string, head = 'on:\n  issue_comment:\n    types: [created]\npermissions:\n  actions: write\n', jobIf = '') =>
      ({ path: '.github/workflows/comment.yml', text: `${head}jobs:\n  go:\n    runs-on: ubuntu-latest\n${jobIf}    steps:\n${steps}` });
    const ghRun = '      - run: gh workflow run release.yml -f note="$BODY"\n        env:\n          GH_TOKEN: ${{ github.token }}\n          BODY: ${{ github.event.comment.body }}\n';
    const self = (files: { path: string; text: string }[]) => scanWith(RULE, files).filter((f) => f.file === '.github/workflows/comment.yml');

    it('is MEDIUM when the started workflow holds secrets, naming it, the outsider text it is handed and its environment', () => {
      const found = self([comment(ghRun), release('environment: release')]);
      expect(positions(found)).toEqual(['10:14 MEDIUM']);
      const text = found[0]?.description ?? '';
      expect(text).toContain("starts workflow `release.yml` of this repository (`workflow_dispatch`) with `gh workflow run`, sent with the job's own token, whose `actions: write` lets it start the run");
      expect(text).toContain('anyone with a GitHub account can start it through `issue_comment`');
      expect(text).toContain('`github.event.comment.body`');
      expect(text).toContain('secret `NPM_TOKEN`');
      expect(text).toContain("what they send reaches a sink there: `.github/workflows/release.yml`'s input `note` is expanded into the script of step 1 of job `publish` (line 10)");
      expect(text).toContain('only the approval of environment `release` stands in the way');
    });

    it('finds github-script, repository-dispatch to this repository and an open slash-command dispatcher', () => {
      // Sending nothing the outsider chooses: they only choose when the workflow runs (LOW).
      const script = "      - uses: actions/github-script@v7\n        with:\n          script: |\n            await github.rest.actions.createWorkflowDispatch({ ...context.repo, workflow_id: 'release.yml', ref: 'main' })\n";
      const constant = self([comment(script), release()]);
      expect(positions(constant)).toEqual(['10:15 LOW']);
      expect(constant[0]?.description).toContain('nothing of theirs runs there: the dispatch sends no input they choose');
      // Inputs built elsewhere (a shorthand property): not known, so each may be the outsider's.
      const shorthand = "      - uses: actions/github-script@v7\n        with:\n          script: |\n            const inputs = { note: context.payload.comment.body.slice(9) }\n            await github.rest.actions.createWorkflowDispatch({ ...context.repo, workflow_id: 'release.yml', ref: 'main', inputs })\n";
      expect(positions(self([comment(shorthand), release()]))).toEqual(['10:15 MEDIUM']);
      // The comment's text as the input a script expands: MEDIUM.
      const body = "      - uses: actions/github-script@v7\n        with:\n          script: |\n            await github.rest.actions.createWorkflowDispatch({ ...context.repo, workflow_id: 'release.yml', ref: 'main', inputs: { note: context.payload.comment.body } })\n";
      expect(positions(self([comment(body), release()]))).toEqual(['10:15 MEDIUM']);
      const repoDispatch = '      - uses: peter-evans/repository-dispatch@v3\n        with:\n          event-type: deploy\n          client-payload: \'{"title": "${{ github.event.issue.title }}"}\'\n';
      const deploy = (run: string) => ({ path: '.github/workflows/deploy.yml', text: `on:\n  repository_dispatch:\n    types: [deploy]\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ${run}\n        env:\n          KEY: \${{ secrets.DEPLOY_KEY }}\n` });
      const contents = 'on:\n  issues:\n    types: [opened]\npermissions:\n  contents: write\n';
      const found = self([comment(repoDispatch, contents), deploy('./deploy.sh "${{ github.event.client_payload.title }}"')]);
      expect(positions(found)).toEqual(['10:15 MEDIUM']);
      expect(found[0]?.description).toContain('of type `deploy`');
      expect(found[0]?.description).toContain("`.github/workflows/deploy.yml`'s `client_payload.title` is expanded into the script of step 1 of job `d` (line 8)");
      const unread = self([comment(repoDispatch, contents), deploy('./deploy.sh')]);
      expect(positions(unread)).toEqual(['10:15 LOW']);
      expect(unread[0]?.description).toContain('`client_payload.title`, which no step names');
      const slash = '      - uses: peter-evans/slash-command-dispatch@v4\n        with:\n          token: ${{ secrets.PAT }}\n          commands: release\n          permission: none\n          dispatch-type: workflow\n';
      const command = { ...release(), path: '.github/workflows/release-command.yml' };
      const open = self([comment(slash), command]);
      expect(positions(open)).toEqual(['10:15 MEDIUM']);
      expect(open[0]?.description).toContain('for any commenter (`permission: none`');
      expect(open[0]?.description).toContain('sent with `secrets.PAT`');
      expect(open[0]?.description).toContain('is expanded into the script of step 1 of job `publish`');
    });

    it('reads `gh workflow run` flags before the workflow and an expression naming this repository', () => {
      const flags = '      - run: gh workflow run --ref main --repo ${{ github.repository }} release.yml\n        env:\n          GH_TOKEN: ${{ github.token }}\n';
      const found = self([comment(flags), release()]);
      expect(positions(found)).toEqual(['10:14 LOW']);
      expect(found[0]?.description).toContain('starts workflow `release.yml`');
      expect(found[0]?.description).toContain('the dispatch sends no input they choose');
    });

    it('is LOW when the started workflow holds nothing or is not in the repository, saying what to check', () => {
      const nothing = self([comment(ghRun), harmless]);
      expect(positions(nothing)).toEqual(['10:14 LOW']);
      expect(nothing[0]?.description).toContain('holds nothing worth taking');
      const missing = self([comment(ghRun)]);
      expect(positions(missing)).toEqual(['10:14 LOW']);
      expect(missing[0]?.description).toContain('check what the workflow it starts holds');
    });

    it('reports nothing when a real gate stands in the way or the dispatch cannot start a run', () => {
      // The commenter's association checked on the job.
      expect(self([comment(ghRun, undefined, "    if: github.event.comment.author_association == 'MEMBER'\n"), release()])).toEqual([]);
      // A permission check of the actor that fails the job before the dispatch.
      const check = "      - uses: actions/github-script@v7\n        with:\n          script: |\n            const { data } = await github.rest.repos.getCollaboratorPermissionLevel({ ...context.repo, username: context.actor });\n            if (data.permission !== 'admin' && data.permission !== 'write') core.setFailed('no');\n";
      expect(self([comment(check + ghRun), release()])).toEqual([]);
      // A slash-command dispatcher that checks the commenter's write access.
      const gated = '      - uses: peter-evans/slash-command-dispatch@v4\n        with:\n          token: ${{ secrets.PAT }}\n          commands: release\n          permission: write\n          dispatch-type: workflow\n';
      expect(self([comment(gated), { ...release(), path: '.github/workflows/release-command.yml' }])).toEqual([]);
      // The job's own token without `actions: write`: the dispatch is refused.
      expect(self([comment(ghRun, 'on:\n  issue_comment:\n    types: [created]\npermissions:\n  contents: write\n'), release()])).toEqual([]);
      // A label is a maintainer's act.
      expect(self([comment(ghRun, 'on:\n  issues:\n    types: [labeled]\npermissions:\n  actions: write\n'), release()])).toEqual([]);
      // Another repository's workflow: not this repository's (untrusted-checkout's dispatch claim, when it carries a head).
      const other = '      - run: gh workflow run release.yml -R acme/other\n        env:\n          GH_TOKEN: ${{ secrets.PAT }}\n';
      expect(self([comment(other), release()])).toEqual([]);
      // A github-script dispatch to a repository computed at run time is not known to be this one.
      const computed = "      - uses: actions/github-script@v7\n        with:\n          script: |\n            for (const repo of ['a', 'b']) await github.rest.actions.createWorkflowDispatch({ owner: 'acme', repo, workflow_id: 'release.yml', ref: 'main' })\n";
      expect(self([comment(computed), release()])).toEqual([]);
    });
});

describe(`${RULE}: what the started workflow does with the values an outsider sends`, () => {
  /** An open `/release` slash command (any commenter) dispatching `release-command.yml` with its named arguments. */
  const slash = {
    path: '.github/workflows/slash.yml',
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
                token: \${{ secrets.BOT_PAT }}
                commands: release
                permission: none
                dispatch-type: workflow
    `,
  };
  /** The started workflow: its `workflow_dispatch` inputs, then a job that holds an npm token and runs `steps`. */
  const started = (inputs: string, steps: string, extra = '') => ({
    path: '.github/workflows/release-command.yml',
    text:
      `on:\n  workflow_dispatch:\n    inputs:\n${inputs.split('\n').map((l) => `      ${l}`).join('\n')}\n` +
      `jobs:\n  release:\n    runs-on: ubuntu-latest\n${extra}    environment: npm\n    steps:\n` +
      steps.split('\n').map((l) => `      ${l}`).join('\n') +
      '\n      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n',
  });
  const found = (files: { path: string; text: string }[]) => scanWith(RULE, files).filter((f) => f.file === '.github/workflows/slash.yml');

  it('is LOW when the inputs only pick among fixed values, naming what the outsider chooses', () => {
    const choice = started(
      'channel:\n  type: choice\n  options: [stable, beta]\npr:\n  type: string\ndry:\n  type: boolean',
      '- uses: actions/checkout@v3\n- if: inputs.dry == false\n  run: ./scripts/release.sh "$PR" ${{ inputs.channel }}\n  env:\n    PR: ${{ inputs.pr }}',
    );
    const [finding] = found([slash, choice]);
    expect(finding?.severity).toBe('LOW');
    const text = finding?.description ?? '';
    expect(text).toContain("`.github/workflows/release-command.yml` then runs the repository's own code with");
    expect(text).toContain('nothing of theirs runs there: what they send only picks among fixed values or is not read');
    expect(text).toContain('input `channel` (`type: choice`: one of `stable`, `beta`)');
    expect(text).toContain('input `pr`, which is a value (`$PR`) the script of step 2 of job `release` acts on');
    expect(text).toContain('input `dry` (`type: boolean`)');
    expect(text).toContain('they also choose the ref it runs on (the `ref=` argument of the command), which the dispatch API takes only as a branch or tag of this repository');
    expect(text).toContain('only the approval of environment `npm` stands in the way');
  });

  it('is LOW when a free-text input is only compared, checked first, handed to the API as a number, or never read', () => {
    const compared = started('channel: {}', "- if: inputs.channel == 'beta'\n  run: echo beta > .channel");
    expect(found([slash, compared])[0]?.description).toContain('input `channel`, which is compared in the `if:` of step 1 of job `release`');
    expect(found([slash, compared])[0]?.severity).toBe('LOW');
    const checked = started('pr: {}', '- run: \'[[ "$PR" =~ ^[0-9]+$ ]] || exit 1\'\n  env:\n    PR: ${{ inputs.pr }}\n- run: gh pr view ${{ inputs.pr }} --json mergedAt');
    const [validated] = found([slash, checked]);
    expect(validated?.severity).toBe('LOW');
    expect(validated?.description).toContain('is expanded into the script of step 2 of job `release` (line 13), but step 1 checks it against a pattern or an allow-list first');
    const api = started('pr: {}', '- uses: peter-evans/create-or-update-comment@v4\n  with:\n    issue-number: ${{ inputs.pr }}\n    body: Releasing');
    expect(found([slash, api])[0]?.severity).toBe('LOW');
    expect(found([slash, api])[0]?.description).toContain('is the `issue-number` step 1 of job `release` hands to the API');
    const environment = started('lang: {}', '- run: ./scripts/translate.py\n  env:\n    LANGUAGE: ${{ inputs.lang }}');
    expect(found([slash, environment])[0]?.severity).toBe('LOW');
    expect(found([slash, environment])[0]?.description).toContain('input `lang`, which is in the environment (`LANGUAGE`) of step 1 of job `release`, for the programs it runs');
    const unread = started('note: {}', '- run: echo hi');
    expect(found([slash, unread])[0]?.severity).toBe('LOW');
    expect(found([slash, unread])[0]?.description).toContain('input `note`, which no step names');
  });

  it('stays MEDIUM when an input reaches a script, code, a checkout, a publish or an action it cannot follow', () => {
    const cases: [string, string, string][] = [
      ['note: {}', '- run: echo "${{ inputs.note }}"', 'is expanded into the script of step 1 of job `release`'],
      ['ref: {}', '- uses: actions/checkout@v3\n  with:\n    ref: ${{ inputs.ref }}', 'is the `ref` step 1 of job `release` checks out'],
      ['pr:\n  type: number', '- run: gh pr checkout "$PR"\n  env:\n    PR: ${{ inputs.pr }}', 'names what step 1 of job `release` checks out or fetches (`$PR`)'],
      ['cmd: {}', '- run: eval "$CMD"\n  env:\n    CMD: ${{ inputs.cmd }}', 'is run as code by step 1 of job `release` (`$CMD`)'],
      ['tag: {}', '- run: npm publish --tag "$TAG"\n  env:\n    TAG: ${{ inputs.tag }}', 'is handed to the publish of step 1 of job `release` (`$TAG`)'],
      ['tag: {}', '- uses: softprops/action-gh-release@v2\n  with:\n    tag_name: ${{ inputs.tag }}', 'is input `tag_name` of the publish of step 1 of job `release` (line 12)'],
      ['tag: {}', '- uses: actions/publish-action@v0.4.0\n  with:\n    source-tag: ${{ inputs.tag }}', 'is input `source-tag` of the publish of step 1 of job `release` (line 12)'],
      ['title: {}', '- uses: acme/notify@v1\n  with:\n    title: ${{ inputs.title }}', 'is input `title` of `acme/notify` in step 1 of job `release` (line 12), which this scan does not follow'],
      ['ref: {}', '- run: pip install "tool @ git+https://github.com/acme/tool.git@$REF"\n  env:\n    REF: ${{ inputs.ref }}', 'names what step 1 of job `release` checks out or fetches (`$REF`)'],
      ['v: {}', '- run: echo "V=$V" >> "$GITHUB_ENV"\n  env:\n    V: ${{ inputs.v }}', 'is written to `$GITHUB_ENV` or `$GITHUB_PATH` by step 1 of job `release` (`$V`)'],
      ['hint: {}', '- run: |\n    cat > prompt.md <<EOF\n    Fix the flaky test. ${HINT:+Hint: $HINT}\n    EOF\n    claude -p "$(cat prompt.md)"\n  env:\n    HINT: ${{ inputs.hint }}', 'runs Claude Code (CLI), whose prompt or tools it reaches'],
      ['js: {}', '- uses: actions/github-script@v7\n  with:\n    script: console.log(`${{ inputs.js }}`)', 'is expanded into the `script` code of step 1 of job `release`'],
    ];
    for (const [inputs, steps, words] of cases) {
      const [finding] = found([slash, started(inputs, steps)]);
      expect(finding?.severity, steps).toBe('MEDIUM');
      expect(finding?.description, steps).toContain(`what they send reaches a sink there: \`.github/workflows/release-command.yml\`'s input \``);
      expect(finding?.description, steps).toContain(words);
    }
  });

  it('counts only the inputs the dispatch sets from what the outsider chooses', () => {
    const comment = (run: string) => ({
      path: '.github/workflows/slash.yml',
      text: `on:\n  issue_comment:\n    types: [created]\npermissions:\n  actions: write\njobs:\n  go:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ${run}\n        env:\n          GH_TOKEN: \${{ github.token }}\n          BODY: \${{ github.event.comment.body }}\n          BRANCH: \${{ github.event.repository.default_branch }}\n`,
    });
    const target = { ...started('note: {}\nchannel: {}', '- run: echo "${{ inputs.note }}" "${{ inputs.channel }}"'), path: '.github/workflows/release.yml' };
    // Constants of the dispatching workflow (a literal, the default branch) are not the outsider's: LOW.
    const [constant] = found([comment('gh workflow run release.yml --ref "$BRANCH" -f note=weekly -F channel="$BRANCH"'), target]);
    expect(constant?.severity).toBe('LOW');
    expect(constant?.description).toContain('the dispatch sends no input they choose');
    // The comment's text as one of them: MEDIUM, naming that one.
    const [fed] = found([comment('gh workflow run release.yml -f note=weekly -f channel="$BODY"'), target]);
    expect(fed?.severity).toBe('MEDIUM');
    expect(fed?.description).toContain("`.github/workflows/release.yml`'s input `channel` is expanded");
    // The REST path through `gh api`, with `inputs[...]` fields.
    const [api] = found([comment('gh api repos/{owner}/{repo}/actions/workflows/release.yml/dispatches -f ref=main -f "inputs[note]=$BODY"'), target]);
    expect(api?.severity).toBe('MEDIUM');
    expect(api?.description).toContain("input `note` is expanded");
  });

  it('follows an input into a reusable workflow of the repository', () => {
    const caller = (inputs: string) => ({
      path: '.github/workflows/release-command.yml',
      text: `on:\n  workflow_dispatch:\n    inputs:\n      ${inputs}\njobs:\n  call:\n    uses: ./.github/workflows/publish.yml\n    with:\n      note: \${{ inputs.note }}\n    secrets: inherit\n`,
    });
    const publish = (run: string) => ({
      path: '.github/workflows/publish.yml',
      text: `on:\n  workflow_call:\n    inputs:\n      note:\n        type: string\njobs:\n  p:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ${run}\n        env:\n          NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}\n`,
    });
    const [sink] = found([slash, caller('note: {}'), publish('echo "${{ inputs.note }}" && npm publish')]);
    expect(sink?.severity).toBe('MEDIUM');
    expect(sink?.description).toContain('is passed as input `note` to `.github/workflows/publish.yml` (line 9), where it is expanded into the script of step 1 of job `p`');
    const [value] = found([slash, caller('note: {}'), publish('./notes.sh "$NOTE" && npm publish')]);
    expect(value?.severity).toBe('LOW');
  });

  it('reads a repository dispatch by its `client_payload`', () => {
    const slashRepo = { path: '.github/workflows/slash.yml', text: slash.text.replace('dispatch-type: workflow', 'dispatch-type: repository') };
    const handler = (steps: string) => ({
      path: '.github/workflows/deploy.yml',
      text: `on:\n  repository_dispatch:\n    types: [release-command]\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n${steps}\n      - run: ./deploy.sh\n        env:\n          KEY: \${{ secrets.DEPLOY_KEY }}\n`,
    });
    const checkout = handler('      - uses: actions/checkout@v3\n        with:\n          ref: ${{ github.event.client_payload.pull_request.head.sha }}');
    const [head] = found([slashRepo, checkout]);
    expect(head?.severity).toBe('MEDIUM');
    expect(head?.description).toContain("`client_payload.pull_request` is the `ref` step 1 of job `d` checks out");
    const picked = handler("      - if: github.event.client_payload.slash_command.args.named.env == 'staging'\n        run: echo staging > .target");
    const [low] = found([slashRepo, picked]);
    expect(low?.severity).toBe('LOW');
    expect(low?.description).toContain('`client_payload.slash_command`, which is compared in the `if:` of step 1 of job `d`');
  });
});

describe(`${RULE}: a comment command whose permission check holds only on some comment activities (issue 25)`, () => {
  /** A `/backport` command: the slash-command action checks the commenter's permission, then a backport action runs with write scopes. */
  const backport = (on: string) => yaml`
    on:
      ${on}
    permissions: {}
    jobs:
      backport:
        if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/backport')
        runs-on: ubuntu-latest
        permissions:
          contents: write
          pull-requests: write
        steps:
          - uses: xt0rted/slash-command-action@v2
            with:
              command: backport
              reaction: 'true'
              permission-level: write
          - uses: actions/checkout@v3
          - uses: korthout/backport-action@v3
  `;

  it('is LOW on the trigger: on a deleted comment anyone starts the job holding write scopes, though nothing of theirs runs', () => {
    const found = scanWith(RULE, backport('issue_comment:'));
    expect(found.map((f) => f.severity)).toEqual(['LOW']);
    expect(found[0]?.description).toContain('`issue_comment`');
    expect(found[0]?.description).toContain('deleted');
    expect(found[0]?.description).toContain('contents: write');
    expect(found[0]?.description).toContain('nothing of theirs runs');
  });

  it('negative: with `types: [created]` the check holds on every occasion the workflow runs on', () => {
    expect(scanWith(RULE, backport('issue_comment:\n        types: [created]'))).toEqual([]);
  });

  it('follows the approval row for a label a later job removes when the run ends: LOW on the event\'s head SHA, naming the window', () => {
    const gate = "github.event.pull_request.head.repo.fork == true && contains(github.event.pull_request.labels.*.name, 'Approve E2E')";
    const workflow = (always: string) => yaml`
      on:
        pull_request_target:
          types: [labeled]
      permissions:
        contents: read
      jobs:
        e2e:
          if: \${{ github.event.pull_request.head.repo.fork == false || (${gate}) }}
          runs-on: ubuntu-latest
          strategy:
            matrix:
              include:
                - token: TOKEN_A
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make test
              env:
                TOKEN: \${{ secrets[matrix.token] }}
        unlabel:
          if: \${{ ${always}(${gate}) }}
          needs: e2e
          runs-on: ubuntu-latest
          steps:
            - run: gh api -X DELETE repos/\${{ github.repository }}/issues/\${{ github.event.number }}/labels/Approve%20E2E
              env:
                GH_TOKEN: \${{ github.token }}
    `;
    const removed = scanWith(RULE, workflow('always() && '));
    expect(removed.map((f) => f.severity)).toEqual(['LOW']);
    expect(removed[0]?.description).toContain('only when the run ends (step 1 of job `unlabel`): the label stays on until then, so a label event during the run');
    // Without always() the later job is skipped when the test fails: the label stays, as any later label event finds it.
    const kept = scanWith(RULE, workflow(''));
    expect(kept.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(kept[0]?.description).toContain('not the label the event adds');
  });

  it("judges each trigger by the jobs that run on it: a workflow_run job's artifact is not the pull_request_target run's doing", () => {
    const findings = scanWith(RULE, yaml`
      on:
        pull_request_target:
        workflow_run:
          workflows: [Benchmark]
          types: [completed]
      permissions:
        contents: read
      jobs:
        howto:
          if: github.event_name == 'pull_request_target'
          permissions: { pull-requests: write }
          runs-on: ubuntu-latest
          steps:
            - uses: marocchino/sticky-pull-request-comment@v2
              with:
                message: See the contributing guide.
        report:
          if: github.event_name == 'workflow_run'
          permissions: { pull-requests: write, actions: read }
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                github-token: \${{ github.token }}
                run-id: \${{ github.event.workflow_run.id }}
            - run: echo "pr=$(cat pr_number)" >> "$GITHUB_ENV"
            - run: cat report.md
    `);
    expect(positions(findings)).toEqual(['2:3 LOW', '3:3 MEDIUM']);
    expect(findings[0]?.description).toContain('no job runs the pull request\'s code');
    expect(findings[1]?.description).toContain('`$GITHUB_ENV`');
  });
});

describe('dangerous-trigger: a download that runs only on one of two privileged triggers', () => {
  const text = (downloadIf: string) => yaml`
    on:
      pull_request_target:
        types: [opened, synchronize]
      workflow_run:
        workflows: [Review trigger]
        types: [completed]
    permissions:
      contents: read
    jobs:
      labels:
        runs-on: ubuntu-latest
        permissions:
          pull-requests: write
        steps:
          - uses: actions/checkout@v3
            with:
              persist-credentials: false
              ref: \${{ github.event.pull_request.base.sha || github.sha }}
          - name: Download PR number
            if: ${downloadIf}
            uses: actions/download-artifact@v4
            with:
              name: pr-number
              run-id: \${{ github.event.workflow_run.id }}
              github-token: \${{ github.token }}
          - uses: actions/create-github-app-token@v2
            id: app
            with:
              app-id: \${{ vars.APP_ID }}
              private-key: \${{ secrets.APP_PRIVATE_KEY }}
          - run: ./.github/scripts/labels.sh
            env:
              GITHUB_TOKEN: \${{ steps.app.outputs.token }}
  `;
  const review = { path: '.github/workflows/review.yml', text: 'name: Review trigger\non: pull_request_review\njobs:\n  save:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n' };

  it("states it at the trigger it runs on, and names that trigger as the way in, never the other", () => {
    const findings = scanWith(RULE, [{ path: '.github/workflows/labels.yml', text: text("github.event_name == 'workflow_run'") }, review]);
    const byEvent = (event: string) => findings.find((f) => f.description.startsWith(`\`${event}\``));
    expect(byEvent('pull_request_target')?.severity).toBe('LOW');
    expect(byEvent('pull_request_target')?.description).not.toMatch(/Download PR number|labels\.sh/);
    expect(byEvent('workflow_run')?.severity).toBe('MEDIUM');
    expect(byEvent('workflow_run')?.description).toContain('start it through `workflow_run`');
    const token = scanWith('github-app-token-misuse', [{ path: '.github/workflows/labels.yml', text: text("github.event_name == 'workflow_run'") }, review]);
    expect(token.map((f) => f.description).join('\n')).toContain('start it through `workflow_run`');
    expect(token.map((f) => f.description).join('\n')).not.toContain('through `pull_request_target`');
  });

  it('keeps it at both triggers when the download runs on both', () => {
    const findings = scanWith(RULE, [{ path: '.github/workflows/labels.yml', text: text('always()') }, review]);
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM', 'MEDIUM']);
  });
});

describe(`${RULE}: a maintainer's command that dispatches the pull request by number or ref`, () => {
  // A member's `/test` comment starts another workflow with the pull request's ref; that run checks it out when it
  // starts, so commits pushed after the review run there under the approval.
  const command = (send: string, env = '') => ({
    path: '.github/workflows/test-command.yml',
    text: `on:\n  issue_comment:\n    types: [created]\npermissions:\n  actions: write\n  contents: read\njobs:\n  dispatch:\n    if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/test') && contains(fromJSON('["OWNER","MEMBER","COLLABORATOR"]'), github.event.comment.author_association)\n    runs-on: ubuntu-latest\n    steps:\n      - run: ${send}\n        env:\n          GH_TOKEN: \${{ github.token }}\n${env}`,
  });
  const tests = (steps: string, secrets = true) => ({
    path: '.github/workflows/gpu-tests.yml',
    text: `on:\n  workflow_dispatch:\n    inputs:\n      ref:\n        required: true\npermissions:\n  contents: read\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n        with:\n          ref: \${{ inputs.ref }}\n${steps}${secrets ? '        env:\n          HF_TOKEN: ${{ secrets.HF_TOKEN }}\n' : ''}`,
  });
  const runsTests = '      - run: pip install -e . && pytest\n';
  const found = (files: { path: string; text: string }[]) => scanWith(RULE, files).filter((f) => f.file === '.github/workflows/test-command.yml');

  it('is MEDIUM when the started run checks out `refs/pull/<n>/head` and runs it with a secret, naming the race', () => {
    const [finding, ...rest] = found([command('gh workflow run gpu-tests.yml -f ref=refs/pull/${{ github.event.issue.number }}/head'), tests(runsTests)]);
    expect(rest).toEqual([]);
    expect(finding?.severity).toBe('MEDIUM');
    const text = finding?.description ?? '';
    expect(text).toContain('starts `.github/workflows/gpu-tests.yml` (`workflow_dispatch`) with `gh workflow run`, handing it the pull request in input `ref` by its number');
    expect(text).toContain('a maintainer approves each run first');
    expect(text).toContain('is the `ref` step 1 of job `test` checks out (line 14)');
    expect(text).toContain('secret `HF_TOKEN`');
    expect(text).toContain('commits its author pushes after the maintainer\'s review run there under the approval');
    // The number through a variable of the step's environment, to a script checkout.
    const byNumber = found([
      command('gh workflow run gpu-tests.yml -f pr="$PR_NUMBER"', '          PR_NUMBER: ${{ github.event.issue.number }}\n'),
      { path: '.github/workflows/gpu-tests.yml', text: 'on:\n  workflow_dispatch:\n    inputs:\n      pr: {}\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n      - run: gh pr checkout "$PR" && make test\n        env:\n          PR: ${{ inputs.pr }}\n          GH_TOKEN: ${{ github.token }}\n          AWS_SECRET_ACCESS_KEY: ${{ secrets.AWS_SECRET_ACCESS_KEY }}\n' },
    ]);
    expect(byNumber.map((f) => f.severity)).toEqual(['MEDIUM']);
    // github-script's createWorkflowDispatch with the number the event's issue has.
    const script = {
      ...command('x'),
      text: command('x').text.replace(
        '      - run: x\n        env:\n          GH_TOKEN: ${{ github.token }}\n',
        "      - uses: actions/github-script@v7\n        with:\n          script: |\n            await github.rest.actions.createWorkflowDispatch({ ...context.repo, workflow_id: 'gpu-tests.yml', ref: 'main', inputs: { ref: `refs/pull/${context.issue.number}/head` } })\n",
      ),
    };
    expect(found([script, tests(runsTests)]).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('reports nothing when the dispatch sends a commit, the run runs nothing it checks out, or holds nothing', () => {
    // The head commit the maintainer's command names: the approval binds the code.
    expect(found([command('gh workflow run gpu-tests.yml -f ref=${{ steps.pr.outputs.head_sha }}'), tests(runsTests)])).toEqual([]);
    // The checkout is only uploaded: nothing of the pull request runs.
    expect(found([command('gh workflow run gpu-tests.yml -f ref=refs/pull/${{ github.event.issue.number }}/head'), tests('      - uses: actions/upload-artifact@v4\n        with:\n          path: docs/\n')])).toEqual([]);
    // No secret or write scope there: the policy's LOW, which this case does not report.
    expect(found([command('gh workflow run gpu-tests.yml -f ref=refs/pull/${{ github.event.issue.number }}/head'), tests(runsTests, false)])).toEqual([]);
    // Not a maintainer's approval but anyone's comment: the outsider case, reported as before (MEDIUM, a checkout sink).
    const open = { path: '.github/workflows/test-command.yml', text: 'on:\n  issue_comment:\n    types: [created]\npermissions:\n  actions: write\njobs:\n  dispatch:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh workflow run gpu-tests.yml -f ref=refs/pull/${{ github.event.issue.number }}/head\n        env:\n          GH_TOKEN: ${{ github.token }}\n' };
    const [anyone] = found([open, tests(runsTests)]);
    expect(anyone?.description).toContain('anyone with a GitHub account can start it');
    expect(anyone?.description).not.toContain('under the approval');
  });
});

describe('dangerous-trigger: an approval the code can change after', () => {
  const workflow = (ref: string) => yaml`
    on:
      pull_request_target:
        types: [labeled]
    permissions: { contents: read, id-token: write }
    jobs:
      build:
        if: github.event.label.name == 'run-preflight'
        runs-on: [self-hosted, preflight]
        steps:
          - id: pr
            env:
              GH_TOKEN: \${{ github.token }}
            run: echo "sha=$(gh pr view \${{ github.event.number }} --json headRefOid --jq .headRefOid)" >> "$GITHUB_OUTPUT"
          - uses: actions/checkout@v3
            with:
              ref: ${ref}
          - run: bash scripts/build.sh
  `;

  it('names the race when the head is read when the job runs, not when the label was given', () => {
    const found = scanWith('dangerous-trigger', workflow('${{ steps.pr.outputs.sha }}'));
    expect(found.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(found[0]?.description).toContain('a maintainer approves each run first');
    expect(found[0]?.description).toContain('and the code is taken when the job runs, not when the approval was given, so commits pushed after it run too');
    // Negative: the event's head SHA is the labelled commit: LOW, no race of this kind named.
    const pinned = scanWith('dangerous-trigger', workflow('${{ github.event.pull_request.head.sha }}'));
    expect(pinned.map((f) => f.severity)).toEqual(['LOW']);
    expect(pinned[0]?.description).not.toContain('the code is taken when the job runs');
  });
});
