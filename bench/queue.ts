/**
 * The monitoring queue at scale (issue 28), on a real Postgres server only (BENCH_DATABASE_URL or
 * TEST_DATABASE_URL; without one it says so and measures nothing: PGlite is one process and says nothing
 * about concurrent drainers). 100 installations x 100 repositories = 10,000 repositories, one push-scan job
 * each, then:
 *   - enqueue rate: in batches of 500 (one `monitor_enqueue` each), and one job per call as a webhook does;
 *   - database growth per job (`pg_total_relation_size` of our table, pgmq's queue and archive, with indexes);
 *   - drain throughput per invocation (the cron's: at most 200 jobs, 4 at once) with a no-op handler, so
 *     the queue's own cost, with one drainer and with 4 concurrent drainers;
 *   - the same with a fake scan (the handler waits 100 ms, standing in for GitHub's round trips and the engine);
 *   - p95 delivery -> done at a steady 100 jobs/s with 4 drainers running.
 */
import { randomUUID } from 'node:crypto';
import type { Database, SqlDatabase } from '../lib/db/port.js';
import { PostgresDatabase } from '../lib/db/postgres.js';
import { linkInstallation, syncRepositories } from '../lib/db/operations.js';
import { CRON_DRAIN } from '../lib/services/cron.js';
import { drain, enqueue, type DrainResult } from '../lib/queue/queue.js';
import type { JobHandlers, MonitorJob } from '../lib/queue/types.js';
import { openBenchDatabase } from './service.js';
import { summarize, table } from './stats.js';

const INSTALLATIONS = 100;
const REPOSITORIES_PER_INSTALLATION = 100;
const FAKE_SCAN_MS = 100;

