import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';
import { findCombinations } from '../../../../lib/engine/combinations/index.js';
import { scanRepository } from '../../../../lib/engine/scan.js';

const RULE = 'unpinned-action';
const SHA = '08eba0b27e820071cde6df949e0beb9ba4906955';

describe(RULE, () => {
  it('reports tag and branch refs at the uses scalar: MEDIUM for third parties, LOW for GitHub-owned', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: github/codeql-action/init@main
            - uses: docker/login-action@v3
            - uses: Actions/cache@v4
      permissions: { contents: write }
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['6:15 LOW', '7:15 LOW', '8:15 MEDIUM', '9:15 LOW']);
    expect(records.every((r) => r.finding.rule_id === RULE && r.job === 'build')).toBe(true);
    expect(records[2]?.finding.description).toContain('`docker/login-action`');
    expect(records[2]?.finding.description).toContain('`v3`');
  });

  it("treats Dependabot's organisation as GitHub's own (LOW), not a look-alike owner", () => {
    const records = recordsWith(RULE, yaml`
      on: pull_request_target
      permissions: { contents: write, pull-requests: write }
      jobs:
        automerge:
          runs-on: ubuntu-latest
          steps:
            - uses: dependabot/fetch-metadata@v2
            - uses: dependabot-tools/fetch-metadata@v2
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['7:15 LOW', '8:15 MEDIUM']);
    expect(records[0]?.facts).toContain('owner:platform');
    expect(records[0]?.finding.description).toContain('GitHub can change the code');
    expect(records[1]?.facts).toContain('owner:third-party');
  });

  it("names a job's write scopes that hand over no code, release or package instead of saying it holds no write scope", () => {
    const minor = recordsWith(RULE, yaml`
      on: push
      permissions: { issues: write, pull-requests: write }
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: docker/login-action@v3
    `);
    expect(minor[0]?.finding.description).toContain('the job holds only `issues: write`, `pull-requests: write` (no scope that changes code, releases or packages), no secret or OIDC token');
    expect(minor[0]?.finding.description).not.toContain('holds no write scope,');
    const none = recordsWith(RULE, yaml`
      on: push
      permissions: { contents: read }
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: docker/login-action@v3
    `);
    expect(none[0]?.finding.description).toContain('the job holds no write scope, secret or OIDC token');
  });

  it('accepts full commit SHAs and exempts local actions and docker images', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@${SHA}
            - uses: docker/login-action@${SHA.toUpperCase()} # v3.4.0
            - uses: ./.github/actions/setup
            - uses: docker://alpine:3.20
    `)).toEqual([]);
  });

  it('reports a shortened SHA, which is not a commit pin', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: some-org/some-action@08eba0b
      permissions: { packages: write }
    `);
    expect(positions(findings)).toEqual(['6:15 MEDIUM']);
    expect(findings[0]?.description).toContain('shortened SHA');
  });

  it('reports reusable-workflow calls bound to the calling job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      permissions: { contents: write }
      jobs:
        call:
          uses: org/shared/.github/workflows/ci.yml@main
        pinned:
          uses: org/shared/.github/workflows/ci.yml@${SHA}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['5:11 MEDIUM']);
    expect(records[0]?.job).toBe('call');
    expect(records[0]?.finding.description).toMatch(/^Reusable workflow/);
  });

  it('accepts SLSA generator release tags, which its builders require, but not its branches', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        provenance:
          uses: slsa-framework/slsa-github-generator/.github/workflows/generator_generic_slsa3.yml@v2.1.0
        other:
          uses: slsa-framework/slsa-github-generator/.github/workflows/generator_generic_slsa3.yml@main
          secrets: inherit
    `))).toEqual(['6:11 MEDIUM']);
  });

  it("exempts references to the scanned repository's own actions and workflows", () => {
    const workflow = yaml`
      on: push
      jobs:
        self:
          runs-on: ubuntu-latest
          steps:
            - uses: my-org/my-action/.github/actions/setup@main
        reuse:
          uses: my-org/my-action/.github/workflows/build.yml@main
      permissions: { contents: write }
    `;
    const action = yaml`
      name: setup
      runs:
        using: composite
        steps:
          - run: echo hi
            shell: bash
    `;
    expect(scanWith(RULE, [
      { path: '.github/workflows/test.yml', text: workflow },
      { path: '.github/workflows/build.yml', text: 'on: workflow_call\njobs: {}\n' },
      { path: '.github/actions/setup/action.yml', text: action },
    ])).toEqual([]);
    expect(positions(scanWith(RULE, workflow))).toEqual(['6:15 MEDIUM', '8:11 MEDIUM']);
  });

  it('checks composite-action steps, bound to no job', () => {
    const records = recordsWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          name: composite
          runs:
            using: composite
            steps:
              - uses: astral-sh/setup-uv@v6
        `,
      },
    ]);
    expect(positions(records.map((r) => r.finding))).toEqual(['5:13 MEDIUM']);
    expect(records[0]?.job).toBeNull();
    expect(records[0]?.finding.description).toContain('MEDIUM: no workflow here runs this action');
  });

  it('is LOW for a step of an action kept under .github/ that no workflow here calls, saying so; MEDIUM once a job that holds a secret calls it (negative)', () => {
    const action = { path: '.github/actions/coverage/action.yml', text: 'runs:\n  using: composite\n  steps:\n    - uses: astral-sh/setup-uv@v6\n' };
    const uncalled = recordsWith(RULE, [action]);
    expect(positions(uncalled.map((r) => r.finding))).toEqual(['4:13 LOW']);
    expect(uncalled[0]?.finding.description).toContain("LOW: no workflow here runs this action, kept under `.github/` for the repository's own workflows");
    const called = recordsWith(RULE, [
      action,
      { path: '.github/workflows/ci.yml', text: 'on: push\npermissions: { contents: read }\njobs:\n  test:\n    runs-on: ubuntu-latest\n    env: { NPM_TOKEN: "${{ secrets.NPM_TOKEN }}" }\n    steps:\n      - uses: ./.github/actions/coverage\n' },
    ]).filter((r) => r.finding.file === action.path);
    expect(positions(called.map((r) => r.finding))).toEqual(['4:13 MEDIUM']);
  });

  it("says what the jobs that run a composite action hold, where a moved ref of its step reaches", () => {
    const action = { path: '.github/actions/publish/action.yml', text: 'runs:\n  using: composite\n  steps:\n    - uses: docker/build-push-action@v6\n      with: { push: true }\n' };
    const workflow = (env: string) => ({
      path: '.github/workflows/release.yml',
      text: `on: push\npermissions: { contents: read }\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./.github/actions/publish\n        env:${env}\n`,
    });
    const found = scanWith(RULE, [action, workflow(' { NPM_TOKEN: "${{ secrets.NPM_TOKEN }}" }')]).filter((f) => f.file === action.path);
    expect(positions(found)).toEqual(['4:13 MEDIUM']);
    expect(found[0]?.description).toContain('MEDIUM: job `release`, which runs this action, holds secret `NPM_TOKEN`');
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps: not-a-list
        b:
          uses: [1, 2]
          steps:
            - uses: 42
            - uses:
            - uses: no-ref-at-all
    `)).toEqual([]);
  });
});

