import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';
import { findCombinations } from '../../../../lib/engine/combinations/index.js';
import { scanRepository } from '../../../../lib/engine/scan.js';

const RULE = 'personal-access-token';

describe(RULE, () => {
  it('reports PAT-named secrets passed as a token, at the expression, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        bump:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                token: \${{ secrets.BOT_PAT }}
            - run: gh pr create --fill
              env:
                GH_TOKEN: \${{ secrets.RELEASE_GH_TOKEN }}
            - run: git push https://x-access-token:\${{ secrets.PAT_PUSH }}@github.com/org/repo HEAD
            - uses: peter-evans/create-pull-request@v7
              with:
                token: \${{ secrets.ORG_PERSONAL_ACCESS_TOKEN || github.token }}
    `);
    // The checkout's PAT stays in `.git/config` for the third party's action after it, which also gets the last one in
    // its `with:` (MEDIUM); the other two go only to `gh` and `git` (LOW: that action's own finding covers the way).
    expect(positions(records.map((r) => r.finding))).toEqual(['8:18 MEDIUM', '11:21 LOW', '12:46 LOW', '15:18 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual(['bump', 'bump', 'bump', 'bump']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('passed as `token` to `actions/checkout`');
    expect(records[1]?.finding.description).toContain('exported as `GH_TOKEN`');
  });

  it('reads names that say GitHub as PATs wherever they go', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      env:
        TOKEN: \${{ secrets.GH_TOKEN }}
      jobs:
        call:
          uses: org/repo/.github/workflows/release.yml@v1
          secrets:
            api: \${{ secrets.BOT_GITHUB_TOKEN }}
    `))).toEqual(['3:10 LOW', '8:12 MEDIUM']);
    // (The workflow's `env:` does not reach a called workflow; its `secrets:` do.)
  });

  it('does not report the job token, other tokens, tests of a PAT, or other services\' PATs', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          if: \${{ secrets.BOT_PAT != '' }}
          steps:
            - uses: actions/checkout@v3
              with:
                token: \${{ secrets.GITHUB_TOKEN }}
            - run: npx vsce publish
              env:
                VSCE_PAT: \${{ secrets.VSCE_PAT }}
                NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
            - uses: docker/login-action@v3
              with:
                username: bot
                password: \${{ secrets.DOCKERHUB_PAT }}
            - uses: docker/login-action@v3
              with:
                password: \${{ secrets.REGISTRY_PAT }}
            - run: echo "has-pat=\${{ secrets.BOT_PAT != '' }}" >> "$GITHUB_OUTPUT"
    `)).toEqual([]);
  });

  it('reports another service\'s PAT when it is given where a GitHub token goes', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps:
            - run: gh release upload v1 dist/*
              env:
                GITHUB_TOKEN: \${{ secrets.AZURE_DEVOPS_PAT }}
    `))).toEqual(['8:25 LOW']);
  });

  it('checks composite-action steps', () => {
    expect(positions(scanWith(RULE, [
      {
        path: '.github/actions/release/action.yml',
        text: yaml`
          name: release
          runs:
            using: composite
            steps:
              - uses: actions/checkout@v3
                with:
                  token: \${{ secrets.RELEASE_PAT }}
        `,
      },
    ]))).toEqual(['7:16 MEDIUM']);
  });

  it('does not throw on odd shapes', () => {
    const odd = [
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps: 3\n',
      'on: push\nenv: [a]\njobs:\n  a:\n    runs-on: x\n    env: 7\n    container: {image: x, credentials: {password: 5}}\n    services: {db: 3}\n    steps:\n      - 1\n      - run: 42\n        env: {A: {b: c}, B: [1], C: null, PASSWORD: 98765432}\n      - run: ""\n      - uses: actions/checkout@v3\n        with: {persist-credentials: {a: 1}, path: [x], token: [1]}\n      - uses: actions/upload-artifact@v3\n        with: {path: {a: b}}\n      - uses: pypa/gh-action-pypi-publish@v1\n        with: {password: {x: 1}, repository-url: [1]}\n      - uses: actions/create-github-app-token@v1\n        with: {owner: {a: b}, skip-token-revoke: [true]}\n      - uses: tibdex/github-app-token@v1\n        with: 5\n      - uses: actions/github-script@v7\n        with: {script: [1]}\n',
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: "echo ${{ secrets.X"\n      - run: "X=$(echo ${{ }} ${ $(( <<EOF"\n',
    ];
    for (const text of odd) expect(() => scanWith(RULE, text)).not.toThrow();
  });
});

