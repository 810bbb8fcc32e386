// Deployment environments through GitHub: the adapter reads their protection rules in the scan's one GraphQL
// query (under their own alias of `repository`), stores them in the REST shape of
// `GET /repos/{o}/{r}/environments`, and the engine's gate (lib/engine/analysis/trust-guards.ts) uses them:
// a pull_request_target checkout in a job deploying to an environment with required reviewers is LOW, not
// HIGH, and forms no attack path; the same job deploying to an environment without reviewers stays HIGH.
// (The checkout names the head repository: a branch name alone would fetch the base repository's branch.)

import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { buildReport } from '../../../../lib/engine/report.js';
import { environmentsBody } from '../../../../lib/codehost/github/settings.js';
import { fetchSnapshotWithToken } from '../../../../lib/codehost/github/token.js';
import { startFakeGitHub } from '../../../support/github/index.js';
import { findingsOf, settingsFixture, setup } from './support.js';

const { github, close } = startFakeGitHub({ latencyMs: 5 });
afterAll(close);
afterEach(() => github.reset());

/** GitHub's `GET /repos/{o}/{r}/environments` body (abridged to the fields GitHub always sends and the fake reads). */
const ENVIRONMENTS = {
  total_count: 4,
  environments: [
    {
      id: 161088068,
      name: 'Production',
      protection_rules: [
        { id: 3736, type: 'wait_timer', wait_timer: 30 },
        { id: 3755, type: 'required_reviewers', prevent_self_review: true, reviewers: [{ type: 'Team', reviewer: { id: 1, slug: 'release-managers' } }] },
        { id: 3756, type: 'branch_policy' },
      ],
    },
    { id: 161088069, name: 'staging', protection_rules: [{ id: 3757, type: 'wait_timer', wait_timer: 5 }] },
    { id: 161088070, name: 'preview', protection_rules: [] },
    { id: 161088071, name: 'nobody', protection_rules: [{ id: 3758, type: 'required_reviewers', prevent_self_review: false, reviewers: [] }] },
  ],
};

const checkoutWorkflow = (environment: string, ref = 'head.ref') => `name: integration
on:
  pull_request_target:
permissions:
  contents: write
jobs:
  integration:
    runs-on: ubuntu-latest
    environment: ${environment}
    steps:
      - uses: actions/checkout@v3
        with:
          repository: \${{ github.event.pull_request.head.repo.full_name }}
          ref: \${{ github.event.pull_request.${ref} }}
      - run: npm ci && npm test
        env:
          DEPLOY_TOKEN: \${{ secrets.DEPLOY_TOKEN }}
`;

function settings() {
  return { ...settingsFixture('hardened'), environments: ENVIRONMENTS };
}

