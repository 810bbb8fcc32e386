import { describe, expect, it } from 'vitest';
import { callSecrets, durableHoldings, holdingStrength, holdsSecrets, jobHoldings, nothingHeldText, readOnlyToken, stepSecrets, stepMinor, valuables } from '../../../../../lib/engine/analysis/run-model/holdings.js';
import { isChatWebhookName, isIdentifierName } from '../../../../../lib/engine/analysis/secrets.js';
import { buildWorkflow, type Job } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import type { YMap } from '../../../../../lib/engine/yaml/model.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { yaml } from '../../../../support/engine.js';

function jobs(text: string): Map<string, Job> {
  const parsed = parseYaml(text);
  if (!parsed.ok) throw new Error('bad yaml');
  const workflow = buildWorkflow(new SourceFile('.github/workflows/w.yml', text), parsed.root as YMap);
  return new Map(workflow.jobs.map((j) => [j.id, j]));
}

describe('how much a job holds, for a compromised upstream', () => {
  const found = jobs(yaml`
    on: push
    jobs:
      secret:
        runs-on: ubuntu-latest
        permissions: { contents: read }
        steps:
          - run: make
            env:
              TOKEN: \${{ secrets.TOKEN }}
      write:
        runs-on: ubuntu-latest
        permissions: { packages: write }
        steps: [{ run: make }]
      oidc:
        runs-on: ubuntu-latest
        permissions: { id-token: write }
        steps: [{ run: make }]
      machine:
        runs-on: self-hosted
        permissions: {}
        steps: [{ run: make }]
      publish:
        runs-on: ubuntu-latest
        permissions: { contents: read }
        steps: [{ run: npm publish }]
      default:
        runs-on: ubuntu-latest
        steps: [{ run: make }]
      readonly:
        runs-on: ubuntu-latest
        permissions: { contents: read, pull-requests: write }
        steps: [{ run: make }]
  `);
  const strength = (id: string, defaultToken: 'read' | 'write' | null = null) => holdingStrength(jobHoldings(found.get(id)!), defaultToken);

  it('a secret, a write scope that hands something over, OIDC, a self-hosted machine or a publish is valuable', () => {
    expect(['secret', 'write', 'oidc', 'machine', 'publish'].map((id) => strength(id))).toEqual(['valuable', 'valuable', 'valuable', 'valuable', 'valuable']);
  });

  it('a default token alone depends on the settings; a read-only token (or a scope that hands nothing over) is nothing', () => {
    expect(strength('default')).toBe('default-token');
    expect(strength('default', 'write')).toBe('valuable');
    expect(strength('default', 'read')).toBe('none');
    expect(strength('readonly')).toBe('none');
  });
});

describe('which secrets reach a step itself', () => {
  const found = jobs(yaml`
    on: push
    env:
      WORKFLOW_WIDE: \${{ secrets.WIDE }}
    jobs:
      build:
        runs-on: ubuntu-latest
        env:
          JOB_WIDE: \${{ secrets.JOB }}
        steps:
          - uses: some/action@v1
            with:
              token: \${{ secrets.INPUT }}
              gh: \${{ secrets.GITHUB_TOKEN }}
          - uses: some/other@v1
          - run: make
            env:
              ONLY_HERE: \${{ secrets.ELSEWHERE }}
      call:
        uses: org/repo/.github/workflows/x.yml@v1
        with:
          value: \${{ secrets.PASSED }}
        secrets:
          key: \${{ secrets.KEY }}
  `);

  it("a step's with: and env:, and the job's and workflow's env:, never GITHUB_TOKEN", () => {
    const steps = found.get('build')!.steps;
    expect(stepSecrets(steps[0]!)).toEqual(['INPUT', 'JOB', 'WIDE']);
    expect(stepSecrets(steps[1]!)).toEqual(['JOB', 'WIDE']);
    expect(stepSecrets(steps[2]!)).toEqual(['ELSEWHERE', 'JOB', 'WIDE']);
  });

  it("a reusable workflow call's with: and secrets:", () => {
    expect(callSecrets(found.get('call')!)).toEqual(['PASSED', 'KEY', 'WIDE']);
  });
});

