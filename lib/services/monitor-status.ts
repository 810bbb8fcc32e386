// What the monitoring queue set aside, for the users it concerns: `GET /api/monitor/dead-jobs`.
import type { User } from '../auth.js';
import { database } from '../db/connection.js';
import { monitorDeadJobs } from '../db/operations.js';
import type { DeadJob } from '../db/types.js';

/** How many dead jobs one answer lists (newest first). */
export const DEAD_JOBS_LIMIT = 100;

/**
 * The dead jobs of the user's repositories (through the installations they linked), with the reason each
 * was set aside. Scoped by the user in the database function: another user's repositories never show.
 */
export async function listDeadJobs(user: User): Promise<{ dead_jobs: DeadJob[] }> {
  return monitorDeadJobs(await database(), user.id, DEAD_JOBS_LIMIT);
}