describe(`${RULE}: first-party actions (the repository's own owner)`, () => {
  const workflow = yaml`
    on: push
    jobs:
      release:
        runs-on: ubuntu-latest
        steps:
          - uses: acme/tools/setup@main
          - uses: other-org/deploy@v2
          - run: ./release.sh
            env:
              GH_TOKEN: \${{ secrets.RELEASE_PAT }}
  `;

  it('rates an action of the same owner LOW and says it is first-party, when the repository is named', () => {
    const findings = scanWith(RULE, workflow, { repository: 'Acme/app' });
    expect(positions(findings)).toEqual(['6:15 LOW', '7:15 MEDIUM']);
    expect(findings[0]?.description).toContain('first-party');
    expect(findings[1]?.description).toContain('third party');
  });

  it('treats the same action as third-party when the repository is not named (or named malformed)', () => {
    expect(positions(scanWith(RULE, workflow))).toEqual(['6:15 MEDIUM', '7:15 MEDIUM']);
    expect(positions(scanWith(RULE, workflow, { repository: 'acme' }))).toEqual(['6:15 MEDIUM', '7:15 MEDIUM']);
  });

  it('says the owner may be the repository\'s own when nothing names the repository, and not when something does', () => {
    const unnamed = scanWith(RULE, workflow);
    expect(unnamed[0]?.description).toContain('a third party unless `acme` owns this repository too (nothing in the scan names this repository)');
    expect(unnamed[1]?.description).toContain('a third party unless `other-org` owns this repository too');
    // Named (by the caller, or by a condition of its own files): the other owner is a third party, said plainly.
    const named = scanWith(RULE, workflow, { repository: 'acme/app' });
    expect(named[1]?.description).toContain('(or anyone who takes over that repository), a third party, can change');
    expect(named[1]?.description).not.toContain('unless');
    const declared = scanWith(RULE, workflow.replace(/^( +)runs-on: ubuntu-latest$/m, "$1runs-on: ubuntu-latest\n$1if: github.repository == 'acme/app'"));
    expect(positions(declared)).toEqual(['7:15 LOW', '8:15 MEDIUM']);
    expect(declared[1]?.description).not.toContain('unless');
  });

  it('keeps a first-party action out of mutable-action-secret-theft, which still fires on the third-party one', () => {
    const only = (text: string, repository?: string) =>
      findCombinations(scanRepository([{ path: '.github/workflows/release.yml', text }], { repository }).records, () => true)
        .filter((c) => c.id === 'mutable-action-secret-theft')
        .map((c) => c.components.find((k) => k.rule_id === 'unpinned-action')?.finding.line);
    const firstPartyOnly = workflow.replace(/^.*other-org\/deploy@v2\n/m, '');
    expect(only(firstPartyOnly)).toEqual([6]);
    expect(only(firstPartyOnly, 'acme/app')).toEqual([]);
    expect(only(workflow, 'acme/app')).toEqual([7]);
  });
  it("infers the owner from the workflows' own github.repository conditions when the repository is not named", () => {
    const inferred = yaml`
      on: push
      jobs:
        release:
          if: github.repository == 'acme/app'
          runs-on: ubuntu-latest
          steps:
            - uses: acme/tools/setup@main
            - uses: other-org/deploy@v2
      permissions: { deployments: write }
    `;
    const records = recordsWith(RULE, inferred);
    expect(positions(records.map((r) => r.finding))).toEqual(['7:15 LOW', '8:15 MEDIUM']);
    expect(records[0]?.facts).toContain('owner:first-party');
    expect(records[1]?.facts).toContain('owner:third-party');
  });

  it('a reusable workflow of this very repository, at any ref, is local (not reported) once the repository is named', () => {
    const call = yaml`
      on: push
      jobs:
        call:
          uses: acme/app/.github/workflows/release.yml@main
          secrets: inherit
        other:
          uses: acme/shared/.github/workflows/release.yml@main
          secrets: inherit
    `;
    const records = recordsWith(RULE, call, { repository: 'acme/app' });
    expect(positions(records.map((r) => r.finding))).toEqual(['7:11 LOW']);
    expect(records[0]?.finding.description).toContain('first-party');
  });
  describe('option trusted-owners', () => {
    const workflow = yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: My-Org/setup-tools@v2
            - uses: my-org-evil/setup-tools@v2
            - uses: docker/login-action@v3
        call:
          uses: my-org/workflows/.github/workflows/release.yml@main
      permissions: { contents: write }
    `;

    it('reports every owner by default', () => {
      expect(positions(scanWith(RULE, workflow))).toEqual(['6:15 LOW', '7:15 MEDIUM', '8:15 MEDIUM', '9:15 MEDIUM', '11:11 MEDIUM']);
    });

    it("lets a trusted owner's actions and reusable workflows use tags, case-insensitively, and no one else's", () => {
      const findings = scanWith(RULE, workflow, { ruleOptions: { [RULE]: { 'trusted-owners': ['my-org'] } } });
      expect(findings.map((f) => f.line)).toEqual([6, 8, 9]);
      expect(findings[1]?.description).toContain('my-org-evil/setup-tools');
    });

    it('a trusted owner keeps no finding that could join an attack path', () => {
      const records = recordsWith(RULE, workflow, { ruleOptions: { [RULE]: { 'trusted-owners': ['my-org', 'docker', 'my-org-evil', 'actions'] } } });
      expect(records).toEqual([]);
    });
  });
});

describe(`${RULE}: what the job hands the mutable code`, () => {
  it('says when a secret reaches the action itself (its with: or environment), and records it', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      permissions:
        contents: read
      jobs:
        deploy:
          runs-on: ubuntu-latest
          env:
            SHARED: \${{ secrets.SHARED_KEY }}
          steps:
            - uses: some-org/deploy@v1
              with:
                token: \${{ secrets.DEPLOY_TOKEN }}
            - uses: some-org/notify@v1
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['10:15 MEDIUM', '13:15 MEDIUM']);
    expect(records[0]?.finding.description).toContain('secrets `DEPLOY_TOKEN`, `SHARED_KEY` reach the action itself');
    // The job-level env reaches every step's process.
    expect(records[1]?.finding.description).toContain('secret `SHARED_KEY` reaches the action itself');
    expect(records[0]?.facts).toEqual(expect.arrayContaining(['owner:third-party', 'holds:secrets', 'secrets:step']));
  });

  it('counts a secret an input reads through an environment variable as passed to the action', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      permissions:
        contents: read
      env:
        PUSH_TOKEN: \${{ secrets.BOT_PAT }}
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            - uses: some-org/push@v1
              with:
                token: \${{ env.PUSH_TOKEN }}
    `);
    expect(records[0]?.finding.description).toContain('secret `BOT_PAT` reaches the action itself');
    expect(records[0]?.finding.description).not.toContain('none of its secrets');
  });

  it("says when the job's write token or a minted token is handed to the action itself, not only the runner's memory", () => {
    const records = recordsWith(RULE, yaml`
      on: push
      permissions:
        contents: write
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            - id: app
              uses: actions/create-github-app-token@${SHA}
              with:
                app-id: \${{ secrets.APP_ID }}
                private-key: \${{ secrets.APP_KEY }}
            - uses: some-org/gh-release@v1
              with:
                token: \${{ secrets.GITHUB_TOKEN }}
            - uses: some-org/upload@v1
              env:
                GITHUB_TOKEN: \${{ github.token }}
            - uses: some-org/release-other-repo@v1
              with:
                token: \${{ steps.app.outputs.token }}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['13:15 MEDIUM', '16:15 MEDIUM', '19:15 MEDIUM']);
    const [withToken, envToken, minted] = records.map((r) => r.finding.description);
    expect(withToken).toContain("the job's token (`contents: write`) reaches the action itself (its `with:` or its environment)");
    expect(envToken).toContain("the job's token (`contents: write`) reaches the action itself");
    expect(minted).toContain("the token that step `app` mints (`actions/create-github-app-token`, from secrets `APP_ID`, `APP_KEY`; for this repository only (no `owner` or `repositories` input), with every permission the app's installation has) reaches the action itself");
    expect(minted).not.toContain("the job's token (");
    for (const text of [withToken, envToken, minted]) {
      expect(text).not.toContain('none of its secrets is passed');
      expect(text).toContain("none of its secrets themselves is passed to this action, but they are in the runner's memory");
    }
    // The facts, and so the severity and attack paths, are unchanged: the secrets themselves reach the runner's memory only.
    expect(records[0]?.facts).toContain('secrets:job');
  });

  it('counts a token a script mints from stored secrets as handed to the action', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      permissions:
        contents: write
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            - id: mint
              run: |
                TOKEN=$(curl -X POST -H "Authorization: Bearer \${{ secrets.APP_JWT }}" https://api.github.com/app/installations/1/access_tokens | jq -r .token)
                echo "token=$TOKEN" >> "$GITHUB_OUTPUT"
            - id: version
              run: echo "token=v1" >> "$GITHUB_OUTPUT"
            - uses: some-org/gh-release@v1
              with:
                token: \${{ steps.mint.outputs.token }}
            - uses: some-org/tag@v1
              with:
                tag: \${{ steps.version.outputs.token }}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['14:15 MEDIUM', '17:15 MEDIUM']);
    expect(records[0]?.finding.description).toContain('the token that step `mint` mints (its script, from secret `APP_JWT`) reaches the action itself');
    // An output of a step given no secret is no credential.
    expect(records[1]?.finding.description).not.toContain('mints');
  });

  it('names no handed token when the action gets none, or only a read-only job token', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      permissions:
        contents: read
      jobs:
        check:
          runs-on: ubuntu-latest
          steps:
            - id: app
              uses: actions/create-github-app-token@${SHA}
              with:
                app-id: \${{ secrets.APP_ID }}
                private-key: \${{ secrets.APP_KEY }}
            - uses: some-org/lint@v1
              with:
                token: \${{ secrets.GITHUB_TOKEN }}
            - uses: some-org/report@v1
              with:
                # A step output that is not a minting step's token.
                version: \${{ steps.app.outputs.app-slug }}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['13:15 MEDIUM', '16:15 MEDIUM']);
    for (const r of records) {
      expect(r.finding.description).toContain("none of its secrets is passed to this action, but they are in the runner's memory");
      expect(r.finding.description).not.toContain('reaches the action itself');
    }
  });

  it("says when the job's secrets reach only the runner's memory", () => {
    const records = recordsWith(RULE, yaml`
      on: push
      permissions:
        contents: read
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - uses: some-org/lint@v1
            - run: ./deploy.sh
              env:
                TOKEN: \${{ secrets.DEPLOY_TOKEN }}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:15 MEDIUM']);
    expect(records[0]?.finding.description).toContain("none of its secrets is passed to this action, but they are in the runner's memory");
    expect(records[0]?.facts).toContain('secrets:job');
    expect(records[0]?.facts).not.toContain('secrets:step');
  });

  it('a job that holds nothing says so, and carries no holding facts', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      permissions:
        contents: read
      jobs:
        lint:
          runs-on: ubuntu-latest
          steps:
            - uses: some-org/lint@v1
    `);
    expect(records[0]?.finding.description).toContain('the job holds no write scope, secret or OIDC token');
    expect(records[0]?.facts?.some((f) => f.startsWith('holds') || f.startsWith('secrets:'))).toBe(false);
  });

  it('is LOW for a third party\'s action in a job that holds nothing and feeds no publish, MEDIUM otherwise', () => {
    const job = (permissions: string) => yaml`
      on: push
      permissions: ${permissions}
      jobs:
        lint:
          runs-on: ubuntu-latest
          steps:
            - uses: some-org/lint@v1
    `;
    const low = scanWith(RULE, job('{ contents: read }'));
    expect(positions(low)).toEqual(['7:15 LOW']);
    expect(low[0]?.description).toContain('LOW: the job holds no write scope that changes code, releases or packages, no secret, OIDC token, self-hosted machine or publish and hands no build to a publishing job');
    expect(positions(scanWith(RULE, job('{ contents: write }')))).toEqual(['7:15 MEDIUM']);
    // The default token (no `permissions:` anywhere) counts as nothing, and the description says why.
    const unset = scanWith(RULE, 'on: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: some-org/lint@v1\n');
    expect(positions(unset)).toEqual(['6:15 LOW']);
    expect(unset[0]?.description).toContain("its default token is read-write only if the repository's settings make it so");
    // A build job that holds nothing but whose artifact a publishing job ships.
    expect(positions(scanWith(RULE, yaml`
      on: push
      permissions: { contents: read }
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: some-org/build@v1
            - uses: actions/upload-artifact@${SHA}
              with: { name: dist, path: dist }
        publish:
          needs: build
          runs-on: ubuntu-latest
          permissions: { id-token: write }
          steps:
            - uses: actions/download-artifact@${SHA}
              with: { name: dist, path: dist }
            - run: npm publish --provenance
    `))).toEqual(['7:15 MEDIUM']);
    // A job that holds nothing but saves cache entries a publishing job restores: a moved ref can plant them.
    const cached = (on: string) => [
      { path: '.github/workflows/lint.yml', text: `on: ${on}\npermissions: {}\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-node@${SHA}\n        with: { cache: npm }\n      - uses: some-org/lint@v1\n` },
      { path: '.github/workflows/release.yml', text: `on: { push: { tags: ['v*'] } }\npermissions: { contents: read, id-token: write }\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-node@${SHA}\n        with: { cache: npm }\n      - run: npm publish --provenance\n` },
    ];
    expect(scanWith(RULE, cached('push')).filter((f) => f.file === '.github/workflows/lint.yml').map((f) => f.severity)).toEqual(['MEDIUM']);
    // The publishing job runs the same action itself (any ref): its controller is in that job already, where the
    // finding is; the cache adds no way in. Another action of the same owner, or another path, is not the same code.
    const withAction = (uses: string) => {
      const files = cached('push');
      files[1] = { path: '.github/workflows/release.yml', text: `on: { push: { tags: ['v*'] } }\npermissions: { contents: read, id-token: write }\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-node@${SHA}\n        with: { cache: npm }\n      - uses: ${uses}\n      - run: npm publish --provenance\n` };
      return scanWith(RULE, files);
    };
    expect(withAction('some-org/lint@v2').filter((f) => f.file === '.github/workflows/lint.yml').map((f) => f.severity)).toEqual(['LOW']);
    expect(withAction('some-org/lint@v2').filter((f) => f.file === '.github/workflows/release.yml').map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(withAction('some-org/format@v1').filter((f) => f.file === '.github/workflows/lint.yml').map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(withAction('some-org/lint/sub@v1').filter((f) => f.file === '.github/workflows/lint.yml').map((f) => f.severity)).toEqual(['MEDIUM']);
    // On pull requests only, the entries stay in the pull request's own cache scope, which a release never reads.
    expect(scanWith(RULE, cached('pull_request')).filter((f) => f.file === '.github/workflows/lint.yml').map((f) => f.severity)).toEqual(['LOW']);
    // Caches are scoped by ref: only runs in the default branch's scope reach a tag's release run. A manual dispatch
    // (which branch it runs on is a maintainer's choice) or a tag push does not save there in the normal course.
    const lint = (on: string) => scanWith(RULE, cached(on)).filter((f) => f.file === '.github/workflows/lint.yml');
    expect(lint('{ push: { branches: [main] } }').map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(lint('{ push: { branches: [main] } }')[0]?.description).toContain('saves cache entries that a job which publishes restores');
    expect(lint('{ schedule: [{ cron: "0 0 * * *" }] }').map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(lint('[pull_request, workflow_dispatch]').map((f) => f.severity)).toEqual(['LOW']);
    expect(lint('{ push: { tags: ["v*"] } }').map((f) => f.severity)).toEqual(['LOW']);
    // A job that runs on push too but saves only on pull requests' occasions (its own condition): no link either.
    const conditioned = cached('[push, pull_request]');
    conditioned[0] = { path: '.github/workflows/lint.yml', text: `on: [push, pull_request]\npermissions: {}\njobs:\n  lint:\n    if: github.event_name == 'pull_request'\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-node@${SHA}\n        with: { cache: npm }\n      - uses: some-org/lint@v1\n` };
    expect(scanWith(RULE, conditioned).filter((f) => f.file === '.github/workflows/lint.yml').map((f) => f.severity)).toEqual(['LOW']);
    // Likewise a save step that runs only on pull requests' occasions, in a job that also runs on push.
    const saveOnPr = cached('[push, pull_request]');
    saveOnPr[0] = { path: '.github/workflows/lint.yml', text: `on: [push, pull_request]\npermissions: {}\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-node@${SHA}\n        if: github.event_name == 'pull_request'\n        with: { cache: npm }\n      - uses: some-org/lint@v1\n` };
    expect(scanWith(RULE, saveOnPr).filter((f) => f.file === '.github/workflows/lint.yml').map((f) => f.severity)).toEqual(['LOW']);
    saveOnPr[0] = { path: '.github/workflows/lint.yml', text: (saveOnPr[0]?.text ?? '').replace("== 'pull_request'", "== 'push'") };
    expect(scanWith(RULE, saveOnPr).filter((f) => f.file === '.github/workflows/lint.yml').map((f) => f.severity)).toEqual(['MEDIUM']);
    // What counts is where the saving step and this step run together: code that runs only on pull requests
    // can plant nothing in the entries the job saves on push, and a save switched on only for pull requests
    // (an input, or the `if:` of a composite action's step) saves nothing a release reads.
    const jobOf = (steps: string) => `on: [push, pull_request]\npermissions: {}\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;
    const severities = (text: string, ...extra: { path: string; text: string }[]) =>
      scanWith(RULE, [{ path: '.github/workflows/lint.yml', text }, ...cached('push').slice(1), ...extra]).filter((f) => f.file === '.github/workflows/lint.yml').map((f) => f.severity);
    const node = `      - uses: actions/setup-node@${SHA}\n        with: { cache: npm }\n`;
    expect(severities(jobOf(`${node}      - uses: some-org/lint@v1\n        if: github.event_name == 'pull_request'\n`))).toEqual(['LOW']);
    expect(severities(jobOf(`${node}      - uses: some-org/lint@v1\n        if: github.event_name == 'push'\n`))).toEqual(['MEDIUM']);
    const switched = (event: string) => jobOf(`      - uses: actions/setup-go@${SHA}\n        with:\n          cache: \${{ github.event_name == '${event}' }}\n      - uses: some-org/lint@v1\n`);
    const goRelease = { path: '.github/workflows/go-release.yml', text: `on: { push: { tags: ['v*'] } }\npermissions: { contents: read, id-token: write }\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-go@${SHA} # v5.4.0\n      - run: npm publish --provenance\n` };
    expect(severities(switched('pull_request'), goRelease)).toEqual(['LOW']);
    expect(severities(switched('push'), goRelease)).toEqual(['MEDIUM']);
    const composite = (event: string) => ({ path: '.github/actions/setup/action.yml', text: `runs:\n  using: composite\n  steps:\n    - uses: actions/setup-node@${SHA}\n      if: github.event_name == '${event}'\n      with: { cache: npm }\n` });
    const viaAction = jobOf('      - uses: ./.github/actions/setup\n      - uses: some-org/lint@v1\n');
    expect(severities(viaAction, composite('pull_request'))).toEqual(['LOW']);
    expect(severities(viaAction, composite('push'))).toEqual(['MEDIUM']);
    // A reusable workflow's job saves where its local callers run: a push caller's scope reaches the release, a
    // pull request caller's does not.
    const called = (on: string) => {
      const files = cached('workflow_call');
      files.push({ path: '.github/workflows/ci.yml', text: `on: ${on}\npermissions: {}\njobs:\n  call:\n    uses: ./.github/workflows/lint.yml\n` });
      return scanWith(RULE, files).filter((f) => f.file === '.github/workflows/lint.yml').map((f) => f.severity);
    };
    expect(called('push')).toEqual(['MEDIUM']);
    expect(called('pull_request')).toEqual(['LOW']);
    // A composite action's step: LOW only when every job that calls it supplies nothing; no caller here: MEDIUM for
    // an action published outside `.github/` (other repositories' jobs run it), LOW for one kept under `.github/`.
    const action = { path: 'lint/action.yml', text: 'runs:\n  using: composite\n  steps:\n    - uses: some-org/lint@v1\n' };
    const caller = { path: '.github/workflows/ci.yml', text: 'on: push\npermissions: {}\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./lint\n' };
    expect(positions(scanWith(RULE, [action, caller]))).toEqual(['4:13 LOW']);
    expect(positions(scanWith(RULE, [action]))).toEqual(['4:13 MEDIUM']);
    expect(positions(scanWith(RULE, [{ ...action, path: '.github/actions/lint/action.yml' }]))).toEqual(['4:13 LOW']);
  });

  it("a publishing job's cache keyed by its run's own id restores nothing another workflow's run saves", () => {
    const lint = { path: '.github/workflows/lint.yml', text: `on: push\npermissions: {}\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/cache@${SHA}\n        with: { path: dist, key: "build-\${{ github.run_id }}" }\n      - uses: some-org/lint@v1\n` };
    const release = (keys: string) => ({ path: '.github/workflows/release.yml', text: `on: { push: { tags: ['v*'] } }\npermissions: { contents: read, id-token: write }\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/cache@${SHA}\n        with: { path: dist, ${keys} }\n      - run: npm publish --provenance\n` });
    const severity = (keys: string) => scanWith(RULE, [lint, release(keys)]).filter((f) => f.file === '.github/workflows/lint.yml').map((f) => f.severity);
    // Negative: key and restore key carry the run id, so the release restores only its own run's entries.
    expect(severity('key: "build-${{ github.run_id }}"')).toEqual(['LOW']);
    expect(severity('key: "build-${{ github.run_id }}", restore-keys: "build-${{ github.run_id }}"')).toEqual(['LOW']);
    // Positive: a restore key without it (`build-`) restores the newest entry of any run, the lint job's included.
    expect(severity('key: "build-${{ github.run_id }}", restore-keys: "build-"')).toEqual(['MEDIUM']);
  });

  it("rates a reusable workflow's call by what the calling job gives it: LOW when nothing worth taking and no later job publishes", () => {
    const call = (extra: string, permissions = '{}') => yaml`
      on: push
      permissions: ${permissions}
      jobs:
        call:
          uses: some-org/workflows/.github/workflows/build.yml@main
          ${extra}
    `;
    const none = scanWith(RULE, call('secrets: {}'));
    expect(positions(none)).toEqual(['5:11 LOW']);
    expect(none[0]?.description).toContain('LOW: the calling job holds no write scope that changes code, releases or packages, no secret or OIDC token, so the called workflow gets none of them');
    // `special-secret` is no name GitHub stores a secret under: it evaluates to an empty string and hands nothing over.
    const invalid = scanWith(RULE, call('secrets: { special-secret: "${{ secrets.special-secret }}" }'));
    expect(positions(invalid)).toEqual(['5:11 LOW']);
    expect(invalid[0]?.description).not.toContain('special-secret` reaches');
    // A real secret, every secret, a write scope or OIDC: MEDIUM.
    expect(positions(scanWith(RULE, call('secrets: { NPM_TOKEN: "${{ secrets.NPM_TOKEN }}" }')))).toEqual(['5:11 MEDIUM']);
    expect(positions(scanWith(RULE, call('secrets: inherit')))).toEqual(['5:11 MEDIUM']);
    expect(positions(scanWith(RULE, call('secrets: {}', '{ contents: write }')))).toEqual(['5:11 MEDIUM']);
    expect(positions(scanWith(RULE, call('secrets: {}', '{ id-token: write }')))).toEqual(['5:11 MEDIUM']);
    // A later job that publishes may ship what the called workflow built or uploaded: MEDIUM.
    expect(positions(scanWith(RULE, yaml`
      on: push
      permissions: {}
      jobs:
        call:
          uses: some-org/workflows/.github/workflows/build.yml@main
        release:
          needs: call
          runs-on: ubuntu-latest
          permissions: { id-token: write }
          steps:
            - run: npm publish --provenance
    `).filter((f) => f.line === 5))).toEqual(['5:11 MEDIUM']);
  });

  it('says a job writes with its default token, which makes it worth taking, and whether the token reaches the action', () => {
    const deploy = (token: string) => yaml`
      on: push
      jobs:
        docs:
          runs-on: ubuntu-latest
          steps:
            - uses: some-org/setup-tool@v1
            - uses: peaceiris/actions-gh-pages@v4
              with:
                ${token}
                publish_dir: ./site
    `;
    const given = scanWith(RULE, deploy('github_token: ${{ secrets.GITHUB_TOKEN }}'));
    expect(positions(given)).toEqual(['6:15 MEDIUM', '7:15 MEDIUM']);
    expect(given[0]?.description).toContain("the job holds the repository's default token, which `peaceiris/actions-gh-pages` writes to the repository with (so it is read-write here); the action can take that token without being handed it");
    expect(given[1]?.description).toContain("the job's token reaches the action itself (its `with:` or its environment)");
    expect(given.some((f) => f.description.includes('holds nothing worth taking itself'))).toBe(false);
    // With a deploy key the action does not write with the job's token: the job holds that key (a secret), not a writable token.
    const keyed = scanWith(RULE, deploy('deploy_key: ${{ secrets.PAGES_KEY }}'));
    expect(positions(keyed.filter((f) => f.line === 6))).toEqual(['6:15 MEDIUM']);
    expect(keyed[0]?.description).not.toContain('writes to the repository with');
  });

  it("names the release feed the model found when the job holds nothing itself", () => {
    const records = scanWith(RULE, yaml`
      on: push
      permissions: { contents: read }
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: some-org/build@v1
            - uses: actions/upload-artifact@${SHA}
              with: { name: dist, path: dist }
        publish:
          needs: build
          runs-on: ubuntu-latest
          permissions: { id-token: write }
          steps:
            - uses: actions/download-artifact@${SHA}
              with: { name: dist, path: dist }
            - run: npm publish --provenance
    `);
    expect(records.find((f) => f.line === 7)?.description).toContain('MEDIUM: the job holds nothing worth taking itself, but what it builds reaches job `publish`, which publishes.');
  });

  it("names the default token beside the release feed of a job with no permissions:, never saying it holds nothing after naming it", () => {
    const records = scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: some-org/build@v1
            - uses: actions/upload-artifact@${SHA}
              with: { name: dist, path: dist }
        publish:
          needs: build
          runs-on: ubuntu-latest
          permissions: { id-token: write }
          steps:
            - uses: actions/download-artifact@${SHA}
              with: { name: dist, path: dist }
            - run: npm publish --provenance
    `);
    const text = records.find((f) => f.line === 6)?.description ?? '';
    expect(text).toContain("the job holds the repository's default token (read-write on many repositories)");
    expect(text).toContain("MEDIUM: the job holds nothing worth taking itself besides the repository's default token (read-write only if the repository's settings make it so), but what it builds reaches job `publish`, which publishes.");
    expect(text).not.toContain('holds nothing worth taking itself, but');
  });

  it('secrets: inherit hands every secret to the called workflow itself', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        call:
          uses: some-org/workflows/.github/workflows/release.yml@main
          secrets: inherit
    `);
    expect(records[0]?.finding.description).toContain('every secret reaches the called workflow itself');
    expect(records[0]?.facts).toContain('secrets:step');
  });
});

