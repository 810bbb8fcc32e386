// The scan snapshot through the GitHub App: the request pattern (one GraphQL query + the REST-only areas in
// parallel), areas the installation has no permission for, the mapping of GraphQL and REST answers into the
// settings snapshot format, and files GitHub cannot deliver whole.

import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { AREA_INFO } from '../../../../lib/engine/settings/areas.js';
import { FakeGitHub, FULL_PERMISSIONS, startFakeGitHub, testGitHubCodeHost } from '../../../support/github/index.js';
import { COMPOSITE, findingsOf, settingsFixture, setup, unreadableAreas, WORKFLOW } from './support.js';

// Round trips are counted from overlapping request windows: a latency far above scheduling noise on a loaded machine.
const { github, server, close } = startFakeGitHub({ latencyMs: 100 });
afterAll(close);
afterEach(() => github.reset());

const GRAPHQL = 'POST /graphql';
const TOKEN = 'POST /app/installations/{installation_id}/access_tokens';
const TREE = 'GET /repos/{owner}/{repo}/git/trees/{tree_sha}';
const REST_PUBLIC = [
  TREE,
  'GET /repos/{owner}/{repo}',
  'GET /repos/{owner}/{repo}/actions/permissions',
  'GET /repos/{owner}/{repo}/actions/permissions/workflow',
  'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval',
  'GET /repos/{owner}/{repo}/actions/runners',
  'GET /repos/{owner}/{repo}/hooks',
];
const PUBLIC_ONLY = ['GET /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval', 'GET /repos/{owner}/{repo}/actions/runners'];

describe('request pattern', () => {
  test('public repository: the token, then one GraphQL query and the six REST-only areas in one parallel batch', async () => {
    const { host, locator } = setup(github, { files: { '.github/workflows/ci.yml': WORKFLOW } });
    const first = await host.fetchSnapshot(locator);
    expect([...github.routesRequested()].sort()).toEqual([TOKEN, GRAPHQL, ...REST_PUBLIC].sort());
    expect(first.requests).toBe(9);
    expect(github.roundTrips()).toBe(2);

    github.reset();
    const second = await host.fetchSnapshot(locator);
    expect(github.count(TOKEN)).toBe(0);
    expect(github.count(GRAPHQL)).toBe(1);
    expect(second.requests).toBe(8);
    expect(github.roundTrips()).toBe(1);
    // Every request of the scan carries the installation token; only the token request is signed by the App.
    expect(github.requests.every((r) => r.auth === 'installation' && r.installationId === locator.installationId)).toBe(true);
  });

  test('private repository: the public-only areas (fork-PR approval, runners) are not asked for', async () => {
    const { host, locator } = setup(github, { visibility: 'private', files: { '.github/workflows/ci.yml': WORKFLOW } });
    await host.fetchSnapshot(locator);
    github.reset();
    const snapshot = await host.fetchSnapshot(locator);
    expect([...github.routesRequested()].sort()).toEqual([GRAPHQL, ...REST_PUBLIC.filter((r) => !PUBLIC_ONLY.includes(r))].sort());
    expect(snapshot.requests).toBe(6);
    expect(github.roundTrips()).toBe(1);
    expect(snapshot.settings).not.toHaveProperty('fork_pr_approval');
    expect(snapshot.settings).not.toHaveProperty('runners');
    expect(unreadableAreas(snapshot.settings)).toEqual([]);
  });

  test('the number of workflows does not change the number of requests', async () => {
    const files = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`.github/workflows/w${i}.yml`, WORKFLOW.replace('./tools/setup', './.github/actions/setup')]));
    const { host, locator } = setup(github, { files: { ...files, '.github/actions/setup/action.yml': COMPOSITE } });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.files).toHaveLength(61);
    expect(github.count(GRAPHQL)).toBe(1);
    expect(snapshot.requests).toBe(9);
  });

  test('a locator without visibility asks for the public-only areas and drops them for a private repository', async () => {
    const { host, locator } = setup(github, { visibility: 'private' });
    const snapshot = await host.fetchSnapshot({ ...locator, private: undefined });
    expect(github.count((r) => PUBLIC_ONLY.includes(r.route))).toBe(2);
    expect(snapshot.settings).not.toHaveProperty('fork_pr_approval');
    expect(snapshot.settings.unreadable).toEqual({});
  });

  test('a repository made public since the last sync gets its public-only areas in a second round', async () => {
    const { host, locator } = setup(github, { visibility: 'public' });
    const snapshot = await host.fetchSnapshot({ ...locator, private: true });
    expect(github.count((r) => PUBLIC_ONLY.includes(r.route))).toBe(2);
    expect(snapshot.settings.fork_pr_approval).toEqual({ approval_policy: 'first_time_contributors' });
    expect(snapshot.settings.runners).toEqual({ total_count: 0, runners: [] });
  });
});