describe('environments through the GitHub App', () => {
  test('read in the same GraphQL query, in REST shape: no extra request', async () => {
    const { host, locator } = setup(github, { settings: settings(), files: { '.github/workflows/ci.yml': checkoutWorkflow('production') } });
    const withEnvironments = await host.fetchSnapshot(locator);
    const body = withEnvironments.settings.environments as { total_count: number; environments: { name: string; protection_rules: Record<string, unknown>[] }[] };
    expect(body.total_count).toBe(4);
    expect(body.environments.map((e) => e.name)).toEqual(['Production', 'staging', 'preview', 'nobody']);
    expect(body.environments[0]?.protection_rules).toEqual([
      { id: 3736, type: 'wait_timer', wait_timer: 30 },
      { id: 3755, type: 'required_reviewers', prevent_self_review: true },
      { id: 3756, type: 'branch_policy' },
    ]);
    expect(body.environments[3]?.protection_rules).toEqual([{ id: 3758, type: 'required_reviewers', prevent_self_review: false, reviewers: [] }]);
    expect(withEnvironments.settings.unreadable).toEqual({});
    expect(github.count('POST /graphql')).toBe(1);
    expect(github.count((r) => r.route.includes('environments'))).toBe(0);
  });

  test('a required-reviewers environment gates the pull_request_target checkout: MEDIUM (the ref can move after the approval) with the reason, no attack path', async () => {
    const { host, locator, fullName } = setup(github, { settings: settings(), files: { '.github/workflows/ci.yml': checkoutWorkflow('production') } });
    const snapshot = await host.fetchSnapshot(locator);
    const checkout = findingsOf(snapshot.files, snapshot.settings).filter((f) => f.rule_id === 'untrusted-checkout');
    expect(checkout.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(checkout[0]?.description).toContain('a maintainer approves each run first (environment `production`)');
    const report = buildReport([{ name: fullName, fullName, files: snapshot.files, settings: snapshot.settings }]);
    expect(report.combinations.filter((c) => c.components.some((component) => component.finding.rule_id === 'untrusted-checkout'))).toEqual([]);
  });

  test('negative: an environment with only a wait timer, none at all, or a reviewers rule naming nobody is no gate', async () => {
    for (const environment of ['staging', 'preview', 'nobody', 'undeclared']) {
      const { host, locator, fullName } = setup(github, { settings: settings(), files: { '.github/workflows/ci.yml': checkoutWorkflow(environment) } });
      const snapshot = await host.fetchSnapshot(locator);
      const checkout = findingsOf(snapshot.files, snapshot.settings).filter((f) => f.rule_id === 'untrusted-checkout');
      expect(checkout.map((f) => f.severity), environment).toEqual(['HIGH']);
      const report = buildReport([{ name: fullName, fullName, files: snapshot.files, settings: snapshot.settings }]);
      expect(report.combinations.some((c) => c.components.some((component) => component.finding.rule_id === 'untrusted-checkout')), environment).toBe(true);
    }
  });

  test('the pinned head SHA: an environment the snapshot shows without reviewers approves nothing, so the checkout is HIGH', async () => {
    // Without the facts an environment is an approval of unknown strength: the pinned SHA is MEDIUM, saying the
    // reviewers could not be checked; once GitHub shows nobody reviews `staging`, the job is an ordinary
    // privileged checkout (HIGH), and a reviewed environment approves the commit that runs (LOW, naming it).
    for (const [environment, expected] of [['staging', ['HIGH']], ['undeclared', ['HIGH']], ['production', ['LOW']]] as const) {
      const { host, locator } = setup(github, { settings: settings(), files: { '.github/workflows/ci.yml': checkoutWorkflow(environment, 'head.sha') } });
      const snapshot = await host.fetchSnapshot(locator);
      expect(findingsOf(snapshot.files, snapshot.settings).filter((f) => f.rule_id === 'untrusted-checkout').map((f) => f.severity), environment).toEqual(expected);
      const offline = findingsOf(snapshot.files).filter((f) => f.rule_id === 'untrusted-checkout');
      expect(offline.map((f) => f.severity), `${environment} without settings`).toEqual(['MEDIUM']);
      expect(offline[0]?.description, environment).toMatch(/could not be checked without a settings snapshot/);
    }
  });

  test('an App without "Actions: read": environments unreadable without a request, so nothing is gated', async () => {
    const { host, locator } = setup(github, {
      permissions: { metadata: 'read', contents: 'read', administration: 'read', repository_hooks: 'read', members: 'read', organization_administration: 'read' },
      settings: settings(),
      files: { '.github/workflows/ci.yml': checkoutWorkflow('production') },
    });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.settings.environments).toBeUndefined();
    expect(snapshot.settings.unreadable).toEqual({ environments: 'the installation has no "Actions: read" permission' });
    expect(github.requests.every((r) => r.status !== 403)).toBe(true);
    // An environment whose reviewers cannot be read is an approval of unknown strength: MEDIUM, as offline.
    expect(findingsOf(snapshot.files, snapshot.settings).filter((f) => f.rule_id === 'untrusted-checkout').map((f) => f.severity)).toEqual(['MEDIUM']);
    // settings-unreadable reports only the settings rules' areas: environments are read by no settings rule.
    expect(findingsOf([], snapshot.settings).filter((f) => f.rule_id === 'settings-unreadable' && /environment/i.test(f.description))).toEqual([]);
  });

  test('GitHub refusing the environments (FORBIDDEN in their alias) makes only them unreadable, not the scan', async () => {
    const { host, locator } = setup(github, {
      settings: { ...settings(), unreadable: { environments: '403 Resource not accessible by integration' } },
      files: { '.github/workflows/ci.yml': checkoutWorkflow('production') },
    });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.settings.unreadable).toEqual({ environments: 'FORBIDDEN: Resource not accessible by integration' });
    expect(snapshot.settings.branch_rules).toEqual(settingsFixture('hardened').branch_rules);
    expect(findingsOf(snapshot.files, snapshot.settings).filter((f) => f.rule_id === 'untrusted-checkout').map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  test('a personal token (the CLI) reads them too', async () => {
    const { fullName } = setup(github, { settings: settings(), files: { '.github/workflows/ci.yml': checkoutWorkflow('production') } });
    github.addUserToken('ghp_environmentReader', { login: 'reader' });
    const snapshot = await fetchSnapshotWithToken({ token: 'ghp_environmentReader', fullName, retry: false, throttle: false });
    expect((snapshot.settings.environments as { environments: unknown[] }).environments).toHaveLength(4);
    expect(findingsOf(snapshot.files, snapshot.settings).filter((f) => f.rule_id === 'untrusted-checkout').map((f) => f.description)).toEqual([
      expect.stringContaining('a maintainer approves each run first (environment `production`)'),
    ]);
  });
});

describe('environmentsBody', () => {
  test('a reviewers count GitHub does not state reads as nobody: never a gate on a malformed answer', () => {
    const body = environmentsBody({ totalCount: 1, nodes: [{ databaseId: 1, name: 'production', protectionRules: { nodes: [{ databaseId: 2, type: 'REQUIRED_REVIEWERS', preventSelfReview: false }] } }] });
    expect(body).toEqual({ total_count: 1, environments: [{ id: 1, name: 'production', protection_rules: [{ id: 2, type: 'required_reviewers', prevent_self_review: false, reviewers: [] }] }] });
    expect(environmentsBody(null)).toBeNull();
    expect(environmentsBody({ nodes: 'x' })).toBeNull();
  });
});
