import type { User } from '../auth.js';
import { database } from '../db/connection.js';
import { getScan as storedScan, listRepositoryScans } from '../db/operations.js';
import type { ScanSummary, StoredScan } from '../db/types.js';
import { notFound } from '../http/errors.js';
import { enforceReadsRateLimit } from './read-limit.js';

/**
 * Reads of stored scans, for clients without direct database access (the embedded mode, scripts, CI). Both
 * are scoped by the user in the database function (a stored scan, which reads its findings, counts against
 * the user's `READS_RATE_LIMIT` first): another user's repository or scan is a 404, like one
 * that does not exist. Work is bounded: a page holds at most 100 scans (no findings), a scan's findings are
 * what `POST /api/scan` stored.
 */

export interface ScanPage {
  scans: Omit<ScanSummary, 'seq'>[];
  next_cursor: string | null;
}

/** The repository's scans, newest first; `cursor` is the `next_cursor` of the previous page. */
export async function repositoryScans(user: User, repositoryId: string, page: { limit: number; cursor?: number | undefined }): Promise<ScanPage> {
  // One row more than asked says whether an older page exists, without a count.
  const rows = await listRepositoryScans(await database(), user.id, repositoryId, { limit: page.limit + 1, beforeSeq: page.cursor ?? null });
  if (rows === null) throw notFound();
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    // A scan without a commit has none (the database says null; the key is left out, as browsers' reads do).
    scans: shown.map(({ seq: _seq, commit_sha: commit, ...scan }) => (typeof commit === 'string' ? { ...scan, commit_sha: commit } : scan)),
    next_cursor: rows.length > page.limit && last !== undefined ? String(last.seq) : null,
  };
}

/** One scan with its findings; 404 when it is not the user's. */
export async function scanById(user: User, scanId: string): Promise<StoredScan> {
  const db = await database();
  await enforceReadsRateLimit(db, user.id);
  const scan = await storedScan(db, user.id, scanId);
  if (scan === null) throw notFound();
  return scan;
}