describe('permissions', () => {
  test('areas the installation token does not cover are unreadable, naming the permission, without a request', async () => {
    const { host, locator } = setup(github, {
      permissions: { metadata: 'read', contents: 'read' },
      settings: settingsFixture('metadata-only'),
      files: { '.github/workflows/ci.yml': WORKFLOW },
    });
    const snapshot = await host.fetchSnapshot(locator);
    expect([...github.routesRequested()].sort()).toEqual([TOKEN, GRAPHQL, TREE, 'GET /repos/{owner}/{repo}'].sort());
    expect(github.requests.every((r) => r.status !== 403)).toBe(true);
    const admin = `the installation has no "${AREA_INFO.branch_protection.permission}" permission`;
    expect(snapshot.settings.unreadable).toEqual({
      security_and_analysis: admin,
      branch_protection: admin,
      rulesets: admin,
      actions_permissions: admin,
      workflow_permissions: admin,
      fork_pr_approval: admin,
      vulnerability_alerts: admin,
      runners: admin,
      hooks: `the installation has no "${AREA_INFO.hooks.permission}" permission`,
      environments: 'the installation has no "Actions: read" permission',
    });
    // The same areas as the fixture saved from such an App.
    expect(unreadableAreas(snapshot.settings)).toEqual(unreadableAreas(settingsFixture('metadata-only')));
    expect(snapshot.settings.branch_rules).toEqual(settingsFixture('metadata-only').branch_rules);
  });

  test('Webhooks: read without Administration: read', async () => {
    const { host, locator } = setup(github, { visibility: 'private', permissions: { metadata: 'read', contents: 'read', repository_hooks: 'read' } });
    const snapshot = await host.fetchSnapshot(locator);
    expect(github.count('GET /repos/{owner}/{repo}/hooks')).toBe(1);
    expect(snapshot.settings.hooks).toEqual([]);
    expect(snapshot.requests).toBe(5);
  });

  test('an installation without Contents: read cannot be scanned (forbidden, no request but the token)', async () => {
    const { host, locator } = setup(github, { permissions: { metadata: 'read', administration: 'read' } });
    await expect(host.fetchSnapshot(locator)).rejects.toMatchObject({ name: 'CodeHostError', kind: 'forbidden' });
    expect(github.routesRequested()).toEqual([TOKEN]);
  });

  test('organization rulesets show their bypass list only with the organization permission "Administration: read"', async () => {
    const fixture = settingsFixture('hardened');
    const repositoryOnly = { ...FULL_PERMISSIONS };
    delete repositoryOnly.organization_administration;
    const { host, locator } = setup(github, { fullName: 'acme-a/widget', permissions: repositoryOnly, settings: fixture, files: { CODEOWNERS: '* @a\n' } });
    const snapshot = await host.fetchSnapshot(locator);
    const rulesets = snapshot.settings.rulesets as Array<Record<string, unknown>>;
    expect(rulesets.find((r) => r.source_type === 'Repository')).toHaveProperty('bypass_actors');
    expect(rulesets.find((r) => r.source_type === 'Organization')).not.toHaveProperty('bypass_actors');
    expect(unreadableAreas(snapshot.settings)).toEqual(['rulesets']);
  });
});