describe(`${RULE}: a job that holds only a chat webhook`, () => {
  const job = (secret: string, input: string) => yaml`
    on: push
    permissions:
      contents: read
    jobs:
      notify:
        runs-on: ubuntu-latest
        steps:
          - uses: slackapi/slack-github-action@v2
            with:
              ${input}: \${{ secrets.${secret} }}
              payload: '{"text":"released"}'
  `;

  it('is LOW: a stolen webhook lets someone post to a channel, not push code, publish or read data, and joins no secret-theft path', () => {
    for (const [secret, input] of [['SLACK_WEBHOOK_URL', 'webhook'], ['NOTIFY', 'webhook'], ['DISCORD_WEBHOOK', 'url']] as const) {
      const records = recordsWith(RULE, job(secret, input));
      expect(positions(records.map((r) => r.finding)), secret).toEqual(['8:15 LOW']);
      const text = records[0]?.finding.description ?? '';
      expect(text, secret).toContain(`the job holds only a chat webhook (\`${secret}\`), which lets someone post to a channel, not push code, publish or read data`);
      expect(text, secret).toContain(`chat webhook \`${secret}\` reaches the action itself`);
      expect(text, secret).toContain(`LOW: the job holds only a chat webhook (\`${secret}\`); no write scope that changes code, releases or packages, no other secret`);
      expect(records[0]?.facts, secret).not.toContain('holds:secrets');
      expect(records[0]?.facts, secret).not.toContain('secrets:step');
    }
  });

  it('stays MEDIUM for a Slack bot token or an API token, which are credentials, not webhooks', () => {
    for (const secret of ['SLACK_BOT_TOKEN', 'SLACK_API_TOKEN']) {
      const records = recordsWith(RULE, job(secret, 'token'));
      expect(positions(records.map((r) => r.finding)), secret).toEqual(['8:15 MEDIUM']);
      expect(records[0]?.finding.description, secret).toContain(`secret \`${secret}\` reaches the action itself`);
      expect(records[0]?.facts, secret).toEqual(expect.arrayContaining(['holds:secrets', 'secrets:step']));
    }
  });
});

