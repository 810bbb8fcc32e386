/**
 * What the workflow's own comments say of a job's `environment:`: a YAML comment on the `environment:` line or
 * inside its value, in the comment block right above it, or anywhere in the job (and the comment block right
 * above the job's key) that says the environment needs a manual approval (`# requires approval`, `# protected:
 * required reviewers`, `# manual approval gate`); or a block of whole-line comments elsewhere in the workflow (its
 * header, above `on:`) that says so and names environments or that job (`# We use environments to require approval
 * to run benchmarks on PRs`, `# ... depends on the Authorize job, which requires manually approving the workflow
 * run`). Only the workflow file's own comments count; a comment that negates (`# no approval needed`) does not.
 * The claim is the workflow author's, not the settings': a finding that rests on it says so.
 */
import type { Job, Workflow } from '../model/workflow.js';
import { ScanCache } from '../model/scan-cache.js';

/** Words that say a person approves the run. */
const APPROVAL = /\bapprov\w*|\breviewers?\b|\bmanual(?:ly)?[\s-]+(?:approv\w*|gate\w*|review\w*|confirm\w*|sign[\s-]?off|intervention)/i;
/** Words before the approval that negate it. */
const NEGATION = /\b(?:no|not|without|skip\w*|bypass\w*|never|doesn'?t|don'?t|isn'?t|aren'?t|unprotected|nothing)\b[^.;]*$/i;
/** At most this many lines of a job are read for comments. */
const MAX_LINES = 400;
/** At most this many characters of one comment are kept for the description. */
const MAX_QUOTE = 120;

/** The comment of one line (the text after a `#` that starts a comment outside quotes), or null. */
export function lineComment(line: string): string | null {
  // Most lines (a script's above all) hold no `#`: only a `#` starts a comment, so they are not walked.
  if (!line.includes('#')) return null;
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== null) {
      if (c === quote) quote = null;
      continue;
    }
    if ((c === '"' || c === "'") && (i === 0 || /[\s:[{,-]/.test(line[i - 1] as string))) quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] as string))) return line.slice(i + 1).trim();
  }
  return null;
}

/** True when a comment says a person approves the run (and does not negate it). */
export function saysApproval(comment: string): boolean {
  const match = APPROVAL.exec(comment);
  if (match === null) return false;
  return !NEGATION.test(comment.slice(0, match.index));
}

const cache = new ScanCache<Job, string | null>();

/**
 * The workflow's own comment that says the job's environment needs a manual approval, quoted (shortened), or null
 * when the job has no `environment:` or no such comment.
 */
export function environmentApprovalComment(job: Job): string | null {
  if (cache.has(job)) return cache.get(job) ?? null;
  const found = findComment(job);
  cache.set(job, found);
  return found;
}

function findComment(job: Job): string | null {
  if (job.environment === undefined) return null;
  const file = job.workflow.file;
  const first = file.position(job.key.start).line - 1;
  const last = Math.min(file.position(job.node.end).line - 1, first + MAX_LINES);
  // `index` is 0-based here; the file's lines are 1-based.
  const lineText = (index: number): string => file.lineText(index + 1);
  const comments: string[] = [];
  // The comment block right above the job's key (a job's own heading).
  for (let i = first - 1; i >= 0 && first - i <= 20; i--) {
    const text = lineText(i);
    if (!/^\s*#/.test(text)) break;
    comments.push(lineComment(text) ?? '');
  }
  for (let i = first; i <= last; i++) {
    const comment = lineComment(lineText(i));
    if (comment !== null) comments.push(comment);
  }
  const hit = comments.find(saysApproval) ?? workflowComment(job);
  if (hit === undefined) return null;
  return hit.length > MAX_QUOTE ? `${hit.slice(0, MAX_QUOTE - 3)}...` : hit;
}

/** At most this many lines of a workflow are read for its blocks of comments. */
const MAX_FILE_LINES = 3_000;
/** A block of comments that names environments. */
const ENVIRONMENTS = /\benvironments?\b/i;

const blocks = new ScanCache<Workflow, string[][]>();

/**
 * The workflow's blocks of consecutive whole-line comments before its first job (its header, inside `on:` or `env:`;
 * not the first job's own heading, the block right above its key) that say a person approves the run (each
 * block's lines). A comment inside one job is that job's, never another's.
 */
function approvalBlocks(workflow: Workflow): string[][] {
  let found = blocks.get(workflow);
  if (found !== undefined) return found;
  found = [];
  const file = workflow.file;
  const firstJob = workflow.jobs.reduce((min, j) => Math.min(min, file.position(j.key.start).line), Infinity);
  const count = Math.min(file.lineStarts.length, MAX_FILE_LINES, firstJob - 1);
  let block: string[] = [];
  const close = () => {
    if (block.some(saysApproval)) found?.push(block);
    block = [];
  };
  for (let line = 1; line <= count; line++) {
    const text = file.lineText(line);
    if (/^\s*#/.test(text)) block.push(lineComment(text) ?? '');
    else close();
  }
  // A block that runs up to the first job's key is that job's heading, read with the job.
  blocks.set(workflow, found);
  return found;
}

/**
 * The line of a comment block of the workflow (outside the job's own lines) that says a person approves the run,
 * when the block names environments or the job (`the Authorize job`, `job \`deploy\``); undefined otherwise.
 */
function workflowComment(job: Job): string | undefined {
  const id = job.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const named = new RegExp(`\\b${id}\`?\\s+jobs?\\b|\\bjobs?\\s+\`?${id}\\b`, 'i');
  for (const block of approvalBlocks(job.workflow)) {
    const text = block.join(' ');
    if (ENVIRONMENTS.test(text) || named.test(text)) return block.find(saysApproval);
  }
  return undefined;
}
