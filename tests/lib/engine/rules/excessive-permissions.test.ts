import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';
import { findCombinations } from '../../../../lib/engine/combinations/index.js';
import { scanRepository } from '../../../../lib/engine/scan.js';

const RULE = 'excessive-permissions';

describe(RULE, () => {
  it('reads a run: that YAML types as a number (a fuzzing counterexample threw here)', () => {
    const findings = scanWith(RULE, 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: write\n    steps:\n    - run: 5\n');
    expect(findings.map((f) => f.severity)).toEqual(['LOW']);
  });

  it('reports a workflow-level write scope that some job provably does not use, naming it, bound to no job (LOW: not armed)', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      permissions:
        contents: write
        issues: read
        pull-requests: write
      jobs:
        test:
          runs-on: ubuntu-latest
          steps: [{ uses: actions/checkout@v3 }, { run: npm ci && npm test }]
        release:
          runs-on: ubuntu-latest
          steps: [{ uses: actions/checkout@v3 }, { run: git tag v1 && git push --tags }]
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 LOW', '5:3 LOW']);
    expect(records.map((r) => r.job)).toEqual([null, null]);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('and job `test` does not need it');
    expect(records[0]?.finding.description).toContain('LOW: the job that does not need it runs no outsider\'s code');
    // Every job uses what it inherits: nothing is wider than needed.
    expect(scanWith(RULE, yaml`
      on: push
      permissions:
        contents: write
      jobs:
        tag:
          runs-on: ubuntu-latest
          steps: [{ uses: actions/checkout@v3 }, { run: git tag v1 && git push --tags }]
        release:
          runs-on: ubuntu-latest
          steps: [{ uses: softprops/action-gh-release@v2 }]
    `)).toEqual([]);
  });

  describe('scopes a documented option or environment uses', () => {
    const job = (perms: string, steps: string, env = '') => yaml`
      on: push
      jobs:
        main:
          runs-on: ubuntu-latest
          permissions: ${perms}
          ${env}
          steps:
            - uses: actions/checkout@v3
              with: { persist-credentials: false }
            ${steps}
    `;
    it('actions/stale with delete-branch uses contents: write; without it, contents: write is unused', () => {
      const stale = (withs: string) => scanWith(RULE, job('{ contents: write, issues: write, pull-requests: write }', `- uses: actions/stale@v9\n              with: ${withs}`));
      expect(stale('{ delete-branch: true }')).toEqual([]);
      expect(stale('{ delete-branch: "${{ inputs.delete }}" }')).toEqual([]);
      for (const withs of ['{ days-before-stale: 30 }', '{ delete-branch: false }']) {
        const found = stale(withs);
        expect(found.map((f) => f.severity), withs).toEqual(['LOW']);
        expect(found[0]?.description).toContain('grants `contents: write` that its steps never use');
      }
    });

    it('an npm publish with provenance (flag or NPM_CONFIG_PROVENANCE) uses id-token: write; other steps do not', () => {
      expect(scanWith(RULE, job('{ id-token: write }', '- run: npm publish --provenance --access public'))).toEqual([]);
      expect(scanWith(RULE, job('{ id-token: write }', '- run: npm run release', 'env: { NPM_CONFIG_PROVENANCE: true }'))).toEqual([]);
      expect(scanWith(RULE, job('{ id-token: write }', '- run: NPM_CONFIG_PROVENANCE=true pnpm run release'))).toEqual([]);
      expect(scanWith(RULE, job('{ id-token: write, contents: write, pull-requests: write }', '- uses: changesets/action@v1\n              with: { publish: pnpm release }\n              env: { NPM_CONFIG_PROVENANCE: "true" }'))).toEqual([]);
      // changesets/action's publish command runs npm publish, whose trusted publishing (npm 11.5+) takes the OIDC token.
      expect(scanWith(RULE, job('{ id-token: write, contents: write, pull-requests: write }', '- uses: changesets/action@v1\n              with: { publish: pnpm release }'))).toEqual([]);
      // negative: provenance set where nothing publishes, or provenance turned off.
      for (const [steps, env] of [['- run: npm test', 'env: { NPM_CONFIG_PROVENANCE: true }'], ['- run: npm run release', 'env: { NPM_CONFIG_PROVENANCE: false }']] as const) {
        const found = scanWith(RULE, job('{ id-token: write }', steps, env));
        expect(found.map((f) => f.description.includes('grants `id-token: write` that its steps never use')), steps).toEqual([true]);
      }
    });
  });

  it("a project task named for tagging, deploying or uploading may use the checkout's credentials or the OIDC token", () => {
    const job = (permissions: string, run: string) => yaml`
      on: push
      jobs:
        release:
          runs-on: ubuntu-latest
          permissions: ${permissions}
          steps:
            - uses: actions/checkout@v3
            - uses: prefix-dev/setup-pixi@v0.10.1
            - run: ${run}
    `;
    expect(scanWith(RULE, job('{ contents: write }', 'pixi run -e release create-tag --tag "$TAG"'))).toEqual([]);
    expect(scanWith(RULE, job('{ contents: write }', 'pixi run deploy-latest'))).toEqual([]);
    expect(scanWith(RULE, job('{ id-token: write }', 'pixi run -e backends-release upload-packages conda-packages'))).toEqual([]);
    expect(scanWith(RULE, job('{ id-token: write }', 'make publish'))).toEqual([]);
    // A task named for something else uses neither.
    expect(scanWith(RULE, job('{ contents: write }', 'pixi run test')).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith(RULE, job('{ id-token: write }', 'pixi run lint')).map((f) => f.severity)).toEqual(['LOW']);
    // An option's value is no task: an environment named for releases that builds.
    expect(scanWith(RULE, job('{ id-token: write }', 'pixi run -e backends-release build-backend-packages linux-64')).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith(RULE, job('{ contents: write }', 'make -C release-notes test')).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('reports the only job\'s unneeded grant as "not needed", not "every job gets it"', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      permissions:
        contents: write
      jobs:
        single:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with: { persist-credentials: false }
    `);
    expect(positions(findings)).toEqual(['3:3 LOW']);
    expect(findings[0]?.description).toContain('to its only job `single`, which does not need it');
    expect(findings[0]?.description).not.toContain('every job');
  });

  it('counts a docker:// action handed the job token as a use of its write scopes, and one handed nothing as none', () => {
    const workflow = (input: string) => yaml`
      on: schedule
      permissions:
        pull-requests: write
      jobs:
        label:
          runs-on: ubuntu-latest
          steps:
            - uses: docker://example/label-approved:0.0.4
              with:
${input}
    `;
    expect(scanWith(RULE, workflow('                token: ${{ secrets.GITHUB_TOKEN }}'))).toEqual([]);
    expect(scanWith(RULE, workflow('                token: ${{ github.token }}'))).toEqual([]);
    expect(positions(scanWith(RULE, workflow('                config: "{}"')))).toEqual(['3:3 LOW']);
  });

  it('is HIGH for contents, id-token, packages and actions write only when an outsider\'s code runs with them', () => {
    const workflow = (b: string) => yaml`
      on: pull_request_target
      permissions:
        contents: write
        id-token: write
        packages: write
        actions: write
        issues: write
      jobs:
        a: { runs-on: x, steps: [{ run: a }] }
        b: { runs-on: x, steps: [{ run: '${b}' }] }
    `;
    const findings = scanWith(RULE, workflow('echo "${{ github.event.pull_request.title }}"'));
    // `issues: write` hands over no code, but the outsider's text runs in a script beside it: MEDIUM (issue 25).
    expect(positions(findings)).toEqual(['3:3 HIGH', '4:3 HIGH', '5:3 HIGH', '6:3 HIGH', '7:3 MEDIUM']);
    expect(findings[0]?.description).toContain('step 1 of job `b` (line 10) expands `github.event.pull_request.title` into its script');
    expect(findings[0]?.description).toContain('anyone with a GitHub account can start it through `pull_request_target`');
    // No job runs outsider code or text (terraform's equivalence-test-update, on `closed`): wider than needed, not armed.
    const unarmed = scanWith(RULE, workflow('echo "${{ github.event.pull_request.merged }}"'));
    expect(positions(unarmed)).toEqual(['3:3 LOW', '4:3 LOW', '5:3 LOW', '6:3 LOW', '7:3 LOW']);
    expect(unarmed[0]?.description).toContain('the grant is wider than needed, not armed');
  });

  it('needs a code sink: a pull request checkout that no step runs is not HIGH', () => {
    const workflow = (run: string) => yaml`
      on: pull_request_target
      permissions:
        contents: write
      jobs:
        check:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
              with: { ref: '\${{ github.event.pull_request.head.sha }}' }
            - run: ${run}
        notify:
          runs-on: x
          steps: [{ run: echo done }]
    `;
    const armed = scanWith(RULE, workflow('npm ci'));
    expect(positions(armed)).toEqual(['3:3 HIGH']);
    expect(armed[0]?.description).toContain("runs `npm ci` from the pull request's checkout");
    expect(positions(scanWith(RULE, workflow('ls -la')))).toEqual(['3:3 LOW']);
  });

  it('reports write-all at workflow level (unbound) and at job level (bound to the job): HIGH only with outsider code', () => {
    const records = recordsWith(RULE, yaml`
      on: issue_comment
      permissions: write-all
      jobs:
        a:
          runs-on: x
          steps: [{ run: 'echo "\${{ github.event.comment.body }}"' }]
        b:
          runs-on: x
          permissions: write-all
          steps: [{ run: b }]
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['2:14 HIGH', '9:18 LOW']);
    expect(records.map((r) => r.job)).toEqual([null, 'b']);
    expect(records[0]?.finding.description).toContain('expands `github.event.comment.body` into its script');
    const push = scanWith(RULE, yaml`
      on: push
      jobs:
        status:
          runs-on: x
          permissions: write-all
          steps: [{ run: b }]
    `);
    expect(positions(push)).toEqual(['5:18 LOW']);
    expect(push[0]?.description).toContain('not armed');
  });

  it('reports a job\'s own write grant its steps never use (a test job, a comment bot given contents: write) LOW', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      permissions: {}
      jobs:
        comment:
          runs-on: x
          permissions:
            contents: write
            pull-requests: write
          steps:
            - uses: peter-evans/create-or-update-comment@v4
              with: { issue-number: '\${{ github.event.pull_request.number }}', body: Thanks }
        test:
          runs-on: x
          permissions:
            contents: write
          steps: [{ uses: actions/checkout@v3 }, { run: make test }]
        label:
          runs-on: x
          permissions:
            pull-requests: write
          steps: [{ run: gh pr edit "$N" --add-label x, env: { GH_TOKEN: '\${{ github.token }}', N: '\${{ github.event.number }}' } }]
        release:
          runs-on: x
          permissions:
            contents: write
          steps: [{ uses: actions/checkout@v3 }, { run: make release }]
        other:
          runs-on: x
          permissions: read-all
          steps: [{ run: b }]
    `);
    expect(positions(findings)).toEqual(['7:7 LOW', '15:7 LOW']);
    expect(findings[0]?.description).toContain('Job `comment` grants `contents: write` that its steps never use');
  });

  it("takes an action in a sub-directory by its own entry: release-drafter's autolabeler writes pull requests, its parent only reads them", () => {
    const workflow = (action: string) => yaml`
      on: pull_request_target
      permissions: {}
      jobs:
        label:
          runs-on: ubuntu-latest
          permissions:
            contents: read
            pull-requests: write
          steps:
            - uses: ${action}@5de93583980a40bd78603b6dfdcda5b4df377b32
              env: { GITHUB_TOKEN: '\${{ secrets.GITHUB_TOKEN }}' }
    `;
    expect(scanWith(RULE, workflow('release-drafter/release-drafter/autolabeler'))).toEqual([]);
    expect(positions(scanWith(RULE, workflow('release-drafter/release-drafter')))).toEqual(['8:7 LOW']);
  });

  it("counts the write scopes an action needs for an input, an event or a version: release-drafter's own autolabeler before v7, a semantic title check's `wip` status", () => {
    const drafter = (on: string, ref: string, extra = '') => yaml`
      on: ${on}
      jobs:
        draft:
          runs-on: ubuntu-latest
          permissions:
            contents: write
            pull-requests: write
          steps:
            - uses: release-drafter/release-drafter@${ref}
              env: { GITHUB_TOKEN: '\${{ secrets.GITHUB_TOKEN }}' }${extra}
    `;
    // v5 on pull_request labels the pull request with its configuration's autolabeler: the grant is used.
    expect(scanWith(RULE, drafter('[push, pull_request]', 'v5'))).toEqual([]);
    // Not on push alone, not with the autolabeler turned off, not at v7 (the sub-action labels there).
    expect(positions(scanWith(RULE, drafter('push', 'v5')))).toEqual(['7:7 LOW']);
    expect(positions(scanWith(RULE, drafter('pull_request', 'v5', "\n              with: { disable-autolabeler: true }")))).toEqual(['7:7 LOW']);
    expect(positions(scanWith(RULE, drafter('pull_request', 'v7')))).toEqual(['7:7 LOW']);

    const title = (wip: string) => yaml`
      on: pull_request_target
      jobs:
        title:
          runs-on: ubuntu-latest
          permissions:
            pull-requests: read
            statuses: write
          steps:
            - uses: amannn/action-semantic-pull-request@v6
              env: { GITHUB_TOKEN: '\${{ secrets.GITHUB_TOKEN }}' }
              with: { wip: ${wip} }
    `;
    expect(scanWith(RULE, title('true'))).toEqual([]);
    expect(scanWith(RULE, title('false')).map((f) => f.description).join()).toContain('statuses');

    // An input given by an expression counts when a string it may give matches (or it names none).
    const review = (value: string) => yaml`
      on: pull_request
      jobs:
        review:
          runs-on: ubuntu-latest
          permissions:
            contents: read
            pull-requests: write
          steps:
            - uses: actions/dependency-review-action@v4
              with:
                comment-summary-in-pr: ${value}
    `;
    expect(scanWith(RULE, review("${{ github.repository_owner == 'acme' && 'on-failure' || 'never' }}"))).toEqual([]);
    expect(scanWith(RULE, review('${{ inputs.comment }}'))).toEqual([]);
    expect(positions(scanWith(RULE, review("${{ github.repository_owner == 'acme' && 'never' || 'never' }}")))).toEqual(['7:7 LOW']);
  });

  it("counts codecov-action's `use_oidc` (true, or an expression that may be) as a use of `id-token: write`", () => {
    const workflow = (value: string) => yaml`
      on: push
      permissions: {}
      jobs:
        test:
          runs-on: ubuntu-latest
          permissions:
            contents: read
            id-token: write
          steps:
            - uses: codecov/codecov-action@v5
              with:
                files: ./coverage.xml
                use_oidc: ${value}
    `;
    expect(scanWith(RULE, workflow('true'))).toEqual([]);
    expect(scanWith(RULE, workflow("${{ !(github.event_name == 'pull_request' && github.event.pull_request.head.repo.fork) }}"))).toEqual([]);
    expect(positions(scanWith(RULE, workflow('false')))).toEqual(['8:7 LOW']);
  });

  it('treats the block as the job\'s own when a single job inherits it and uses it', () => {
    expect(scanWith(RULE, yaml`
      on: push
      permissions:
        contents: write
      jobs:
        release:
          runs-on: x
          steps: [{ run: make release }]
        lint:
          runs-on: x
          permissions: {}
          steps: [{ run: make lint }]
    `)).toEqual([]);
  });

  it('leaves grants that call jobs pass on as the ceiling of reusable workflows', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request
      permissions:
        contents: read
        pull-requests: write
      jobs:
        build:
          uses: ./.github/workflows/build.yml
        size:
          uses: ./.github/workflows/size-limit.yml
    `)).toEqual([]);
    // One job running steps beside the calls, which does not use the grant: not needed there.
    expect(scanWith(RULE, yaml`
      on: pull_request
      permissions:
        pull-requests: write
      jobs:
        build:
          uses: ./.github/workflows/build.yml
        check:
          runs-on: x
          steps: [{ run: make check }]
    `).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('says nothing about a single-job workflow whose job uses its privileged grant', () => {
    expect(scanWith(RULE, yaml`
      on: issue_comment
      permissions:
        contents: write
        id-token: write
      jobs:
        fix:
          runs-on: x
          steps:
            - uses: aws-actions/configure-aws-credentials@v4
              with: { role-to-assume: arn:aws:iam::1:role/x }
            - run: make fix && git push
    `)).toEqual([]);
  });

  it('ignores workflow-level grants that every job overrides', () => {
    expect(scanWith(RULE, yaml`
      on: push
      permissions: write-all
      jobs:
        a: { runs-on: x, permissions: {}, steps: [{ run: a }] }
        b: { runs-on: x, permissions: { contents: read }, steps: [{ run: b }] }
    `)).toEqual([]);
  });

  it('leaves the narrow grants of a reusable workflow to its caller', () => {
    expect(scanWith(RULE, yaml`
      on: workflow_call
      permissions:
        contents: write
      jobs:
        a: { runs-on: x, steps: [{ run: a }] }
        b: { runs-on: x, steps: [{ run: b }] }
    `)).toEqual([]);
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, 'on: push\npermissions: [contents]\njobs:\n  a: { runs-on: x, permissions: 3, steps: [] }\n  b: { runs-on: x }\n')).toEqual([]);
    expect(scanWith(RULE, 'on: push\npermissions: ${{ inputs.p }}\njobs: {}\n')).toEqual([]);
  });
});

