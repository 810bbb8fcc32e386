/**
 * Values a job checks before it uses them. A step that binds a value to an environment variable and checks the
 * variable against an anchored pattern or an allow-list, failing the step otherwise (`validatedVariables`:
 * `[[ "$N" =~ ^[0-9]+$ ]] || exit 1`, `case "$N" in a|b) ;; *) exit 1 ;; esac`, `test "$N" -eq "$N" || exit 1`,
 * `N=$(jq '.n | tonumber' f)`),
 * stops every later step of its job, and every job that needs its job, from running with any other value. So does
 * an `actions/github-script` step that assigns an event field or an environment variable to a name and checks it
 * (`if (!/^\d+$/.test(pr)) throw ...`, `Number.isInteger`, an allow-list's `includes`; `githubScriptChecks`); the
 * output such a script sets from a checked name or a number is clean at its source (taint.ts). Such a
 * value cannot carry shell code into them: script-injection and artifact-poisoning read this before they claim
 * that it does.
 *
 * A check of a `${{ }}` pasted into the script (`[[ "${{ inputs.version }}" =~ ^[0-9.]+$ ]] || exit 1`) and of a
 * plain copy of a variable (`V="$INPUT"`, then `[[ "$V" =~ ... ]]`) counts as well: the first only for later
 * steps and jobs, since GitHub pastes the value into the text before any of the script runs.
 *
 * So does a check of a pasted value in an `actions/github-script` script (`const v = '${{ inputs.version }}'`,
 * then `if (!/^v?[0-9.]+$/.test(v)) core.setFailed(...)`), for the later steps and jobs alone; and, where the
 * step's shell runs with `-e` (the default on Linux and macOS, `shell: bash`, `shell: sh`), a test that is a
 * statement of its own (`[[ "$V" =~ ^[0-9]+$ ]]`), which stops the script when it fails.
 *
 * The check counts where it always runs first: earlier in the same script, in an earlier step of the job that has
 * no `if:` of its own and no `continue-on-error`, or in such a step of a job this job needs (directly or
 * through others) and that has succeeded whenever this job runs (`gatingJobs`). A job whose condition runs it
 * after a failure (`always()`, `failure()`, `cancelled()`) gets no check from the jobs it needs, unless the
 * condition still demands their success: `always() && needs.gate.result == 'success'`, or `!failure() &&
 * !cancelled()` over jobs that are never skipped (`succeededNeeds`). A step that runs after a failure
 * (`if: always()`) gets no check from earlier steps of its job, but still those of the jobs its job needs. A job's output bound whole to a checked output of a job it needs (`n: ${{ needs.gate.outputs.n }}`)
 * is checked too, so the check reaches every job down the `needs:` chain, however many jobs hand the value on.
 */
import type { Job, Step } from '../model/workflow.js';
import { ScanCache } from '../model/scan-cache.js';
import { conditionExpression, expressionsOf } from '../expressions/extract.js';
import { Binary, contextPath, FunctionCall, functionName, Grouping, Literal, Logical, parseExpression, Unary, type Expr } from '../expressions/parse.js';
import { get, keyText, type YMap, type YNode } from '../yaml/model.js';
import { githubScriptChecks, PLAIN_COPY, validatedVariables } from './script-outputs.js';
import { expressionScalarsInFile } from './file-scalars.js';
import { stepShell } from './step-shell.js';

