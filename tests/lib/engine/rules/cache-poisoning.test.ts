import { describe, expect, it } from 'vitest';
import { PATH_ENTRY_RULES } from '../../../../lib/engine/analysis/cache-scope.js';
import { combinationKind, findCombinations } from '../../../../lib/engine/combinations/index.js';
import { scanRepository } from '../../../../lib/engine/scan.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'cache-poisoning';

describe(RULE, () => {
  it('reports a cache restored by a publishing job at its uses:, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on:
        push:
          tags: ['v*']
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/setup-node@v4
              with:
                cache: npm
            - run: npm ci && npm publish
    `);
    // LOW: no workflow lets an outsider write the default branch's cache scope (see below for the writers).
    expect(positions(records.map((r) => r.finding))).toEqual(['9:15 LOW']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.job).toBe('publish');
    expect(records[0]?.finding.description).toContain('npm publish');
  });

  it('a release or tag trigger alone is no publisher: it takes a publishing step in the job or one it feeds', () => {
    const release = (last: string) => yaml`
      on:
        release:
          types: [published]
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/cache@v4
              with:
                path: ~/.cargo
                key: cargo-\${{ hashFiles('Cargo.lock') }}
            - run: ${last}
    `;
    expect(scanWith(RULE, release('./release.sh'))).toEqual([]);
    expect(positions(scanWith(RULE, release('cargo publish')))).toEqual(['8:15 LOW']);
    expect(scanWith(RULE, yaml`
      on:
        push:
          branches: [main]
          tags: ['v*']
        pull_request:
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/setup-go@v5
            - run: go test ./...
    `)).toEqual([]);
  });

  it('a tag or a GitHub release of the source ships nothing a cache changed; a release with assets does', () => {
    const release = (last: string) => yaml`
      on:
        push:
          tags: ['v*']
      permissions: { contents: write }
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/setup-node@v4
              with: { cache: npm }
            - run: npm ci && npm run changelog
            - ${last}
    `;
    for (const sourceOnly of [
      'run: gh release create "$GITHUB_REF_NAME" --generate-notes --title "Release $GITHUB_REF_NAME"',
      'run: gh release create v1 -n notes --draft',
      'uses: softprops/action-gh-release@v2',
      'uses: ncipollo/release-action@v1',
      'uses: actions/create-release@v1',
    ]) {
      expect(scanWith(RULE, release(sourceOnly)), sourceOnly).toEqual([]);
    }
    for (const assets of [
      'run: gh release create "$GITHUB_REF_NAME" dist/*.tgz --generate-notes',
      'run: gh release upload v1 dist/app.tgz',
      "uses: softprops/action-gh-release@v2\n              with: { files: 'dist/*' }",
      "uses: ncipollo/release-action@v1\n              with: { artifacts: 'dist/*' }",
    ]) {
      expect(positions(scanWith(RULE, release(assets))), assets).toEqual(['10:15 LOW']);
    }
  });

  it('follows the jobs a publisher needs only when they hand over artifacts', () => {
    const findings = scanWith(RULE, yaml`
      on: workflow_dispatch
      jobs:
        lint:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/setup-go@v5
            - run: go vet ./...
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/setup-go@v5
            - run: go build -o dist/app
            - uses: actions/upload-artifact@v4
              with:
                name: app
                path: dist
        release:
          needs: [lint, build]
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
            - run: gh release create v1 dist/*
    `);
    expect(positions(findings)).toEqual(['11:15 LOW']);
    expect(findings[0]?.description).toContain('feeds a publishing job');
  });

  it('a job feeds the publisher only with an artifact the publisher downloads (by name or pattern)', () => {
    const workflow = (download: string) => yaml`
      on:
        push:
          tags: ['v*']
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/setup-go@v5
            - run: go test ./... > report.txt
            - uses: actions/upload-artifact@v4
              with:
                name: test-reports-\${{ matrix.os }}
                path: report.txt
        release:
          needs: [test]
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
${download}
            - run: gh release create v1 dist/*
    `;
    expect(scanWith(RULE, workflow('              with:\n                name: dist'))).toEqual([]);
    expect(positions(scanWith(RULE, workflow('              with:\n                pattern: test-reports-*')))).toEqual(['8:15 LOW']);
    expect(positions(scanWith(RULE, workflow('              with:\n                path: out')))).toEqual(['8:15 LOW']);
  });

  it('knows when caching is off', () => {
    expect(scanWith(RULE, yaml`
      on:
        push:
          tags: ['v*']
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/setup-go@v3
            - uses: actions/setup-go@v5
              with:
                cache: false
            - uses: astral-sh/setup-uv@v6
              with:
                enable-cache: \${{ !startsWith(github.ref, 'refs/tags/') }}
            - uses: actions/cache@v4
              with:
                lookup-only: true
            - uses: actions/setup-python@v5
            - run: uv publish
    `)).toEqual([]);
  });

  it('reads actions/setup-go\'s version: caching is on by default from v4, off before (a tag, a full version, a SHA with its version comment)', () => {
    const publish = (uses: string) => scanWith(RULE, yaml`
      on:
        push:
          tags: ['v*']
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - uses: ${uses}
            - run: goreleaser release
              env:
                GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}
            - run: gh release upload v1 dist/*
    `);
    // A commit pin with no version comment states no version (this SHA is v3.1.0's): no claim that it caches.
    for (const old of ['actions/setup-go@v3', 'actions/setup-go@v3.1.0', 'actions/setup-go@v2.2.0', 'actions/setup-go@6edd4406fa81c3da01a34fa6f6343087c207a568 # v3.5.0', 'actions/setup-go@84cbf8094393cdc5fe1fe1671ff2647332956b1a']) {
      expect(publish(old), old).toEqual([]);
    }
    // negative: v4 and later (or a SHA of v5) cache by default, and the finding says so.
    for (const cached of ['actions/setup-go@v4', 'actions/setup-go@v5.0.1', 'actions/setup-go@0aaccfd150d50ccaeb58ebd88d36e91967a5f35b # v5.4.0']) {
      const found = publish(cached);
      expect(found.map((f) => f.severity), cached).toEqual(['LOW']);
      expect(found[0]?.description, cached).toContain('caches by default (v4 and later)');
    }
  });

  it('counts image builds that restore BuildKit layers from the Actions cache', () => {
    expect(positions(scanWith(RULE, yaml`
      on:
        push:
          branches: [main]
      jobs:
        image:
          runs-on: ubuntu-latest
          steps:
            - uses: docker/build-push-action@v6
              with:
                push: true
                cache-from: type=gha
    `))).toEqual(['8:15 LOW']);
  });

  it('ignores rehearsals and workflows that publish nothing', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        check:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/setup-node@v4
              with:
                cache: npm
            - run: npm publish --dry-run
    `)).toEqual([]);
  });

  it('is MEDIUM under pull_request_target when the pull request controls the key or the cached files', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        keyed:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/cache@v4
              with:
                path: out
                key: build-\${{ github.head_ref }}
        checked-out:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - uses: actions/setup-node@v4
              with:
                cache: npm
        constant:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/cache@v4
              with:
                path: out
                key: build-\${{ github.sha }}
    `);
    expect(positions(findings)).toEqual(['6:15 MEDIUM', '16:15 MEDIUM']);
    expect(findings[0]?.description).toContain('`github.head_ref`');
    expect(findings[1]?.description).toContain('checked out the pull request');
  });

  it('not for a pull request checked out into a subdirectory that nothing runs, beyond the key\'s reach', () => {
    const job = (key: string, later = '') => yaml`
      on: pull_request_target
      jobs:
        docs:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
                path: pr-docs
                sparse-checkout: docs
            - uses: actions/cache@v4
              with:
                path: ~/.cache/tool
                key: ${key}
            - run: ./build-site.sh
            ${later}
    `;
    // The key hashes the base's own lockfile; the site script reads the pull request's docs as data.
    expect(scanWith(RULE, job("tool-${{ hashFiles('poetry.lock') }}"))).toEqual([]);
    // Negative: a key whose pattern reaches into the subdirectory, or a step that runs code from it.
    expect(scanWith(RULE, job("tool-${{ hashFiles('**/poetry.lock') }}")).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith(RULE, job("tool-${{ hashFiles('pr-docs/poetry.lock') }}")).map((f) => f.severity)).toEqual(['MEDIUM']);
    // (LOW there: the pull request's code already runs in that job, which untrusted-checkout reports.)
    expect(scanWith(RULE, job("tool-${{ hashFiles('poetry.lock') }}", '- run: cd pr-docs && make'))).toHaveLength(1);
  });
});

describe('cache-poisoning: the polarity of a tag switch', () => {
  const release = (input: string, value: string) => yaml`
    on:
      push:
        tags: ['v*']
    jobs:
      build:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/setup-node@v4
            with:
              ${input}: ${value}
          - uses: gradle/actions/setup-gradle@v4
            with:
              cache-disabled: ${value}
          - run: ./gradlew publish
  `;

  it('an opt-in input true only off tags leaves caching off for the release, an opt-out one true only on tags too', () => {
    const findings = scanWith('cache-poisoning', release('cache', "${{ !startsWith(github.ref, 'refs/tags/') && 'npm' || '' }}"));
    // setup-node is off on tags; setup-gradle's `cache-disabled` is false on tags: it caches.
    expect(findings.map((f) => f.line)).toEqual([11]);
  });

  it('reads the opposite polarity as caching on the release', () => {
    const findings = scanWith('cache-poisoning', release('cache', "${{ startsWith(github.ref, 'refs/tags/') }}"));
    // setup-node caches on tags; setup-gradle's `cache-disabled` is true on tags: it does not.
    expect(findings.map((f) => f.line)).toEqual([8]);
  });
});