export interface QueueBenchResult {
  skipped?: string;
  database?: string;
  jobs?: number;
  enqueue?: { batchedJobsPerSecond: number; singleCallMs: ReturnType<typeof summarize> };
  bytesPerJob?: { queued: number; done: number };
  drain?: { label: string; drainers: number; jobs: number; seconds: number; jobsPerSecond: number; perInvocation: ReturnType<typeof summarize> }[];
  steadyState?: { jobsPerSecond: number; latencyMs: ReturnType<typeof summarize> };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha = () => randomUUID().replace(/-/g, '').padEnd(40, 'c').slice(0, 40);

export async function benchQueue(): Promise<QueueBenchResult> {
  const server = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (server === undefined) return { skipped: 'needs a real Postgres server: set BENCH_DATABASE_URL or TEST_DATABASE_URL' };
  const bench = await openBenchDatabase();
  if (!bench.kind.startsWith('postgres')) {
    await bench.close();
    return { skipped: `no Postgres server answered at BENCH_DATABASE_URL/TEST_DATABASE_URL (${bench.kind})` };
  }
  const db = bench.db;
  const url = await databaseUrl(db);
  const drainers: PostgresDatabase[] = Array.from({ length: 4 }, () => new PostgresDatabase({ connectionString: url, maxConnections: 4 }));
  try {
    // 100 installations, each linked by one user with its 100 repositories.
    const repos: { installationId: number; repoId: number }[] = [];
    for (let i = 0; i < INSTALLATIONS; i++) {
      const userId = await bench.createUser();
      const installationId = 1_000 + i;
      await linkInstallation(db, userId, { installationId, accountLogin: `org-${i}`, accountType: 'Organization' });
      const listed = Array.from({ length: REPOSITORIES_PER_INSTALLATION }, (_, n) => {
        const repoId = installationId * 1_000 + n;
        repos.push({ installationId, repoId });
        return { github_id: repoId, installation_id: installationId, full_name: `org-${i}/r${n}`, private: true, html_url: `https://github.com/org-${i}/r${n}`, default_branch: 'main' };
      });
      await syncRepositories(db, userId, listed);
    }
    // Interleaved as deliveries arrive: installation after installation.
    repos.sort((a, b) => (a.repoId % 1_000) - (b.repoId % 1_000) || a.installationId - b.installationId);
    const job = (r: { installationId: number; repoId: number }): MonitorJob => ({ kind: 'push-scan', ...r, sha: sha(), deliveryId: randomUUID() });

    const size0 = await tableBytes(db);
    const started = performance.now();
    for (let i = 0; i < repos.length; i += 500) await enqueue(db, repos.slice(i, i + 500).map(job));
    const batchedJobsPerSecond = repos.length / ((performance.now() - started) / 1000);
    const size1 = await tableBytes(db);
    // One job per call (a webhook delivery): 500 more, on repositories already queued with other commits.
    const single: number[] = [];
    for (const r of repos.slice(0, 500)) {
      const t0 = performance.now();
      await enqueue(db, [job(r)]);
      single.push(performance.now() - t0);
    }
    const total = repos.length + 500;

    const noop: JobHandlers = { run: async () => undefined };
    const fakeScan: JobHandlers = { run: async () => void (await sleep(FAKE_SCAN_MS)) };
    const phases: NonNullable<QueueBenchResult['drain']> = [];
    phases.push(await drainPhase('no-op handler', [db], noop, 2_000));
    phases.push(await drainPhase('no-op handler', drainers, noop, 4_000));
    phases.push(await drainPhase(`fake scan (${FAKE_SCAN_MS} ms)`, [db], fakeScan, 800));
    phases.push(await drainPhase(`fake scan (${FAKE_SCAN_MS} ms)`, drainers, fakeScan, total - 6_800));
    const size2 = await tableBytes(db);

    const steadyState = await steady(db, drainers, repos, job);
    return {
      database: bench.kind,
      jobs: total,
      enqueue: { batchedJobsPerSecond, singleCallMs: summarize(single) },
      bytesPerJob: { queued: (size1 - size0) / repos.length, done: (size2 - size0) / total },
      drain: phases,
      steadyState,
    };
  } finally {
    await Promise.all(drainers.map((d) => d.close()));
    await bench.close();
  }
}

/** Cron-sized invocations on `dbs` (one drainer each, concurrently) until `count` more jobs are done or the queue is empty. */
async function drainPhase(label: string, dbs: Database[], handlers: JobHandlers, count: number) {
  let done = 0;
  const invocations: number[] = [];
  const perInvocationJobs: number[] = [];
  const started = performance.now();
  const goal = count;
  while (done < goal) {
    const results = await Promise.all(
      dbs.map(async (db) => {
        const t0 = performance.now();
        const r: DrainResult = await drain({ db, handlers, ...CRON_DRAIN, maxJobs: Math.min(CRON_DRAIN.maxJobs, goal) });
        invocations.push(performance.now() - t0);
        perInvocationJobs.push(r.done);
        return r.done;
      }),
    );
    const round = results.reduce((a, b) => a + b, 0);
    if (round === 0) break;
    done += round;
  }
  const seconds = (performance.now() - started) / 1000;
  return { label, drainers: dbs.length, jobs: done, seconds, jobsPerSecond: done / seconds, perInvocation: summarize(invocations) };
}

/** 1,000 jobs arriving at 100/s while 4 drainers loop: enqueue -> done. */
async function steady(db: SqlDatabase, drainers: Database[], repos: { installationId: number; repoId: number }[], job: (r: { installationId: number; repoId: number }) => MonitorJob) {
  const latencies: number[] = [];
  let producing = true;
  const handlers: JobHandlers = { run: async () => undefined };
  const loops = drainers.map(async (d) => {
    while (producing || (await readyCount(db)) > 0) {
      const r = await drain({ db: d, handlers, maxJobs: 50, budgetMs: 5_000, leaveMs: 500 });
      latencies.push(...r.latenciesMs);
      if (r.claimed === 0) await sleep(20);
    }
  });
  const started = performance.now();
  for (let i = 0; i < 1_000; i++) {
    await enqueue(db, [job(repos[(i * 37) % repos.length]!)]);
    const next = started + (i + 1) * 10;
    const wait = next - performance.now();
    if (wait > 0) await sleep(wait);
  }
  producing = false;
  await Promise.all(loops);
  return { jobsPerSecond: 1_000 / ((performance.now() - started) / 1000), latencyMs: summarize(latencies) };
}

async function databaseUrl(db: SqlDatabase): Promise<string> {
  const { name } = await owner<{ name: string }>(db, 'select current_database() as name');
  const url = new URL(process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${name}`;
  return url.toString();
}

async function owner<R>(db: SqlDatabase, sql: string): Promise<R> {
  const rows = await db.transaction((tx) => tx.query<R>(sql));
  return rows[0]!;
}
/** The queue's tables and their indexes: our keys and states, pgmq's messages and its archive. */
const tableBytes = async (db: SqlDatabase) =>
  Number(
    (
      await owner<{ n: string }>(
        db,
        `select pg_total_relation_size('public.monitor_jobs') + pg_total_relation_size('pgmq.q_monitor') + pg_total_relation_size('pgmq.a_monitor') as n`,
      )
    ).n,
  );
/** Messages still in the queue (due now, later, or held back for their installation). */
const readyCount = async (db: SqlDatabase) => (await owner<{ n: number }>(db, `select count(*)::int as n from pgmq.q_monitor`)).n;

export function formatQueue(r: QueueBenchResult): string {
  if (r.skipped !== undefined) return `Queue: skipped (${r.skipped})`;
  const f = (n: number, d = 0) => n.toFixed(d);
  const lines = [
    `Queue (${r.database}): ${r.jobs} push-scan jobs over ${INSTALLATIONS} installations x ${REPOSITORIES_PER_INSTALLATION} repositories`,
    `enqueue: ${f(r.enqueue!.batchedJobsPerSecond)} jobs/s in batches of 500; one job per call p50 ${f(r.enqueue!.singleCallMs.p50, 1)} ms, p95 ${f(r.enqueue!.singleCallMs.p95, 1)} ms`,
    `database growth: ${f(r.bytesPerJob!.queued)} bytes per queued job, ${f(r.bytesPerJob!.done)} bytes per job after draining (table + indexes, before vacuum)`,
    table([
      ['drain (cron invocations: <= 200 jobs, 4 at once)', 'drainers', 'jobs', 'jobs/s', 'invocation p50', 'invocation p95'],
      ...r.drain!.map((p) => [p.label, String(p.drainers), String(p.jobs), f(p.jobsPerSecond), `${f(p.perInvocation.p50)} ms`, `${f(p.perInvocation.p95)} ms`]),
    ]),
    `steady state, 1,000 jobs at ${f(r.steadyState!.jobsPerSecond)} jobs/s with 4 drainers: enqueue -> done p50 ${f(r.steadyState!.latencyMs.p50)} ms, p95 ${f(r.steadyState!.latencyMs.p95)} ms, max ${f(r.steadyState!.latencyMs.max)} ms`,
  ];
  return lines.join('\n');
}
