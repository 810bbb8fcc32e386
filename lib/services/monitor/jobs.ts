// The jobs as the queue (lib/queue/types.ts) hands them over. Until the queue lands on main these mirror its
// contract field for field; then this file re-exports it.
import type { Database } from '../../db/port.js';

export type MonitorJob =
  | { kind: 'push-scan'; installationId: number; repoId: number; sha: string; deliveryId: string }
  | { kind: 'pr-check'; installationId: number; repoId: number; pullNumber: number; headSha: string; baseSha: string; headRepoId: number; deliveryId: string }
  | { kind: 'recheck'; installationId: number; repoId: number };

export interface JobContext {
  db: Database;
  jobId: string;
  attempt: number;
  maxAttempts: number;
  signal: AbortSignal;
  deadline: number;
}

export interface JobHandlers {
  run(job: MonitorJob, ctx: JobContext): Promise<void>;
}

export class JobDeferred extends Error {
  override readonly name = 'JobDeferred';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export class JobRejected extends Error {
  override readonly name = 'JobRejected';
}
