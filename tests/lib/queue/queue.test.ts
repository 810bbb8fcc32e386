// The queue's contract, on the data tests' database: PGlite, or a real Postgres server with TEST_DATABASE_URL
// (CI). The concurrent-drainers test needs a server's concurrent connections and is skipped on PGlite.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordScan, setInstallationSuspended } from '../../../lib/db/operations.js';
import { PostgresDatabase } from '../../../lib/db/postgres.js';
import { backoffSeconds, drain, enqueue, enqueueDailyRechecks, jobKey, QUEUE_LIMITS } from '../../../lib/queue/queue.js';
import { claimRows, settleRow, type ClaimLimits } from '../../../lib/queue/store.js';
import { JobDeferred, JobRejected, type JobHandlers, type MonitorJob } from '../../../lib/queue/types.js';
import { countsOf, finding, githubId, userWithRepositories } from '../../support/db-fixtures.js';
import { openTestDatabase, REAL_SERVER_ONLY, testDatabaseTarget, type TestDatabase } from '../../support/db.js';
import { skipReason } from '../../support/skips.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(async () => t.close());

const sha = () => randomUUID().replace(/-/g, '').padEnd(40, '0').slice(0, 40);
const push = (installationId: number, repoId: number, commit = sha()): Extract<MonitorJob, { kind: 'push-scan' }> => ({ kind: 'push-scan', installationId, repoId, sha: commit, deliveryId: randomUUID() });

interface JobRow {
  state: string;
  attempts: number;
  last_error: string | null;
  due_in: number;
}
async function row(job: MonitorJob): Promise<JobRow> {
  // Our row (state, reason) with its pgmq message (the read count, what attempts are counted from; when it is due).
  const [r] = await t.query<JobRow>(
    `select j.state, coalesce(j.attempts, q.read_ct - j.read_offset, 0) as attempts, j.last_error,
            extract(epoch from q.vt - clock_timestamp())::float8 as due_in
     from public.monitor_jobs j left join pgmq.q_monitor q on q.msg_id = j.msg_id
     where j.job_key = $1`,
    [jobKey(job)],
  );
  if (r === undefined) throw new Error(`no job ${jobKey(job)}`);
  return r;
}
/** Where pgmq holds the job's message: in the queue, in its archive (set aside), or nowhere (done). */
async function messageOf(job: MonitorJob): Promise<'queue' | 'archive' | 'gone'> {
  const [r] = await t.query<{ place: 'queue' | 'archive' | 'gone' }>(
    `select case when exists (select 1 from pgmq.q_monitor q where q.msg_id = j.msg_id) then 'queue'
                 when exists (select 1 from pgmq.a_monitor a where a.msg_id = j.msg_id) then 'archive' else 'gone' end as place
     from public.monitor_jobs j where j.job_key = $1`,
    [jobKey(job)],
  );
  return r!.place;
}
/** Time passes: every queued job of the installation is due now (its pgmq message is visible). */
async function due(installationId: number): Promise<void> {
  await t.query(
    `update pgmq.q_monitor set vt = clock_timestamp() where msg_id in (select msg_id from public.monitor_jobs where installation_id = $1 and state in ('queued', 'waiting'))`,
    [installationId],
  );
}
/** The lease of a claimed job runs out (its drain died). */
async function leaseRunsOut(job: MonitorJob): Promise<void> {
  await t.query(`update pgmq.q_monitor set vt = clock_timestamp() - interval '1 second' where msg_id = (select msg_id from public.monitor_jobs where job_key = $1)`, [jobKey(job)]);
}
async function repositoriesOf(count: number) {
  const user = await t.createUser();
  const { installationId, repositories } = await userWithRepositories(t.db, user, count);
  return { user, installationId, repoIds: repositories.map((r) => r.github_id), repositories };
}

const succeed: JobHandlers = { run: async () => undefined };
// Files share a server database: each drain here takes only the jobs of its test's installation.
const drainOf = (installationId: number, handlers: JobHandlers, maxJobs = 50) =>
  drain({ db: t.db, handlers, maxJobs, budgetMs: 20_000, leaveMs: 0, installationIds: [installationId] });

