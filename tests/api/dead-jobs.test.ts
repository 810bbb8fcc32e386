// GET /api/monitor/dead-jobs: the monitoring jobs set aside for the user's repositories, with the reason; a
// job of a repository the user does not have never shows, however it failed.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDatabase } from '../../lib/db/connection.js';
import { linkInstallation, syncRepositories } from '../../lib/db/operations.js';
import { drain, enqueue } from '../../lib/queue/queue.js';
import { JobRejected, type JobHandlers, type MonitorJob } from '../../lib/queue/types.js';
import { bearer } from '../support/auth.js';
import { githubId, userWithRepositories } from '../support/db-fixtures.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest, dispatch } from '../support/http.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
afterAll(async () => t.close());

const sha = () => randomUUID().replace(/-/g, '').padEnd(40, '0').slice(0, 40);
const push = (installationId: number, repoId: number): MonitorJob => ({ kind: 'push-scan', installationId, repoId, sha: sha(), deliveryId: randomUUID() });
const list = async (authorization?: string) => dispatch(await apiRequest('GET', '/api/monitor/dead-jobs', authorization === undefined ? {} : { authorization }));
// Every job of the installation fails for good, except those of `spare` (done).
const failing = (spare: number): JobHandlers => ({
  run: async (job) => {
    if (job.repoId !== spare) throw new JobRejected(`the repository ${job.repoId} is gone`);
  },
});

describe('GET /api/monitor/dead-jobs', () => {
  it("lists the dead jobs of the user's repositories with their reason, and nothing of another user's", async () => {
    const owner = await t.createUser();
    const { installationId, repositories } = await userWithRepositories(t.db, owner, 3);
    // Another user linked the same installation and has one more repository of it.
    const other = await t.createUser();
    await linkInstallation(t.db, other, { installationId, accountLogin: 'octo-org', accountType: 'User' });
    const theirs = githubId();
    await syncRepositories(t.db, other, [{ github_id: theirs, installation_id: installationId, full_name: 'octo-org/theirs', private: true, html_url: 'https://github.com/octo-org/theirs', default_branch: 'main' }]);
    const jobs = [push(installationId, repositories[0]!.github_id), push(installationId, repositories[1]!.github_id), push(installationId, theirs)];
    await enqueue(t.db, jobs);
    // One worker: the three jobs are one installation's, whose cap of two running jobs holds a third back until a
    // settle wakes it; with several workers on a loaded machine that wake-up can miss this drain (the job then
    // waits out its lease, as docs/deployment.md says). This test is about the listing, not the cap.
    const ran = await drain({ db: t.db, handlers: failing(repositories[1]!.github_id), maxJobs: 10, budgetMs: 20_000, leaveMs: 0, parallel: 1, installationIds: [installationId] });
    expect(ran).toMatchObject({ dead: 2, done: 1 });

    const response = await list(await bearer(owner));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { dead_jobs: Record<string, unknown>[] };
    expect(body.dead_jobs).toEqual([
      {
        kind: 'push-scan',
        repo_id: repositories[0]!.id,
        full_name: repositories[0]!.full_name,
        sha: (jobs[0] as { sha: string }).sha,
        attempts: 1,
        reason: `JobRejected: the repository ${repositories[0]!.github_id} is gone`,
        finished_at: expect.any(String),
      },
    ]);
    // The other user sees their own repository's dead job, not the owner's.
    const others = (await (await list(await bearer(other))).json()) as { dead_jobs: { full_name: string }[] };
    expect(others.dead_jobs.map((d) => d.full_name)).toEqual(['octo-org/theirs']);
    // A user with no installation sees none.
    expect(await (await list(await bearer(await t.createUser()))).json()).toEqual({ dead_jobs: [] });
  });

  it('is 401 without a session', async () => {
    expect((await list()).status).toBe(401);
  });
});
