import { CodeHostError, type CodeHost, type RepositorySnapshot } from '../../codehost/port.js';
import { recordTriggeredScan, scanContext } from '../../db/operations.js';
import type { Database } from '../../db/port.js';
import type { MonitoredRepository, RecordedScan, ScanTrigger } from '../../db/types.js';
import { AREA_INFO, SETTINGS_AREAS } from '../../engine/settings/areas.js';
import type { SettingsSnapshot } from '../../engine/settings/snapshot.js';
import { env } from '../../env.js';
import { HttpError } from '../../http/errors.js';
import { checkInstallationUsable } from '../installations.js';
import type { EngineJob } from '../engine-worker.js';
import { contentHash, rememberReferences, runEngineJob, storedFindings, storedRuleOptions } from '../scan.js';
import { JobDeferred, JobRejected } from './jobs.js';

/**
 * What the monitor's jobs share: the gate on the installation's GitHub budget, what a code-host failure
 * means for the queue, and one user's scan of a snapshot stored with its trigger.
 */

/** How long a job's snapshot may take (as a manual scan's), and never past the drain's deadline. */
export const JOB_SNAPSHOT_MS = 20_000;
/** A user's scan does not start with less than this left before the drain's deadline: the job is retried instead. */
export const JOB_SCAN_RESERVE_MS = 3_000;

/** Throws `JobDeferred` while the installation's GitHub budget is under the reserve (as a manual scan gets 503). */
export function gateBudget(host: CodeHost, installationId: number, account: string): void {
  try {
    checkInstallationUsable(host, { installationId, account, suspended: false });
  } catch (error) {
    if (error instanceof HttpError && error.status === 503) throw new JobDeferred(error.message, retryAfterOf(error) ?? 60);
    throw error;
  }
}

function retryAfterOf(error: HttpError): number | undefined {
  const value = Number(error.headers['Retry-After'] ?? error.headers['retry-after']);
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : undefined;
}

/**
 * A code-host failure as the queue reads it: GitHub's rate limit defers the job (no attempt spent); a
 * repository or commit GitHub does not have, or a permission the App lacks, cannot be helped by a retry
 * (the dead letter, with the reason); anything else (5xx, time out) is thrown on and retried with backoff.
 */
export function asJobError(error: unknown): unknown {
  if (!(error instanceof CodeHostError)) return error;
  if (error.kind === 'rate_limited') return new JobDeferred(error.message, error.retryAfter ?? 60);
  if (error.kind === 'not_found' || error.kind === 'forbidden') return new JobRejected(error.message);
  return error;
}

/** Runs `work`, mapping a code-host failure for the queue. */
export async function forQueue<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asJobError(error);
  }
}

/** The reason a member's copy of a settings area read with the App's token is left out. */
export const MEMBER_AREA_WITHHELD = "a scan the monitor starts reads with the App's token, and this area is shown only to the repository's admins, so a scan of a repository you reach as a member leaves it out";

/**
 * The settings as a member may see them: the monitor reads with the App's token, which may read areas only
 * a repository's admins see; for a user who reaches the repository as a member (their own GitHub access),
 * those areas are unreadable, as they are in the member's own scans (GitHub refuses them).
 */
export function memberSettings(settings: SettingsSnapshot): SettingsSnapshot {
  const copy: Record<string, unknown> = { ...settings };
  const unreadable: Record<string, string> = { ...settings.unreadable };
  for (const area of SETTINGS_AREAS) {
    const permission = AREA_INFO[area].permission;
    if (permission === 'Metadata: read' || permission === 'Contents: read') continue;
    delete copy[area];
    unreadable[area] = MEMBER_AREA_WITHHELD;
  }
  copy.unreadable = unreadable;
  return copy as SettingsSnapshot;
}

export interface UserScan {
  target: MonitoredRepository;
  snapshot: RepositorySnapshot;
  trigger: ScanTrigger;
  /** The commit to store; the snapshot's when absent. */
  commitSha?: string;
  /** Runs the online audits with the installation's reader (the host's), within `deadline`. */
  online?: { host: CodeHost; installationId: number; deadline: number };
}

/**
 * One user's scan of a snapshot, stored like a manual scan (their rule settings and options, fixes,
 * retention) with its trigger. Null when the user no longer has the repository, or their stored options no
 * longer fit a rule (their manual scans are refused the same way, with what to change).
 */
export async function scanForUser(db: Database, scan: UserScan): Promise<RecordedScan | null> {
  const { target, snapshot } = scan;
  const context = await scanContext(db, target.user_id, target.repository_id);
  if (context === null) return null;
  let ruleOptions: Record<string, unknown>;
  try {
    ruleOptions = await storedRuleOptions(context.rule_options);
  } catch (error) {
    if (error instanceof HttpError && error.status === 400) return null;
    throw error;
  }
  const disabled = new Set(context.disabled_rules);
  const isEnabled = (ruleId: string) => !disabled.has(ruleId);
  const { maxEngineMs, ...limits } = env().scanLimits;
  const settings = target.access === 'member' ? memberSettings(snapshot.settings) : snapshot.settings;
  const job: EngineJob = {
    files: snapshot.files,
    ruleset: 'all',
    disabled: [...disabled],
    settings,
    repository: target.full_name,
    ruleOptions,
    ...(context.rule_severities === undefined ? {} : { severities: context.rule_severities }),
    online: scan.online !== undefined && scan.online.host.onlineReader !== undefined,
    limits,
    maxEngineMs,
  };
  const online = job.online && scan.online !== undefined ? startOnline(db, scan.online, context.action_references ?? [], isEnabled) : undefined;
  const run = await runEngineJob(job, online, snapshot.files);
  const findings = storedFindings(run.result, run.fixes);
  const { history, quota } = env().scanStorage;
  const commitSha = scan.commitSha ?? snapshot.commitSha;
  const [recorded] = await Promise.all([
    recordTriggeredScan(db, target.user_id, {
      repositoryId: target.repository_id,
      ruleset: 'all',
      counts: run.result.counts,
      findings,
      retention: { contentHash: contentHash(snapshot.files, findings), keep: history, quota },
      trigger: scan.trigger,
      ...(commitSha === undefined ? {} : { commitSha }),
    }),
    rememberReferences(db, target.user_id, target.repository_id, context.action_references ?? [], run.references),
  ]);
  return recorded;
}

async function startOnline(db: Database, online: NonNullable<UserScan['online']>, previous: readonly string[], isEnabled: (ruleId: string) => boolean) {
  const { startOnlineAudits } = await import('../../online/service.js');
  return startOnlineAudits({ reader: () => online.host.onlineReader?.(online.installationId, { deadline: online.deadline }), db, previous, isEnabled, deadline: online.deadline });
}

/** Throws (the job is retried) when too little of the drain's time is left to start another user's scan. */
export function checkTimeLeft(deadline: number, signal: AbortSignal | undefined, now = Date.now()): void {
  if (signal?.aborted === true || now > deadline - JOB_SCAN_RESERVE_MS) {
    throw new Error("The drain's time ran out before every user's scan was stored; the job runs again and stores only what is missing.");
  }
}

/** The snapshot's deadline for a job: the manual scan's, never past the drain's. */
export function snapshotDeadline(drainDeadline: number, now = Date.now()): number {
  return Math.min(drainDeadline, now + JOB_SNAPSHOT_MS);
}