describe('enqueue', () => {
  it('adds a job once: a second delivery of the same push adds nothing, before or after it ran', async () => {
    const { installationId, repoIds } = await repositoriesOf(1);
    const job = push(installationId, repoIds[0]!);
    expect(await enqueue(t.db, [job])).toEqual([jobKey(job)]);
    expect(await messageOf(job)).toBe('queue');
    expect(await enqueue(t.db, [{ ...job, deliveryId: randomUUID() }])).toEqual([]);
    const ran = await drainOf(installationId, succeed);
    expect(ran.done).toBe(1);
    expect(await messageOf(job)).toBe('gone');
    expect((await row(job)).state).toBe('done');
    expect(await enqueue(t.db, [job])).toEqual([]);
    // Another commit of the same repository is another job.
    expect(await enqueue(t.db, [push(installationId, repoIds[0]!)])).toHaveLength(1);
  });

  it('adds nothing for an installation nobody linked, a repository nobody has, or a suspended installation', async () => {
    const { installationId, repoIds } = await repositoriesOf(1);
    expect(await enqueue(t.db, [push(githubId(), repoIds[0]!)])).toEqual([]);
    expect(await enqueue(t.db, [push(installationId, githubId())])).toEqual([]);
    await setInstallationSuspended(t.db, installationId, true);
    expect(await enqueue(t.db, [push(installationId, repoIds[0]!)])).toEqual([]);
    await setInstallationSuspended(t.db, installationId, false);
    expect(await enqueue(t.db, [push(installationId, repoIds[0]!)])).toHaveLength(1);
  });

  it('refuses a payload with anything but ids (a token field fails before the database)', async () => {
    const { installationId, repoIds } = await repositoriesOf(1);
    const withToken = { ...push(installationId, repoIds[0]!), token: 'ghs_secret' } as unknown as MonitorJob;
    await expect(enqueue(t.db, [withToken])).rejects.toThrow();
    const [stored] = await t.query<{ n: number }>(`select count(*)::int as n from pgmq.q_monitor where message::text like '%ghs_%'`);
    expect(stored!.n).toBe(0);
  });

  it('enqueues one re-check per repository scanned in the last 30 days, once a day', async () => {
    const { user, installationId, repositories } = await repositoriesOf(3);
    const findings = [finding()];
    await recordScan(t.db, user, { repositoryId: repositories[0]!.id, ruleset: 'all', counts: countsOf(findings), findings });
    await recordScan(t.db, user, { repositoryId: repositories[1]!.id, ruleset: 'all', counts: countsOf(findings), findings });
    await t.query(`update public.scans set created_at = now() - interval '40 days' where repository_id = $1`, [repositories[1]!.id]);
    const day = new Date();
    expect(await enqueueDailyRechecks(t.db, day)).toBeGreaterThanOrEqual(1);
    const keys = await t.query<{ job_key: string }>(`select job_key from public.monitor_jobs where installation_id = $1 and kind = 'recheck'`, [installationId]);
    expect(keys.map((k) => k.job_key)).toEqual([jobKey({ kind: 'recheck', installationId, repoId: repositories[0]!.github_id }, day)]);
    await enqueueDailyRechecks(t.db, day);
    const again = await t.query<{ n: number }>(`select count(*)::int as n from public.monitor_jobs where installation_id = $1`, [installationId]);
    expect(again[0]!.n).toBe(1);
  });
});

