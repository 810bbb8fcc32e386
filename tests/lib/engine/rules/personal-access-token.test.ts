import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'personal-access-token';

describe(RULE, () => {
  it('reports PAT-named secrets passed as a token, at the expression, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        bump:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
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
    expect(positions(records.map((r) => r.finding))).toEqual(['8:18 MEDIUM', '11:21 MEDIUM', '12:46 MEDIUM', '15:18 MEDIUM']);
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
    `))).toEqual(['3:10 MEDIUM', '8:12 MEDIUM']);
  });

  it('does not report the job token, other tokens, tests of a PAT, or other services\' PATs', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          if: \${{ secrets.BOT_PAT != '' }}
          steps:
            - uses: actions/checkout@v4
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
    `))).toEqual(['8:25 MEDIUM']);
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
              - uses: actions/checkout@v4
                with:
                  token: \${{ secrets.RELEASE_PAT }}
        `,
      },
    ]))).toEqual(['7:16 MEDIUM']);
  });

  it('does not throw on odd shapes', () => {
    const odd = [
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps: 3\n',
      'on: push\nenv: [a]\njobs:\n  a:\n    runs-on: x\n    env: 7\n    container: {image: x, credentials: {password: 5}}\n    services: {db: 3}\n    steps:\n      - 1\n      - run: 42\n        env: {A: {b: c}, B: [1], C: null, PASSWORD: 98765432}\n      - run: ""\n      - uses: actions/checkout@v4\n        with: {persist-credentials: {a: 1}, path: [x], token: [1]}\n      - uses: actions/upload-artifact@v3\n        with: {path: {a: b}}\n      - uses: pypa/gh-action-pypi-publish@v1\n        with: {password: {x: 1}, repository-url: [1]}\n      - uses: actions/create-github-app-token@v1\n        with: {owner: {a: b}, skip-token-revoke: [true]}\n      - uses: tibdex/github-app-token@v1\n        with: 5\n      - uses: actions/github-script@v7\n        with: {script: [1]}\n',
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: "echo ${{ secrets.X"\n      - run: "X=$(echo ${{ }} ${ $(( <<EOF"\n',
    ];
    for (const text of odd) expect(() => scanWith(RULE, text)).not.toThrow();
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