describe(`${RULE}: a job that holds only a coverage upload token`, () => {
  const job = (permissions: string, extra = '') => yaml`
    on: push
    permissions: ${permissions}
    jobs:
      test:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - run: make coverage${extra}
          - uses: codecov/codecov-action@v5
            with:
              token: \${{ secrets.CODECOV_TOKEN }}
  `;

  it('is LOW when handed only to its own service\'s action: a stolen upload token lets someone upload coverage reports, and that action\'s owner runs the service', () => {
    const records = recordsWith(RULE, job('{ contents: read }'));
    expect(positions(records.map((r) => r.finding))).toEqual(['7:15 LOW', '9:15 LOW']);
    const text = records[1]?.finding.description ?? '';
    expect(text).toContain('the job holds only a coverage upload token (`CODECOV_TOKEN`), which lets someone upload coverage reports for this repository, not push code, publish or read data');
    expect(text).toContain('coverage upload token `CODECOV_TOKEN` reaches the action itself, whose owner runs Codecov, the service it is for');
    expect(text).toContain('LOW: the job holds only a coverage upload token (`CODECOV_TOKEN`); no write scope that changes code, releases or packages, no other secret');
    expect(records[1]?.facts).not.toContain('holds:secrets');
    expect(records[1]?.facts).not.toContain('secrets:step');
  });

  it('stays MEDIUM with OIDC, a write scope, or the token exported to $GITHUB_ENV', () => {
    for (const [permissions, extra] of [
      ['{ contents: read, id-token: write }', ''],
      ['{ contents: write }', ''],
      ['{ contents: read }', '\n          - run: echo "CODECOV_TOKEN=${{ secrets.CODECOV_TOKEN }}" >> "$GITHUB_ENV"'],
    ] as const) {
      const records = recordsWith(RULE, job(permissions, extra));
      const codecov = records.filter((r) => r.finding.description.includes('codecov/codecov-action'));
      expect(codecov.map((r) => r.finding.severity), `${permissions}${extra}`).toEqual(['MEDIUM']);
    }
  });
});

