// The monitor's jobs (lib/services/monitor) against the GitHub App adapter and the stateful fake GitHub (msw),
// on a real database: a push's commit scanned for every linked user with their rule settings, a pull
// request's check run (its POST body, annotations in batches, a retry that resumes instead of posting a
// second one, a fork's head read as data at its SHA), GitHub failures the queue retries, and the re-check.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useDatabase } from '../../../lib/db/connection.js';
import { linkInstallation, recordScan, setInstallationCheckPolicy, setRuleSetting, syncMemberInstallations, syncRepositories } from '../../../lib/db/operations.js';
import type { CheckPolicy } from '../../../lib/db/types.js';
import { CHECK_NAME } from '../../../lib/services/monitor/check-run.js';
import { MEMBER_AREA_WITHHELD } from '../../../lib/services/monitor/common.js';
import { JobDeferred, JobRejected } from '../../../lib/services/monitor/jobs.js';
import { externalId, monitorHandlers, runPullRequestCheck, runPushScan, runRecheck } from '../../../lib/services/monitor/index.js';
import { openTestDatabase, type TestDatabase } from '../../support/db.js';
import { startFakeGitHub, testGitHubCodeHost, type FakeGitHub, type RunningFakeGitHub } from '../../support/github/index.js';
import type { GitHubCodeHost } from '../../../lib/codehost/github/index.js';

let t: TestDatabase;
let fake: RunningFakeGitHub;
let github: FakeGitHub;
let host: GitHubCodeHost;
let nextId = 8_100_000;
const id = () => nextId++;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  fake = startFakeGitHub();
  github = fake.github;
  host = testGitHubCodeHost();
});
afterEach(() => github.reset());
afterAll(async () => {
  fake.close();
  await t.close();
});

const CI = 'name: ci\non: push\npermissions: {}\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n';
/** Script injection from an issue title in a job that holds a secret and a write token: HIGH findings and an attack path. */
const triage = (n = 0) => `name: triage${n}
on:
  issues:
    types: [opened]
permissions:
  contents: write
jobs:
  label:
    runs-on: ubuntu-latest
    steps:
      - name: Pick labels
        run: echo "\${{ github.event.issue.title }}"
        env:
          DEPLOY_KEY: \${{ secrets.DEPLOY_KEY }}
`;

const ctx = (deadline = Date.now() + 60_000) => ({ db: t.db, deadline, signal: new AbortController().signal, jobId: 'job-1', attempt: 1, maxAttempts: 5 });

interface Setup {
  installationId: number;
  repoId: number;
  fullName: string;
  users: { userId: string; repositoryId: string }[];
}

/** An organization's installation with one repository, linked by `users` users (each with the repository synced). */
async function setup(users = 2, files: Record<string, string> = { '.github/workflows/ci.yml': CI }): Promise<Setup> {
  const installationId = id();
  const login = `org-${installationId}`;
  github.addInstallation({ id: installationId, account: { login, id: id(), type: 'Organization' } });
  const repository = github.addRepository({ fullName: `${login}/service`, installationId, files });
  const linked: Setup['users'] = [];
  for (let i = 0; i < users; i++) {
    const userId = await t.createUser();
    await linkInstallation(t.db, userId, { installationId, accountLogin: login, accountType: 'Organization' });
    const [row] = await syncRepositories(t.db, userId, [
      { github_id: repository.id, installation_id: installationId, full_name: repository.fullName, private: false, html_url: `https://github.com/${repository.fullName}`, default_branch: 'main' },
    ]);
    linked.push({ userId, repositoryId: row!.id });
  }
  return { installationId, repoId: repository.id, fullName: repository.fullName, users: linked };
}

type ScanRow = { id: string; user_id: string; trigger: string; commit_sha: string | null; high_count: number };
const scansOf = (repositoryIds: string[]) =>
  t.query<ScanRow>('select id, user_id, trigger, commit_sha, high_count from public.scans where repository_id = any($1::uuid[]) order by seq', [repositoryIds]);