describe('cache-poisoning: fork code writing the Actions cache', () => {
  it('reports `docker buildx --cache-to type=gha` after a checkout of the pull request under pull_request_target', () => {
    const workflow = (ref: string) => yaml`
      on: pull_request_target
      jobs:
        image:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: ${ref}
            - run: docker buildx build --cache-to type=gha,mode=max --cache-from type=gha .
    `;
    const findings = scanWith('cache-poisoning', workflow('${{ github.event.pull_request.head.sha }}'));
    // The build runs the pull request's Dockerfile in its own container, which gets nothing of the job: the job is
    // not theirs, but the layers it exports to the base branch's cache scope are (MEDIUM: the save itself).
    expect(findings.map((f) => `${f.line} ${f.severity}`)).toEqual(['9 MEDIUM']);
    expect(findings[0]?.description).toContain('docker buildx --cache-to type=gha');
    expect(findings[0]?.description).not.toContain("the job already runs the outsider's code");
    expect(scanWith('cache-poisoning', workflow('main'))).toEqual([]);
  });
  describe('caches restored in privileged workflow_run jobs', () => {
    const ci = (on: string) => ({ path: '.github/workflows/ci.yml', text: yaml`
      name: CI
      on: ${on}
      jobs:
        test: { runs-on: ubuntu-latest, steps: [{ run: make test }] }
    ` });
    const followUp = (secretStep: string) => ({ path: '.github/workflows/report.yml', text: yaml`
      on:
        workflow_run:
          workflows: [CI]
          types: [completed]
      jobs:
        report:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/setup-node@v4
              with:
                cache: npm
            - run: npm install
            - ${secretStep}
    ` });
    const secretStep = 'run: npm run report\n              env:\n                TOKEN: ${{ secrets.REPORT_TOKEN }}';

    const writer = { path: '.github/workflows/pr.yml', text: yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm ci
    ` };

    it('reports a workflow_run job that follows pull request runs, restores a cache an outsider writes and then uses a stored secret, HIGH', () => {
      // Anyone starts the writer, what they plant runs in the follower's job, which holds a stored secret, and no
      // approval stands in the way: the release ladder's HIGH.
      const findings = scanWith(RULE, [ci('pull_request'), followUp(secretStep), writer]);
      expect(positions(findings)).toEqual(['10:15 HIGH']);
      expect(findings[0]?.description).toContain('`secrets.REPORT_TOKEN`');
      expect(findings[0]?.description).toContain('workflow_run');
      expect(findings[0]?.description).toContain('`.github/workflows/pr.yml` (job `test`) checks out pull request code');
    });

    it("is one level lower, MEDIUM, when npm's cache is read back only by `npm ci`, which checks each archive against the lockfile; HIGH with a bare `npm install`", () => {
      const checked = followUp(secretStep);
      checked.text = checked.text.replace('- run: npm install', '- run: npm ci');
      const findings = scanWith(RULE, [ci('pull_request'), checked, writer]);
      expect(positions(findings)).toEqual(['10:15 MEDIUM']);
      expect(findings[0]?.description).toContain("(one level lower: `npm ci` (step 3 of job `report`) installs every package archive by the lockfile's integrity hash");
      expect(positions(scanWith(RULE, [ci('pull_request'), followUp(secretStep), writer]))).toEqual(['10:15 HIGH']);
    });

    it("is LOW when the workflow_run job already checks out and runs the pull request's head", () => {
      const theirs = followUp(secretStep);
      theirs.text = theirs.text.replace('- uses: actions/checkout@v3', '- uses: actions/checkout@v3\n        with:\n          ref: ${{ github.event.workflow_run.head_sha }}');
      const findings = scanWith(RULE, [ci('pull_request'), theirs, writer]);
      expect(positions(findings)).toEqual(['12:15 LOW']);
      expect(findings[0]?.description).toContain("the job already runs the outsider's code");
    });

    it('stays silent when nothing of an outsider writes the default branch scope', () => {
      expect(scanWith(RULE, [ci('pull_request'), followUp(secretStep)])).toEqual([]);
    });

    it('reports it when the followed workflow runs only on push: a fork\'s pull request can add a workflow of that name', () => {
      expect(scanWith(RULE, [ci('push'), followUp(secretStep), writer]).map((f) => f.severity)).toEqual(scanWith(RULE, [ci('pull_request'), followUp(secretStep), writer]).map((f) => f.severity));
      expect(scanWith(RULE, [ci('push'), followUp(secretStep), writer])).toHaveLength(1);
    });

    it('stays silent when the job uses no stored secret (the run token is not one)', () => {
      expect(scanWith(RULE, [ci('pull_request'), followUp('run: gh pr comment 1 --body ok\n              env:\n                GH_TOKEN: ${{ secrets.GITHUB_TOKEN }}'), writer])).toEqual([]);
      expect(scanWith(RULE, [ci('pull_request'), followUp('run: echo done'), writer])).toEqual([]);
    });

    it('stays silent when the only secret the job uses names an account (a user name opens nothing on its own)', () => {
      const user = 'run: echo "$USER_NAME"\n              env:\n                USER_NAME: ${{ secrets.DOCKERHUB_USERNAME }}';
      expect(scanWith(RULE, [ci('pull_request'), followUp(user), writer])).toEqual([]);
      const both = `${user}\n                PASSWORD: \${{ secrets.DOCKERHUB_TOKEN }}`;
      expect(scanWith(RULE, [ci('pull_request'), followUp(both), writer])[0]?.description).toContain('`secrets.DOCKERHUB_TOKEN`');
    });
  });
  describe('setup-uv enable-cache defaults by major version', () => {
    const release = (on: string, uses: string, withBlock = '') => yaml`
      on: ${on}
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - uses: ${uses}${withBlock}
            - run: uv build && uv publish
    `;

    it('reports v5 and later without enable-cache (the default auto caches on GitHub-hosted runners)', () => {
      expect(positions(scanWith(RULE, release('release', 'astral-sh/setup-uv@v6')))).toEqual(['6:15 LOW']);
      expect(scanWith(RULE, release('release', 'astral-sh/setup-uv@v6'))[0]?.description).toContain('caches by default');
    });

    it('stays silent for v4 and earlier without enable-cache (the default was false)', () => {
      expect(scanWith(RULE, release('release', 'astral-sh/setup-uv@v4'))).toEqual([]);
    });

    it('stays silent for v10 and later on release, workflow_run and pull_request_target runs, where auto is off', () => {
      expect(scanWith(RULE, release('release', 'astral-sh/setup-uv@v10'))).toEqual([]);
      expect(scanWith(RULE, release('release', 'astral-sh/setup-uv@v10', '\n              with:\n                enable-cache: auto'))).toEqual([]);
    });

    it('stays silent for v10 and later on tag pushes only (auto is off there too)', () => {
      expect(scanWith(RULE, release('{ push: { tags: ["v*"] }, release: {} }', 'astral-sh/setup-uv@v10'))).toEqual([]);
      expect(scanWith(RULE, release('{ push: { tags: ["v*"] } }', 'astral-sh/setup-uv@v10'))).toEqual([]);
      // v9 caches on tag pushes.
      expect(positions(scanWith(RULE, release('{ push: { tags: ["v*"] } }', 'astral-sh/setup-uv@v9')))).toEqual(['6:15 LOW']);
    });

    it('stays silent on a self-hosted runner without enable-cache (auto caches only on GitHub-hosted runners)', () => {
      const selfHostedRelease = (uses: string, withBlock = '') => release('release', uses, withBlock).replace('runs-on: ubuntu-latest', 'runs-on: [self-hosted, linux]');
      expect(scanWith(RULE, selfHostedRelease('astral-sh/setup-uv@v6'))).toEqual([]);
      expect(scanWith(RULE, selfHostedRelease('astral-sh/setup-uv@v6', '\n              with:\n                enable-cache: auto'))).toEqual([]);
      expect(positions(scanWith(RULE, selfHostedRelease('astral-sh/setup-uv@v6', '\n              with:\n                enable-cache: true')))).toEqual(['6:15 LOW']);
    });

    it('still reports v10 when the workflow also runs on branch pushes, or when enable-cache is true', () => {
      expect(positions(scanWith(RULE, release('{ push: { branches: [main], tags: ["v*"] }, release: {} }', 'astral-sh/setup-uv@v10')))).toEqual(['6:15 LOW']);
      expect(positions(scanWith(RULE, release('release', 'astral-sh/setup-uv@v10', '\n              with:\n                enable-cache: true')))).toEqual(['6:15 LOW']);
      expect(positions(scanWith(RULE, release('release', 'astral-sh/setup-uv@v4', '\n              with:\n                enable-cache: true')))).toEqual(['6:15 LOW']);
    });

    it('stays silent when the release restores nothing (restore-cache: false, or the cache disabled)', () => {
      const inputs = (lines: string) => `\n              with:\n${lines.split('\n').map((l) => `                ${l}`).join('\n')}`;
      expect(scanWith(RULE, release('release', 'astral-sh/setup-uv@v6', inputs('enable-cache: true\nrestore-cache: false')))).toEqual([]);
      expect(scanWith(RULE, release('release', 'astral-sh/setup-uv@v6', inputs('enable-cache: false\nrestore-cache: true')))).toEqual([]);
      // Restoring without saving still reads what others saved: reported.
      expect(positions(scanWith(RULE, release('release', 'astral-sh/setup-uv@v6', inputs('enable-cache: true\nsave-cache: false'))))).toEqual(['6:15 LOW']);
    });

    it('under pull_request_target, reports the save of a checked-out pull request, not a restore-only step', () => {
      const target = (inputs: string) => yaml`
        on: pull_request_target
        jobs:
          test:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:
                  ref: \${{ github.event.pull_request.head.sha }}
              - uses: astral-sh/setup-uv@v6
                with:
                  enable-cache: true
                  ${inputs}
              - run: uv run pytest
      `;
      const saveOnly = scanWith(RULE, target('restore-cache: false'));
      // `uv run pytest` runs the checkout in the same job: LOW, the checkout is the way in.
      expect(positions(saveOnly)).toEqual(['9:15 LOW']);
      expect(saveOnly[0]?.description).toContain('saves only');
      expect(scanWith(RULE, target('save-cache: false'))).toEqual([]);
    });
  });

  it('under pull_request_target, a restore-only action saves nothing (actions/cache/restore, setup-gradle cache-read-only)', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - uses: actions/cache/restore@v4
              with:
                path: out
                key: build-\${{ github.sha }}
            - uses: gradle/actions/setup-gradle@v4
              with:
                cache-read-only: true
            - uses: gradle/actions/setup-gradle@v4
            - run: ./gradlew test
    `);
    // The one that saves is LOW: `./gradlew test` runs the pull request's code in the same job already.
    expect(positions(findings)).toEqual(['16:15 LOW']);
  });

  it("is LOW when the job already runs the pull request's code with the same token and secrets, MEDIUM when it runs nothing of theirs", () => {
    const workflow = (after: string) => yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - uses: actions/setup-node@v4
              with:
                cache: npm
${after}
    `;
    const runs = scanWith(RULE, workflow('            - run: npm ci && npm test\n              env:\n                KEY: ${{ secrets.KEY }}'));
    expect(positions(runs)).toEqual(['9:15 LOW']);
    expect(runs[0]?.description).toContain("the job already runs the outsider's code, step 3 of job `test` (line 12) runs `npm ci`");
    expect(runs[0]?.description).toContain('untrusted-checkout reports');
    // Nothing of theirs runs: the lockfile only picks the key and what is cached (MEDIUM, as before).
    const data = scanWith(RULE, workflow('            - run: git diff --stat HEAD~1'));
    expect(positions(data)).toEqual(['9:15 MEDIUM']);
    expect(data[0]?.description).not.toContain('already runs');
  });

  it("names only a checkout whose code runs: the pull request's artifacts the job runs are not the checkout whose fix is the fix", () => {
    const workflow = (between: string) => yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
                persist-credentials: false
            - uses: actions/setup-node@v4
              with:
                cache: npm
            - run: ${between}
            - uses: dawidd6/action-download-artifact@v6
              with:
                workflow: build.yml
                pr: \${{ github.event.pull_request.number }}
                allow_forks: true
            - run: bash ./run.sh
    `;
    // `npm ci` runs the checkout: LOW, naming it.
    const checkout = scanWith(RULE, workflow('npm ci'));
    expect(positions(checkout)).toEqual(['10:15 LOW']);
    expect(checkout[0]?.description).toContain("the job already runs the outsider's code, step 3 of job `test` (line 13) runs `npm ci`");
    // Only the artifacts downloaded over it run (artifact-poisoning's finding): the checkout is not the way in, MEDIUM.
    const artifacts = scanWith(RULE, workflow('git diff --stat HEAD~1'));
    expect(positions(artifacts)).toEqual(['10:15 MEDIUM']);
    expect(artifacts[0]?.description).not.toContain('already runs');
  });
});

