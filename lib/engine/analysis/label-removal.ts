/**
 * A label gate the workflow consumes: a job gated on a label the pull request has (`contains(...labels.*.name,
 * 'safe to test')`) in a workflow that removes that label itself in every run. The maintainer's label then
 * approves one run, not every later push: once the label is gone, a new commit (`synchronize`) or another label
 * event finds no label and runs nothing. What remains is a race: a commit pushed between the label and its
 * removal runs under it.
 *
 * A removal counts when it runs in every run that the label lets through, before anything of the pull request
 * can run or whatever happened before it:
 * - a step of the gated job that comes before any step that runs a script or a local action (only remote
 *   actions, such as the checkout, before it), with no `if:` or one that only tests the label or the event's
 *   action; or a step with `if: always()` / `!cancelled()` anywhere in the job (it runs also after a failure);
 * - such a step of another job of the workflow that starts with the gated job (no `needs:`), with no `if:` or
 *   one that only tests the label or the event's action; or right after it (it needs the gated job, with such a
 *   condition) when the gated job checks out nothing (a gate job: when it fails, no code of the pull request
 *   ran); or of a job the gated job needs (the gated job runs only after it succeeded);
 * - such a step of a later job that needs the gated job (directly or through other jobs) and runs with
 *   `always()` or `!cancelled()` whatever the gated job did, whose own condition holds whenever the gated job's
 *   label check does (its other tests are among those beside the label check, or it tests only that label).
 *
 * A removal at the end of the job without `always()` does not count: a failing test leaves the label on, and
 * the next push runs under it. Nor does a later job without `always()` (it is skipped when the gated job
 * fails), one behind another label, or one that does not wait for the gated job.
 *
 * A removal after the code (an `always()` step after a step that runs something, or a later job) leaves the
 * label on while the run lasts (`whenRunEnds`): a label event during the run (a maintainer's or a labelling
 * bot's) finds it and runs the commits pushed since.
 *
 * How a removal names the label: `gh pr edit <n> --remove-label "<label>"` (or `gh issue edit`), `gh api -X DELETE
 * .../labels/<label>` (or `curl -X DELETE`), github-script `issues.removeLabel({ name: '<label>' })`,
 * `actions-ecosystem/action-remove-labels` and other label-removing actions with `labels:`. The name is the label
 * (case-insensitive, `%20` for spaces, also as a literal expression `${{ 'safe%20to%20test' }}`) or the event's label (`github.event.label.name`, `context.payload.label.name`),
 * which on a run the label starts is that label.
 */
import { dnf } from '../expressions/dnf.js';
import { conditionExpression } from '../expressions/extract.js';
import { Binary, contextPath, FunctionCall, functionName, Grouping, IndexAccess, ContextAccess, Literal, Unary, type Expr } from '../expressions/parse.js';
import { ScanCache } from '../model/scan-cache.js';
import type { Job, Step } from '../model/workflow.js';
import { commandName, logicalLines, pipelines, words } from '../shell.js';
import { getText, scalarText } from '../yaml/model.js';
import { dependentJobs } from './validation.js';
import { isCheckoutAction } from '../model/uses.js';

