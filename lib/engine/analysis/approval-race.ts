/**
 * A maintainer's comment that approves a pull request's run approves the commits the maintainer saw; a checkout
 * of the pull request's branch (`refs/pull/N/head`, `gh pr checkout`) resolves the head only when the job runs, so
 * commits pushed after the comment run too: the approval race. Some workflows close it themselves: before the
 * code is fetched, a step compares when the head repository was last pushed (`pushed_at`, a time GitHub records)
 * with when the approving comment or review was written, and fails the job when the push is newer. Then what runs
 * is what was approved.
 *
 * Only a time GitHub records counts: a commit's author or committer date is whatever the contributor's git said
 * (`git commit --date`), so a check against it closes nothing.
 *
 * The check counts where it always runs first: an earlier step of the job without `if:` or `continue-on-error`,
 * or such a step of a job this job needs (directly or through others, never one that runs after a failure).
 */
import type { Job, Step } from '../model/workflow.js';
import { ScanCache } from '../model/scan-cache.js';
import type { YNode } from '../yaml/model.js';
import { alwaysRuns, continuesOnError, gatingJobs } from './validation.js';

/** The approving act's time: a comment's or a review's. */
const APPROVAL_TIME = /\b(?:comment|review)\.(?:created_at|submitted_at)\b/;
/** A push time GitHub records (the REST `pushed_at` of the head repository, GraphQL `pushedDate`). */
const PUSH_TIME = /\bpushed_?at\b|\bpushedDate\b/i;
/** The step fails the job when the check does not hold. */
const FAILS = /\bexit\s+[1-9]\b|\bcore\.setFailed\s*\(|\bthrow\s+new\b|\bthrow\s+['"`]|\bprocess\.exit\s*\(\s*[1-9]/;

/** Every string value of a node, joined: a script and the environment it reads the times from. */
function text(node: YNode | undefined): string {
  if (node === undefined) return '';
  if (node.kind === 'scalar') return typeof node.value === 'string' ? node.value : '';
  if (node.kind === 'map') return node.pairs.map((p) => text(p.value)).join('\n');
  return node.items.map(text).join('\n');
}

/** True when the step compares a GitHub-recorded push time with the approval's time and fails otherwise. */
export function closesApprovalRace(step: Step): boolean {
  if (!alwaysRuns(step)) return false;
  // The script (`run:` or a github-script's `script:`) and the environment it reads the times from.
  const body = `${text(step.run)}\n${text(step.with)}\n${text(step.env)}`;
  return APPROVAL_TIME.test(body) && PUSH_TIME.test(body) && FAILS.test(body);
}

const byJob = new ScanCache<Job, Step | null>();

/** The first step of the job that always runs and closes the race, or null. */
function closingStep(job: Job): Step | null {
  let found = byJob.get(job);
  if (found === undefined) {
    found = job.steps.find(closesApprovalRace) ?? null;
    byJob.set(job, found);
  }
  return found;
}

/**
 * Where the approval race of a checkout at `step` is closed, in words (`step \`Check push time\` fails the job
 * when the head was pushed after the approving comment`), or null when nothing closes it.
 */
export function approvalRaceClosedBefore(step: Step): string | null {
  const job = step.job;
  if (job === null) return null;
  const own = closingStep(job);
  if (own !== null && own.index < step.index) return `${own.name === null ? `step ${own.index + 1}` : `step \`${own.name}\``} fails the job when the head was pushed after the approval`;
  for (const needed of gatingJobs(job)) {
    if (!continuesOnError(needed.node) && closingStep(needed) !== null) return `job \`${needed.id}\`, which this job needs, fails when the head was pushed after the approval`;
  }
  return null;
}