describe('drain', () => {
  it('retries a failed job after a backoff, then runs it to done', async () => {
    const { installationId, repoIds } = await repositoriesOf(1);
    const job = push(installationId, repoIds[0]!);
    await enqueue(t.db, [job]);
    const attempts: number[] = [];
    const flaky: JobHandlers = {
      run: async (_job, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt === 1) throw new Error('GitHub answered 502');
      },
    };
    expect(await drainOf(installationId, flaky)).toMatchObject({ claimed: 1, retried: 1, done: 0 });
    const waiting = await row(job);
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1, last_error: 'Error: GitHub answered 502' });
    expect(waiting.due_in).toBeGreaterThan(QUEUE_LIMITS.backoffBaseSeconds - 2);
    expect(waiting.due_in).toBeLessThanOrEqual(QUEUE_LIMITS.backoffBaseSeconds * 1.2 + 1);
    expect(await drainOf(installationId, flaky)).toMatchObject({ claimed: 0 });
    await due(installationId);
    expect(await drainOf(installationId, flaky)).toMatchObject({ claimed: 1, done: 1 });
    expect(attempts).toEqual([1, 2]);
    expect((await row(job)).state).toBe('done');
  });

  it('sets a job that keeps failing aside after the last attempt, with the reason', async () => {
    const { installationId, repoIds } = await repositoriesOf(1);
    const job = push(installationId, repoIds[0]!);
    await enqueue(t.db, [job]);
    const poison: JobHandlers = { run: async () => Promise.reject(new TypeError('cannot read the tree')) };
    for (let i = 1; i <= QUEUE_LIMITS.maxAttempts; i++) {
      const result = await drainOf(installationId, poison);
      expect(result.claimed).toBe(1);
      expect(result.dead).toBe(i === QUEUE_LIMITS.maxAttempts ? 1 : 0);
      await due(installationId);
    }
    expect(await row(job)).toMatchObject({ state: 'dead', attempts: QUEUE_LIMITS.maxAttempts, last_error: 'TypeError: cannot read the tree' });
    expect(await messageOf(job)).toBe('archive');
    expect(await drainOf(installationId, poison)).toMatchObject({ claimed: 0 });
  });

  it('sets a rejected job aside at once, and does not count a deferred attempt', async () => {
    const { installationId, repoIds } = await repositoriesOf(2);
    const rejected = push(installationId, repoIds[0]!);
    const deferred = push(installationId, repoIds[1]!);
    await enqueue(t.db, [rejected, deferred]);
    const handlers: JobHandlers = {
      run: async (job) => {
        if (job.kind === 'push-scan' && job.repoId === repoIds[0]) throw new JobRejected('the repository is gone');
        throw new JobDeferred('the installation budget is spent', 90);
      },
    };
    expect(await drainOf(installationId, handlers)).toMatchObject({ claimed: 2, dead: 1, deferred: 1 });
    expect(await row(rejected)).toMatchObject({ state: 'dead', attempts: 1, last_error: 'JobRejected: the repository is gone' });
    const later = await row(deferred);
    expect(later).toMatchObject({ state: 'queued', attempts: 0 });
    expect(later.due_in).toBeGreaterThan(85);
  });

  it('sets aside a stored payload that is not a job', async () => {
    const { installationId, repoIds } = await repositoriesOf(1);
    const job = push(installationId, repoIds[0]!);
    await enqueue(t.db, [job]);
    await t.query(`update pgmq.q_monitor set message = message || '{"token":"x"}' where msg_id = (select msg_id from public.monitor_jobs where job_key = $1)`, [jobKey(job)]);
    let ran = 0;
    expect(await drainOf(installationId, { run: async () => void ran++ })).toMatchObject({ claimed: 1, dead: 1 });
    expect(ran).toBe(0);
    expect((await row(job)).last_error).toMatch(/not a job/);
  });

  it('retries a job whose drain died once its lease runs out, and refuses the dead drain its late answer', async () => {
    const { installationId, repoIds } = await repositoriesOf(1);
    const job = push(installationId, repoIds[0]!);
    await enqueue(t.db, [job]);
    const limits: ClaimLimits = { limit: 10, leaseSeconds: 60, maxAttempts: 2, concurrency: 2, budget: 100, budgetWindowSeconds: 3600, installationIds: [installationId] };
    const [first] = await claimRows(t.db, limits);
    expect(first).toMatchObject({ attempt: 1 });
    expect(await claimRows(t.db, limits)).toEqual([]);
    await leaseRunsOut(job);
    const [second] = await claimRows(t.db, limits);
    expect(second).toMatchObject({ id: first!.id, attempt: 2 });
    expect(await settleRow(t.db, first!, 'done')).toEqual({ settled: false });
    // The second lease runs out at the last attempt: the job is set aside.
    await leaseRunsOut(job);
    expect(await claimRows(t.db, limits)).toEqual([]);
    expect(await row(job)).toMatchObject({ state: 'dead', last_error: 'the last attempt did not finish within its lease' });
  });

  it("runs at most the installation's concurrency at once and stops at its budget", async () => {
    const { installationId, repoIds } = await repositoriesOf(5);
    await enqueue(t.db, repoIds.map((id) => push(installationId, id)));
    const limits: ClaimLimits = { limit: 10, leaseSeconds: 60, maxAttempts: 5, concurrency: 2, budget: 3, budgetWindowSeconds: 3600, installationIds: [installationId] };
    const first = await claimRows(t.db, limits);
    expect(first).toHaveLength(2);
    expect(await claimRows(t.db, limits)).toEqual([]);
    for (const claimed of first) await settleRow(t.db, claimed, 'done');
    // One more fits the budget of 3 per hour; then the rest wait for the window to reset.
    expect(await claimRows(t.db, limits)).toHaveLength(1);
    const waiting = await t.query<{ due_in: number }>(
      `select extract(epoch from q.vt - clock_timestamp())::float8 as due_in
       from public.monitor_jobs j join pgmq.q_monitor q on q.msg_id = j.msg_id where j.installation_id = $1 and j.state = 'queued'`,
      [installationId],
    );
    expect(waiting).toHaveLength(2);
    for (const w of waiting) expect(w.due_in).toBeGreaterThan(3000);
  });

  it('aborts a job at the drain deadline and retries it', async () => {
    const { installationId, repoIds } = await repositoriesOf(1);
    const job = push(installationId, repoIds[0]!);
    await enqueue(t.db, [job]);
    const slow: JobHandlers = {
      run: (_job, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted at the deadline')))),
    };
    const result = await drain({ db: t.db, handlers: slow, maxJobs: 5, budgetMs: 300, leaveMs: 0, installationIds: [installationId] });
    expect(result).toMatchObject({ claimed: 1, retried: 1 });
    expect((await row(job)).last_error).toMatch(/deadline/);
  });

  it('hands back a job claimed after the drain ran out of time, without counting the attempt', async () => {
    const { installationId, repoIds } = await repositoriesOf(1);
    const job = push(installationId, repoIds[0]!);
    await enqueue(t.db, [job]);
    let ran = 0;
    // A claim answered after the deadline (here: the budget is spent at once, and claiming is allowed past it).
    const result = await drain({ db: t.db, handlers: { run: async () => void ran++ }, maxJobs: 1, budgetMs: 0, leaveMs: -60_000, installationIds: [installationId] });
    expect(result).toMatchObject({ claimed: 1, deferred: 1, retried: 0 });
    expect(ran).toBe(0);
    const later = await row(job);
    expect(later).toMatchObject({ state: 'queued', attempts: 0, last_error: 'The drain ran out of time before the job started.' });
    expect(later.due_in).toBeLessThan(5);
  });

  it('keeps every worker busy: a slow job does not hold back the jobs after it', async () => {
    const { installationId, repoIds } = await repositoriesOf(5);
    const jobs = repoIds.map((id) => push(installationId, id));
    await enqueue(t.db, jobs);
    const started: string[] = [];
    const finished: string[] = [];
    const handlers: JobHandlers = {
      run: async (job) => {
        const slow = job.kind === 'push-scan' && job.repoId === repoIds[0];
        started.push(slow ? 'slow' : 'fast');
        await new Promise((resolve) => setTimeout(resolve, slow ? 1_500 : 20));
        finished.push(slow ? 'slow' : 'fast');
      },
    };
    const result = await drain({ db: t.db, handlers, maxJobs: 10, budgetMs: 20_000, leaveMs: 0, parallel: 2, installationIds: [installationId] });
    expect(result).toMatchObject({ claimed: 5, done: 5 });
    // The oldest job (the slow one) is claimed first; the four others run beside it, one after the other.
    expect(started[0]).toBe('slow');
    expect(finished).toEqual(['fast', 'fast', 'fast', 'fast', 'slow']);
  });

  it('backs off 4x per failure, capped at an hour, with at most 20% jitter', () => {
    expect(backoffSeconds(1, () => 0)).toBe(30);
    expect(backoffSeconds(2, () => 0)).toBe(120);
    expect(backoffSeconds(3, () => 0.5)).toBe(528);
    expect(backoffSeconds(10, () => 1)).toBe(4320);
  });
});