/** The event's own label, by which a run started by labelling removes the label that started it. */
const EVENT_LABEL = /^\$\{\{\s*github\.event\.label\.name\s*\}\}$|^context\.payload\.label\.name$|^github\.event\.label\.name$/;
/** A condition that only tests the label or the event's action: it holds on every run the label lets through. */
const LABEL_ONLY_CONDITION = /^[\s${}()!&|=',"\w.*-]*$/;
const CONTEXTS = /\b(github|needs|steps|env|vars|inputs|matrix|secrets|runner|job|strategy)\.[\w.*-]+|\b(?:always|success|failure|cancelled|contains|startsWith|endsWith)\s*\(/g;
const ALLOWED_ACCESS = /^(github\.event\.label\.name|github\.event\.pull_request\.labels\.\*\.name|github\.event\.action|github\.event_name|contains\s*\()$/;
/** `if: always()`, `if: ${{ !cancelled() }}`, `success() || failure()`: runs also after a failed step. */
const ALWAYS = /\balways\s*\(\s*\)|!\s*cancelled\s*\(\s*\)|success\s*\(\s*\)\s*\|\|\s*failure\s*\(\s*\)/;
/** Actions that remove the labels given in `labels:` (or `remove-labels:`). */
const REMOVING_ACTIONS = /^(actions-ecosystem\/action-remove-labels|mondeja\/remove-labels-gh-action|[\w.-]+\/[\w.-]*remove-labels?[\w.-]*)$/i;

function normalize(label: string): string {
  let text = label.trim().replace(/^(['"])(.*)\1$/, '$2');
  try {
    text = decodeURIComponent(text);
  } catch {
    // Not URL-encoded.
  }
  return text.trim().toLowerCase();
}

function names(label: string, found: string): boolean {
  let value = found.trim().replace(/^(['"])(.*)\1$/, '$2').trim();
  // A literal written as an expression: `${{ 'Approve%20E2E%20Test' }}`.
  value = value.replace(/^\$\{\{\s*'([^']*)'\s*\}\}$/, '$1');
  if (EVENT_LABEL.test(value)) return true;
  return value.split(',').some((v) => normalize(v) === normalize(label));
}

/** True when `step` removes `label` from the pull request. */
export function removesLabel(step: Step, label: string): boolean {
  const ref = step.usesRef;
  if (ref?.kind === 'repository') {
    if (ref.slug === 'actions/github-script') {
      const script = getText(step.with, 'script') ?? '';
      for (const call of script.matchAll(/\bremoveLabel\s*\(\s*\{([^}]{0,400})\}/g)) {
        const name = /\bname\s*:\s*([^,\n}]+)/.exec(call[1] ?? '')?.[1];
        if (name !== undefined && names(label, name)) return true;
      }
      return false;
    }
    const slug = ref.path === '' ? ref.slug : `${ref.slug}/${ref.path}`;
    if (REMOVING_ACTIONS.test(slug) || (ref.slug === 'andymckay/labeler' && getText(step.with, 'remove-labels') !== null)) {
      const listed = getText(step.with, 'remove-labels') ?? getText(step.with, 'labels') ?? '';
      return listed.split(/[\n,]/).some((l) => l.trim() !== '' && names(label, l.replace(/^\s*-\s*/, '')));
    }
    if (ref.slug === 'actions-cool/issues-helper' && /remove-labels/.test(getText(step.with, 'actions') ?? '')) {
      return (getText(step.with, 'labels') ?? '').split(/[\n,]/).some((l) => l.trim() !== '' && names(label, l));
    }
    return false;
  }
  if (typeof step.run?.value !== 'string') return false;
  for (const line of logicalLines(step.run.value)) {
    for (const pipeline of pipelines(line)) {
      for (const command of pipeline.commands) {
        const text = command.text.trim();
        const name = commandName(text);
        const all = words(text);
        const argv = name === null ? all : all.slice(Math.max(0, all.indexOf(name)));
        if (name === 'gh' && /^(pr|issue)$/.test(argv[1] ?? '') && argv[2] === 'edit') {
          for (let i = 3; i < argv.length; i++) {
            const arg = argv[i] as string;
            if (arg === '--remove-label' && i + 1 < argv.length && names(label, argv[i + 1] as string)) return true;
            if (arg.startsWith('--remove-label=') && names(label, arg.slice('--remove-label='.length))) return true;
          }
        }
        if ((name === 'gh' && argv[1] === 'api') || name === 'curl') {
          if (!/(?:-X|--method|--request)[\s=]+['"]?DELETE\b/i.test(text)) continue;
          const at = /\/labels\/(\$\{\{[^}]*\}\}|[^\s'"?]+)/.exec(text);
          if (at !== null && names(label, at[1] as string)) return true;
        }
      }
    }
  }
  return false;
}

/** A step that runs a script or a local action: the pull request's code may run from it. */
function runsSomething(step: Step): boolean {
  return step.run !== undefined || step.usesRef?.kind === 'local';
}

function conditionText(node: Step['if'] | Job['if']): string | null {
  if (node === undefined) return null;
  return scalarText(node) ?? '';
}

/** A condition that holds on every run the label lets through: none, or one that tests only the label and the event's action. */
function labelOnly(condition: string | null): boolean {
  if (condition === null) return true;
  if (!LABEL_ONLY_CONDITION.test(condition)) return false;
  return [...condition.matchAll(CONTEXTS)].every((m) => ALLOWED_ACCESS.test(m[0].replace(/\s+/g, '')));
}

/** The removal step of `job` that runs in every run of it (and whether it runs before any code), or null. */
function removalIn(job: Job, label: string, started: boolean): { step: Step; first: boolean } | null {
  let before = true;
  for (const step of job.steps) {
    const condition = conditionText(step.if);
    if (removesLabel(step, label) && ((condition !== null && ALWAYS.test(condition)) || (before && labelOnly(condition)))) return { step, first: before };
    // In a job that starts with the gated one, what runs before the removal is not the pull request's yet.
    if (runsSomething(step) && !started) before = false;
  }
  return null;
}

/** Where the workflow removes a label in every run of a job gated on it. */
export interface LabelRemoval {
  /** In words: `step \`Remove label\``, `step 2 of job \`unlabel\``. */
  where: string;
  /**
   * The removal waits for the code to run (an `always()` step after it, or a later job that needs the gated job
   * and runs with `always()`): the label stays on while the run lasts, so a label event during the run (a
   * maintainer's or a labelling bot's) finds it and runs the commits pushed since.
   */
  whenRunEnds: boolean;
}

const cache = new ScanCache<Job, Map<string, LabelRemoval | null>>();

/** Where the workflow removes `label` in every run of `job`, or null when a run can leave it on. */
export function labelRemovedEachRun(job: Job, label: string): LabelRemoval | null {
  let byLabel = cache.get(job);
  if (byLabel === undefined) cache.set(job, (byLabel = new Map()));
  const key = normalize(label);
  if (byLabel.has(key)) return byLabel.get(key) ?? null;
  const found = findRemoval(job, label);
  byLabel.set(key, found);
  return found;
}

function stepText(step: Step, job: Job, own: Job): string {
  const name = step.name !== null ? `step \`${step.name}\`` : `step ${step.index + 1}`;
  return job === own ? name : `${name} of job \`${job.id}\``;
}

/** A step that fetches code: the pull request's may run in the job. */
const FETCHES = /\bgit\s+(?:fetch|checkout|clone|switch|pull|worktree)\b|\bgh\s+pr\s+checkout\b/;

/** True when no step of `job` checks out or fetches code (a gate job that only tests the label). */
function checksOutNothing(job: Job): boolean {
  return job.steps.every((step) => {
    const ref = step.usesRef;
    if (ref?.kind === 'local' || isCheckoutAction(ref)) return false;
    return typeof step.run?.value !== 'string' || !FETCHES.test(step.run.value);
  });
}

function findRemoval(job: Job, label: string): LabelRemoval | null {
  const own = removalIn(job, label, false);
  if (own !== null) return { where: stepText(own.step, job, job), whenRunEnds: !own.first };
  let later: Set<Job> | undefined;
  for (const other of job.workflow.jobs) {
    if (other === job || other.uses !== undefined) continue;
    // A job the gated job needs: the gated job runs only after it succeeded, so the removal ran.
    const needed = job.needs.includes(other.id);
    // A job that starts with it, on the same runs (no `needs:`; its condition only the label's), or right after
    // a gate job that checks out nothing (the label check is a gate job's, and the job that runs the code needs
    // it). After a job that runs the code, a job without `always()` is skipped when that job fails.
    const condition = conditionText(other.if);
    const alongside = (other.needs.length === 0 || (other.needs.includes(job.id) && checksOutNothing(job))) && labelOnly(condition);
    if (needed || alongside) {
      // Alongside, a failing step before the removal leaves the label on while the gated job runs.
      const found = removalIn(other, label, needed);
      if (found !== null) return { where: stepText(found.step, other, job), whenRunEnds: false };
      continue;
    }
    // A later job that runs whatever the gated job did (`always()`), whenever the label lets the gated job run.
    if (condition === null || !ALWAYS.test(condition)) continue;
    later ??= new Set(dependentJobs(job));
    if (!later.has(other) || !holdsWithLabel(other, job, label)) continue;
    const found = removalIn(other, label, false);
    if (found !== null) return { where: stepText(found.step, other, job), whenRunEnds: true };
  }
  return null;
}

/** At most this many ways to hold per condition; a larger one is not read (the removal does not count). */
const MAX_WAYS = 64;

/**
 * True when the condition of `other` holds whenever the label check of `job` does: for every way the gated job's
 * condition (or a step's) holds through the label check, some way of `other`'s holds with only tests among
 * those beside the label check (a status function such as `always()` aside). `other` may test less (only the
 * label, or nothing), never another label or anything the gated job does not test.
 */
function holdsWithLabel(other: Job, job: Job, label: string): boolean {
  const theirs = waysOf(other.if);
  if (theirs === null) return false;
  const wanted = labelKey(label);
  const gated: Set<string>[] = [];
  for (const node of [job.if, ...job.steps.map((s) => s.if)]) {
    for (const way of waysOf(node) ?? []) if (way.has(wanted)) gated.push(way);
  }
  if (gated.length === 0) return false;
  return gated.every((way) => theirs.some((their) => [...their].every((atom) => way.has(atom))));
}

function labelKey(label: string): string {
  return `contains(github.event.pull_request.labels.*.name,${JSON.stringify(normalize(label))})`;
}

const ways = new WeakMap<object, Set<string>[] | null>();

/** A condition as its ways to hold (OR of ANDs), each a set of atoms in a canonical text; status functions dropped. */
function waysOf(node: Job['if'] | Step['if']): Set<string>[] | null {
  if (node === undefined) return [new Set()];
  const cached = ways.get(node);
  if (cached !== undefined) return cached;
  const parsed = conditionExpression(node);
  let found: Set<string>[] | null = null;
  if (parsed !== null && parsed.expr !== null) {
    const disjuncts = dnf(parsed.expr, MAX_WAYS);
    found = disjuncts === null ? null : disjuncts.map((atoms) => new Set(atoms.map(atomKey).filter((k) => k !== STATUS)));
  }
  ways.set(node, found);
  return found;
}

/** The key of a status function that lets a job run whatever its needs did (`always()`, `!cancelled()`). */
const STATUS = '<status>';
const UNKNOWN = '<unknown>';

/**
 * A canonical text of an atom: context paths lower-cased, strings lower-cased (GitHub compares them so) and
 * a label URL-decoded, `x == true` as `x`, `x == false` and `x != true` as `!x`, the sides of `==` in order.
 * An atom it cannot read is unique to itself, so it matches nothing.
 */
function atomKey(expr: Expr): string {
  return keyOf(expr, 0) ?? `${UNKNOWN}${unknowns++}`;
}
let unknowns = 0;

function keyOf(expr: Expr, depth: number): string | null {
  if (depth > 16) return null;
  if (expr instanceof Grouping) return keyOf(expr.group, depth + 1);
  if (expr instanceof ContextAccess || expr instanceof IndexAccess) return contextPath(expr)?.join('.') ?? null;
  if (expr instanceof Literal) return JSON.stringify(expr.literal.coerceString().toLowerCase());
  if (expr instanceof FunctionCall) {
    const name = functionName(expr);
    if (name === 'always' && expr.args.length === 0) return STATUS;
    if (name === 'contains' && expr.args.length === 2 && expr.args[1] instanceof Literal && keyOf(expr.args[0] as Expr, depth + 1) === 'github.event.pull_request.labels.*.name') {
      return labelKey(expr.args[1].literal.coerceString());
    }
    const args = expr.args.map((a) => keyOf(a, depth + 1));
    return args.some((a) => a === null) ? null : `${name}(${args.join(',')})`;
  }
  if (expr instanceof Unary && expr.operator.lexeme === '!') {
    let inner: Expr = expr.expr;
    while (inner instanceof Grouping) inner = inner.group;
    if (inner instanceof FunctionCall && functionName(inner) === 'cancelled' && inner.args.length === 0) return STATUS;
    const key = keyOf(inner, depth + 1);
    return key === null ? null : key.startsWith('!') ? key.slice(1) : `!${key}`;
  }
  if (expr instanceof Binary && (expr.operator.lexeme === '==' || expr.operator.lexeme === '!=')) {
    const left = keyOf(expr.left, depth + 1);
    const right = keyOf(expr.right, depth + 1);
    if (left === null || right === null) return null;
    const negated = expr.operator.lexeme === '!=';
    const truth = (side: string, other: string) => (side === '"true"' ? (negated ? `!${other}` : other) : side === '"false"' ? (negated ? other : `!${other}`) : null);
    const folded = truth(right, left) ?? truth(left, right);
    if (folded !== null) return folded.startsWith('!!') ? folded.slice(2) : folded;
    const [a, b] = [left, right].sort();
    return `${a}${negated ? '!=' : '=='}${b}`;
  }
  return null;
}