const findingRules = async (scanId: string) => (await t.query<{ rule_id: string }>('select rule_id from public.findings where scan_id = $1 order by ordinal', [scanId])).map((r) => r.rule_id);

describe('push-scan', () => {
  it("scans the pushed commit for every linked user with their own rule settings, stored with trigger 'push' and the SHA; running again stores nothing", async () => {
    const s = await setup(2);
    const sha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': triage() });
    // The second user turned script injection off.
    await setRuleSetting(t.db, s.users[1]!.userId, 'script-injection', false);
    const job = { kind: 'push-scan' as const, installationId: s.installationId, repoId: s.repoId, sha, deliveryId: 'd-1' };

    const outcome = await runPushScan(job, ctx(), host);
    expect(outcome).toEqual({ users: 2, stored: 2 });
    const rows = await scansOf(s.users.map((u) => u.repositoryId));
    const byUser = (a: string[], b: string[]) => (a[0]! < b[0]! ? -1 : 1);
    expect(rows.map((r) => [r.user_id, r.trigger, r.commit_sha ?? '']).sort(byUser)).toEqual(s.users.map((u) => [u.userId, 'push', sha]).sort(byUser));
    const scanOf = (userId: string) => rows.find((r) => r.user_id === userId)!.id;
    // The files were read at the commit, not at the default branch's head (which has no triage workflow).
    expect(github.requests.some((r) => r.route === 'GET /repos/{owner}/{repo}/git/trees/{tree_sha}' && r.url.includes(`/git/trees/${sha}`))).toBe(true);
    expect(await findingRules(scanOf(s.users[0]!.userId))).toContain('script-injection');
    expect(await findingRules(scanOf(s.users[1]!.userId))).not.toContain('script-injection');
    expect(await findingRules(scanOf(s.users[1]!.userId))).toContain('excessive-permissions');

    // The same job again (a retry, a redelivery): nothing new.
    expect(await runPushScan(job, ctx(), host)).toEqual({ users: 2, stored: 0 });
    expect(await scansOf(s.users.map((u) => u.repositoryId))).toHaveLength(2);
  });

  it('keeps a manual scan manual, and a push of the same content as the latest scan stores no second scan', async () => {
    const s = await setup(1);
    await recordScan(t.db, s.users[0]!.userId, { repositoryId: s.users[0]!.repositoryId, ruleset: 'all', counts: { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 }, findings: [] });
    const sha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI });
    await runPushScan({ kind: 'push-scan', installationId: s.installationId, repoId: s.repoId, sha, deliveryId: 'd-2' }, ctx(), host);
    const sha2 = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI });
    const again = await runPushScan({ kind: 'push-scan', installationId: s.installationId, repoId: s.repoId, sha: sha2, deliveryId: 'd-3' }, ctx(), host);
    expect(again.stored).toBe(0);
    const rows = await scansOf([s.users[0]!.repositoryId]);
    expect(rows.map((r) => r.trigger)).toEqual(['manual', 'push']);
  });

  it('a GitHub 5xx during the scan throws for the queue to retry (not deferred, not rejected) and stores nothing; the retry succeeds', async () => {
    const s = await setup(1);
    const sha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': triage() });
    const job = { kind: 'push-scan' as const, installationId: s.installationId, repoId: s.repoId, sha, deliveryId: 'd-4' };
    github.fault('POST /graphql', { kind: 'status', status: 502 }, { repository: s.fullName });
    const failed = await runPushScan(job, ctx(), host).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).not.toBeInstanceOf(JobDeferred);
    expect(failed).not.toBeInstanceOf(JobRejected);
    expect(await scansOf([s.users[0]!.repositoryId])).toEqual([]);
    github.clearFaults();
    expect(await runPushScan(job, ctx(), host)).toEqual({ users: 1, stored: 1 });
  });

  it("GitHub's rate limit defers the job, and so does the installation's budget under the reserve, without a request", async () => {
    const s = await setup(1);
    const sha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI });
    github.fault('POST /graphql', { kind: 'rate-limit', resetInSeconds: 120 });
    const job = { kind: 'push-scan' as const, installationId: s.installationId, repoId: s.repoId, sha, deliveryId: 'd-5' };
    const deferred = await runPushScan(job, ctx(), host).catch((e: unknown) => e);
    expect(deferred).toBeInstanceOf(JobDeferred);
    expect((deferred as JobDeferred).retryAfterSeconds).toBeGreaterThan(0);
    github.reset();
    // GitHub said the budget is spent until the reset: the next jobs of the installation wait, asking nothing.
    for (const next of [runPushScan(job, ctx(), host), runRecheck({ kind: 'recheck', installationId: s.installationId, repoId: s.repoId }, ctx(), host)]) {
      const gated = await next.catch((e: unknown) => e);
      expect(gated).toBeInstanceOf(JobDeferred);
      expect((gated as JobDeferred).retryAfterSeconds).toBeGreaterThan(100);
    }
    expect(github.count()).toBe(0);
  });

  it('a commit GitHub does not have rejects the job (no retry can help)', async () => {
    const s = await setup(1);
    const missing = await runPushScan({ kind: 'push-scan', installationId: s.installationId, repoId: s.repoId, sha: 'f'.repeat(40), deliveryId: 'd-6' }, ctx(), host).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(JobRejected);
  });

  it('serves no one and asks GitHub nothing when no user linked the installation', async () => {
    const installationId = id();
    github.addInstallation({ id: installationId, account: { login: `org-${installationId}`, id: id(), type: 'Organization' } });
    const repository = github.addRepository({ fullName: `org-${installationId}/lonely`, installationId, files: { '.github/workflows/ci.yml': CI } });
    const sha = github.addCommit(repository.fullName, { '.github/workflows/ci.yml': CI });
    expect(await runPushScan({ kind: 'push-scan', installationId, repoId: repository.id, sha, deliveryId: 'd-7' }, ctx(), host)).toEqual({ users: 0, stored: 0 });
    expect(github.count()).toBe(0);
  });

  it('a user who reaches the repository as a member gets no settings area only admins may read', async () => {
    const s = await setup(1);
    const member = await t.createUser();
    const login = s.fullName.split('/')[0]!;
    await syncMemberInstallations(t.db, member, String(id()), [{ installation_id: s.installationId, account_login: login, account_type: 'Organization' }]);
    const [row] = await syncRepositories(t.db, member, [
      { github_id: s.repoId, installation_id: s.installationId, full_name: s.fullName, private: false, html_url: `https://github.com/${s.fullName}`, default_branch: 'main' },
    ]);
    const sha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI });
    expect(await runPushScan({ kind: 'push-scan', installationId: s.installationId, repoId: s.repoId, sha, deliveryId: 'd-8' }, ctx(), host)).toEqual({ users: 2, stored: 2 });
    const descriptions = async (repositoryId: string) =>
      (await t.query<{ description: string }>("select f.description from public.findings f join public.scans s on s.id = f.scan_id where s.repository_id = $1 and f.rule_id = 'settings-unreadable'", [repositoryId])).map((r) => r.description).join('\n');
    expect(await descriptions(row!.id)).toContain("App's token");
    expect(await descriptions(s.users[0]!.repositoryId)).not.toContain("App's token");
    expect(MEMBER_AREA_WITHHELD).toContain('admins');
  });
});

