import type { Database } from '../db/port.js';
import { consumeRateLimit } from '../db/operations.js';
import { env } from '../env.js';
import { rateLimited } from '../http/errors.js';

/** The rate-limit bucket of the expensive reads (per user; `READS_RATE_LIMIT` per `SCAN_RATE_LIMIT_WINDOW_SECONDS`). */
export const READS_RATE_LIMIT_BUCKET = 'reads';

/**
 * Counts an expensive read (`GET /api/attack-paths`, a repository's combinations, a stored scan with its
 * findings: each reads up to thousands of findings) against the user's limit, before it runs; 429 when spent.
 */
export async function enforceReadsRateLimit(db: Database, userId: string): Promise<void> {
  const { max, windowSeconds } = env().readsRateLimit;
  if (max === 0) return;
  const decision = await consumeRateLimit(db, userId, { bucket: READS_RATE_LIMIT_BUCKET, limit: max, windowSeconds });
  if (!decision.allowed) throw rateLimited(decision.retry_after_seconds);
}
