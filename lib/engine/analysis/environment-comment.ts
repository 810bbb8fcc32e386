/**
 * What the workflow's own comments say of a job's `environment:`: a YAML comment on the `environment:` line or
 * inside its value, in the comment block right above it, or anywhere in the job (and the comment block right
 * above the job's key) that says the environment needs a manual approval (`# requires approval`, `# protected:
 * required reviewers`, `# manual approval gate`). Only the workflow file's own comments count; a comment that
 * negates (`# no approval needed`) does not. The claim is the workflow author's, not the settings': a finding
 * that rests on it says so.
 */
import type { Job } from '../model/workflow.js';
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
  const hit = comments.find(saysApproval);
  if (hit === undefined) return null;
  return hit.length > MAX_QUOTE ? `${hit.slice(0, MAX_QUOTE - 3)}...` : hit;
}
