import { createHash, timingSafeEqual } from 'node:crypto';
import { database } from '../db/connection.js';
import { env } from '../env.js';
import { unauthorized } from '../http/errors.js';
import { log } from '../http/log.js';
import { drain, enqueueDailyRechecks, type DrainResult } from '../queue/queue.js';

/**
 * Vercel's cron jobs (`vercel.json` "crons"): every minute a drain of the monitoring queue, daily the
 * re-check enqueue. Vercel calls them with `Authorization: Bearer <CRON_SECRET>`; anything else is refused
 * (401) before the database is touched.
 */

/** What one cron drain takes: within the function's 30 s (vercel.json `maxDuration`), settling included. */
export const CRON_DRAIN = { maxJobs: 200, budgetMs: 25_000, leaveMs: 3_000, parallel: 4 } as const;

let secretOverride: { secret: string | null } | undefined;

/** Uses this secret from now on (tests); undefined: `CRON_SECRET` again. */
export function useCronSecret(secret: string | null | undefined): void {
  secretOverride = secret === undefined ? undefined : { secret };
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Throws 401 unless `authorization` is exactly `Bearer <CRON_SECRET>` (compared in constant time). */
export function authorizeCron(authorization: string | null): void {
  const secret = secretOverride === undefined ? env().cronSecret : secretOverride.secret;
  const challenge = 'Bearer realm="cron"';
  if (secret === null) throw unauthorized('Cron jobs are not configured on this deployment (CRON_SECRET).', challenge);
  // Digests first: equal lengths whatever was sent, so the comparison's time says nothing about the secret.
  if (authorization === null || !timingSafeEqual(digest(authorization), digest(`Bearer ${secret}`))) {
    throw unauthorized('A valid cron secret is required.', challenge);
  }
}

/** The minute's drain: prunes what outlived its window, then runs a bounded batch of every installation's jobs. */
export async function cronDrain(authorization: string | null): Promise<DrainResult> {
  authorizeCron(authorization);
  const db = await database();
  const result = await drain({ db, ...CRON_DRAIN, prune: true });
  log({
    level: 'info',
    msg: 'queue drained',
    counts: { claimed: result.claimed, done: result.done, retried: result.retried, deferred: result.deferred, dead: result.dead, lost: result.lost },
  });
  return result;
}

/** The daily re-check: one job per repository scanned in the last 30 days (the minute's drains run them). */
export async function cronRecheck(authorization: string | null): Promise<number> {
  authorizeCron(authorization);
  const enqueued = await enqueueDailyRechecks(await database());
  log({ level: 'info', msg: 'queue drained', counts: { rechecks_enqueued: enqueued } });
  return enqueued;
}
