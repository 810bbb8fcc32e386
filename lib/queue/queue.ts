// The monitoring queue: enqueue jobs (idempotent by key) and drain a bounded batch of them. The queue itself
// is pgmq (messages, visibility-timeout leases, read counts, the archive) with server functions around it for
// what pgmq does not do (supabase/migrations/*_monitor_queue_pgmq.sql), behind the `Database` port, so the
// same code runs on Supabase (over its RPC API), a Postgres server and the embedded PGlite of `npm run dev`.
import * as v from 'valibot';
import type { Database } from '../db/port.js';
import { log } from '../http/log.js';
import { jobHandlers } from './handlers.js';
import { claimRows, enqueueRechecks, enqueueRows, pruneRows, settleRow, type ClaimedRow, type JobRow } from './store.js';
import { JobDeferred, JobRejected, type JobHandlers, type MonitorJob } from './types.js';

/** How jobs are taken and retried. One place, documented in docs/deployment.md ("The monitoring queue"). */
export const QUEUE_LIMITS = {
  /** Attempts before a job is set aside (dead) with its last failure as the reason. */
  maxAttempts: 5,
  /** Backoff after the n-th failure: base * 4^(n-1), at most `backoffMaxSeconds`, plus up to 20% jitter. */
  backoffBaseSeconds: 30,
  backoffMaxSeconds: 60 * 60,
  /** A claimed job is the drain's for this long; a drain that dies leaves it to the next after this. */
  leaseSeconds: 120,
  /** Jobs of one installation running at once, across every drain. */
  installationConcurrency: 2,
  /** Jobs of one installation started per hour (its GitHub budget, `installation_rate_limits` bucket `monitor_jobs`). */
  installationJobsPerHour: 600,
  /** Done jobs are kept this long, so that a redelivery of the same push enqueues nothing; dead ones longer. */
  doneRetentionDays: 7,
  deadRetentionDays: 30,
  /** The daily re-check covers repositories scanned in this many days. */
  recheckSinceDays: 30,
  recheckMaxJobs: 50_000,
} as const;

const Id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER));
const Sha = v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/));
const DeliveryId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{1,100}$/));

/** A job as stored: exactly the contract's fields (`strictObject`: nothing else, a token least of all). */
export const MonitorJobSchema = v.variant('kind', [
  v.strictObject({ kind: v.literal('push-scan'), installationId: Id, repoId: Id, sha: Sha, deliveryId: DeliveryId }),
  v.strictObject({
    kind: v.literal('pr-check'),
    installationId: Id,
    repoId: Id,
    pullNumber: Id,
    headSha: Sha,
    baseSha: Sha,
    headRepoId: Id,
    deliveryId: DeliveryId,
  }),
  v.strictObject({ kind: v.literal('recheck'), installationId: Id, repoId: Id }),
]);

/** The UTC day of `now`, YYYY-MM-DD: a re-check is once per repository per day. */
export const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/** The idempotency key: kind, installation, repository and commit (a pull request's: number and head SHA). */
export function jobKey(job: MonitorJob, now: Date = new Date()): string {
  switch (job.kind) {
    case 'push-scan':
      return `push-scan:${job.installationId}:${job.repoId}:${job.sha}`;
    case 'pr-check':
      return `pr-check:${job.installationId}:${job.repoId}:${job.pullNumber}:${job.headSha}`;
    case 'recheck':
      return `recheck:${job.installationId}:${job.repoId}:${dayOf(now)}`;
  }
}

/**
 * Enqueues jobs; the keys added (a key already queued, run within its window or dead adds nothing, and so does
 * an installation nobody linked, a suspended one, or a repository no user has).
 */
export async function enqueue(db: Database, jobs: readonly MonitorJob[], now: Date = new Date()): Promise<string[]> {
  if (jobs.length === 0) return [];
  const rows: JobRow[] = jobs.map((job) => ({
    key: jobKey(job, now),
    kind: job.kind,
    installation_id: job.installationId,
    repo_id: job.repoId,
    payload: v.parse(MonitorJobSchema, job),
  }));
  const { enqueued } = await enqueueRows(db, rows);
  return enqueued;
}

/** The daily re-check: one job per repository scanned in the last 30 days (once per day). */
export async function enqueueDailyRechecks(db: Database, now: Date = new Date()): Promise<number> {
  const { enqueued } = await enqueueRechecks(db, dayOf(now), QUEUE_LIMITS.recheckSinceDays, QUEUE_LIMITS.recheckMaxJobs);
  return enqueued;
}

export interface DrainOptions {
  db: Database;
  /** Stop claiming after this many jobs. */
  maxJobs: number;
  /** Milliseconds this drain may take: no job is claimed once less than `leaveMs` remains, and running ones are aborted then. */
  budgetMs: number;
  /** Held back from the budget for settling (the function's own limit is beyond the budget). Default 2,000. */
  leaveMs?: number;
  /** Jobs this drain runs at once (each installation's cap applies on top). Default 4. */
  parallel?: number;
  handlers?: JobHandlers;
  /** Only these installations' jobs (the webhook's drain: its own delivery's); all when absent. */
  installationIds?: readonly number[];
  /** Prune done and dead jobs past their windows first (the cron's drain does; the webhook's does not). */
  prune?: boolean;
}

export interface DrainResult {
  claimed: number;
  done: number;
  retried: number;
  deferred: number;
  dead: number;
  /** Attempts whose lease was lost before they settled (another drain has the job now). */
  lost: number;
  /** Milliseconds from each done job's enqueue to its end. */
  latenciesMs: number[];
}

