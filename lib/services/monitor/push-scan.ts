import { codeHost } from '../../codehost/index.js';
import type { CodeHost } from '../../codehost/port.js';
import { monitorRepositoryUsers } from '../../db/operations.js';
import { checkTimeLeft, forQueue, gateBudget, scanForUser, snapshotDeadline } from './common.js';
import type { JobContext, MonitorJob } from './jobs.js';

export type PushScanJob = Extract<MonitorJob, { kind: 'push-scan' }>;

/** What a push scan did (for the log and the tests). */
export interface PushScanOutcome {
  /** Users served (each a scan stored, or the identical one kept). */
  users: number;
  /** Scans stored anew (0 when the job ran before: nothing new is stored). */
  stored: number;
}

/**
 * A push to the default branch: the commit is read once (with the installation's token, at that SHA) and
 * scanned for every user linked to the installation who has the repository, each with their own rule
 * settings, stored like a manual scan with `trigger: 'push'` and the commit. Running it again stores nothing
 * new (`record_scan` keeps one push scan per commit). No one linked, or the installation suspended: nothing
 * to do. A GitHub failure throws before anything is stored for the users not yet served; the queue retries.
 */
export async function runPushScan(job: PushScanJob, ctx: Pick<JobContext, 'db' | 'deadline' | 'signal'>, host?: CodeHost): Promise<PushScanOutcome> {
  const { db } = ctx;
  const targets = await monitorRepositoryUsers(db, job.installationId, job.repoId);
  const first = targets[0];
  if (first === undefined) return { users: 0, stored: 0 };
  const github = host ?? (await codeHost());
  gateBudget(github, job.installationId, first.full_name.split('/')[0] ?? first.full_name);
  const deadline = snapshotDeadline(ctx.deadline);
  const snapshot = await forQueue(() =>
    github.fetchSnapshot({ installationId: job.installationId, fullName: first.full_name, defaultBranch: first.default_branch, private: first.private, ref: job.sha }, { deadline }),
  );
  let stored = 0;
  let users = 0;
  for (const target of targets) {
    checkTimeLeft(ctx.deadline, ctx.signal);
    const recorded = await scanForUser(db, {
      target,
      snapshot,
      trigger: 'push',
      commitSha: job.sha,
      online: { host: github, installationId: job.installationId, deadline: snapshotDeadline(ctx.deadline) },
    });
    if (recorded === null) continue;
    users++;
    if (recorded.stored === true) stored++;
  }
  return { users, stored };
}
