// The contract between the queue (lib/queue: what moves jobs) and the monitor's job handlers
// (lib/services/monitor: what a job does). A job holds ids only, never a token or a file: whoever runs it
// asks GitHub (with the installation's own token) and the database afresh, so a payload read from the queue
// table gives nothing away and a stale one can do no more than a fresh delivery could.
import type { Database } from '../db/port.js';

/**
 * One unit of queued work. Ids are GitHub's: `installationId` the App installation, `repoId` the repository's
 * numeric GitHub id (not the database's per-user uuid: every user linked to the installation who has the
 * repository is served by one job), `headRepoId` the repository the pull request's head lives in (a fork's
 * id when it comes from a fork: its files are data, read through the API, never executed). SHAs are 40
 * lower-case hex digits; `deliveryId` is the `X-GitHub-Delivery` that caused the job (for logs).
 *
 * Who enqueues what (lib/services/webhooks.ts, lib/services/cron.ts): `push-scan` for a push to the default
 * branch whose listed files touch `.github/`, an `action.yml|yaml` or a `dependabot.yml|yaml`; `pr-check` for
 * every pull request opened, synchronized or reopened (the delivery does not list its files; the check
 * compares the head's findings with the base's, so a pull request that changes no pipeline file gets a
 * check with nothing new); `recheck` daily for each
 * repository scanned in the last 30 days. Only for an installation someone linked and a repository some user has.
 */
export type MonitorJob =
  | { kind: 'push-scan'; installationId: number; repoId: number; sha: string; deliveryId: string }
  | {
      kind: 'pr-check';
      installationId: number;
      repoId: number;
      pullNumber: number;
      headSha: string;
      baseSha: string;
      headRepoId: number;
      deliveryId: string;
    }
  | { kind: 'recheck'; installationId: number; repoId: number };

export type MonitorJobKind = MonitorJob['kind'];

/** What the queue gives a handler for one attempt of one job. */
export interface JobContext {
  /** The process's database (the same port the API uses). */
  db: Database;
  /** The job's id in the queue (for logs). */
  jobId: string;
  /** This attempt's number, from 1. */
  attempt: number;
  /** How many attempts the job gets before it is moved to the dead letter. */
  maxAttempts: number;
  /** Aborted when the drain's time is up (the function's limit nears): stop, and throw so that it is retried. */
  signal: AbortSignal;
  /** When the drain must be done (epoch milliseconds); the job is retried after this if it has not finished. */
  deadline: number;
}

/**
 * Runs a job. Resolving means done (the job is deleted). Throwing means failed: the job is retried with
 * backoff, and after `maxAttempts` failures moved to the dead letter with the error's message as the reason,
 * unless the error is one of the two below.
 */
export interface JobHandlers {
  run(job: MonitorJob, ctx: JobContext): Promise<void>;
}

/**
 * Thrown by a handler that cannot go on yet for a reason that is not the job's fault (the installation's
 * GitHub budget is spent, GitHub answered 403/429 with a reset time): the job runs again after
 * `retryAfterSeconds` and the attempt is not counted as a failure.
 */
export class JobDeferred extends Error {
  override readonly name = 'JobDeferred';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * Thrown by a handler when retrying cannot help (the repository is gone, the payload names something that
 * does not exist): the job goes to the dead letter at once, with this message as the reason.
 */
export class JobRejected extends Error {
  override readonly name = 'JobRejected';
}