describe(`${RULE}: a coverage upload token handed to the repository's own wrapper action`, () => {
  const files = (secret: string) => [
    {
      path: '.github/workflows/ci.yml',
      text: yaml`
        on: push
        permissions: { contents: read }
        jobs:
          test:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
              - uses: dtolnay/rust-toolchain@stable
              - uses: ./.github/actions/report
                with:
                  token: \${{ secrets.${secret} }}
      `,
    },
    { path: '.github/actions/report/action.yml', text: 'name: report\ninputs:\n  token: { required: true }\nruns:\n  using: composite\n  steps:\n    - uses: codecov/codecov-action@v5\n      with:\n        token: ${{ inputs.token }}\n' },
  ];
  const toolchain = (secret: string) => scanWith(RULE, files(secret)).filter((f) => f.description.includes('dtolnay/rust-toolchain'));

  it('stays an upload token: the `token:` input of a local action is the repository\'s own name for it', () => {
    expect(toolchain('CODECOV_TOKEN').map((f) => f.severity)).toEqual(['LOW']);
    expect(toolchain('CODECOV_TOKEN')[0]?.description).toContain('only a coverage upload token (`CODECOV_TOKEN`)');
  });

  it('negative: a secret whose name says nothing of a coverage service, handed to the same input, is a credential', () => {
    expect(toolchain('DEPLOY_TOKEN').map((f) => f.severity)).toEqual(['MEDIUM']);
  });
});