describe('pr-check', () => {
  const prJob = (s: Setup, headSha: string, baseSha: string, extra: Partial<{ headRepoId: number; pullNumber: number }> = {}) => ({
    kind: 'pr-check' as const,
    installationId: s.installationId,
    repoId: s.repoId,
    pullNumber: extra.pullNumber ?? 12,
    headSha,
    baseSha,
    headRepoId: extra.headRepoId ?? s.repoId,
    deliveryId: 'pr-1',
  });

  it('publishes exactly one check run on the head SHA with annotations for the new findings above LOW and the new attack path; stores it for every user', async () => {
    const s = await setup(2);
    const baseSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI });
    const headSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': triage() });
    const outcome = await runPullRequestCheck(prJob(s, headSha, baseSha), ctx(), host);

    expect(github.count('POST /repos/{owner}/{repo}/check-runs')).toBe(1);
    expect(github.count('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}')).toBe(0);
    const [run] = github.checkRuns(s.fullName);
    const body = run!.bodies[0]!;
    expect(body).toMatchObject({ name: CHECK_NAME, head_sha: headSha, external_id: externalId({ repoId: s.repoId, headSha }), status: 'completed', conclusion: 'failure' });
    const output = body.output as { title: string; summary: string; annotations: Record<string, unknown>[] };
    // Only what the pull request adds, above LOW: the base's ci.yml findings (LOW, INFO) are not annotated.
    expect(output.annotations.map((a) => [a.path, a.start_line, a.annotation_level])).toEqual([
      ['.github/workflows/triage.yml', 6, 'failure'],
      ['.github/workflows/triage.yml', 12, 'failure'],
    ]);
    expect(output.annotations.every((a) => typeof a.message === 'string' && typeof a.title === 'string' && String(a.title).startsWith('HIGH: '))).toBe(true);
    expect(output.title).toBe('1 new attack path, 2 new findings above LOW');
    expect(output.summary).toContain('### New attack paths');
    expect(output.summary).toContain('Break the chain:');
    expect(outcome.output?.newPaths.map((p) => p.id)).toEqual(['injection-token-theft']);

    const stored = await t.query<{ user_id: string; conclusion: string; head_sha: string; html_url: string; pull_number: number }>(
      'select user_id, conclusion, head_sha, html_url, pull_number from public.check_runs where repository_id = any($1::uuid[]) order by user_id',
      [s.users.map((u) => u.repositoryId)],
    );
    expect(stored).toHaveLength(2);
    for (const row of stored) expect(row).toMatchObject({ conclusion: 'failure', head_sha: headSha, html_url: outcome.checkRun?.htmlUrl, pull_number: 12 });
    // No pull request scan is stored as the repository's scan: its latest scan stays what the default branch holds.
    expect(await scansOf(s.users.map((u) => u.repositoryId))).toEqual([]);

    // The same check again (a redelivery, a `reopened` with the same head): found by its external id, nothing posted.
    github.reset();
    const again = await runPullRequestCheck(prJob(s, headSha, baseSha), ctx(), host);
    expect(again.created).toBe(false);
    expect(github.count('POST /repos/{owner}/{repo}/check-runs')).toBe(0);
    expect(github.count('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}')).toBe(0);
    expect(github.checkRuns(s.fullName)).toHaveLength(1);
  });

  it("checks only a pull request that changes the pipelines: GitHub's file list decides, renames by either name; a list GitHub cannot give whole counts as changed", async () => {
    const s = await setup(1);
    const baseSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI });
    // The head adds a vulnerable workflow, but the pull request's own changes are elsewhere (the base moved on).
    const headSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': triage() });
    github.setPullRequestFiles(s.fullName, 31, ['src/index.ts', 'docs/action.yml.md', 'README.md']);
    const skipped = await runPullRequestCheck(prJob(s, headSha, baseSha, { pullNumber: 31 }), ctx(), host);
    expect(skipped).toEqual({ checkRun: null, output: null, created: false });
    expect(github.count('GET /repos/{owner}/{repo}/pulls/{pull_number}/files')).toBe(1);
    expect(github.count('POST /repos/{owner}/{repo}/check-runs')).toBe(0);
    // Nothing of the commits was read either.
    expect(github.requests.filter((r) => r.route !== 'GET /repos/{owner}/{repo}/pulls/{pull_number}/files' && !r.route.includes('access_tokens'))).toEqual([]);

    // A workflow moved out of .github/ counts by its previous name; an action's metadata anywhere counts.
    for (const [number, files] of [
      [32, [{ filename: 'ci/old.yml', previous_filename: '.github/workflows/old.yml' }]],
      [33, ['tools/setup/action.yaml']],
    ] as const) {
      github.reset();
      github.setPullRequestFiles(s.fullName, number, files);
      const checked = await runPullRequestCheck(prJob(s, headSha, baseSha, { pullNumber: number }), ctx(), host);
      expect(checked.checkRun).not.toBeNull();
    }
    // No list (GitHub no longer knows the pull request, or it has more than 3,000 files): checked.
    github.reset();
    const unknown = await runPullRequestCheck(prJob(s, headSha, baseSha, { pullNumber: 34 }), ctx(), host);
    expect(unknown.checkRun).not.toBeNull();
    expect(github.count('GET /repos/{owner}/{repo}/pulls/{pull_number}/files')).toBe(1);
  });

  it('sends more than 50 annotations in batches; a retry after a failed batch resumes without a second check run or a repeated annotation', async () => {
    const s = await setup(1);
    const baseSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI });
    const files: Record<string, string> = { '.github/workflows/ci.yml': CI };
    for (let i = 0; i < 40; i++) files[`.github/workflows/triage-${String(i).padStart(2, '0')}.yml`] = triage(i);
    const headSha = github.addCommit(s.fullName, files);
    github.fault('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', { kind: 'status', status: 502 }, { times: 1 });

    const failed = await runPullRequestCheck(prJob(s, headSha, baseSha), ctx(), host).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).not.toBeInstanceOf(JobRejected);
    expect(github.checkRuns(s.fullName)[0]!.annotations).toHaveLength(50);

    const outcome = await runPullRequestCheck(prJob(s, headSha, baseSha), ctx(), host);
    expect(outcome.created).toBe(false);
    expect(github.count('POST /repos/{owner}/{repo}/check-runs')).toBe(1);
    const runs = github.checkRuns(s.fullName);
    expect(runs).toHaveLength(1);
    const annotations = runs[0]!.annotations.map((a) => `${String(a.path)}:${String(a.start_line)}`);
    expect(annotations).toHaveLength(80);
    expect(new Set(annotations).size).toBe(80);
    expect(runs[0]!.bodies.every((b) => ((b.output as { annotations: unknown[] }).annotations ?? []).length <= 50)).toBe(true);
  });

  it("reads a fork's head commit through the API at its SHA, from the base repository, and never asks for the fork", async () => {
    const s = await setup(1);
    const fork = github.addRepository({ fullName: `outsider-${id()}/service`, files: { '.github/workflows/ci.yml': CI } });
    const baseSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI });
    // GitHub keeps the pull request's head (refs/pull/<n>/head) in the base repository.
    const headSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': triage() });
    const outcome = await runPullRequestCheck(prJob(s, headSha, baseSha, { headRepoId: fork.id }), ctx(), host);
    expect(outcome.output?.conclusion).toBe('failure');
    expect(github.requests.some((r) => r.repository?.toLowerCase() === fork.fullName.toLowerCase())).toBe(false);
    expect(github.requests.some((r) => r.url.includes(`/git/trees/${headSha}`))).toBe(true);
    // Only API reads and the check run: nothing is cloned or run (every request is one of these routes).
    expect(new Set(github.routesRequested())).toEqual(
      new Set([
        'POST /app/installations/{installation_id}/access_tokens',
        'GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
        'POST /graphql',
        'GET /repos/{owner}/{repo}/git/trees/{tree_sha}',
        'GET /repos/{owner}/{repo}',
        'GET /repos/{owner}/{repo}/actions/permissions',
        'GET /repos/{owner}/{repo}/actions/permissions/workflow',
        'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval',
        'GET /repos/{owner}/{repo}/actions/runners',
        'GET /repos/{owner}/{repo}/hooks',
        'GET /repos/{owner}/{repo}/commits/{ref}/check-runs',
        'POST /repos/{owner}/{repo}/check-runs',
      ]),
    );
  });

  it("reports without failing when the installation's policy says so, and succeeds when the pull request adds nothing above LOW", async () => {
    const s = await setup(1);
    const policy: CheckPolicy = { fail_on_high: false };
    expect(await setInstallationCheckPolicy(t.db, s.users[0]!.userId, s.installationId, policy)).toEqual(policy);
    const baseSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI });
    const headSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': triage() });
    const reported = await runPullRequestCheck(prJob(s, headSha, baseSha), ctx(), host);
    expect(reported.output?.conclusion).toBe('success');
    expect(reported.output?.summary).toContain('without failing the check');

    await setInstallationCheckPolicy(t.db, s.users[0]!.userId, s.installationId, { fail_on_high: true });
    const quietSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': `${CI}# a comment\n` });
    const quiet = await runPullRequestCheck(prJob(s, quietSha, baseSha, { pullNumber: 13 }), ctx(), host);
    expect(quiet.output).toMatchObject({ conclusion: 'success', annotations: [] });
    const [stored] = await t.query<{ pull_number: number; conclusion: string }>('select pull_number, conclusion from public.check_runs where repository_id = $1', [s.users[0]!.repositoryId]);
    expect(stored).toEqual({ pull_number: 13, conclusion: 'success' });
  });

  it('a GitHub 5xx while reading the head throws for a retry and publishes nothing', async () => {
    const s = await setup(1);
    const baseSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI });
    const headSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': triage() });
    github.fault('GET /repos/{owner}/{repo}/git/trees/{tree_sha}', { kind: 'status', status: 503 });
    const failed = await runPullRequestCheck(prJob(s, headSha, baseSha), ctx(), host).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).not.toBeInstanceOf(JobRejected);
    expect(github.checkRuns(s.fullName)).toEqual([]);
  });
});

