import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'github-app-token-misuse';

describe(RULE, () => {
  it('reports skip-token-revoke, an owner without repositories and missing permissions, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        sync:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/create-github-app-token@v2
              with:
                app-id: \${{ vars.APP_ID }}
                private-key: \${{ secrets.APP_KEY }}
                owner: \${{ github.repository_owner }}
                skip-token-revoke: true
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['6:15 LOW', '10:18 LOW', '11:30 LOW']);
    expect(records.map((r) => r.job)).toEqual(['sync', 'sync', 'sync']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records.map((r) => r.finding.description.split(' ')[0])).toEqual(['The', '`owner:', '`skip-token-revoke:']);
  });

  it('accepts a token scoped to named repositories and permissions', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        sync:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/create-github-app-token@v2
              with:
                app-id: \${{ vars.APP_ID }}
                private-key: \${{ secrets.APP_KEY }}
                owner: my-org
                repositories: docs,website
                permission-contents: write
                skip-token-revoke: false
            - uses: actions/create-github-app-token@v2
              with:
                client-id: \${{ vars.CLIENT_ID }}
                private-key: \${{ secrets.APP_KEY }}
                permission-issues: write
                skip-token-revoke: \${{ inputs.keep }}
    `)).toEqual([]);
  });

  it('does not report an owner-wide token that only requests organisation permissions', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        sync:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/create-github-app-token@v2
              with:
                app-id: \${{ vars.APP_ID }}
                private-key: \${{ secrets.APP_KEY }}
                owner: my-org
                permission-members: read
                permission-organization-projects: write
    `)).toEqual([]);
    // One repository permission is enough to reach every repository of the owner.
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        sync:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/create-github-app-token@v2
              with:
                app-id: \${{ vars.APP_ID }}
                private-key: \${{ secrets.APP_KEY }}
                owner: my-org
                permission-members: read
                permission-contents: write
    `);
    expect(findings.map((f) => f.description.split(' ')[0])).toEqual(['`owner:']);
  });

  it('reports tibdex/github-app-token without scoping or with revoke: false', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps:
            - uses: tibdex/github-app-token@v2
              with:
                app_id: \${{ vars.APP_ID }}
                private_key: \${{ secrets.APP_KEY }}
                revoke: false
            - uses: tibdex/github-app-token@v2
              with:
                app_id: \${{ vars.APP_ID }}
                private_key: \${{ secrets.APP_KEY }}
                repositories: '["org/repo"]'
                permissions: '{"contents": "write"}'
    `);
    expect(positions(findings)).toEqual(['6:15 LOW', '10:19 LOW']);
    expect(findings[0]?.description).toContain('every repository of the installation');
  });

  it('checks composite-action steps and survives odd shapes', () => {
    expect(positions(scanWith(RULE, [
      {
        path: '.github/actions/token/action.yml',
        text: yaml`
          name: token
          runs:
            using: composite
            steps:
              - uses: actions/create-github-app-token@v2
                with: \${{ fromJSON(inputs.options) }}
              - uses: actions/create-github-app-token@v2
                with:
                  owner: [a, b]
                  permission-contents: read
              - uses: actions/create-github-app-token@v2
        `,
      },
    ]))).toEqual(['11:13 LOW']);
  });

  it('does not throw on odd shapes', () => {
    const odd = [
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps: 3\n',
      'on: push\nenv: [a]\njobs:\n  a:\n    runs-on: x\n    env: 7\n    container: {image: x, credentials: {password: 5}}\n    services: {db: 3}\n    steps:\n      - 1\n      - run: 42\n        env: {A: {b: c}, B: [1], C: null, PASSWORD: 98765432}\n      - run: ""\n      - uses: actions/checkout@v3\n        with: {persist-credentials: {a: 1}, path: [x], token: [1]}\n      - uses: actions/upload-artifact@v3\n        with: {path: {a: b}}\n      - uses: pypa/gh-action-pypi-publish@v1\n        with: {password: {x: 1}, repository-url: [1]}\n      - uses: actions/create-github-app-token@v1\n        with: {owner: {a: b}, skip-token-revoke: [true]}\n      - uses: tibdex/github-app-token@v1\n        with: 5\n      - uses: actions/github-script@v7\n        with: {script: [1]}\n',
      'on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: "echo ${{ secrets.X"\n      - run: "X=$(echo ${{ }} ${ $(( <<EOF"\n',
    ];
    for (const text of odd) expect(() => scanWith(RULE, text)).not.toThrow();
  });

  it('is MEDIUM only where an outsider\'s code or text runs in the job (the severity policy), LOW otherwise', () => {
    const workflow = (trigger: string, extra: string) => yaml`
      on: ${trigger}
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/create-github-app-token@v2
              with:
                app-id: \${{ vars.APP_ID }}
                private-key: \${{ secrets.APP_KEY }}
            - run: ${extra}
    `;
    const outsider = scanWith(RULE, workflow('issues', 'echo "${{ github.event.issue.title }}"'));
    expect(outsider.length).toBeGreaterThan(0);
    expect(outsider.every((f) => f.severity === 'MEDIUM')).toBe(true);
    expect(outsider[0]?.description).toContain('An outsider\'s code or text runs');
    const trusted = scanWith(RULE, workflow('issues', 'make'));
    expect(trusted.length).toBe(outsider.length);
    expect(trusted.every((f) => f.severity === 'LOW')).toBe(true);
  });

  it("is LOW where the pull request's code runs only as a maintainer's label approved it (the label event's head SHA), MEDIUM where later pushes run too", () => {
    const workflow = (types: string, ref: string) => yaml`
      on:
        pull_request_target:
          types: ${types}
      jobs:
        cloud:
          if: github.event.label.name == 'ci-run-cloud'
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with: { ref: "${ref}" }
            - uses: actions/create-github-app-token@v2
              with:
                app-id: \${{ vars.APP_ID }}
                private-key: \${{ secrets.APP_KEY }}
            - run: make test
    `;
    const pinned = scanWith(RULE, workflow('[labeled]', '${{ github.event.pull_request.head.sha }}'));
    expect(pinned.map((f) => f.severity)).toEqual(['LOW']);
    expect(pinned[0]?.description).toContain("a maintainer approves each run first (`github.event.label.name == 'ci-run-cloud'`). LOW: what runs is what a maintainer approved.");
    // The branch, resolved when the job runs: a push made after the label runs too.
    expect(scanWith(RULE, workflow('[labeled]', 'refs/pull/${{ github.event.pull_request.number }}/head')).map((f) => f.severity)).toEqual(['MEDIUM']);
  });
});

describe(`${RULE}: a token handed to an AI agent that anyone starts`, () => {
  const wf = (condition: string, env: string) => yaml`
    on:
      issues:
        types: [opened]
    jobs:
      triage:
        if: ${condition}
        runs-on: ubuntu-latest
        permissions:
          contents: read
        steps:
          - id: app
            uses: actions/create-github-app-token@v2
            with:
              app-id: \${{ vars.APP_ID }}
              private-key: \${{ secrets.APP_PRIVATE_KEY }}
          - uses: google-github-actions/run-gemini-cli@v0
            env:
              GITHUB_TOKEN: ${env}
              ISSUE_BODY: \${{ github.event.issue.body }}
            with:
              gemini_api_key: \${{ secrets.GEMINI_API_KEY }}
              prompt: Label the issue.
  `;

  it('is MEDIUM, naming the agent: an instruction hidden in the issue acts with every permission of the installation', () => {
    const found = scanWith(RULE, wf('true', '${{ steps.app.outputs.token }}'));
    expect(found.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(found[0]?.description).toContain('The token is handed to step 2 of job `triage`, Gemini CLI');
  });

  it('negative: the agent is not given the token, or only a member starts it', () => {
    expect(scanWith(RULE, wf('true', '${{ github.token }}')).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith(RULE, wf("github.event.issue.author_association == 'MEMBER'", '${{ steps.app.outputs.token }}')).map((f) => f.severity)).toEqual(['LOW']);
  });
});