describe(`${RULE}: a job whose only stored secrets are identifiers (a user name, an app or tenant id)`, () => {
  const job = (extra = '') => yaml`
    on: push
    permissions: { contents: read }
    jobs:
      login:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - uses: some-org/registry-login@v1
            with:
              username: \${{ secrets.REGISTRY_USERNAME }}
              tenant: \${{ secrets.AZURE_TENANT_ID }}${extra}
  `;

  it('is LOW: a user name or an id opens nothing without the credential beside it, and the text does not call it a secret worth taking', () => {
    const records = recordsWith(RULE, job());
    expect(positions(records.map((r) => r.finding))).toEqual(['7:15 LOW', '8:15 LOW']);
    const text = records[1]?.finding.description ?? '';
    expect(text).toContain(
      'the job holds only identifiers (`REGISTRY_USERNAME`, `AZURE_TENANT_ID`), which only name an account, app or place and open nothing without the credential beside them: no write scope, other secret or OIDC token',
    );
    expect(text).not.toMatch(/secrets? `REGISTRY_USERNAME`/);
    expect(records[1]?.facts).not.toContain('holds:secrets');
    expect(records[1]?.facts).not.toContain('secrets:step');
  });

  it('stays MEDIUM when the job also hands the action a real credential, which is named as the secret', () => {
    const records = recordsWith(RULE, job('\n              password: ${{ secrets.REGISTRY_TOKEN }}'));
    expect(positions(records.map((r) => r.finding))).toEqual(['7:15 LOW', '8:15 MEDIUM']);
    const text = records[1]?.finding.description ?? '';
    expect(text).toContain('secret `REGISTRY_TOKEN` reaches the action itself');
    expect(text).toContain('identifiers (`REGISTRY_USERNAME`, `AZURE_TENANT_ID`)');
    expect(records[1]?.facts).toEqual(expect.arrayContaining(['holds:secrets', 'secrets:step']));
  });
});