describe('recheck', () => {
  it("runs the user's latest scan's commit again with the current settings and stores a 'schedule' scan when the result changed", async () => {
    const s = await setup(1);
    const sha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI });
    await runPushScan({ kind: 'push-scan', installationId: s.installationId, repoId: s.repoId, sha, deliveryId: 'd-9' }, ctx(), host);
    // Nothing changed: the identical result is not stored again.
    expect(await runRecheck({ kind: 'recheck', installationId: s.installationId, repoId: s.repoId }, ctx(), host)).toEqual({ users: 1, stored: 0 });
    // The repository's settings changed since (the default token became read-write).
    github.repository(s.fullName).settings.workflow_permissions = { default_workflow_permissions: 'write', can_approve_pull_request_reviews: true };
    github.reset();
    expect(await runRecheck({ kind: 'recheck', installationId: s.installationId, repoId: s.repoId }, ctx(), host)).toEqual({ users: 1, stored: 1 });
    expect(github.requests.some((r) => r.url.includes(`/git/trees/${sha}`))).toBe(true);
    const rows = await scansOf([s.users[0]!.repositoryId]);
    expect(rows.map((r) => [r.trigger, r.commit_sha])).toEqual([
      ['push', sha],
      ['schedule', sha],
    ]);
  });
});