describe(`${RULE}: who writes the cache a release restores`, () => {
  const release = { path: '.github/workflows/release.yml', text: yaml`
    on:
      push:
        tags: ['v*']
    jobs:
      publish:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - uses: actions/setup-node@v4
            with:
              cache: npm
          - run: npm install && npm publish
  ` };
  const other = (text: string) => ({ path: '.github/workflows/other.yml', text });
  const prTarget = (condition = '') => other(yaml`
    on: pull_request_target
    jobs:
      test:
        runs-on: ubuntu-latest${condition}
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.sha }}
          - run: npm ci && npm test
  `);
  const injection = (on: string) => other(yaml`
    on: ${on}
    jobs:
      triage:
        runs-on: ubuntu-latest
        steps:
          - run: echo "\${{ github.event.pull_request.title }}\${{ github.event.issue.title }}"
  `);
  const all = (files: { path: string; text: string }[]) => scanRepository(files, {});

  it('is HIGH, naming the workflow, when an outsider runs code in the default branch scope', () => {
    const [finding] = scanWith(RULE, [release, prTarget()]);
    expect(finding?.severity).toBe('HIGH');
    expect(finding?.description).toContain('`.github/workflows/other.yml` (job `test`) checks out pull request code under `pull_request_target`');
    const [injected] = scanWith(RULE, [release, injection('issues')]);
    expect(injected?.severity).toBe('HIGH');
    expect(injected?.description).toContain('(script-injection)');
  });

  it("counts outsider text written to $GITHUB_ENV as a writer only when a later step runs with it", () => {
    const envWrite = (after: string) => other(yaml`
      on: issues
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - run: echo "TITLE=$TITLE" >> "$GITHUB_ENV"
              env:
                TITLE: \${{ github.event.issue.title }}
            ${after}
    `);
    const [read] = scanWith(RULE, [release, envWrite('- run: make triage')]);
    expect(read?.severity).toBe('HIGH');
    expect(read?.description).toContain('(github-env-injection)');
    // The job's last step: the variables it defines reach no step, so no code of the outsider's runs there.
    expect(scanWith(RULE, [release, envWrite('')]).map((f) => f.description).join()).not.toContain('github-env-injection');
  });

  it('finds the writer with the shared injection analyses, whichever rules are enabled', () => {
    const files = [release, injection('issues')];
    const onlyThis = scanWith(RULE, files);
    const everything = all(files).records.map((r) => r.finding);
    // The issue's title is the outsider's (HIGH); the pull request's is empty on `issues` (LOW hygiene).
    const entries = everything.filter((f) => f.rule_id === 'script-injection').map((f) => f.severity);
    expect(entries).toEqual(['LOW', 'HIGH']);
    // Same finding with script-injection disabled (scanWith enables this rule alone) and with every rule on.
    expect(everything.filter((f) => f.rule_id === RULE)).toEqual(onlyThis);
    expect(onlyThis[0]?.severity).toBe('HIGH');
    // The attack path needs the entry finding: with script-injection disabled it is not built.
    const disabled = scanRepository(files, { isEnabled: (id) => id !== 'script-injection' });
    expect(disabled.records.some((r) => r.finding.rule_id === RULE && r.finding.severity === 'HIGH')).toBe(true);
    const paths = (records: typeof disabled.records) => findCombinations(records, () => true).map((c) => c.id);
    expect(paths(disabled.records)).not.toContain('cache-poisoning-release');
    expect(paths(all(files).records)).toContain('cache-poisoning-release');
  });

  /** A member's comment command that builds the pull request's head in the default branch's scope. */
  const approved = other(yaml`
    on: issue_comment
    jobs:
      test:
        if: github.event.issue.pull_request && github.event.comment.author_association == 'MEMBER'
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with:
              ref: refs/pull/\${{ github.event.issue.number }}/head
          - run: npm ci && npm test
  `);

  it('is MEDIUM when the outsider writer runs only after a maintainer\'s approval, and says why it still counts', () => {
    const [finding] = scanWith(RULE, [release, approved]);
    // Like the approval-gated checkout itself (untrusted-checkout MEDIUM): it takes a maintainer's act.
    expect(finding?.severity).toBe('MEDIUM');
    // Who starts it (a maintainer's command), whose code runs (the pull request's), what the release holds.
    expect(finding?.description).toContain("once a maintainer's comment command starts it (`github.event.issue.pull_request && github.event.comment.author_association == 'MEMBER'`), resolving the pull request's code when the job runs (commits pushed after the command)");
    expect(finding?.description).toContain("what runs there is the pull request's code, so an outsider can write those entries by pushing after a maintainer's command, and the release ships what they planted, with what job `publish` holds (");
    expect(finding?.description).toContain("a publish (npm publish)) (MEDIUM: not without a maintainer's command).");
    const files = [release, approved];
    expect(findCombinations(all(files).records, () => true).map((c) => c.id)).not.toContain('cache-poisoning-release');
    // Without the approval the message names no approval, and an ungated writer elsewhere keeps it HIGH.
    const [open] = scanWith(RULE, [release, prTarget()]);
    expect(open?.severity).toBe('HIGH');
    expect(open?.description).not.toContain('once a maintainer');
    const [both] = scanWith(RULE, [release, approved, { ...prTarget(), path: '.github/workflows/pr.yml' }]);
    expect(both?.severity).toBe('HIGH');
    expect(both?.description).not.toContain('once a maintainer');
  });

  it("says the text is read when the job runs, not that code is pushed, when the approved writer runs the outsider's text", () => {
    const command = other(yaml`
      on: issue_comment
      jobs:
        bench:
          if: github.event.issue.pull_request && github.event.comment.author_association == 'MEMBER'
          runs-on: ubuntu-latest
          steps:
            - id: pr
              env:
                GH_TOKEN: \${{ github.token }}
              run: echo "ref=$(gh api repos/$GITHUB_REPOSITORY/pulls/\${{ github.event.issue.number }} --jq .head.ref)" >> "$GITHUB_OUTPUT"
            - run: echo "benchmarking \${{ steps.pr.outputs.ref }}"
    `);
    const [finding] = scanWith(RULE, [release, command]);
    expect(finding?.severity).toBe('MEDIUM');
    expect(finding?.description).toContain("reading the outsider's text when the job runs (a pull request's title, body or branch name can change after the command)");
    expect(finding?.description).toContain("an outsider can write those entries by changing that text after a maintainer's command");
    expect(finding?.description).not.toContain('commits pushed after');
  });

  describe('a maintainer\'s command that runs the pull request\'s build in the default branch\'s scope', () => {
    const dispatched = (ref: string) => other(yaml`
      on:
        repository_dispatch:
          types: [test-command]
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: ${ref}
            - uses: actions/cache@v4
              with:
                path: ~/.npm
                key: npm-\${{ hashFiles('package-lock.json') }}
            - run: npm ci && npm test
    `);
    const dispatcher = (permission: string) => ({ path: '.github/workflows/commands.yml', text: yaml`
      on:
        issue_comment:
          types: [created]
      jobs:
        dispatch:
          runs-on: ubuntu-latest
          steps:
            - uses: peter-evans/slash-command-dispatch@v4
              with:
                token: \${{ secrets.BOT_TOKEN }}
                commands: test
                permission: ${permission}
    ` });
    const merge = 'refs/pull/${{ github.event.client_payload.pull_request.number }}/merge';

    it('positive: a repository_dispatch sent for a maintainer\'s `/test` command, checking out the pull request, is MEDIUM, saying who starts it and whose code runs', () => {
      for (const files of [[release, dispatched(merge), dispatcher('write')], [release, dispatched(merge)]]) {
        const [finding] = scanWith(RULE, files);
        expect(finding?.severity).toBe('MEDIUM');
        expect(finding?.description).toContain("checks out pull request code under `repository_dispatch`");
        expect(finding?.description).toContain("once a maintainer's command starts it (the workflow runs only on `repository_dispatch`, sent by ");
        expect(finding?.description).toContain("what runs there is the pull request's code, so an outsider can write those entries by pushing after a maintainer's command, and the release ships what they planted");
      }
      expect(scanWith(RULE, [release, dispatched(merge), dispatcher('write')])[0]?.description).toContain('only for users with `write` permission');
      // A permission check in a job the build needs gates it the same way.
      const checked = other(yaml`
        on:
          issue_comment:
            types: [created]
        jobs:
          check:
            if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/test')
            runs-on: ubuntu-latest
            outputs:
              allowed: \${{ steps.perm.outputs.result }}
            steps:
              - id: perm
                uses: actions/github-script@v7
                with:
                  result-encoding: string
                  script: |
                    const { data } = await github.rest.repos.getCollaboratorPermissionLevel({ owner: context.repo.owner, repo: context.repo.repo, username: context.actor });
                    return ['admin', 'write'].includes(data.permission) ? 'true' : 'false';
          test:
            needs: check
            if: needs.check.outputs.allowed == 'true'
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:
                  ref: refs/pull/\${{ github.event.issue.number }}/head
              - uses: actions/setup-node@v4
                with:
                  cache: npm
              - run: npm ci && npm test
      `);
      const [viaCheck] = scanWith(RULE, [release, checked]);
      expect(viaCheck?.severity).toBe('MEDIUM');
      expect(viaCheck?.description).toContain("once a maintainer's comment command starts it");
    });

    it('negative: a command anyone can run stays HIGH; the approved commit pinned, or no pull request checked out, stays LOW', () => {
      const [open] = scanWith(RULE, [release, dispatched(merge), dispatcher('none')]);
      expect(open?.severity).toBe('HIGH');
      expect(open?.description).not.toContain("a maintainer's command");
      expect(scanWith(RULE, [release, dispatched('${{ github.event.client_payload.pull_request.head.sha }}'), dispatcher('write')]).map((f) => f.severity)).toEqual(['LOW']);
      expect(scanWith(RULE, [release, dispatched('main'), dispatcher('write')]).map((f) => f.severity)).toEqual(['LOW']);
    });

    it('an environment whose reviewers could not be checked is no maintainer\'s act: the message says it may stop nobody', () => {
      const gated = other(yaml`
        on: pull_request_target
        jobs:
          test:
            environment: external
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:
                  ref: \${{ github.event.pull_request.head.sha }}
              - run: npm ci && npm test
      `);
      const [finding] = scanWith(RULE, [release, gated]);
      expect(finding?.severity).toBe('MEDIUM');
      expect(finding?.description).toContain("so an outsider can write those entries unless that environment's reviewers stop the run");
      expect(finding?.description).not.toContain("maintainer's");
    });

    it('a label on pull_request_target is an approval, not a command', () => {
      const labelled = other(yaml`
        on:
          pull_request_target:
            types: [labeled]
        jobs:
          test:
            if: contains(github.event.pull_request.labels.*.name, 'safe to test')
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:
                  ref: \${{ github.event.pull_request.head.ref }}
                  repository: \${{ github.event.pull_request.head.repo.full_name }}
              - run: npm ci && npm test
      `);
      const [finding] = scanWith(RULE, [release, labelled]);
      expect(finding?.severity).toBe('MEDIUM');
      expect(finding?.description).toContain("by pushing after a maintainer's approval");
      expect(finding?.description).not.toContain("maintainer's command");
    });
  });

  describe('pull request code in the default branch\'s scope that only a collaborator\'s act starts (LOW, named)', () => {
    // A slash command of someone the condition names checks out the pull request's head and builds it with a
    // caching setup action: pull request code runs in the default branch's scope, but only after that comment.
    const slashCommand = (check: string) => ({ path: '.github/workflows/scdiff.yml', text: yaml`
      on:
        issue_comment:
          types: [created]
      permissions: read-all
      jobs:
        golden-test:
          if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/scdiff') && ${check}
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/setup-node@v4
              with:
                cache: npm
            - name: checkout PR
              run: gh pr checkout "$PR"
              env:
                PR: \${{ github.event.issue.number }}
                GH_TOKEN: \${{ github.token }}
            - run: npm ci && npm run scdiff
    ` });
    const approvedCommit = other(yaml`
      on:
        pull_request_target:
          types: [labeled]
      jobs:
        test:
          if: contains(github.event.pull_request.labels.*.name, 'safe to test')
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: npm ci && npm test
    `);

    it('positive: names the job, its gate and the cache it saves instead of saying no workflow runs pull request code there', () => {
      const [finding] = scanWith(RULE, [release, slashCommand("contains(fromJSON('[\"alice\",\"bob\"]'), github.actor)")]);
      expect(finding?.severity).toBe('LOW');
      expect(finding?.description).not.toContain("No workflow of the repository runs an outsider's code");
      expect(finding?.description).toContain('`.github/workflows/scdiff.yml` (job `golden-test`) checks out pull request code under `issue_comment` and step 4 of job `golden-test` runs `npm ci` from it, in the default branch\'s cache scope, but only after a comment by someone its condition trusts (');
      expect(finding?.description).toContain("resolving the pull request's code when the job runs (commits pushed after the comment run too), and step 2 of job `golden-test` there saves the cache this restore reads (actions/setup-node with `cache: npm`)");
      expect(finding?.description).toContain("so writing those entries takes a trusted collaborator's comment on the outsider's pull request, a collaborator's merged code, or a compromised dependency or action of a default-branch run (LOW: nobody outside the repository starts such a run by themselves;");
      // A maintainer's approval of the very commit that runs (a label, the event's head SHA) is named the same way.
      const [approved] = scanWith(RULE, [release, approvedCommit]);
      expect(approved?.severity).toBe('LOW');
      expect(approved?.description).toContain("`.github/workflows/other.yml` (job `test`) checks out pull request code under `pull_request_target` and step 2 of job `test` runs `npm ci` from it, in the default branch's cache scope, but only after a maintainer's approval (`contains(github.event.pull_request.labels.*.name, 'safe to test')`), and it checks out the commit the event names (`github.event.pull_request.head.sha`), the one approved");
      expect(approved?.description).toContain("takes a maintainer's approval of the outsider's commit");
      // Neither is a writer an outsider uses: no attack path, no writer facts.
      const record = all([release, approvedCommit]).records.find((r) => r.finding.rule_id === RULE);
      expect(record).toBeDefined();
      expect((record?.facts ?? []).some((f) => f.startsWith('writer:'))).toBe(false);
    });

    it("a cache the approved commit's files save (the event's head SHA) is held back too; a branch resolved at run time is not", () => {
      const saving = (ref: string) => other(yaml`
        on:
          pull_request_target:
            types: [labeled]
        jobs:
          test:
            if: github.event.label.name == 'safe to test'
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:
                  ref: \${{ ${ref} }}
                  repository: \${{ github.event.pull_request.head.repo.full_name }}
              - uses: actions/setup-node@v4
                with:
                  cache: npm
              - run: npm ci && npm test
      `);
      const restore = (findings: { description: string; severity: string }[]) => findings.find((f) => f.description.includes('restores a cache'));
      const approved = restore(scanWith(RULE, [release, saving('github.event.pull_request.head.sha')]));
      expect(approved?.severity).toBe('LOW');
      expect(approved?.description).toContain("and it checks out the commit the event names (`github.event.pull_request.head.sha`), the one approved");
      const moving = restore(scanWith(RULE, [release, saving('github.event.pull_request.head.ref')]));
      expect(moving?.severity).toBe('MEDIUM');
      expect(moving?.description).toContain('commits pushed after the approval');
    });

    it('negative: with no job running pull request code in that scope, the text still says none does', () => {
      const none = "No workflow of the repository runs an outsider's code or text in the default branch's cache scope";
      expect(scanWith(RULE, [release])[0]?.description).toContain(none);
      // Pull request code a fork's `pull_request` run builds with the same cache: that run writes only its pull
      // request's own scope (its merge ref), which no release reads.
      const forkRun = other(yaml`
        on: pull_request
        jobs:
          test:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
              - uses: actions/setup-node@v4
                with:
                  cache: npm
              - run: npm ci && npm test
      `);
      const [finding] = scanWith(RULE, [release, forkRun]);
      expect(finding?.severity).toBe('LOW');
      expect(finding?.description).toContain(none);
      // An ungated writer elsewhere still makes it HIGH, naming that one.
      const [open] = scanWith(RULE, [release, slashCommand("contains(fromJSON('[\"alice\"]'), github.actor)"), { ...prTarget(), path: '.github/workflows/pr.yml' }]);
      expect(open?.severity).toBe('HIGH');
      expect(open?.description).toContain('`.github/workflows/pr.yml` (job `test`)');
    });
  });

  it('is LOW, saying who writes the cache, when no outsider runs code there', () => {
    const [alone] = scanWith(RULE, [release]);
    expect(alone?.severity).toBe('LOW');
    expect(alone?.description).toContain("a collaborator's merged code, or a compromised dependency or action");
    // A fork's `pull_request` run writes only the pull request's own cache scope, which no release reads.
    expect(scanWith(RULE, [release, injection('pull_request')]).map((f) => f.severity)).toEqual(['LOW']);
    // Only trusted authors reach the checkout.
    expect(scanWith(RULE, [release, prTarget('\n        if: github.event.pull_request.head.repo.full_name == github.repository')]).map((f) => f.severity)).toEqual(['LOW']);
    // A checkout nothing runs writes nothing (no code of theirs runs in the job).
    const idle = other(yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: echo done
    `);
    expect(scanWith(RULE, [release, idle]).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('forms the cache-poisoning-release path only when the release finding is HIGH', () => {
    const paths = (files: { path: string; text: string }[]) => findCombinations(all(files).records, () => true).map((c) => c.id);
    expect(paths([release, prTarget()])).toContain('cache-poisoning-release');
    expect(paths([release, injection('pull_request')])).not.toContain('cache-poisoning-release');
    // The pull_request_target job's own cache save (MEDIUM) is an entry of its own, not a release.
    const saves = other(yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - uses: actions/setup-node@v4
              with:
                cache: npm
            - run: npm ci
    `);
    expect(paths([saves])).not.toContain('cache-poisoning-release');
  });

  describe("npm's own cache, read back only by `npm ci` (package archives checked against the lockfile's hashes)", () => {
    /** The release, restoring with `cache` (a step's lines under `- uses:`), then running `script`. */
    const npmRelease = (cache: string, script: string) => ({ path: '.github/workflows/release.yml', text: yaml`
      on:
        push:
          tags: ['v*']
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: ${cache}
            - run: ${script}
    ` });
    const setupNode = (manager: string) => `actions/setup-node@v4\n              with:\n                cache: ${manager}`;
    const actionsCache = (path: string) => `actions/cache@v4\n              with:\n                path: ${path}\n                key: npm-\${{ hashFiles('package-lock.json') }}`;
    const paths = (files: { path: string; text: string }[]) => findCombinations(all(files).records, () => true).map((c) => c.id);

    it('positive: an outsider writer makes it MEDIUM, not HIGH, saying what npm checks and what it does not; no attack path', () => {
      for (const cache of [setupNode('npm'), actionsCache('~/.npm')]) {
        const files = [npmRelease(cache, 'npm ci && npm publish'), prTarget()];
        const [finding] = scanWith(RULE, files);
        expect(finding?.severity).toBe('MEDIUM');
        expect(finding?.description).toContain("(MEDIUM: `npm ci` (step 3 of job `publish`) installs every package archive by the lockfile's integrity hash, and npm refuses one whose bytes do not match");
        expect(finding?.description).toContain('prebuilt binaries that some packages\' install scripts keep there, packages npx installed');
        expect(paths(files)).not.toContain('cache-poisoning-release');
      }
    });

    it('positive: behind a maintainer\'s approval it is LOW, saying both', () => {
      const [finding] = scanWith(RULE, [npmRelease(setupNode('npm'), 'npm ci && npm publish'), approved]);
      expect(finding?.severity).toBe('LOW');
      expect(finding?.description).toContain("(LOW: not without a maintainer's command, and `npm ci` (step 3 of job `publish`) installs every package archive");
    });

    it('negative: npx, npm exec or a bare npm install after the restore, or another cache beside npm\'s, keeps it HIGH', () => {
      for (const script of ['npm ci && npx semantic-release-helper && npm publish', 'npm ci && npm exec -- tool && npm publish', 'npm install && npm publish', 'npm install -g tool && npm ci && npm publish', 'npm publish']) {
        expect(scanWith(RULE, [npmRelease(setupNode('npm'), script), prTarget()])[0]?.severity, script).toBe('HIGH');
      }
      for (const cache of [setupNode('yarn'), setupNode('pnpm'), actionsCache('|\n                  ~/.npm\n                  node_modules'), actionsCache('node_modules')]) {
        expect(scanWith(RULE, [npmRelease(cache, 'npm ci && npm publish'), prTarget()])[0]?.severity, cache).toBe('HIGH');
      }
      expect(paths([npmRelease(setupNode('npm'), 'npm install && npm publish'), prTarget()])).toContain('cache-poisoning-release');
    });
  });

  describe('a cache keyed by the run\'s own id', () => {
    const keyed = (inputs: string) => ({ path: '.github/workflows/release.yml', text: yaml`
      on:
        push:
          tags: ['v*']
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/cache@v4
              with:
                path: dist
${inputs.split('\n').map((l) => `                ${l}`).join('\n')}
            - run: npm ci && npm publish
    ` });

    it('negative: a key and every restore key carrying github.run_id restore no other run\'s entry, so nothing is reported', () => {
      expect(scanWith(RULE, [keyed('key: build-${{ github.run_id }}'), prTarget()])).toEqual([]);
      expect(scanWith(RULE, [keyed('key: build-${{ github.run_id }}-${{ github.run_attempt }}\nrestore-keys: |\n  build-${{ github.run_id }}-'), prTarget()])).toEqual([]);
      expect(scanWith(RULE, [keyed('key: ${{ runner.os }}-${{ github.run_id }}')])).toEqual([]);
    });

    it('positive: a restore key without the run id matches other runs\' entries, and a run number is predictable', () => {
      // `build-` is a prefix of every run's key: the newest entry any run saved under it is restored.
      const prefix = scanWith(RULE, [keyed('key: build-${{ github.run_id }}\nrestore-keys: |\n  build-${{ github.run_id }}\n  build-'), prTarget()]);
      expect(positions(prefix)).toEqual(['9:15 HIGH']);
      // The next run number is the last one plus one: code holding the cache token can save under it beforehand.
      expect(positions(scanWith(RULE, [keyed('key: build-${{ github.run_number }}-${{ github.run_attempt }}'), prTarget()]))).toEqual(['9:15 HIGH']);
      // An expression that can fall back to something else is not the run id.
      expect(positions(scanWith(RULE, [keyed("key: build-${{ inputs.key || github.run_id }}"), prTarget()]))).toEqual(['9:15 HIGH']);
    });

    it('positive: an outsider\'s job in the same workflow run can save under the run id', () => {
      const same = yaml`
        on:
          pull_request_target:
        jobs:
          test:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:
                  ref: \${{ github.event.pull_request.head.sha }}
              - run: npm ci && npm test
          publish:
            needs: test
            runs-on: ubuntu-latest
            steps:
              - uses: actions/cache@v4
                with:
                  path: dist
                  key: build-\${{ github.run_id }}
              - run: npm publish
      `;
      expect(positions(scanWith(RULE, same))).toEqual(['15:15 HIGH']);
    });
  });

  describe('a writer that saves the restored cache itself, or writes the entry by hand', () => {
    // The pull request's code runs under `pull_request_target`, and the job caches with `with` (or not at all).
    const writer = (path: string, cache: string) => ({ path, text: yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - uses: ${cache}
            - run: npm ci && npm test
    ` });
    const npm = 'actions/setup-node@v4\n              with:\n                cache: npm';
    const pip = 'actions/setup-python@v5\n              with:\n                cache: pip';
    const combination = (files: { path: string; text: string }[]) => findCombinations(all(files).records, () => true).find((c) => c.id === 'cache-poisoning-release');
    const ofRelease = (files: { path: string; text: string }[]) => scanWith(RULE, files).filter((f) => f.file === '.github/workflows/release.yml');
    const releaseRecord = (files: { path: string; text: string }[]) => all(files).records.find((r) => r.finding.rule_id === RULE && r.finding.file === '.github/workflows/release.yml');

    it('positive: a job that saves the same setup-node npm cache is named as writing the entry itself, with the plain path texts', () => {
      const files = [release, writer('.github/workflows/other.yml', npm)];
      const [finding] = ofRelease(files);
      expect(finding?.severity).toBe('HIGH');
      expect(finding?.description).toContain('(untrusted-checkout), and step 2 of job `test` there saves the cache this restore reads (actions/setup-node with `cache: npm`) (and 1 more), so anyone with a GitHub account can write them');
      expect(finding?.description).not.toContain('saves no cache');
      expect(releaseRecord(files)?.facts).not.toContain('cache:by-hand');
      const path = combination(files);
      expect(path?.severity).toBe('HIGH');
      expect(path?.impact).toBe("Code an outsider gets to run writes a poisoned entry to the repository's Actions cache, which the release workflow restores and ships inside your published artifacts.");
      expect(path?.break_chain).not.toContain('by hand');
    });

    it('negative: a job that caches something else (setup-python pip), or nothing, writes the entry by hand: the texts say so and when the release takes it', () => {
      for (const files of [[release, writer('.github/workflows/other.yml', pip)], [release, prTarget()]]) {
        const [finding] = ofRelease(files);
        // The chain stays: code in the base branch's scope can write any key through the runner's cache token.
        expect(finding?.severity).toBe('HIGH');
        expect(finding?.description).toContain("(untrusted-checkout); job `test` saves no cache this restore reads, but code running there can save an entry under any key through the runner's cache token, which the release takes only while its own key has no entry yet (a new lockfile or cache key), or once the legitimate entry is evicted");
        expect(releaseRecord(files)?.facts).toContain('cache:by-hand');
        const path = combination(files);
        expect(path?.severity).toBe('HIGH');
        expect(path?.impact).toContain('in a job that saves no cache the release restores, writes a poisoned entry under the release\'s cache key by hand through the runner\'s cache token');
        expect(path?.impact).toContain('the first time that key has no entry (after a lockfile or cache key change) or once the legitimate entry is evicted');
        expect(path?.break_chain).toContain('taking caching out of that job does not break the chain: code running there writes the entry by hand');
      }
    });

    it('positive: of two writers the path names the one that saves the cache, though the other comes first', () => {
      // other.yml runs the pull request's code and caches nothing; z.yml runs an issue title as code and saves the npm cache.
      const natural = { path: '.github/workflows/z.yml', text: yaml`
        on: issues
        jobs:
          triage:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/setup-node@v4
                with:
                  cache: npm
              - run: echo "\${{ github.event.issue.title }}"
      ` };
      const files = [release, prTarget(), natural];
      const [finding] = ofRelease(files);
      expect(finding?.description).toContain('and `.github/workflows/z.yml` (job `triage`) expands outsider-controlled text into a script (script-injection) under `issues`, and step 1 of job `triage` there saves the cache this restore reads');
      expect(releaseRecord(files)?.facts).toEqual(expect.arrayContaining(['writer:.github/workflows/z.yml#triage']));
      expect(releaseRecord(files)?.facts).not.toContain('writer:.github/workflows/other.yml#test');
      const path = combination(files);
      expect(path?.components.map((c) => `${c.rule_id} ${c.finding.file}`)).toEqual(['script-injection .github/workflows/z.yml', `${RULE} .github/workflows/release.yml`, 'missing-provenance .github/workflows/release.yml']);
      expect(path?.break_chain).not.toContain('by hand');
    });

    it('negative: a writer that saves the cache but starts no path of its own (a pull_request_target save the pull request picks) leaves the path to the by-hand writer, said so', () => {
      // The pull request's lockfile picks the key and content of this save; nothing of theirs runs in the job.
      const save = { path: '.github/workflows/save.yml', text: yaml`
        on: pull_request_target
        jobs:
          cache:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:
                  ref: \${{ github.event.pull_request.head.sha }}
              - uses: actions/setup-node@v4
                with:
                  cache: npm
      ` };
      const files = [release, prTarget(), save];
      const [finding] = ofRelease(files);
      expect(finding?.description).toContain('`.github/workflows/save.yml` (job `cache`) saves a cache (actions/setup-node with `cache: npm`) under `pull_request_target`');
      expect(finding?.description).toContain('(the same cache: actions/setup-node with `cache: npm`)');
      expect(releaseRecord(files)?.facts).toEqual(expect.arrayContaining(['writer:.github/workflows/other.yml#test', 'cache:by-hand']));
      const path = combination(files);
      expect(path?.components[0]?.finding.file).toBe('.github/workflows/other.yml');
      expect(path?.impact).toContain('by hand');
    });

    it('takes the rules that start a path from the catalog: the first group of cache-poisoning-release', () => {
      expect([...PATH_ENTRY_RULES].sort()).toEqual([...(combinationKind('cache-poisoning-release')?.requires[0] ?? [])].sort());
    });

    it('names the restore keys through which a by-hand entry is taken, and tells actions/cache keys apart by shape and path', () => {
      const keyed = (inputs: string) => ({ path: '.github/workflows/release.yml', text: yaml`
        on:
          push:
            tags: ['v*']
        jobs:
          publish:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/cache@v4
                with:
                  path: dist
${inputs.split('\n').map((l) => `                  ${l}`).join('\n')}
              - run: npm ci && npm publish
      ` });
      const saves = (inputs: string) => writer('.github/workflows/other.yml', `actions/cache@v4\n              with:\n${inputs.split('\n').map((l) => `                ${l}`).join('\n')}`);
      const text = (files: { path: string; text: string }[]) => ofRelease(files)[0]?.description ?? '';
      const restore = keyed("key: build-${{ runner.os }}-${{ hashFiles('**/*.lock') }}\nrestore-keys: |\n  build-${{ runner.os }}-");
      // Same shape, same path: the job saves it itself.
      expect(text([restore, saves("path: dist\nkey: build-${{ runner.os }}-${{ github.sha }}")])).toContain('there saves the cache this restore reads (actions/cache restores and saves a cache)');
      // Under the restore key: taken when the exact key misses.
      expect(text([restore, saves("path: dist\nkey: build-${{ runner.os }}-pr-${{ github.sha }}")])).toContain('there saves the cache this restore reads');
      // Another key, or another path (another cache version): by hand, naming the restore key.
      for (const other of ["path: dist\nkey: lint-${{ github.sha }}", "path: node_modules\nkey: build-${{ runner.os }}-${{ github.sha }}"]) {
        expect(text([restore, saves(other)])).toContain('saves no cache this restore reads, but code running there can save an entry under any key through the runner\'s cache token, which the release takes only while its own key has no entry yet (a new lockfile or cache key), then also as the newest entry under its restore key `build-${{ runner.os }}-`, or once');
      }
    });
  });

  describe("a writer's save counts only on a system whose entries the release's system restores", () => {
    /** A workflow file from lines (no template indentation to get wrong). */
    const file = (path: string, lines: string[]) => ({ path, text: `${lines.join('\n')}\n` });
    /** The release on `runsOn`, restoring with the step `cache` (`uses:` then its `with:` lines). */
    const releaseOn = (runsOn: string, cache: string[]) =>
      file('.github/workflows/release.yml', ['on:', '  push:', "    tags: ['v*']", 'jobs:', '  publish:', `    runs-on: ${runsOn}`, '    steps:', '      - uses: actions/checkout@v3', ...cache.map((l) => `      ${l}`), '      - run: npm install && npm publish']);
    /** A `pull_request_target` job running the pull request's code on `runsOn` (with `strategy` lines), saving with `cache`. */
    const writerOn = (runsOn: string, cache: string[], strategy: string[] = []) =>
      file('.github/workflows/other.yml', [
        'on: pull_request_target',
        'jobs:',
        '  test:',
        `    runs-on: ${runsOn}`,
        ...strategy.map((l) => `    ${l}`),
        '    steps:',
        '      - uses: actions/checkout@v3',
        '        with:',
        '          ref: ${{ github.event.pull_request.head.sha }}',
        ...cache.map((l) => `      ${l}`),
        '      - run: npm ci && npm test',
      ]);
    const npm = ['- uses: actions/setup-node@v4', '  with:', '    cache: npm'];
    const actionsCache = (key: string, extra: string[] = []) => ['- uses: actions/cache@v4', '  with:', '    path: ~/.npm', `    key: ${key}`, ...extra.map((l) => `    ${l}`)];
    const cross = ['enableCrossOsArchive: true'];
    const matrix = (...systems: string[]) => ['strategy:', '  matrix:', `    os: [${systems.join(', ')}]`];
    const ofRelease = (files: { path: string; text: string }[]) => scanWith(RULE, files).filter((f) => f.file === '.github/workflows/release.yml');
    const factsOf = (files: { path: string; text: string }[]) => scanRepository(files, {}).records.find((r) => r.finding.rule_id === RULE && r.finding.file === '.github/workflows/release.yml')?.facts ?? [];
    const NATURAL = 'step 2 of job `test` there saves the cache this restore reads';
    const BY_HAND = "job `test` saves no cache this restore reads, but code running there can save an entry under any key through the runner's cache token";
    /** How the release finding says the writer writes: 'natural', 'by-hand', with the severity and the by-hand fact checked to agree. */
    const how = (files: { path: string; text: string }[]): string => {
      const [finding] = ofRelease(files);
      expect(finding?.severity).toBe('HIGH');
      const text = finding?.description ?? '';
      const natural = text.includes(NATURAL);
      const byHand = text.includes(BY_HAND);
      expect(natural !== byHand).toBe(true);
      expect(factsOf(files).includes('cache:by-hand')).toBe(byHand);
      return natural ? 'natural' : 'by-hand';
    };
    const ubuntuNpm = releaseOn('ubuntu-latest', npm);

    it('negative: a Windows writer saves setup-node\'s `node-cache-Windows-...` entry, which the ubuntu release never restores: by hand, still HIGH', () => {
      expect(how([ubuntuNpm, writerOn('windows-latest', npm)])).toBe('by-hand');
      // macOS too: setup-node's key names the runner's system.
      expect(how([ubuntuNpm, writerOn('macos-latest', npm)])).toBe('by-hand');
      // A matrix with no leg on the release's system.
      expect(how([ubuntuNpm, writerOn('${{ matrix.os }}', npm, matrix('windows-latest', 'macos-latest'))])).toBe('by-hand');
      // A larger runner whose name says Windows.
      expect(how([ubuntuNpm, writerOn('acme-windows-16-core', npm)])).toBe('by-hand');
      // The path names the writer and says it writes by hand.
      const path = findCombinations(scanRepository([ubuntuNpm, writerOn('windows-latest', npm)], {}).records, () => true).find((c) => c.id === 'cache-poisoning-release');
      expect(path?.severity).toBe('HIGH');
      expect(path?.break_chain).toContain('by hand');
    });

    it('positive: an ubuntu writer, a matrix writer with an ubuntu leg, a writer whose system is not known save it in the normal course', () => {
      expect(how([ubuntuNpm, writerOn('ubuntu-22.04', npm)])).toBe('natural');
      expect(how([ubuntuNpm, writerOn('${{ matrix.os }}', npm, matrix('windows-latest', 'ubuntu-latest'))])).toBe('natural');
      expect(how([ubuntuNpm, writerOn('[self-hosted, linux-big]', npm)])).toBe('natural');
      expect(how([ubuntuNpm, writerOn('[self-hosted, gpu-large]', npm)])).toBe('natural');
      expect(how([releaseOn('windows-2022', npm), writerOn('windows-latest', npm)])).toBe('natural');
    });

    it('negative: a matrix writer whose save runs only on its Windows leg writes by hand', () => {
      const onlyWindows = ['- uses: actions/setup-node@v4', "  if: runner.os == 'Windows'", '  with:', '    cache: npm'];
      expect(how([ubuntuNpm, writerOn('${{ matrix.os }}', onlyWindows, matrix('windows-latest', 'ubuntu-latest'))])).toBe('by-hand');
    });

    it('actions/cache: a Windows entry is restored elsewhere only with enableCrossOsArchive on both sides, and a runner.os key only on the same system', () => {
      const key = "npm-${{ hashFiles('**/package-lock.json') }}";
      const ubuntu = (extra: string[] = []) => releaseOn('ubuntu-latest', actionsCache(key, extra));
      expect(how([ubuntu(), writerOn('windows-latest', actionsCache(key))])).toBe('by-hand');
      expect(how([ubuntu(cross), writerOn('windows-latest', actionsCache(key))])).toBe('by-hand');
      expect(how([ubuntu(cross), writerOn('windows-latest', actionsCache(key, cross))])).toBe('natural');
      // Linux and macOS entries share a version: a key that does not name the system meets.
      expect(how([ubuntu(), writerOn('macos-latest', actionsCache(key))])).toBe('natural');
      // A key that names the system does not, unless a restore key without it takes the entry.
      const osKey = "npm-${{ runner.os }}-${{ hashFiles('**/package-lock.json') }}";
      expect(how([releaseOn('ubuntu-latest', actionsCache(osKey)), writerOn('macos-latest', actionsCache(osKey))])).toBe('by-hand');
      expect(how([releaseOn('ubuntu-latest', actionsCache(osKey, cross)), writerOn('windows-latest', actionsCache(osKey, cross))])).toBe('by-hand');
      expect(how([releaseOn('ubuntu-latest', actionsCache(osKey, ['restore-keys: npm-'])), writerOn('macos-latest', actionsCache(osKey))])).toBe('natural');
      expect(how([releaseOn('ubuntu-latest', actionsCache(osKey)), writerOn('ubuntu-latest', actionsCache(osKey))])).toBe('natural');
    });

    it('negative: a pull_request_target save the pull request picks, on Windows, writes nothing the ubuntu release restores: not named', () => {
      // Nothing of the pull request's runs in this job (no step runs its code): its only way in is the save itself.
      const save = file('.github/workflows/save.yml', ['on: pull_request_target', 'jobs:', '  cache:', '    runs-on: windows-latest', '    steps:', '      - uses: actions/checkout@v3', '        with:', '          ref: ${{ github.event.pull_request.head.sha }}', ...npm.map((l) => `      ${l}`)]);
      expect(ofRelease([ubuntuNpm, save])[0]?.description ?? '').not.toContain('save.yml');
      const linux = { ...save, text: save.text.replace('windows-latest', 'ubuntu-latest') };
      expect(ofRelease([ubuntuNpm, linux])[0]?.description).toContain('`.github/workflows/save.yml` (job `cache`) saves a cache (actions/setup-node with `cache: npm`) under `pull_request_target`');
    });
  });
});

describe(`${RULE}: the run model's view of restores and publishers`, () => {
  const publishOnTags = (steps: string, on = "push:\n    tags: ['v*']") => yaml`
    on:
      ${on}
    jobs:
      publish:
        runs-on: ubuntu-latest
        steps:
${steps}
  `;

  it('honours step and job ref conditions: a restore that skips tags never meets a publish that needs one', () => {
    const workflow = (restoreIf: string) => yaml`
      on:
        push:
          branches: [main, 'release/**']
          tags: ['v*']
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/cache@v4
              if: ${restoreIf}
              with:
                path: ~/.npm
                key: npm-\${{ hashFiles('package-lock.json') }}
            - run: npm ci && npm test
            - run: npm publish
              if: startsWith(github.ref, 'refs/tags/')
    `;
    expect(scanWith(RULE, workflow("github.ref != 'refs/heads/main' && !startsWith(github.ref, 'refs/tags/')"))).toEqual([]);
    expect(scanWith(RULE, workflow("github.ref_type != 'tag'"))).toEqual([]);
    expect(positions(scanWith(RULE, workflow("github.ref_type == 'tag' || github.ref == 'refs/heads/main'")))).toEqual(['10:15 LOW']);
    // A job that runs only off tags, feeding nothing, never publishes.
    expect(scanWith(RULE, yaml`
      on:
        push:
          branches: [main]
          tags: ['v*']
      jobs:
        build:
          if: "!startsWith(github.ref, 'refs/tags/')"
          runs-on: ubuntu-latest
          steps:
            - uses: actions/setup-go@v5
            - run: goreleaser release --clean
              if: github.ref_type == 'tag'
    `)).toEqual([]);
  });

  it('reads an input that switches caching by the run with the conditions of the model (maturin sccache)', () => {
    const workflow = (sccache: string) => publishOnTags(`          - uses: PyO3/maturin-action@v1
            with:
              command: build
              sccache: ${sccache}
          - run: twine upload dist/*`, "push:\n    branches: [master]\n    tags: ['*']");
    // On for tag runs (the publishing runs): reported; off for them: caching only where the publish also runs (master).
    expect(positions(scanWith(RULE, workflow("${{ startsWith(github.ref, 'refs/tags/') }}")))).toEqual(['9:15 LOW']);
    expect(positions(scanWith(RULE, workflow("${{ github.event_name == 'push' && github.ref_type == 'tag' }}")))).toEqual(['9:15 LOW']);
    // Off on tags but on for master pushes, which also run `twine upload`: still a restore before a publish.
    expect(positions(scanWith(RULE, workflow("${{ !startsWith(github.ref, 'refs/tags/') }}")))).toEqual(['9:15 LOW']);
    // With the upload only on tags, the master runs that cache publish nothing.
    const tagOnlyUpload = (sccache: string) => publishOnTags(`          - uses: PyO3/maturin-action@v1
            with:
              sccache: ${sccache}
          - run: twine upload dist/*
            if: startsWith(github.ref, 'refs/tags/')`, "push:\n    branches: [master]\n    tags: ['*']");
    expect(scanWith(RULE, tagOnlyUpload("${{ !startsWith(github.ref, 'refs/tags/') }}"))).toEqual([]);
    expect(scanWith(RULE, tagOnlyUpload("${{ !(github.event_name == 'push' && github.ref_type == 'tag') }}"))).toEqual([]);
    expect(scanWith(RULE, tagOnlyUpload('false'))).toEqual([]);
    expect(positions(scanWith(RULE, tagOnlyUpload("${{ startsWith(github.ref, 'refs/tags/') }}")))).toEqual(['9:15 LOW']);
  });

  it('knows actions/cache/save saves and actions/cache/restore restores', () => {
    const release = publishOnTags(`          - uses: actions/cache/save@v4
            with:
              path: dist
              key: dist-\${{ github.sha }}
          - uses: actions/cache/restore@v4
            with:
              path: ~/.npm
              key: npm-\${{ hashFiles('package-lock.json') }}
          - run: npm publish`);
    expect(positions(scanWith(RULE, release))).toEqual(['12:15 LOW']);
    const target = yaml`
      on: pull_request_target
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/cache/restore@v4
              with:
                path: out
                key: build-\${{ github.head_ref }}
            - uses: actions/cache/save@v4
              with:
                path: out
                key: build-\${{ github.head_ref }}
    `;
    expect(positions(scanWith(RULE, target))).toEqual(['10:15 MEDIUM']);
    expect(scanWith(RULE, target)[0]?.description).toContain('actions/cache/save saves a cache');
  });

  it('counts docker/setup-buildx-action keeping a downloaded buildx in the cache, not the runner\'s own', () => {
    const build = (inputs: string) => publishOnTags(`          - uses: docker/setup-buildx-action@v3
            with:
${inputs}
          - uses: docker/build-push-action@v6
            with:
              push: true
              tags: ghcr.io/o/r:latest`);
    expect(positions(scanWith(RULE, build('              version: latest')))).toEqual(['8:15 LOW']);
    expect(scanWith(RULE, build('              version: latest'))[0]?.description).toContain('buildx binary');
    expect(scanWith(RULE, build('              cache-binary: true'))).toEqual([]);
    expect(scanWith(RULE, build('              version: v0.19.0\n              cache-binary: false'))).toEqual([]);
  });

  it("counts setup-node's package-manager-cache only when the workflow asks for it (the default depends on package.json)", () => {
    const node = (inputs: string) => publishOnTags(`          - uses: actions/setup-node@v6
${inputs}
          - run: npm ci && npm publish`);
    expect(scanWith(RULE, node('            with:\n              node-version: 22'))).toEqual([]);
    expect(positions(scanWith(RULE, node('            with:\n              package-manager-cache: true')))).toEqual(['8:15 LOW']);
    expect(scanWith(RULE, node('            with:\n              package-manager-cache: false'))).toEqual([]);
    expect(positions(scanWith(RULE, node('            with:\n              cache: npm')))).toEqual(['8:15 LOW']);
  });

  it('counts cache steps of local composite actions at their call, and a publish inside one', () => {
    const action = { path: '.github/actions/setup/action.yml', text: yaml`
      name: setup
      runs:
        using: composite
        steps:
          - uses: actions/setup-node@v4
            with:
              cache: pnpm
          - run: pnpm install --frozen-lockfile
            shell: bash
    ` };
    const publisher = { path: '.github/actions/publish/action.yml', text: yaml`
      name: publish
      runs:
        using: composite
        steps:
          - run: pnpm publish --no-git-checks
            shell: bash
    ` };
    const release = { path: '.github/workflows/release.yml', text: yaml`
      on:
        push:
          tags: ['v*']
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: ./.github/actions/setup
            - uses: ./.github/actions/publish
    ` };
    const records = recordsWith(RULE, [action, publisher, release]);
    expect(records.map((r) => `${r.finding.file}:${r.finding.line}:${r.finding.column} ${r.finding.severity}`)).toEqual(['.github/workflows/release.yml:9:15 LOW']);
    expect(records[0]?.finding.description).toContain('local action `./.github/actions/setup`');
    expect(records[0]?.finding.description).toContain('(npm publish, step 3 of job `publish`)');
    expect(records[0]?.job).toBe('publish');
    // Without the publishing action, nothing ships.
    expect(scanWith(RULE, [action, { ...release, text: release.text.replace('            - uses: ./.github/actions/publish\n', '') }])).toEqual([]);
  });

  it('counts pnpm/setup only with `cache: true` (its default is false), also inside a local composite action', () => {
    const action = (inputs: string) => ({ path: '.github/actions/setup/action.yml', text: `name: setup
runs:
  using: composite
  steps:
    - uses: pnpm/setup@v2
${inputs}    - run: pnpm build
      shell: bash
` });
    const release = { path: '.github/workflows/release.yml', text: yaml`
      on:
        push:
          tags: ['v*']
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: ./.github/actions/setup
            - run: pnpm publish --no-git-checks
              env:
                NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
    ` };
    const on = recordsWith(RULE, [action('      with:\n        cache: true\n'), release]);
    expect(on.map((r) => `${r.finding.file}:${r.finding.line}:${r.finding.column} ${r.finding.severity}`)).toEqual(['.github/workflows/release.yml:9:15 LOW']);
    expect(on[0]?.finding.description).toContain('pnpm/setup with `cache: true`');
    expect(on[0]?.job).toBe('publish');
    expect(scanWith(RULE, [action(''), release])).toEqual([]);
    expect(scanWith(RULE, [action('      with:\n        cache: false\n'), release])).toEqual([]);
    expect(scanWith(RULE, [action('      with:\n        install: false\n'), release])).toEqual([]);
    // In the workflow itself, the same.
    const direct = (inputs: string) => publishOnTags(`          - uses: pnpm/setup@v2
${inputs}
          - run: pnpm publish --no-git-checks`);
    expect(positions(scanWith(RULE, direct('            with:\n              cache: true')))).toEqual(['8:15 LOW']);
    expect(scanWith(RULE, direct('            with:\n              runtime: node@22'))).toEqual([]);
  });

  it("names the repository's own action called by its full name, which the run model follows like a local one", () => {
    const action = { path: '.github/actions/setup/action.yml', text: yaml`
      name: setup
      runs:
        using: composite
        steps:
          - uses: actions/setup-node@v4
            with:
              cache: pnpm
          - run: pnpm install --frozen-lockfile
            shell: bash
    ` };
    const release = { path: '.github/workflows/release.yml', text: yaml`
      on:
        push:
          tags: ['v*']
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: acme/tools/.github/actions/setup@main
            - run: pnpm publish --no-git-checks
    ` };
    const records = recordsWith(RULE, [action, release], { repository: 'acme/tools' });
    expect(records.map((r) => `${r.finding.line} ${r.finding.severity}`)).toEqual(['9 LOW']);
    expect(records[0]?.finding.description).toContain("the repository's own action `acme/tools/.github/actions/setup@main`");
    // Another owner's action of the same path is not followed: its steps are not the repository's to read.
    expect(scanWith(RULE, [action, release], { repository: 'other/tools' })).toEqual([]);
  });

  it("reads a composite action's cache input handed on as `${{ inputs.x }}` at the call: the caller's value, else the declared default", () => {
    // setup-uv's own default has cached since v5; the action turns it off unless its caller asks.
    const action = (inputDefault: string) => ({ path: '.github/actions/setup/action.yml', text: `name: setup
inputs:
  enable-cache:
    description: Cache uv's downloads
${inputDefault}runs:
  using: composite
  steps:
    - uses: astral-sh/setup-uv@v6
      with:
        enable-cache: \${{ inputs.enable-cache }}
    - run: uv sync
      shell: bash
` });
    const release = (uses: string, given: string) => ({ path: '.github/workflows/release.yml', text: `on:
  push:
    tags: ['v*']
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
      - uses: ${uses}
${given}      - run: uv build && uv publish
        env:
          UV_PUBLISH_TOKEN: \${{ secrets.PYPI_TOKEN }}
` });
    const off = action('    default: "false"\n');
    // The default is false and the caller gives nothing: nothing is cached.
    expect(scanWith(RULE, [off, release('./.github/actions/setup', '')])).toEqual([]);
    expect(scanWith(RULE, [off, release('acme/tools/.github/actions/setup@main', '')], { repository: 'acme/tools' })).toEqual([]);
    // No default and nothing given: the input is empty, which is no `true`.
    expect(scanWith(RULE, [action(''), release('./.github/actions/setup', '')])).toEqual([]);
    // The caller turns it off explicitly, or by an expression that is false on every run the job publishes on.
    expect(scanWith(RULE, [action('    default: "true"\n'), release('./.github/actions/setup', '        with:\n          enable-cache: false\n')])).toEqual([]);
    expect(scanWith(RULE, [off, release('./.github/actions/setup', "        with:\n          enable-cache: ${{ github.event_name == 'pull_request' }}\n")])).toEqual([]);
    // A caller that passes true (or leaves a default of true) still restores the cache in the release.
    const on = recordsWith(RULE, [off, release('./.github/actions/setup', '        with:\n          enable-cache: true\n')]);
    expect(on.map((r) => `${r.finding.file}:${r.finding.line} ${r.finding.severity}`)).toEqual(['.github/workflows/release.yml:9 LOW']);
    expect(on[0]?.finding.description).toContain('astral-sh/setup-uv with `enable-cache: ${{ inputs.enable-cache }}`');
    expect(positions(scanWith(RULE, [action('    default: "true"\n'), release('./.github/actions/setup', '')]))).toEqual(['9:15 LOW']);
    expect(positions(scanWith(RULE, [off, release('./.github/actions/setup', "        with:\n          enable-cache: ${{ startsWith(github.ref, 'refs/tags/') }}\n")]))).toEqual(['9:15 LOW']);
  });

  it("reads a composite action's step `if:` on its inputs at the call: a release that turns the cached step off restores nothing", () => {
    const action = { path: '.github/actions/install/action.yml', text: `name: install
inputs:
  disable-cache:
    description: skip the pnpm store cache
    default: "false"
runs:
  using: composite
  steps:
    - name: Node (with cache)
      if: inputs.disable-cache != 'true'
      uses: actions/setup-node@v4
      with:
        cache: pnpm
    - name: Node (without cache)
      if: \${{ inputs['disable-cache'] == 'true' }}
      uses: actions/setup-node@v4
    - run: pnpm install
      shell: bash
` };
    const release = (given: string) => ({ path: '.github/workflows/release.yml', text: `on:
  push:
    tags: ['v*']
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
      - uses: ./.github/actions/install
${given}      - run: pnpm publish
        env:
          NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
` });
    expect(scanWith(RULE, [action, release('        with:\n          disable-cache: "true"\n')])).toEqual([]);
    expect(scanWith(RULE, [action, release('        with:\n          disable-cache: ${{ startsWith(github.ref, \'refs/tags/\') }}\n')])).toEqual([]);
    // Given nothing (the default, "false") or false, the cached step runs in the release.
    expect(positions(scanWith(RULE, [action, release('')]))).toEqual(['9:15 LOW']);
    expect(positions(scanWith(RULE, [action, release('        with:\n          disable-cache: false\n')]))).toEqual(['9:15 LOW']);
  });
});

describe(`${RULE}: a label-approved pull_request_target job writing the cache a tag-triggered publish restores (issue 25)`, () => {
  const action = { path: '.github/actions/setup-deps/action.yml', text: yaml`
    name: Set up dependencies
    runs:
      using: composite
      steps:
        - uses: actions/setup-node@v4
          with:
            node-version: 20
        - uses: actions/cache@v4
          with:
            path: |
              ~/.npm
              node_modules
            key: deps-\${{ runner.os }}-\${{ hashFiles('package-lock.json') }}
            restore-keys: deps-\${{ runner.os }}-
        - run: npm ci
          shell: bash
  ` };
  const sticky = "contains(github.event.pull_request.labels.*.name, 'safe to test')";
  const headSha = '${{ github.event.pull_request.head.sha }}';
  const preview = (types: string, condition = sticky, ref = headSha) => ({ path: '.github/workflows/preview.yml', text: yaml`
    name: Preview
    on:
      pull_request_target:
        types: [${types}]
    permissions:
      contents: read
      pull-requests: write
    jobs:
      preview:
        if: ${condition}
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with:
              ref: ${ref}
          - uses: ./.github/actions/setup-deps
          - run: npm run build:preview
          - run: npm run test:e2e
            env:
              PREVIEW_TOKEN: \${{ secrets.PREVIEW_TOKEN }}
  ` });
  const publish = { path: '.github/workflows/publish.yml', text: yaml`
    name: Publish
    on:
      push:
        tags: ['v*']
    permissions:
      contents: read
      id-token: write
    jobs:
      publish:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - uses: ./.github/actions/setup-deps
          - run: npm run build
          - run: npm publish --provenance
            env:
              NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
  ` };

  it('is HIGH at the publish job\'s call of the action, naming the writer, and forms cache-poisoning-release naming both ends', () => {
    const files = [action, preview('opened, synchronize, reopened, labeled'), publish];
    const release = scanWith(RULE, files).filter((f) => f.file === publish.path);
    expect(positions(release)).toEqual(['13:15 HIGH']);
    expect(release[0]?.description).toContain('`.github/workflows/preview.yml` (job `preview`) checks out pull request code under `pull_request_target`');
    expect(release[0]?.description).toContain('local action `./.github/actions/setup-deps`');
    const all = scanRepository(files, {});
    const path = findCombinations(all.records, () => true).find((c) => c.id === 'cache-poisoning-release');
    expect(path?.severity).toBe('HIGH');
    expect(path?.components.map((c) => `${c.rule_id} ${c.finding.file}`)).toEqual(['untrusted-checkout .github/workflows/preview.yml', 'cache-poisoning .github/workflows/publish.yml']);
  });

  it('is MEDIUM, with no attack path, when the label is checked on the labelled commit only (a maintainer approves each run)', () => {
    const files = [action, preview('labeled', "github.event.label.name == 'safe to test'", 'refs/pull/${{ github.event.number }}/head'), publish];
    const release = scanWith(RULE, files).filter((f) => f.file === publish.path);
    expect(release.map((f) => f.severity)).toEqual(['MEDIUM']);
    // An approval that the code can outrun, not an environment that may be open: the wording says what it takes.
    expect(release[0]?.description).toContain("so an outsider can write those entries by pushing after a maintainer's approval");
    expect(release[0]?.description).not.toContain("environment's reviewers");
    expect(findCombinations(scanRepository(files, {}).records, () => true).map((c) => c.id)).not.toContain('cache-poisoning-release');
  });
});

describe(`${RULE}: the halves of actions/cache in a local composite action, keyed by the call's inputs (issue 25)`, () => {
  const action = { path: '.github/actions/deps/action.yml', text: yaml`
    name: deps
    inputs:
      cache-key: { required: true }
      save: { default: 'false' }
    runs:
      using: composite
      steps:
        - uses: actions/cache/restore@v4
          with:
            path: node_modules
            key: \${{ inputs.cache-key }}
        - run: npm ci
          shell: bash
        - uses: actions/cache/save@v4
          if: inputs.save == 'true'
          with:
            path: node_modules
            key: \${{ inputs.cache-key }}
  ` };
  const pr = (ref: string) => ({ path: '.github/workflows/pr.yml', text: yaml`
    on: pull_request_target
    permissions:
      contents: read
    jobs:
      test:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with:
              ref: ${ref}
          - uses: ./.github/actions/deps
            with:
              cache-key: deps-\${{ hashFiles('package-lock.json') }}
              save: true
          - run: npm test
  ` });
  const release = { path: '.github/workflows/release.yml', text: yaml`
    on:
      release:
        types: [published]
    permissions:
      contents: read
    jobs:
      publish:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - uses: ./.github/actions/deps
            with:
              cache-key: deps-\${{ hashFiles('package-lock.json') }}
          - run: npm publish
            env:
              NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
  ` };

  it("is HIGH at the release's call when a pull_request_target job runs the fork's code with the same action, and forms cache-poisoning-release", () => {
    const files = [action, pr('${{ github.event.pull_request.head.sha }}'), release];
    const found = scanWith(RULE, files).filter((f) => f.file === release.path);
    expect(positions(found)).toEqual(['11:15 HIGH']);
    expect(found[0]?.description).toContain('actions/cache/restore');
    const path = findCombinations(scanRepository(files, {}).records, () => true).find((c) => c.id === 'cache-poisoning-release');
    expect(path?.severity).toBe('HIGH');
  });

  it('is LOW when the pull_request_target job checks out the base branch (no outsider writes the scope)', () => {
    const files = [action, pr('${{ github.event.pull_request.base.sha }}'), release];
    expect(positions(scanWith(RULE, files).filter((f) => f.file === release.path))).toEqual(['11:15 LOW']);
  });
});

describe('cache-poisoning: a push to a registry the job started is not shipping', () => {
  const job = (push: string) => yaml`
    on:
      push:
        tags: ['v*']
    jobs:
      image:
        runs-on: ubuntu-latest
        services:
          scratch:
            image: registry:2
            ports: ['5000:5000']
        steps:
          - uses: actions/checkout@v3
          - uses: actions/setup-go@v5
          - run: go build ./... && docker build -t app .
          - run: ${push}
  `;

  it('stays silent when the only push goes to the registry service or to localhost', () => {
    expect(scanWith(RULE, job('docker tag app localhost:5000/app:ci && docker push localhost:5000/app:ci'))).toEqual([]);
    expect(scanWith(RULE, job('docker buildx build --push -t scratch:5000/app:ci --cache-to type=registry,ref=scratch:5000/app:cache .'))).toEqual([]);
  });

  it('reports when the job pushes to a real registry', () => {
    expect(positions(scanWith(RULE, job('docker tag app ghcr.io/example/app:1 && docker push ghcr.io/example/app:1')))).toEqual(['13:15 LOW']);
  });

  const steps = (body: string) => yaml`
    on:
      push:
        tags: ['v*']
    jobs:
      image:
        runs-on: ubuntu-latest
        services:
          registry:
            image: registry:2
            ports: ['5000:5000']
        steps:
          - uses: actions/checkout@v3
          - uses: actions/setup-go@v5
          - run: go build ./...
${body}
  `;
  const metadata = (images: string) => `          - id: meta
            uses: docker/metadata-action@v5
            with:
              images: ${images}
          - uses: docker/build-push-action@v6
            with:
              push: true
              tags: \${{ steps.meta.outputs.tags }}`;
  const script = (lines: string) => `          - run: |
${lines.split('\n').map((l) => `              ${l}`).join('\n')}`;
  const bake = (set: string) => `          - uses: docker/bake-action@v5
            with:
              push: true${set === '' ? '' : `\n              set: '${set}'`}`;

  it('negative: tags from docker/metadata-action of the scratch registry, a script variable holding it, a bake whose every tag goes there', () => {
    for (const body of [
      metadata('localhost:5000/app'),
      metadata('name=registry:5000/app,enable=true'),
      script('IMAGE=localhost:5000/app:ci\ndocker build -t "$IMAGE" .\ndocker push "$IMAGE"'),
      script('export REPO="localhost:5000"\ndocker push ${REPO}/app:ci'),
      bake('*.tags=localhost:5000/app:ci'),
      // podman and buildah push a local image to a destination.
      script('podman push app localhost:5000/app:ci'),
      // docker push takes one image: what follows it on the line (a quote, a continuation) is no destination.
      script('IMAGE=localhost:5000/app:ci\nsetsid -f bash -c "sleep 5 && docker push \'$IMAGE\'" \\\n  </dev/null >/tmp/push.log 2>&1'),
      // The service's port read from the job context.
      script('docker push localhost:${{ job.services.registry.ports[5000] }}/app:ci'),
    ]) expect(scanWith(RULE, steps(body)), body).toEqual([]);
  });

  it('a composite action\'s push is judged with the services of the job that calls it', () => {
    const action = (image: string) => ({ path: '.github/actions/push/action.yml', text: yaml`
      name: push
      runs:
        using: composite
        steps:
          - run: docker push ${image}
            shell: bash
    ` });
    const workflow = { path: '.github/workflows/image.yml', text: steps('          - uses: ./.github/actions/push') };
    expect(scanWith(RULE, [action('registry:5000/app:ci'), workflow]).filter((f) => f.file === workflow.path)).toEqual([]);
    expect(positions(scanWith(RULE, [action('ghcr.io/example/app:1'), workflow]).filter((f) => f.file === workflow.path)).length).toBe(1);
  });

  it('positive: metadata-action images of a real registry, a script variable naming one (or assigned twice), a bake with its file\'s tags', () => {
    for (const body of [
      metadata('ghcr.io/example/app'),
      metadata('|\n                localhost:5000/app\n                ghcr.io/example/app'),
      metadata('localhost:5000/app\n                ghcr.io/example/app'),
      script('IMAGE=ghcr.io/example/app:1\ndocker push "$IMAGE"'),
      script('IMAGE=localhost:5000/app:ci\nif [ "$REAL" = 1 ]; then\n  IMAGE=ghcr.io/example/app:1\nfi\ndocker push "$IMAGE"'),
      script('IMAGE=$(cat image.txt)\ndocker push "$IMAGE"'),
      script('podman push localhost:5000/app:ci ghcr.io/example/app:1'),
      bake(''),
    ]) expect(positions(scanWith(RULE, steps(body))).length, body).toBe(1);
  });
});

describe(`${RULE}: a release published with Nx (issue 25)`, () => {
  const action = { path: '.github/actions/setup/action.yml', text: `name: setup
runs:
  using: composite
  steps:
    - uses: pnpm/setup@v2
      with:
        cache: true
    - run: pnpm install --frozen-lockfile
      shell: bash
` };
  const release = (command: string) => ({ path: '.github/workflows/release.yml', text: yaml`
    on:
      push:
        tags: ['v*']
    permissions: {}
    jobs:
      publish:
        runs-on: ubuntu-latest
        environment: npm
        permissions:
          contents: read
          id-token: write
        steps:
          - uses: actions/checkout@v3
          - uses: ./.github/actions/setup
          - run: ${command}
  ` });

  it('counts `nx release publish` (and a whole `nx release`) as the publish the restored pnpm store reaches: LOW with only trusted writers', () => {
    for (const command of ['pnpm exec nx release publish --tag latest', 'npx nx release publish', 'pnpm nx release --yes']) {
      const found = recordsWith(RULE, [action, release(command)]);
      expect(found.map((r) => `${r.finding.file}:${r.finding.line} ${r.finding.severity}`), command).toEqual(['.github/workflows/release.yml:14 LOW']);
      expect(found[0]?.finding.description).toContain('nx release publish');
      expect(found[0]?.finding.description).toContain('pnpm/setup with `cache: true`');
    }
  });

  it('negative: Nx release steps that publish nothing (versioning, changelog, a skipped or rehearsed publish)', () => {
    for (const command of ['pnpm exec nx release version 1.2.3', 'pnpm exec nx release changelog 1.2.3', 'pnpm exec nx release --skip-publish', 'pnpm exec nx release publish --dry-run']) {
      expect(scanWith(RULE, [action, release(command)]), command).toEqual([]);
    }
  });

  it('counts a publish whose `--dry-run` takes its value at run time (or is a literal false): on some runs it publishes', () => {
    for (const command of [
      'pnpm exec nx release publish --dry-run="$DRY_RUN"',
      'pnpm exec nx release publish --dry-run=${{ inputs.dry_run }}',
      'pnpm exec nx release publish --dry-run=$X',
      'pnpm exec nx release publish --dry-run $DRY_RUN',
      'pnpm exec nx release publish --dry-run=false',
    ]) {
      const found = recordsWith(RULE, [action, release(command)]);
      expect(found.map((r) => `${r.finding.file}:${r.finding.line} ${r.finding.severity}`), command).toEqual(['.github/workflows/release.yml:14 LOW']);
    }
  });

  it('negative: a `--dry-run` that is a literal true rehearses, written bare, with `=true` or `true`', () => {
    for (const command of ['pnpm exec nx release publish --dry-run', 'pnpm exec nx release publish --dry-run=true', 'pnpm exec nx release publish --dry-run true', 'npm publish --dry-run pkg/']) {
      expect(scanWith(RULE, [action, release(command)]), command).toEqual([]);
    }
  });
});

describe(`${RULE}: a publish told by the step's environment (npm provenance, a registry token)`, () => {
  const action = { path: '.github/actions/setup/action.yml', text: `name: setup
runs:
  using: composite
  steps:
    - uses: pnpm/action-setup@v4
    - uses: actions/setup-node@v4
      with:
        cache: pnpm
    - run: pnpm install --frozen-lockfile
      shell: bash
` };
  const release = (env: string, command: string) => ({ path: '.github/workflows/release.yml', text: yaml`
    on:
      workflow_dispatch:
        inputs:
          dry_run: { type: boolean, default: true }
    permissions: {}
    jobs:
      publish:
        runs-on: ubuntu-latest
        environment: npm
        permissions:
          contents: read
          id-token: write
        steps:
          - uses: actions/checkout@v3
          - uses: ./.github/actions/setup
          - env: {${env}}
            run: ${command}
  ` });

  it('counts a repository script run with NPM_CONFIG_PROVENANCE, or with a registry token and a publishing name, as the publish', () => {
    for (const [env, command, evidence] of [
      ['NPM_CONFIG_PROVENANCE: true', 'pnpm run release --dry-run=${{ inputs.dry_run }}', '`pnpm run release` with NPM_CONFIG_PROVENANCE'],
      ['NODE_AUTH_TOKEN: "${{ secrets.NPM_TOKEN }}"', 'npm run publish', '`npm run publish` with NODE_AUTH_TOKEN'],
    ] as const) {
      const found = recordsWith(RULE, [action, release(env, command)]);
      expect(found.map((r) => `${r.finding.file}:${r.finding.line} ${r.finding.severity}`), command).toEqual(['.github/workflows/release.yml:15 LOW']);
      expect(found[0]?.finding.description).toContain(evidence);
    }
  });

  it('negative: a test step with no provenance, a token given to an install, a rehearsal', () => {
    for (const [env, command] of [
      ['CI: true', 'npm test'],
      ['NODE_AUTH_TOKEN: "${{ secrets.NPM_TOKEN }}"', 'npm ci'],
      ['NPM_CONFIG_PROVENANCE: true', 'pnpm run release --dry-run'],
    ] as const) {
      expect(scanWith(RULE, [action, release(env, command)]), command).toEqual([]);
    }
  });
});

describe(`${RULE}: a restore goreleaser deletes before it builds`, () => {
  const release = (paths: string, steps: string) => yaml`
    on:
      push:
        tags: ['v*']
    permissions: { contents: write }
    jobs:
      release:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - uses: actions/cache@v4
            with:
              path: ${paths}
              key: dist-\${{ github.sha }}
              restore-keys: dist-
${steps.split('\n').map((l) => `          ${l}`).join('\n')}
  `;
  const action = (args: string, more = '') => `- uses: goreleaser/goreleaser-action@v6\n  with:\n    args: ${args}${more}`;

  it('negative: `goreleaser release --clean` (or `--rm-dist`) deletes dist/ before building, so a restore of dist/ alone ships nothing', () => {
    for (const [paths, steps] of [
      ['dist', '- run: goreleaser release --clean'],
      ['./dist/', '- run: |\n    go mod download\n    goreleaser release \\\n      --clean --timeout 60m'],
      ['|\n                dist/**\n                !dist/keep', action('release --rm-dist')],
      ['dist/linux_amd64', '- uses: actions/setup-go@v5\n  with:\n    cache: false\n- run: go test ./...\n' + action('release --clean')],
      ['app/dist', action('release --clean', '\n    workdir: app')],
      ['app/dist', '- run: goreleaser release --clean\n  working-directory: app'],
    ]) expect(scanWith(RULE, release(paths as string, steps as string)), `${paths} ${steps}`).toEqual([]);
  });

  it('positive: a run that keeps dist/, a path outside it, a step reading dist/ first, another directory, a skipped release', () => {
    for (const [paths, steps] of [
      ['dist', '- run: goreleaser release'],
      ['|\n                dist\n                ~/go/pkg/mod', '- run: goreleaser release --clean'],
      ['dist', '- run: cp dist/tool /usr/local/bin/ && tool generate\n- run: goreleaser release --clean'],
      ['dist', '- uses: ./.github/actions/prepare\n- run: goreleaser release --clean'],
      ['dist', action('release --clean', '\n    workdir: app')],
      ['dist', '- run: cd app && goreleaser release --clean'],
      ['dist', '- run: goreleaser release --clean\n  if: github.event_name == \'push\'\n- run: gh release upload "$GITHUB_REF_NAME" dist/*.tar.gz'],
      ['build', '- run: goreleaser release --clean'],
    ]) expect(positions(scanWith(RULE, release(paths as string, steps as string))), `${paths} ${steps}`).toEqual(['10:15 LOW']);
  });
});

describe(`${RULE}: which restore and which writer the description names`, () => {
  const deps = { path: '.github/actions/deps/action.yml', text: yaml`
    name: deps
    runs:
      using: composite
      steps:
        - uses: actions/setup-node@v4
          with:
            node-version: 20
        - uses: actions/cache@v4
          with:
            path: node_modules
            key: deps-\${{ hashFiles('package-lock.json') }}
        - run: npm ci
          shell: bash
  ` };
  const outer = { path: '.github/actions/outer/action.yml', text: yaml`
    name: outer
    runs:
      using: composite
      steps:
        - run: echo setting up
          shell: bash
        - uses: ./.github/actions/deps
  ` };
  const publish = (action: string) => ({ path: '.github/workflows/publish.yml', text: yaml`
    on:
      push:
        tags: ['v*']
    jobs:
      publish:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - uses: ${action}
          - run: npm publish
            env:
              NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
  ` });
  const writer = (file: string, job: string, steps: string, extra = '') => ({ path: `.github/workflows/${file}`, text: yaml`
    on: pull_request_target
    jobs:
      ${job}:
        runs-on: ubuntu-latest${extra}
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.sha }}
          ${steps}
  ` });
  const lint = writer('a-lint.yml', 'lint', '- run: npm test');
  const preview = writer('b-preview.yml', 'preview', '- uses: ./.github/actions/deps\n          - run: npm run build');
  const release = (files: { path: string; text: string }[]) => scanWith(RULE, files).filter((f) => f.file === '.github/workflows/publish.yml');

  it("counts a nested composite action's step in its own file, and a directly called one's as before", () => {
    const nested = release([deps, outer, publish('./.github/actions/outer'), lint]);
    expect(positions(nested)).toEqual(['9:15 HIGH']);
    expect(nested[0]?.description).toContain('(local action `./.github/actions/outer`, which calls `.github/actions/deps/action.yml`, whose step 2 (line 8) restores a cache');
    const direct = release([deps, publish('./.github/actions/deps'), lint]);
    expect(direct[0]?.description).toContain('(local action `./.github/actions/deps`, whose step 2 restores a cache');
    expect(direct[0]?.description).not.toContain('which calls');
  });

  it('names the job that runs the outsider\'s code through the same composite action as the writer, before one with no cache step', () => {
    const both = release([deps, publish('./.github/actions/deps'), lint, preview]);
    expect(positions(both)).toEqual(['9:15 HIGH']);
    expect(both[0]?.description).toContain('and `.github/workflows/b-preview.yml` (job `preview`) checks out pull request code');
    // Without it, the job that runs the outsider's code with no cache step is the writer named.
    const alone = release([deps, publish('./.github/actions/deps'), lint]);
    expect(alone[0]?.description).toContain('and `.github/workflows/a-lint.yml` (job `lint`) checks out pull request code');
  });

  it('keeps the wording conditional when the writer is behind an environment whose reviewers could not be checked', () => {
    const gated = writer('a-lint.yml', 'lint', '- run: npm test', '\n        environment: pr-tests');
    const found = release([deps, publish('./.github/actions/deps'), gated]);
    expect(positions(found)).toEqual(['9:15 MEDIUM']);
    expect(found[0]?.description).toContain("so an outsider can write those entries unless that environment's reviewers stop the run");
    expect(found[0]?.description).not.toContain("by pushing after a maintainer's approval");
  });
});
