// Typed wrappers of the queue's server functions (supabase/migrations/*_monitor_queue_pgmq.sql, on pgmq), as
// lib/db/operations.ts has for the others: callers never spell a function or parameter name.
import type { Database } from '../db/port.js';

/** One job as `monitor_enqueue` takes it. */
export interface JobRow {
  key: string;
  kind: string;
  installation_id: number;
  repo_id: number;
  payload: object;
  delay_seconds?: number;
}

/**
 * A job one drain claimed: its pgmq message, the lease (pgmq's read count when this drain read it: another read
 * after the lease ran out changes it) and this attempt's number. `payload` is read back, so it is checked again.
 */
export interface ClaimedRow {
  id: number;
  read_ct: number;
  attempt: number;
  payload: unknown;
  enqueued_at: string;
}

export interface ClaimLimits {
  limit: number;
  leaseSeconds: number;
  maxAttempts: number;
  concurrency: number;
  budget: number;
  budgetWindowSeconds: number;
  /** Only these installations' jobs (at most 100); all when absent. */
  installationIds?: readonly number[];
}

export type Outcome = 'done' | 'retry' | 'defer' | 'dead';

export interface QueueStats {
  queued: number;
  ready: number;
  running: number;
  done: number;
  dead: number;
  oldest_ready_seconds: number;
}

/** Adds the jobs whose keys are new, for linked, unsuspended installations and repositories someone has. */
export function enqueueRows(db: Database, jobs: readonly JobRow[]): Promise<{ enqueued: string[] }> {
  return db.call('monitor_enqueue', { p_jobs: jobs });
}

/** One `recheck` per repository scanned in the last `sinceDays` days, keyed by `day` (YYYY-MM-DD). */
export function enqueueRechecks(db: Database, day: string, sinceDays: number, limit: number): Promise<{ enqueued: number }> {
  return db.call('monitor_enqueue_rechecks', { p_day: day, p_since_days: sinceDays, p_limit: limit });
}

/** Leases up to `limit` ready jobs, within each installation's concurrency and budget. */
export function claimRows(db: Database, limits: ClaimLimits): Promise<ClaimedRow[]> {
  return db.call('monitor_claim', {
    p_limit: limits.limit,
    p_lease_seconds: limits.leaseSeconds,
    p_max_attempts: limits.maxAttempts,
    p_concurrency: limits.concurrency,
    p_budget: limits.budget,
    p_budget_window_seconds: limits.budgetWindowSeconds,
    p_installation_ids: limits.installationIds,
  });
}

/** Ends an attempt; `settled` false when the lease was no longer this drain's. */
export function settleRow(
  db: Database,
  row: { id: number; read_ct: number },
  outcome: Outcome,
  reason: string | null = null,
  afterSeconds = 0,
): Promise<{ settled: boolean }> {
  return db.call('monitor_settle', { p_id: row.id, p_read_ct: row.read_ct, p_outcome: outcome, p_reason: reason, p_after_seconds: afterSeconds });
}

/** Deletes done jobs past their idempotency window and dead jobs past theirs, at most `limit`. */
export function pruneRows(db: Database, doneDays: number, deadDays: number, limit: number): Promise<{ deleted: number }> {
  return db.call('monitor_prune', { p_done_days: doneDays, p_dead_days: deadDays, p_limit: limit });
}

export function queueStats(db: Database): Promise<QueueStats> {
  return db.call('monitor_stats', {});
}
