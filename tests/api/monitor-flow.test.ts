// Monitoring end to end: a signed delivery to POST /api/github/webhooks enqueues a job, the delivery drains it
// with the monitor's own handlers (the queue's default), and the handler reads the fake GitHub (msw) through
// the GitHub App adapter: a push leads to a stored scan of that SHA, a pull request to exactly one check run
// on its head SHA, a repeated delivery to nothing new, and a GitHub 5xx during the scan to a retry that
// succeeds.

import { App } from '@octokit/app';
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { POST } from '../../api/github/webhooks.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { linkInstallation, syncRepositories } from '../../lib/db/operations.js';
import { drain } from '../../lib/queue/queue.js';
import { useWebhookVerifier } from '../../lib/services/webhooks.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { startFakeGitHub, testAppCredentials, testGitHubCodeHost, type FakeGitHub, type RunningFakeGitHub } from '../support/github/index.js';
import { apiRequest } from '../support/http.js';

const SECRET = 'webhook-secret-for-the-monitor-flow';
const CI = 'name: ci\non: push\npermissions: {}\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n';
const TRIAGE = `name: triage
on:
  issues:
    types: [opened]
permissions:
  contents: write
jobs:
  label:
    runs-on: ubuntu-latest
    steps:
      - run: echo "\${{ github.event.issue.title }}"
        env:
          DEPLOY_KEY: \${{ secrets.DEPLOY_KEY }}
`;

let t: TestDatabase;
let fake: RunningFakeGitHub;
let github: FakeGitHub;
let nextId = 9_300_000;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  fake = startFakeGitHub();
  github = fake.github;
  useCodeHost(testGitHubCodeHost());
  const { appId, privateKey } = testAppCredentials();
  useWebhookVerifier(new App({ appId, privateKey, webhooks: { secret: SECRET } }).webhooks);
});
afterEach(() => github.reset());
afterAll(async () => {
  fake.close();
  await t.close();
});

