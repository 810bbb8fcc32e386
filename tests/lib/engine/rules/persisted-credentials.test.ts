import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'persisted-credentials';

describe(RULE, () => {
  it('reports checkout without persist-credentials: false at its uses, bound to the job (LOW)', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/checkout@v3
              with:
                persist-credentials: false
            - uses: actions/checkout@v3
              with:
                persist-credentials: "false"
                token: \${{ secrets.RELEASE_PAT }}
            - uses: actions/checkout@v3
              with:
                persist-credentials: \${{ inputs.push }}
                token: \${{ secrets.RELEASE_PAT }}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['6:15 LOW', '14:15 LOW']);
    expect(records.map((r) => r.job)).toEqual(['test', 'test']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[1]?.finding.description).toContain('`secrets.RELEASE_PAT`');
  });

  it('is MEDIUM where an outsider\'s code or text runs in the job, LOW on a privileged trigger alone', () => {
    // A privileged trigger whose job runs only the base branch's code: nothing of an outsider's reads the token.
    expect(positions(scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        fix:
          runs-on: ubuntu-latest
          steps: [{ uses: actions/checkout@v3 }, { run: make }]
    `))).toEqual(['5:21 LOW']);
    // The comment's text runs as shell code after the checkout: it can read the token from .git/config.
    const injected = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        fix:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - run: echo "\${{ github.event.comment.body }}"
    `);
    expect(positions(injected)).toEqual(['6:15 MEDIUM']);
    expect(injected[0]?.description).toContain('where an outsider');
    // The pull request's code runs after the checkout of it.
    expect(positions(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm ci
    `))).toEqual(['6:15 MEDIUM']);
  });

  it('is HIGH when a later step uploads the .git directory as an artifact', () => {
    const records = recordsWith(RULE, yaml`
      on: issue_comment
      jobs:
        a:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
            - uses: actions/upload-artifact@v4
              with:
                path: .
                include-hidden-files: true
        b:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
              with:
                token: \${{ secrets.RELEASE_PAT }}
            - uses: actions/upload-artifact@v3
              with:
                path: \${{ github.workspace }}
        c:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
              with:
                path: src
            - uses: actions/upload-artifact@0123456789abcdef0123456789abcdef01234567 # v4.3.6
              with:
                path: |
                  dist/
                  src
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['6:15 HIGH', '14:15 HIGH', '23:15 HIGH']);
    expect(records.map((r) => r.job)).toEqual(['a', 'b', 'c']);
    expect(records[0]?.finding.description).toContain('uploads `.`');
    expect(records[0]?.finding.description).toContain('while the run is still going, before the token expires with its job');
    // A stored secret outlives the job: even an artifact served only after the run hands it over.
    expect(records[1]?.finding.description).toContain('`secrets.RELEASE_PAT` is a stored secret, which does not expire with the job');
  });

  it('does not escalate the job token in an upload-artifact v3 artifact, served only after the run, when the token has expired', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
            - uses: actions/upload-artifact@v3
              with: { path: . }
        b:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
              with: { token: '\${{ github.token }}' }
            - run: tar -czf build.tar.gz .
            - uses: actions/upload-artifact@0123456789abcdef0123456789abcdef01234567 # v2.3.1
              with: { path: build.tar.gz }
        c:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
              with: { token: '\${{ steps.app.outputs.token }}' }
            - uses: actions/upload-artifact@v3
              with: { path: . }
        d:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
            - uses: actions/upload-artifact@v4
              with: { path: ., include-hidden-files: true }
    `);
    expect(positions(findings)).toEqual(['6:15 LOW', '12:15 LOW', '20:15 HIGH', '27:15 HIGH']);
    expect(findings[0]?.description).toContain('with upload-artifact v3, which can be downloaded only once the run has completed, after the token expired with its job');
    expect(findings[0]?.description).toContain('upload-artifact v3 and older are retired');
    expect(findings[1]?.description).toContain('archives the workspace, .git included, then step `#3` uploads `build.tar.gz` as an artifact with upload-artifact v2.3.1');
    // A token a step minted: the workflow does not show that it expires with the job.
    expect(findings[2]?.description).toContain('may still be valid when the artifact is downloaded');
  });

  it('is HIGH when the workspace is archived, then uploaded', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
            - run: tar -czf build.tar.gz .
            - uses: actions/upload-artifact@v4
              with:
                path: build.tar.gz
    `);
    expect(positions(findings)).toEqual(['6:15 HIGH']);
    expect(findings[0]?.description).toContain('archives the workspace');
  });

  it('keeps the base severity when the upload cannot carry .git', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps:
            # upload-artifact 4.4+ leaves hidden files out unless told otherwise
            - uses: actions/checkout@v3
            - uses: actions/upload-artifact@v4
              with:
                path: .
        b:
          runs-on: x
          steps:
            # checkout 6 keeps the credentials under RUNNER_TEMP, outside the workspace
            - uses: actions/checkout@v6
            - uses: actions/upload-artifact@v4
              with: { path: ., include-hidden-files: true }
        c:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
            - uses: actions/upload-artifact@v3
              with: { path: dist/ }
            - run: tar -C dist -czf site.tgz .
            - uses: actions/upload-artifact@v4
              with: { path: site.tgz }
        d:
          runs-on: x
          steps:
            - uses: actions/upload-artifact@v3
              with: { path: . }
            - uses: actions/checkout@v3
    `))).toEqual(['7:15 LOW', '15:15 LOW', '21:15 LOW', '32:15 LOW']);
  });

  it('accepts an explicit persist-credentials: true unless the workspace is uploaded', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        push:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
              with: { persist-credentials: true }
            - run: git push
        leak:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
              with: { persist-credentials: true }
            - uses: actions/upload-artifact@v4.3.0
              with: { path: ./ }
        expired:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
              with: { persist-credentials: true }
            - uses: actions/upload-artifact@v3
              with: { path: ./ }
    `))).toEqual(['12:15 HIGH', '19:15 LOW']);
  });

  it('checks composite-action steps, unbound', () => {
    const records = recordsWith(RULE, [
      {
        path: '.github/actions/setup/action.yml',
        text: yaml`
          name: setup
          runs:
            using: composite
            steps:
              - uses: actions/checkout@v3
        `,
      },
    ]);
    expect(positions(records.map((r) => r.finding))).toEqual(['5:13 LOW']);
    expect(records[0]?.job).toBeNull();
  });

  it('does not throw on odd shapes', () => {
    const odd = [
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps: 3\n',
      'on: push\nenv: [a]\njobs:\n  a:\n    runs-on: x\n    env: 7\n    container: {image: x, credentials: {password: 5}}\n    services: {db: 3}\n    steps:\n      - 1\n      - run: 42\n        env: {A: {b: c}, B: [1], C: null, PASSWORD: 98765432}\n      - run: ""\n      - uses: actions/checkout@v3\n        with: {persist-credentials: {a: 1}, path: [x], token: [1]}\n      - uses: actions/upload-artifact@v3\n        with: {path: {a: b}}\n      - uses: pypa/gh-action-pypi-publish@v1\n        with: {password: {x: 1}, repository-url: [1]}\n      - uses: actions/create-github-app-token@v1\n        with: {owner: {a: b}, skip-token-revoke: [true]}\n      - uses: tibdex/github-app-token@v1\n        with: 5\n      - uses: actions/github-script@v7\n        with: {script: [1]}\n',
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: "echo ${{ secrets.X"\n      - run: "X=$(echo ${{ }} ${ $(( <<EOF"\n',
    ];
    for (const text of odd) expect(() => scanWith(RULE, text)).not.toThrow();
  });
  it('is LOW, saying so, when the job token it persists is read-only, whoever runs after it', () => {
    // Outsider text runs after the checkout, but the job's token can write nothing (job-level `contents: read`).
    const readOnly = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        fix:
          runs-on: ubuntu-latest
          permissions:
            contents: read
          steps:
            - uses: actions/checkout@v3
            - run: echo "\${{ github.event.comment.body }}"
    `);
    expect(positions(readOnly)).toEqual(['8:15 LOW']);
    expect(readOnly[0]?.description).toContain("where an outsider");
    expect(readOnly[0]?.description).toContain("GITHUB_TOKEN is read-only here (the job's `permissions:` grant no write scope)");
    // Inherited from the workflow (`read-all`), with the workspace uploaded while the run goes on: LOW too.
    const uploaded = scanWith(RULE, yaml`
      on: pull_request_target
      permissions: read-all
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm ci
            - uses: actions/upload-artifact@v4
              with:
                path: .
                include-hidden-files: true
    `);
    expect(positions(uploaded)).toEqual(['7:15 LOW']);
    expect(uploaded[0]?.description).toContain("the workflow's `permissions:`, which the job inherits, grant no write scope");
    expect(uploaded[0]?.description).toContain('uploads `.`');
  });

  it('keeps MEDIUM or HIGH when the token can write, or is a credential other than the job token', () => {
    // A write scope that changes code: the persisted token is worth taking.
    expect(positions(scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        fix:
          runs-on: ubuntu-latest
          permissions:
            contents: write
            pull-requests: write
          steps:
            - uses: actions/checkout@v3
            - run: echo "\${{ github.event.comment.body }}"
    `))).toEqual(['9:15 MEDIUM']);
    // A read-only job token, but checkout persists a personal token passed as `token:`.
    const pat = scanWith(RULE, yaml`
      on: issue_comment
      permissions: read-all
      jobs:
        fix:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                token: \${{ secrets.BOT_PAT }}
            - run: echo "\${{ github.event.comment.body }}"
            - uses: actions/upload-artifact@v4
              with:
                path: .
                include-hidden-files: true
    `);
    expect(positions(pat)).toEqual(['7:15 HIGH']);
    expect(pat[0]?.description).not.toContain('read-only');
  });

  it('cites only outsider code that runs after the checkout in a run the checkout is part of', () => {
    // Two checkouts under mutually exclusive conditions: the base checkout (same-repository pull requests) never
    // runs with the fork's code, so it is LOW; the fork's checkout, whose code `npm ci` runs, is MEDIUM.
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              if: github.event.pull_request.head.repo.fork == false
            - uses: actions/checkout@v3
              if: github.event.pull_request.head.repo.fork == true
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm ci
              if: github.event.pull_request.head.repo.fork == true
    `);
    expect(positions(findings)).toEqual(['6:15 LOW', '8:15 MEDIUM']);
    expect(findings[0]?.description).not.toContain('outsider');
    // Without the conditions both checkouts run with it: both MEDIUM.
    expect(positions(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
                path: pr
            - run: npm ci
              working-directory: pr
    `))).toEqual(['6:15 MEDIUM', '7:15 MEDIUM']);
    // Outsider text expanded before the checkout cannot read what it persists later.
    expect(positions(scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        fix:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.comment.body }}"
            - uses: actions/checkout@v3
    `))).toEqual(['7:15 LOW']);
  });

  it('names the stored secret a `token:` reads through an environment variable', () => {
    for (const level of ['step', 'job', 'workflow'] as const) {
      const env = '      env:\n        CHECKOUT_TOKEN: ${{ secrets.DEPLOY_PAT }}\n';
      const text =
        'on: push\n' +
        (level === 'workflow' ? env.replace(/^ {6}/gm, '') : '') +
        'jobs:\n  a:\n    runs-on: x\n' +
        (level === 'job' ? env.replace(/^ {6}/gm, '    ') : '') +
        '    steps:\n      - uses: actions/checkout@v3\n' +
        (level === 'step' ? env.replace(/^ {6}/gm, '        ') : '') +
        "        with:\n          token: ${{ env.checkout_token }}\n      - uses: actions/upload-artifact@v3\n        with:\n          path: .\n";
      const [finding] = scanWith(RULE, text);
      expect(finding?.severity, level).toBe('HIGH');
      expect(finding?.description, level).toContain('`secrets.DEPLOY_PAT` is a stored secret');
    }
    // An environment variable that holds no secret, or one only tested, names none.
    const plain = scanWith(RULE, yaml`
      on: push
      env:
        CHECKOUT_TOKEN: \${{ github.token }}
        HAS_PAT: \${{ secrets.DEPLOY_PAT != '' }}
      jobs:
        a:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
              with:
                token: \${{ env.CHECKOUT_TOKEN }}
            - uses: actions/checkout@v3
              with:
                token: \${{ env.HAS_PAT }}
    `);
    expect(plain.map((f) => f.description).join('\n')).not.toContain('DEPLOY_PAT');
  });
  it('escalates only for an upload that can run in a job run the checkout is part of', () => {
    const findings = scanWith(RULE, yaml`
      on: [push, pull_request]
      jobs:
        a:
          runs-on: x
          steps:
            - uses: actions/checkout@v3
              if: github.event_name == 'push'
            - uses: actions/checkout@v3
              if: github.event_name == 'pull_request'
              with:
                path: other
            - uses: actions/upload-artifact@v4
              if: github.event_name == 'pull_request'
              with:
                path: .
                include-hidden-files: true
    `);
    // The first checkout never runs with the upload; the second, under the upload's condition, does.
    expect(positions(findings)).toEqual(['6:15 LOW', '8:15 HIGH']);
  });

  it("reads outsider code only on the events whose payload carries it: a push-only checkout is LOW beside a pull request's text or ref", () => {
    // The title is empty and the head SHA absent on `push`, the only event the first checkout runs on; the second
    // checkout runs on `pull_request_target`, where both are the outsider's.
    const both = (first: string) => yaml`
      on:
        push:
          branches: [main]
        pull_request_target:
      permissions:
        contents: write
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              if: ${first}
            - uses: actions/checkout@v3
              with:
                path: pr
                ref: \${{ github.event.pull_request.head.sha }}
            - run: cd pr && npm ci
            - run: echo "\${{ github.event.pull_request.title }}"
    `;
    expect(positions(scanWith(RULE, both("github.event_name == 'push'")))).toEqual(['11:15 LOW', '13:15 MEDIUM']);
    // Negative: a checkout that also runs on `pull_request_target` leaves the token to both.
    expect(positions(scanWith(RULE, both("github.event_name != 'workflow_dispatch'")))).toEqual(['11:15 MEDIUM', '13:15 MEDIUM']);
    const description = scanWith(RULE, both("github.event_name == 'push'"))[0]?.description ?? '';
    expect(description).not.toContain('outsider');
  });
});

