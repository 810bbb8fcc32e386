import { describe, expect, it } from 'vitest';
import { isCredentialName } from '../../../../lib/engine/rules/overprovisioned-secrets.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'overprovisioned-secrets';

describe(RULE, () => {
  it('reports toJSON(secrets) and computed secret names at the expression, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        dump:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo start
                ./deploy --config '\${{ toJSON(secrets) }}'
            - env:
                TOKEN: \${{ secrets[format('{0}_TOKEN', matrix.target)] }}
              run: ./push
            - run: ./ok --token "\${{ secrets.DEPLOY_TOKEN }}" --other "\${{ secrets['NAMED'] }}"
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:30 LOW', '10:18 LOW']);
    expect(records.map((r) => r.job)).toEqual(['dump', 'dump']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('every secret');
    expect(records[1]?.finding.description).toContain('computed name');
  });

  it('reports toJSON(secrets) handed to a reusable workflow in with: or secrets:, naming the called workflow', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        call:
          uses: org/repo/.github/workflows/deploy.yml@v1
          with:
            all: \${{ toJSON(secrets) }}
          secrets:
            bundle: \${{ toJSON(secrets) }}
        named:
          uses: org/repo/.github/workflows/deploy.yml@v1
          with:
            one: \${{ toJSON(secrets.ONE) }}
          secrets:
            token: \${{ secrets.DEPLOY_TOKEN }}
        inherit:
          uses: ./.github/workflows/local.yml
          secrets: inherit
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['6:12 MEDIUM', '8:15 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual(['call', 'call']);
    expect(records[0]?.finding.description).toBe(
      '`${{ toJSON(secrets) }}` hands every secret of the repository to the reusable workflow `org/repo/.github/workflows/deploy.yml@v1`, not just the ones it needs.',
    );
  });

  it('reports secrets mapped into the workflow-level env of a multi-job workflow, unbound', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      env:
        NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
        GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}
        LEVEL: debug
        HAS_KEY: \${{ secrets.KEY != '' }}
      jobs:
        a: { runs-on: x, steps: [{ run: a }] }
        b: { runs-on: x, steps: [{ run: b }] }
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 LOW']);
    expect(records[0]?.job).toBeNull();
    expect(records[0]?.finding.description).toContain('`NPM_TOKEN`');
  });

  it('does not report the workflow env of a single-job workflow, which is that job\'s env', () => {
    expect(scanWith(RULE, yaml`
      on: push
      env:
        NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
      jobs:
        publish: { runs-on: x, steps: [{ run: npm publish }] }
    `)).toEqual([]);
  });

  it("does not count jobs that call reusable workflows, which never receive the caller's env", () => {
    const workflow = (second: string) => yaml`
      on: workflow_dispatch
      env:
        ASANA_PAT: \${{ secrets.ASANA_ACCESS_TOKEN }}
      jobs:
        store: { uses: ./.github/workflows/store.yml }
        internal:
          needs: store
          ${second}
    `;
    expect(scanWith(RULE, workflow('uses: ./.github/workflows/internal.yml'))).toEqual([]);
    // One job with steps beside the call: the env is that job's own, as in a single-job workflow.
    expect(scanWith(RULE, workflow('runs-on: x\n          steps: [{ run: make }]'))).toEqual([]);
    // Two jobs with steps: both receive it.
    expect(scanWith(RULE, yaml`
      on: workflow_dispatch
      env:
        ASANA_PAT: \${{ secrets.ASANA_ACCESS_TOKEN }}
      jobs:
        store: { uses: ./.github/workflows/store.yml }
        a: { runs-on: x, steps: [{ run: make a }] }
        b: { runs-on: x, steps: [{ run: make b }] }
    `).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('reports toJSON(secrets) outside jobs and in composite actions', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      run-name: \${{ toJSON(secrets) }}
      jobs: {}
    `))).toEqual(['2:11 LOW']);
    const findings = scanWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          name: x
          runs:
            using: composite
            steps:
              - run: echo "\${{ join(secrets) }}"
                shell: bash
        `,
      },
    ]);
    expect(positions(findings)).toEqual(['5:18 LOW']);
  });

  it('does not report workflow-level env secrets that are no credential (user names, regions, channels)', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      env:
        DOCKER_USER: \${{ secrets.DOCKER_USR }}
        TURBO_TEAM: \${{ secrets.TURBO_TEAM }}
        SLACK_CHANNEL: \${{ secrets.CI_PUSH_MAIN_CHANNEL }}
        IS_FORK: \${{ secrets.IS_FORK }}
        AWS_REGION: \${{ secrets.AWS_REGION }}
        TURBO_TOKEN: \${{ secrets.TURBO_TOKEN }}
        CROSSREF_EMAIL: \${{ secrets.CROSSREF_EMAIL_FOR_TESTS }}
        API_TOKEN: \${{ secrets.SERVICE_FOR_TESTS }}
      jobs:
        a: { runs-on: x, steps: [{ run: a }] }
        b: { runs-on: x, steps: [{ run: b }] }
    `);
    // The env name speaks too: an e-mail kept in a secret with a suffix is still an e-mail; a token named so is a token.
    expect(findings.map((f) => f.description.split(' ')[1])).toEqual(['`TURBO_TOKEN`', '`SERVICE_FOR_TESTS`']);
  });

  it('treats secrets with credential words, or unknown names, as credentials', () => {
    for (const name of ['NPM_TOKEN', 'LOW_PRIV_PAT', 'TEST_INFRA_PROVIDER_AUTH', 'SIGNING_KEY', 'DEPLOY_PASSWORD', 'SENTRY_DSN', 'MYSTERY']) {
      expect(isCredentialName(name), name).toBe(true);
    }
    for (const name of ['DOCKER_USR', 'DOCKERHUB_USERNAME', 'PKG_APPLE_DEVELOPER_TEAM_ID', 'GCP_PROJECT_ID', 'AWS_REGION', 'IS_FORK', 'REGISTRY_URL']) {
      expect(isCredentialName(name), name).toBe(false);
    }
  });

  it("takes a key's id for the name of a key, not a credential; the key beside it is one", () => {
    for (const [name, as] of [['SIGNING_KEY_ID', undefined], ['ORG_GRADLE_PROJECT_SIGNINGKEYID', 'ORG_GRADLE_PROJECT_signingInMemoryKeyId'], ['AWS_ACCESS_KEY_ID', 'AWS_ACCESS_KEY_ID']] as const) {
      expect(isCredentialName(name, as), name).toBe(false);
    }
    expect(isCredentialName('ORG_GRADLE_PROJECT_SIGNINGKEY', 'ORG_GRADLE_PROJECT_signingInMemoryKey')).toBe(true);
    expect(isCredentialName('AWS_SECRET_ACCESS_KEY')).toBe(true);
    // Given under a key's name, a secret whose own name says nothing of an id is still one.
    expect(isCredentialName('AWS_KEY', 'AWS_ACCESS_KEY_ID')).toBe(true);
    const workflow = (name: string) => `on: push\nenv:\n  ${name}: \${{ secrets.${name} }}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps: [{ run: make }]\n  b:\n    runs-on: ubuntu-latest\n    steps: [{ run: make test }]\n`;
    expect(scanWith(RULE, workflow('SIGNING_KEY_ID'))).toEqual([]);
    expect(scanWith(RULE, workflow('SIGNING_KEY')).map((f) => f.severity)).toEqual(['LOW']);
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
            - run: echo "\${{ toJSON(secrets) }}" > /dev/null
            - run: ${extra}
    `;
    const outsider = scanWith('overprovisioned-secrets', workflow('issues', 'echo "${{ github.event.issue.title }}"'));
    expect(outsider.length).toBeGreaterThan(0);
    expect(outsider.every((f) => f.severity === 'MEDIUM')).toBe(true);
    expect(outsider[0]?.description).toContain('An outsider\'s code or text runs');
    const trusted = scanWith('overprovisioned-secrets', workflow('issues', 'make'));
    expect(trusted.length).toBe(outsider.length);
    expect(trusted.every((f) => f.severity === 'LOW')).toBe(true);
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
});