describe(`${RULE}: credentials fetched at run time and handed to the action`, () => {
  const FETCH = `- name: Get git credentials
              uses: aws-actions/aws-secretsmanager-get-secrets@${SHA}
              with:
                secret-ids: \${{ secrets.RELEASE_SECRET_ID }}
                parse-json-secrets: true`;
  const workflow = (steps: string, env = 'REGION: us-west-2') => yaml`
      on: push
      permissions:
        contents: write
      env:
        ${env}
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            ${steps}
    `;

  it("names a secret manager's variable read into a token input as a credential handed to the action", () => {
    const records = recordsWith(RULE, workflow(`${FETCH}
            - uses: some-org/release@v4
              with:
                token: \${{ env.RELEASE_ACCESS_TOKEN }}`));
    expect(records).toHaveLength(1);
    const text = records[0]?.finding.description ?? '';
    expect(text).toContain("a credential fetched at run time (`env.RELEASE_ACCESS_TOKEN`, from step `Get git credentials`, `aws-actions/aws-secretsmanager-get-secrets`) reaches the action's `token` input");
    expect(text).not.toContain('none of its secrets is passed');
    expect(text).toContain('none of its secrets themselves is passed to this action');
    expect(records[0]?.facts).toContain('secrets:step');
    expect(records[0]?.facts).not.toContain('secrets:job');
  });

  it('negative: a literal variable of the workflow, a literal token, and a variable no step fetched are no credential', () => {
    const literal = recordsWith(RULE, workflow(`${FETCH}
            - uses: some-org/deploy@v4
              with:
                region: \${{ env.REGION }}
                token: \${{ env.REGION }}
                api-key: not-a-secret`));
    expect(literal[0]?.finding.description).not.toContain('fetched at run time');
    expect(literal[0]?.finding.description).toContain("none of its secrets is passed to this action, but they are in the runner's memory");
    expect(literal[0]?.facts).toContain('secrets:job');
    // No secret manager and no script before it: nothing fetched `RELEASE_ACCESS_TOKEN`.
    const unfetched = recordsWith(RULE, workflow(`- uses: some-org/release@v4
              with:
                token: \${{ env.RELEASE_ACCESS_TOKEN }}
            - run: ./deploy.sh
              env:
                KEY: \${{ secrets.DEPLOY_KEY }}`));
    expect(unfetched[0]?.finding.description).not.toContain('fetched at run time');
  });

  it("counts a script that writes a value derived from a stored secret to $GITHUB_ENV, and a secret manager's output", () => {
    const records = recordsWith(RULE, workflow(`- name: Exchange
              run: |
                echo "NPM_AUTH=$(curl -s -H 'Authorization: \${{ secrets.VAULT_TOKEN }}' https://vault.example/npm)" >> "$GITHUB_ENV"
            - id: vault
              uses: hashicorp/vault-action@${SHA}
              with:
                url: https://vault.example
                method: jwt
                secrets: secret/data/ci password | PYPI_PASSWORD
            - uses: some-org/npm-publish@v1
              env:
                NODE_AUTH_TOKEN: \${{ env.NPM_AUTH }}
            - uses: some-org/pypi-publish@v1
              with:
                password: \${{ steps.vault.outputs.password }}`));
    const [npm, pypi] = records.map((r) => r.finding.description);
    expect(npm).toContain("a credential fetched at run time (`env.NPM_AUTH`, from step `Exchange`, its script from secret `VAULT_TOKEN`) reaches the action's environment (`NODE_AUTH_TOKEN`)");
    expect(pypi).toContain("a credential fetched at run time (`steps.vault.outputs.password`, from step `vault`, `hashicorp/vault-action`) reaches the action's `password` input");
  });

  it('negative: a script that writes a value derived from no secret to $GITHUB_ENV hands on no credential', () => {
    const records = recordsWith(RULE, workflow(`${FETCH}
            - run: echo "RELEASE_TAG=v$(cat VERSION)" >> "$GITHUB_ENV"
            - uses: some-org/release@v4
              with:
                token: \${{ env.RELEASE_TAG }}`));
    // The script, not the secret manager before it, wrote the variable.
    expect(records.at(-1)?.finding.description).not.toContain('fetched at run time');
  });
});

