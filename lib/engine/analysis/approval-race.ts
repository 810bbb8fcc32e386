/**
 * A maintainer's comment that approves a pull request's run approves the commits the maintainer saw; a checkout
 * of the pull request's branch (`refs/pull/N/head`, `gh pr checkout`) resolves the head only when the job runs, so
 * commits pushed after the comment run too: the approval race. Some workflows close it themselves: before the
 * code is fetched, a step compares when the head repository was last pushed (`pushed_at`, a time GitHub records)
 * with when the approving comment or review was written, and fails the job when the push is newer. Then what runs
 * is what was approved.
 *
 * Only a time GitHub records counts: a commit's author or committer date is whatever the contributor's git said
 * (`git commit --date`, `GIT_COMMITTER_DATE`), so a check against it closes nothing, also when the variable that holds
 * it is called `pushedAt`; such a check is named in the race's finding (`commitDateCheck`). A check that the head
 * is the commit the approving comment names (a SHA written in the comment, compared with the head looked up
 * before the checkout) closes the race too: the maintainer approved that commit.
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
/** A commit's own date, which its author sets: REST/GraphQL fields and `git log`/`git show` formats. */
const COMMIT_DATE = /\b(?:committer|author)\.date\b|\b(?:committedDate|authoredDate)\b|%[ac][Iictd]\b/;
/** A name a line assigns (`const pushedAt = ...`, `PUSHED_AT=$(...)`, `pushedAt: ...`). */
const ASSIGNED = /^\s*(?:export\s+|const\s+|let\s+|var\s+|local\s+)?([A-Za-z_$][\w$]*)\s*[:=]/;
/** A SHA taken from the approving comment (`/ok-to-test sha=abc1234`) and a head looked up to compare it with. */
const COMMENT_TEXT = /\bcomment\.body\b|\bslash_command\.args\b/;
const SHA_PATTERN = /\[(?:0-9a-f|a-f0-9|0-9a-fA-F|0-9A-Fa-f|a-fA-F0-9|\[:xdigit:\])\]|\bsha\s*=/i;
const HEAD_SHA = /\bhead\.sha\b|\bheadRefOid\b|\bhead_sha\b|\bHEAD_SHA\b/;
const COMPARES = /!==?|===?|\bstartsWith\s*\(|\s-ne\s|\s!=\s/;
/** The step fails the job when the check does not hold. */
const FAILS = /\bexit\s+[1-9]\b|\bcore\.setFailed\s*\(|\bthrow\s+new\b|\bthrow\s+['"`]|\bprocess\.exit\s*\(\s*[1-9]/;

/** Every string value of a node, joined: a script and the environment it reads the times from. */
function text(node: YNode | undefined): string {
  if (node === undefined) return '';
  if (node.kind === 'scalar') return typeof node.value === 'string' ? node.value : '';
  if (node.kind === 'map') return node.pairs.map((p) => text(p.value)).join('\n');
  return node.items.map(text).join('\n');
}

/** The script (`run:` or a github-script's `script:`) and the environment it reads the times from. */
function bodyOf(step: Step): string {
  return `${text(step.run)}\n${text(step.with)}\n${text(step.env)}`;
}

/**
 * True when the text reads a push time GitHub records: a `pushed_at`/`pushedDate` field, not a variable of that
 * name that a line fills with a commit's own date (`const pushedAt = new Date(commit.committer.date)`).
 */
function readsPushTime(body: string): boolean {
  const dated = new Set<string>();
  for (const line of body.split('\n')) {
    const name = COMMIT_DATE.test(line) ? ASSIGNED.exec(line)?.[1] : undefined;
    if (name !== undefined) dated.add(name.toLowerCase());
  }
  const pattern = new RegExp(PUSH_TIME.source, 'gi');
  for (const match of body.matchAll(pattern)) {
    const field = body[match.index - 1] === '.';
    if (field || !dated.has(match[0].toLowerCase())) return true;
  }
  return false;
}

/** True when the step fails unless the head looked up is the commit the approving comment names. */
function pinsCommentSha(body: string): boolean {
  if (!COMMENT_TEXT.test(body) || !SHA_PATTERN.test(body)) return false;
  return body.split('\n').some((line) => HEAD_SHA.test(line) && COMPARES.test(line));
}

/**
 * How the step closes the race, in words (`fails the job when the head was pushed after the approval`), or null:
 * it compares a GitHub-recorded push time with the approval's time, or the head with the commit the comment
 * names, and fails otherwise.
 */
export function closesApprovalRace(step: Step): string | null {
  if (!alwaysRuns(step)) return null;
  const body = bodyOf(step);
  if (!FAILS.test(body)) return null;
  if (APPROVAL_TIME.test(body) && readsPushTime(body)) return 'fails the job when the head was pushed after the approval';
  if (pinsCommentSha(body)) return 'fails the job when the head is not the commit the approving comment names';
  return null;
}

/**
 * A step of the job (or of a job it needs) that compares the approval's time with a commit's own date, in words,
 * or null: it looks like a guard against pushes after the approval, but the pull request's author sets commit
 * dates (`git commit --date`, `GIT_COMMITTER_DATE`), so a commit pushed after the comment with an earlier date
 * passes it.
 */
export function commitDateCheck(job: Job): string | null {
  for (const candidate of [job, ...gatingJobs(job)]) {
    for (const step of candidate.steps) {
      const body = bodyOf(step);
      if (!APPROVAL_TIME.test(body) || !COMMIT_DATE.test(body) || readsPushTime(body)) continue;
      const name = step.name === null ? `step ${step.index + 1}` : `step \`${step.name}\``;
      return `${name}${candidate === job ? '' : ` of job \`${candidate.id}\``} compares the approval's time with a commit's own date, which the pull request's author sets with \`git commit --date\` or \`GIT_COMMITTER_DATE\`, so a commit pushed after the approval with an earlier date passes it`;
    }
  }
  return null;
}

const byJob = new ScanCache<Job, { step: Step; how: string } | null>();

/** The first step of the job that always runs and closes the race, with how, or null. */
function closingStep(job: Job): { step: Step; how: string } | null {
  let found = byJob.get(job);
  if (found === undefined) {
    found = null;
    for (const step of job.steps) {
      const how = closesApprovalRace(step);
      if (how !== null) {
        found = { step, how };
        break;
      }
    }
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
  if (own !== null && own.step.index < step.index) return `${own.step.name === null ? `step ${own.step.index + 1}` : `step \`${own.step.name}\``} ${own.how}`;
  for (const needed of gatingJobs(job)) {
    const closing = continuesOnError(needed.node) ? null : closingStep(needed);
    if (closing !== null) return `job \`${needed.id}\`, which this job needs, ${closing.how.replace('fails the job', 'fails')}`;
  }
  return null;
}