describe('handlers', () => {
  it('dispatch each kind; no stored row holds a token', async () => {
    const s = await setup(1);
    const handlers = monitorHandlers(host);
    const sha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': triage() });
    await handlers.run({ kind: 'push-scan', installationId: s.installationId, repoId: s.repoId, sha, deliveryId: 'h-1' }, ctx());
    const baseSha = github.addCommit(s.fullName, { '.github/workflows/ci.yml': CI });
    await handlers.run({ kind: 'pr-check', installationId: s.installationId, repoId: s.repoId, pullNumber: 3, headSha: sha, baseSha, headRepoId: s.repoId, deliveryId: 'h-2' }, ctx());
    await handlers.run({ kind: 'recheck', installationId: s.installationId, repoId: s.repoId }, ctx());
    const rows = await t.query<{ row: string }>(
      `select row_to_json(x)::text as row from (
         select s.*, null as f from public.scans s where s.repository_id = $1
         union all select s.*, row_to_json(f)::text from public.findings f join public.scans s on s.id = f.scan_id where s.repository_id = $1
       ) x
       union all select row_to_json(c)::text from public.check_runs c where c.repository_id = $1`,
      [s.users[0]!.repositoryId],
    );
    expect(rows.length).toBeGreaterThan(2);
    for (const { row } of rows) expect(row).not.toMatch(/gh[suopr]_[A-Za-z0-9_-]{10,}/);
    expect(github.checkRuns(s.fullName)).toHaveLength(1);
  });
});