/** A condition that runs a step or job after an earlier failure. */
export const AFTER_FAILURE = /\b(always|failure|cancelled)\s*\(/i;
/** At most this many jobs are followed through `needs`. */
const MAX_NEEDED = 64;

/** `github.event.inputs.x` and `inputs.x` are the same value for a dispatch; paths compare lower-cased. */
export function normalizePath(path: string): string {
  const lower = path.toLowerCase();
  return lower.startsWith('github.event.inputs.') ? `inputs.${lower.slice('github.event.inputs.'.length)}` : lower;
}

/** What a step validates: the context paths bound to the variables it checks, and where in its script each check starts. */
interface StepChecks {
  /** Normalised path -> offset in the script of the first read of the variable that carries it. */
  paths: Map<string, number>;
}

const cache = new ScanCache<Step, StepChecks>();

/** The context path a whole-value `${{ }}` reads (`${{ github.event.pull_request.number }}`), or null. */
function boundPath(node: YNode | undefined, file: Step['owner']['file']): string | null {
  if (node?.kind !== 'scalar' || typeof node.value !== 'string') return null;
  const occurrences = expressionsOf(file, node);
  if (occurrences.length !== 1) return null;
  const occurrence = occurrences[0];
  if (occurrence === undefined || occurrence.expr === null || occurrence.span.start !== 0 || occurrence.span.end !== node.value.trimEnd().length) return null;
  const path = contextPath(occurrence.expr);
  return path === null ? null : normalizePath(path.join('.'));
}

function envPairs(map: YMap | undefined): [string, YNode][] {
  return (map?.pairs ?? []).map((p) => [keyText(p.key), p.value] as [string, YNode]);
}

/**
 * The paths an `actions/github-script` step checks, failing the step otherwise (`githubScriptChecks`): an
 * identifier assigned the whole event field (`const pr = context.payload.issue.title`) or an environment
 * variable (`process.env.PR`, bound to `${{ ... }}` in `env:`), then checked.
 */
function githubScriptPaths(step: Step, found: StepChecks): void {
  if (step.usesRef?.kind !== 'repository' || step.usesRef.slug !== 'actions/github-script') return;
  const node = get(step.with, 'script');
  const script = node?.kind === 'scalar' && typeof node.value === 'string' ? node.value : null;
  if (script === null || script.length > 200_000) return;
  const checks = githubScriptChecks(script);
  if (checks.size === 0) return;
  const layers: [YMap | undefined, boolean][] = [[step.env, false], [step.job?.env, true], [step.job?.workflow.env, true]];
  for (const match of script.matchAll(/^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]{0,60})\s*=\s*(?:context\.payload((?:\.\w+){1,8})|process\.env\.(\w+)|(['"`])\$\{\{([^}\n]{1,200})\}\}\4)\s*(?:\.trim\(\))?\s*;?\s*$/gm)) {
    const check = checks.get(match[1] ?? '');
    if (check === undefined || !check.fails) continue;
    if (match[2] !== undefined) {
      found.paths.set(normalizePath(`github.event${match[2]}`), 0);
      continue;
    }
    // `const v = '${{ inputs.version }}'`: pasted into the script before it runs, so, as for a pasted check in a
    // `run:` script, it guards the later steps and the jobs that need this one, never this script.
    if (match[5] !== undefined) {
      const path = expressionPath(parseExpression(match[5].trim()));
      if (path !== null) found.paths.set(path, Number.MAX_SAFE_INTEGER);
      continue;
    }
    const name = match[3] ?? '';
    for (const [map, shared] of layers) {
      const value = envPairs(map).find(([key]) => key === name)?.[1];
      if (value === undefined) continue;
      const path = boundPath(value, step.owner.file);
      if (path !== null) found.paths.set(path, 0);
      if (shared) found.paths.set(`env.${name.toLowerCase()}`, 0);
      break;
    }
  }
}

/** The paths a step's `run:` script validates (see the module comment), memoised per step. */
function stepChecks(step: Step): StepChecks {
  let found = cache.get(step);
  if (found !== undefined) return found;
  found = { paths: new Map() };
  cache.set(step, found);
  githubScriptPaths(step, found);
  const run = step.run;
  if (run === undefined || typeof run.value !== 'string' || run.value.length > 200_000) return found;
  const file = step.owner.file;
  const { script, placeholders } = withPlaceholders(file, run);
  // Under `-e` (the default shell's) a test alone on its line stops the script too (shell-checks.ts).
  const validated = validatedVariables(script, stepShell(step).errexit);
  if (validated.size === 0) return found;
  const copies = addCopies(script, validated);
  // A check of `${{ inputs.version }}` written into the script: GitHub pastes the value into the text before the
  // script runs, so the check guards later steps and jobs, never a use in the same script.
  for (const [name, path] of placeholders) if (validated.has(name)) found.paths.set(path, Number.MAX_SAFE_INTEGER);
  // The step's own env wins over its job's, which wins over the workflow's.
  const layers: [YMap | undefined, boolean][] = [[step.env, false], [step.job?.env, true], [step.job?.workflow.env, true]];
  const seen = new Set<string>();
  for (const [map, shared] of layers) {
    for (const [name, value] of envPairs(map)) {
      if (seen.has(name)) continue;
      seen.add(name);
      if (!validated.has(name)) continue;
      const copy = copies.get(name);
      const at = firstRead(run.value, copy ?? name);
      const path = boundPath(value, file);
      if (path !== null) found.paths.set(path, at);
      // A job's or workflow's variable is `env.<name>` to every step that reads it.
      if (shared) found.paths.set(`env.${name.toLowerCase()}`, at);
    }
  }
  return found;
}

/** The name a `${{ <context path> }}` of a script stands in for while its checks are read (see `withPlaceholders`). */
const PLACEHOLDER = 'CB_EXPR_';

/**
 * A `run:` script with every `${{ }}` that reads one context path (`${{ inputs.version }}`) written as a shell
 * variable (`${CB_EXPR_0}`, one per path), so a check of the pasted value (`[[ "${{ inputs.version }}" =~ ^[0-9.]+$ ]] || exit 1`)
 * reads as a check of a variable; with the paths the names stand for.
 */
function withPlaceholders(file: Step['owner']['file'], run: NonNullable<Step['run']>): { script: string; placeholders: Map<string, string> } {
  const text = run.value as string;
  const placeholders = new Map<string, string>();
  const byPath = new Map<string, string>();
  let script = '';
  let from = 0;
  for (const occurrence of expressionsOf(file, run)) {
    const path = expressionPath(occurrence.expr);
    if (path === null || !occurrence.span.terminated || occurrence.span.start < from) continue;
    let name = byPath.get(path);
    if (name === undefined) {
      name = `${PLACEHOLDER}${byPath.size}`;
      byPath.set(path, name);
      placeholders.set(name, path);
    }
    script += `${text.slice(from, occurrence.span.start)}\${${name}}`;
    from = occurrence.span.end;
  }
  return { script: from === 0 ? text : script + text.slice(from), placeholders };
}

/**
 * Adds to `validated` the variables a checked one is a plain copy of (`VS="$VERSION_SPECIFIER"`, then
 * `[[ "$VS" =~ ^v[0-9.]+$ ]] || exit 1`): the step fails unless the source holds the checked shape too. Only a
 * copy that is the checked variable's one assignment, made before it is first read. Returns source -> copy.
 */
function addCopies(script: string, validated: Set<string>): Map<string, string> {
  const copies = new Map<string, string>();
  for (const match of script.matchAll(PLAIN_COPY)) {
    const name = match[1] ?? '';
    const source = match[3] ?? match[4] ?? '';
    if (!validated.has(name) || validated.has(source) || source === name) continue;
    const assignments = script.match(new RegExp(`(?:^|[\\s;&|(])${name}=|\\bread\\b[^\\n;]*\\b${name}\\b|\\bfor\\s+${name}\\b`, 'g'))?.length ?? 0;
    if (assignments !== 1 || firstRead(script, name) < (match.index ?? 0)) continue;
    validated.add(source);
    copies.set(source, name);
  }
  return copies;
}

/** Offset of the first `$NAME` / `${NAME}` in a script. */
function firstRead(script: string, name: string): number {
  const match = new RegExp(`\\$\\{?${name}\\b`).exec(script);
  return match?.index ?? 0;
}

export function conditionText(node: YNode | undefined): string {
  return node?.kind === 'scalar' ? String(node.value ?? '') : '';
}

/** True when a step or job node sets `continue-on-error` to anything but false. */
export function continuesOnError(node: YMap): boolean {
  const value = node.pairs.find((p) => keyText(p.key) === 'continue-on-error')?.value;
  if (value === undefined) return false;
  return !(value.kind === 'scalar' && (value.value === false || String(value.value).trim().toLowerCase() === 'false'));
}

/** A step whose check always runs before the later steps of its job: no `if:`, no `continue-on-error`. */
export function alwaysRuns(step: Step): boolean {
  return step.if === undefined && !continuesOnError(step.node);
}

/** Paths that mean the same value in another job: event data, inputs, other jobs' outputs (not `steps.*` or `env.*`). */
function crossJob(path: string): boolean {
  return !path.startsWith('steps.') && !path.startsWith('env.');
}

/** Per job, read once: the first always-running step checking each path, and the paths the job checks for jobs that need it. */
interface JobChecks {
  /** Normalised path -> index of the first step without `if:` or `continue-on-error` that checks it. */
  firstCheck: Map<string, number>;
  /**
   * Paths a job that needs this one gets checked (cross-job paths, and `needs.<id>.outputs.<k>` handing on a
   * checked value), each with the id of the job whose step checks it.
   */
  forDependents: Map<string, string>;
}

const jobCache = new ScanCache<Job, JobChecks>();
const workflowHasChecks = new ScanCache<Job['workflow'], boolean>();

function jobChecks(job: Job): JobChecks {
  let found = jobCache.get(job);
  if (found !== undefined) return found;
  found = { firstCheck: new Map(), forDependents: new Map() };
  jobCache.set(job, found);
  for (const step of job.steps) {
    if (!alwaysRuns(step)) continue;
    for (const path of stepChecks(step).paths.keys()) if (!found.firstCheck.has(path)) found.firstCheck.set(path, step.index);
  }
  // The job's outputs that hand on a value a job it needs checked (`version: ${{ needs.check.outputs.version }}`):
  // that job's failed check skips this one, so whatever runs with this output (a job two or more `needs:` levels
  // below the check) runs with the checked value. Followed up the chain, each job read once (`gatingJobs` bounds it).
  const handed = handedOnChecks(job);
  for (const [path, checker] of handed) found.forDependents.set(path, checker);
  if (found.firstCheck.size === 0 || continuesOnError(job.node)) return found;
  for (const path of found.firstCheck.keys()) if (crossJob(path)) found.forDependents.set(path, job.id);
  // The job's outputs that hand on a checked value (`pr: ${{ steps.pr.outputs.number }}`) are checked too.
  for (const pair of job.outputs?.pairs ?? []) {
    const bound = boundPath(pair.value, job.workflow.file);
    if (bound !== null && found.firstCheck.has(bound)) found.forDependents.set(`needs.${job.id.toLowerCase()}.outputs.${keyText(pair.key).toLowerCase()}`, job.id);
  }
  return found;
}

/** `needs.<job>.outputs.<k>` for each output of `job` bound whole to another job's output that a job it needs checked. */
function handedOnChecks(job: Job): Map<string, string> {
  const handed = new Map<string, string>();
  const pairs = (job.outputs?.pairs ?? []).map((pair) => [keyText(pair.key).toLowerCase(), boundPath(pair.value, job.workflow.file)] as const).filter(([, bound]) => bound !== null && bound.startsWith('needs.'));
  if (pairs.length === 0) return handed;
  for (const needed of gatingJobs(job)) {
    const checked = jobChecks(needed).forDependents;
    for (const [key, bound] of pairs) {
      const checker = checked.get(bound as string);
      const path = `needs.${job.id.toLowerCase()}.outputs.${key}`;
      if (checker !== undefined && !handed.has(path)) handed.set(path, checker);
    }
  }
  return handed;
}

/** Whether any step of a workflow checks a value at all (most check none: then nothing else is read). */
function hasChecks(workflow: Job['workflow']): boolean {
  let found = workflowHasChecks.get(workflow);
  if (found === undefined) {
    found = workflow.jobs.some((j) => j.steps.some((s) => stepChecks(s).paths.size > 0));
    workflowHasChecks.set(workflow, found);
  }
  return found;
}

/**
 * Where a value is checked before `step` uses it (at `scriptOffset` of its `run:` script, when it is in the
 * script), in words (`step \`Validate\` checks it against a pattern first`), or null when nothing is known to.
 * `paths`: the context paths the used value goes through (the expression itself, and the hops of its taint).
 */
export function validatedBefore(step: Step, paths: readonly string[], scriptOffset?: number): string | null {
  const job = step.job;
  if (paths.length === 0) return null;
  if (job === null) return step.owner.kind === 'action' ? actionValidatedBefore(step, paths, scriptOffset) : null;
  if (!hasChecks(job.workflow)) return null;
  const wanted = new Set(paths.map(normalizePath));
  const inScript = checkedInScript(step, wanted, scriptOffset);
  if (inScript !== null) return inScript;
  // A step that runs after a failure (`if: always()`) may run after a failed check of its own job; the jobs its
  // job needs have still succeeded, since the job runs at all.
  const own = AFTER_FAILURE.test(conditionText(step.if)) ? new Map<string, number>() : jobChecks(job).firstCheck;
  for (const path of wanted) {
    const index = own.get(path);
    if (index !== undefined && index < step.index) {
      const earlier = job.steps[index] as Step;
      return `${earlier.name === null ? `step ${index + 1}` : `step \`${earlier.name}\``} checks it against a pattern or an allow-list first, and fails the job otherwise`;
    }
  }
  // Jobs this job needs, directly or through others: a failed check there skips this job.
  for (const needed of gatingJobs(job)) {
    const checked = jobChecks(needed).forDependents;
    for (const path of wanted) {
      const checker = checked.get(path);
      if (checker === undefined) continue;
      if (checker === needed.id) return `job \`${needed.id}\`, which this job needs, checks it against a pattern or an allow-list first, and fails otherwise`;
      return `job \`${checker}\` checks it against a pattern or an allow-list first, and fails otherwise; job \`${needed.id}\`, which this job needs, hands it on`;
    }
  }
  return null;
}

/** A check of one of the `wanted` paths earlier in the step's own script than the use at `scriptOffset`, in words. */
function checkedInScript(step: Step, wanted: ReadonlySet<string>, scriptOffset: number | undefined): string | null {
  if (scriptOffset === undefined) return null;
  for (const [path, at] of stepChecks(step).paths) if (wanted.has(path) && at < scriptOffset) return 'the step checks it against a pattern or an allow-list before this line, and fails otherwise';
  return null;
}

/**
 * `validatedBefore` for a step of a composite action: the same script before the use, or an earlier step of the
 * action with no `if:` and no `continue-on-error` (a failed step of a composite action ends it, and its caller's
 * step fails). The action's inputs (`inputs.pr`) are the paths its checks bind.
 */
function actionValidatedBefore(step: Step, paths: readonly string[], scriptOffset: number | undefined): string | null {
  const action = step.owner;
  if (action.kind !== 'action') return null;
  const wanted = new Set(paths.map(normalizePath));
  const inScript = checkedInScript(step, wanted, scriptOffset);
  if (inScript !== null) return inScript;
  if (AFTER_FAILURE.test(conditionText(step.if))) return null;
  for (const earlier of action.steps) {
    if (earlier.index >= step.index) break;
    if (!alwaysRuns(earlier)) continue;
    for (const path of stepChecks(earlier).paths.keys()) {
      if (wanted.has(path)) return `${earlier.name === null ? `step ${earlier.index + 1}` : `step \`${earlier.name}\``} of the action checks it against a pattern or an allow-list first, and fails the action otherwise`;
    }
  }
  return null;
}

/**
 * The jobs whose failure skips `job`: those it needs, directly or through others, in breadth-first order, as far
 * as each job's condition requires them to have succeeded (`succeededNeeds`). A job without a status function in
 * its `if:` runs only when every job it needs succeeded; `if: always()` runs after any of them failed, so the walk
 * stops there unless the condition still demands their success (`always() && needs.gate.result == 'success'`).
 */
export function* gatingJobs(job: Job): Generator<Job> {
  const byId = new Map(job.workflow.jobs.map((j) => [j.id, j]));
  const seen = new Set<Job>([job]);
  const queue = succeededNeeds(job, byId);
  while (queue.length > 0 && seen.size <= MAX_NEEDED) {
    const needed = byId.get(queue.shift() as string);
    if (needed === undefined || seen.has(needed)) continue;
    seen.add(needed);
    yield needed;
    queue.push(...succeededNeeds(needed, byId));
  }
}

const succeededCache = new ScanCache<Job, string[]>();

/**
 * The jobs `job` directly needs that have succeeded whenever it runs, read from its `if:`:
 * - no `always()`, `failure()` or `cancelled()` in it: GitHub adds `success()`, so every one of them;
 * - else the conjuncts of its top level (`a && b && c`; an `||` proves nothing about its sides):
 *   `success()` (every one), `needs.<id>.result == 'success'` (that one), and `!failure() && !cancelled()`:
 *   no job up the chain failed and the run was not cancelled, which leaves a needed job skipped as the only other
 *   outcome; one that has no `if:` of its own, nor any job up its chain, is never skipped, so it succeeded.
 *   `!contains(needs.*.result, 'failure')` with `!cancelled()` (or `!contains(needs.*.result, 'cancelled')`)
 *   reads the direct needs only: it proves the success of a needed job with no `if:` that needs no job.
 */
export function succeededNeeds(job: Job, byId: ReadonlyMap<string, Job> = new Map(job.workflow.jobs.map((j) => [j.id, j]))): string[] {
  let found = succeededCache.get(job);
  if (found !== undefined) return [...found];
  found = readSucceededNeeds(job, byId);
  succeededCache.set(job, found);
  return [...found];
}

function readSucceededNeeds(job: Job, byId: ReadonlyMap<string, Job>): string[] {
  const text = conditionText(job.if);
  if (!AFTER_FAILURE.test(text)) return [...job.needs];
  const expr = conditionExpression(job.if)?.expr ?? null;
  if (expr === null) return [];
  const conjuncts: Expr[] = [];
  const flatten = (e: Expr): void => {
    if (e instanceof Grouping) flatten(e.group);
    else if (e instanceof Logical && e.operator.lexeme === '&&') e.args.forEach(flatten);
    else conjuncts.push(e);
  };
  flatten(expr);
  const named = new Set<string>();
  let notFailed = false;
  let notCancelled = false;
  let directNotFailed = false;
  let directNotCancelled = false;
  for (const conjunct of conjuncts) {
    if (conjunct instanceof FunctionCall && functionName(conjunct) === 'success' && conjunct.args.length === 0) return [...job.needs];
    const result = successResult(conjunct);
    if (result !== null) named.add(result);
    if (!(conjunct instanceof Unary) || conjunct.operator.lexeme !== '!') continue;
    let inner = conjunct.expr;
    while (inner instanceof Grouping) inner = inner.group;
    if (!(inner instanceof FunctionCall)) continue;
    const name = functionName(inner);
    if (name === 'failure' && inner.args.length === 0) notFailed = true;
    else if (name === 'cancelled' && inner.args.length === 0) notCancelled = true;
    else if (name === 'contains') {
      const [list, item] = inner.args;
      const listPath = list === undefined ? null : contextPath(list);
      if (listPath?.join('.') !== 'needs.*.result' || !(item instanceof Literal) || typeof item.token.value !== 'string') continue;
      const value = item.token.value.toLowerCase();
      if (value === 'failure') directNotFailed = true;
      else if (value === 'cancelled') directNotCancelled = true;
    }
  }
  const result = job.needs.filter((id) => named.has(id.toLowerCase()));
  for (const id of job.needs) {
    if (result.includes(id)) continue;
    const needed = byId.get(id);
    if (needed === undefined || needed.if !== undefined) continue;
    if (notFailed && notCancelled && [...neededJobs(needed)].every((j) => j.if === undefined)) result.push(id);
    else if (directNotFailed && (notCancelled || directNotCancelled) && needed.needs.length === 0) result.push(id);
  }
  return result;
}

/** The job id of `needs.<id>.result == 'success'` (either way round), or null. */
function successResult(expr: Expr): string | null {
  if (!(expr instanceof Binary) || expr.operator.lexeme !== '==') return null;
  for (const [a, b] of [[expr.left, expr.right], [expr.right, expr.left]] as const) {
    const path = contextPath(a);
    if (path?.length === 3 && path[0] === 'needs' && path[2] === 'result' && b instanceof Literal && typeof b.token.value === 'string' && b.token.value.toLowerCase() === 'success') return path[1] as string;
  }
  return null;
}

/**
 * The jobs `job` needs, directly or through others, in breadth-first order (at most `MAX_NEEDED`); `through` says
 * whether the walk goes on past a needed job to the jobs it needs in turn.
 */
export function* neededJobs(job: Job, through: (needed: Job) => boolean = () => true): Generator<Job> {
  const byId = new Map(job.workflow.jobs.map((j) => [j.id, j]));
  const seen = new Set<Job>([job]);
  const queue = [...job.needs];
  while (queue.length > 0 && seen.size <= MAX_NEEDED) {
    const needed = byId.get(queue.shift() as string);
    if (needed === undefined || seen.has(needed)) continue;
    seen.add(needed);
    yield needed;
    if (through(needed)) queue.push(...needed.needs);
  }
}

/**
 * The jobs that need `job`, directly or through others (the jobs that run after it and can read its outputs, or what
 * a job it feeds passes on), in the order of the workflow's jobs. Each job is visited once: GitHub rejects cycles,
 * and one ends at a visited job.
 */
export function dependentJobs(job: Job): Job[] {
  const dependents = new Map<string, Job[]>();
  for (const other of job.workflow.jobs) {
    for (const need of other.needs) {
      const list = dependents.get(need);
      if (list === undefined) dependents.set(need, [other]);
      else list.push(other);
    }
  }
  const seen = new Set<Job>([job]);
  const queue: Job[] = [job];
  for (let i = 0; i < queue.length; i++) {
    for (const next of dependents.get((queue[i] as Job).id) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return job.workflow.jobs.filter((j) => j !== job && seen.has(j));
}

/** The normalised path of an expression that is one context access, or null. */
export function expressionPath(expr: Parameters<typeof contextPath>[0] | null): string | null {
  if (expr === null) return null;
  const path = contextPath(expr);
  return path === null ? null : normalizePath(path.join('.'));
}

/**
 * True when every use a step makes of values read from `refs` (`steps.json.outputs`, `needs.changes.outputs.pr`)
 * is a checked one: bound to an environment variable its own script checks, or checked before (see
 * `validatedBefore`). A use in its `if:` decides whether it runs, which no check changes: false; with `exceptIf`,
 * the uses in its `if:` are left out (the question is then what the step is given once it runs). False too when
 * the step uses none of them (none but in its `if:`, with `exceptIf`).
 */
export function usesOnlyValidated(step: Step, refs: readonly string[], exceptIf = false): boolean {
  if (step.job === null || !hasChecks(step.job.workflow)) return false;
  const wanted = refs.map(normalizePath);
  // An `if:` is an expression with or without `${{ }}`: a bare one (`if: steps.x.outputs.n != ''`) decides too.
  if (!exceptIf && wanted.some((w) => conditionText(step.if).toLowerCase().includes(w))) return false;
  const file = step.owner.file;
  const checks = stepChecks(step);
  const envValues = new Set<YNode>((step.env?.pairs ?? []).map((p) => p.value));
  let any = false;
  for (const scalar of expressionScalarsInFile(file, step.node)) {
    for (const occurrence of expressionsOf(file, scalar)) {
      const path = expressionPath(occurrence.expr);
      const hits = wanted.some((w) => occurrence.span.source.toLowerCase().includes(w));
      if (!hits || (exceptIf && scalar === step.if)) continue;
      any = true;
      if (scalar === step.if || path === null || !wanted.some((w) => path.startsWith(w))) return false;
      // `env: { PR: ${{ steps.json.outputs.pr }} }` with `$PR` checked by the step's own script.
      if (envValues.has(scalar) && checks.paths.has(path)) continue;
      if (validatedBefore(step, [path], scalar === step.run ? occurrence.span.start : undefined) === null) return false;
    }
  }
  return any;
}