describe(`${RULE}: a job's own write grant next to a pull request checkout`, () => {
  const prt = (permissions: string, condition = '') => yaml`
    on: pull_request_target
    permissions: {}
    jobs:
      build:
        runs-on: ubuntu-latest
        ${condition}
        permissions:
          contents: read
          ${permissions}
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.sha }}
              persist-credentials: false
          - run: npm ci && npm test
  `;

  it('reports job-level id-token or packages write in a pull_request_target job that checks out fork code (HIGH, bound to the job)', () => {
    for (const scope of ['id-token', 'packages']) {
      const records = recordsWith(RULE, prt(`${scope}: write`));
      expect(records.map((r) => `${r.finding.severity} ${r.job}`)).toEqual(['HIGH build']);
      expect(records[0]?.finding.description).toContain(`\`${scope}: write\``);
      expect(records[0]?.finding.description).toContain('pull_request_target');
    }
  });

  it('is only "not needed" without the checkout or under a same-repository gate; another scope unused beside the fork\'s code is MEDIUM', () => {
    expect(scanWith(RULE, prt('id-token: write').replace(/ref: .*\n/, '')).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith(RULE, prt('id-token: write', 'if: github.event.pull_request.head.repo.full_name == github.repository')).map((f) => f.severity)).toEqual(['LOW']);
    // A scope that hands over no code, unused beside the fork's code running: MEDIUM, that code can use it (issue 25).
    expect(scanWith(RULE, prt('pull-requests: write')).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('forms a CRITICAL pwn-request with the untrusted checkout', () => {
    const records = scanRepository([{ path: '.github/workflows/pr.yml', text: prt('id-token: write') }]).records;
    const paths = findCombinations(records, () => true).filter((c) => c.id === 'pwn-request');
    expect(paths.map((c) => `${c.severity} ${c.components.map((k) => k.rule_id).join(',')}`)).toEqual(['CRITICAL untrusted-checkout,excessive-permissions']);
  });
});

describe(`${RULE}: a maintainer's approval in front of the checkout`, () => {
  it('is MEDIUM for a job grant whose pull request checkout waits for a maintainer comment (the code can change after it)', () => {
    expect(scanWith(RULE, yaml`
      on:
        issue_comment:
          types: [created]
      permissions: {}
      jobs:
        fix:
          if: github.event.issue.pull_request != null && contains(fromJSON('["OWNER", "MEMBER"]'), github.event.comment.author_association)
          runs-on: ubuntu-latest
          permissions:
            contents: write
          steps:
            - run: gh pr checkout \${{ github.event.issue.number }}
            - run: npm ci && npm run fix
    `).map((f) => f.severity)).toEqual(['MEDIUM']);
  });
});

describe('excessive-permissions: a workflow-level grant of the only job that checks out fork code', () => {
  const workflow = (gate: string) => yaml`
    on:
      pull_request_target:
        types: [labeled]
    permissions:
      contents: write
    jobs:
      test:
        ${gate}
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with:
              ref: refs/pull/\${{ github.event.pull_request.number }}/merge
          - run: npm ci && npm test && git push
  `;

  it('is MEDIUM (a maintainer\'s label comes first, but the merge ref can move after it), even when the job uses it', () => {
    const findings = scanWith('excessive-permissions', workflow('timeout-minutes: 10'));
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(findings[0]?.description).toContain("runs `npm ci` from the pull request's checkout");
    expect(scanWith('excessive-permissions', workflow("if: github.event.label.name == 'safe to test'")).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('is HIGH when anyone can start it', () => {
    const findings = scanWith('excessive-permissions', workflow('timeout-minutes: 10').replace('types: [labeled]', 'types: [opened, synchronize]'));
    expect(findings.map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('reads which API families a github-script calls for the other write scopes, and says when anyone starts the job', () => {
    const workflow = (script: string) => yaml`
      on:
        issue_comment:
          types: [created]
      jobs:
        label:
          runs-on: ubuntu-latest
          permissions:
            issues: write
            checks: write
            deployments: write
          steps:
            - uses: actions/github-script@v7
              with:
                script: |
                  ${script}
    `;
    const [labels] = scanWith(RULE, workflow("await github.rest.issues.addLabels({ ...context.repo, issue_number: context.issue.number, labels: ['triage'] })"));
    expect(labels?.severity).toBe('LOW');
    expect(labels?.description).toContain('grants `checks: write`, `deployments: write` that its steps never use');
    expect(labels?.description).toContain('Anyone with a GitHub account can start it through `issue_comment`');
    // A check run uses `checks`; a raw request may use anything.
    expect(scanWith(RULE, workflow("await github.rest.checks.create({ ...context.repo, name: 'x', head_sha: context.sha })"))[0]?.description).toContain('grants `issues: write`, `deployments: write` that');
    expect(scanWith(RULE, workflow("await github.request('POST /repos/{owner}/{repo}/deployments', context.repo)"))).toEqual([]);
    // write-all says it too; a push-started job's does not.
    const all = (on: string) => scanWith(RULE, `on: ${on}\npermissions: write-all\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n`)[0]?.description ?? '';
    expect(all('issues')).toContain('Anyone with a GitHub account can start it through `issues`, so every step that handles their text does so holding the grant. LOW');
    expect(all('push')).not.toContain('Anyone');
  });

  it('takes a `git push` a github-script runs (with the credentials a checkout left) as a use of `contents: write`', () => {
    const workflow = (script: string) => yaml`
      on:
        push:
          branches: [main]
      permissions:
        contents: write
      jobs:
        sync:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/github-script@v7
              with:
                script: |
                  ${script}
    `;
    expect(scanWith(RULE, workflow('await exec.exec(`git push --force --set-upstream origin HEAD:${branch}`);'))).toEqual([]);
    expect(scanWith(RULE, workflow("await exec.exec('git', ['push', 'origin', 'HEAD:sync']);"))).toEqual([]);
    // Committing alone writes nothing with the token.
    expect(scanWith(RULE, workflow("await exec.exec('git', ['commit', '-m', 'sync']);")).map((f) => f.severity)).toEqual(['LOW']);
  });
});

describe(`${RULE}: unused grants of a job an outsider's text can steer (issue 25)`, () => {
  const job = (on: string, condition: string, permissions: string, steps: string) => yaml`
    on:
      ${on}
    jobs:
      bot:
        if: ${condition}
        runs-on: ubuntu-latest
        permissions:
          ${permissions}
        steps:
          ${steps}
  `;
  const CLAUDE = (extra = '') => `- uses: anthropics/claude-code-action@v1
            with:
              anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}${extra}`;
  const GEMINI = `- uses: google-github-actions/run-gemini-cli@v0
            env:
              ISSUE_BODY: \${{ github.event.issue.body }}
            with:
              gemini_api_key: \${{ secrets.GEMINI_API_KEY }}
              prompt: Label this issue`;
  const COMMENT = 'issue_comment: { types: [created] }';
  const MEMBER = "contains(fromJSON('[\"OWNER\", \"MEMBER\"]'), github.event.comment.author_association)";

  it('is MEDIUM for write scopes an issue-started agent with a shell is never handed, naming the agent and who starts it', () => {
    const findings = scanWith(RULE, job('issues: { types: [opened] }', 'true', 'contents: write\n          pull-requests: write', GEMINI));
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(findings[0]?.description).toContain('`contents: write`, `pull-requests: write` that its steps never use');
    expect(findings[0]?.description).toContain('runs Gemini CLI, an agent with a shell, on `issues`');
    expect(findings[0]?.description).toContain('anyone with a GitHub account can start it through `issues`');
  });

  it('is MEDIUM when a maintainer starts the agent: the thread it reads is still an outsider\'s', () => {
    const findings = scanWith(RULE, job(COMMENT, MEMBER, 'contents: write', GEMINI));
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(findings[0]?.description).toContain('runs Gemini CLI, an agent with a shell, on `issue_comment`');
  });

  it('negative: Claude Code holds the job\'s token without being handed it (its action.yml reads `github.token`)', () => {
    expect(scanWith(RULE, job(COMMENT, MEMBER, 'contents: write', CLAUDE('\n              claude_args: --allowedTools Bash')))).toEqual([]);
    expect(scanWith(RULE, job(COMMENT, 'true', 'contents: write\n          pull-requests: write', CLAUDE()))).toEqual([]);
  });

  it('names the agent that takes the token only to read with it, instead of saying it is handed to nothing', () => {
    const codex = `- uses: openai/codex-action@v1
            with:
              openai-api-key: \${{ secrets.OPENAI_API_KEY }}
              prompt: Summarise the release notes
              sandbox: read-only`;
    const findings = scanWith(RULE, job("schedule: [{ cron: '0 0 * * *' }]", 'true', 'contents: write', codex));
    expect(findings.map((f) => f.severity)).toEqual(['LOW']);
    expect(findings[0]?.description).toContain('hand the token only to openai/codex-action (its write-access check');
    expect(findings[0]?.description).not.toContain('to nothing');
    // Nothing takes it: said so.
    const bare = scanWith(RULE, job("schedule: [{ cron: '0 0 * * *' }]", 'true', 'contents: write', '- run: make test'));
    expect(bare[0]?.description).toContain('hand the token to nothing');
  });

  it('is MEDIUM for an unused grant beside an outsider\'s text expanded into a script', () => {
    const steps = `- uses: actions/labeler@v5
          - run: echo "\${{ github.event.issue.title }}" > title.txt`;
    const findings = scanWith(RULE, job('issues: { types: [opened] }', 'true', 'issues: write\n          pull-requests: write\n          checks: write', steps));
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(findings[0]?.description).toContain('`checks: write` that its steps never use');
    expect(findings[0]?.description).toContain('expands `github.event.issue.title` into its script');
  });

  it('is MEDIUM for an unused grant beside an outsider\'s text expanded into the code of actions/github-script; LOW when it goes through env:', () => {
    const script = (title: string, env = '') => `- uses: actions/github-script@v7${env}
            with:
              script: |
                const title = ${title};
                await github.rest.issues.addLabels({ ...context.repo, issue_number: context.issue.number, labels: [title.slice(0, 10)] })`;
    const injected = scanWith(RULE, job('issues: { types: [opened] }', 'true', 'contents: write\n          issues: write', script('"${{ github.event.issue.title }}"')));
    expect(injected.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(injected[0]?.description).toContain('grants `contents: write` that its steps never use');
    expect(injected[0]?.description).toContain('expands `github.event.issue.title` into the code its action runs; anyone with a GitHub account can start it through `issues`');
    // Read from the environment: data, not code.
    const safe = scanWith(RULE, job('issues: { types: [opened] }', 'true', 'contents: write\n          issues: write', script('process.env.TITLE', '\n            env:\n              TITLE: ${{ github.event.issue.title }}')));
    expect(safe.map((f) => f.severity)).toEqual(['LOW']);
    expect(safe[0]?.description).toContain('Anyone with a GitHub account can start it through `issues`');
    // Only a member's comment reaches it, and the text is the comment's number: nothing an outsider writes.
    const number = scanWith(RULE, job(COMMENT, MEMBER, 'contents: write\n          issues: write', script('"${{ github.event.issue.number }}"')));
    expect(number.map((f) => f.severity)).toEqual(['LOW']);
  });

  it('says a workflow-level grant\'s job is started by anyone (an issue), and not for a push', () => {
    const workflow = (on: string) => yaml`
      on:
        ${on}
      permissions:
        contents: write
        issues: write
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/labeler@v5
    `;
    // Line 4 is `contents: write`; actions/labeler does not use `issues` either (line 5).
    const issue = scanWith(RULE, workflow('issues: { types: [opened] }'));
    expect(issue.map((f) => `${f.line} ${f.severity}`)).toEqual(['4 LOW', '5 LOW']);
    expect(issue[0]?.description).toContain('`contents: write` is granted at workflow level to its only job `triage`, which does not need it');
    expect(issue[0]?.description).toContain('Anyone with a GitHub account can start it through `issues`, so every step that handles their text does so holding the grant. LOW');
    const push = scanWith(RULE, workflow('push'));
    expect(push.map((f) => `${f.line} ${f.severity}`)).toEqual(['4 LOW', '5 LOW']);
    expect(push[0]?.description).not.toContain('Anyone');
  });

  it('is MEDIUM for a workflow-level grant that an agent-running job inherits and does not need', () => {
    const findings = scanWith(RULE, yaml`
      on:
        issues:
          types: [opened]
      permissions:
        contents: write
        id-token: write
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - uses: google-github-actions/run-gemini-cli@v0
              with:
                prompt: Label this issue
    `);
    // `id-token` is the agent's own (it reaches its model or its app's token through OIDC); `contents` is not.
    expect(findings.map((f) => `${f.line} ${f.severity}`)).toEqual(['5 MEDIUM']);
    expect(findings[0]?.description).toContain('`contents: write` is granted at workflow level to its only job `triage`, which does not need it');
  });

  it('negative: an agent handed the job\'s token may use its scopes (agent-untrusted-input reports the agent)', () => {
    expect(scanWith(RULE, job(COMMENT, 'true', 'contents: write', CLAUDE('\n              github_token: ${{ secrets.GITHUB_TOKEN }}\n              claude_args: --allowedTools Bash')))).toEqual([]);
    const handed = GEMINI.replace('ISSUE_BODY:', 'GITHUB_TOKEN: ${{ github.token }}\n              ISSUE_BODY:');
    expect(scanWith(RULE, job('issues: { types: [opened] }', 'true', 'contents: write', handed))).toEqual([]);
  });

  it('negative: keeps today\'s LOW without a shell, on a trigger no outsider writes into, or without their text in a script', () => {
    // Gemini CLI restricted to an allowlist of tools.
    const restricted = `${GEMINI}\n              settings: '{"tools": {"core": ["read_file"]}}'`;
    expect(scanWith(RULE, job('issues: { types: [opened] }', 'true', 'contents: write', restricted)).map((f) => f.severity)).toEqual(['LOW']);
    // A schedule: nobody outside writes the text it reads.
    expect(scanWith(RULE, job("schedule: [{ cron: '0 0 * * *' }]", 'true', 'contents: write', GEMINI)).map((f) => f.severity)).toEqual(['LOW']);
    // The title passed through env:, not expanded into the script.
    const safe = `- uses: actions/labeler@v5
          - run: echo "$TITLE" > title.txt
            env:
              TITLE: \${{ github.event.issue.title }}`;
    expect(scanWith(RULE, job('issues: { types: [opened] }', 'true', 'issues: write\n          checks: write', safe)).map((f) => f.severity)).toEqual(['LOW']);
  });
});

describe(`${RULE}: publishing with OIDC and pushing to GitHub's container registry use their scopes`, () => {
  const job = (permissions: string, steps: string) => yaml`
    on:
      push:
        branches: [main]
    env:
      REGISTRY: ghcr.io
    jobs:
      ship:
        runs-on: ubuntu-latest
        permissions:
${permissions}
        steps:
${steps}
  `;

  it('does not call id-token unused where a step publishes with OIDC', () => {
    const perms = '          contents: write\n          pull-requests: write\n          id-token: write';
    expect(scanWith(RULE, job(perms, `          - uses: actions/checkout@v3
          - uses: changesets/action@v1
            with:
              publish: pnpm exec changeset publish`))).toEqual([]);
    expect(scanWith(RULE, job('          id-token: write', `          - uses: actions/checkout@v3
          - uses: js-devtools/npm-publish@v4`))).toEqual([]);
    expect(scanWith(RULE, job('          contents: write\n          id-token: write', `          - uses: actions/checkout@v3
          - uses: sigstore/cosign-installer@v3
          - uses: goreleaser/goreleaser-action@v6
            with:
              args: release --clean`))).toEqual([]);
  });

  it('does not call id-token unused by a real goreleaser release: its configuration, which the scan does not read, can publish to npm with trusted publishing', () => {
    expect(scanWith(RULE, job('          contents: write\n          id-token: write', `          - uses: goreleaser/goreleaser-action@v6
            with:
              args: release --clean`))).toEqual([]);
  });

  it('still calls id-token unused where nothing publishes with OIDC (changesets only versioning, a goreleaser snapshot)', () => {
    const perms = '          contents: write\n          pull-requests: write\n          id-token: write';
    expect(positions(scanWith(RULE, job(perms, `          - uses: actions/checkout@v3
          - uses: changesets/action@v1
            with:
              version: pnpm run version`)))).toEqual(['12:7 LOW']);
    expect(positions(scanWith(RULE, job('          contents: write\n          id-token: write', `          - uses: goreleaser/goreleaser-action@v6
            with:
              args: release --snapshot --clean`)))).toEqual(['11:7 LOW']);
  });

  it('does not call packages unused where the job pushes to ghcr.io', () => {
    const meta = `          - id: meta
            uses: docker/metadata-action@v5
            with:
              images: \${{ env.REGISTRY }}/\${{ github.repository }}
`;
    expect(scanWith(RULE, job('          packages: write', `${meta}          - uses: docker/build-push-action@v6
            with:
              push: true
              tags: \${{ steps.meta.outputs.tags }}`))).toEqual([]);
    expect(scanWith(RULE, job('          packages: write', `          - uses: docker/login-action@v3
            with:
              registry: \${{ env.REGISTRY }}
              username: \${{ github.actor }}
              password: \${{ secrets.GITHUB_TOKEN }}
          - uses: docker/bake-action@v5
            with:
              push: true`))).toEqual([]);
  });

  it('still calls packages unused where the image goes elsewhere or is not pushed', () => {
    expect(positions(scanWith(RULE, job('          packages: write', `          - uses: docker/build-push-action@v6
            with:
              push: true
              tags: docker.io/example/app:latest`)))).toEqual(['10:7 LOW']);
    expect(positions(scanWith(RULE, job('          packages: write', `          - uses: docker/build-push-action@v6
            with:
              push: false
              tags: ghcr.io/example/app:latest`)))).toEqual(['10:7 LOW']);
  });
});

describe(`${RULE}: steps that act with another token`, () => {
  // A job granted write scopes whose GitHub work is done with an app's installation token (or a PAT).
  const job = (steps: string, env = '') => yaml`
    on: pull_request
    jobs:
      bot:
        runs-on: ubuntu-latest
        permissions:
          contents: write
          pull-requests: write
        ${env}
        steps:
          - id: app
            uses: actions/create-github-app-token@v2
            with:
              app-id: \${{ vars.APP_ID }}
              private-key: \${{ secrets.APP_KEY }}
          ${steps}
  `;

  it('reports the job token\'s write scopes unused when gh and every action take the app token', () => {
    const found = scanWith(RULE, job(`- uses: actions/checkout@v3
            with: { token: "\${{ steps.app.outputs.token }}" }
          - run: gh pr review --approve "$PR" && git push origin HEAD
            env:
              GH_TOKEN: \${{ steps.app.outputs.token }}
              PR: \${{ github.event.pull_request.html_url }}
          - uses: peter-evans/create-pull-request@v7
            with:
              token: \${{ steps.app.outputs.token }}
          - uses: actions/github-script@v7
            with:
              github-token: \${{ secrets.BOT_PAT }}
              script: |
                await github.rest.pulls.merge({ ...context.repo, pull_number: 1 })`));
    expect(positions(found)).toEqual(['6:7 LOW']);
    expect(found[0]?.description).toContain('grants `contents: write`, `pull-requests: write` that its steps never use');
    expect(found[0]?.description).toContain('act on GitHub only with another token (`steps.app.outputs.token`, `secrets.BOT_PAT` in steps 2, 3, 4, 5)');
    // tibdex/github-app-token mints the same way, and a PAT in the job's env reaches gh alike.
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        bot:
          runs-on: ubuntu-latest
          permissions: { contents: write }
          env: { GH_TOKEN: "\${{ secrets.RELEASE_PAT }}" }
          steps:
            - uses: tibdex/github-app-token@v2
              with: { app_id: "\${{ vars.APP_ID }}", private_key: "\${{ secrets.APP_KEY }}" }
            - run: gh release create "$GITHUB_REF_NAME"
    `))).toEqual(['5:20 LOW']);
  });

  it('keeps the job token used by an action without a token input, gh given github.token, and git after a default checkout', () => {
    // peter-evans/create-pull-request with no `token:` takes `${{ github.token }}`, its action.yml default.
    expect(scanWith(RULE, job('- uses: peter-evans/create-pull-request@v7'))).toEqual([]);
    expect(scanWith(RULE, job(`- run: gh pr review --approve "$PR" && gh pr merge "$PR"
            env: { GH_TOKEN: "\${{ github.token }}" }`))).toEqual([]);
    expect(scanWith(RULE, job(`- run: gh pr merge "$PR"
            env: { GH_TOKEN: "\${{ steps.app.outputs.token || github.token }}" }`))).toEqual([]);
    // The app token reaches gh, but git pushes with what the default checkout persisted: the job's token.
    expect(scanWith(RULE, job(`- uses: actions/checkout@v3
          - run: gh pr comment "$PR" --body done && git push origin HEAD
            env: { GH_TOKEN: "\${{ steps.app.outputs.token }}" }`))).toEqual([]);
    // An action given the app token, next to one that is not, still leaves the grant it uses used.
    const found = scanWith(RULE, job(`- uses: peter-evans/create-pull-request@v7
            with: { token: "\${{ steps.app.outputs.token }}" }
          - uses: softprops/action-gh-release@v2`));
    expect(found.map((f) => f.description.slice(0, 50))).toEqual(['Job `bot` grants `pull-requests: write` that its s']);
  });
});

describe(`${RULE}: the steps the job's token is handed to`, () => {
  const job = (permissions: string, steps: string) => yaml`
    on: push
    jobs:
      release:
        runs-on: ubuntu-latest
        permissions: ${permissions}
        steps:
          - uses: actions/checkout@v3
          ${steps}
  `;

  it("keeps a scope an action that runs its inputs' commands is handed the token for: the commands may use any scope", () => {
    const changesets = `- uses: changesets/action@v1
            with:
              publish: pnpm release
            env:
              GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}`;
    expect(scanWith(RULE, job('{ contents: write, issues: write, pull-requests: write, id-token: write }', changesets))).toEqual([]);
  });

  it('negative: not handed the token, the action needs only what its documentation asks for, and the text names it', () => {
    const found = scanWith(RULE, job('{ contents: write, issues: write, pull-requests: write }', `- uses: changesets/action@v1
            with:
              publish: pnpm release`));
    expect(found.map((f) => f.severity)).toEqual(['LOW']);
    expect(found[0]?.description).toContain('grants `issues: write` that its steps never use');
    expect(found[0]?.description).toContain('hand the token only to `changesets/action`, which does not need `issues: write`');
    expect(found[0]?.description).not.toContain('to nothing');
  });

  it('names the action handed the token instead of saying the token is handed to nothing', () => {
    const found = scanWith(RULE, job('{ contents: write, pull-requests: write }', `- uses: actions/labeler@v5
            with:
              repo-token: \${{ secrets.GITHUB_TOKEN }}
          - run: gh pr comment 1 --body done
            env:
              GH_TOKEN: \${{ github.token }}`));
    expect(found.map((f) => f.severity)).toEqual(['LOW']);
    expect(found[0]?.description).toContain('hand the token only to `actions/labeler`, the script of step 3, which do not need `contents: write`');
    // Nothing takes it: said so.
    const bare = scanWith(RULE, job('{ contents: write }', '- run: make test'));
    expect(bare[0]?.description).toContain('hand the token to nothing');
  });
});

describe(`${RULE}: the repository's own composite action counts at the call with the steps it runs`, () => {
  // `octo/repo/.github/actions/scan@<sha>` in repository octo/repo: GitHub fetches the action at that ref, whose
  // steps run at the call with the calling job's token (`github.token` inside it is the job's).
  const action = (inner: string) => ({
    path: '.github/actions/scan/action.yml',
    text: yaml`
      name: scan
      inputs:
        github-token: { description: token for private dependencies, required: true }
      runs:
        using: composite
        steps:
          - run: semgrep scan --sarif --output out.sarif
            shell: bash
            env: { PRIVATE_DEPS_TOKEN: '\${{ inputs.github-token }}' }
${inner}
    `,
  });
  const workflow = {
    path: '.github/workflows/scan.yml',
    text: yaml`
      on: push
      permissions: { contents: read }
      jobs:
        scan:
          runs-on: ubuntu-latest
          permissions: { contents: read, security-events: write }
          steps:
            - uses: actions/checkout@v3
            - uses: octo/repo/.github/actions/scan@0123456789abcdef0123456789abcdef01234567
              with: { github-token: '\${{ secrets.DEPS_PAT }}' }
    `,
  };
  const upload = '          - uses: github/codeql-action/upload-sarif@v3\n            with: { sarif_file: out.sarif }';

  it('positive: a SARIF upload inside it uses `security-events: write`, whatever token the call hands its inputs', () => {
    expect(scanWith(RULE, [workflow, action(upload)], { repository: 'octo/repo' })).toEqual([]);
  });

  it('negative: without such a step inside, the grant is unused (the call hands it another token); another owner\'s action is not read', () => {
    const unused = scanWith(RULE, [workflow, action('          - run: echo done\n            shell: bash')], { repository: 'octo/repo' });
    expect(positions(unused)).toEqual(['6:36 LOW']);
    expect(unused[0]?.description).toContain('act on GitHub only with another token (`secrets.DEPS_PAT` in step 2)');
    // The same path in another repository's name: its code is not this checkout's.
    expect(positions(scanWith(RULE, [workflow, action(upload)], { repository: 'other/repo' }))).toEqual(['6:36 LOW']);
  });

  it('counts tools that push with the credentials a checkout left (mike --push, ghp-import -p, mkdocs gh-deploy) and the backport action as uses of contents: write', () => {
    const docs = (step: string) => scanWith(RULE, yaml`
      on: push
      permissions:
        contents: write
      jobs:
        docs:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - ${step}
    `);
    for (const uses of ['run: mike deploy --push --update-aliases dev latest', 'run: ghp-import -n -p -f site', 'run: mkdocs gh-deploy --force', 'uses: korthout/backport-action@v3']) {
      expect(docs(uses), uses).toEqual([]);
    }
    // Without the push the grant is unused.
    expect(docs('run: mike deploy dev').map((f) => f.severity)).toEqual(['LOW']);
  });
});

describe('excessive-permissions: a grant the job uses, with outsider text in a script', () => {
  const workflow = (permissions: string, level: 'workflow' | 'job', checkout = false) => {
    const grant = `permissions:\n  ${permissions.split('\n').join('\n  ')}`;
    const indented = grant.split('\n').map((l) => `    ${l}`).join('\n');
    return `on:
  issue_comment:
    types: [created]
${level === 'workflow' ? `${grant}\n` : 'permissions: {}\n'}jobs:
  trigger:
    if: github.event.issue.pull_request && contains(github.event.comment.body, '/bench')
    runs-on: ubuntu-latest
${level === 'job' ? `${indented}\n` : ''}    steps:
      - id: pr
        env:
          GH_TOKEN: \${{ github.token }}
        run: echo "head_ref=$(gh api repos/$GITHUB_REPOSITORY/pulls/\${{ github.event.issue.number }} --jq .head.ref)" >> "$GITHUB_OUTPUT"
${checkout ? `      - uses: actions/checkout@v3
        with:
          ref: refs/pull/\${{ github.event.issue.number }}/head
      - run: make bench
` : ''}      - env:
          GH_TOKEN: \${{ github.token }}
        run: gh workflow run bench.yml --ref "\${{ steps.pr.outputs.head_ref }}"
`;
  };

  it('leaves the used grant to script-injection, at workflow or job level', () => {
    for (const level of ['workflow', 'job'] as const) {
      const text = workflow('actions: write', level);
      expect(scanWith('script-injection', text).length, level).toBe(1);
      expect(scanWith(RULE, text), level).toEqual([]);
    }
  });

  it("still reports a used grant where the pull request's code runs with it", () => {
    expect(scanWith(RULE, workflow('actions: write', 'job', true)).map((f) => f.description).join('\n')).toContain('Even if the job uses it');
  });
});

describe('excessive-permissions: the excess is what the jobs that do not need the scope run', () => {
  const workflow = (resolveRuns: string) => yaml`
    on:
      pull_request_target:
        types: [opened, synchronize]
    permissions:
      contents: read
      id-token: write
    jobs:
      resolve:
        runs-on: ubuntu-latest
        steps:
${resolveRuns}
      build:
        needs: resolve
        runs-on: ubuntu-latest
        steps:
          - uses: aws-actions/configure-aws-credentials@v4
            with:
              role-to-assume: arn:aws:iam::123456789012:role/ci
              aws-region: us-east-1
          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.sha }}
          - run: make test
  `;

  it('is LOW when only a job that needs the scope runs the outsider code (its own finding holds it)', () => {
    const found = scanWith('excessive-permissions', workflow('          - run: echo resolving'));
    expect(found.map((f) => f.severity)).toEqual(['LOW']);
    expect(found[0]?.description).toContain("LOW: the job that does not need it runs no outsider's code");
    expect(found[0]?.description).toContain('a job that needs it keeps it wherever it is granted');
  });

  it('negative: a job that does not need the scope and runs the outsider code arms the excess', () => {
    const found = scanWith('excessive-permissions', workflow(`          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.sha }}
          - run: npm ci`));
    expect(found.map((f) => f.severity)).toEqual(['HIGH']);
  });
});
