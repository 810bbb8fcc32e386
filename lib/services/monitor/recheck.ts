import { codeHost } from '../../codehost/index.js';
import type { CodeHost, RepositorySnapshot } from '../../codehost/port.js';
import { listRepositoryScans, monitorRepositoryUsers } from '../../db/operations.js';
import { checkTimeLeft, forQueue, gateBudget, scanForUser, snapshotDeadline } from './common.js';
import type { JobContext, MonitorJob } from './jobs.js';

export type RecheckJob = Extract<MonitorJob, { kind: 'recheck' }>;

export interface RecheckOutcome {
  users: number;
  stored: number;
}

/**
 * The daily re-check: the online audits (new advisories, impostor commits, archived actions: lib/online)
 * run again for each user's latest scan of the repository, at the commit that scan read (the default
 * branch's head when it named none), with the user's rule settings; the result is stored as a scan with
 * `trigger: 'schedule'` (a result identical to the latest scan is not stored again: that one stays, its time
 * brought up to date). The installation's GitHub budget gates it (deferred under the reserve), and the audits
 * spend at most the share of it a manual scan's do. Users whose latest scans read the same commit share one snapshot.
 */
export async function runRecheck(job: RecheckJob, ctx: Pick<JobContext, 'db' | 'deadline' | 'signal'>, host?: CodeHost): Promise<RecheckOutcome> {
  const { db } = ctx;
  const targets = await monitorRepositoryUsers(db, job.installationId, job.repoId);
  const first = targets[0];
  if (first === undefined) return { users: 0, stored: 0 };
  const github = host ?? (await codeHost());
  gateBudget(github, job.installationId, first.full_name.split('/')[0] ?? first.full_name);
  const snapshots = new Map<string, Promise<RepositorySnapshot>>();
  let users = 0;
  let stored = 0;
  for (const target of targets) {
    checkTimeLeft(ctx.deadline, ctx.signal);
    const latest = (await listRepositoryScans(db, target.user_id, target.repository_id, { limit: 1, beforeSeq: null }))?.[0];
    // Never scanned by this user: nothing of theirs to re-check.
    if (latest === undefined) continue;
    const ref = latest.commit_sha ?? undefined;
    const key = ref ?? 'HEAD';
    let snapshot = snapshots.get(key);
    if (snapshot === undefined) {
      const deadline = snapshotDeadline(ctx.deadline);
      snapshot = forQueue(() =>
        github.fetchSnapshot({ installationId: job.installationId, fullName: target.full_name, defaultBranch: target.default_branch, private: target.private, ...(ref === undefined ? {} : { ref }) }, { deadline }),
      );
      snapshots.set(key, snapshot);
    }
    const recorded = await scanForUser(db, { target, snapshot: await snapshot, trigger: 'schedule', online: { host: github, installationId: job.installationId, deadline: snapshotDeadline(ctx.deadline) } });
    if (recorded === null) continue;
    users++;
    if (recorded.stored === true) stored++;
  }
  return { users, stored };
}
