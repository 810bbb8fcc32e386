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
 * - such a step of another job of the workflow that starts with the gated job (no `needs:`) or right after it
 *   (it needs the gated job), with no `if:` or one that only tests the label or the event's action; or of a job
 *   the gated job needs (the gated job runs only after it succeeded).
 *
 * A removal at the end of the job without `always()` does not count: a failing test leaves the label on, and
 * the next push runs under it.
 *
 * How a removal names the label: `gh pr edit <n> --remove-label "<label>"` (or `gh issue edit`), `gh api -X DELETE
 * .../labels/<label>` (or `curl -X DELETE`), github-script `issues.removeLabel({ name: '<label>' })`,
 * `actions-ecosystem/action-remove-labels` and other label-removing actions with `labels:`. The name is the label
 * (case-insensitive, `%20` for spaces) or the event's label (`github.event.label.name`, `context.payload.label.name`),
 * which on a run the label starts is that label.
 */
import { ScanCache } from '../model/scan-cache.js';
import type { Job, Step } from '../model/workflow.js';
import { commandName, logicalLines, pipelines, words } from '../shell.js';
import { getText, scalarText } from '../yaml/model.js';

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
  const value = found.trim().replace(/^(['"])(.*)\1$/, '$2').trim();
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
          const at = /\/labels\/([^\s'"?]+|\$\{\{[^}]*\}\})/.exec(text);
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

/** The removal step of `job` that runs in every run of it, or null. */
function removalIn(job: Job, label: string, started: boolean): Step | null {
  let before = true;
  for (const step of job.steps) {
    const condition = conditionText(step.if);
    if (removesLabel(step, label) && ((condition !== null && ALWAYS.test(condition)) || (before && labelOnly(condition)))) return step;
    // In a job that starts with the gated one, what runs before the removal is not the pull request's yet.
    if (runsSomething(step) && !started) before = false;
  }
  return null;
}

const cache = new ScanCache<Job, Map<string, string | null>>();

/**
 * Where the workflow removes `label` in every run of `job` (`step \`Remove label\``, `step 2 of job \`unlabel\``),
 * or null when a run can leave it on.
 */
export function labelRemovedEachRun(job: Job, label: string): string | null {
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

function findRemoval(job: Job, label: string): string | null {
  const own = removalIn(job, label, false);
  if (own !== null) return stepText(own, job, job);
  for (const other of job.workflow.jobs) {
    if (other === job || other.uses !== undefined) continue;
    // A job the gated job needs: the gated job runs only after it succeeded, so the removal ran.
    const needed = job.needs.includes(other.id);
    // A job that starts with it, on the same runs (no `needs:`; its condition only the label's), or right after
    // it (the label check is a gate job's, and the job that runs the code needs it).
    const alongside = (other.needs.length === 0 || other.needs.includes(job.id)) && labelOnly(conditionText(other.if));
    if (!needed && !alongside) continue;
    // Alongside, a failing step before the removal leaves the label on while the gated job runs.
    const step = removalIn(other, label, needed);
    if (step !== null) return stepText(step, other, job);
  }
  return null;
}

