import { codeHost } from '../../codehost/index.js';
import type { CheckRunRef, CodeHost, RepositorySnapshot } from '../../codehost/port.js';
import { installationCheckPolicy, monitorRepositoryUsers, recordCheckRun } from '../../db/operations.js';
import type { StoredFinding } from '../../db/types.js';
import { env } from '../../env.js';
import { triaged } from '../attack-paths.js';
import type { EngineJob } from '../engine-worker.js';
import { runEngineJob, storedFindings } from '../scan.js';
import { touchesPipelines } from '../webhooks.js';
import { ANNOTATIONS_PER_REQUEST, CHECK_NAME, checkRunOutput, type CheckRunOutput } from './check-run.js';
import { forQueue, gateBudget, snapshotDeadline } from './common.js';
import { JobRejected, type JobContext, type MonitorJob } from './jobs.js';

export type PullRequestCheckJob = Extract<MonitorJob, { kind: 'pr-check' }>;

export interface PullRequestCheckOutcome {
  /** Null when nothing was published (no one linked the installation, it is suspended, or the pull request changes no pipeline file). */
  checkRun: CheckRunRef | null;
  output: CheckRunOutput | null;
  /** Whether this run created the check run (false: it found the one an earlier attempt made). */
  created: boolean;
}

/**
 * The check run's `external_id`: one check run per repository and head commit, whatever the delivery, so a
 * retry, a redelivery or a `reopened` with the same head finds the one already there instead of adding one.
 */
export function externalId(job: Pick<PullRequestCheckJob, 'repoId' | 'headSha'>): string {
  return `chainbreaker:${job.repoId}:${job.headSha}`;
}

/**
 * A pull request's check. The head commit's files and the base commit's are read through GitHub's API with
 * the installation's token, both from the base repository: GitHub keeps every pull request's head commits
 * there (`refs/pull/<n>/head`), a fork's included, so a fork's files are read as data at that SHA without
 * any access to the fork, never checked out, never run. Both are scanned with every rule on (the check
 * belongs to the installation, not to one user's settings) against the base repository's settings, so the
 * only difference is the pull request's. New findings above LOW and new attack paths (by fingerprint) become
 * one check run "Chainbreaker" on the head SHA: created once, then updated (annotations past the first 50
 * in further updates; a retry resumes after those GitHub already holds, so none is sent twice). The result
 * is stored as the repository's latest check run for every user who has it.
 */
export async function runPullRequestCheck(job: PullRequestCheckJob, ctx: Pick<JobContext, 'db' | 'deadline'>, host?: CodeHost): Promise<PullRequestCheckOutcome> {
  const { db } = ctx;
  const targets = await monitorRepositoryUsers(db, job.installationId, job.repoId);
  const first = targets[0];
  if (first === undefined) return { checkRun: null, output: null, created: false };
  const github = host ?? (await codeHost());
  const checks = github.checks;
  if (checks === undefined) throw new JobRejected('This code host publishes no check runs (the GitHub App is not configured).');
  gateBudget(github, job.installationId, first.full_name.split('/')[0] ?? first.full_name);
  // Only a pull request that changes the pipelines (`.github/`, an action's metadata, dependabot) gets a check:
  // the same paths a push must touch to be scanned. A list GitHub cannot give whole is taken as touching them.
  const changed = await forQueue(() => checks.pullRequestFiles(job.installationId, first.full_name, job.pullNumber));
  if (changed !== null && !changed.some(touchesPipelines)) return { checkRun: null, output: null, created: false };
  const locator = { installationId: job.installationId, fullName: first.full_name, defaultBranch: first.default_branch, private: first.private };
  const deadline = snapshotDeadline(ctx.deadline);
  const [base, head, policy] = await forQueue(() =>
    Promise.all([
      github.fetchSnapshot({ ...locator, ref: job.baseSha }, { deadline }),
      github.fetchSnapshot({ ...locator, ref: job.headSha }, { deadline, filesOnly: true }),
      installationCheckPolicy(db, job.installationId),
    ]),
  );
  // Both sides against the base repository's settings: the head's are the same repository's.
  const [baseFindings, headFindings] = await Promise.all([scanAll(base, base, first.full_name), scanAll(head, base, first.full_name)]);
  const output = checkRunOutput({
    head: headFindings,
    base: baseFindings,
    headPaths: triaged(headFindings, []).combos,
    basePaths: triaged(baseFindings, []).combos,
    failOnHigh: policy.fail_on_high,
    baseSha: job.baseSha,
  });
  const { checkRun, created } = await forQueue(() => publish(checks, job, first.full_name, output));
  await recordCheckRun(db, job.installationId, job.repoId, {
    pull_number: job.pullNumber,
    head_sha: job.headSha,
    check_run_id: checkRun.id,
    conclusion: output.conclusion,
    html_url: checkRun.htmlUrl,
    new_findings: output.newFindings.length,
    new_attack_paths: output.newPaths.length,
  });
  return { checkRun, output, created };
}

/** Every rule on, the rules' default options, no fixes (a check shows no diff), no online audits. */
async function scanAll(snapshot: RepositorySnapshot, settingsFrom: RepositorySnapshot, fullName: string): Promise<StoredFinding[]> {
  const { maxEngineMs, ...limits } = env().scanLimits;
  const job: EngineJob = { files: snapshot.files, ruleset: 'all', disabled: [], settings: settingsFrom.settings, repository: fullName, ruleOptions: {}, online: false, limits, maxEngineMs };
  const run = await runEngineJob(job, undefined, snapshot.files, { fixes: false });
  return storedFindings(run.result, run.fixes);
}

/**
 * Creates the check run, or finds the one an earlier attempt of this job created, then sends the
 * annotations GitHub does not hold yet, at most 50 per request. Annotations are sent in a fixed order,
 * so the count GitHub reports says which ones it has.
 */
async function publish(checks: NonNullable<CodeHost['checks']>, job: PullRequestCheckJob, fullName: string, output: CheckRunOutput): Promise<{ checkRun: CheckRunRef; created: boolean }> {
  const id = externalId(job);
  const body = (annotations: CheckRunOutput['annotations']) => ({
    status: 'completed',
    conclusion: output.conclusion,
    completed_at: new Date().toISOString(),
    output: { title: output.title, summary: output.summary, annotations },
  });
  const all = output.annotations;
  const existing = await checks.find(job.installationId, fullName, job.headSha, CHECK_NAME, id);
  let checkRun: CheckRunRef;
  let sent: number;
  if (existing === null) {
    checkRun = await checks.create(job.installationId, fullName, { name: CHECK_NAME, head_sha: job.headSha, external_id: id, ...body(all.slice(0, ANNOTATIONS_PER_REQUEST)) });
    sent = Math.min(all.length, ANNOTATIONS_PER_REQUEST);
  } else {
    checkRun = existing;
    sent = Math.min(all.length, existing.annotationsCount);
    // Found complete (a redelivery of a check already published): nothing to send again.
    if (sent >= all.length && existing.status !== 'completed') checkRun = await checks.update(job.installationId, fullName, existing.id, body([]));
  }
  while (sent < all.length) {
    const batch = all.slice(sent, sent + ANNOTATIONS_PER_REQUEST);
    checkRun = await checks.update(job.installationId, fullName, checkRun.id, body(batch));
    sent += batch.length;
  }
  return { checkRun, created: existing === null };
}