describe.skipIf(testDatabaseTarget.kind !== 'postgres')(`a held-back job's wake${skipReason(testDatabaseTarget.kind === 'postgres' ? null : REAL_SERVER_ONLY)}`, () => {
  // A claim's pgmq.read can keep a lock on a message it did not return: its snapshot saw the message visible,
  // another claim held it back (invisible) before this read reached it, and Postgres locks the newest version
  // before rechecking `vt <= now`, which then fails. The lock lasts until that claim commits. A settle that
  // skipped such a message left it held back with no job of its installation running to wake it.
  it('waits for a message another transaction holds, then wakes it', async () => {
    const { installationId, repoIds } = await repositoriesOf(3);
    await enqueue(t.db, repoIds.map((id) => push(installationId, id)));
    const limits: ClaimLimits = { limit: 10, leaseSeconds: 60, maxAttempts: 5, concurrency: 2, budget: 100, budgetWindowSeconds: 3600, installationIds: [installationId] };
    const running = await claimRows(t.db, limits);
    expect(running).toHaveLength(2);
    expect(await claimRows(t.db, limits)).toEqual([]);
    const [held] = await t.query<{ msg_id: string }>(`select msg_id from public.monitor_jobs where installation_id = $1 and state = 'waiting'`, [installationId]);
    expect(held).toBeDefined();
    const other = new pg.Client({ connectionString: (testDatabaseTarget as { url: string }).url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select 1 from pgmq.q_monitor where msg_id = $1 for update', [held!.msg_id]);
      const settling = settleRow(t.db, running[0]!, 'done');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.query('commit');
      expect(await settling).toEqual({ settled: true });
    } finally {
      await other.end();
    }
    const [woken] = await t.query<{ state: string; due_in: number }>(
      `select j.state, extract(epoch from q.vt - clock_timestamp())::float8 as due_in
         from public.monitor_jobs j join pgmq.q_monitor q on q.msg_id = j.msg_id where j.msg_id = $1`,
      [held!.msg_id],
    );
    expect(woken).toMatchObject({ state: 'queued' });
    expect(woken!.due_in).toBeLessThan(1);
    expect(await claimRows(t.db, limits)).toHaveLength(1);
  });

  it('wakes the next held-back job when the first one was claimed while the settle waited for it', async () => {
    const { installationId, repoIds } = await repositoriesOf(4);
    await enqueue(t.db, repoIds.map((id) => push(installationId, id)));
    const limits: ClaimLimits = { limit: 10, leaseSeconds: 60, maxAttempts: 5, concurrency: 2, budget: 100, budgetWindowSeconds: 3600, installationIds: [installationId] };
    const running = await claimRows(t.db, limits);
    expect(running).toHaveLength(2);
    expect(await claimRows(t.db, limits)).toEqual([]);
    const held = await t.query<{ msg_id: string }>(`select msg_id from public.monitor_jobs where installation_id = $1 and state = 'waiting' order by msg_id`, [installationId]);
    expect(held).toHaveLength(2);
    const other = new pg.Client({ connectionString: (testDatabaseTarget as { url: string }).url });
    await other.connect();
    try {
      // Another drain has the oldest held-back job's message and sets it running before it lets go.
      await other.query('begin');
      await other.query('select 1 from pgmq.q_monitor where msg_id = $1 for update', [held[0]!.msg_id]);
      const settling = settleRow(t.db, running[0]!, 'done');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.query(`update public.monitor_jobs set state = 'running' where msg_id = $1`, [held[0]!.msg_id]);
      await other.query('commit');
      expect(await settling).toEqual({ settled: true });
    } finally {
      await other.end();
    }
    const states = await t.query<{ msg_id: string; state: string; due_in: number }>(
      `select j.msg_id, j.state, extract(epoch from q.vt - clock_timestamp())::float8 as due_in
         from public.monitor_jobs j join pgmq.q_monitor q on q.msg_id = j.msg_id where j.msg_id = any($1) order by j.msg_id`,
      [held.map((h) => h.msg_id)],
    );
    // The first stays as that drain left it (not made visible under it); the second is woken instead.
    expect(states.map((s) => s.state)).toEqual(['running', 'queued']);
    expect(states[0]!.due_in).toBeGreaterThan(1);
    expect(states[1]!.due_in).toBeLessThan(1);
  });
});

describe.skipIf(testDatabaseTarget.kind !== 'postgres')(`four concurrent drainers${skipReason(testDatabaseTarget.kind === 'postgres' ? null : REAL_SERVER_ONLY)}`, () => {
  it('run every job exactly once, and never more than an installation allows at a time', async () => {
    const installations = await Promise.all(Array.from({ length: 8 }, () => repositoriesOf(10)));
    const jobs = installations.flatMap(({ installationId, repoIds }) => repoIds.flatMap((id) => [push(installationId, id), push(installationId, id)]));
    expect(await enqueue(t.db, jobs)).toHaveLength(jobs.length);
    const mine = new Set(jobs.map((j) => jobKey(j)));
    const ids = installations.map((i) => i.installationId);
    const runs = new Map<string, number>();
    const running = new Map<number, number>();
    let most = 0;
    const handlers: JobHandlers = {
      run: async (job) => {
        const key = jobKey(job);
        runs.set(key, (runs.get(key) ?? 0) + 1);
        const now = (running.get(job.installationId) ?? 0) + 1;
        running.set(job.installationId, now);
        most = Math.max(most, now);
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 10));
        running.set(job.installationId, (running.get(job.installationId) ?? 1) - 1);
      },
    };
    const drainers = Array.from({ length: 4 }, () => new PostgresDatabase({ connectionString: (testDatabaseTarget as { url: string }).url, maxConnections: 4 }));
    // Rounds until every job has run, bounded by time rather than by a count of rounds: on a loaded machine a
    // round can end having run few jobs (each drain stops when its claim finds nothing visible it may run).
    const until = Date.now() + 60_000;
    try {
      while (runs.size < jobs.length && Date.now() < until) {
        await Promise.all(drainers.map((db) => drain({ db, handlers, maxJobs: 1_000, budgetMs: 20_000, leaveMs: 0, parallel: 4, installationIds: ids })));
      }
    } finally {
      await Promise.all(drainers.map((db) => db.close()));
    }
    const left = jobs.map((j) => jobKey(j)).filter((key) => !runs.has(key));
    // Which jobs never ran, and how the queue holds them (a job held back with nothing left to wake it would
    // show as `waiting` with its message invisible until a lease ends).
    const leftRows = await t.query<{ job_key: string; state: string; last_error: string | null; vt_in: number | null }>(
      `select j.job_key, j.state, j.last_error, extract(epoch from q.vt - clock_timestamp())::int as vt_in
         from public.monitor_jobs j left join pgmq.q_monitor q on q.msg_id = j.msg_id where j.job_key = any($1)`,
      [left],
    );
    expect(leftRows).toEqual([]);
    expect(runs.size).toBe(jobs.length);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(most).toBeLessThanOrEqual(QUEUE_LIMITS.installationConcurrency);
    const states = await t.query<{ state: string; n: number }>(
      `select state, count(*)::int as n from public.monitor_jobs where job_key = any($1) group by state`,
      [[...mine]],
    );
    expect(states).toEqual([{ state: 'done', n: jobs.length }]);
    // The rounds above may take up to their 60 s bound on a loaded machine (a CI run timed out at the suite's 30 s
    // default once, 2026-12-01): the test's own limit is above that bound, so only a queue that stops draining fails it.
  }, 90_000);
});