describe('unpinned-action: exact tags of immutable releases', () => {
  const workflow = (ref: string) => `on: push
permissions: { contents: write }
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: astral-sh/setup-uv@${ref}
      - run: uv build
`;

  it('does not report setup-uv at the exact tag of an immutable release (v8.0.0 on), and still reports earlier and floating tags', () => {
    expect(scanWith('unpinned-action', workflow('v8.2.0'))).toEqual([]);
    expect(scanWith('unpinned-action', workflow('v8.0.0'))).toEqual([]);
    expect(scanWith('unpinned-action', workflow('v7.6.0')).length).toBe(1);
    expect(scanWith('unpinned-action', workflow('v8')).length).toBe(1);
  });

  it("rates an organisation named after the repository's owner (`acme-labs` for `acme`) LOW, saying what it assumes; other names stay third parties", () => {
    const job = (uses: string, repository = 'acme/app') => scanWith(RULE, yaml`
      on: push
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - uses: ${uses}
              with:
                token: \${{ secrets.DEPLOY_TOKEN }}
    `, { repository });
    for (const sibling of ['acme-labs/deploy@v1', 'tools-acme/deploy@v2']) {
      const found = job(sibling);
      expect(found.map((f) => f.severity), sibling).toEqual(['LOW']);
      expect(found[0]?.description, sibling).toContain("is, by its name, an organisation of this repository's owner `acme`");
    }
    // Not an extension by a word, or an owner too short to say anything: a third party.
    expect(job('acmecorp/deploy@v1').map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(job('go-tools/deploy@v1', 'go/app').map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it("reads Swatinem/rust-cache's entries as its job's own: another job restores them only under the same id or a shared key", () => {
    const files = (lintWith: string, buildWith: string) => [
      { path: '.github/workflows/ci.yml', text: `on: push\npermissions: {}\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: Swatinem/rust-cache@${SHA}${lintWith}\n      - uses: some-org/lint@v1\n` },
      { path: '.github/workflows/release.yml', text: `on: { push: { tags: ['v*'] } }\npermissions: { contents: write }\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: Swatinem/rust-cache@${SHA}${buildWith}\n      - run: cargo build --release && gh release upload v1 target/release/tool\n` },
    ];
    const lint = (lintWith: string, buildWith: string) => scanWith(RULE, files(lintWith, buildWith)).filter((f) => f.file === '.github/workflows/ci.yml').map((f) => f.severity);
    // Keyed by the job's id (`lint` is not `build`): nothing the release restores.
    expect(lint('', '')).toEqual(['LOW']);
    // A shared key both use, or no job id in the key: the release restores what lint saves.
    const shared = '\n        with:\n          shared-key: tools';
    expect(lint(shared, shared)).toEqual(['MEDIUM']);
    const noJob = '\n        with:\n          add-job-id-key: false';
    expect(lint(noJob, noJob)).toEqual(['MEDIUM']);
  });

  it("rates an action of a user the repository's CODEOWNERS names LOW: that account has write access here already", () => {
    const workflow = {
      path: '.github/workflows/release.yml',
      text: 'on: push\npermissions: { contents: write }\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: JC5/firefly-iii-dev@main\n        env: { TOKEN: "${{ secrets.CHANGELOG_TOKEN }}" }\n',
    };
    const owned = scanWith(RULE, [workflow, { path: '.github/CODEOWNERS', text: '* @jc5 @acme/maintainers\n' }]);
    expect(positions(owned)).toEqual(['7:15 LOW']);
    expect(owned[0]?.description).toContain("its owner `JC5` is named in this repository's CODEOWNERS");
    // Without the file, or when it names the account only as a team's organisation, a third party's.
    expect(positions(scanWith(RULE, [workflow]))).toEqual(['7:15 MEDIUM']);
    expect(positions(scanWith(RULE, [workflow, { path: '.github/CODEOWNERS', text: '* @JC5/maintainers\n' }]))).toEqual(['7:15 MEDIUM']);
    // A CODEOWNERS file anywhere else is not GitHub's.
    expect(positions(scanWith(RULE, [workflow, { path: 'src/CODEOWNERS', text: '* @JC5\n' }]))).toEqual(['7:15 MEDIUM']);
  });
});