describe('settings mapping', () => {
  test.each(['hardened', 'weak'] as const)('the %s fixture read back through GitHub gives the fixture\'s own findings', async (name) => {
    const fixture = settingsFixture(name);
    const body = fixture.repository as Record<string, string>;
    const { host, locator } = setup(github, {
      fullName: body.full_name,
      defaultBranch: body.default_branch,
      visibility: body.visibility as 'public',
      settings: fixture,
    });
    const snapshot = await host.fetchSnapshot(locator);
    expect(findingsOf([], snapshot.settings)).toEqual(findingsOf([], fixture));
    expect(snapshot.settings.unreadable).toEqual({});
    // REST bodies are stored as GitHub sent them.
    for (const area of ['actions_permissions', 'workflow_permissions', 'fork_pr_approval', 'runners', 'hooks'] as const) {
      expect(snapshot.settings[area]).toEqual(fixture[area]);
    }
    expect(snapshot.settings.vulnerability_alerts).toBe(fixture.vulnerability_alerts);
    expect(snapshot.settings.codeowners).toBe(true);
  });

  test('classic protection and ruleset rules in REST shape', async () => {
    const fixture = settingsFixture('hardened');
    const { host, locator } = setup(github, { fullName: 'acme-b/widget', settings: { ...fixture, branch_protection: settingsFixture('weak').branch_protection } });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.settings.branch_rules).toEqual(fixture.branch_rules);
    const protection = snapshot.settings.branch_protection as Record<string, unknown>;
    expect(protection.url).toBe('https://api.github.com/repos/acme-b/widget/branches/main/protection');
    expect(protection.required_pull_request_reviews).toEqual({
      url: 'https://api.github.com/repos/acme-b/widget/branches/main/protection/required_pull_request_reviews',
      dismiss_stale_reviews: false,
      require_code_owner_reviews: false,
      required_approving_review_count: 1,
      require_last_push_approval: false,
    });
    expect(protection).not.toHaveProperty('required_status_checks');
    expect(protection.allow_force_pushes).toEqual({ enabled: true });
    expect(protection.enforce_admins).toMatchObject({ enabled: false });
    const rulesets = snapshot.settings.rulesets as Array<Record<string, unknown>>;
    expect(rulesets.map((r) => [r.id, r.name, r.source_type, r.source, r.enforcement])).toEqual([
      [1874021, 'main protection', 'Repository', 'acme/widget', 'active'],
      [402118, 'org baseline', 'Organization', 'acme', 'active'],
    ]);
    expect(rulesets[0]?.bypass_actors).toEqual([{ actor_id: 1043210, actor_type: 'Integration', bypass_mode: 'pull_request' }]);
    expect(rulesets[1]?.bypass_actors).toEqual([]);
  });

  test('no classic protection is null; the vulnerability-alerts setting is a boolean', async () => {
    const { host, locator } = setup(github, { settings: { vulnerability_alerts: true } });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.settings.branch_protection).toBeNull();
    expect(snapshot.settings.vulnerability_alerts).toBe(true);
    expect(snapshot.settings.codeowners).toBe(false);
  });

  test('areas GitHub refuses become unreadable with its reason; the scan goes on', async () => {
    const { host, locator } = setup(github, {
      settings: {
        unreadable: {
          hooks: '403 Resource not accessible by integration',
          branch_protection: '403 Upgrade to GitHub Pro or make this repository public to enable this feature.',
          // An error in this non-null GraphQL field nulls its parent: the snapshot must survive it.
          vulnerability_alerts: '403 Resource not accessible by integration',
        },
      },
    });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.settings.unreadable).toEqual({
      branch_protection: 'FORBIDDEN: Upgrade to GitHub Pro or make this repository public to enable this feature.',
      vulnerability_alerts: 'FORBIDDEN: Resource not accessible by integration',
      hooks: '403 Resource not accessible by integration',
    });
    expect(github.count(GRAPHQL)).toBe(1);
    expect(snapshot.settings).not.toHaveProperty('hooks');
    expect(snapshot.settings).not.toHaveProperty('branch_protection');
  });

  test('webhooks on several pages are all read', async () => {
    const hooks = Array.from({ length: 230 }, (_, i) => ({ type: 'Repository', id: 1000 + i, name: 'web', active: true, events: ['push'], config: { url: `https://hooks.example/${i}`, content_type: 'json', insecure_ssl: '0' } }));
    const { host, locator } = setup(github, { settings: { hooks } });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.settings.hooks).toEqual(hooks);
    expect(github.count('GET /repos/{owner}/{repo}/hooks')).toBe(3);
  });

  test('CODEOWNERS in any of its three places', async () => {
    for (const path of ['CODEOWNERS', '.github/CODEOWNERS', 'docs/CODEOWNERS']) {
      const { host, locator } = setup(github, { files: { [path]: '* @acme/core\n' } });
      expect((await host.fetchSnapshot(locator)).settings.codeowners).toBe(true);
    }
  });

  test('an empty repository: no files, no branch, no protection', async () => {
    const { host, locator } = setup(github, { empty: true });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.files).toEqual([]);
    expect(snapshot.defaultBranch).toBe('main');
    expect(snapshot.settings.branch_protection).toBeNull();
    expect(snapshot.settings.branch_rules).toEqual([]);
  });
});