/** The wait after the `attempt`-th failure, in seconds. */
export function backoffSeconds(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(QUEUE_LIMITS.backoffBaseSeconds * 4 ** Math.max(attempt - 1, 0), QUEUE_LIMITS.backoffMaxSeconds);
  return Math.round(base * (1 + 0.2 * random()));
}

const reasonOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 1000);

/**
 * Claims and runs jobs until `maxJobs` are taken, the queue has nothing ready, or the budget is nearly spent.
 * Each job's handler resolves (done), or throws: `JobDeferred` puts it off without counting the attempt,
 * `JobRejected` or a last attempt sets it aside with the reason, anything else retries it after a backoff.
 */
export async function drain(options: DrainOptions): Promise<DrainResult> {
  const { db, maxJobs } = options;
  const handlers = options.handlers ?? jobHandlers();
  const parallel = Math.max(1, options.parallel ?? 4);
  const deadline = Date.now() + options.budgetMs;
  const stopClaimingAt = deadline - (options.leaveMs ?? 2_000);
  const result: DrainResult = { claimed: 0, done: 0, retried: 0, deferred: 0, dead: 0, lost: 0, latenciesMs: [] };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error('The drain ran out of time.')), Math.max(options.budgetMs, 0));
  try {
    if (options.prune === true) await pruneRows(db, QUEUE_LIMITS.doneRetentionDays, QUEUE_LIMITS.deadRetentionDays, 1_000);
    // `parallel` workers, each taking the next job as soon as its last one settles (no batch waits for its
    // slowest job). One claim at a time, sized to the workers waiting for one. A worker whose claim finds
    // nothing ends; while others still run, their own next claims find what their jobs' installations free.
    const buffer: ClaimedRow[] = [];
    let claiming: Promise<number> | null = null;
    let waiting = 0;
    const claim = (limit: number) =>
      claimRows(db, {
        limit,
        leaseSeconds: QUEUE_LIMITS.leaseSeconds,
        maxAttempts: QUEUE_LIMITS.maxAttempts,
        concurrency: QUEUE_LIMITS.installationConcurrency,
        budget: QUEUE_LIMITS.installationJobsPerHour,
        budgetWindowSeconds: 3600,
        ...(options.installationIds === undefined ? {} : { installationIds: options.installationIds }),
      }).then((rows) => {
        result.claimed += rows.length;
        buffer.push(...rows);
        return rows.length;
      });
    const next = async (): Promise<ClaimedRow | null> => {
      for (;;) {
        const row = buffer.shift();
        if (row !== undefined) return row;
        if (result.claimed >= maxJobs || Date.now() >= stopClaimingAt) return null;
        waiting += 1;
        try {
          // Let the other idle workers reach this point, so that one claim serves them all.
          await Promise.resolve();
          claiming ??= claim(Math.max(1, Math.min(waiting, maxJobs - result.claimed))).finally(() => (claiming = null));
          if ((await claiming) === 0 && buffer.length === 0) return null;
        } finally {
          waiting -= 1;
        }
      }
    };
    const worker = async () => {
      for (let row = await next(); row !== null; row = await next()) await runOne(db, handlers, row, { signal: abort.signal, deadline }, result);
    };
    await Promise.all(Array.from({ length: Math.min(parallel, maxJobs) }, worker));
  } finally {
    clearTimeout(timer);
  }
  return result;
}

async function runOne(db: Database, handlers: JobHandlers, row: ClaimedRow, run: { signal: AbortSignal; deadline: number }, result: DrainResult): Promise<void> {
  const parsed = v.safeParse(MonitorJobSchema, row.payload);
  let outcome: 'done' | 'retry' | 'defer' | 'dead';
  let reason: string | null = null;
  let after = 0;
  if (!parsed.success) {
    outcome = 'dead';
    reason = 'The stored payload is not a job of this version.';
  } else if (run.signal.aborted || Date.now() >= run.deadline) {
    // Claimed, but the drain ran out of time before the job could start: handed back at once, and the read
    // is not an attempt (nothing ran, so there is nothing to back off from).
    outcome = 'defer';
    after = 1;
    reason = 'The drain ran out of time before the job started.';
  } else {
    try {
      await handlers.run(parsed.output, {
        db,
        jobId: String(row.id),
        attempt: row.attempt,
        maxAttempts: QUEUE_LIMITS.maxAttempts,
        signal: run.signal,
        deadline: run.deadline,
      });
      outcome = 'done';
    } catch (error) {
      reason = reasonOf(error);
      if (error instanceof JobDeferred) {
        outcome = 'defer';
        after = Math.max(1, Math.ceil(error.retryAfterSeconds));
      } else if (error instanceof JobRejected || row.attempt >= QUEUE_LIMITS.maxAttempts) {
        outcome = 'dead';
      } else {
        outcome = 'retry';
        after = backoffSeconds(row.attempt);
      }
      const name = error instanceof Error ? error.name : typeof error;
      log({ level: outcome === 'dead' ? 'error' : 'info', msg: 'queue job failed', job_id: row.id, kind: parsed.output.kind, attempt: row.attempt, outcome, error: name });
    }
  }
  const { settled } = await settleRow(db, row, outcome, reason, after);
  if (!settled) {
    result.lost += 1;
    return;
  }
  if (outcome === 'done') {
    result.done += 1;
    result.latenciesMs.push(Date.now() - Date.parse(row.enqueued_at));
  } else if (outcome === 'retry') result.retried += 1;
  else if (outcome === 'defer') result.deferred += 1;
  else result.dead += 1;
}