describe('names no secret can have, and a default token the job writes with', () => {
  const found = jobs(yaml`
    on: push
    permissions: {}
    jobs:
      invalid:
        uses: org/repo/.github/workflows/x.yml@v1
        secrets:
          special-secret: \${{ secrets.special-secret }}
          reserved: \${{ secrets.GITHUB_SOMETHING }}
          digit: \${{ secrets['1ST'] }}
      valid:
        uses: org/repo/.github/workflows/x.yml@v1
        secrets:
          key: \${{ secrets.SPECIAL_SECRET }}
  `);

  it('a name with a hyphen, a leading digit or the GITHUB_ prefix is no stored secret (GitHub evaluates it to empty)', () => {
    expect(jobHoldings(found.get('invalid')!).secrets).toEqual([]);
    expect(callSecrets(found.get('invalid')!)).toEqual([]);
    expect(holdingStrength(jobHoldings(found.get('invalid')!), null)).toBe('none');
    expect(jobHoldings(found.get('valid')!).secrets).toEqual(['SPECIAL_SECRET']);
    expect(holdingStrength(jobHoldings(found.get('valid')!), null)).toBe('valuable');
  });

  const deploys = jobs(yaml`
    on: push
    jobs:
      pages:
        runs-on: ubuntu-latest
        steps:
          - uses: peaceiris/actions-gh-pages@v4
            with:
              github_token: \${{ secrets.GITHUB_TOKEN }}
              publish_dir: site
      keyed:
        runs-on: ubuntu-latest
        steps:
          - uses: peaceiris/actions-gh-pages@v4
            with:
              deploy_key: \${{ secrets.PAGES_KEY }}
              publish_dir: site
      lint:
        runs-on: ubuntu-latest
        steps:
          - uses: some-org/lint@v1
      envkeyed:
        runs-on: ubuntu-latest
        env:
          PAGES_TOKEN: \${{ secrets.PAGES_PAT }}
        steps:
          - uses: peaceiris/actions-gh-pages@v4
            with:
              github_token: \${{ env.PAGES_TOKEN }}
              publish_dir: site
      envplain:
        runs-on: ubuntu-latest
        env:
          PAGES_TOKEN: \${{ github.token }}
        steps:
          - uses: peaceiris/actions-gh-pages@v4
            with:
              github_token: \${{ env.PAGES_TOKEN }}
              publish_dir: site
  `);
  const strength = (id: string, defaultToken: 'read' | 'write' | null = null) => holdingStrength(jobHoldings(deploys.get(id)!), defaultToken);

  it('a default token that a step deploys or pushes with is read-write here: valuable, unless the settings say read-only', () => {
    expect(jobHoldings(deploys.get('pages')!).tokenWriter).toBe('`peaceiris/actions-gh-pages`');
    expect(strength('pages')).toBe('valuable');
    expect(strength('pages', 'read')).toBe('none');
    // A deploy key, not the job's token: only the secret counts.
    expect(jobHoldings(deploys.get('keyed')!).tokenWriter).toBeNull();
    expect(jobHoldings(deploys.get('lint')!).tokenWriter).toBeNull();
    expect(strength('lint')).toBe('default-token');
  });

  it('an input that reads a secret through an environment variable is handed that secret, not the job token', () => {
    expect(jobHoldings(deploys.get('envkeyed')!).tokenWriter).toBeNull();
    expect(stepSecrets(deploys.get('envkeyed')!.steps[0]!)).toEqual(['PAGES_PAT']);
    // The variable holds the job's own token: the step writes with it.
    expect(jobHoldings(deploys.get('envplain')!).tokenWriter).toBe('`peaceiris/actions-gh-pages`');
    expect(stepSecrets(deploys.get('envplain')!.steps[0]!)).toEqual([]);
  });

  it('a token is read-only when the permissions that apply grant no write scope, or the settings make the default so', () => {
    const tokens = jobs(yaml`
      on: push
      permissions: read-all
      jobs:
        inherits:
          runs-on: x
          steps: [{ run: make }]
        reads:
          runs-on: x
          permissions: { contents: read }
          steps: [{ run: make }]
        none:
          runs-on: x
          permissions: {}
          steps: [{ run: make }]
        writes:
          runs-on: x
          permissions: { contents: read, issues: write }
          steps: [{ run: make }]
        oidc:
          runs-on: x
          permissions: { id-token: write }
          steps: [{ run: make }]
    `);
    for (const id of ['inherits', 'reads', 'none']) expect(readOnlyToken(jobHoldings(tokens.get(id)!), null), id).toBe(true);
    for (const id of ['writes', 'oidc']) expect(readOnlyToken(jobHoldings(tokens.get(id)!), 'read'), id).toBe(false);
    const undeclared = jobs(yaml`
      on: push
      jobs:
        a:
          runs-on: x
          steps: [{ run: make }]
    `).get('a')!;
    expect(readOnlyToken(jobHoldings(undeclared), null)).toBe(false);
    expect(readOnlyToken(jobHoldings(undeclared), 'write')).toBe(false);
    expect(readOnlyToken(jobHoldings(undeclared), 'read')).toBe(true);
  });
});