describe(`${RULE}: a Dependabot-only job that builds the update`, () => {
  const workflow = (opts: { condition?: string; token?: string; persist?: string; build?: string; permissions?: string } = {}) => yaml`
    on: pull_request_target
    permissions:
      contents: ${opts.permissions ?? 'read'}
    jobs:
      regenerate:
        if: ${opts.condition ?? "github.actor == 'dependabot[bot]'"}
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.ref }}
              token: ${opts.token ?? '${{ secrets.BOT_PAT }}'}${opts.persist === undefined ? '' : `\n              persist-credentials: ${opts.persist}`}
          - run: ${opts.build ?? 'npm ci'}
          - run: git commit -am regenerate && git push
  `;

  it('MEDIUM: the updated package\'s code runs beside a stored token left in .git/config', () => {
    const findings = scanWith(RULE, workflow());
    expect(positions(findings)).toEqual(['9:15 MEDIUM']);
    expect(findings[0]?.description).toContain("runs only for Dependabot's pull requests and checks out the update");
    expect(findings[0]?.description).toContain('runs `npm ci`');
    expect(findings[0]?.description).toContain('`secrets.BOT_PAT`, which outlives the run');
  });

  it("LOW when only a task runner's target runs from the checkout: its recipe is not in the scan", () => {
    // `make tidy` may only run `go mod tidy` (no dependency code runs); the Makefile is not among the scanned files.
    for (const build of ['make tidy', 'just deps', 'task generate']) {
      const findings = scanWith(RULE, workflow({ build }));
      expect(positions(findings)).toEqual(['9:15 LOW']);
      expect(findings[0]?.description).toContain(`runs \`${build}\` there, a target whose recipe is in the repository's`);
      expect(findings[0]?.description).toContain("check the target's recipe");
      expect(findings[0]?.description).not.toContain("the updated dependency's code (an install script");
    }
    // A step that builds with a package manager as well: that one is named, MEDIUM.
    const both = scanWith(RULE, workflow({ build: 'make tidy && npm ci' }));
    expect(positions(both)).toEqual(['9:15 MEDIUM']);
    expect(both[0]?.description).toContain('runs `npm ci`');
  });

  it('the job\'s token: MEDIUM with a write scope, LOW when read-only', () => {
    expect(positions(scanWith(RULE, workflow({ token: '${{ github.token }}', permissions: 'write' })))).toEqual(['9:15 MEDIUM']);
    expect(positions(scanWith(RULE, workflow({ token: '${{ github.token }}' })))).toEqual(['9:15 LOW']);
  });

  it('negative: not Dependabot-only, nothing built from the checkout, or credentials not persisted', () => {
    const other = scanWith(RULE, workflow({ condition: "github.actor == 'dependabot[bot]' || github.actor == 'renovate[bot]'" }));
    expect(positions(other)).toEqual(['9:15 LOW']);
    expect(other[0]?.description).not.toContain('Dependabot');
    expect(positions(scanWith(RULE, workflow({ build: 'git status' })))).toEqual(['9:15 LOW']);
    // A container build runs the update in BuildKit's containers, which see only what the Dockerfile copies in.
    expect(positions(scanWith(RULE, workflow({ build: 'docker build -t app .' })))).toEqual(['9:15 LOW']);
    expect(scanWith(RULE, workflow({ persist: 'false' }))).toEqual([]);
  });
  describe('a pull_request_target job behind a label the workflow removes in every run', () => {
    const workflow = (permissions: string, ref: string) => yaml`
      on:
        pull_request_target:
          types: [labeled, synchronize]
      permissions:
${permissions}
      jobs:
        test:
          if: contains(github.event.pull_request.labels.*.name, 'safe to test')
          runs-on: ubuntu-latest
          steps:
            - run: gh pr edit \${{ github.event.pull_request.number }} --remove-label "safe to test"
              env:
                GH_TOKEN: \${{ github.token }}
            - uses: actions/checkout@v3
              with:
                repository: \${{ github.event.pull_request.head.repo.full_name }}
                ref: \${{ github.event.pull_request.${ref} }}
            - run: npm ci && npm test
    `;
    const minor = '        contents: read\n        pull-requests: write';
    const writes = '        contents: write\n        pull-requests: write';

    it('is LOW when the persisted token writes only pull requests, even with the push race of the branch', () => {
      const findings = scanWith(RULE, workflow(minor, 'head.ref'));
      expect(findings.map((f) => f.severity)).toEqual(['LOW']);
      expect(findings[0]?.description).toContain('`pull-requests: write`');
      expect(findings[0]?.description).toContain('cannot push code or publish');
    });

    it('is LOW when the approved commit is what runs, whatever the token can write', () => {
      const findings = scanWith(RULE, workflow(writes, 'head.sha'));
      expect(findings.map((f) => f.severity)).toEqual(['LOW']);
      expect(findings[0]?.description).toContain('the approved commit is what runs');
    });

    it('stays MEDIUM when the token can push code and the branch can change after the label', () => {
      const findings = scanWith(RULE, workflow(writes, 'head.ref'));
      expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
      expect(findings[0]?.description).not.toContain('so this is LOW');
    });
  });

  describe('a labeled-only pull_request_target job that runs the labelled commit', () => {
    const workflow = (condition: string) => yaml`
      on:
        pull_request_target:
          types: [labeled]
      permissions:
        contents: write
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

    it('is MEDIUM when the check reads the labels the pull request has: the approval does not bind the code', () => {
      // The label stays while new commits are pushed, and any later label event runs them under it.
      const findings = scanWith(RULE, workflow("contains(github.event.pull_request.labels.*.name, 'ok-to-test')"));
      expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
      expect(findings[0]?.description).not.toContain('so this is LOW');
      expect(findings[0]?.description).toContain('it does not bind the code');
      expect(findings[0]?.description).toContain('any later label event');
    });

    it('negative: LOW when the check reads the label the event adds, which binds that commit', () => {
      const findings = scanWith(RULE, workflow("github.event.label.name == 'ok-to-test'"));
      expect(findings.map((f) => f.severity)).toEqual(['LOW']);
      expect(findings[0]?.description).toContain('the approved commit is what runs, so this is LOW');
    });
  });
});

describe(`${RULE}: a later checkout into the same directory replaces the token`, () => {
  const wf = (path: string, condition: string, test: string) => yaml`
    on: issue_comment
    permissions:
      contents: write
    jobs:
      rebase:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - id: ok
            run: echo "ok=true" >> "$GITHUB_OUTPUT"
          - uses: actions/checkout@v3
            if: ${condition}
            with:
              token: \${{ secrets.BOT_TOKEN }}
              ref: refs/pull/\${{ github.event.issue.number }}/head
              ${path}
          - if: steps.ok.outputs.ok == 'true'
            run: ${test}
  `;
  const first = (text: string) => scanWith(RULE, text).filter((f) => f.line === 8);

  it("negative: the pull request's code runs after a checkout into the same directory (on the same condition, or the one that brings that code): the first token is gone", () => {
    for (const condition of ["steps.ok.outputs.ok == 'true'", "contains(github.event.comment.body, '/test')"]) {
      const found = first(wf('fetch-depth: 0', condition, 'npm test'));
      expect(found.map((f) => f.severity), condition).toEqual(['LOW']);
      expect(found[0]?.description).not.toContain('where an outsider');
    }
  });

  it('positive: a checkout into another directory, or one that may be skipped, leaves the first token where the code runs', () => {
    expect(first(wf('path: pr', "steps.ok.outputs.ok == 'true'", 'cd pr && npm test')).map((f) => f.severity)).toEqual(['MEDIUM']);
    // The outsider's text runs whether or not the later checkout (which brings nothing of theirs) ran.
    const injected = wf('fetch-depth: 0', "github.actor == 'octocat'", 'echo "${{ github.event.comment.body }}"').replace(/ref: refs\/pull\/.*\/head/, 'ref: main');
    expect(first(injected).map((f) => f.severity)).toEqual(['MEDIUM']);
  });
});
