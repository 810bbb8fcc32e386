import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';
import { expectLive } from '../../../support/liveness.js';

const RULE = 'untrusted-checkout';

describe(RULE, () => {
  it('reports a checkout of the head SHA under pull_request_target, HIGH when a later step builds it', () => {
    const records = recordsWith(RULE, yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm ci && npm test
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:16 HIGH']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.job).toBe('test');
    expect(records[0]?.finding.description).toContain('`npm ci`');
  });

  it("reads an organisation's copy of actions/checkout (`<owner>/checkout`) as a checkout, and no other action of that name", () => {
    const source = (uses: string) => yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: ${uses}
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm ci && npm test
    `;
    const findings = scanWith(RULE, source('my-org/checkout@v4'));
    expect(positions(findings)).toEqual(['8:16 HIGH']);
    expect(findings[0]?.description).toContain('`npm ci`');
    // An action kept inside such a repository is some other action: nothing here checks out the pull request.
    expect(scanWith(RULE, source('my-org/checkout/sparse@v1'))).toEqual([]);
  });

  it("reads `fork && base || head` refs: a fork's pull request gets the base branch, only a same-repository one its head (LOW)", () => {
    const workflow = (ref: string) => yaml`
      on: pull_request_target
      permissions: { contents: write }
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ ${ref} }}
            - run: npm ci && npm test
    `;
    for (const ref of [
      'github.event.pull_request.head.repo.fork && github.event.repository.default_branch || github.event.pull_request.head.sha',
      "github.event.pull_request.head.repo.full_name != github.repository && 'main' || github.event.pull_request.head.sha",
      '!github.event.pull_request.head.repo.fork && github.event.pull_request.head.sha || github.event.repository.default_branch',
    ]) {
      const found = scanWith(RULE, workflow(ref));
      expect(found.map((f) => f.severity), ref).toEqual(['LOW']);
      expect(found[0]?.description, ref).toContain('LOW: what runs is a branch of this repository');
    }
    // A fork gets the head: the first operand, or a fallback that may be empty (`inputs.ref` on a pull request run).
    for (const ref of [
      'github.event.pull_request.head.repo.fork && github.event.pull_request.head.sha || github.event.repository.default_branch',
      'github.event.pull_request.head.repo.fork && inputs.ref || github.event.pull_request.head.sha',
      'github.event.pull_request.draft && github.event.repository.default_branch || github.event.pull_request.head.sha',
    ]) {
      expect(scanWith(RULE, workflow(ref)).map((f) => f.severity), ref).toEqual(['HIGH']);
    }
  });

  it('reports nothing when nothing after the checkout runs it or loads configuration from it, MEDIUM when a later tool may', () => {
    const workflow = (later: string) => `on: pull_request_target
jobs:
  diff:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
        with:
          repository: \${{ github.event.pull_request.head.repo.full_name }}
          ref: \${{ github.head_ref }}
      ${later}
`;
    // git, a formatter whose configuration is data, GitHub's and pinned actions: nothing loads the fork's code.
    const inert = scanWith(RULE, workflow(`- run: |
          if [ -n "$(git status --porcelain)" ]; then
            git diff --stat HEAD~1
            ruff check --fix .
          fi
      - uses: actions/upload-artifact@v4
        with: { name: diff, path: . }
      - uses: some-org/comment-action@0123456789abcdef0123456789abcdef01234567`));
    // The claim that the outsider's code runs does not hold: no claim (docs/severity.md).
    expect(inert).toEqual([]);
    expect(scanWith(RULE, workflow('- run: echo done'))).toEqual([]);
    // The same formatters from the package index (`uvx`, `uv tool run`): their verdict is the tool's own.
    expect(scanWith(RULE, workflow('- run: uvx ruff@0.6.9 check --fix . && uv tool run --from black==24.1 black .'))).toEqual([]);
    const unknownTool = scanWith(RULE, workflow('- run: uvx some-formatter .'));
    expect(positions(unknownTool)).toEqual(['8:23 MEDIUM']);
    expect(unknownTool[0]?.description).toContain('runs `uvx some-formatter`, which can load configuration from its files');
    // A registry tool that loads the checkout's configuration, a third-party action on a tag, git told to run hooks.
    const npx = scanWith(RULE, workflow('- run: npx markdown-table-formatter .'));
    expect(positions(npx)).toEqual(['8:23 MEDIUM']);
    expect(npx[0]?.description).toContain('but step 2 of job `diff` (line 10) runs `npx markdown-table-formatter`, which can load configuration from its files');
    expect(positions(scanWith(RULE, workflow('- uses: some-org/comment-action@v2')))).toEqual(['8:23 MEDIUM']);
    expect(positions(scanWith(RULE, workflow('- run: git config core.hooksPath .githooks && git commit -am fix')))).toEqual(['8:23 MEDIUM']);
    expect(positions(scanWith(RULE, workflow('- run: python -c "import setup"')))).toEqual(['8:23 MEDIUM']);
    expect(positions(scanWith(RULE, workflow("- run: find . -name '*.sh' -exec {} \\;")))).toEqual(['8:23 MEDIUM']);
    expect(scanWith(RULE, workflow('- run: (cd docs && git add . && git commit -m docs)'))).toEqual([]);
    // A variable assigned a substitution: the substitution is the command (git, data only), not the words inside it.
    expect(scanWith(RULE, workflow('- run: branch=$(git rev-parse --abbrev-ref HEAD) && git push origin "HEAD:$branch"'))).toEqual([]);
    expect(positions(scanWith(RULE, workflow('- run: version=$(npx semver-tool .) && git tag "$version"')))).toEqual(['8:23 MEDIUM']);
    // An array append and an escaped backquote in a message run nothing; an unescaped one in double quotes does.
    expect(scanWith(RULE, workflow('- run: issues+=("Run \\`pnpm install\\` to regenerate (forbidden)")'))).toEqual([]);
    expect(positions(scanWith(RULE, workflow('- run: echo "lock is `pnpm install`"')))).toEqual(['8:23 MEDIUM']);
    // Checked out into a subdirectory: a tool run outside it, never naming it, does not read its configuration.
    const aside = (later: string) => workflow(later).replace('ref: ${{ github.head_ref }}', 'ref: ${{ github.head_ref }}\n          path: pr');
    expect(scanWith(RULE, aside('- run: npx markdown-table-formatter .'))).toEqual([]);
    expect(positions(scanWith(RULE, aside('- run: cd pr && npx markdown-table-formatter .')))).toEqual(['8:23 MEDIUM']);
    expect(positions(scanWith(RULE, aside('- run: npx markdown-table-formatter .\n        working-directory: pr')))).toEqual(['8:23 MEDIUM']);
    // A script that names the checkout's directory but runs the tool after a `cd` into another one: read per command.
    expect(scanWith(RULE, aside('- run: |\n          yq e .version "$GITHUB_WORKSPACE/pr/Chart.yaml"\n          cd "$GITHUB_WORKSPACE/upstream" || exit 1\n          npx markdown-table-formatter .'))).toEqual([]);
    expect(positions(scanWith(RULE, aside('- run: |\n          cd "$GITHUB_WORKSPACE/upstream" || exit 1\n          npx markdown-table-formatter ../pr')))).toEqual(['8:23 MEDIUM']);
    expect(positions(scanWith(RULE, aside('- run: |\n          cd "$GITHUB_WORKSPACE/upstream" || exit 1\n          cd ../pr\n          npx markdown-table-formatter .')))).toEqual(['8:23 MEDIUM']);
  });

  it("a test's operands split at `&&` run nothing; a code scanner that takes its server from the checkout's settings, pinned or not, may hand them its token", () => {
    const workflow = (later: string) => `on:
  workflow_run:
    workflows: [CI]
    types: [completed]
permissions:
  contents: read
jobs:
  scan:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
        with:
          ref: \${{ github.event.workflow_run.head_sha }}
      - uses: dawidd6/action-download-artifact@2536c51d3d126276eb39f74d6bc9c72ac6ef30d3
        with:
          run_id: \${{ github.event.workflow_run.id }}
          pattern: coverage*
      ${later}
`;
    expect(scanWith(RULE, workflow('- run: if [[ "$EVENT" == "pull_request" && -n "${PR:-}" ]]; then echo "pr=$PR"; fi'))).toEqual([]);
    const sonar = scanWith(RULE, workflow('- uses: SonarSource/sonarqube-scan-action@a31c9398be7ace6bbfaf30c0bd5d415f843d45e9\n        env:\n          SONAR_TOKEN: ${{ secrets.SONAR_TOKEN }}'));
    expect(positions(sonar)).toEqual(['13:16 MEDIUM']);
    expect(sonar[0]?.description).toContain('runs `sonarsource/sonarqube-scan-action` (it reads `sonar-project.properties` from the workspace, where `sonar.host.url` can send its token to another server)');
    // Another action pinned to a commit reads no settings that hand anything out.
    expect(scanWith(RULE, workflow('- uses: some-org/report-action@0123456789abcdef0123456789abcdef01234567\n        env:\n          REPORT_TOKEN: ${{ secrets.REPORT_TOKEN }}'))).toEqual([]);
  });

  it('counts a registry tool that loads its configuration as code (`npx prettier`, `pnpm dlx eslint`) as running the checkout', () => {
    const workflow = (checkout: string, later: string) => `on: pull_request_target
permissions:
  contents: write
jobs:
  fmt:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3${checkout}
      ${later}
`;
    const head = `
        with:
          ref: \${{ github.event.pull_request.head.sha }}`;
    // prettier.config.js, eslint.config.js, babel.config.js, jest.config.js: the fork's files, run as code.
    for (const later of ['- run: npx prettier --check .', '- run: npx -y eslint@9 .', '- run: pnpm dlx stylelint "**/*.css"', '- run: bunx jest', '- run: babel src -d lib']) {
      const found = scanWith(RULE, workflow(head, later));
      expect(positions(found), later).toEqual(['10:16 HIGH']);
      if (!later.includes('babel')) expect(found[0]?.description).toContain('(which loads its configuration from the working directory as code)');
    }
    // `tsc` reads `tsconfig.json`, which is data, and runs nothing it compiles.
    expect(scanWith(RULE, workflow(head, '- run: tsc --noEmit'))).toEqual([]);
    // Only the base branch is checked out: nothing of the fork's runs.
    expect(scanWith(RULE, workflow('', '- run: npx prettier --check .'))).toEqual([]);
  });

  it('counts `npx eslint` inside a local composite action that checks out the pull request head, at the call', () => {
    const found = scanWith(RULE, [
      { path: '.github/workflows/fmt.yml', text: `on: pull_request_target
permissions:
  contents: write
jobs:
  fmt:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
      - uses: ./.github/actions/lint
` },
      { path: '.github/actions/lint/action.yml', text: `name: lint
runs:
  using: composite
  steps:
    - uses: actions/checkout@v3
      with:
        ref: \${{ github.event.pull_request.head.sha }}
    - run: npx eslint .
      shell: bash
` },
    ]);
    expect(positions(found)).toEqual(['9:15 HIGH']);
    expect(found[0]?.description).toContain('`npx eslint` (which loads its configuration from the working directory as code)');
  });

  it('does not count a build of another repository the job clones as running the pull request\'s code', () => {
    const workflow = (build: string) => yaml`
      on: pull_request_target
      permissions: { contents: write }
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: |
                git clone --depth 1 https://github.com/example-org/upstream-lib vendor/upstream
                ${build}
    `;
    // The build runs in the clone's directory: upstream's code, not the pull request's.
    expect(positions(scanWith(RULE, workflow('cd vendor/upstream && make')))).toEqual(['9:16 MEDIUM']);
    // From the workspace root, the same build runs the pull request's code.
    const [root] = scanWith(RULE, workflow('make'));
    expect(root?.severity).toBe('HIGH');
    expect(root?.description).toContain('`make`');
  });

  it('counts local actions and scripts from the checkout as running its code', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.merge_commit_sha }}
            - uses: ./.github/actions/setup
        b:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: refs/pull/\${{ github.event.number }}/merge
            - run: python3 tools/check.py
    `);
    expect(positions(findings)).toEqual(['8:16 HIGH', '15:16 HIGH']);
    expect(findings[0]?.description).toContain('local action');
    expect(findings[1]?.description).toContain('`python3 tools/check.py`');
  });

  it('counts a github-script that requires a script of the checkout as running its code, not a package or inline code', () => {
    const workflow = (script: string) => yaml`
      on: pull_request_target
      permissions:
        contents: write
      jobs:
        bot:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - uses: actions/github-script@v7
              with:
                script: |
                  ${script}
    `;
    const local = scanWith(RULE, workflow("const run = require('./.github/scripts/review.js'); await run({ github, context });"));
    expect(positions(local)).toEqual(['10:16 HIGH']);
    expect(local[0]?.description).toContain("`require('./.github/scripts/review.js')` in actions/github-script");
    const workspace = scanWith(RULE, workflow('const run = require(`${process.env.GITHUB_WORKSPACE}/scripts/review.js`);'));
    expect(positions(workspace)).toEqual(['10:16 HIGH']);
    // A registry runner given a script of the checkout runs that script; a registry tool alone only may load it,
    // unless its configuration is code (prettier.config.js).
    const npx = (command: string) => workflow('core.info("x")').replace(/ {6}- uses: actions\/github-script@v7[^]*$/, `      - run: ${command}\n`);
    expect(positions(scanWith(RULE, npx('npx tsx .github/scripts/label.ts')))).toEqual(['10:16 HIGH']);
    expect(positions(scanWith(RULE, npx('npx prettier --check .github')))).toEqual(['10:16 HIGH']);
    expect(positions(scanWith(RULE, npx('npx markdownlint-cli2 .github')))).toEqual(['10:16 MEDIUM']);
    // Inline code with Node's own modules: nothing of the checkout runs or loads.
    expect(scanWith(RULE, workflow("const fs = require('fs'); core.info(fs.readFileSync('x', 'utf8'));"))).toEqual([]);
    // A package by name resolves from the working directory's node_modules, which the checkout can bring.
    const named = scanWith(RULE, workflow("const { exec } = require('@actions/exec');"));
    expect(positions(named)).toEqual(['10:16 MEDIUM']);
    expect(named[0]?.description).toContain("`require('@actions/exec')` in actions/github-script");
  });

  it('reports a privileged job that dispatches another repository\'s CI with the pull request\'s head, not this repository or data without the head', () => {
    const workflow = (on: string, step: string) => `on: ${on}
jobs:
  dispatch:
    runs-on: ubuntu-latest
    steps:
${step}
`;
    const action = (repository: string, payload: string) => `      - uses: peter-evans/repository-dispatch@v3
        with:
          token: \${{ secrets.CI_TOKEN }}
          repository: ${repository}
          event-type: pr-test
          client-payload: '{"ref": "\${{ ${payload} }}"}'`;
    const script = `      - env:
          GH_TOKEN: \${{ secrets.CI_TOKEN }}
        run: |
          gh api repos/acme/integration/dispatches -f event_type=test -F client_payload[sha]=\${{ github.event.pull_request.head.sha }}`;
    const head = scanWith(RULE, workflow('pull_request_target', action('acme/integration', 'github.event.pull_request.head.ref')));
    // Anyone starts it, but what the other repository's workflow does with the head is not in the scan: MEDIUM at most.
    expect(positions(head)).toEqual(['6:15 MEDIUM']);
    expect(head[0]?.description).toContain("dispatches `acme/integration` (peter-evans/repository-dispatch) with the pull request's head (`github.event.pull_request.head.ref`)");
    expect(head[0]?.description).toContain('(`secrets.CI_TOKEN`, with that repository\'s secrets)');
    expect(head[0]?.description).toContain("MEDIUM, not HIGH: this scan cannot see `acme/integration`'s workflows; check whether the one this dispatch starts checks out the ref it is given");
    expect(positions(scanWith(RULE, workflow('pull_request_target', script)))).toEqual(['9:11 MEDIUM']);
    // Behind a maintainer's label on a labeled-only workflow: the approved commit when the SHA is sent, a race with the branch.
    const labeled = (payload: string) => workflow('\n  pull_request_target:\n    types: [labeled]', action('acme/integration', payload)).replace('    runs-on:', "    if: github.event.label.name == 'ok-to-test'\n    runs-on:");
    expect(positions(scanWith(RULE, labeled('github.event.pull_request.head.sha')))).toEqual(['9:15 LOW']);
    expect(positions(scanWith(RULE, labeled('github.event.pull_request.head.ref')))).toEqual(['9:15 MEDIUM']);
    // This repository (its own workflows are read for what they run), no head in the payload, or a push.
    expect(scanWith(RULE, workflow('pull_request_target', action('${{ github.repository }}', 'github.event.pull_request.head.ref')))).toEqual([]);
    expect(scanWith(RULE, workflow('pull_request_target', action('acme/integration', 'github.event.repository.default_branch')))).toEqual([]);
    expect(scanWith(RULE, workflow('push', action('acme/integration', 'github.sha')))).toEqual([]);
  });

  it('reads every head value a dispatch payload carries: the commit sent behind a member\'s comment is LOW, the number alone MEDIUM with the race', () => {
    // A comment command (members only) or a member's pull request dispatches another repository's CI; on a
    // comment an earlier step reads the pull request from the API.
    const workflow = (options: { gate?: boolean; sha: string; lookup?: string }) => `on:
  pull_request_target:
    types: [opened, synchronize]
  issue_comment:
    types: [created]
permissions:
  contents: read
jobs:
  dispatch:
    if: >-
      (github.event_name == 'pull_request_target'${options.gate === false ? '' : " &&\n       contains(fromJSON('[\"MEMBER\",\"OWNER\"]'), github.event.pull_request.author_association)"}) ||
      (github.event_name == 'issue_comment' && github.event.issue.pull_request &&
       contains(github.event.comment.body, '/test-x')${options.gate === false ? '' : " &&\n       contains(fromJSON('[\"MEMBER\",\"OWNER\"]'), github.event.comment.author_association)"})
    runs-on: ubuntu-latest
    steps:
${options.lookup ?? `      - id: pr
        name: PR details
        if: github.event_name == 'issue_comment'
        env:
          GH_TOKEN: \${{ github.token }}
        run: |
          PR_DATA=$(gh api repos/\${{ github.repository }}/pulls/\${{ github.event.issue.number }})
          head_sha=$(echo "$PR_DATA" | jq -r '.head.sha')
          head_ref=$(echo "$PR_DATA" | jq -r '.head.ref')
          echo "head_sha=$head_sha" >> $GITHUB_OUTPUT
          echo "head_ref=$head_ref" >> $GITHUB_OUTPUT`}
      - name: Dispatch
        env:
          GH_TOKEN: \${{ secrets.DISPATCH_TOKEN }}
          PR_NUMBER: \${{ github.event.pull_request.number || github.event.issue.number }}
          PR_SHA: ${options.sha}
        run: |
          curl -X POST -H "Authorization: token $GH_TOKEN" https://api.github.com/repos/acme/integration/dispatches -d @- <<EOF
          {"event_type": "pr-test", "client_payload": {"pr_number": "$PR_NUMBER", "sha": "$PR_SHA"}}
          EOF
`;
    const either = "${{ github.event_name == 'pull_request_target' && github.event.pull_request.head.sha || steps.pr.outputs.head_sha }}";
    // The commit, through `env:` and an `a && b || c` over the event's head SHA and a step output read from `.head.sha`.
    // On a comment, the SHA is read from the API when the job runs: the head as it is then (MEDIUM, the race named).
    const sent = scanWith(RULE, workflow({ sha: either }));
    expect(sent.map((f) => f.severity)).toEqual(['MEDIUM']);
    const text = sent[0]?.description ?? '';
    expect(text).toContain("with the pull request's head commit `$PR_SHA` (`github.event.pull_request.head.sha` or `steps.pr.outputs.head_sha`, which step `PR details` reads from the pull request's `.head.sha`) and its number `$PR_NUMBER` (`github.event.pull_request.number` or `github.event.issue.number`)");
    expect(text).toContain('a maintainer approves each run first');
    expect(text).toContain('the commit sent is the head as it is when this job reads it, not when the approval was given');
    expect(text).not.toContain('the head is resolved when that CI runs');
    // The event's own head SHA alone is the approved commit: LOW, the other CI told to check out exactly that SHA.
    const own = scanWith(RULE, workflow({ sha: '${{ github.event.pull_request.head.sha }}' }).replace("github.event_name == 'issue_comment' && ", "false && "));
    expect(own.map((f) => f.severity)).toEqual(['LOW']);
    expect(own[0]?.description).toContain('this scan cannot see that CI: it must check out exactly that SHA');
    expect(own[0]?.description).toContain('the race of any approval');
    expect(scanWith('dangerous-trigger', workflow({ sha: '${{ github.event.pull_request.head.sha }}' })).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith('dangerous-trigger', workflow({ sha: '${{ github.event.pull_request.head.sha }}' }))[0]?.description).toContain('and the payload carries the approved commit');
    // A github-script lookup that sets the output from `.head.sha` counts the same.
    const script = `      - id: pr
        uses: actions/github-script@v7
        with:
          script: |
            const { data } = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });
            core.setOutput('head_sha', data.head.sha);`;
    const scripted = scanWith(RULE, workflow({ sha: either, lookup: script }));
    expect(scripted.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scripted[0]?.description).toContain('the commit sent is the head as it is when this job reads it');
    // Only the number (the SHA variable holds the branch): that CI resolves the head when it runs. MEDIUM, the race named.
    const branch = "${{ github.event.pull_request.head.ref || steps.pr.outputs.head_ref }}";
    const number = scanWith(RULE, workflow({ sha: branch }));
    expect(number.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(number[0]?.description).toContain('the head is resolved when that CI runs, not when the approval was given');
    expect(scanWith('dangerous-trigger', workflow({ sha: branch })).map((f) => f.severity)).toEqual(['MEDIUM']);
    // A value that is the SHA on one event and the number on the other is not the commit.
    expect(scanWith(RULE, workflow({ sha: "${{ github.event_name == 'pull_request_target' && github.event.pull_request.head.sha || github.event.issue.number }}" })).map((f) => f.severity)).toEqual(['MEDIUM']);
    // A step output that is not read from `.head.sha` is not the commit.
    expect(scanWith(RULE, workflow({ sha: "${{ github.event.pull_request.head.sha || steps.pr.outputs.head_ref }}" })).map((f) => f.severity)).toEqual(['MEDIUM']);
    // An action's payload input that reads the commit through `env.NAME`, or the step output itself.
    const action = (payload: string) => workflow({ sha: either }).replace(/ {6}- name: Dispatch[\s\S]*$/, `      - name: Dispatch
        uses: peter-evans/repository-dispatch@v3
        env:
          PR_SHA: ${either}
        with:
          token: \${{ secrets.DISPATCH_TOKEN }}
          repository: acme/integration
          event-type: pr-test
          client-payload: '{"sha": "\${{ ${payload} }}", "number": "\${{ github.event.issue.number }}"}'
`);
    for (const payload of ['env.PR_SHA', 'steps.pr.outputs.head_sha']) {
      const read = scanWith(RULE, action(payload));
      expect(read.map((f) => f.severity)).toEqual(['MEDIUM']);
      expect(read[0]?.description).toContain('the commit sent is the head as it is when this job reads it');
    }
    const ref = scanWith(RULE, action('steps.pr.outputs.head_ref'));
    expect(ref.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(ref[0]?.description).toContain('the head is resolved when that CI runs');
    // Anyone can comment (no member check): the commit sent lowers nothing.
    const open = scanWith(RULE, workflow({ gate: false, sha: either }));
    expect(open.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(open[0]?.description).toContain('anyone with a GitHub account can start it');
    expect(open[0]?.description).toContain("with the pull request's head commit `$PR_SHA`");
    expect(scanWith('dangerous-trigger', workflow({ gate: false, sha: either })).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('reads a dispatch payload of many variables and expressions in bounded time', () => {
    const names = Array.from({ length: 3000 }, (_, i) => `V${i}`);
    const text = `on: issue_comment
jobs:
  dispatch:
    if: github.event.comment.author_association == 'MEMBER'
    runs-on: ubuntu-latest
    steps:
      - env:
          GH_TOKEN: \${{ secrets.DISPATCH_TOKEN }}
${names.map((n) => `          ${n}: \${{ github.event.issue.number || steps.s${n}.outputs.x }}`).join('\n')}
        run: |
          gh api repos/acme/integration/dispatches -f event_type=t ${names.map((n) => `-F client_payload[${n}]="$${n}" -F e=\${{ env.${n} }}`).join(' ')}
`;
    const started = performance.now();
    expect(scanWith(RULE, text).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('reads a github-script dispatch to a sibling repository (`owner: context.repo.owner`, another `repo:`) and the head a previous script returns', () => {
    // A member's comment command: a script checks the commenter's organization membership and throws otherwise
    // (its `catch` swallows the API's error, leaving the flag false), a script returns the pull request's head
    // read from `pulls.get`, and a third dispatches a workflow of another repository of the same owner with it.
    const workflow = (options: { check?: string; returned?: string; target?: string; inputs?: string; triggers?: string } = {}) => `on:
${options.triggers ?? ''}  issue_comment:
    types: [created]
permissions:
  contents: read
  issues: write
  pull-requests: write
jobs:
  trigger:
    runs-on: ubuntu-latest
    if: github.event_name == 'issue_comment' && github.repository == 'acme/core' && github.event.issue.pull_request && startsWith(github.event.comment.body, '/other-ci run')
    steps:
      - uses: actions/github-script@v7
        with:
          script: |
            const user = context.payload.sender.login
            let isMember = false
            try {
              const { status } = await github.rest.orgs.checkMembershipForUser({ org: 'acme', username: user })
              isMember = (status === 204)
            } catch (e) {}
${options.check ?? `            if (isMember) {
              await github.rest.reactions.createForIssueComment({ ...context.repo, comment_id: context.payload.comment.id, content: '+1' })
            } else {
              throw new Error('not allowed')
            }`}
      - uses: actions/github-script@v7
        id: get-pr-data
        with:
          script: |
            const { data: pr } = await github.rest.pulls.get({ owner: context.repo.owner, repo: context.repo.repo, pull_number: context.issue.number })
            return ${options.returned ?? '{ num: context.issue.number, branchName: pr.head.ref, repo: pr.head.repo.full_name, commit: pr.head.sha }'}
      - uses: actions/github-script@v7
        env:
          COMMENT: \${{ github.event.comment.body }}
        with:
          github-token: \${{ secrets.OTHER_CI_TOKEN }}
          script: |
            const prData = \${{ steps.get-pr-data.outputs.result }}
            await github.rest.actions.createWorkflowDispatch({
              owner: context.repo.owner,
              repo: ${options.target ?? "'other-ci'"},
              workflow_id: 'from-pr.yml',
              ref: 'main',
              inputs: ${options.inputs ?? "{ prNumber: '' + prData.num, branchName: prData.branchName, repo: prData.repo, commit: prData.commit }"}
            })
`;
    // The commit, read when the job runs, behind the membership check: the head as it is then, not as it was
    // approved (commits pushed between the comment and the read are sent): MEDIUM, as a checkout of that SHA in
    // this job is.
    const sent = scanWith(RULE, workflow());
    expect(sent.map((f) => f.severity)).toEqual(['MEDIUM']);
    const text = sent[0]?.description ?? '';
    expect(text).toContain('dispatches `acme/other-ci` (actions/github-script)');
    expect(text).toContain("with the pull request's head commit `steps.get-pr-data.outputs.result` (its `commit`), which step `get-pr-data` reads from the pull request's `.head.sha`");
    expect(text).toContain('a maintainer approves each run first');
    expect(text).toContain("the commit sent is the head as it is when this job reads it, not when the approval was given, so commits pushed between the maintainer's act and that read are the ones sent");
    // A step before the read that fails unless the head is the commit the comment names closes the race: LOW,
    // the approved commit sent, the race of any approval named.
    const closed = scanWith(RULE, workflow().replace('      - uses: actions/github-script@v7\n        id: get-pr-data', `      - uses: actions/github-script@v7
        with:
          script: |
            const sha = context.payload.comment.body.match(/sha=([0-9a-f]{40})/)[1]
            const { data: pr } = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number })
            if (pr.head.sha !== sha) throw new Error('the head moved since the approval')
      - uses: actions/github-script@v7
        id: get-pr-data`));
    expect(closed.map((f) => f.severity)).toEqual(['LOW']);
    expect(closed[0]?.description).toContain('it must check out exactly that SHA');
    expect(closed[0]?.description).toContain('a commit pushed just before the approval is the one sent: the race of any approval');
    // The owner is written as such when the scan does not know it.
    const unnamed = scanWith(RULE, workflow().replace("github.repository == 'acme/core' && ", ''));
    expect(unnamed[0]?.description).toContain('dispatches `<owner>/other-ci`');
    // A returned SHA itself, or a shorthand field assigned from it, counts the same.
    const itself = scanWith(RULE, workflow({ returned: 'pr.head.sha', inputs: '{ commit: prData }' }));
    expect(itself.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(itself[0]?.description).toContain('the commit sent is the head as it is when this job reads it');
    const shorthand = scanWith(RULE, workflow({ returned: "{ num: context.issue.number, commit }\n            const commit = pr.head.sha" }));
    expect(shorthand.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(shorthand[0]?.description).toContain('the commit sent is the head as it is when this job reads it');
    // Only the branch: that CI resolves the head when it runs. MEDIUM, the race named.
    const branch = scanWith(RULE, workflow({ returned: '{ num: context.issue.number, branchName: pr.head.ref }', inputs: "{ prNumber: '' + prData.num, branchName: prData.branchName }" }));
    expect(branch.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(branch[0]?.description).toContain('the head is resolved when that CI runs, not when the approval was given');
    // A returned SHA the payload does not send is not the commit.
    expect(scanWith(RULE, workflow({ inputs: "{ prNumber: '' + prData.num, branchName: prData.branchName }" })).map((f) => f.severity)).toEqual(['MEDIUM']);
    // A deny path that only ends the membership check's own step gates nothing: anyone's comment dispatches.
    const open = scanWith(RULE, workflow({ check: '            if (!isMember) { return }' }));
    expect(open.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(open[0]?.description).toContain('anyone with a GitHub account can start it');
    // The API answers a non-member with an error: a `catch` that fails the step is the deny path; one that returns is not.
    const caught = (handler: string) => workflow({ check: '' }).replace('} catch (e) {}', `} catch (e) { ${handler} }`);
    for (const handler of ["throw new Error('not a member')", "core.setFailed('not a member')"]) {
      const gated = scanWith(RULE, caught(handler));
      expect(gated.map((f) => f.severity)).toEqual(['MEDIUM']);
      expect(gated[0]?.description).toContain('a maintainer approves each run first');
    }
    const returned = scanWith(RULE, caught("core.info('not a member'); return"));
    expect(returned.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(returned[0]?.description).toContain('anyone with a GitHub account can start it');
    // dangerous-trigger reads the same dispatch where the workflow also runs on `pull_request_target`.
    const both = workflow({ triggers: '  pull_request_target:\n    types: [opened]\n' });
    const trigger = scanWith('dangerous-trigger', both);
    expect(trigger.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(trigger[0]?.description).toContain("dispatches `acme/other-ci` with the pull request's head commit `steps.get-pr-data.outputs.result` (its `commit`)");
    expect(trigger[0]?.description).toContain("a maintainer approves each run first (`permission check in step `1``), but the commit sent is the head as this job reads it, so commits pushed between the maintainer's act and that read are sent");
    const openBoth = workflow({ triggers: '  pull_request_target:\n    types: [opened]\n', check: '            if (!isMember) { return }' });
    expect(scanWith('dangerous-trigger', openBoth).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('reads what a large github-script returns in bounded time', () => {
    const fields = Array.from({ length: 400 }, (_, i) => `f${i}`);
    const returns = Array.from({ length: 30 }, () => `            if (x) return { ${fields.join(', ')}, commit: pr.head.sha, nested: { a: [1, '}', "{"] } }`).join('\n');
    const text = `on: issue_comment
jobs:
  dispatch:
    if: github.event.comment.author_association == 'MEMBER'
    runs-on: ubuntu-latest
    steps:
      - uses: actions/github-script@v7
        id: pr
        with:
          script: |
${returns}
      - uses: actions/github-script@v7
        with:
          github-token: \${{ secrets.DISPATCH_TOKEN }}
          script: |
            const d = \${{ steps.pr.outputs.result }}
            await github.rest.actions.createWorkflowDispatch({ owner: 'acme', repo: 'ci', workflow_id: 'x.yml', ref: 'main', inputs: { ${fields.map((f) => `${f}: d.${f}`).join(', ')}, n: '' + context.issue.number } })
`;
    const started = performance.now();
    expect(scanWith(RULE, text).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('negative: a github-script dispatch to this repository, or one that sends nothing of the pull request, is no dispatch of its head elsewhere', () => {
    const workflow = (call: string, inputs = "{ commit: prData.commit, prNumber: '' + prData.num }") => `on:
  issue_comment:
    types: [created]
jobs:
  trigger:
    runs-on: ubuntu-latest
    if: github.repository == 'acme/core' && github.event.issue.pull_request
    steps:
      - uses: actions/github-script@v7
        id: get-pr-data
        with:
          script: |
            const { data: pr } = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number })
            return { num: context.issue.number, commit: pr.head.sha }
      - uses: actions/github-script@v7
        with:
          github-token: \${{ secrets.OTHER_CI_TOKEN }}
          script: |
            const prData = \${{ steps.get-pr-data.outputs.result }}
            await github.rest.actions.createWorkflowDispatch({ ${call}, workflow_id: 'from-pr.yml', ref: 'main', inputs: ${inputs} })
`;
    // The positive next to them: a sibling repository, anyone's comment.
    expect(scanWith(RULE, workflow("owner: context.repo.owner, repo: 'other-ci'")).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith(RULE, workflow('owner: context.repo.owner, repo: context.repo.repo'))).toEqual([]);
    expect(scanWith(RULE, workflow('...context.repo'))).toEqual([]);
    // The repository's own name (`github.repository == 'acme/core'` names it).
    expect(scanWith(RULE, workflow("owner: context.repo.owner, repo: 'core'"))).toEqual([]);
    // Nothing of the pull request in the dispatch: no head handed over.
    const nothing = workflow("owner: context.repo.owner, repo: 'other-ci'", "{ reason: 'nightly' }").replace('            const prData = ${{ steps.get-pr-data.outputs.result }}\n', '');
    expect(scanWith(RULE, nothing)).toEqual([]);
  });

  it('reports a dispatch of another repository only when it is sent with a credential that can start workflows there', () => {
    const workflow = (step: string) => `on:
  pull_request_target:
    types: [opened, synchronize]
permissions: {}
jobs:
  dispatch:
    runs-on: ubuntu-latest
    steps:
${step}
`;
    const action = (token: string) => `      - uses: peter-evans/repository-dispatch@v3
        with:
          ${token}repository: acme/integration
          event-type: pr-test
          client-payload: '{"sha": "\${{ github.event.pull_request.head.sha }}"}'`;
    const script = (token: string) => `      - env:
          GH_TOKEN: ${token}
        run: gh api repos/acme/integration/dispatches -f event_type=test -F client_payload[sha]=\${{ github.event.pull_request.head.sha }}`;
    const app = `      - id: app
        uses: actions/create-github-app-token@v1
        with: { app-id: '1', private-key: '\${{ secrets.APP_KEY }}', owner: acme }
`;
    // The job's own token (the action's default, or named) cannot start another repository's workflows: the dispatch fails.
    expect(scanWith(RULE, workflow(action('')))).toEqual([]);
    expect(scanWith(RULE, workflow(action('token: ${{ github.token }}\n          ')))).toEqual([]);
    expect(scanWith(RULE, workflow(script('${{ secrets.GITHUB_TOKEN }}')))).toEqual([]);
    expect(scanWith('dangerous-trigger', workflow(script('${{ github.token }}'))).map((f) => f.severity)).toEqual(['LOW']);
    // A stored token, or an app's token minted in the job, can.
    expect(positions(scanWith(RULE, workflow(action('token: ${{ secrets.DISPATCH_PAT }}\n          '))))).toEqual(['9:15 MEDIUM']);
    const minted = scanWith(RULE, workflow(app + script('${{ steps.app.outputs.token }}')));
    expect(positions(minted)).toEqual(['14:14 MEDIUM']);
    expect(minted[0]?.description).toContain('`steps.app.outputs.token`');
    expect(scanWith('dangerous-trigger', workflow(app + script('${{ steps.app.outputs.token }}'))).map((f) => f.severity)).toEqual(['MEDIUM']);
    // actions/github-script: its client is the job's token unless `github-token:` names another.
    const github = (token: string) => `      - uses: actions/github-script@v7
        with:
          ${token}script: |
            await github.rest.repos.createDispatchEvent({ owner: 'acme', repo: 'integration', event_type: 'pr', client_payload: { sha: context.payload.pull_request.head.sha } })`;
    expect(scanWith(RULE, workflow(github('')))).toEqual([]);
    expect(positions(scanWith(RULE, workflow(github('github-token: ${{ secrets.DISPATCH_PAT }}\n          '))))).toEqual(['9:15 MEDIUM']);
  });

  it('counts a permission check only when it fails the job on the answer: not in a catch block, not on the API call failing, not an output nothing reads', () => {
    const workflow = (check: string, gate = '') => `on:
  issue_comment:
    types: [created]
jobs:
  deploy:
    if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/deploy')
    runs-on: ubuntu-latest
    permissions:
      contents: write
    steps:
${check}
      - uses: actions/checkout@v3
        ${gate}with:
          ref: refs/pull/\${{ github.event.issue.number }}/head
      - run: npm ci
`;
    const script = (body: string) => `      - id: perm
        uses: actions/github-script@v7
        with:
          script: |
${body.split('\n').map((l) => `            ${l}`).join('\n')}`;
    const read = "const { data } = await github.rest.repos.getCollaboratorPermissionLevel({ ...context.repo, username: context.actor });";
    const severity = (check: string, gate?: string) => scanWith(RULE, workflow(check, gate)).map((f) => f.severity);
    // Fails on the answer (a github-script step counts, as a run: step does): a maintainer's approval, the branch can move.
    expect(severity(script(`${read}\nif (data.permission !== 'admin') core.setFailed('not allowed');`))).toEqual(['MEDIUM']);
    // Fails only when the call throws, or records the answer that no step reads: it gates nothing.
    expect(severity(script(`try {\n  ${read}\n  core.setOutput('allowed', data.permission === 'admin');\n} catch (error) {\n  core.setFailed(error.message);\n}`))).toEqual(['HIGH']);
    expect(severity(script(`${read}\ncore.setOutput('allowed', data.permission === 'admin');`))).toEqual(['HIGH']);
    const shell = `      - id: perm
        env:
          GH_TOKEN: \${{ github.token }}
        run: |
          perm=$(gh api "repos/\${{ github.repository }}/collaborators/\${{ github.actor }}/permission" --jq .permission) || exit 1
          echo "permission=$perm" >> "$GITHUB_OUTPUT"`;
    expect(severity(shell)).toEqual(['HIGH']);
    // A test of the answer on the call's line fails on the answer.
    const test = shell.replace(/perm=\$\((.*)\) \|\| exit 1/, '[[ "$($1)" =~ ^(admin|write)$ ]] || exit 1');
    expect(test).toContain('=~ ^(admin|write)$ ]] || exit 1');
    expect(severity(test)).toEqual(['MEDIUM']);
    // The recorded answer read by the checkout's own if: that gates it.
    expect(severity(script(`${read}\ncore.setOutput('allowed', data.permission === 'admin');`), "if: steps.perm.outputs.allowed == 'true'\n        ")).toEqual(['MEDIUM']);
    // The same script also fails for a fork's pull request: only branches of this repository run (LOW, naming the gate).
    const pull = "const { data: pull } = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });";
    const both = scanWith(RULE, workflow(script(`${read}\nif (data.permission !== 'admin') { core.setFailed('not allowed'); return; }\n${pull}\nif (pull.head.repo.full_name !== \`\${context.repo.owner}/\${context.repo.repo}\`) { core.setFailed('forks cannot'); return; }`)));
    expect(both.map((f) => f.severity)).toEqual(['LOW']);
    expect(both[0]?.description).toContain('what runs is a branch of this repository');
    // Negative: a fork check joined to another test (only a fork's `main`) lets other forks through: the permission check alone.
    expect(severity(script(`${read}\nif (data.permission !== 'admin') { core.setFailed('not allowed'); return; }\n${pull}\nif (pull.head.repo.full_name !== 'o/r' && pull.head.ref === 'main') { core.setFailed('no'); return; }`))).toEqual(['MEDIUM']);
  });

  it('a permission check whose deny path ends only its own step (return, exit 0) gates nothing (issue 25)', () => {
    const workflow = (check: string) => `on:
  issue_comment:
    types: [created]
jobs:
  patch:
    if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/patch')
    runs-on: ubuntu-latest
    permissions:
      contents: write
    steps:
${check}
      - uses: actions/checkout@v3
        with:
          ref: refs/pull/\${{ github.event.issue.number }}/head
      - run: make patch
`;
    const script = (body: string) => `      - id: perm
        uses: actions/github-script@v7
        with:
          script: |
${body.split('\n').map((l) => `            ${l}`).join('\n')}`;
    const shell = (body: string) => `      - id: perm
        env:
          GH_TOKEN: \${{ github.token }}
        run: |
          PERM=$(gh api "repos/$GITHUB_REPOSITORY/collaborators/\${{ github.actor }}/permission" --jq .permission)
${body.split('\n').map((l) => `          ${l}`).join('\n')}`;
    const read = "const { data } = await github.rest.repos.getCollaboratorPermissionLevel({ ...context.repo, username: context.actor });";
    const later = "const { data: pr } = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });\nif (pr.state !== 'open') throw new Error('closed');";
    const severity = (check: string) => scanWith(RULE, workflow(check)).map((f) => f.severity);
    // The deny path logs and returns: the step succeeds, the checkout and `make patch` run for any commenter.
    const quiet = scanWith(RULE, workflow(script(`${read}\nif (!['admin', 'write'].includes(data.permission)) {\n  core.info('not allowed');\n  return;\n}\n${later}`)));
    expect(quiet.map((f) => f.severity)).toEqual(['HIGH']);
    expect(quiet[0]?.description).toContain('step `perm` of job `patch` checks the actor\'s permission, but its deny path only ends that step');
    expect(severity(shell('if [ "$PERM" != admin ] && [ "$PERM" != write ]; then\n  echo "not allowed"\n  exit 0\nfi\nmake lint || exit 1'))).toEqual(['HIGH']);
    expect(severity(shell('[ "$PERM" = admin ] || exit 0\nmake lint || exit 1'))).toEqual(['HIGH']);
    // Negative: the deny path fails the step (setFailed, throw, exit 1), or only an allowed actor returns early.
    expect(severity(script(`${read}\nif (!['admin', 'write'].includes(data.permission)) {\n  core.setFailed('not allowed');\n  return;\n}\n${later}`))).toEqual(['MEDIUM']);
    expect(severity(script(`${read}\nif (!['admin', 'write'].includes(data.permission)) throw new Error('not allowed');\n${later}`))).toEqual(['MEDIUM']);
    expect(severity(shell('if [ "$PERM" != admin ]; then\n  echo "not allowed"\n  exit 1\nfi'))).toEqual(['MEDIUM']);
    expect(severity(script(`${read}\nif (data.permission === 'admin') {\n  return;\n}\ncore.setFailed('not allowed');`))).toEqual(['MEDIUM']);
    // A quiet return on another test (which command was given) is not the deny path.
    expect(severity(script(`${read}\nif (!context.payload.comment.body.includes('/patch')) return;\nif (data.permission !== 'admin') core.setFailed('not allowed');`))).toEqual(['MEDIUM']);
  });

  it("a permission check that also lets the pull request's author through approves nothing of their code", () => {
    const workflow = (env: string, body: string) => `on:
  issue_comment:
    types: [created]
jobs:
  e2e:
    if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/e2e')
    runs-on: ubuntu-latest
    steps:
      - id: auth
        env:
          GH_TOKEN: \${{ secrets.BOT_TOKEN }}
          ACTOR: \${{ github.event.comment.user.login }}
${env}
        run: |
${body.split('\n').map((l) => `          ${l}`).join('\n')}
      - if: steps.auth.outputs.authorized == 'false'
        run: exit 1
      - uses: actions/checkout@v3
        with:
          ref: refs/pull/\${{ github.event.issue.number }}/head
      - run: python3 scripts/select_tests.py
        env:
          TOKEN: \${{ secrets.BOT_TOKEN }}
`;
    const role = `ROLE=$(gh api "repos/$GITHUB_REPOSITORY/collaborators/$ACTOR/permission" --jq '.role_name')
case "$ROLE" in
  write|maintain|admin) echo "authorized=true" >> "$GITHUB_OUTPUT" ;;
  *) echo "authorized=false" >> "$GITHUB_OUTPUT" ;;
esac`;
    const authorFirst = (test: string) => `if ${test}; then
  echo "the author, authorized"
  echo "authorized=true" >> "$GITHUB_OUTPUT"
else
${role.split('\n').map((l) => `  ${l}`).join('\n')}
fi`;
    const author = '          PR_AUTHOR: ${{ github.event.issue.user.login }}';
    // The author passes: anyone can open a pull request and comment /e2e on it. HIGH, the check named as open.
    const open = scanWith(RULE, workflow(author, authorFirst('[ "$ACTOR" = "$PR_AUTHOR" ]')));
    expect(open.map((f) => f.severity)).toEqual(['HIGH']);
    expect(open[0]?.description).toContain('anyone with a GitHub account');
    expect(open[0]?.description).toContain("it also lets the pull request's own author through (`if [ \"$ACTOR\" = \"$PR_AUTHOR\" ]; then`)");
    // Negative: the role check alone is a maintainer's approval (MEDIUM: the branch can move after it).
    const gated = scanWith(RULE, workflow(author, role));
    expect(gated.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(gated[0]?.description).toContain('a maintainer approves each run first');
    // Negative: a test that fails the author (no approving your own pull request) lets nobody extra in.
    const selfApproval = `if [ "$ACTOR" = "$PR_AUTHOR" ]; then
  echo "authorized=false" >> "$GITHUB_OUTPUT"
  exit 1
fi
${role}`;
    expect(scanWith(RULE, workflow(author, selfApproval)).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it("does not follow a caller into a reusable workflow's job that its fixed inputs rule out", () => {
    // The called job uploads coverage with a stored secret after checking out the ref it is given; it runs only when
    // `enable-coverage` is set, which only the scheduled caller does. The comment caller passes the pull request's head.
    const called = `on:
  workflow_call:
    inputs:
      ref: { type: string, required: true }
      enable-coverage: { type: boolean, required: false, default: false }
jobs:
  upload:
    if: \${{ !cancelled() && inputs.enable-coverage }}
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
        with:
          ref: \${{ inputs.ref }}
      - run: python3 tools/upload_coverage.py
        env:
          OBS_KEY: \${{ secrets.OBS_KEY }}
`;
    const comment = (extra: string) => `on:
  issue_comment:
    types: [created]
jobs:
  pr:
    if: github.event.issue.pull_request
    runs-on: ubuntu-latest
    outputs:
      sha: \${{ steps.pr.outputs.sha }}
    steps:
      - id: pr
        env:
          GH_TOKEN: \${{ github.token }}
        run: echo "sha=$(gh pr view \${{ github.event.issue.number }} --json headRefOid --jq .headRefOid)" >> "$GITHUB_OUTPUT"
  tests:
    needs: pr
    uses: ./.github/workflows/called.yml
    secrets: inherit
    with:
      ref: \${{ needs.pr.outputs.sha }}
${extra}`;
    const scheduled = `on:
  schedule:
    - cron: '0 3 * * *'
jobs:
  coverage:
    uses: ./.github/workflows/called.yml
    secrets: inherit
    with:
      ref: main
      enable-coverage: true
`;
    const files = (extra: string) => [
      { path: '.github/workflows/called.yml', text: called },
      { path: '.github/workflows/comment.yml', text: comment(extra) },
      { path: '.github/workflows/scheduled.yml', text: scheduled },
    ];
    expect(scanWith(RULE, files('')).filter((f) => f.severity !== 'LOW' && f.severity !== 'INFO')).toEqual([]);
    // Negative: the comment caller turns coverage on (a literal, or an expression the scan cannot fold): it reaches the job.
    expect(scanWith(RULE, files('      enable-coverage: true')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, files("      enable-coverage: ${{ contains(github.event.comment.body, 'coverage') }}")).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('ignores workflows without a privileged trigger and checkouts of the base', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request
      jobs:
        t:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
    `)).toEqual([]);
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        t:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.base.sha }}
            - uses: actions/checkout@v3
            - run: make
    `)).toEqual([]);
  });

  it('reports jobs only branches of this repository reach at LOW, naming the gate; not other trusted authors', () => {
    const found = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        same-repo:
          if: github.event.pull_request.head.repo.full_name == github.repository
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
        not-fork:
          runs-on: ubuntu-latest
          steps:
            - if: \${{ !github.event.pull_request.head.repo.fork }}
              uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
        member:
          if: contains(fromJSON('["OWNER", "MEMBER"]'), github.event.pull_request.author_association)
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
    `);
    // Fork exclusion (a same-repository condition, a step's `!head.repo.fork`): the job runs the pull request's code
    // for branches of this repository: LOW, naming the gate. A member author is not fork exclusion: no claim.
    expect(positions(found)).toEqual(['9:16 LOW', '17:16 LOW']);
    expect(found[0]?.description).toContain('only pull requests from branches of this repository reach it (`github.event.pull_request.head.repo.full_name == github.repository`)');
    expect(found[1]?.description).toContain('(`!github.event.pull_request.head.repo.fork`)');
    expect(found[0]?.description).toContain('then runs `make` from the workspace');
  });

  it('reports a same-repository job that checks out the head branch and runs a build at LOW, with what it holds', () => {
    const workflow = (gate: string, later = '- run: make gomodtidy') => `on: pull_request_target
permissions:
  contents: write
  pull-requests: write
jobs:
  tidy:
    runs-on: ubuntu-latest
    if: \${{ github.actor == 'dependabot[bot]' && ${gate} }}
    steps:
      - uses: actions/checkout@8e5e7e5ab8b370d6c329ec480221332ada57f0ab
        with:
          ref: \${{ github.event.pull_request.head.ref }}
          token: \${{ secrets.BOT_PAT }}
      ${later}
      - run: git push origin "$HEAD_REF"
        env:
          HEAD_REF: \${{ github.event.pull_request.head.ref }}
`;
    for (const gate of ["github.event.pull_request.head.repo.full_name == 'owner/repo'", 'github.event.pull_request.head.repo.full_name == github.repository', 'github.event.pull_request.head.repo.fork == false']) {
      const found = scanWith(RULE, workflow(gate));
      expect(positions(found), gate).toEqual(['12:16 LOW']);
      const text = found[0]?.description ?? '';
      expect(text).toContain('from `github.event.pull_request.head.ref`');
      expect(text).toContain('step 2 of job `tidy` (line 14) then runs `make gomodtidy` from the workspace');
      expect(text).toContain('only pull requests from branches of this repository reach it');
      expect(text).toContain('the job holds `contents: write`, secret `BOT_PAT`');
    }
    // Negative: nothing runs the checkout (git only): no claim.
    expect(scanWith(RULE, workflow('github.event.pull_request.head.repo.full_name == github.repository', '- run: git diff --stat'))).toEqual([]);
    // Negative: without fork exclusion the branch name is the base repository's branch, whatever a fork names: not reported.
    expect(scanWith(RULE, workflow("github.event.pull_request.user.login == 'dependabot[bot]'"))).toEqual([]);
  });

  it('keeps the severity of a checkout forks reach when an `||` lets them past the same-repository condition', () => {
    const found = scanWith(RULE, yaml`
      on: pull_request_target
      permissions:
        contents: write
      jobs:
        build:
          if: github.event.pull_request.head.repo.full_name == github.repository || github.event.action == 'opened'
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
    `);
    expect(positions(found)).toEqual(['11:16 HIGH']);
    expect(found[0]?.description).not.toContain('branches of this repository');
  });

  it("reads each checkout's own step condition, in any form of fork exclusion, next to a checkout for forks", () => {
    // Two checkouts in one job, for same-repository pull requests and for forks: they never run in the same job run.
    const workflow = (trigger: string, ref: string, same: string, fork: string, later = '- uses: some-org/comment-action@v2') => `on:
  ${trigger}
permissions:
  contents: write
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
        if: ${same}
        with:
          ref: \${{ ${ref} }}
      - uses: actions/checkout@v3
        if: ${fork}
        with:
          ref: \${{ ${ref} }}
          path: other
          persist-credentials: false
      ${later}
`;
    const PRT = 'pull_request_target:';
    const RUN = 'workflow_run:\n    workflows: [ci]\n    types: [completed]';
    const HEAD = 'github.event.pull_request.head.sha';
    const RUN_HEAD = 'github.event.workflow_run.head_sha';
    const pairs: [string, string, string, string][] = [
      [PRT, HEAD, 'github.event.pull_request.head.repo.full_name == github.repository', 'github.event.pull_request.head.repo.full_name != github.repository'],
      [PRT, HEAD, 'github.event.pull_request.head.repo.fork == false', 'github.event.pull_request.head.repo.fork'],
      [PRT, HEAD, 'github.event.pull_request.head.repo.fork != true', 'github.event.pull_request.head.repo.fork == true'],
      [PRT, HEAD, "${{ !github.event.pull_request.head.repo.fork }}", "${{ github.event.pull_request.head.repo.fork }}"],
      [PRT, HEAD, "\"!(github.event.pull_request.head.repo.full_name != github.repository)\"", 'github.event.pull_request.head.repo.full_name != github.repository'],
      [PRT, HEAD, 'github.event.pull_request.head.repo.full_name == github.event.pull_request.base.repo.full_name', 'github.event.pull_request.head.repo.full_name != github.event.pull_request.base.repo.full_name'],
      [PRT, HEAD, 'github.event.pull_request.head.repo.id == github.repository_id', 'github.event.pull_request.head.repo.id != github.repository_id'],
      [PRT, HEAD, "github.event.pull_request.head.repo.owner.login == github.repository_owner && github.event.action != 'closed'", 'github.event.pull_request.head.repo.owner.login != github.repository_owner'],
      [RUN, RUN_HEAD, 'github.event.workflow_run.head_repository.full_name == github.repository', 'github.event.workflow_run.head_repository.full_name != github.repository'],
      [RUN, RUN_HEAD, 'github.event.workflow_run.head_repository.full_name == github.event.workflow_run.repository.full_name', 'github.event.workflow_run.head_repository.full_name != github.event.workflow_run.repository.full_name'],
      [RUN, RUN_HEAD, "${{ !github.event.workflow_run.head_repository.fork }}", "${{ github.event.workflow_run.head_repository.fork }}"],
    ];
    const ci = { path: '.github/workflows/ci.yml', text: 'name: ci\non: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n' };
    for (const [trigger, ref, same, fork] of pairs) {
      const findings = scanWith(RULE, [{ path: '.github/workflows/w.yml', text: workflow(trigger, ref, same, fork) }, ci]);
      // Only the checkout for forks is the outsider's (its `ref:`); the same-repository one is a collaborator's code.
      expect(positions(findings), same).toEqual([trigger === PRT ? '16:16 MEDIUM' : '18:16 MEDIUM']);
    }
    // Negative: a condition that does not exclude forks (a label anyone's pull request can carry, an unrelated check) is reported.
    for (const same of ["github.event.pull_request.head.repo.full_name == github.repository || contains(github.event.pull_request.labels.*.name, 'safe')", "github.event.pull_request.head.repo.name == github.event.repository.name"]) {
      const findings = scanWith(RULE, workflow(PRT, HEAD, same, 'github.event.pull_request.head.repo.fork'));
      expect(positions(findings), same).toEqual(['12:16 MEDIUM', '16:16 MEDIUM']);
      expect(findings[0]?.description).not.toContain('only trusted authors');
    }
  });

  it('never joins two steps that cannot run in the same job run', () => {
    const job = (steps: string) => `on: pull_request_target
permissions:
  contents: write
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
${steps}
`;
    const forkCheckout = `      - uses: actions/checkout@v3
        if: github.event.pull_request.head.repo.full_name != github.repository
        with:
          ref: \${{ github.event.pull_request.head.sha }}
          persist-credentials: false
`;
    const sameCheckout = `      - uses: actions/checkout@v3
        if: github.event.pull_request.head.repo.full_name == github.repository
        with:
          ref: \${{ github.event.pull_request.head.sha }}
`;
    // A later checkout into the same directory for same-repository pull requests does not replace the fork's on a
    // fork's run: the build runs the fork's code there.
    const replaced = scanWith(RULE, job(`${forkCheckout}${sameCheckout}      - run: npm ci && npm test
        env:
          TOKEN: \${{ secrets.NPM_TOKEN }}
`));
    expect(positions(replaced)).toEqual(['11:16 HIGH']);
    expect(replaced[0]?.description).toContain('then runs `npm ci`');
    // Both checkouts can run in one job run (no fork condition on the second): the second replaces the first.
    const both = scanWith(RULE, job(`${forkCheckout}      - uses: actions/checkout@v3
        with:
          ref: \${{ github.event.pull_request.base.sha }}
      - run: npm ci && npm test
        env:
          TOKEN: \${{ secrets.NPM_TOKEN }}
`));
    expect(positions(both)).toEqual(['11:16 MEDIUM']);
    // A tool that loads configuration, run only for same-repository pull requests, never runs with the fork's checkout.
    const apart = scanWith(RULE, job(`${forkCheckout}      - run: npx some-linter .
        if: github.event.pull_request.head.repo.full_name == github.repository
        env:
          TOKEN: \${{ secrets.NPM_TOKEN }}
      - run: git diff --stat
`));
    expect(apart).toEqual([]);
    // The same tool with no condition runs after the fork's checkout: MEDIUM.
    const joined = scanWith(RULE, job(`${forkCheckout}      - run: npx some-linter .
        env:
          TOKEN: \${{ secrets.NPM_TOKEN }}
`));
    expect(positions(joined)).toEqual(['11:16 MEDIUM']);
  });

  it('still reports a spoofable bot-actor check, or a guard on only one branch of an ||', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        bot:
          if: github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
        either:
          if: github.event.pull_request.head.repo.fork == false || github.event.action == 'labeled'
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
    `);
    expect(positions(findings)).toEqual(['9:16 HIGH', '17:16 HIGH']);
  });

  it('accepts a maintainer approval only for the approved commit', () => {
    const findings = scanWith(RULE, yaml`
      on:
        pull_request_target:
          types: [labeled]
      jobs:
        pinned:
          if: github.event.label.name == 'safe to test'
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
        branch:
          if: contains(github.event.pull_request.labels.*.name, 'safe to test')
          runs-on: ubuntu-latest
          steps:
            - run: gh pr checkout \${{ github.event.pull_request.number }} && make
    `);
    // The label was applied to the code as it was: the pinned head is what runs (LOW, the remaining race named);
    // the branch can move after it: MEDIUM.
    expect(positions(findings)).toEqual(['11:16 LOW', '17:14 MEDIUM']);
    expect(findings[0]?.description).toContain('the approval applies to the commit the event names');
    expect(findings[1]?.description).toContain('a maintainer approves the first run');
    expect(findings[1]?.description).toContain('any later label event');
  });

  it('is MEDIUM when each way to run is a member\'s comment or an event only maintainers cause', () => {
    expect(positions(scanWith(RULE, yaml`
      on:
        schedule:
          - cron: '0 0 * * *'
        issue_comment:
          types: [created]
      jobs:
        bot:
          if: github.event_name == 'schedule' || (github.event_name == 'issue_comment' && contains(fromJSON('["OWNER", "MEMBER", "COLLABORATOR"]'), github.event.comment.author_association))
          runs-on: ubuntu-latest
          steps:
            - id: ref
              run: echo "ref=$(gh pr view "$N" --json headRefOid --jq .headRefOid)" >> "$GITHUB_OUTPUT"
            - uses: actions/checkout@v3
              with:
                ref: \${{ steps.ref.outputs.ref }}
            - run: npm ci
    `))).toEqual(['15:16 MEDIUM']);
  });

  it('is MEDIUM when a labeled-only workflow checks the labels the pull request has: a later label event runs newer commits', () => {
    const workflow = (condition: string) => yaml`
      on:
        pull_request_target:
          types: [labeled]
      jobs:
        test:
          if: ${condition}
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: make
    `;
    // The labels the pull request has: the approval stays when new commits come, and the next label event
    // (any label, by a maintainer or a bot) runs them, even with the event's head SHA pinned.
    const sticky = scanWith(RULE, workflow("contains(github.event.pull_request.labels.*.name, 'ok-to-test')"));
    expect(positions(sticky)).toEqual(['11:16 MEDIUM']);
    expect(sticky[0]?.description).toContain('any later label event');
    expect(sticky[0]?.description).not.toContain('the approval applies to the commit the event names');
    // The label the event adds: each run is the commit that was labelled (LOW, the remaining race named).
    const bound = scanWith(RULE, workflow("github.event.label.name == 'ok-to-test'"));
    expect(positions(bound)).toEqual(['11:16 LOW']);
    expect(bound[0]?.description).toContain('the approval applies to the commit the event names');
    // Both: the event's label binds the approval.
    const both = scanWith(RULE, workflow("github.event.label.name == 'ok-to-test' && contains(github.event.pull_request.labels.*.name, 'ok-to-test')"));
    expect(positions(both)).toEqual(['11:16 LOW']);
  });

  it('keeps a label check HIGH when the workflow also runs on new commits (the label stays)', () => {
    expect(positions(scanWith(RULE, yaml`
      on:
        pull_request_target:
          types: [labeled, synchronize]
      jobs:
        branch:
          if: contains(github.event.pull_request.labels.*.name, 'safe to test')
          runs-on: ubuntu-latest
          steps:
            - run: gh pr checkout \${{ github.event.pull_request.number }} && make
    `))).toEqual(['9:14 HIGH']);
  });

  it('treats a permission check whose failing step is a separate one as an approval (TOCTOU stays MEDIUM)', () => {
    const workflow = (fail: string) => yaml`
      on:
        issue_comment:
          types: [created]
      jobs:
        gate:
          runs-on: ubuntu-latest
          steps:
            - id: auth
              env:
                COMMENTER: \${{ github.event.comment.user.login }}
              run: |
                PERM=$(gh api "repos/$REPO/collaborators/$COMMENTER/permission" --jq .permission)
                if [ "$PERM" = admin ] || [ "$PERM" = write ]; then echo "authorized=true" >> "$GITHUB_OUTPUT"; else echo "authorized=false" >> "$GITHUB_OUTPUT"; fi
            - if: steps.auth.outputs.authorized != 'true'
              run: ${fail}
        tests:
          needs: gate
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: refs/pull/\${{ github.event.issue.number }}/head
            - run: pip install -e .
    `;
    const gated = scanWith(RULE, workflow('exit 1'));
    expect(positions(gated)).toEqual(['22:16 MEDIUM']);
    expect(gated[0]?.description).toContain('a maintainer approves each run first');
    // A step that only comments, without failing the job, is no gate.
    expect(positions(scanWith(RULE, workflow('echo "not allowed"')))).toEqual(['22:16 HIGH']);
  });

  it('reports a checkout after a step that fails for pull requests from forks at LOW, naming the check', () => {
    const workflow = (onFork: string) => yaml`
      on: issue_comment
      jobs:
        fix:
          if: github.event.issue.pull_request && contains(fromJSON('["OWNER", "MEMBER", "COLLABORATOR"]'), github.event.comment.author_association)
          runs-on: ubuntu-latest
          steps:
            - id: pr
              uses: actions/github-script@v7
              with:
                script: |
                  const { data: pull } = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });
                  if (pull.head.repo.full_name !== context.repo.owner + '/' + context.repo.repo) {
                    ${onFork}
                  }
                  core.setOutput('ref', pull.head.sha);
            - uses: actions/checkout@v3
              with:
                ref: \${{ steps.pr.outputs.ref }}
            - run: pnpm install && pnpm format
    `;
    // The failing step keeps forks out: what runs is a branch of this repository (LOW, naming the check).
    const same = scanWith(RULE, workflow("core.setFailed('PR is from a fork');"));
    expect(positions(same)).toEqual(['18:16 LOW']);
    expect(same[0]?.description).toContain('only pull requests from branches of this repository reach it (fork check in step `pr`)');
    expect(positions(scanWith(RULE, workflow("core.info('fork');")))).toEqual(['18:16 MEDIUM']);
  });

  it('a check that fails only a fork\'s pull request from its main branch is no fork gate: other forks\' branches pass', () => {
    const workflow = (check: string) => yaml`
      on: pull_request_target
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - name: Block PRs from main
              run: |
                ${check}
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm ci && npm test
              env:
                NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
    `;
    const head = '"${{ github.event.pull_request.head.repo.full_name }}" != "${{ github.repository }}"';
    // Joined to a test of the branch (in shell or as an expression): forks' other branches reach the checkout.
    for (const check of [
      `if [ ${head} ] && [ "\${{ github.head_ref }}" = main ]; then exit 1; fi`,
      `if [ "\${{ github.event.pull_request.head.repo.fork && github.head_ref == 'main' }}" = true ]; then exit 1; fi`,
      `[ ${head} -a "\${{ github.head_ref }}" = main ] && exit 1`,
    ]) {
      const found = scanWith(RULE, workflow(check));
      expect(positions(found), check).toEqual(['11:16 HIGH']);
      expect(found[0]?.description, check).not.toContain('fork check');
    }
    // The head repository's test alone (a command after it is no second test): a fork gate, named.
    for (const check of [`if [ ${head} ]; then echo "no forks" && exit 1; fi`, `[ ${head} ] && echo "forks are not built" && exit 1`]) {
      const found = scanWith(RULE, workflow(check));
      expect(positions(found), check).toEqual(['11:16 LOW']);
      expect(found[0]?.description, check).toContain('fork check in step `Block PRs from main`');
    }
  });

  it('a fork test kept in a name counts only where the condition that reads it joins no other test: `isFork && !maintainer_can_modify` lets forks through', () => {
    const workflow = (condition: string, shell = false) => yaml`
      on: pull_request_target
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - name: Check fork status
${shell
  ? `              run: |
                IS_FORK=\${{ github.event.pull_request.head.repo.full_name != github.repository }}
                if [ ${condition} ]; then
                  echo "forks are not built"
                  exit 1
                fi`
  : `              uses: actions/github-script@v7
              with:
                script: |
                  const { data: pr } = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });
                  const isFork = pr.head.repo.full_name !== pr.base.repo.full_name;
                  if (${condition}) {
                    core.setFailed('Fork pull requests are not built here');
                    return;
                  }`}
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm ci && npm test
              env:
                NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
    `;
    // The test alone (or widened with `||`): a fork gate, named.
    for (const [condition, shell] of [['isFork', false], ['isFork || pr.draft', false], ['"$IS_FORK" = true', true]] as const) {
      const found = scanWith(RULE, workflow(condition, shell));
      expect(found.map((f) => f.severity), condition).toEqual(['LOW']);
      expect(found[0]?.description, condition).toContain('fork check in step `Check fork status`');
    }
    // Narrowed by another test: a fork that lets maintainers edit it (the default) passes, and its code runs.
    for (const [condition, shell] of [['isFork && !pr.maintainer_can_modify', false], ['"$IS_FORK" = true ] && [ "$CAN_MODIFY" != true', true]] as const) {
      const found = scanWith(RULE, workflow(condition, shell));
      expect(found.map((f) => f.severity), condition).toEqual(['HIGH']);
      expect(found[0]?.description, condition).not.toContain('fork check');
    }
  });

  it("a job that reads the pull request's fork flag from the API and hands it on keeps forks out of the job that requires it to be false", () => {
    const workflow = (lookup: string, test: string) => yaml`
      on:
        issue_comment:
          types: [created]
      jobs:
        is-fork:
          if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/preview')
          runs-on: ubuntu-latest
          outputs:
            IS_FORK: \${{ steps.fork.outputs.IS_FORK }}
          steps:
            - id: fork
              run: echo "IS_FORK=$(gh pr view ${lookup} "$PR_NUMBER")" >> "$GITHUB_OUTPUT"
              env:
                GH_TOKEN: \${{ github.token }}
                PR_NUMBER: \${{ github.event.issue.number }}
        preview:
          needs: is-fork
          if: needs.is-fork.outputs.IS_FORK == '${test}'
          runs-on: ubuntu-latest
          steps:
            - run: gh pr checkout "$PR_NUMBER"
              env:
                GH_TOKEN: \${{ github.token }}
                PR_NUMBER: \${{ github.event.issue.number }}
            - run: yarn install && yarn build && yarn publish-previews
              env:
                NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
    `;
    const gated = scanWith(RULE, workflow("--json isCrossRepository --jq '.isCrossRepository'", 'false'));
    expect(gated.map((f) => f.severity)).toEqual(['LOW']);
    expect(gated[0]?.description).toContain("only pull requests from branches of this repository reach it (`needs.is-fork.outputs.IS_FORK == 'false'`)");
    // The flag required true selects forks; another field of the answer is no fork flag.
    expect(scanWith(RULE, workflow("--json isCrossRepository --jq '.isCrossRepository'", 'true')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow("--json isDraft --jq '.isDraft'", 'false')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it("follows a pull request's head through two calls of reusable workflows, and only through callers that run on a privileged trigger", () => {
    const inner = yaml`
      on:
        workflow_call:
          inputs:
            sha: { type: string, required: true }
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ inputs.sha }}
            - run: make build
              env:
                REGISTRY_TOKEN: \${{ secrets.REGISTRY_TOKEN }}
    `;
    const mid = yaml`
      on:
        workflow_call:
          inputs:
            sha: { type: string, required: true }
      jobs:
        inner:
          uses: ./.github/workflows/inner.yml
          with:
            sha: \${{ inputs.sha }}
          secrets: inherit
    `;
    const outer = (on: string, sha: string) => yaml`
      on: ${on}
      jobs:
        ci:
          uses: ./.github/workflows/mid.yml
          with:
            sha: ${sha}
          secrets: inherit
    `;
    const files = (callers: { path: string; text: string }[]) => [{ path: '.github/workflows/inner.yml', text: inner }, { path: '.github/workflows/mid.yml', text: mid }, ...callers];
    const found = scanWith(RULE, files([{ path: '.github/workflows/pr.yml', text: outer('pull_request_target', '${{ github.event.pull_request.head.sha }}') }])).filter((f) => f.file === '.github/workflows/inner.yml');
    expect(found.map((f) => f.severity)).toEqual(['HIGH']);
    expect(found[0]?.description).toContain('from `inputs.sha <- inputs.sha <- github.event.pull_request.head.sha`');
    // A dispatch-only caller that names a pull request's head, beside a privileged caller that passes a fixed branch:
    // the head comes through no privileged run.
    const mixed = files([
      { path: '.github/workflows/bench.yml', text: outer('workflow_dispatch', "${{ format('refs/pull/{0}/head', github.run_number) }}") },
      { path: '.github/workflows/pr.yml', text: outer('pull_request_target', 'main') },
    ]);
    expect(scanWith(RULE, mixed).filter((f) => f.file === '.github/workflows/inner.yml')).toEqual([]);
  });

  it('does not report a branch name checked out without the head repository: that is the base repository\'s branch', () => {
    const workflow = (checkout: string, lookup = 'headRefName') => yaml`
      on:
        issue_comment:
          types: [created]
        pull_request_target:
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - id: pr
              run: echo "ref=$(gh pr view "$N" --json ${lookup} --jq .${lookup})" >> "$GITHUB_OUTPUT"
            - uses: actions/checkout@v3
              with:
${checkout}
            - run: npm ci
    `;
    // The fork's branch does not exist in the base repository: the base's branch of that name (or none) is fetched.
    expect(scanWith(RULE, workflow('                ref: ${{ github.head_ref }}'))).toEqual([]);
    expect(scanWith(RULE, workflow('                ref: ${{ github.event.pull_request.head.ref }}'))).toEqual([]);
    expect(scanWith(RULE, workflow('                ref: ${{ steps.pr.outputs.ref }}'))).toEqual([]);
    expect(scanWith(RULE, workflow('                ref: ${{ steps.pr.outputs.ref }}\n                repository: ${{ github.repository }}'))).toEqual([]);
    // With the head repository named, the branch is the fork's: its code.
    const fork = scanWith(RULE, workflow('                repository: ${{ github.event.pull_request.head.repo.full_name }}\n                ref: ${{ github.head_ref }}'));
    expect(positions(fork)).toEqual(['13:23 HIGH']);
    expect(fork[0]?.description).toContain('github.event.pull_request.head.repo.full_name');
    // A lookup of the head commit is the fork's code whatever else it looks up.
    expect(positions(scanWith(RULE, workflow('                ref: ${{ steps.pr.outputs.ref }}', 'headRefOid')))).toEqual(['13:16 HIGH']);
  });

  it('treats a branch name in a script like one in ref: the base remote\'s branch, the fork\'s with the head repository', () => {
    const workflow = (script: string) => `on: pull_request_target\njobs:\n  build:\n    runs-on: ubuntu-latest\n    env:\n      FORK: \${{ github.event.pull_request.head.repo.clone_url }}\n    steps:\n      - uses: actions/checkout@v3\n      - run: |\n${script.split('\n').map((l) => `          ${l}`).join('\n')}\n          npm ci\n`;
    // On the base repository's remote, the name selects the base repository's branch (or none): not fork code.
    for (const script of [
      'git checkout ${{ github.head_ref }}',
      'git pull origin ${{ github.event.pull_request.head.ref }}',
      'git fetch origin ${{ github.head_ref }}\ngit checkout FETCH_HEAD',
    ]) expect(scanWith(RULE, workflow(script)), script).toEqual([]);
    // Fetched from the head repository (its URL in the command, through env, or a remote added for it): fork code.
    for (const script of [
      'git fetch ${{ github.event.pull_request.head.repo.clone_url }} ${{ github.head_ref }}\ngit checkout FETCH_HEAD',
      'git pull "$FORK" ${{ github.head_ref }}',
      'git remote add fork ${{ github.event.pull_request.head.repo.clone_url }}\ngit fetch fork ${{ github.head_ref }}\ngit checkout FETCH_HEAD',
      'git remote add fork "$FORK"\ngit checkout -b pr fork/${{ github.head_ref }}',
      'git fetch origin pull/${{ github.event.pull_request.number }}/head\ngit checkout FETCH_HEAD',
      'gh pr checkout ${{ github.event.pull_request.number }}',
    ]) expect(scanWith(RULE, workflow(script)).map((f) => f.severity), script).toEqual(['HIGH']);
  });

  it('reports gh pr checkout and git checkouts of fetched pull request refs, not a fetch for a diff', () => {
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        diff:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - run: |
                git fetch origin pull/\${{ github.event.issue.number }}/head:pr
                git diff main...pr
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - run: |
                git fetch origin refs/pull/\${{ github.event.issue.number }}/head
                git checkout FETCH_HEAD
            - run: make
    `);
    expect(positions(findings)).toEqual(['16:11 HIGH']);
    expect(findings[0]?.description).toContain('fetched earlier');
  });

  it('follows the head through step outputs that look it up, but not the base', () => {
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - id: pr
              uses: actions/github-script@v7
              with:
                script: |
                  const pr = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });
                  core.setOutput('base', pr.data.base.sha);
                  core.setOutput('head', pr.data.head.sha);
            - uses: actions/checkout@v3
              with:
                ref: \${{ steps.pr.outputs.base }}
            - uses: actions/checkout@v3
              with:
                ref: \${{ steps.pr.outputs.head }}
            - run: go test ./...
    `);
    expect(positions(findings)).toEqual(['18:16 HIGH']);
    expect(findings[0]?.description).toContain('steps.pr.outputs.head');
  });

  it('reports workflow_run heads: the runs it follows can come from pull requests, by the repository\'s workflow or one a fork adds', () => {
    const follower = yaml`
      on:
        workflow_run:
          workflows: [CI]
          types: [completed]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.workflow_run.head_sha }}
            - run: make
    `;
    const ci = (trigger: string) => ({ path: '.github/workflows/ci.yml', text: `name: CI\non: ${trigger}\njobs: {}\n` });
    const fromPullRequests = scanWith(RULE, [{ path: '.github/workflows/follow.yml', text: follower }, ci('[push, pull_request]')]);
    expect(positions(fromPullRequests)).toEqual(['11:16 HIGH']);
    expect(fromPullRequests[0]?.description).toContain('workflow triggered by `workflow_run`');
    // CI runs only on push: a fork's pull request adds a workflow named CI, whose run's head is the fork's.
    expect(positions(scanWith(RULE, [{ path: '.github/workflows/follow.yml', text: follower }, ci('push')]))).toEqual(['11:16 HIGH']);
  });

  it('tolerates odd shapes', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with: { ref: [a, b] }
            - uses: actions/checkout@v3
              with:
            - run:
        k:
          steps: 3
    `)).toEqual([]);
  });
});

describe('untrusted-checkout: /ok-to-test through repository_dispatch', () => {
  const e2e = yaml`
    on:
      repository_dispatch:
        types: [ok-to-test-command]
    jobs:
      test:
        runs-on: ubuntu-latest
        permissions:
          id-token: write
          contents: read
        steps:
          - uses: actions/checkout@v3
            with:
              ref: refs/pull/\${{ github.event.client_payload.pull_request.number }}/merge
          - run: make e2e
  `;
  const dispatcher = (permission: string) => ({
    path: '.github/workflows/ok-to-test.yml',
    text: yaml`
      on:
        issue_comment:
          types: [created]
      jobs:
        dispatch:
          if: github.event.issue.pull_request
          runs-on: ubuntu-latest
          steps:
            - uses: peter-evans/slash-command-dispatch@v4
              with:
                token: \${{ secrets.PAT }}
                commands: ok-to-test
                issue-type: pull-request
                ${permission}
    `,
  });
  const files = (...others: { path: string; text: string }[]) => [{ path: '.github/workflows/e2e.yml', text: e2e }, ...others];

  it('is MEDIUM when a collaborator\'s slash command sends the event, saying the merge ref can move after the approval', () => {
    const findings = scanWith(RULE, files(dispatcher('permission: write')));
    expect(positions(findings)).toEqual(['13:16 MEDIUM']);
    expect(findings[0]?.description).toContain('`/ok-to-test` comment');
    expect(findings[0]?.description).toContain('commits pushed after the approval run');
    // The default permission of the dispatcher is `write`.
    expect(positions(scanWith(RULE, files(dispatcher(''))))).toEqual(['13:16 MEDIUM']);
    // No dispatcher in the repository: whoever sends the event holds a write token.
    expect(positions(scanWith(RULE, files()))).toEqual(['13:16 MEDIUM']);
  });

  it('takes `permission: triage` for a collaborator\'s act: a role a maintainer grants, checked before the dispatch', () => {
    const findings = scanWith(RULE, files(dispatcher('permission: triage')));
    expect(positions(findings)).toEqual(['13:16 MEDIUM']);
    expect(findings[0]?.description).toContain('only for users with `triage` permission');
    expect(findings[0]?.description).not.toContain('anyone with a GitHub account');
  });

  it('stays HIGH when the dispatcher lets anyone run the command, or sends the event for every pull request', () => {
    expect(positions(scanWith(RULE, files(dispatcher('permission: none'))))).toEqual(['13:16 HIGH']);
    expect(positions(scanWith(RULE, files(dispatcher('permission: read'))))).toEqual(['13:16 HIGH']);
    const automatic = {
      path: '.github/workflows/forward.yml',
      text: yaml`
        on: pull_request_target
        jobs:
          forward:
            runs-on: ubuntu-latest
            steps:
              - uses: peter-evans/repository-dispatch@v3
                with:
                  event-type: ok-to-test-command
                  client-payload: '{"pull_request": {"number": \${{ github.event.number }}}}'
      `,
    };
    const findings = scanWith(RULE, files(automatic));
    expect(positions(findings)).toEqual(['13:16 HIGH']);
    // A dispatch of another event type changes nothing.
    const other = { ...automatic, text: automatic.text.replace('ok-to-test-command', 'docs-command') };
    expect(positions(scanWith(RULE, files(other)))).toEqual(['13:16 MEDIUM']);
  });

  it('reads the pull request head a dispatch payload carries (`client_payload.pull_request.head.*`) as that pull request\'s code', () => {
    const headCheckout = (inputs: string) => ({
      path: '.github/workflows/e2e.yml',
      text: e2e.replace('ref: refs/pull/${{ github.event.client_payload.pull_request.number }}/merge', inputs),
    });
    // The head's repository and branch: the fork's code, moving after the command (MEDIUM, the race named).
    const branch = scanWith(RULE, [headCheckout('repository: ${{ github.event.client_payload.pull_request.head.repo.full_name }}\n          ref: ${{ github.event.client_payload.pull_request.head.ref }}'), dispatcher('permission: write')]);
    expect(positions(branch)).toEqual(['13:23 MEDIUM']);
    expect(branch[0]?.description).toContain('`repository_dispatch`');
    expect(branch[0]?.description).toContain('`github.event.client_payload.pull_request.head.sha`');
    // The head commit the payload names: the commit the command was given on (LOW, what is left of the race named).
    const pinned = scanWith(RULE, [headCheckout('ref: ${{ github.event.client_payload.pull_request.head.sha }}'), dispatcher('permission: write')]);
    expect(positions(pinned)).toEqual(['13:16 LOW']);
    expect(pinned[0]?.description).toContain('the approval applies to the commit the event names');
    // A dispatcher that lets anyone run the command: anyone's code, HIGH.
    expect(positions(scanWith(RULE, [headCheckout('ref: ${{ github.event.client_payload.pull_request.head.sha }}'), dispatcher('permission: none')]))).toEqual(['13:16 HIGH']);
    // The branch name alone names a branch of this repository, which only collaborators create.
    expect(positions(scanWith(RULE, [headCheckout('ref: ${{ github.event.client_payload.pull_request.head.ref }}'), dispatcher('permission: none')]))).toEqual([]);
    // Another payload field is the sender's own choice, not a pull request's head.
    expect(positions(scanWith(RULE, [headCheckout('ref: ${{ github.event.client_payload.ref }}'), dispatcher('permission: write')]))).toEqual([]);
  });
});

describe('untrusted-checkout: refs read from artifacts', () => {
  const workflow = (ci: string) => [
    { path: '.github/workflows/ci.yml', text: yaml`
      name: CI
      on: ${ci}
      jobs:
        b:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.pull_request.head.sha }}" > sha.txt
    ` },
    { path: '.github/workflows/after.yml', text: yaml`
      on:
        workflow_run:
          workflows: [CI]
          types: [completed]
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
                path: \${{ runner.temp }}/meta
            - id: meta
              run: echo "sha=$(cat "$RUNNER_TEMP/meta/sha.txt")" >> "$GITHUB_OUTPUT"
            - uses: actions/checkout@v3
              with:
                ref: \${{ steps.meta.outputs.sha }}
            - run: npm test
    ` },
  ];

  it('reports a checkout of a ref the triggering pull request wrote into an artifact', () => {
    const findings = scanWith('untrusted-checkout', workflow('pull_request'));
    expect(findings.map((f) => `${f.file}:${f.line}`)).toEqual(['.github/workflows/after.yml:17']);
    expect(findings[0]?.description).toContain('artifact content read by step meta');
  });

  it('does the same when the repository\'s followed workflow runs only on push: a fork can add one of that name', () => {
    expect(scanWith('untrusted-checkout', workflow('push')).map((f) => f.severity)).toEqual(scanWith('untrusted-checkout', workflow('pull_request')).map((f) => f.severity));
    expect(scanWith('untrusted-checkout', workflow('push')).length).toBeGreaterThan(0);
  });
});

describe(`${RULE}: what runs, from which checkout, holding what (the run model)`, () => {
  const job = (steps: string, permissions = 'contents: write') => yaml`
    on: pull_request_target
    permissions:
      ${permissions}
    jobs:
      test:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.sha }}
              path: pr
${steps}
  `;

  it('a script of the base checkout, or a registry package, does not run the fork\'s code: MEDIUM, never HIGH', () => {
    const findings = scanWith(RULE, job(`          - run: python tools/compare.py pr/\n          - run: npm install -g markdownlint-cli && markdownlint pr/docs`));
    expect(positions(findings)).toEqual(['11:16 MEDIUM']);
    expect(findings[0]?.description).toContain('no later step of the job runs code from it');
    expect(findings[0]?.description).toContain('`contents: write`');
  });

  it('a build in the fork\'s directory runs its code: HIGH, naming the step, the directory and what the job holds', () => {
    const findings = scanWith(RULE, job(`          - run: |\n              cd pr\n              npm ci`));
    expect(positions(findings)).toEqual(['11:16 HIGH']);
    expect(findings[0]?.description).toContain('runs `npm ci` from `pr/`');
    expect(findings[0]?.description).toContain('anyone with a GitHub account can start it through `pull_request_target`');
    const workingDirectory = scanWith(RULE, job(`          - run: make\n            working-directory: pr`));
    expect(positions(workingDirectory)).toEqual(['11:16 HIGH']);
  });

  it('with a read-only token and no secrets the fork\'s code runs but takes nothing: MEDIUM', () => {
    const findings = scanWith(RULE, job(`          - run: make\n            working-directory: pr`, 'contents: read'));
    expect(positions(findings)).toEqual(['11:16 MEDIUM']);
    expect(findings[0]?.description).toContain('the job holds no write scope, secret or OIDC token');
  });

  it('a local composite action runs at its caller: its build of the checkout counts, named as inside the action', () => {
    const files = [
      {
        path: '.github/workflows/test.yml',
        text: yaml`
          on: pull_request_target
          jobs:
            test:
              runs-on: ubuntu-latest
              steps:
                - uses: actions/checkout@v3
                  with:
                    ref: \${{ github.event.pull_request.head.sha }}
                - uses: ./.github/actions/setup
                  env:
                    TOKEN: \${{ secrets.NPM_TOKEN }}
        `,
      },
      { path: '.github/actions/setup/action.yml', text: yaml`
          name: setup
          runs:
            using: composite
            steps:
              - run: echo hello
                shell: bash
              - run: npm ci
                shell: bash
        ` },
    ];
    const findings = scanWith(RULE, files);
    expect(positions(findings)).toEqual(['8:16 HIGH']);
    expect(findings[0]?.description).toContain('local action `./.github/actions/setup`');
    expect(findings[0]?.description).toContain('secret `NPM_TOKEN`');
  });

  it('a label that stays when new commits are pushed is no approval: HIGH, naming the label', () => {
    const findings = scanWith(RULE, yaml`
      on:
        pull_request_target:
          types: [labeled, synchronize]
      jobs:
        test:
          if: contains(github.event.pull_request.labels.*.name, 'safe to test')
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm test
              env:
                KEY: \${{ secrets.KEY }}
    `);
    expect(positions(findings)).toEqual(['11:16 HIGH']);
    expect(findings[0]?.description).toContain('once a maintainer has labelled their pull request');
  });
});

describe(`${RULE}: refs that reach the checkout indirectly (issue 25)`, () => {
  it('a matrix value (an include entry) that is the head SHA is a pull request checkout; a fixed one is not', () => {
    const workflow = (ref: string) => yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              settings:
                - { name: base, ref: main }
              include:
                - settings: { name: head, ref: ${ref} }
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ matrix.settings.ref }}
            - run: npm test
              env:
                TOKEN: \${{ secrets.TOKEN }}
    `;
    const findings = scanWith(RULE, workflow('"${{ github.event.pull_request.head.sha }}"'));
    expect(positions(findings)).toEqual(['14:16 HIGH']);
    expect(findings[0]?.description).toContain('matrix.settings.ref <- github.event.pull_request.head.sha');
    expect(scanWith(RULE, workflow('release'))).toEqual([]);
  });

  it("a reusable workflow's checkout of an input its pull_request_target caller sets to the head SHA", () => {
    const files = [
      { path: '.github/workflows/caller.yml', text: yaml`
          on: pull_request_target
          jobs:
            call:
              uses: ./.github/workflows/build.yml
              with:
                ref: \${{ github.event.pull_request.head.sha }}
              secrets: inherit
      ` },
      { path: '.github/workflows/build.yml', text: yaml`
          on:
            workflow_call:
              inputs:
                ref: { type: string, required: true }
          jobs:
            build:
              runs-on: ubuntu-latest
              steps:
                - uses: actions/checkout@v3
                  with:
                    ref: \${{ inputs.ref }}
                - run: make
      ` },
    ];
    const findings = scanWith(RULE, files);
    expect(findings.map((f) => `${f.file}:${f.line} ${f.severity}`)).toEqual(['.github/workflows/build.yml:11 HIGH']);
    expect(findings[0]?.description).toContain('inputs.ref <- github.event.pull_request.head.sha');
    // Called only from a push workflow: nothing.
    const pushOnly = [{ ...files[0]!, text: files[0]!.text.replace('on: pull_request_target', 'on: push') }, files[1]!];
    expect(scanWith(RULE, pushOnly)).toEqual([]);
  });

  it('a workflow_run after a name only a reusable workflow has here still follows a fork\'s run of that name', () => {
    const files = [
      { path: '.github/workflows/after.yml', text: yaml`
          on:
            workflow_run:
              workflows: [reusable.yml]
          jobs:
            pr:
              runs-on: ubuntu-latest
              steps:
                - uses: actions/checkout@v3
                  with:
                    ref: \${{ github.event.workflow_run.head_sha }}
                - run: npm install
      ` },
      { path: '.github/workflows/reusable.yml', text: 'on:\n  workflow_call:\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n' },
    ];
    // The reusable workflow never runs on its own, but a fork's pull request can add a workflow of that name.
    expect(scanWith(RULE, files).map((f) => f.severity)).toEqual(['HIGH']);
    // A file name that names a pull_request workflow follows pull requests too.
    const ci = { path: '.github/workflows/reusable.yml', text: 'on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n' };
    expect(scanWith(RULE, [files[0]!, ci]).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe(`${RULE}: inside local composite actions (issue 25)`, () => {
  const action = (ref: string) => ({
    path: '.github/actions/checkout-pr/action.yml',
    text: yaml`
      name: checkout the pull request
      inputs:
        ref: { required: false }
      runs:
        using: composite
        steps:
          - uses: actions/checkout@v3
            with:
              ref: ${ref}
          - run: npm ci
            shell: bash
    `,
  });
  const workflow = (withRef: string) => ({
    path: '.github/workflows/pr.yml',
    text: yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: ./.github/actions/checkout-pr
              with:
                ref: ${withRef}
            - run: npm test
              env:
                TOKEN: \${{ secrets.TOKEN }}
    `,
  });

  it("a composite action's checkout of its input, set by a pull_request_target caller to the head SHA, is reported at the call", () => {
    const findings = scanWith(RULE, [workflow('${{ github.event.pull_request.head.sha }}'), action('${{ inputs.ref }}')]);
    expect(findings.map((f) => `${f.file}:${f.line} ${f.severity}`)).toEqual(['.github/workflows/pr.yml:6 HIGH']);
    expect(findings[0]?.description).toContain('local action `.github/actions/checkout-pr/action.yml`');
    expect(findings[0]?.description).toContain('inputs.ref <- github.event.pull_request.head.sha');
    // The action's own build of what it checked out is the first step that runs the fork's code.
    expect(findings[0]?.description).toContain('runs `npm ci` (inside local action `./.github/actions/checkout-pr`)');
  });

  it("reads the caller's event inside the action too, and nothing for a fixed ref", () => {
    expect(scanWith(RULE, [workflow('main'), action('${{ github.event.pull_request.head.sha }}')]).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, [workflow('main'), action('${{ inputs.ref }}')])).toEqual([]);
  });
});

describe(`${RULE}: a fork's head fetched on a maintainer's comment (issue 25)`, () => {
  const workflow = (fetch: string, gate = '') => yaml`
    on:
      issue_comment:
        types: [created]
    permissions:
      contents: read
    jobs:
      bench:
        if: github.event.issue.pull_request && contains(github.event.comment.body, '/bench')${gate}
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - name: Keep workflow files out
            run: cp scripts/post-checkout .git/hooks/post-checkout
          - name: Fetch
            run: |
              ${fetch}
          - name: Trusted files only
            run: if git diff --name-only origin/main...HEAD | grep -q '^.github/'; then exit 1; fi
          - run: make bench
            env:
              BENCH_TOKEN: \${{ secrets.BENCH_TOKEN }}
  `;
  const MEMBER = " && contains(fromJSON('[\"OWNER\", \"MEMBER\", \"COLLABORATOR\"]'), github.event.comment.author_association)";

  it.each([
    ['git fetch origin pull/${{ github.event.issue.number }}/head && git checkout FETCH_HEAD'],
    ['git fetch origin pull/${{ github.event.issue.number }}/head:pr-${{ github.event.issue.number }} && git checkout pr-${{ github.event.issue.number }}'],
    ['git fetch origin refs/pull/${{ github.event.issue.number }}/head:pr; git switch pr'],
  ])('reads each command of a line and fetch destinations named by an expression: %s', (fetch) => {
    const findings = scanWith(RULE, workflow(fetch));
    expect(findings.map((f) => f.severity)).toEqual(['HIGH']);
    expect(findings[0]?.description).toContain('fetched earlier');
  });

  it('is MEDIUM behind a member\'s comment, naming the race: a git hook or a trusted-files check the fork\'s code can change is no gate', () => {
    const findings = scanWith(RULE, workflow('git fetch origin pull/${{ github.event.issue.number }}/head:pr && git checkout pr', MEMBER));
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(findings[0]?.description).toContain('a maintainer approves each run first');
    expect(findings[0]?.description).toContain('commits pushed after the approval run');
  });

  it('negative: a fetch for a diff on the same line, or into a branch nothing checks out, is no checkout', () => {
    expect(scanWith(RULE, workflow('git fetch origin pull/${{ github.event.issue.number }}/head:pr && git diff main...pr'))).toEqual([]);
    expect(scanWith(RULE, workflow('git fetch origin pull/${{ github.event.issue.number }}/head:pr-${{ github.event.issue.number }} && git checkout main'))).toEqual([]);
  });
});

describe(`${RULE}: an approval race the workflow closes itself`, () => {
  // A member's comment approves the run; the job checks out the pull request's branch, resolved when it runs.
  const workflow = (check: string, opts: { if?: string; inNeededJob?: boolean } = {}) => {
    const checkStep = `
          - name: Refuse pushes after the approval
            ${opts.if === undefined ? '' : `if: ${opts.if}`}
            uses: actions/github-script@v7
            with:
              script: |
                ${check}`;
    return yaml`
    on:
      issue_comment:
        types: [created]
    permissions:
      contents: read
    jobs:
      gate:
        if: github.event.issue.pull_request && contains(fromJSON('["OWNER", "MEMBER", "COLLABORATOR"]'), github.event.comment.author_association)
        runs-on: ubuntu-latest
        steps:
          - run: echo approved${opts.inNeededJob === true ? checkStep : ''}
      test:
        needs: gate
        runs-on: ubuntu-latest
        steps:${opts.inNeededJob === true ? '' : checkStep}
          - uses: actions/checkout@v3
            with:
              ref: refs/pull/\${{ github.event.issue.number }}/head
          - run: make test
            env:
              API_KEY: \${{ secrets.API_KEY }}
  `;
  };
  const PUSHED_AT = [
    "const { data: pr } = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });",
    "                if (new Date(pr.head.repo.pushed_at) >= new Date(context.payload.comment.created_at)) core.setFailed('pushed after the approval');",
  ].join('\n');

  it('without the check: MEDIUM, naming the race', () => {
    const findings = scanWith(RULE, workflow('core.info("hello")'));
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(findings[0]?.description).toContain('commits pushed after the approval run');
  });

  it('LOW when an earlier step fails the job for a head repository pushed after the approving comment', () => {
    const findings = scanWith(RULE, workflow(PUSHED_AT));
    expect(findings.map((f) => f.severity)).toEqual(['LOW']);
    expect(findings[0]?.description).toContain('step `Refuse pushes after the approval` fails the job when the head was pushed after the approval');
    expect(findings[0]?.description).not.toContain('commits pushed after the approval run');
  });

  it('LOW when a job this job needs does the check', () => {
    const findings = scanWith(RULE, workflow(PUSHED_AT, { inNeededJob: true }));
    expect(findings.map((f) => f.severity)).toEqual(['LOW']);
    expect(findings[0]?.description).toContain('job `gate`, which this job needs, fails when the head was pushed after the approval');
  });

  it('negative: a commit date is the contributor\'s to set (`git commit --date`), so comparing it closes nothing', () => {
    const committed = PUSHED_AT.replace('pr.head.repo.pushed_at', 'commit.committer.date');
    expect(scanWith(RULE, workflow(committed)).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('a commit-date check is named in the race: the pull request\'s author sets commit dates (issue 25)', () => {
    const committed = PUSHED_AT.replace('pr.head.repo.pushed_at', 'commit.committer.date');
    const findings = scanWith(RULE, workflow(committed));
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(findings[0]?.description).toContain("step `Refuse pushes after the approval` compares the approval's time with a commit's own date, which the pull request's author sets");
    // A variable called `pushedAt` that holds the committer date is still the author's date.
    const named = [
      "const { data: commit } = await github.rest.repos.getCommit({ ...context.repo, ref: 'refs/pull/' + context.issue.number + '/head' });",
      "                const pushedAt = new Date(commit.commit.committer.date);",
      "                if (pushedAt > new Date(context.payload.comment.created_at)) core.setFailed('pushed after the approval');",
    ].join('\n');
    expect(scanWith(RULE, workflow(named)).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('a commit picked from the pull request\'s commits by its date is the author\'s code, racing the approval (issue 25)', () => {
    const findings = scanWith(RULE, yaml`
      on:
        issue_comment:
          types: [created]
      permissions:
        contents: read
      jobs:
        test:
          if: github.event.issue.pull_request && github.event.comment.body == '/ok-to-test' && github.event.comment.author_association == 'MEMBER'
          runs-on: ubuntu-latest
          steps:
            - id: pick
              uses: actions/github-script@v7
              with:
                script: |
                  const commits = await github.paginate(github.rest.pulls.listCommits, { ...context.repo, pull_number: context.issue.number });
                  const commented = new Date(context.payload.comment.created_at);
                  const approved = commits.filter((c) => new Date(c.commit.committer.date) <= commented).pop();
                  if (!approved) throw new Error('no commit before the comment');
                  core.setOutput('sha', approved.sha);
            - uses: actions/checkout@v3
              with:
                ref: \${{ steps.pick.outputs.sha }}
            - run: make test
              env:
                API_KEY: \${{ secrets.API_KEY }}
    `);
    expect(positions(findings)).toEqual(['22:16 MEDIUM']);
    expect(findings[0]?.description).toContain("a commit's own date, which the pull request's author sets");
  });

  it('a `run:` check of `git log --format=%ct` against the comment\'s time closes nothing (issue 25)', () => {
    const findings = scanWith(RULE, yaml`
      on:
        issue_comment:
          types: [created]
      permissions:
        contents: read
      jobs:
        test:
          if: github.event.issue.pull_request && github.event.comment.body == '/ok-to-test' && github.event.comment.author_association == 'MEMBER'
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: refs/pull/\${{ github.event.issue.number }}/head
            - name: Refuse commits after the comment
              env:
                COMMENT_AT: \${{ github.event.comment.created_at }}
              run: |
                if [ "$(git log -1 --format=%ct)" -gt "$(date -d "$COMMENT_AT" +%s)" ]; then exit 1; fi
            - run: make test
              env:
                API_KEY: \${{ secrets.API_KEY }}
    `);
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(findings[0]?.description).toContain('step `Refuse commits after the comment` compares');
  });

  it('negative: a check that the head is the commit the comment names (`/ok-to-test sha=...`) closes the race (issue 25)', () => {
    const check = [
      'const named = /sha=([0-9a-f]{7,40})/.exec(context.payload.comment.body);',
      '                const { data: pr } = await github.rest.pulls.get({ ...context.repo, pull_number: context.issue.number });',
      "                if (named === null || !pr.head.sha.startsWith(named[1])) core.setFailed('the head is not the approved commit');",
    ].join('\n');
    const findings = scanWith(RULE, workflow(check));
    expect(findings.map((f) => f.severity)).toEqual(['LOW']);
    expect(findings[0]?.description).toContain('fails the job when the head is not the commit the approving comment names');
  });

  it('negative: a check that may not run (its own `if:`) or only logs closes nothing', () => {
    expect(scanWith(RULE, workflow(PUSHED_AT, { if: "github.event.comment.body == '/test'" })).map((f) => f.severity)).toEqual(['MEDIUM']);
    const logs = PUSHED_AT.replace("core.setFailed('pushed after the approval')", "core.warning('pushed after the approval')");
    expect(scanWith(RULE, workflow(logs)).map((f) => f.severity)).toEqual(['MEDIUM']);
  });
});

describe(`${RULE}: the head through env: and job outputs (issue 25)`, () => {
  const workflow = (value: string) => yaml`
    on: pull_request_target
    permissions:
      contents: read
    env:
      REF: ${value}
    jobs:
      meta:
        runs-on: ubuntu-latest
        outputs:
          sha: \${{ steps.s.outputs.sha }}
        steps:
          - id: s
            run: echo "sha=$REF" >> "$GITHUB_OUTPUT"
      viaenv:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ env.REF }}
          - run: npm ci
            env:
              TOKEN: \${{ secrets.TOKEN }}
      vianeeds:
        needs: meta
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ needs.meta.outputs.sha }}
          - run: npm ci
            env:
              TOKEN: \${{ secrets.TOKEN }}
  `;

  it('a workflow env: value, and a job output set from it, that is the head SHA is a pull request checkout', () => {
    const records = recordsWith(RULE, workflow('${{ github.event.pull_request.head.sha }}'));
    expect(records.map((r) => `${r.job} ${r.finding.severity}`)).toEqual(['viaenv HIGH', 'vianeeds HIGH']);
    expect(records[0]?.finding.description).toContain('from `github.event.pull_request.head.sha`');
    expect(records[1]?.finding.description).toContain('needs.meta.outputs.sha <- ');
  });

  it('negative: the same chain from the base branch is no pull request code', () => {
    expect(scanWith(RULE, workflow('${{ github.event.pull_request.base.sha }}'))).toEqual([]);
  });
});

describe(`${RULE}: the commit a pull request checkout holds, read with git and handed on`, () => {
  const workflow = (ref: string, opts: { path?: string; command?: string } = {}) => yaml`
    on: pull_request_target
    permissions:
      contents: read
    jobs:
      info:
        runs-on: ubuntu-latest
        outputs:
          sha: \${{ steps.sha.outputs.sha }}
        steps:
          - uses: actions/checkout@v3
            with:
              ref: ${ref}${opts.path === undefined ? '' : `\n              path: ${opts.path}`}
          - id: sha
            run: echo "sha=$(${opts.command ?? 'git rev-parse --verify HEAD'})" >> "$GITHUB_OUTPUT"
      build:
        needs: info
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ needs.info.outputs.sha }}
          - run: make
            env:
              TOKEN: \${{ secrets.TOKEN }}
  `;

  it('`git rev-parse HEAD` after a checkout of the merge ref is the pull request commit, in the job that checks it out again', () => {
    // Job `info` runs nothing from its checkout: only `build` is reported.
    for (const command of ['git rev-parse --verify HEAD', 'git rev-parse HEAD', 'git log -1 --format=%H']) {
      const records = recordsWith(RULE, workflow('refs/pull/${{ github.event.number }}/merge', { command }));
      expect(records.map((r) => `${r.job} ${r.finding.severity}`), command).toEqual(['build HIGH']);
      expect(records[0]?.finding.description).toContain('needs.info.outputs.sha <- steps.sha.outputs.sha <- the commit of the checkout at step 1 (refs/pull/<number>)');
    }
  });

  it('negative: the commit of a base-branch checkout, of a checkout in another directory, or of another revision', () => {
    expect(scanWith(RULE, workflow('${{ github.event.pull_request.base.sha }}')).map((f) => f.severity)).toEqual([]);
    expect(recordsWith(RULE, workflow('refs/pull/${{ github.event.number }}/merge', { path: 'pr' })).map((r) => r.job)).toEqual([]);
    expect(recordsWith(RULE, workflow('refs/pull/${{ github.event.number }}/merge', { command: 'git rev-parse HEAD~1' })).map((r) => r.job)).toEqual([]);
  });
});

describe(`${RULE}: a comment bot whose first job checks the commenter's permission`, () => {
  const caller = {
    path: '.github/workflows/bot.yml',
    text: yaml`
      on:
        issue_comment:
          types: [created]
      jobs:
        bot:
          uses: ./.github/workflows/bot-run.yml
          secrets: inherit
    `,
  };
  /** `gate`: the `if:` of the job that checks out and builds the pull request. */
  const called = (gate: string) => ({
    path: '.github/workflows/bot-run.yml',
    text: yaml`
      on: workflow_call
      jobs:
        check:
          runs-on: ubuntu-latest
          outputs:
            allowed: \${{ steps.perm.outputs.allowed }}
          steps:
            - id: perm
              env:
                GH_TOKEN: \${{ github.token }}
              run: |
                level=$(gh api "repos/$GITHUB_REPOSITORY/collaborators/$ACTOR/permission" --jq .permission)
                if [ "$level" = admin ] || [ "$level" = write ]; then echo "allowed=true" >> "$GITHUB_OUTPUT"; fi
        fix:
          needs: check
          ${gate}
          runs-on: ubuntu-latest
          steps:
            - id: pr
              run: echo "sha=$(gh pr view \${{ github.event.issue.number }} --json headRefOid -q .headRefOid)" >> "$GITHUB_OUTPUT"
            - uses: actions/checkout@v3
              with:
                ref: \${{ steps.pr.outputs.sha }}
            - run: npm ci && npm run lint -- --fix
              env:
                TOKEN: \${{ secrets.BOT_TOKEN }}
    `,
  });

  it("reads the check job's output in the called workflow: a maintainer approves each run, no outsider starts it", () => {
    const findings = scanWith(RULE, [caller, called("if: needs.check.outputs.allowed == 'true'")]);
    expect(findings.map((f) => `${f.file}:${f.line} ${f.severity}`)).toEqual(['.github/workflows/bot-run.yml:23 MEDIUM']);
    expect(findings[0]?.description).toContain("a maintainer approves each run first (`needs.check.outputs.allowed == 'true'`)");
    expect(findings[0]?.description).not.toContain('anyone');
  });

  it('without the gate, anyone who comments starts it', () => {
    const findings = scanWith(RULE, [caller, called('')]);
    expect(findings.map((f) => `${f.file}:${f.line} ${f.severity}`)).toEqual(['.github/workflows/bot-run.yml:23 HIGH']);
    expect(findings[0]?.description).toContain('anyone with a GitHub account can start it through `issue_comment`');
  });
  describe('pull_request_review and pull_request_review_comment check out the pull request by default', () => {
    const review = (on: string, runsOn: string, checkout: string, after: string) => yaml`
      on: ${on}
      jobs:
        check:
          runs-on: ${runsOn}
          steps:
            - uses: actions/checkout@v3${checkout}
            - run: ${after}
    `;

    it("is LOW when a step runs the merge commit's code on a fork's read-only run", () => {
      for (const on of ['pull_request_review', 'pull_request_review_comment', '{ pull_request_review: { types: [submitted] }, push: {} }']) {
        const findings = scanWith(RULE, review(on, 'ubuntu-latest', '', 'npm ci && npm test'));
        expect(positions(findings)).toEqual(['6:15 LOW']);
        expect(findings[0]?.description).toContain("the pull request's merge ref (`refs/pull/<number>/merge`)");
        expect(findings[0]?.description).toContain('runs `npm ci`');
        expect(findings[0]?.description).toContain('read-only token and no secrets');
      }
      expect(positions(scanWith(RULE, review('pull_request_review', 'ubuntu-latest', '\n              with: { ref: "${{ github.ref }}" }', 'make')))).toEqual(['6:15 LOW']);
    });

    it('is HIGH on a self-hosted runner, which a fork\'s run still holds', () => {
      const findings = scanWith(RULE, review('pull_request_review', '[self-hosted, linux]', '', './scripts/test.sh'));
      expect(positions(findings)).toEqual(['6:15 HIGH']);
      expect(findings[0]?.description).toContain("on a fork's run the job still holds a self-hosted runner");
    });

    it("reads a member check over the first association the event carries (a comment's, else a review's) as a maintainer's act", () => {
      const gated = (needle: string) => yaml`
        on: pull_request_review_comment
        jobs:
          check:
            if: contains(fromJSON('["OWNER", "MEMBER", "COLLABORATOR"]'), ${needle})
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
              - run: npm ci
      `;
      expect(scanWith(RULE, gated('github.event.comment.author_association || github.event.review.author_association'))).toEqual([]);
      // An alternative that is no association check (the comment's body) keeps nobody out.
      expect(positions(scanWith(RULE, gated('github.event.comment.author_association || github.event.comment.body')))).toEqual(['7:15 LOW']);
    });

    it('stays silent for a fixed ref, a fork check, a checkout nothing runs, and pull_request', () => {
      expect(scanWith(RULE, review('pull_request_review', 'ubuntu-latest', '\n              with: { ref: main }', 'npm ci'))).toEqual([]);
      expect(scanWith(RULE, review('pull_request_review', 'ubuntu-latest', '', 'echo reviewed'))).toEqual([]);
      expect(scanWith(RULE, review('pull_request', 'ubuntu-latest', '', 'npm ci'))).toEqual([]);
      expect(scanWith(RULE, yaml`
        on: pull_request_review
        jobs:
          check:
            if: github.event.pull_request.head.repo.full_name == github.repository
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
              - run: npm ci
      `)).toEqual([]);
    });
  });

  describe('an AI coding agent that runs commands in the checkout', () => {
    const workflow = (tools: string, ref = 'refs/pull/${{ github.event.issue.number }}/head') => yaml`
      on:
        issue_comment:
          types: [created]
      permissions:
        contents: write
        pull-requests: write
      jobs:
        claude:
          if: github.event.issue.pull_request && contains(github.event.comment.body, '@claude')
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: ${ref}
            - uses: anthropics/claude-code-action@v1
              with:
                anthropic_api_key: \${{ secrets.ANTHROPIC_API_KEY }}${tools}
    `;

    it('runs the pull request code through allowed commands that run the project: MEDIUM, since its own check makes a maintainer start it', () => {
      for (const tools of ['\n                allowed_tools: "Bash(bun install),Bash(bun test),Edit"', '\n                claude_args: --allowedTools "Bash(npm test),Read" --model opus', '\n                allowed_tools: "Bash(*)"']) {
        const records = recordsWith(RULE, workflow(tools));
        expect(positions(records.map((r) => r.finding)), tools).toEqual(['14:16 MEDIUM']);
        const description = records[0]?.finding.description ?? '';
        expect(description).toContain('Claude Code');
        expect(description).toContain("a maintainer approves each run first");
        expect(description).toContain("Claude Code's own check that the actor has write access");
        expect(records[0]?.facts).toContain('reach:approval');
        expect(records[0]?.facts).toContain('exec');
      }
      expect(recordsWith(RULE, workflow('\n                allowed_tools: "Bash(bun install),Bash(bun test),Edit"'))[0]?.finding.description).toContain('`bun install` (a command Claude Code is allowed to run)');
    });

    it('is HIGH when the action lets anyone start it', () => {
      const records = recordsWith(RULE, workflow('\n                allowed_tools: "Bash(npm test)"\n                github_token: ${{ secrets.GITHUB_TOKEN }}\n                allowed_non_write_users: "*"'));
      expect(positions(records.map((r) => r.finding))).toEqual(['14:16 HIGH']);
      expect(records[0]?.facts).toContain('reach:anyone');
    });

    it('is no sink when its tools only read and edit files or run git and gh, and there is no claim for a checkout of the base branch', () => {
      for (const tools of ['', '\n                allowed_tools: "Read,Edit,Glob,Grep"', '\n                allowed_tools: "Bash(git diff:*),Bash(gh pr view:*),Edit"', '\n                claude_args: --disallowedTools "Bash(npm test)"']) {
        const records = recordsWith(RULE, workflow(tools));
        expect(records.map((r) => r.facts?.includes('exec')), tools).toEqual([false]);
      }
      expect(recordsWith(RULE, workflow('\n                allowed_tools: "Bash(npm test)"', 'main'))).toEqual([]);
      expect(recordsWith(RULE, workflow('\n                allowed_tools: "Bash(npm test)"', '${{ github.event.repository.default_branch }}'))).toEqual([]);
    });

    it('counts an agent whose default tools include a shell (Gemini CLI) and one restricted to a command allowlist that runs the project', () => {
      const gemini = (settings: string) => yaml`
        on: pull_request_target
        permissions:
          contents: read
        jobs:
          review:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:
                  ref: \${{ github.event.pull_request.head.sha }}
              - uses: google-github-actions/run-gemini-cli@v0
                with:
                  gemini_api_key: \${{ secrets.GEMINI_API_KEY }}${settings}
      `;
      expect(positions(scanWith(RULE, gemini('')))).toEqual(['10:16 HIGH']);
      expect(positions(scanWith(RULE, gemini(`\n                  settings: '{"tools": {"core": ["read_file", "run_shell_command(npm test)"]}}'`)))).toEqual(['10:16 HIGH']);
      const readOnly = scanWith(RULE, gemini(`\n                  settings: '{"tools": {"core": ["read_file", "run_shell_command(git diff)"]}}'`));
      expect(readOnly.map((f) => f.severity)).not.toContain('HIGH');
    });
  });
  describe('a label the workflow removes in every run', () => {
    const workflow = (types: string, steps: string, extraJob = '') => yaml`
      on:
        pull_request_target:
          types: [${types}]
      jobs:
        test:
          if: contains(github.event.pull_request.labels.*.name, 'safe to test')
          runs-on: ubuntu-latest
          steps:
${steps}
            - run: npm test
              env:
                KEY: \${{ secrets.KEY }}
${extraJob}
    `;
    const checkout = (ref: string) => `            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.${ref} }}`;
    const removeFirst = `            - run: gh pr edit \${{ github.event.pull_request.number }} --remove-label "safe to test"
              env:
                GH_TOKEN: \${{ github.token }}
${checkout('head.sha')}`;

    it('is a per-run approval, not a sticky label, when the workflow also runs on pushes: LOW on the event\'s head SHA, the approval race (MEDIUM) on a moving ref', () => {
      const findings = scanWith(RULE, workflow('labeled, synchronize', removeFirst));
      expect(positions(findings)).toEqual(['14:16 LOW']);
      expect(findings[0]?.description).toContain('removes that label in every run (step 1)');
      expect(findings[0]?.description).toContain('each new push needs a new label');
      expect(findings[0]?.description).toContain('the race of any approval');
      expect(findings[0]?.description).not.toContain('every commit they push afterwards');
      // The branch, resolved when the job runs: commits pushed after the label run too (the approval race).
      const branch = removeFirst.replace('ref: ${{ github.event.pull_request.head.sha }}', 'repository: ${{ github.event.pull_request.head.repo.full_name }}\n                ref: ${{ github.event.pull_request.head.ref }}');
      const moving = scanWith(RULE, workflow('labeled, synchronize', branch));
      expect(positions(moving)).toEqual(['14:23 MEDIUM']);
      expect(moving[0]?.description).toContain('each new push needs a new label');
      expect(moving[0]?.description).not.toContain('every commit they push afterwards');
      // Without the removal the label stays through new pushes: a sticky label.
      const sticky = scanWith(RULE, workflow('labeled, synchronize', checkout('head.sha')));
      expect(positions(sticky)).toEqual(['11:16 HIGH']);
      expect(sticky[0]?.description).toContain('every commit they push afterwards');
    });

    it('is no sticky label on `opened` and `labeled` alone (an outsider cannot label their pull request, nor re-open it with new code under the label): MEDIUM; `reopened` or `synchronize` makes it sticky again (HIGH)', () => {
      const once = scanWith(RULE, workflow('opened, labeled', checkout('head.sha')));
      expect(once.map((f) => f.severity)).toEqual(['MEDIUM']);
      expect(once[0]?.description).not.toContain('every commit they push afterwards');
      for (const types of ['opened, labeled, synchronize', 'opened, labeled, reopened', 'labeled, edited']) {
        const sticky = scanWith(RULE, workflow(types, checkout('head.sha')));
        expect(sticky.map((f) => f.severity), types).toEqual(['HIGH']);
        expect(sticky[0]?.description, types).toContain('every commit they push afterwards');
      }
    });

    it('counts an always() removal at the end, a removing action and a removal in a job that starts alongside', () => {
      const always = `${checkout('head.sha')}
            - uses: actions/github-script@v7
              if: always()
              with:
                script: |
                  await github.rest.issues.removeLabel({ owner: context.repo.owner, repo: context.repo.repo, issue_number: context.issue.number, name: 'safe to test' })`;
      expect(positions(scanWith(RULE, workflow('labeled, synchronize', always)))).toEqual(['11:16 LOW']);
      const action = `            - uses: actions-ecosystem/action-remove-labels@v1
              with:
                labels: safe to test
${checkout('head.sha')}`;
      expect(positions(scanWith(RULE, workflow('labeled, synchronize', action)))).toEqual(['14:16 LOW']);
      const alongside = `        unlabel:
          runs-on: ubuntu-latest
          steps:
            - run: gh api -X DELETE repos/\${{ github.repository }}/issues/\${{ github.event.number }}/labels/safe%20to%20test`;
      expect(positions(scanWith(RULE, workflow('labeled, synchronize', checkout('head.sha'), alongside)))).toEqual(['11:16 LOW']);
      // The label checked by a gate job that the job running the code needs, and removed there first.
      const gated = yaml`
        on:
          pull_request_target:
            types: [labeled, synchronize]
        jobs:
          approve:
            if: contains(github.event.pull_request.labels.*.name, 'safe to test')
            runs-on: ubuntu-latest
            steps:
              - run: echo approved
          test:
            needs: approve
            runs-on: ubuntu-latest
            steps:
              - uses: actions-ecosystem/action-remove-labels@v1
                with:
                  labels: safe to test
              - uses: actions/checkout@v3
                with:
                  ref: \${{ github.event.pull_request.head.sha }}
              - run: npm test
                env:
                  KEY: \${{ secrets.KEY }}
      `;
      const needing = scanWith(RULE, gated);
      expect(positions(needing)).toEqual(['19:16 LOW']);
      expect(needing[0]?.description).toContain('step 1 of job `test`');
      expect(positions(scanWith(RULE, gated.replace('labels: safe to test', 'labels: stale')))).toEqual(['19:16 HIGH']);
    });

    it('is LOW on a labeled-only workflow that checks out the labelled commit, MEDIUM with the branch', () => {
      const pinned = scanWith(RULE, workflow('labeled', removeFirst));
      expect(positions(pinned)).toEqual(['14:16 LOW']);
      expect(pinned[0]?.description).toContain('so a later label event finds no label');
      expect(pinned[0]?.description).not.toContain('any later label event');
      const branch = removeFirst.replace('ref: ${{ github.event.pull_request.head.sha }}', 'repository: ${{ github.event.pull_request.head.repo.full_name }}\n                ref: ${{ github.event.pull_request.head.ref }}');
      const raced = scanWith(RULE, workflow('labeled', branch));
      expect(positions(raced)).toEqual(['14:23 MEDIUM']);
      expect(raced[0]?.description).toContain('commits pushed after the approval run');
    });

    describe('removed by a later job when the run ends', () => {
      // A fork's run is gated on the label; a later job that needs the test job removes the label with always().
      const gate = "github.event.pull_request.head.repo.fork == true && contains(github.event.pull_request.labels.*.name, 'Approve E2E')";
      const e2e = (ref: string, remover: string, types = 'labeled') => yaml`
        on:
          pull_request:
          pull_request_target:
            types: [${types}]
        permissions:
          contents: read
          pull-requests: write
        jobs:
          e2e:
            if: \${{ github.event.pull_request.head.repo.fork == false || (${gate}) }}
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:${ref === 'head.ref' ? '\n                  repository: ${{ github.event.pull_request.head.repo.full_name }}' : ''}
                  ref: \${{ github.event.pull_request.${ref} }}
              - run: make test
                env:
                  KEY: \${{ secrets.KEY }}
${remover}
      `;
      const remover = (condition: string, needs = 'needs: e2e', label = "${{ 'Approve%20E2E' }}") => `          remove_e2e_label:
            if: \${{ ${condition} }}
            ${needs}
            runs-on: ubuntu-latest
            steps:
              - run: gh api --method DELETE repos/\${{ github.repository }}/issues/\${{ github.event.number }}/labels/${label}
                env:
                  GH_TOKEN: \${{ github.token }}`;
      const branch = 'head.ref';

      it('is the approval of each run, naming the job and the window: LOW on the event\'s head SHA, MEDIUM on the branch', () => {
        for (const condition of [`always() && (${gate})`, `!cancelled() && contains(github.event.pull_request.labels.*.name, 'approve e2e')`, 'always()']) {
          const findings = scanWith(RULE, e2e('head.sha', remover(condition)));
          expect(positions(findings), condition).toEqual(['15:16 LOW']);
          expect(findings[0]?.description).toContain('removes that label in every run, but only when the run ends (step 1 of job `remove_e2e_label`)');
          expect(findings[0]?.description).toContain('the label stays on until then, so a label event during the run');
          expect(findings[0]?.description).not.toContain('not the label the event adds');
        }
        // Through a job between them, and with the label spelled out in the URL.
        const through = e2e('head.sha', `          report:
            needs: e2e
            runs-on: ubuntu-latest
            steps:
              - run: echo done
${remover(`always() && (${gate})`, 'needs: report', 'Approve%20E2E')}`);
        expect(positions(scanWith(RULE, through))).toEqual(['15:16 LOW']);
        const moving = scanWith(RULE, e2e(branch, remover(`always() && (${gate})`)));
        expect(positions(moving)).toEqual(['15:23 MEDIUM']);
        expect(moving[0]?.description).toContain('only when the run ends');
        // On a workflow that also runs on new commits: the race of any approval, as long as the run.
        const raced = scanWith(RULE, e2e('head.sha', remover(`always() && (${gate})`), 'labeled, synchronize'));
        expect(positions(raced)).toEqual(['15:16 LOW']);
        expect(raced[0]?.description).toContain('a commit pushed during the run');
        expect(raced[0]?.description).toContain('the race of any approval');
      });

      it('reads a long chain of jobs that each need the one before and run with always() in time (a growth test)', () => {
        const jobs = Array.from({ length: 300 }, (_, i) => `  j${i}:
    if: \${{ always() && contains(github.event.pull_request.labels.*.name, 'ok') && github.run_attempt == '${i}' }}
    ${i === 0 ? '' : `needs: j${i - 1}`}
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
        with:
          ref: \${{ github.event.pull_request.head.sha }}
      - run: make test
        env:
          KEY: \${{ secrets.KEY }}
      - if: always()
        run: gh pr edit \${{ github.event.number }} --remove-label other`).join('\n');
        const text = `on:\n  pull_request_target:\n    types: [labeled, synchronize]\njobs:\n${jobs}\n`;
        const findings = expectLive('a chain of always() jobs', () => scanWith(RULE, text));
        expect(findings.length).toBeGreaterThan(0);
      });

      it('is no removal without always(), behind another label or a condition the gated job lacks, or in a job that does not wait for it', () => {
        const before = (text: string) => expect(text).toContain('not the label the event adds');
        // Without always(): skipped when the test job fails, and the label stays on.
        for (const condition of [gate, "contains(github.event.pull_request.labels.*.name, 'Approve E2E')"]) {
          const findings = scanWith(RULE, e2e('head.sha', remover(condition)));
          expect(positions(findings), condition).toEqual(['15:16 MEDIUM']);
          before(findings[0]?.description ?? '');
        }
        // Another label, or a test the gated job does not make.
        for (const condition of [`always() && contains(github.event.pull_request.labels.*.name, 'run e2e')`, `always() && (${gate}) && github.actor == 'alice'`]) {
          expect(positions(scanWith(RULE, e2e('head.sha', remover(condition)))), condition).toEqual(['15:16 MEDIUM']);
        }
        // A job that does not need the gated job starts with it, and a step before the removal may fail.
        const alongside = scanWith(RULE, e2e('head.sha', remover(`always() && (${gate})`, 'needs: []')));
        expect(positions(alongside)).toEqual(['15:16 MEDIUM']);
        before(alongside[0]?.description ?? '');
      });
    });

    it('keeps the label sticky when a run can leave it on or another label is removed', () => {
      // At the end without always(): a failing test leaves the label on, and the next push runs under it.
      const atEnd = `${checkout('head.sha')}
            - run: npm ci
            - run: gh pr edit \${{ github.event.pull_request.number }} --remove-label "safe to test"`;
      const end = scanWith(RULE, workflow('labeled, synchronize', atEnd));
      expect(positions(end)).toEqual(['11:16 HIGH']);
      expect(end[0]?.description).toContain('every commit they push afterwards');
      const other = removeFirst.replace('--remove-label "safe to test"', '--remove-label "needs triage"');
      expect(positions(scanWith(RULE, workflow('labeled, synchronize', other)))).toEqual(['14:16 HIGH']);
      // Behind a condition of its own (only for members' pull requests): not every run removes it.
      const conditional = removeFirst.replace('            - run: gh pr edit', "            - if: github.event.pull_request.author_association == 'MEMBER'\n              run: gh pr edit");
      expect(positions(scanWith(RULE, workflow('labeled, synchronize', conditional)))).toEqual(['15:16 HIGH']);
    });
  });

  it('takes a head repository looked up through the API (`jq -r .head.repo.full_name` of `curl`/`gh api`) for the fork, with the branch looked up beside it', () => {
    const workflow = (checkout: string) => `on:
  issue_comment:
    types: [created]
permissions:
  contents: read
  actions: write
jobs:
  build:
    if: github.event.issue.pull_request
    runs-on: ubuntu-latest
    steps:
      - id: pr
        env:
          GH_TOKEN: \${{ github.token }}
          PR_URL: \${{ github.event.issue.pull_request.url }}
        run: |
          INFO="$(gh api "$PR_URL")"
          {
            echo "branch=$(echo "$INFO" | jq -r .head.ref)"
            echo "repo=$(echo "$INFO" | jq -r .head.repo.full_name)"
          } >> "$GITHUB_OUTPUT"
      - uses: actions/checkout@v3
        with:
${checkout}
      - run: ./.ci/build.sh
`;
    const fork = scanWith(RULE, workflow('          repository: ${{ steps.pr.outputs.repo }}\n          ref: ${{ steps.pr.outputs.branch }}'));
    expect(positions(fork)).toEqual(['24:23 HIGH']);
    expect(fork[0]?.description).toContain('pull request head looked up by step pr');
    // The branch alone names a branch of this repository, which only collaborators create.
    expect(scanWith(RULE, workflow('          ref: ${{ steps.pr.outputs.branch }}'))).toEqual([]);
  });

  it('takes a lookup of the actor in the collaborators listed by permission, failing otherwise, for a permission check', () => {
    const workflow = (endpoint: string, deny = 'exit 1') => `on:
  issue_comment:
    types: [created]
permissions:
  contents: write
jobs:
  notes:
    if: github.event.issue.pull_request && github.event.comment.body == 'run notes'
    runs-on: ubuntu-latest
    steps:
      - env:
          GITHUB_TOKEN: \${{ github.token }}
          COMMENTER: \${{ github.triggering_actor }}
          API_ENDPOINT: /repos/\${{ github.repository }}/collaborators?${endpoint}
        run: |
          if gh api "$API_ENDPOINT" --paginate --jq ".[].login" | grep -q "^$COMMENTER\\$"; then
            echo "permitted" && exit 0
          else
            echo "not permitted" && ${deny}
          fi
      - uses: actions/checkout@v3
        with:
          ref: refs/pull/\${{ github.event.issue.number }}/head
      - run: node .github/scripts/notes.mjs
`;
    // A maintainer's comment approves the run; the head can still move after it (the race): MEDIUM.
    const gated = scanWith(RULE, workflow('permission=maintain'));
    expect(gated.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(gated[0]?.description).toContain('a maintainer approves each run first (`permission check in step `1``)');
    // Any collaborator (read access included), or a deny path that ends only the step: anyone's comment runs the code.
    expect(scanWith(RULE, workflow('affiliation=all')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('permission=maintain', 'exit 0')).map((f) => f.severity)).toEqual(['HIGH']);
    // The login matched anywhere in a listed one (an unanchored grep): any login a maintainer's contains passes, and
    // anyone can register such a login. `-x` and `-w` match it whole, as `^...$` does.
    const loose = scanWith(RULE, workflow('permission=maintain').replace('grep -q "^$COMMENTER\\$"', 'grep -q $COMMENTER'));
    expect(loose.map((f) => f.severity)).toEqual(['HIGH']);
    expect(loose[0]?.description).toContain('it looks the login up in the list of collaborators with `grep -q $COMMENTER`, an unanchored match');
    for (const whole of ['grep -qx $COMMENTER', 'grep -q -w "$COMMENTER"', 'grep -Fxq "$COMMENTER"']) {
      expect(scanWith(RULE, workflow('permission=maintain').replace('grep -q "^$COMMENTER\\$"', whole)).map((f) => f.severity), whole).toEqual(['MEDIUM']);
    }
  });

  it("takes a lookup of the commenter among a team's members, matched whole and failing otherwise, for a permission check", () => {
    const workflow = (lookup: string) => `on:
  issue_comment:
    types: [created]
permissions:
  contents: write
jobs:
  bench:
    if: github.event.issue.pull_request && github.event.comment.body == '/bench'
    runs-on: ubuntu-latest
    steps:
      - id: check
        env:
          GH_TOKEN: \${{ secrets.ORG_READ_TOKEN }}
          ACTOR: \${{ github.event.comment.user.login }}
        run: |
          MEMBERS=$(gh api --paginate "/orgs/\${{ github.repository_owner }}/teams/bench-users/members" --jq '.[].login')
          if echo "$MEMBERS" | ${lookup}; then
            echo "authorized=true" >> "$GITHUB_OUTPUT"
          else
            echo "authorized=false" >> "$GITHUB_OUTPUT"
          fi
      - if: steps.check.outputs.authorized == 'true'
        uses: actions/checkout@v3
        with:
          ref: refs/pull/\${{ github.event.issue.number }}/head
      - if: steps.check.outputs.authorized == 'true'
        run: make bench
`;
    // Positive: the team's owners chose its members; a member's comment approves the run, the head can move after it.
    for (const whole of ['grep -qx "$ACTOR"', 'grep -Fxq "$ACTOR"', 'grep -qw "$ACTOR"']) {
      expect(scanWith(RULE, workflow(whole)).map((f) => f.severity), whole).toEqual(['MEDIUM']);
    }
    // Negative: matched anywhere in a member's login, anyone can register a login that passes.
    expect(scanWith(RULE, workflow('grep -q "$ACTOR"')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('reads a checkout\'s $GITHUB_ENV values from the write of a step that runs with it, not from one of another event', () => {
    const workflow = (otherIf: string) => `on:
  issue_comment:
    types: [created]
  workflow_dispatch:
permissions:
  contents: write
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - if: github.event_name == 'issue_comment'
        run: |
          PR=$(curl -s "https://api.github.com/repos/\${{ github.repository }}/pulls/\${{ github.event.issue.number }}")
          echo "FULL_NAME=$(echo "$PR" | jq -r .head.repo.full_name)" >> "$GITHUB_ENV"
          echo "BRANCH=$(echo "$PR" | jq -r .head.ref)" >> "$GITHUB_ENV"
      - ${otherIf}run: |
          echo "FULL_NAME=\${{ github.repository }}" >> "$GITHUB_ENV"
          echo "BRANCH=main" >> "$GITHUB_ENV"
      - uses: actions/checkout@v3
        if: github.event_name == 'issue_comment'
        with:
          repository: \${{ env.FULL_NAME }}
          ref: \${{ env.BRANCH }}
      - run: make
`;
    // The dispatch-only write never runs on a comment: the checkout takes the fork the comment's lookup found.
    expect(scanWith(RULE, workflow("if: github.event_name != 'issue_comment'\n        ")).map((f) => f.severity)).toEqual(['HIGH']);
    // A later write on every event replaces it: this repository's default branch.
    expect(scanWith(RULE, workflow(''))).toEqual([]);
  });
});

describe(`${RULE}: a dispatch sent by a helper of the repository's own script`, () => {
  const workflow = (call: string, gate = "github.event.label.name == 'CI build'", types = 'labeled') => yaml`
    on:
      pull_request_target:
        types: ${types}
    jobs:
      trigger:
        if: ${gate}
        runs-on: ubuntu-latest
        env:
          CI_PR_TOKEN: \${{ secrets.CI_PR_TOKEN }}
        defaults:
          run:
            shell: pwsh
        steps:
          - uses: actions/checkout@v5
          - run: |
              Import-Module ./helpers/GitHubApi.psm1
              $api = Get-GithubApi -Repository "\${env:CI_REPO}" -AccessToken "\${env:CI_PR_TOKEN}"
              $payload = @{ custom_repo = "\${{ github.event.pull_request.head.repo.full_name }}"; sha = "\${{ github.event.pull_request.head.sha }}" }
              ${call}
  `;

  it('reads a call named for a dispatch (`$api.DispatchWorkflow(...)`) that sends the head with another credential: the label gate names itself', () => {
    const found = scanWith(RULE, workflow('$api.DispatchWorkflow("trigger-build", $payload)'));
    expect(found.map((f) => `${f.line} ${f.severity}`)).toEqual(['19 LOW']);
    expect(found[0]?.description).toContain('dispatches `a repository the script names when it runs` (`DispatchWorkflow(...)`)');
    expect(found[0]?.description).toContain("a maintainer approves each run first (`github.event.label.name == 'CI build'`)");
    // Opened by anyone, with no gate: MEDIUM (that CI is not in the scan).
    expect(scanWith(RULE, workflow('$api.DispatchWorkflow("trigger-build", $payload)', 'true', 'opened')).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('negative: a call that is no dispatch, or one that names only GitHub event types', () => {
    expect(scanWith(RULE, workflow('$api.GetWorkflowRuns("build.yml")'))).toEqual([]);
    expect(scanWith(RULE, workflow('Write-Host "workflow_dispatch(manual)"', 'true', 'opened'))).toEqual([]);
  });
});

describe(`${RULE}: a comment command that refuses forks and checks the commenter in a job the checkout's job needs`, () => {
  const workflow = (options: { forkCheck?: boolean; permission?: string } = {}) => yaml`
    on:
      issue_comment:
        types: [created]
    permissions:
      contents: read
    jobs:
      init:
        runs-on: ubuntu-latest
        if: github.event.issue.pull_request != '' && startsWith(github.event.comment.body, '/compile')
        outputs:
          head_ref: \${{ steps.comment-branch.outputs.head_ref }}
          base_ref: \${{ steps.comment-branch.outputs.base_ref }}
        steps:
          - uses: actions/github-script@v7
            id: get-repository
            with:
              script: |
                const pull = await github.rest.pulls.get({ owner: context.repo.owner, repo: context.repo.repo, pull_number: context.issue.number })
                const repositoryName = pull.data.head?.repo?.full_name
                return repositoryName
          - name: Disabled on forks
            if: \${{ ${options.forkCheck === false ? "steps.get-repository.outputs.result == ''" : 'fromJSON(steps.get-repository.outputs.result) != github.repository'} }}
            run: |
              echo 'Can not execute /compile on forks'
              exit 1
          - uses: skjnldsv/check-actor-permission@v3
            with:
              require: ${options.permission ?? 'write'}
          - uses: xt0rted/pull-request-comment-branch@v3
            id: comment-branch
      process:
        runs-on: ubuntu-latest
        needs: init
        steps:
          - uses: actions/checkout@v3
            with:
              token: \${{ secrets.COMMAND_BOT_PAT }}
              ref: \${{ needs.init.outputs.head_ref }}
          - run: |
              git fetch origin \${{ needs.init.outputs.base_ref }}
              git checkout "origin/\${{ needs.init.outputs.base_ref }}" -- dist/
          - run: npm ci && npm run build
          - run: git push origin HEAD:\${{ needs.init.outputs.head_ref }}
  `;

  it("reads the fork refusal (a github-script's returned head repository against github.repository) and the action's write check: LOW", () => {
    const found = scanWith(RULE, workflow());
    expect(found.map((f) => `${f.line} ${f.severity}`)).toEqual(['38 LOW']);
    expect(found[0]?.description).toContain('fork check in step `Disabled on forks`');
    // The base branch's files are no pull request code.
    expect(found[0]?.description).not.toContain('base_ref');
    expect(scanWith('script-injection', workflow()).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('negative: without the fork refusal the write check alone is an approval (MEDIUM); with `require: read` nothing stands in the way', () => {
    expect(scanWith(RULE, workflow({ forkCheck: false })).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith(RULE, workflow({ forkCheck: false, permission: 'read' })).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe(`${RULE}: a comment command whose script lets only listed people set the output the build job needs`, () => {
  const workflow = (check: string) => yaml`
    on:
      issue_comment:
        types: [created]
    jobs:
      validate:
        runs-on: ubuntu-latest
        if: github.event.issue.pull_request != null
        outputs:
          build: \${{ steps.parse.outputs.build }}
          pr_sha: \${{ steps.parse.outputs.pr_sha }}
        steps:
          - id: parse
            uses: actions/github-script@v7
            with:
              script: |
                const ALLOWED_USERS = ['alice', 'bob'];
                if (context.payload.comment.body.trim() !== '/build') return;
                const login = context.payload.comment.user.login;
                ${check}
                const pr = await github.rest.pulls.get({ owner: context.repo.owner, repo: context.repo.repo, pull_number: context.issue.number });
                core.setOutput('build', 'linux');
                core.setOutput('pr_sha', pr.data.head.sha);
      build:
        needs: validate
        if: needs.validate.outputs.build == 'linux'
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ needs.validate.outputs.pr_sha }}
          - run: make release
            env:
              TOKEN: \${{ secrets.RELEASE_TOKEN }}
  `;

  it('reads `ALLOWED_USERS.includes(login)` before the outputs as a check: a listed person approves the run', () => {
    const found = scanWith(RULE, workflow("if (!ALLOWED_USERS.includes(login.toLowerCase())) { console.log('not allowed'); return; }"));
    expect(found.map((f) => f.severity)).not.toContain('HIGH');
    expect(found[0]?.description).toContain("a maintainer approves each run first (`needs.validate.outputs.build == 'linux'`)");
  });

  it('reads the login kept in a variable of another name first, then looked up in the list, as the same check', () => {
    const found = scanWith(RULE, workflow("const reviewer = context.payload.comment.user.login; if (!ALLOWED_USERS.includes(reviewer)) { console.log('not allowed'); return; }"));
    expect(found.map((f) => f.severity)).not.toContain('HIGH');
    expect(found[0]?.description).toContain('a maintainer approves each run first');
  });

  it('negative: the same script without the list check, or looking up a variable that holds no login, lets anyone build', () => {
    expect(scanWith(RULE, workflow('// no check')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow("const reviewer = context.payload.comment.body; if (!ALLOWED_USERS.includes(reviewer)) { return; }")).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe(`${RULE}: a label gate behind \`github.event_name != 'pull_request_target' ||\``, () => {
  const workflow = (condition: string) => yaml`
    on:
      pull_request_target:
        types: [opened, synchronize]
      push:
        branches: [main]
    jobs:
      build:
        runs-on: ubuntu-latest
        if: >
          ${condition}
        permissions:
          packages: write
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.sha }}
          - run: go generate ./...
  `;

  it('reads the label as the gate on pull_request_target (the other branch is for pushes), quoted on one line', () => {
    const found = scanWith(RULE, workflow("github.event_name != 'pull_request_target' || (\n          contains(github.event.pull_request.labels.*.name, 'trust')\n          )"));
    expect(found.map((f) => f.severity)).toEqual(['HIGH']);
    expect(found[0]?.description).toContain('once a maintainer has labelled their pull request');
    expect(found[0]?.description).toContain("(`github.event_name != 'pull_request_target' || ( contains(github.event.pull_request.labels.*.name, 'trust') )`)");
  });

  it("negative: a push-only branch alone keeps the job from pull_request_target; `!= 'push'` lets anyone through", () => {
    expect(scanWith(RULE, workflow("github.event_name != 'pull_request_target'"))).toEqual([]);
    expect(scanWith(RULE, workflow("github.event_name != 'push'"))[0]?.description).toContain('anyone with a GitHub account can start it');
  });
});

describe(`${RULE}: the approved commit handed on through a job output`, () => {
  const e2e = (write: string) => ({
    path: '.github/workflows/e2e.yml',
    text: yaml`
      on:
        repository_dispatch:
          types: [test-command]
      jobs:
        configure:
          runs-on: ubuntu-latest
          outputs:
            commit-ref: \${{ steps.configure.outputs.commit-ref }}
          steps:
            - id: configure
              env:
                GH_TOKEN: \${{ secrets.CI_TOKEN }}
              run: |
                ${write}
        test:
          needs: configure
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ needs.configure.outputs.commit-ref }}
            - run: make unit
              env:
                CI_TOKEN: \${{ secrets.CI_TOKEN }}
    `,
  });
  const dispatcher = {
    path: '.github/workflows/slash.yml',
    text: 'on:\n  issue_comment:\n    types: [created]\njobs:\n  dispatch:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: peter-evans/slash-command-dispatch@v4\n        with:\n          token: ${{ secrets.CI_TOKEN }}\n          commands: test\n          issue-type: pull-request\n          permission: write\n',
  };

  it("is LOW when the output is the dispatch payload's head SHA as it is: the commit the collaborator's command named runs", () => {
    const found = scanWith(RULE, [e2e('echo "commit-ref=${{ github.event.client_payload.pull_request.head.sha }}" >> "$GITHUB_OUTPUT"'), dispatcher]);
    expect(found.map((f) => f.severity)).toEqual(['LOW']);
    expect(found[0]?.description).toContain('the approval applies to the commit the event names');
  });

  it('negative: a head looked up when the job runs is the race of the approval (MEDIUM)', () => {
    const found = scanWith(RULE, [e2e('echo "commit-ref=$(gh pr view ${{ github.event.client_payload.pull_request.number }} --json headRefOid --jq .headRefOid)" >> "$GITHUB_OUTPUT"'), dispatcher]);
    expect(found.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(found[0]?.description).toContain('commits pushed after the approval run');
  });
});

describe(`${RULE}: a ref that names the head repositories it checks out`, () => {
  const workflow = (ref: string) => yaml`
    on:
      workflow_run:
        workflows: [CI]
        types: [completed]
    permissions: {}
    jobs:
      dry-run:
        runs-on: ubuntu-latest
        permissions:
          pull-requests: write
        steps:
          - uses: actions/checkout@v3
            with:
              ref: ${ref}
              persist-credentials: false
          - run: cargo run -- dry-run
            env:
              KEY: \${{ secrets.APP_PRIVATE_KEY }}
  `;
  const name = 'github.event.workflow_run.head_repository.full_name';

  it('is LOW when every fork but the repositories it names gets the default branch, and names them', () => {
    for (const ref of [
      `\${{ (${name} != 'acme/team' && ${name} != 'member/team') && 'main' || github.event.workflow_run.head_sha }}`,
      `\${{ (${name} == 'acme/team' || ${name} == 'member/team') && github.event.workflow_run.head_sha || 'main' }}`,
    ]) {
      const found = scanWith(RULE, workflow(ref), { repository: 'acme/team' });
      expect(positions(found), ref).toEqual(['14:16 LOW']);
      expect(found[0]?.description).toContain('only pull requests from branches of this repository or of `member/team`, which the condition names, reach it');
      expect(found[0]?.description).not.toContain('a fork\'s pull request is kept out');
    }
  });

  it('negative: a condition that lets every fork through, like no condition, keeps the checkout an outsider\'s', () => {
    expect(scanWith(RULE, workflow(`\${{ (${name} == 'acme/team' || ${name} != 'member/team') && github.event.workflow_run.head_sha || 'main' }}`), { repository: 'acme/team' }).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow(`\${{ github.event.workflow_run.head_sha }}`), { repository: 'acme/team' }).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe(`${RULE}: what a gh pr view lookup names`, () => {
  const workflow = (fields: string, jq: string) => yaml`
    on:
      workflow_run:
        workflows: [CI]
        types: [completed]
    jobs:
      report:
        runs-on: ubuntu-latest
        steps:
          - id: pr
            env:
              GH_TOKEN: \${{ github.token }}
              BRANCH: \${{ github.event.workflow_run.head_branch }}
            run: |
              RESPONSE=$(gh pr view "$BRANCH" --repo "$GITHUB_REPOSITORY" --json ${fields})
              TARGET=$(echo "$RESPONSE" | jq -r '${jq}')
              echo "ref=$TARGET" >> "$GITHUB_OUTPUT"
          - uses: actions/checkout@v3
            with:
              ref: \${{ steps.pr.outputs.ref }}
          - run: ./gradlew build
            env:
              TOKEN: \${{ secrets.SONAR_TOKEN }}
  `;

  it('a lookup of the number and base branch names no pull request code', () => {
    expect(scanWith(RULE, workflow('number,baseRefName', '.baseRefName'))).toEqual([]);
  });

  it("negative: a lookup that asks for the head's commit is the pull request's code", () => {
    expect(scanWith(RULE, workflow('number,headRefOid', '.headRefOid')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('a value jq selects from a field of the base (or the state) is not the head, whatever else the lookup asked for', () => {
    expect(scanWith(RULE, workflow('state,mergeCommit,baseRefName', '.baseRefName'))).toEqual([]);
    // Negative: the same lookup, the value selected from the merge commit or the head.
    expect(scanWith(RULE, workflow('state,mergeCommit,baseRefName', '.mergeCommit.oid')).map((f) => f.severity)).toEqual(['HIGH']);
  });
});