describe('chat webhooks: held, but not worth taking', () => {
  const found = jobs(yaml`
    on: push
    permissions: { contents: read }
    jobs:
      named:
        runs-on: ubuntu-latest
        steps:
          - run: ./notify.sh "$SLACK_WEBHOOK_URL"
            env:
              SLACK_WEBHOOK_URL: \${{ secrets.SLACK_WEBHOOK_URL }}
              DISCORD: \${{ secrets.DISCORD_WEBHOOK }}
              TEAMS: \${{ secrets.TEAMS_WEBHOOK_URL }}
              MM: \${{ secrets.MATTERMOST_WEBHOOK_URL }}
              CHAT: \${{ secrets.GOOGLE_CHAT_WEBHOOK }}
      keyed:
        runs-on: ubuntu-latest
        steps:
          - run: ./notify.sh "$SLACK_WEBHOOK"
            env:
              SLACK_WEBHOOK: \${{ secrets.SLACK }}
          - uses: sarisia/actions-status-discord@v1
            with:
              webhook: \${{ secrets.NOTIFY }}
      bot:
        runs-on: ubuntu-latest
        steps:
          - uses: slackapi/slack-github-action@v2
            with:
              method: chat.postMessage
              token: \${{ secrets.SLACK_BOT_TOKEN }}
          - run: ./notify.sh "$T"
            env:
              T: \${{ secrets.SLACK_API_TOKEN }}
      both:
        runs-on: ubuntu-latest
        steps:
          - uses: some/notifier@v1
            with:
              webhook: \${{ secrets.HOOK }}
          - run: make
            env:
              SLACK_WEBHOOK: \${{ secrets.SHARED }}
              API_KEY: \${{ secrets.SHARED }}
              NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
  `);
  const held = (id: string) => jobHoldings(found.get(id)!);

  it('a chat platform webhook by its name, or handed only to a webhook name or a notifier\'s `webhook` input, is a webhook: the job holds nothing worth taking', () => {
    expect(held('named').secrets).toEqual([]);
    expect(held('named').webhooks).toEqual(['SLACK_WEBHOOK_URL', 'DISCORD_WEBHOOK', 'TEAMS_WEBHOOK_URL', 'MATTERMOST_WEBHOOK_URL', 'GOOGLE_CHAT_WEBHOOK']);
    expect(held('keyed').webhooks).toEqual(['SLACK', 'NOTIFY']);
    for (const id of ['named', 'keyed']) {
      expect(holdingStrength(held(id), null), id).toBe('none');
      expect(valuables(held(id), null), id).toEqual([]);
      expect(nothingHeldText(held(id)), id).toMatch(/^the job holds only chat webhooks \(.*\), which let someone post to a channel, not push code, publish or read data: no write scope, other secret or OIDC token$/);
    }
    expect(stepSecrets(found.get('keyed')!.steps[1]!)).toEqual([]);
    expect(stepMinor(found.get('keyed')!.steps[1]!).webhooks).toEqual(['NOTIFY']);
  });

  it('a Slack bot or API token is a credential, as is a secret also handed to a credential name, or a `webhook` input of an action that is no chat notifier', () => {
    expect(held('bot').secrets).toEqual(['SLACK_BOT_TOKEN', 'SLACK_API_TOKEN']);
    expect(held('bot').webhooks).toEqual([]);
    expect(holdingStrength(held('bot'), null)).toBe('valuable');
    expect(held('both').secrets).toEqual(['HOOK', 'SHARED', 'NPM_TOKEN']);
    expect(held('both').webhooks).toEqual([]);
    expect(['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'SLACK_WEBHOOK_TOKEN', 'ZAPIER_WEBHOOK_URL', 'WEBHOOK_URL', 'SLACK'].filter(isChatWebhookName)).toEqual([]);
    expect(['SLACK_WEBHOOK', 'slack-webhook', 'SLACK_CLIENT_LIBS_WEBHOOK', 'MS_TEAMS_WEBHOOK_URI', 'GCHAT_WEBHOOK'].every(isChatWebhookName)).toBe(true);
  });
});

describe('coverage upload tokens: held, but not worth taking when kept to themselves or given to their own service', () => {
  const held = (text: string, id = 'test') => jobHoldings(jobs(text).get(id)!);
  const job = (permissions: string, steps: string) => yaml`
    on: push
    permissions: ${permissions}
    jobs:
      test:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
${steps}
  `;

  it('an upload token by its name, or handed only to the token input of its service\'s own action, is one: the job holds nothing worth taking', () => {
    const cases: [string, string][] = [
      ['CODECOV_TOKEN', `
          - uses: codecov/codecov-action@v5
            with:
              token: \${{ secrets.CODECOV_TOKEN }}`],
      ['COV', `
          - uses: codecov/codecov-action@v5
            with:
              token: \${{ secrets.COV }}`],
      ['QLTY_TOKEN', `
          - uses: qltysh/qlty-action/coverage@v2
            with:
              token: \${{ secrets.QLTY_TOKEN }}`],
      ['COVERALLS_REPO_TOKEN', `
          - uses: coverallsapp/github-action@v2
            with:
              github-token: \${{ secrets.COVERALLS_REPO_TOKEN }}`],
      ['CODECOV_TOKEN', `
          - run: ./codecov -t "$CODECOV_TOKEN"
            env:
              CODECOV_TOKEN: \${{ secrets.CODECOV_TOKEN }}`],
      ['CC_TEST_REPORTER_ID', `
          - run: cc-test-reporter after-build
            env:
              CC_TEST_REPORTER_ID: \${{ secrets.CC_TEST_REPORTER_ID }}`],
      // A secret whose own name says nothing, handed to a variable whose name says it (the name of the variable
      // is what tells: secrets.ts reads such hand-offs only where a name or input can say so).
      ['MY_COV', `
          - run: ./codecov
            env:
              CODECOV_TOKEN: \${{ secrets.MY_COV }}`],
    ];
    for (const [secret, steps] of cases) {
      const h = held(job('{ contents: read }', steps));
      expect(h.secrets, secret).toEqual([]);
      expect(h.uploadTokens, secret).toEqual([secret]);
      expect(holdingStrength(h, null), secret).toBe('none');
      expect(valuables(h, null), secret).toEqual([]);
      expect(nothingHeldText(h), secret).toBe(`the job holds only a coverage upload token (\`${secret}\`), which lets someone upload coverage reports for this repository, not push code, publish or read data: no write scope, other secret or OIDC token`);
    }
  });

  it('a CodSpeed token is a benchmark upload token, named as one, and both kinds are named together', () => {
    const h = held(job('{ contents: read }', `
          - uses: CodSpeedHQ/action@v4
            with:
              run: cargo codspeed run
              token: \${{ secrets.CODSPEED_TOKEN }}`));
    expect(h.secrets).toEqual([]);
    expect(h.uploadTokens).toEqual(['CODSPEED_TOKEN']);
    expect(holdingStrength(h, null)).toBe('none');
    expect(nothingHeldText(h)).toBe('the job holds only a benchmark upload token (`CODSPEED_TOKEN`), which lets someone upload benchmark results for this repository, not push code, publish or read data: no write scope, other secret or OIDC token');
    const both = held(job('{ contents: read }', `
          - uses: CodSpeedHQ/action@v4
            with:
              run: cargo codspeed run
              token: \${{ secrets.CODSPEED_TOKEN }}
          - uses: codecov/codecov-action@v5
            with:
              token: \${{ secrets.CODECOV_TOKEN }}`));
    expect(nothingHeldText(both)).toBe('the job holds only upload tokens (`CODSPEED_TOKEN`, `CODECOV_TOKEN`), which let someone upload coverage reports and benchmark results for this repository, not push code, publish or read data: no write scope, other secret or OIDC token');
    // Handed under another name to another party's action, it may serve another purpose there: worth taking.
    const other = held(job('{ contents: read }', `
          - uses: someone/bench@v1
            with:
              api-key: \${{ secrets.CODSPEED_TOKEN }}`));
    expect(other.secrets).toEqual(['CODSPEED_TOKEN']);
    expect(holdingStrength(other, null)).toBe('valuable');
  });

  it('named with a chat webhook when the job holds both', () => {
    const h = held(job('{ contents: read }', `
          - uses: codecov/codecov-action@v5
            with:
              token: \${{ secrets.CODECOV_TOKEN }}
          - uses: slackapi/slack-github-action@v2
            with:
              webhook: \${{ secrets.SLACK_WEBHOOK_URL }}`));
    expect(h.secrets).toEqual([]);
    expect(nothingHeldText(h)).toBe('the job holds only a chat webhook (`SLACK_WEBHOOK_URL`) and a coverage upload token (`CODECOV_TOKEN`), which let someone post to a channel and upload coverage reports for this repository, not push code, publish or read data: no write scope, other secret or OIDC token');
  });

  it('is worth taking once written to $GITHUB_ENV, handed to another party\'s action or another credential\'s name, or when its service is not an upload-only one', () => {
    const cases: [string, string][] = [
      ['CODECOV_TOKEN', `
          - run: echo "CODECOV_TOKEN=\${{ secrets.CODECOV_TOKEN }}" >> "$GITHUB_ENV"
          - uses: codecov/codecov-action@v5`],
      ['CODECOV_TOKEN', `
          - run: echo "TOKEN=$CODECOV_TOKEN" >> $GITHUB_ENV
            env:
              CODECOV_TOKEN: \${{ secrets.CODECOV_TOKEN }}`],
      ['CODECOV_TOKEN', `
          - uses: someone/coverage-uploader@v1
            with:
              token: \${{ secrets.CODECOV_TOKEN }}`],
      ['CODECOV_TOKEN', `
          - uses: someone/test-runner@v1
            with:
              args: --coverage-upload -t \${{ secrets.CODECOV_TOKEN }}`],
      ['COV', `
          - uses: codecov/codecov-action@v5
            with:
              token: \${{ secrets.COV }}
          - run: gh release list
            env:
              GH_TOKEN: \${{ secrets.COV }}`],
      ['TOKEN', `
          - uses: coverallsapp/github-action@v2
            with:
              github-token: \${{ secrets.TOKEN }}`],
      ['SONAR_TOKEN', `
          - uses: SonarSource/sonarqube-scan-action@v5
            env:
              SONAR_TOKEN: \${{ secrets.SONAR_TOKEN }}`],
      ['CODACY_PROJECT_TOKEN', `
          - uses: codacy/codacy-coverage-reporter-action@v1
            with:
              project-token: \${{ secrets.CODACY_PROJECT_TOKEN }}`],
      ['QLTY_TOKEN', `
          - run: qlty check
            env:
              QLTY_TOKEN: \${{ secrets.QLTY_TOKEN }}`],
    ];
    for (const [secret, steps] of cases) {
      const h = held(job('{ contents: read }', steps));
      expect(h.uploadTokens, `${secret}${steps}`).toEqual([]);
      expect(h.secrets, `${secret}${steps}`).toEqual([secret]);
      expect(holdingStrength(h, null), `${secret}${steps}`).toBe('valuable');
    }
  });

  it('a job `env:` hands it to every action of the job under its service\'s name: whoever reads it there holds the same upload token', () => {
    const withEnv = (action: string) => yaml`
      on: push
      permissions: { contents: read }
      jobs:
        test:
          runs-on: ubuntu-latest
          env:
            CODECOV_TOKEN: \${{ secrets.CODECOV_TOKEN }}
          steps:
            - uses: actions/checkout@v3
            - uses: ${action}
            - uses: codecov/codecov-action@v5
    `;
    expect(held(withEnv('actions/setup-node@v4')).uploadTokens).toEqual(['CODECOV_TOKEN']);
    expect(held(withEnv('some/linter@v1')).uploadTokens).toEqual(['CODECOV_TOKEN']);
    expect(held(withEnv('some/linter@v1')).secrets).toEqual([]);
  });

  it('handed under its service\'s name to a third party\'s action (a Code Climate token to a community action), it is still an upload token', () => {
    const h = held(job('{ contents: read }', `
          - uses: paambaati/codeclimate-action@v9
            env:
              CC_TEST_REPORTER_ID: \${{ secrets.CC_TEST_REPORTER_ID }}`));
    expect(h.uploadTokens).toEqual(['CC_TEST_REPORTER_ID']);
    expect(holdingStrength(h, null)).not.toBe('valuable');
  });

  it('held with OIDC or a write scope, the job still holds something worth taking', () => {
    const steps = `
          - uses: codecov/codecov-action@v5
            with:
              token: \${{ secrets.CODECOV_TOKEN }}`;
    const oidc = held(job('{ contents: read, id-token: write }', steps));
    expect(oidc.uploadTokens).toEqual(['CODECOV_TOKEN']);
    expect(holdingStrength(oidc, null)).toBe('valuable');
    expect(holdingStrength(held(job('{ contents: write }', steps)), null)).toBe('valuable');
  });
});

describe('secrets picked at run time: GitHub cannot tell which, so the job holds them all', () => {
  const found = jobs(yaml`
    on: push
    permissions: { contents: read }
    jobs:
      indexed:
        runs-on: ubuntu-latest
        strategy:
          matrix:
            target: [NPM_TOKEN, PYPI_TOKEN]
        steps:
          - run: ./notify.sh
            env:
              SLACK_WEBHOOK: \${{ secrets.SLACK_WEBHOOK }}
          - run: ./publish.sh
            env:
              TOKEN: \${{ secrets[matrix.target] }}
      whole:
        runs-on: ubuntu-latest
        steps:
          - run: ./notify.sh
            env:
              SLACK_WEBHOOK: \${{ secrets.SLACK_WEBHOOK }}
              ALL: \${{ toJSON(secrets) }}
      literal:
        runs-on: ubuntu-latest
        steps:
          - run: ./notify.sh
            env:
              SLACK_WEBHOOK: \${{ secrets['SLACK_WEBHOOK'] }}
              LABEL: \${{ matrix.target }}
  `);
  const held = (id: string) => jobHoldings(found.get(id)!);

  it('a dynamic index or the whole context holds secrets worth taking, chat webhook or not', () => {
    expect(held('indexed').dynamicSecrets).toBe('secrets[matrix.target]');
    expect(held('whole').dynamicSecrets).toBe('toJSON(secrets)');
    for (const id of ['indexed', 'whole']) {
      expect(held(id).webhooks, id).toEqual(['SLACK_WEBHOOK']);
      expect(holdingStrength(held(id), 'read'), id).toBe('valuable');
      expect(holdsSecrets(held(id)), id).toBe(true);
      expect(valuables(held(id), 'read').join(' '), id).toMatch(/^secrets picked at run time \(`\$\{\{ .* \}\}`: any stored secret can be read\)$/);
      expect(durableHoldings(held(id)).join(' '), id).toMatch(/^the stored secrets picked at run time/);
    }
  });

  it('a literal index is a named secret: a chat webhook alone is still nothing worth taking', () => {
    expect(held('literal').dynamicSecrets).toBeNull();
    expect(held('literal').webhooks).toEqual(['SLACK_WEBHOOK']);
    expect(holdsSecrets(held('literal'))).toBe(false);
    expect(holdingStrength(held('literal'), 'read')).toBe('none');
    expect(valuables(held('literal'), 'read')).toEqual([]);
  });
});

describe('identifiers: a secret whose name says it only names an account, app, tenant or place is held, but not worth taking', () => {
  const held = (text: string, id = 'deploy') => jobHoldings(jobs(text).get(id)!);
  const job = (steps: string) => yaml`
    on: push
    permissions: { contents: read }
    jobs:
      deploy:
        runs-on: ubuntu-latest
        steps:
${steps}
  `;

  it('user names, logins, e-mails and the ids of an OIDC or app login are identifiers: alone, the job holds nothing worth taking', () => {
    const names = ['DOCKERHUB_USERNAME', 'QUAY_USER', 'REGISTRY_USR', 'NPM_LOGIN', 'GIT_EMAIL', 'GIT_NAME', 'AZURE_CLIENT_ID', 'AZURE_TENANT_ID', 'AZURE_SUBSCRIPTION_ID', 'CLOUDFLARE_ACCOUNT_ID', 'BOT_APP_ID', 'AWS_REGION', 'app_id'];
    expect(names.filter((n) => !isIdentifierName(n))).toEqual([]);
    const h = held(job(`
          - uses: azure/login@v2
            with:
              client-id: \${{ secrets.AZURE_CLIENT_ID }}
              tenant-id: \${{ secrets.AZURE_TENANT_ID }}
              subscription-id: \${{ secrets.AZURE_SUBSCRIPTION_ID }}
          - run: git config user.email "$EMAIL"
            env:
              EMAIL: \${{ secrets.GIT_EMAIL }}`));
    expect(h.secrets).toEqual([]);
    expect(h.identifiers).toEqual(['AZURE_CLIENT_ID', 'AZURE_TENANT_ID', 'AZURE_SUBSCRIPTION_ID', 'GIT_EMAIL']);
    expect(holdsSecrets(h)).toBe(false);
    expect(holdingStrength(h, null)).toBe('none');
    expect(valuables(h, null)).toEqual([]);
    expect(nothingHeldText(h)).toBe(
      'the job holds only identifiers (`AZURE_CLIENT_ID`, `AZURE_TENANT_ID`, `AZURE_SUBSCRIPTION_ID` and 1 more), which only name an account, app or place and open nothing without the credential beside them: no write scope, other secret or OIDC token',
    );
  });

  it('a host, port or path and the ids of a cluster, workspace or warehouse say where something is; a key path or a URL does not', () => {
    expect(['DATABRICKS_HOST', 'DATABRICKS_HTTP_PATH', 'SFTP_PORT', 'DEPLOY_HOSTNAME', 'DATABRICKS_CLUSTER_ID', 'SNOWFLAKE_DATABASE', 'DB_NAME'].filter((n) => !isIdentifierName(n))).toEqual([]);
    expect(['SSH_KEY_PATH', 'DATABASE_URL', 'DB_PASSWORD', 'HOST_TOKEN', 'PRIVATE_KEY_PATH'].filter(isIdentifierName)).toEqual([]);
  });

  it('a version kept as a secret (to vary a cache key) is a setting; a version of a key or token is still the credential', () => {
    expect(['CACHE_VERSION', 'NODE_VERSION', 'TOOLCHAIN_VERSION'].filter((n) => !isIdentifierName(n))).toEqual([]);
    expect(['API_KEY_VERSION', 'TOKEN_VERSION', 'SIGNING_KEY_VERSION'].filter(isIdentifierName)).toEqual([]);
  });

  it("a key store's name is a place, and a resource's ARN names it, neither a credential", () => {
    expect(['AZURE_KEY_VAULT_CLIENT_ID', 'KEYVAULT_NAME', 'AZURE_KEYVAULT_TENANT_ID', 'BEDROCK_AGENT_RESOURCE_ROLE_ARN', 'AWS_ROLE_ARN'].filter((n) => !isIdentifierName(n))).toEqual([]);
    expect(['AZURE_KEY_VAULT_CLIENT_SECRET', 'KEY_VAULT_KEY', 'KEYVAULT_API_KEY', 'SIGNING_KEY_ARN', 'AWS_SECRET_ARN_TOKEN'].filter(isIdentifierName)).toEqual([]);
  });

  it('a code-signing identity names a certificate, which is the credential beside its password', () => {
    expect(['APPLE_SIGNING_IDENTITY', 'MACOS_CERT_IDENTITY', 'CODESIGN_IDENTITY', 'MANAGED_IDENTITY'].filter((n) => !isIdentifierName(n))).toEqual([]);
    expect(['APPLE_CERTIFICATE', 'APPLE_CERTIFICATE_PASSWORD', 'MACOS_CERT_P12', 'IDENTITY_TOKEN', 'SIGNING_IDENTITY_KEY'].filter(isIdentifierName)).toEqual([]);
  });

  it('an access key ID is the identifier half of an access key: alone (or handed to `AWS_ACCESS_KEY_ID`), the job holds only an identifier; beside its secret access key, the job holds a credential', () => {
    expect(['AWS_ACCESS_KEY_ID', 'aws-access-key-id', 'R2_ACCESS_KEY_ID', 'ACCESS_KEY_ID'].filter((n) => !isIdentifierName(n))).toEqual([]);
    expect(['AWS_SECRET_ACCESS_KEY', 'aws-secret-access-key', 'AWS_SESSION_TOKEN', 'AWS_SECRET_ACCESS_KEY_ID', 'AWS_ACCESS_KEY', 'GPG_KEY_ID'].filter(isIdentifierName)).toEqual([]);
    const found = jobs(yaml`
      on: push
      permissions: { contents: read }
      env:
        AWS_USR: \${{ secrets.AWS_USR }}
      jobs:
        fuzz:
          runs-on: ubuntu-latest
          steps:
            - run: make fuzz
        upload:
          runs-on: ubuntu-latest
          steps:
            - run: aws s3 sync out s3://bucket
              env:
                AWS_ACCESS_KEY_ID: \${{ secrets.AWS_USR }}
                AWS_SECRET_ACCESS_KEY: \${{ secrets.AWS_PSW }}
        configure:
          runs-on: ubuntu-latest
          steps:
            - uses: aws-actions/configure-aws-credentials@v4
              with:
                aws-access-key-id: \${{ secrets.AWS_ACCESS_KEY_ID }}
                aws-secret-access-key: \${{ secrets.AWS_SECRET_ACCESS_KEY }}
                aws-region: us-east-1
        id-only:
          runs-on: ubuntu-latest
          steps:
            - run: aws sts get-caller-identity || true
              env:
                AWS_ACCESS_KEY_ID: \${{ secrets.AWS_ACCESS_KEY_ID }}
    `);
    const fuzz = jobHoldings(found.get('fuzz')!);
    expect(fuzz.secrets).toEqual([]);
    expect(fuzz.identifiers).toEqual(['AWS_USR']);
    expect(holdingStrength(fuzz, null)).toBe('none');
    expect(nothingHeldText(fuzz)).toContain('the job holds only an identifier (`AWS_USR`)');
    const upload = jobHoldings(found.get('upload')!);
    expect(upload.secrets).toEqual(['AWS_PSW']);
    expect(upload.identifiers).toEqual(['AWS_USR']);
    expect(holdingStrength(upload, null)).toBe('valuable');
    const configure = jobHoldings(found.get('configure')!);
    expect(configure.secrets).toEqual(['AWS_SECRET_ACCESS_KEY']);
    expect(configure.identifiers).toEqual(['AWS_ACCESS_KEY_ID', 'AWS_USR']);
    expect(holdingStrength(configure, null)).toBe('valuable');
    const idOnly = jobHoldings(found.get('id-only')!);
    expect(idOnly.secrets).toEqual([]);
    expect(idOnly.identifiers).toEqual(['AWS_ACCESS_KEY_ID', 'AWS_USR']);
    expect(holdingStrength(idOnly, null)).toBe('none');
  });

  it('an identifier handed to a secret access key is a credential; one handed to an access key ID stays an identifier', () => {
    const h = held(job(`
          - run: aws s3 sync out s3://bucket
            env:
              AWS_ACCESS_KEY_ID: \${{ secrets.AWS_USER }}
              AWS_SECRET_ACCESS_KEY: \${{ secrets.AWS_LOGIN }}`));
    expect(h.secrets).toEqual(['AWS_LOGIN']);
    expect(h.identifiers).toEqual(['AWS_USER']);
    expect(holdingStrength(h, null)).toBe('valuable');
  });

  it('a user name beside its token: the job holds the token, named as a secret, and the user name as an identifier', () => {
    const h = held(job(`
          - uses: docker/login-action@v3
            with:
              username: \${{ secrets.DOCKERHUB_USERNAME }}
              password: \${{ secrets.DOCKERHUB_TOKEN }}`));
    expect(h.secrets).toEqual(['DOCKERHUB_TOKEN']);
    expect(h.identifiers).toEqual(['DOCKERHUB_USERNAME']);
    expect(holdingStrength(h, null)).toBe('valuable');
    expect(valuables(h, null)).toEqual(['secret `DOCKERHUB_TOKEN`']);
    const step = jobs(job(`
          - uses: docker/login-action@v3
            with:
              username: \${{ secrets.DOCKERHUB_USERNAME }}
              password: \${{ secrets.DOCKERHUB_TOKEN }}`)).get('deploy')!.steps[0]!;
    expect(stepSecrets(step)).toEqual(['DOCKERHUB_TOKEN']);
    expect(stepMinor(step).identifiers).toEqual(['DOCKERHUB_USERNAME']);
  });

  it('keys, tokens, passwords, secrets and PATs are credentials whatever else the name says, and so is an identifier handed to a credential name', () => {
    const credentials = ['DOCKERHUB_TOKEN', 'REGISTRY_PSW', 'DOCKER_PASSWORD', 'AZURE_CLIENT_SECRET', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'APP_PRIVATE_KEY', 'USER_PAT', 'VAULT_SECRET_ID', 'GCP_SERVICE_ACCOUNT', 'DATABASE_URL', 'SENTRY_DSN', 'API_USER', 'SESSION_ID', 'NPM_AUTH_USER'];
    expect(credentials.filter(isIdentifierName)).toEqual([]);
    const h = held(job(`
          - uses: docker/login-action@v3
            with:
              username: octocat
              password: \${{ secrets.DOCKER_LOGIN }}
          - run: deploy
            env:
              DEPLOY_TOKEN: \${{ secrets.DEPLOY_USER }}`));
    expect(h.secrets).toEqual(['DOCKER_LOGIN', 'DEPLOY_USER']);
    expect(h.identifiers).toEqual([]);
    expect(holdingStrength(h, null)).toBe('valuable');
  });
});

describe('credentials fetched at run time are held', () => {
  const found = jobs(yaml`
    on: push
    jobs:
      oidc-fetch:
        runs-on: ubuntu-latest
        permissions: { contents: read }
        steps:
          - name: Get secrets
            uses: hashicorp/vault-action@v3
            with:
              url: https://vault.example
              method: jwt
              secrets: secret/data/ci token | DEPLOY_TOKEN
      keyed-fetch:
        runs-on: ubuntu-latest
        permissions: { contents: read }
        steps:
          - uses: aws-actions/aws-secretsmanager-get-secrets@v2
            with:
              secret-ids: \${{ secrets.SECRET_ID }}
      env-keyed-fetch:
        runs-on: ubuntu-latest
        permissions: { contents: read }
        env:
          VAULT_TOKEN: \${{ secrets.VAULT_TOKEN }}
        steps:
          - uses: hashicorp/vault-action@v3
            with:
              url: https://vault.example
              secrets: secret/data/ci token | DEPLOY_TOKEN
      plain:
        runs-on: ubuntu-latest
        permissions: { contents: read }
        steps: [{ run: make }]
  `);

  it('counts a secret manager signed in with no stored secret as holding secrets, named once', () => {
    const held = jobHoldings(found.get('oidc-fetch')!);
    expect(holdsSecrets(held)).toBe(true);
    expect(valuables(held, null)).toContain('credentials fetched at run time by step `Get secrets` (`hashicorp/vault-action`)');
    expect(durableHoldings(held)).toContain('the credentials fetched at run time by step `Get secrets` (`hashicorp/vault-action`)');
    // Given a stored secret, it is that secret the job holds: not counted twice.
    const keyed = jobHoldings(found.get('keyed-fetch')!);
    expect(keyed.secrets).toEqual(['SECRET_ID']);
    expect(keyed.fetches).toBeUndefined();
    expect(valuables(keyed, null).join(' ')).not.toContain('fetched');
    // Given one through its job's `env:`, likewise.
    const envKeyed = jobHoldings(found.get('env-keyed-fetch')!);
    expect(envKeyed.secrets).toEqual(['VAULT_TOKEN']);
    expect(envKeyed.fetches).toBeUndefined();
  });

  it('negative: a job with no secret manager holds no fetched credential', () => {
    const held = jobHoldings(found.get('plain')!);
    expect(held.fetches).toBeUndefined();
    expect(holdsSecrets(held)).toBe(false);
  });
});