describe('personal-access-token: severity from what else runs in the job', () => {
  /**
   * A push job that hands `secrets.BOT_PAT` to checkout, which leaves it in `.git/config` for the `extra` steps
   * (YAML, indented as steps) after it.
   */
  const job = (extra: string, on = 'push', head = '') => `on: ${on}
jobs:
  bump:
    runs-on: ubuntu-latest
${head}    steps:
      - uses: actions/checkout@v3
        with:
          token: \${{ secrets.BOT_PAT }}
${extra}      - run: ./bump.sh && git push
`;
  const only = (text: string | { path: string; text: string }[]) => scanWith(RULE, text).map((f) => ({ severity: f.severity, description: f.description }));

  it('is LOW when collaborators start the job and it runs only the repository\'s, its owner\'s, GitHub\'s and SHA-pinned code', () => {
    const found = only(job(`      - uses: actions/setup-node@v4
      - uses: peter-evans/create-pull-request@5f6978faf089d4d20b00c7766989d076bb2fc7f1
      - uses: ./.github/actions/local
      - run: curl -fsSL https://sh.rustup.rs | sh -s -- -y
      - run: curl -fsSLo tool.tar.gz https://example.com/tool.tar.gz && echo "abc  tool.tar.gz" | sha256sum -c -
`, '[push, workflow_dispatch, pull_request]', `    container: node@sha256:${'a'.repeat(64)}
`));
    expect(found.map((f) => f.severity)).toEqual(['LOW']);
    expect(found[0]?.description).toContain("only collaborators start the job and it runs only this repository's, its owner's and GitHub's code and actions pinned by SHA");
    // The owner's own action (the workflow compares `github.repository_owner` with it) is first-party.
    expect(only(job(`      - uses: acme/tools/setup@v1
`, 'schedule', `    if: github.repository_owner == 'acme'
`)).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('is MEDIUM when a third-party action on a tag runs anywhere in the job, and names it', () => {
    const found = only(job(`      - uses: someone/setup-tool@v2
`));
    expect(found.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(found[0]?.description).toContain("someone else's code that can change without a change here: action `someone/setup-tool@v2`");
    // After the PAT's step too: the runner's memory holds every secret of the job.
    expect(scanWith(RULE, job('').replace('git push\n', 'git push\n      - uses: someone/notify@main\n')).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('is LOW when the only way to the PAT is someone else\'s code it is not handed; MEDIUM when handed to it; one finding per secret per job', () => {
    const text = (steps: string, env = '') => `on: push
jobs:
  label:
    runs-on: ubuntu-latest${env}
    steps:
      - uses: someone/setup-tool@v2
      - run: curl -fsSLo t.tgz https://example.com/t.tgz && tar xzf t.tgz
${steps}`;
    const gh = `      - run: gh pr edit 1 --add-label ready
        env:
          GH_TOKEN: \${{ secrets.BOT_PAT }}
      - run: gh pr merge 1 --auto
        env:
          GH_TOKEN: \${{ secrets.BOT_PAT }}
`;
    const routeOnly = scanWith(RULE, text(gh));
    expect(positions(routeOnly)).toEqual(['10:21 LOW']);
    expect(routeOnly[0]?.description).toContain('(and used again at line 13)');
    expect(routeOnly[0]?.description).toContain("LOW: the job also runs someone else's code that can change without a change here (action `someone/setup-tool@v2`, an unverified download");
    expect(routeOnly[0]?.description).toContain('but the token is not handed to it');
    // Handed to the third party's action in its `with:`: MEDIUM, at the first use, naming the action.
    const given = scanWith(RULE, text(`${gh}      - uses: someone/open-pr@v3
        with:
          token: \${{ secrets.BOT_PAT }}
`));
    expect(positions(given)).toEqual(['10:21 MEDIUM']);
    expect(given[0]?.description).toContain('(and used again at lines 13, 16)');
    expect(given[0]?.description).toContain("the token is handed to someone else's code that can change without a change here: action `someone/open-pr@v3`");
    // An `env:` whose scope covers the action (the job's): MEDIUM too.
    expect(positions(scanWith(RULE, text('      - run: gh pr list\n', '\n    env:\n      GH_TOKEN: ${{ secrets.BOT_PAT }}')))).toEqual(['6:17 MEDIUM']);
    // The same action pinned by SHA: nothing mutable gets it, and the download is only a way its own finding covers.
    expect(positions(scanWith(RULE, text(`${gh}      - uses: someone/open-pr@5f6978faf089d4d20b00c7766989d076bb2fc7f1
        with:
          token: \${{ secrets.BOT_PAT }}
`)))).toEqual(['10:21 LOW']);
  });

  it('counts the steps of a local composite action at its call', () => {
    const action = (uses: string) => ({ path: '.github/actions/setup/action.yml', text: `name: setup\nruns:\n  using: composite\n  steps:\n    - uses: ${uses}\n` });
    const workflow = { path: '.github/workflows/bump.yml', text: job(`      - uses: ./.github/actions/setup
`) };
    expect(only([workflow, action('someone/setup-tool@v2')]).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(only([workflow, action('someone/setup-tool@5f6978faf089d4d20b00c7766989d076bb2fc7f1')]).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('names an action a composite action runs twice once, and two different ones each', () => {
    const action = (steps: string[]) => ({ path: '.github/actions/setup/action.yml', text: `name: setup\nruns:\n  using: composite\n  steps:\n${steps.map((uses) => `    - uses: ${uses}\n`).join('')}` });
    const workflow = { path: '.github/workflows/bump.yml', text: job(`      - uses: ./.github/actions/setup
`) };
    const twice = only([workflow, action(['someone/setup-tool@v2', 'someone/setup-tool@v2'])]);
    expect(twice.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(twice[0]?.description).toContain('can change without a change here: action `someone/setup-tool@v2`, so its publisher');
    const two = only([workflow, action(['someone/setup-tool@v2', 'other/lint@v1', 'someone/setup-tool@v2'])]);
    expect(two[0]?.description).toContain('can change without a change here: action `someone/setup-tool@v2`, action `other/lint@v1`, so its publisher');
  });

  it('judges a PAT in a composite action at the jobs that call it', () => {
    const action = { path: '.github/actions/release/action.yml', text: 'name: release\nruns:\n  using: composite\n  steps:\n    - uses: actions/checkout@v3\n      with:\n        token: ${{ secrets.RELEASE_PAT }}\n' };
    const caller = (extra: string) => ({ path: '.github/workflows/r.yml', text: `on: push\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n${extra}      - uses: ./.github/actions/release\n` });
    expect(only([action, caller('')]).map((f) => f.severity)).toEqual(['LOW']);
    // Before the call the third party's action only runs beside the token (LOW); after it, it reads the token the
    // action's checkout left in `.git/config` (MEDIUM).
    expect(only([action, caller('      - uses: someone/tool@v1\n')]).map((f) => f.severity)).toEqual(['LOW']);
    const after = { path: '.github/workflows/r.yml', text: `on: push\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./.github/actions/release\n      - uses: someone/tool@v1\n` };
    expect(only([action, after]).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('is MEDIUM for a script fetched and run, or a download nothing verifies, and LOW once verified or a vendor installer', () => {
    expect(only(job(`      - run: curl -fsSL https://example.com/install.sh | bash
`))[0]?.description).toContain('a script fetched and run');
    const download = only(job(`      - run: curl -fsSLo tool.tar.gz https://example.com/tool.tar.gz && tar xzf tool.tar.gz
`));
    expect(download.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(download[0]?.description).toContain('an unverified download (`https://example.com/tool.tar.gz`)');
    expect(only(job(`      - run: curl -fsSL https://sh.rustup.rs | sh -s -- -y
`)).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('is MEDIUM for a third party\'s image on a tag, LOW by digest', () => {
    expect(only(job('', 'push', `    container: someone/builder:1.2
`)).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(only(job('', 'push', `    services:
      db:
        image: someone/db:latest
        options: -v /var/run/docker.sock:/var/run/docker.sock
`))[0]?.description).toContain('image `someone/db:latest`');
    // A service container given neither the PAT, the workspace nor the machine runs apart from the token.
    expect(only(job('', 'push', `    services:
      db:
        image: someone/db:latest
`)).map((f) => f.severity)).toEqual(['LOW']);
    expect(only(job(`      - uses: docker://someone/tool:3
`)).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(only(job('', 'push', `    container: someone/builder@sha256:${'b'.repeat(64)}
`)).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('is MEDIUM when an outsider who can start the job steers code in it: their text run as code, their checkout run', () => {
    const injected = only(job(`      - run: echo "\${{ github.event.comment.body }}"
`, 'issue_comment'));
    expect(injected.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(injected[0]?.description).toContain('anyone with a GitHub account can start it through `issue_comment`, and step 2 of job `bump` expands their text into code it runs');
    const checkout = only(job(`      - uses: actions/checkout@v3
        with:
          ref: \${{ github.event.pull_request.head.sha }}
          path: pr
      - run: npm test
        working-directory: pr
`, 'pull_request_target'));
    expect(checkout.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(checkout[0]?.description).toContain('runs `npm test` from their checkout');
  });

  it("does not count the owner's own scripts, downloads and images, or a fixed version of a vendor's archive, as someone else's code", () => {
    const withPat = (steps: string) => scanWith(RULE, `on: push\njobs:\n  docs:\n    runs-on: ubuntu-latest\n    env:\n      GITHUB_TOKEN: \${{ secrets.GH_TOKEN_REPO }}\n    steps:\n${steps}`, { repository: 'acme-labs/widget' }).map((f) => f.severity);
    expect(withPat('      - run: curl -sfL https://raw.githubusercontent.com/acme-labs/doc-tool/master/install.sh | bash\n')).toEqual(['LOW']);
    expect(withPat('      - run: curl -fsSLo t.tgz https://github.com/acme-labs/tools/releases/download/nightly/t.tgz\n')).toEqual(['LOW']);
    expect(withPat('      - run: curl -fsSLo t.tgz https://github.com/some-vendor/tool/releases/download/v1.2.3/t.tgz\n')).toEqual(['LOW']);
    expect(withPat('      - uses: docker://ghcr.io/acme-labs/integration:latest\n')).toEqual(['LOW']);
    // Negative: the same from another account, or a location that names no version.
    expect(withPat('      - run: curl -sfL https://raw.githubusercontent.com/someone/doc-tool/master/install.sh | bash\n')).toEqual(['MEDIUM']);
    expect(withPat('      - run: curl -fsSLo t.tgz https://github.com/some-vendor/tool/releases/latest/download/t.tgz\n')).toEqual(['MEDIUM']);
    expect(withPat('      - uses: docker://ghcr.io/someone/integration:latest\n')).toEqual(['MEDIUM']);
  });

  it("counts a third party's job container when the PAT reaches the steps that run in it", () => {
    const contained = (steps: string) => scanWith(RULE, `on: push\njobs:\n  sync:\n    runs-on: ubuntu-latest\n    container: someuser/tools:latest\n    steps:\n${steps}`).map((f) => f.severity);
    expect(contained('      - run: ./sync.sh\n        env:\n          GH_TOKEN: ${{ secrets.BOT_PAT }}\n')).toEqual(['MEDIUM']);
    // Negative: the PAT goes only to a `docker://` step pinned by digest, in a container of its own.
    expect(contained(`      - run: make\n      - uses: docker://alpine/git@sha256:${'b'.repeat(64)}\n        with:\n          token: \${{ secrets.BOT_PAT }}\n`)).toEqual(['LOW']);
  });

  it('is LOW when an outsider can only start the job, or a check keeps the step to collaborators', () => {
    // Starting the run is not reaching the token: nothing they write runs beside it.
    const started = only(job('', 'issue_comment'));
    expect(started.map((f) => f.severity)).toEqual(['LOW']);
    expect(started[0]?.description).toContain('LOW: anyone with a GitHub account can start it through `issue_comment`, but no step runs their code or expands their text into code');
    expect(only(job('', 'pull_request_target')).map((f) => f.severity)).toEqual(['LOW']);
    // A PR checkout that nothing runs holds their files but runs none of them.
    expect(only(job(`      - uses: actions/checkout@v3
        with:
          ref: \${{ github.event.pull_request.head.sha }}
          path: pr
`, 'pull_request_target')).map((f) => f.severity)).toEqual(['LOW']);
    // A fork's `pull_request` run gets no secrets: not an outsider's way to the PAT.
    expect(only(job('', 'pull_request')).map((f) => f.severity)).toEqual(['LOW']);
    expect(only(job(`      - run: echo "\${{ github.event.comment.body }}"
`, 'issue_comment', `    if: github.event.comment.author_association == 'OWNER'
`)).map((f) => f.severity)).toEqual(['LOW']);
    // A call of the owner's own reusable workflow: the token goes to code this repository's owner maintains.
    const call = only([{ path: '.github/workflows/w.yml', text: `on: pull_request_target\njobs:\n  backport:\n    uses: acme-labs/flows/.github/workflows/backport.yml@main\n    secrets:\n      github-token: \${{ secrets.BOT_GITHUB_TOKEN }}\n` }]);
    expect(call.map((f) => f.severity)).toEqual(['MEDIUM']);
    const own = scanWith(RULE, `on: pull_request_target\njobs:\n  backport:\n    uses: acme-labs/flows/.github/workflows/backport.yml@main\n    secrets:\n      github-token: \${{ secrets.BOT_GITHUB_TOKEN }}\n`, { repository: 'acme-labs/widget' });
    expect(own.map((f) => f.severity)).toEqual(['LOW']);
    expect(own[0]?.description).toContain('the token goes only to reusable workflow `acme-labs/flows/.github/workflows/backport.yml`');
  });

  it('names who can start the run only when that start runs the third-party code the token is handed to', () => {
    const workflow = (condition: string) => `on:
  pull_request_target:
    types: [closed]
  workflow_dispatch:
    inputs:
      debug_enabled: { default: 'false' }
jobs:
  notes:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
        with:
          token: \${{ secrets.NOTES_TOKEN }}
      - uses: mxschmitt/action-tmate@v3
${condition}      - uses: docker://acme/notes@sha256:${'a'.repeat(64)}
`;
    const debug = scanWith(RULE, workflow("        if: ${{ github.event_name == 'workflow_dispatch' && github.event.inputs.debug_enabled == 'true' }}\n"));
    expect(debug.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(debug[0]?.description).toContain('`mxschmitt/action-tmate@v3`');
    expect(debug[0]?.description).not.toContain('anyone with a GitHub account can start it');
    const always = scanWith(RULE, workflow(''));
    expect(always.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(always[0]?.description).toContain('anyone with a GitHub account can start it through `pull_request_target`');
  });

  it('judges a PAT in the workflow\'s env by its worst job, and a third party\'s reusable workflow on a tag', () => {
    const text = (second: string) => `on: push\nenv:\n  GH_TOKEN: \${{ secrets.BOT_PAT }}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh release list\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ${second}\n`;
    expect(only(text('someone/tool@v1')).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(only(text('actions/setup-go@v5')).map((f) => f.severity)).toEqual(['LOW']);
    const call = (ref: string) => `on: push\njobs:\n  c:\n    uses: someone/flows/.github/workflows/release.yml@${ref}\n    secrets:\n      token: \${{ secrets.BOT_PAT }}\n`;
    expect(only(call('v1'))[0]?.description).toContain('reusable workflow `someone/flows/.github/workflows/release.yml@v1`');
    expect(only(call('5f6978faf089d4d20b00c7766989d076bb2fc7f1')).map((f) => f.severity)).toEqual(['LOW']);
  });
});

describe('personal-access-token in attack paths', () => {
  const paths = (text: string) => {
    const scan = scanRepository([{ path: '.github/workflows/w.yml', text }]);
    return {
      pat: scan.records.filter((r) => r.finding.rule_id === RULE).map((r) => r.finding.severity),
      paths: findCombinations(scan.records, () => true).filter((c) => c.components.some((k) => k.rule_id === RULE)).map((c) => c.id),
    };
  };

  it('still joins the paths it is a stage of: a mutable action in its job, an outsider\'s injection', () => {
    expect(paths(`on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: someone/release@v2\n        with:\n          token: \${{ secrets.BOT_PAT }}\n`)).toEqual({ pat: ['MEDIUM'], paths: ['mutable-action-secret-theft'] });
    expect(paths(`on: issues\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "\${{ github.event.issue.title }}"\n      - run: gh issue comment 1 --body hi\n        env:\n          GH_TOKEN: \${{ secrets.BOT_PAT }}\n`)).toEqual({ pat: ['MEDIUM'], paths: ['injection-secret-exfiltration'] });
  });

  it('forms none where nothing else\'s code runs and only collaborators start the job', () => {
    expect(paths(`on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n        with:\n          token: \${{ secrets.BOT_PAT }}\n`)).toEqual({ pat: ['LOW'], paths: [] });
  });
});

describe('personal-access-token: several files', () => {
  it('reports the same use at the same offset in two workflows (offsets are per file)', () => {
    const text = 'on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: peter-evans/create-pull-request@5f6978faf089d4d20b00c7766989d076bb2fc7f1\n        with:\n          token: ${{ secrets.BOT_PAT }}\n';
    const files = [
      { path: '.github/workflows/a.yml', text },
      { path: '.github/workflows/b.yml', text },
    ];
    expect(scanWith('personal-access-token', files).map((f) => `${f.file}:${f.line}`)).toEqual(['.github/workflows/a.yml:8', '.github/workflows/b.yml:8']);
  });
});

describe('personal-access-token: a secret used as a GitHub token, whatever its name', () => {
  it('reports a stored secret given to `gh`, `actions/github-script`, a checkout or a script that hands it to GitHub', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - run: gh issue edit 1 --add-label triaged --repo other/name
              env:
                GH_TOKEN: \${{ secrets.TRIAGE_TOKEN }}
            - uses: actions/github-script@v7
              with:
                github-token: \${{ secrets.BOT_ACCESS }}
                script: |
                  await github.rest.issues.addLabels({ owner: 'o', repo: 'r', issue_number: 1, labels: ['x'] })
            - uses: actions/checkout@v3
              with:
                repository: other/name
                token: \${{ secrets.DOCS_ACCESS_TOKEN }}
                persist-credentials: false
            - run: |
                curl -X POST -H "Authorization: token $DISPATCH" \\
                  https://api.github.com/repos/other/name/dispatches -d '{"event_type":"x"}'
              env:
                DISPATCH: \${{ secrets.DISPATCHER }}
            - run: git push https://x-access-token:\${{ secrets.PUSHER }}@github.com/other/name HEAD
            - uses: actions/github-script@v7
              env:
                SYNC: \${{ secrets.SYNC_BOT }}
              with:
                script: |
                  const { Octokit } = require('@octokit/rest');
                  const octokit = new Octokit({ auth: process.env.SYNC });
    `);
    expect(positions(findings)).toEqual(['8:21 LOW', '11:25 LOW', '17:18 LOW', '23:21 LOW', '24:46 LOW', '27:17 LOW']);
    expect(findings.map((f) => /`secrets\.(\w+)`/.exec(f.description)?.[1])).toEqual(['TRIAGE_TOKEN', 'BOT_ACCESS', 'DOCS_ACCESS_TOKEN', 'DISPATCHER', 'PUSHER', 'SYNC_BOT']);
    expect(findings[0]?.description).toContain('`secrets.TRIAGE_TOKEN`, a stored secret given where a GitHub token goes');
    expect(findings[1]?.description).toContain('passed as `github-token` to `actions/github-script`');
  });

  it('keeps the severity policy: MEDIUM when handed to a third party\'s mutable action', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        pr:
          runs-on: ubuntu-latest
          steps:
            - uses: someone/open-pr@v2
              with:
                github-token: \${{ secrets.RELEASER }}
    `))).toEqual(['8:25 MEDIUM']);
  });

  it('does not report the job token, a service\'s own token, an app token or key, or a variable no GitHub client reads', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - run: gh pr list
              env:
                GH_TOKEN: \${{ secrets.GITHUB_TOKEN }}
            - uses: codecov/codecov-action@v5
              with:
                token: \${{ secrets.CODECOV_TOKEN }}
            - uses: actions/create-github-app-token@v2
              id: app
              with:
                app-id: \${{ secrets.APP_ID }}
                private-key: \${{ secrets.APP_PRIVATE_KEY }}
            - run: gh pr create --fill
              env:
                GH_TOKEN: \${{ steps.app.outputs.token }}
            - uses: actions/github-script@v7
              with:
                github-token: \${{ github.token }}
                script: console.log(1)
            - run: curl -H "Authorization: Bearer $API" https://api.example.com/deploy
              env:
                API: \${{ secrets.DEPLOY_TOKEN }}
            - run: ./publish.sh
              env:
                GITHUB_TOKEN: \${{ secrets.REGISTRY_TOKEN }}
    `)).toEqual([]);
  });
});

describe('personal-access-token: env keys no script can read', () => {
  it('scans an env key that is no shell name (it would not compile as a pattern) without throwing, and reports nothing for it', () => {
    const text = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    env:\n      "FOO(": ${{ secrets.BOT_TOKEN }}\n    steps:\n      - run: gh pr create --fill\n';
    expect(() => scanWith(RULE, text)).not.toThrow();
    expect(scanWith(RULE, text)).toEqual([]);
  });
});

describe('personal-access-token: a write to another repository', () => {
  const workflow = (target: string) => yaml`
    on: push
    jobs:
      sync:
        runs-on: ubuntu-latest
        steps:
          - run: gh pr create --fill --repo ${target}
            env:
              GH_TOKEN: \${{ secrets.SYNC_TOKEN }}
  `;

  it('says so when the token writes to a repository other than this one', () => {
    const [finding] = scanWith(RULE, workflow('acme/other'), { repository: 'acme/tool' });
    expect(finding?.description).toContain('It writes to `acme/other`, another repository');
  });

  it('says nothing when it writes to this repository, names it by an expression, or this repository is not known', () => {
    expect(scanWith(RULE, workflow('acme/tool'), { repository: 'acme/tool' })[0]?.description).not.toContain('another repository');
    expect(scanWith(RULE, workflow('${{ github.repository }}'), { repository: 'acme/tool' })[0]?.description).not.toContain('another repository');
    expect(scanWith(RULE, workflow('acme/other'))[0]?.description).not.toContain('another repository');
  });
});

describe('personal-access-token: a reusable workflow\'s secret its callers fill with their job token', () => {
  const files = (passed: string) => [
    {
      path: '.github/workflows/caller.yml',
      text: yaml`
        on:
          push:
            tags: ['v*']
        jobs:
          release:
            permissions:
              contents: write
            uses: ./.github/workflows/reusable.yml
            secrets:
              token: ${passed}
      `,
    },
    {
      path: '.github/workflows/reusable.yml',
      text: yaml`
        on:
          workflow_call:
            secrets:
              token:
                required: true
        jobs:
          publish:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:
                  token: \${{ secrets.token }}
                  persist-credentials: false
              - uses: softprops/action-gh-release@v2
                with:
                  token: \${{ secrets.token }}
      `,
    },
  ];

  it('is the job token, not a stored credential, when every local caller passes `secrets.GITHUB_TOKEN`; a stored secret passed in is reported', () => {
    expect(scanWith(RULE, files('${{ secrets.GITHUB_TOKEN }}'))).toEqual([]);
    expect(scanWith(RULE, files('${{ github.token }}'))).toEqual([]);
    expect(scanWith(RULE, files('${{ secrets.RELEASE_PAT }}')).map((f) => f.file)).toContain('.github/workflows/reusable.yml');
    // What the called job holds: the token's scopes, not "secret `token`".
    const unpinned = scanWith('unpinned-action', files('${{ secrets.GITHUB_TOKEN }}')).find((f) => f.description.includes('softprops/action-gh-release'));
    expect(unpinned?.description).toContain('`contents: write`');
    expect(unpinned?.description).not.toContain('secret `token`');
  });

  /** One step of `uses` given `entry` under `key` (`env` or `with`). */
  const serviceStep = (key: 'env' | 'with', entry: string, uses = 'crowdin/github-action@v2') => yaml`
    on: push
    jobs:
      sync:
        runs-on: ubuntu-latest
        steps:
          - uses: ${uses}
            ${key}:
              ${entry}
  `;

  it("does not take a service's own token handed to that service's action for a GitHub one (its first word names the action's owner)", () => {
    const workflow = (env: string) => serviceStep('env', env);
    expect(scanWith(RULE, workflow('CROWDIN_PERSONAL_TOKEN: ${{ secrets.CROWDIN_PERSONAL_TOKEN }}'))).toEqual([]);
    // Where a GitHub token goes it is one, whatever its name; another name is GitHub's as before.
    expect(scanWith(RULE, workflow('GITHUB_TOKEN: ${{ secrets.CROWDIN_PERSONAL_TOKEN }}')).map((f) => f.rule_id)).toEqual([RULE]);
    expect(scanWith(RULE, workflow('RELEASE_PAT: ${{ secrets.RELEASE_PAT }}')).map((f) => f.rule_id)).toEqual([RULE]);
  });

  it("does not take a service's token given to its own action's `token:` input for a GitHub one; `github-token:` there is GitHub's", () => {
    const workflow = (input: string) => serviceStep('with', input);
    expect(scanWith(RULE, workflow('token: ${{ secrets.CROWDIN_PERSONAL_TOKEN }}'))).toEqual([]);
    expect(scanWith(RULE, workflow('github-token: ${{ secrets.CROWDIN_PERSONAL_TOKEN }}')).map((f) => f.rule_id)).toEqual([RULE]);
    // Another action's `token:` still takes it for a GitHub token.
    expect(scanWith(RULE, serviceStep('with', 'token: ${{ secrets.CROWDIN_PERSONAL_TOKEN }}', 'peter-evans/create-pull-request@v7')).map((f) => f.rule_id)).toEqual([RULE]);
  });
});


describe(`${RULE}: the user and the password of a URL`, () => {
  it('names the password of `https://USER:PASS@github.com`, not the user before it', () => {
    const workflow = (url: string) => yaml`
      on:
        workflow_dispatch:
      jobs:
        push:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - run: |
                git remote set-url origin ${url}
                git push origin HEAD:trunk
    `;
    const found = scanWith(RULE, workflow('https://${{ secrets.BOT_USER }}:${{ secrets.BOT_TOKEN }}@github.com/${{ github.repository }}'));
    expect(found.map((f) => f.description.slice(0, 22))).toEqual(['`secrets.BOT_TOKEN`, a']);
    // Alone before the `@`, a secret is the token (`https://x-access-token@...` is the other way round: nothing here).
    expect(scanWith(RULE, workflow('https://${{ secrets.BOT_AUTH }}@github.com/${{ github.repository }}')).map((f) => f.description.slice(0, 21))).toEqual(['`secrets.BOT_AUTH`, a']);
  });
});