async function deliver(event: string, payload: unknown): Promise<Response> {
  const body = JSON.stringify(payload);
  const headers = { 'x-github-event': event, 'x-github-delivery': randomUUID(), 'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` };
  return POST(await apiRequest('POST', '/api/github/webhooks', { body, headers }));
}

/** An organization's installation with one repository, linked by one user. */
async function linkedRepository() {
  const installationId = nextId++;
  const login = `org-${installationId}`;
  github.addInstallation({ id: installationId, account: { login, id: nextId++, type: 'Organization' } });
  const repository = github.addRepository({ fullName: `${login}/service`, installationId, files: { '.github/workflows/ci.yml': CI } });
  const userId = await t.createUser();
  await linkInstallation(t.db, userId, { installationId, accountLogin: login, accountType: 'Organization' });
  const [row] = await syncRepositories(t.db, userId, [
    { github_id: repository.id, installation_id: installationId, full_name: repository.fullName, private: false, html_url: `https://github.com/${repository.fullName}`, default_branch: 'main' },
  ]);
  return { installationId, repository, repositoryId: row!.id };
}

const push = (installationId: number, repoId: number, after: string) => ({
  ref: 'refs/heads/main',
  before: '0'.repeat(40),
  after,
  created: false,
  deleted: false,
  forced: false,
  commits: [{ id: after, message: 'ci: label issues', added: ['.github/workflows/triage.yml'], removed: [], modified: [] }],
  head_commit: { id: after },
  repository: { id: repoId, name: 'service', full_name: 'org/service', default_branch: 'main', private: false },
  pusher: { name: 'octocat', email: 'octocat@example.com' },
  sender: { login: 'octocat', id: 1 },
  installation: { id: installationId },
});

const scansOf = (repositoryId: string) =>
  t.query<{ trigger: string; commit_sha: string | null }>('select trigger, commit_sha from public.scans where repository_id = $1 order by seq', [repositoryId]);
const jobsOf = (installationId: number) =>
  t.query<{ kind: string; state: string; attempts: number; last_error: string | null }>(
    `select j.kind, j.state, coalesce(j.attempts, q.read_ct - j.read_offset, 0) as attempts, j.last_error
     from public.monitor_jobs j left join pgmq.q_monitor q on q.msg_id = j.msg_id
     where j.installation_id = $1 order by j.msg_id`,
    [installationId],
  );

describe('monitoring from a signed delivery to its result', () => {
  it('a push to the default branch leads to a stored scan of that SHA; the same push again stores nothing', async () => {
    const r = await linkedRepository();
    const sha = github.addCommit(r.repository.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': TRIAGE });
    expect((await deliver('push', push(r.installationId, r.repository.id, sha))).status).toBe(204);
    expect(await jobsOf(r.installationId)).toEqual([{ kind: 'push-scan', state: 'done', attempts: 1, last_error: null }]);
    expect(await scansOf(r.repositoryId)).toEqual([{ trigger: 'push', commit_sha: sha }]);
    // Read at the pushed commit, with the installation's token.
    expect(github.requests.some((q) => q.url.includes(`/git/trees/${sha}`) && q.auth === 'installation')).toBe(true);

    expect((await deliver('push', { ...push(r.installationId, r.repository.id, sha), pusher: { name: 'again' } })).status).toBe(204);
    expect(await jobsOf(r.installationId)).toHaveLength(1);
    expect(await scansOf(r.repositoryId)).toHaveLength(1);
  });

  it('a pull request leads to exactly one check run on its head SHA; a repeated delivery creates nothing', async () => {
    const r = await linkedRepository();
    const base = github.addCommit(r.repository.fullName, { '.github/workflows/ci.yml': CI });
    const head = github.addCommit(r.repository.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': TRIAGE });
    const opened = {
      action: 'opened',
      number: 5,
      pull_request: { number: 5, state: 'open', head: { ref: 'feature', sha: head, repo: { id: r.repository.id } }, base: { ref: 'main', sha: base, repo: { id: r.repository.id } } },
      repository: { id: r.repository.id, name: 'service', full_name: r.repository.fullName },
      sender: { login: 'contributor', id: 2 },
      installation: { id: r.installationId },
    };
    expect((await deliver('pull_request', opened)).status).toBe(204);
    expect(github.count('POST /repos/{owner}/{repo}/check-runs')).toBe(1);
    const [run] = github.checkRuns(r.repository.fullName);
    expect(run).toMatchObject({ name: 'Chainbreaker', head_sha: head, conclusion: 'failure', status: 'completed' });
    expect(run!.annotations.map((a) => [a.path, a.annotation_level])).toEqual([
      ['.github/workflows/triage.yml', 'failure'],
      ['.github/workflows/triage.yml', 'failure'],
    ]);
    const [stored] = await t.query<{ conclusion: string; head_sha: string }>('select conclusion, head_sha from public.check_runs where repository_id = $1', [r.repositoryId]);
    expect(stored).toEqual({ conclusion: 'failure', head_sha: head });

    // Delivered again (a new delivery id, another body: reopened with the same head): nothing new.
    expect((await deliver('pull_request', { ...opened, action: 'reopened' })).status).toBe(204);
    expect(github.count('POST /repos/{owner}/{repo}/check-runs')).toBe(1);
    expect(github.checkRuns(r.repository.fullName)).toHaveLength(1);
  });

  it('a GitHub 5xx during the scan fails the attempt with its reason; the retry succeeds', async () => {
    const r = await linkedRepository();
    const sha = github.addCommit(r.repository.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': TRIAGE });
    github.fault('POST /graphql', { kind: 'status', status: 502 }, { repository: r.repository.fullName });
    expect((await deliver('push', push(r.installationId, r.repository.id, sha))).status).toBe(204);
    const [failed] = await jobsOf(r.installationId);
    expect(failed).toMatchObject({ kind: 'push-scan', state: 'queued', attempts: 1 });
    expect(failed!.last_error).toContain('502');
    expect(await scansOf(r.repositoryId)).toEqual([]);

    // GitHub recovers; the backoff is over (moved to now rather than waited for).
    github.clearFaults();
    await t.query('update pgmq.q_monitor set vt = now() where msg_id in (select msg_id from public.monitor_jobs where installation_id = $1)', [r.installationId]);
    const result = await drain({ db: t.db, maxJobs: 5, budgetMs: 25_000, installationIds: [r.installationId] });
    expect(result).toMatchObject({ claimed: 1, done: 1 });
    expect(await jobsOf(r.installationId)).toEqual([{ kind: 'push-scan', state: 'done', attempts: 2, last_error: expect.stringContaining('502') }]);
    expect(await scansOf(r.repositoryId)).toEqual([{ trigger: 'push', commit_sha: sha }]);
  });
});
