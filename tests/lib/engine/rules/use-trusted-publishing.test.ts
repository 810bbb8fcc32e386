import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'use-trusted-publishing';

describe(RULE, () => {
  it('reports publishing actions given a token secret, at the secret, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: release
      jobs:
        pypi:
          runs-on: ubuntu-latest
          steps:
            - uses: pypa/gh-action-pypi-publish@release/v1
              with:
                password: \${{ secrets.PYPI_API_TOKEN }}
            - uses: pypa/gh-action-pypi-publish@release/v1
        npm:
          runs-on: ubuntu-latest
          steps:
            - uses: JS-DevTools/npm-publish@v3
              with:
                token: \${{ secrets.NPM_TOKEN }}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:21 INFO', '15:18 INFO']);
    expect(records.map((r) => r.job)).toEqual(['pypi', 'npm']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('publishes to PyPI with the long-lived token `secrets.PYPI_API_TOKEN`');
    expect(records[0]?.finding.recommendation).toContain('trusted publisher on PyPI');
  });

  it('reports publish commands that authenticate with a token from env or the script', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      env:
        CARGO_REGISTRY_TOKEN: \${{ secrets.CRATES_TOKEN }}
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            - run: npm publish --access public
              env:
                NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
            - run: python -m twine upload dist/*
              env:
                TWINE_USERNAME: __token__
                TWINE_PASSWORD: \${{ secrets.PYPI_TOKEN }}
            - run: cargo publish
            - run: gem push *.gem
              env:
                GEM_HOST_API_KEY: \${{ secrets.RUBYGEMS_KEY }}
            - run: dotnet nuget push out/*.nupkg --api-key \${{ secrets.NUGET_KEY }} --source https://api.nuget.org/v3/index.json
            - run: |
                echo "//registry.npmjs.org/:_authToken=$TOKEN" > ~/.npmrc
                pnpm -r publish
              env:
                TOKEN: \${{ secrets.ORG_NPM_TOKEN }}
    `);
    expect(positions(findings)).toEqual(['10:28 INFO', '14:27 INFO', '15:14 INFO', '18:29 INFO', '19:54 INFO', '24:18 INFO']);
    expect(findings.map((f) => f.description.split(' with ')[0])).toEqual([
      'This step publishes to npm',
      'This step publishes to PyPI',
      'This step publishes to crates.io',
      'This step publishes to RubyGems',
      'This step publishes to NuGet',
      'This step publishes to npm',
    ]);
  });

  it('does not report OIDC publishing, private registries, dry runs or the job token', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        release:
          runs-on: ubuntu-latest
          permissions:
            id-token: write
          steps:
            - uses: actions/setup-node@v4
              with:
                registry-url: https://npm.pkg.github.com
            - run: npm publish
              env:
                NODE_AUTH_TOKEN: \${{ secrets.GITHUB_TOKEN }}
            - run: npm publish
              env:
                NODE_AUTH_TOKEN: \${{ secrets.GH_PACKAGES_PAT }}
            - uses: pypa/gh-action-pypi-publish@release/v1
            - uses: pypa/gh-action-pypi-publish@release/v1
              with:
                repository-url: https://pypi.internal.example.com/legacy/
                password: \${{ secrets.INTERNAL_PYPI }}
            - run: cargo publish --dry-run
              env:
                CARGO_REGISTRY_TOKEN: \${{ secrets.CRATES_TOKEN }}
            - run: cargo publish --registry internal --token \${{ secrets.INTERNAL_CRATES }}
            - run: make -C npm publish
              env:
                NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
            - run: npm publish --registry http://localhost:4873/
              env:
                NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
            - run: dotnet nuget push x.nupkg --api-key \${{ secrets.GITHUB_TOKEN }} --source https://nuget.pkg.github.com/org/index.json
            - uses: rubygems/release-gem@v1
    `)).toEqual([]);
  });

  it('reports a publish command in a job that cannot mint an OIDC token, whatever wraps it', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        release:
          runs-on: ubuntu-latest
          permissions:
            contents: read
          steps:
            - run: gem push foo-0.1.0.gem
            - run: bundle exec gem push foo-0.1.0.gem
            - run: |
                python3.10 -m \\
                  twine \\
                  upload dist/*
            - run: pipx run twine==6.1.0 upload dist/*
            - run: nuget.exe push foo.nupkg
            - run: dotnet nuget push foo.nupkg
            - run: bunx npm publish
            - run: bun publish --access public
            - run: cargo publish
      `);
    expect(positions(findings)).toEqual(['8:14 INFO', '9:14 INFO', '11:11 INFO', '14:14 INFO', '15:14 INFO', '16:14 INFO', '17:14 INFO', '18:14 INFO', '19:14 INFO']);
    expect(findings[0]?.description).toBe(
      'This step publishes to RubyGems from a job that is not granted `id-token: write`, so it cannot be using trusted publishing: the upload authenticates with a long-lived token set up outside this step (a secret, a credentials file or an earlier login); RubyGems supports trusted publishing.',
    );
    expect(findings.map((f) => f.description.split(' from ')[0])).toEqual([
      'This step publishes to RubyGems',
      'This step publishes to RubyGems',
      'This step publishes to PyPI',
      'This step publishes to PyPI',
      'This step publishes to NuGet',
      'This step publishes to NuGet',
      'This step publishes to npm',
      'This step publishes to npm',
      'This step publishes to crates.io',
    ]);
  });

  it('does not report a publish command without a token where OIDC may be granted or the caller decides', () => {
    const publish = '- run: npm publish\n            - run: bun publish --dry-run';
    expect(scanWith(RULE, yaml`
      on: push
      permissions:
        id-token: write
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            ${publish}
        all:
          runs-on: ubuntu-latest
          permissions: write-all
          steps:
            ${publish}
        computed:
          runs-on: ubuntu-latest
          permissions: \${{ fromJSON(vars.PERMISSIONS) }}
          steps:
            ${publish}
    `)).toEqual([]);
    // Another tool's publish, run through the package manager (a preview service), is not the registry's.
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        preview:
          runs-on: ubuntu-latest
          steps:
            - run: pnpm dlx pkg-pr-new@0.0 publish --compact
            - run: npm exec -- some-tool publish
            - run: pnpm run publish
    `)).toEqual([]);
    // A reusable workflow without permissions gets its caller's token, which may carry id-token.
    expect(scanWith(RULE, yaml`
      on: workflow_call
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            - run: npm publish
    `)).toEqual([]);
    // Without a permissions block at any level no job of a push workflow can mint one.
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            - run: npm publish
    `))).toEqual(['6:14 INFO']);
  });

  it('knows changesets, maturin and the RubyGems actions', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        release:
          runs-on: ubuntu-latest
          env:
            NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
            MATURIN_PYPI_TOKEN: \${{ secrets.PYPI }}
          steps:
            - uses: changesets/action@v1
              with:
                publish: pnpm release
            - uses: PyO3/maturin-action@v1
              with:
                command: upload
                args: --non-interactive dist/*
            - uses: rubygems/configure-rubygems-credentials@v1
              with:
                api-token: \${{ secrets.RUBYGEMS_API_KEY }}
            - uses: rubygems/release-gem@v1
              with:
                setup-trusted-publisher: false
              env:
                GEM_HOST_API_KEY: \${{ secrets.RUBYGEMS_API_KEY }}
    `);
    expect(positions(findings)).toEqual(['9:15 INFO', '12:15 INFO', '18:22 INFO', '19:15 INFO']);
  });

  it("follows a composite action's token input to the secret its callers pass", () => {
    const action = {
      path: '.github/actions/publish/action.yml',
      text: yaml`
        name: publish
        inputs:
          token: { required: true }
        runs:
          using: composite
          steps:
            - uses: pypa/gh-action-pypi-publish@release/v1
              with:
                password: \${{ inputs.token }}
            - run: npm publish
              shell: bash
              env:
                NODE_AUTH_TOKEN: \${{ inputs.token }}
      `,
    };
    const caller = (token: string) => ({
      path: '.github/workflows/release.yml',
      text: `on: release\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: ./.github/actions/publish\n        with:\n          token: ${token}\n`,
    });
    const records = recordsWith(RULE, [action, caller('${{ secrets.PYPI_TOKEN }}')]);
    expect(records.map((r) => `${r.finding.file} ${positions([r.finding])[0] ?? ''}`)).toEqual([
      '.github/actions/publish/action.yml 9:19 INFO',
      '.github/actions/publish/action.yml 13:26 INFO',
    ]);
    expect(records.map((r) => r.job)).toEqual([null, null]);
    expect(records[0]?.finding.description).toContain('`secrets.PYPI_TOKEN`');
    expect(recordsWith(RULE, [action, caller('${{ github.token }}')])).toEqual([]);
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