describe('default branch', () => {
  test('renamed since the last sync: the snapshot reads the current branch, at no extra cost', async () => {
    const { host, locator, fullName } = setup(github, {
      defaultBranch: 'master',
      settings: { branch_protection: settingsFixture('weak').branch_protection, branch_rules: settingsFixture('hardened').branch_rules },
      files: { '.github/workflows/ci.yml': WORKFLOW },
    });
    github.repository(fullName).defaultBranch = 'trunk';
    const snapshot = await host.fetchSnapshot(locator);
    expect(locator.defaultBranch).toBe('master');
    expect(snapshot.defaultBranch).toBe('trunk');
    expect((snapshot.settings.branch_protection as Record<string, unknown>).url).toBe(`https://api.github.com/repos/${fullName}/branches/trunk/protection`);
    expect(snapshot.settings.branch_rules).toEqual(settingsFixture('hardened').branch_rules);
    expect((snapshot.settings.repository as Record<string, unknown>).default_branch).toBe('trunk');
    expect(github.count(GRAPHQL)).toBe(1);
    expect(snapshot.requests).toBe(9);
  });
});

describe('files', () => {
  test('workflows, Dependabot and action definitions anywhere, byte for byte; other files and symbolic links are skipped', async () => {
    const crlf = 'on: push\r\njobs:\r\n  a:\r\n    runs-on: ubuntu-latest\r\n    steps:\r\n      - run: echo "héllo ✓"\r\n';
    const { host, locator } = setup(github, {
      files: {
        '.github/workflows/ci.yml': crlf,
        '.github/workflows/release.yaml': '\uFEFFon: release\njobs: {}\n',
        '.github/workflows/README.md': '# workflows\n',
        '.github/workflows/linked.yml': { text: '../../ci.yml', symlink: true },
        '.github/workflows/nested/deep.yml': 'on: push\n',
        '.github/dependabot.yml': 'version: 2\nupdates: []\n',
        'action.yml': COMPOSITE,
        '.github/actions/setup/action.yml': COMPOSITE,
        '.github/actions/group/build/action.yaml': COMPOSITE,
        '.github/actions/setup/script.sh': 'echo hi\n',
        'src/action.yml': COMPOSITE,
        'packages/deploy/action.yaml': COMPOSITE,
        'packages/linked/action.yml': { text: '../deploy/action.yaml', symlink: true },
        'web/node_modules/some-dep/action.yml': COMPOSITE,
      },
    });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.files).toEqual([
      { path: '.github/actions/group/build/action.yaml', text: COMPOSITE },
      { path: '.github/actions/setup/action.yml', text: COMPOSITE },
      { path: '.github/dependabot.yml', text: 'version: 2\nupdates: []\n' },
      { path: '.github/workflows/ci.yml', text: crlf },
      { path: '.github/workflows/release.yaml', text: '\uFEFFon: release\njobs: {}\n' },
      { path: 'action.yml', text: COMPOSITE },
      { path: 'packages/deploy/action.yaml', text: COMPOSITE },
      { path: 'src/action.yml', text: COMPOSITE },
    ]);
    // One query for the two found by the listing, beside the snapshot's.
    expect(github.requests.filter((r) => r.route === GRAPHQL).map((r) => r.operation)).toEqual(['ChainbreakerSnapshot', 'ChainbreakerActionDefinitions']);
  });

  test('truncated, binary and oversized blobs become unreadable files, never dropped or cut', async () => {
    const big = `on: push\n# ${'x'.repeat(600_000)}\n`;
    const huge = `on: push\n# ${'x'.repeat(1_100_000)}\n`;
    const { host, locator } = setup(github, {
      files: {
        '.github/workflows/big.yml': big,
        '.github/workflows/huge.yml': huge,
        '.github/workflows/cut.yml': { text: WORKFLOW, truncated: true },
        '.github/workflows/image.yml': { text: '\u0000\u0001PNG', binary: true },
      },
    });
    const snapshot = await host.fetchSnapshot(locator);
    const byPath = Object.fromEntries(snapshot.files.map((f) => [f.path, f]));
    expect(byPath['.github/workflows/big.yml']).toEqual({ path: '.github/workflows/big.yml', text: '', unreadable: `GitHub delivered only the first 512,000 bytes of this ${Buffer.byteLength(big).toLocaleString('en-US')}-byte file, so it was not analysed` });
    expect(byPath['.github/workflows/huge.yml']?.unreadable).toBe('the file is larger than the 1024 KiB limit');
    expect(byPath['.github/workflows/cut.yml']?.unreadable).toMatch(/^GitHub delivered only the first/);
    expect(byPath['.github/workflows/image.yml']?.unreadable).toBe('GitHub reports a binary file: there is no text to analyse');
    const invalid = findingsOf(snapshot.files).filter((f) => f.rule_id === 'invalid-workflow');
    expect(invalid.map((f) => f.file).sort()).toEqual(['.github/workflows/big.yml', '.github/workflows/cut.yml', '.github/workflows/huge.yml', '.github/workflows/image.yml']);
  });

  test('a local action outside the fetched trees is found by the listing: one follow-up query, and is scanned', async () => {
    const { host, locator } = setup(github, { files: { '.github/workflows/ci.yml': WORKFLOW, 'tools/setup/action.yml': COMPOSITE, 'tools/setup/install.sh': 'make\n' } });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.files.map((f) => f.path)).toEqual(['.github/workflows/ci.yml', 'tools/setup/action.yml']);
    expect(github.requests.filter((r) => r.route === GRAPHQL).map((r) => r.operation)).toEqual(['ChainbreakerSnapshot', 'ChainbreakerActionDefinitions']);
    expect(snapshot.requests).toBe(10);
    expect(github.roundTrips()).toBe(3);
    expect(findingsOf(snapshot.files).some((f) => f.file === 'tools/setup/action.yml')).toBe(true);
  });

  test('local actions using local actions are followed; each directory is asked for once', async () => {
    const chained = COMPOSITE.replace('    - run: curl', '    - uses: ./tools/inner\n    - uses: ./.github/actions/known\n    - run: curl');
    const { host, locator } = setup(github, {
      files: {
        '.github/workflows/ci.yml': WORKFLOW,
        '.github/workflows/other.yml': WORKFLOW,
        'tools/setup/action.yml': chained,
        'tools/inner/action.yaml': COMPOSITE,
        '.github/actions/known/action.yml': COMPOSITE,
      },
    });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.files.map((f) => f.path)).toEqual([
      '.github/actions/known/action.yml',
      '.github/workflows/ci.yml',
      '.github/workflows/other.yml',
      'tools/inner/action.yaml',
      'tools/setup/action.yml',
    ]);
    // The listing shows both directories: one query reads them, without following the chain level by level.
    expect(github.count(GRAPHQL)).toBe(2);
  });

  test('no follow-up when the referenced directory is known to be absent or already fetched', async () => {
    const uses = WORKFLOW.replace('./tools/setup', './.github/actions/setup').replace('      - run: echo', '      - uses: ./missing/action\n      - uses: ./.github/workflows/reusable.yml\n      - run: echo');
    const { host, locator } = setup(github, {
      files: { '.github/workflows/ci.yml': uses, '.github/workflows/reusable.yml': 'on: workflow_call\njobs: {}\n', '.github/actions/setup/action.yml': COMPOSITE },
    });
    const snapshot = await host.fetchSnapshot(locator);
    expect(github.count(GRAPHQL)).toBe(1);
    expect(snapshot.files).toHaveLength(3);
  });
});

describe('GitHub Enterprise Server', () => {
  test('REST under /api/v3, GraphQL at /api/graphql, URLs in bodies on the server', async () => {
    const enterprise = new FakeGitHub({ baseUrl: 'https://ghe.example.com/api/v3' });
    server.use(...enterprise.handlers);
    try {
      enterprise.addInstallation({ id: 5, account: { login: 'corp', id: 5, type: 'Organization' } });
      enterprise.addRepository({ fullName: 'corp/app', installationId: 5, settings: { branch_protection: settingsFixture('weak').branch_protection }, files: { '.github/workflows/ci.yml': WORKFLOW } });
      const host = testGitHubCodeHost({ baseUrl: 'https://ghe.example.com/api/v3/' });
      const snapshot = await host.fetchSnapshot({ installationId: 5, fullName: 'corp/app', defaultBranch: 'main' });
      expect(snapshot.files).toHaveLength(1);
      expect((snapshot.settings.branch_protection as Record<string, unknown>).url).toBe('https://ghe.example.com/api/v3/repos/corp/app/branches/main/protection');
      expect(enterprise.count(GRAPHQL)).toBe(1);
    } finally {
      server.resetHandlers();
    }
  });
});
