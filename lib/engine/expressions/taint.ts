import { githubContextCapability, knownEventField } from '../contexts/index.js';
import type { RepositoryModel } from '../model/repository.js';
import type { Action, Job, Step, Workflow } from '../model/workflow.js';
import { githubScriptChecks, JS_NUMBER, outputLines, referencedEnvVars, scriptFold, type ScriptFold } from '../analysis/script-outputs.js';
import { actionMajorVersion } from '../analysis/step-version.js';
import { get, getMap, getText, keyText, scalarText, type YNode, type YPair, type YScalar } from '../yaml/model.js';
import { outsiderDownloadBefore, readsDownloadedFile, readsDownloadIntoOutputs } from '../analysis/artifacts.js';
import { untrustedCheckouts } from '../analysis/pr-head.js';
import { localCallers } from '../analysis/callers.js';
import { describeStep } from '../analysis/describe.js';
import { logicalLines } from '../shell.js';
import { contextController, controllerRank, eventController, noEventHasField, outsiderEvents, triggersWithField, type Controller } from './controller.js';
import { expressionsOf, type ExpressionOccurrence } from './extract.js';
import { expressionScalarsInFile } from '../analysis/file-scalars.js';
import {
  Binary,
  contextPath,
  FunctionCall,
  functionName,
  Grouping,
  IndexAccess,
  ContextAccess,
  Literal,
  Logical,
  parseExpression,
  Unary,
  type Expr,
} from './parse.js';
import { data } from '@actions/expressions';
import { isCheckoutAction } from '../model/uses.js';

/**
 * How far an outsider controls a value, least to most dangerous. `input` is a string input of a
 * workflow or action (chosen by whoever dispatches or calls it); `unknown` is a value whose provenance
 * the engine cannot see.
 */
export type TaintLevel = 'unknown' | 'input' | 'structured' | 'arbitrary';

const RANK: Record<TaintLevel, number> = { unknown: 1, input: 2, structured: 3, arbitrary: 4 };

export interface Taint {
  level: TaintLevel;
  /** Who can set the value (the attacker model, `./controller.ts`). */
  controller: Controller;
  /** The context the value originates from, e.g. `github.event.issue.title`. */
  source: string;
  /** How the value reached the expression, outermost first, e.g. `['env.TITLE', 'steps.meta.outputs.title']`. */
  via: string[];
  /**
   * True when the value is a JSON document (`toJSON(...)`, an action output in JSON form): its strings are
   * quoted and escaped, which is harmless where the text is read as a JavaScript expression, not in a shell.
   */
  json?: boolean;
  /**
   * The workflow events through which an outsider sets the value (`pull_request_target`, `issue_comment`);
   * absent when none does or the events are not known (a composite action without callers); empty, with the
   * controller `maintainer`, for an event field no trigger of the workflow has (empty on every run).
   */
  events?: readonly string[];
  /**
   * An input of a published action (`controller` `unknown`) that callers in this repository do call: the values
   * they pass (or the default they leave it at), none of them carrying anything the analysis traces to an outsider,
   * and where (`path:line`). Whoever uses the published action elsewhere still sets it for their own runs.
   */
  given?: readonly { value: string; at: string }[];
}

/** The most hops `via` keeps; further ones become one `…`. */
const MAX_VIA = 8;

/**
 * The taint one hop further from its source. Memoised outputs pass their `via` on, so a chain of
 * thousands of job outputs would otherwise make every description, and the memory, grow with it.
 */
function through(hop: string, taint: Taint): Taint {
  const via = [hop, ...taint.via];
  return { ...taint, via: via.length > MAX_VIA ? [...via.slice(0, MAX_VIA - 1), '…'] : via };
}

/** Context values GitHub sets on every run, never empty. */
const ALWAYS_SET = new Set(['github.run_id', 'github.run_number', 'github.run_attempt', 'github.sha', 'github.repository', 'github.repository_id', 'github.repository_owner', 'github.event_name', 'github.workflow', 'github.job', 'github.actor', 'github.server_url', 'github.api_url']);
/** Events whose payload always carries the pull request's number (`github.event.pull_request.number`, `github.event.number`). */
const PR_NUMBER_EVENTS = new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']);

/**
 * Sources whose value is a git ref name (a branch or a `owner:branch` label): an outsider picks it, and it may
 * hold `$(...)`, `;` or backticks, but never a newline or another control character (git check-ref-format,
 * https://git-scm.com/docs/git-check-ref-format: "They cannot have ASCII control characters"), nor a space.
 */
const REF_NAME_SOURCE = /^(?:github\.head_ref|github\.event\.(?:pull_request|workflow_run\.pull_requests\.\*)\.head\.(?:ref|label)|github\.event\.(?:workflow_run|check_suite|check_run\.check_suite)\.head_branch|the pull request head branch(?: name looked up by .*)?|branch names)$/;

/** True when the value is a ref name an outsider picks: one line of text, whatever it holds. */
export function isRefName(taint: Taint): boolean {
  return REF_NAME_SOURCE.test(taint.source);
}

/** Where an expression is evaluated: the step, job, workflow or composite action around it. */
export interface TaintScope {
  workflow?: Workflow | undefined;
  job?: Job | null | undefined;
  step?: Step | null | undefined;
  action?: Action | undefined;
}

export function stronger(a: Taint | null, b: Taint | null): Taint | null {
  if (a === null) return b;
  if (b === null) return a;
  const byController = controllerRank(b.controller) - controllerRank(a.controller);
  if (byController !== 0) return byController > 0 ? b : a;
  const chosen = RANK[b.level] > RANK[a.level] ? b : a;
  // Values an outsider sets through different events: the value comes in through any of them.
  const other = chosen === a ? b : a;
  if (other.events === undefined || other.events.length === 0 || chosen.events === undefined) return chosen;
  if (other.events.every((e) => chosen.events?.includes(e))) return chosen;
  return { ...chosen, events: [...new Set([...chosen.events, ...other.events])] };
}

/** The scope of a step: its job and workflow, or its composite action. */
export function stepScope(step: Step): TaintScope {
  return step.owner.kind === 'workflow'
    ? { workflow: step.owner, job: step.job, step }
    : { action: step.owner, step };
}

/** Functions whose result is a boolean or a hash, whatever their arguments. */
const CLEARING_FUNCTIONS = new Set(['contains', 'startswith', 'endswith', 'hashfiles', 'success', 'always', 'failure', 'cancelled']);

/**
 * tj-actions/changed-files: since v41 (CVE-2023-51664) file names are shell-escaped unless `safe_output: false`.
 * Counts (`*_count`) and booleans (`any_*`, `only_*`, `*_changed` / `*_modified` / `*_deleted`) carry no name at all.
 */
const CHANGED_FILES: { source: string; taint: (step: Step, output: string) => 'raw' | 'json' | null } = {
  source: 'names of files changed by the pull request',
  taint: (step, output) => {
    if (/_count$|^any_|^only_|_(changed|modified|deleted)$/.test(output)) return null;
    const major = actionMajorVersion(step);
    const safe = !/^false$/i.test(getText(step.with, 'safe_output') ?? '');
    return major !== null && major >= 41 && safe ? null : 'raw';
  },
};

/**
 * Actions whose outputs carry attacker-chosen text (file or branch names from the pull request). `taint`
 * says how an output of a given step is tainted: null when the action escapes it or does not produce it.
 */
const TAINTED_ACTION_OUTPUTS: Record<string, { source: string; taint: (step: Step, output: string) => 'raw' | 'json' | null }> = {
  // Since v41 (CVE-2023-51664) file names are shell-escaped unless `safe_output: false`. Counts (`*_count`) and
  // booleans (`any_*`, `only_*`, `*_changed` / `*_modified` / `*_deleted`) carry no name at all.
  'tj-actions/changed-files': CHANGED_FILES,
  // StepSecurity's maintained fork: the same inputs, outputs and escaping (https://github.com/step-security/changed-files).
  'step-security/changed-files': CHANGED_FILES,
  'tj-actions/branch-names': { source: 'branch names', taint: () => 'raw' },
  // `changed_files` is shell-escaped since v17 (CVE-2023-52137) unless `safe_output: false`; `files_changed` is a flag.
  'tj-actions/verify-changed-files': {
    source: 'names of files changed by the pull request',
    taint: (step, output) => {
      if (output !== 'changed_files') return null;
      const major = actionMajorVersion(step);
      const safe = !/^false$/i.test(getText(step.with, 'safe_output') ?? '');
      return major !== null && major >= 17 && safe ? null : 'raw';
    },
  },
  // `<filter>_files` exists only with `list-files`; `shell` and `escape` quote the names.
  'dorny/paths-filter': {
    source: 'names of files changed by the pull request',
    taint: (step, output) => {
      if (!output.endsWith('_files')) return null;
      const format = (getText(step.with, 'list-files') ?? 'none').toLowerCase();
      return format === 'csv' ? 'raw' : format === 'json' ? 'json' : null;
    },
  },
  'xt0rted/pull-request-comment-branch': { source: 'the pull request head branch', taint: (_, output) => (output === 'head_ref' ? 'raw' : null) },
  // The words of a comment (its `comment` input, else the event's comment body) as a JSON array of strings, with no
  // check of who wrote it: https://github.com/skjnldsv/parse-command-comment (action.yml, output `arguments`).
  'skjnldsv/parse-command-comment': { source: 'the words of the comment', taint: (_, output) => (output === 'arguments' ? 'json' : null) },
};

/**
 * Event fields that only users with write access to the base repository can set, whatever the schema
 * says: the base repository and its owner, refs pushed to it (`event.ref`, the pusher), release tags,
 * labels and milestones (created by maintainers), the base side of a pull request, and the name and path
 * of the workflow a `workflow_run` follows (it runs only for the names its `workflows:` lists).
 */
function maintainerControlled(path: readonly string[]): boolean {
  if (path[0] !== 'github' || path[1] !== 'event') return false;
  const field = path[2];
  if (field === undefined) return false;
  if (MAINTAINER_FIELDS.has(field)) return true;
  if (field === 'release') return path[3] === 'tag_name' || path[3] === 'target_commitish';
  if (field === 'workflow_run') return path[3] === 'name' || path[3] === 'path' || path[3] === 'repository';
  for (let i = 3; i < path.length; i++) {
    const segment = path[i];
    // `labels` and `milestone` objects; not `head.label`, the `owner:branch` of a fork.
    if (segment === 'labels' || segment === 'milestone') return true;
    if (segment === 'base' && (path[i - 1] === 'pull_request' || path[i - 2] === 'pull_requests')) return true;
  }
  return false;
}

const MAINTAINER_FIELDS = new Set(['repository', 'organization', 'enterprise', 'installation', 'pusher', 'ref', 'base_ref', 'label', 'milestone', 'workflow']);

/** Runner variables a script may read that carry attacker-chosen text. */
const TAINTED_RUNNER_VARIABLES: Record<string, Taint> = {
  GITHUB_HEAD_REF: { level: 'arbitrary', controller: 'external', source: 'github.head_ref', via: ['$GITHUB_HEAD_REF'] },
};

/**
 * Event fields whose text GitHub generates: `github.event.issue.pull_request` (on an issue comment, the object
 * of URLs that says the issue is a pull request: `https://github.com/<owner>/<repo>/pull/<n>` and the like).
 */
function generatedByGitHub(path: readonly string[]): boolean {
  return path[0] === 'github' && path[1] === 'event' && path[2] === 'issue' && path[3] === 'pull_request';
}

const MAX_DEPTH = 12;

/**
 * Follows values through env, step outputs, job outputs, matrix values, action inputs and the
 * value-preserving functions (format, join, toJSON, fromJSON, ||, &&) to the context they come from.
 * One analyser serves one repository scan; results are memoised per expression and scope.
 */
export class TaintAnalyzer {
  readonly #repo: RepositoryModel;
  readonly #active = new Set<string>();
  /** Step and job outputs already followed: they do not depend on where they are read. */
  #outputs = new Map<string, Taint | null>();
  #folds = new Map<Step, ScriptFold<Taint | null>>();
  /**
   * While `ofExpressionAt` follows one job step's run: for each local composite action on the way from that job
   * step, the steps that call it on that way. Inputs of those actions are what these callers pass, not all callers.
   */
  #pin: Map<Action, Set<Step>> | null = null;
  /** The memos of each pinned run (an action's step outputs depend on what its caller passes). */
  readonly #pinned = new Map<Step, { pin: Map<Action, Set<Step>>; outputs: Map<string, Taint | null>; folds: Map<Step, ScriptFold<Taint | null>> }>();
  readonly #triggers = new Map<Workflow, ReadonlySet<string> | null>();
  /** Per step: what an earlier outsider's checkout of its job holds, as a taint, and where (`#checkoutTaint`). */
  readonly #checkouts = new Map<Step, { taint: Taint; dir: string } | null>();

  constructor(repo: RepositoryModel) {
    this.#repo = repo;
  }

  /** The most dangerous source among the `${{ }}` of a node (every string below it). */
  ofNode(node: YNode, scope: TaintScope, file = fileOf(scope), depth = 0): Taint | null {
    if (file === undefined) return null;
    let result: Taint | null = null;
    for (const scalar of expressionScalarsInFile(file, node)) {
      const occurrences = expressionsOf(file, scalar);
      // A JSON value pasted into a longer string is no longer a JSON document.
      const whole = occurrences.length === 1 && occurrences[0]?.span.start === 0 && occurrences[0].span.end === String(scalar.value).trimEnd().length;
      for (const occurrence of occurrences) {
        if (occurrence.expr === null) continue;
        const taint = this.ofExpression(occurrence.expr, scope, depth);
        result = stronger(result, taint === null || whole ? taint : withoutJson(taint));
      }
    }
    return result;
  }

  /**
   * The `${{ }}` of a step's `run:` script that carry an outsider's text (anyone's, free-form or structured), in
   * script order, each with its taint: what script-injection, dangerous-trigger and the permission rules call
   * outsider text in a script.
   */
  *outsiderScriptText(step: Step): Generator<{ occurrence: ExpressionOccurrence; taint: Taint }> {
    if (step.run === undefined) return;
    const scope = stepScope(step);
    for (const occurrence of expressionsOf(step.owner.file, step.run)) {
      if (occurrence.expr === null) continue;
      const taint = this.ofExpression(occurrence.expr, scope);
      if (taint !== null && (taint.level === 'arbitrary' || taint.level === 'structured') && taint.controller === 'external') yield { occurrence, taint };
    }
  }

  /**
   * The taint of an expression of a local composite action's step when the action runs for one job step
   * (`jobStep`, a step of a workflow job that calls the action, directly or through other local composite
   * actions): its `inputs.*` are what that call passes, its events that workflow's. `ofExpression` is the
   * strongest over every caller.
   */
  ofExpressionAt(expr: Expr, scope: TaintScope, jobStep: Step): Taint | null {
    if (this.#pin !== null || jobStep.job === null) return this.ofExpression(expr, scope);
    let memo = this.#pinned.get(jobStep);
    if (memo === undefined) {
      memo = { pin: this.#callChain(jobStep), outputs: new Map(), folds: new Map() };
      this.#pinned.set(jobStep, memo);
    }
    const saved = { outputs: this.#outputs, folds: this.#folds };
    this.#pin = memo.pin;
    this.#outputs = memo.outputs;
    this.#folds = memo.folds;
    try {
      return this.ofExpression(expr, scope);
    } finally {
      this.#pin = null;
      this.#outputs = saved.outputs;
      this.#folds = saved.folds;
    }
  }

  /** The local composite actions a job step runs (nested ones too, at most MAX_DEPTH deep), each with the steps on the way that call it. */
  #callChain(jobStep: Step): Map<Action, Set<Step>> {
    const chain = new Map<Action, Set<Step>>();
    let frontier: Step[] = [jobStep];
    for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
      const next: Step[] = [];
      for (const caller of frontier) {
        const action = this.#repo.ownAction(caller);
        if (action === undefined) continue;
        const callers = chain.get(action) ?? new Set<Step>();
        if (callers.has(caller)) continue;
        callers.add(caller);
        chain.set(action, callers);
        for (const inner of action.steps) if (inner.usesRef !== undefined) next.push(inner);
      }
      frontier = next;
    }
    return chain;
  }

  /** The callers of a local composite action: on a pinned run, only those on its way. */
  #callersOf(action: Action): readonly Step[] {
    const callers = this.#repo.callersOf(action);
    const pinned = this.#pin?.get(action);
    return pinned === undefined ? callers : callers.filter((c) => pinned.has(c));
  }

  ofExpression(expr: Expr, scope: TaintScope, depth = 0): Taint | null {
    if (depth > MAX_DEPTH) return null;
    if (expr instanceof ContextAccess || expr instanceof IndexAccess) {
      const path = contextPath(expr);
      if (path !== null) return this.#ofPath(path, scope, depth);
      // A field of a pull request an API request step looked up: only the fields its author writes.
      const looked = expr instanceof IndexAccess ? this.#lookedUpPullRequestField(expr, scope) : undefined;
      if (looked !== undefined) return looked;
      // `(github.event.pull_request || github.event.issue).number`: the field of whichever operand is the value.
      const spread = expr instanceof IndexAccess ? spreadIndex(expr) : null;
      if (spread !== null) return this.ofExpression(spread, scope, depth + 1);
      // e.g. fromJSON(x).field: the value flows from the indexed expression.
      return expr instanceof IndexAccess ? this.ofExpression(expr.expr, scope, depth + 1) : null;
    }
    if (expr instanceof FunctionCall) {
      const name = functionName(expr);
      if (CLEARING_FUNCTIONS.has(name)) return null;
      // case(pred1, val1, ..., default): only the values flow.
      const args = name === 'case' ? expr.args.filter((_, i) => i % 2 === 1 || i === expr.args.length - 1) : expr.args;
      let result: Taint | null = null;
      for (const arg of args) result = stronger(result, this.ofExpression(arg, scope, depth + 1));
      if (result === null) return null;
      return name === 'tojson' ? { ...result, json: true } : withoutJson(result);
    }
    if (expr instanceof Logical) {
      // `a && b` is the first falsy operand (null, false, 0 or '': no text of anyone's) or else the last one: only the
      // last carries text into the value (`github.event.issue && 'issue' || 'pr'` is one of two literals).
      if (expr.operator.lexeme === '&&') {
        const last = expr.args[expr.args.length - 1];
        return last === undefined ? null : this.ofExpression(last, scope, depth + 1);
      }
      // `a || b` is `a` whenever `a` is truthy: the operands after one that always is are never the value.
      const or = expr.operator.lexeme === '||';
      let result: Taint | null = null;
      for (const arg of expr.args) {
        result = stronger(result, this.ofExpression(arg, scope, depth + 1));
        if (or && this.#alwaysTruthy(arg, scope)) break;
      }
      return result;
    }
    if (expr instanceof Grouping) return this.ofExpression(expr.group, scope, depth + 1);
    if (expr instanceof Binary || expr instanceof Unary) return null;
    return null;
  }

  /**
   * True when a value is truthy on every run of the scope: a non-empty string, a non-zero number or `true`; a value
   * GitHub always sets (`github.run_id`, `github.sha`, `github.repository` ...); the pull request's number on events
   * that carry one (every trigger of the scope a `pull_request*` event).
   */
  #alwaysTruthy(expr: Expr, scope: TaintScope): boolean {
    if (expr instanceof Grouping) return this.#alwaysTruthy(expr.group, scope);
    if (expr instanceof Literal) {
      const value = expr.literal;
      if (value instanceof data.StringData) return value.value !== '';
      if (value instanceof data.NumberData) return value.value !== 0 && !Number.isNaN(value.value);
      return value instanceof data.BooleanData && value.value;
    }
    if (!(expr instanceof ContextAccess || expr instanceof IndexAccess)) return false;
    const path = contextPath(expr)?.join('.').toLowerCase();
    if (path === undefined) return false;
    if (ALWAYS_SET.has(path)) return true;
    if (path !== 'github.event.pull_request.number' && path !== 'github.event.number') return false;
    const triggers = this.triggersOf(scope);
    return triggers !== null && triggers.size > 0 && [...triggers].every((t) => PR_NUMBER_EVENTS.has(t));
  }

  /**
   * The triggers that decide who controls event data in a scope: the workflow's own, with `workflow_run`
   * dropped when no source workflow of it runs on pull requests; for a reusable workflow called only from
   * this repository, its callers' too; null where the event is not known (composite actions, reusable
   * workflows without a local caller).
   */
  triggersOf(scope: TaintScope): ReadonlySet<string> | null {
    const workflow = scope.workflow;
    if (workflow === undefined) return scope.action === undefined ? null : this.#actionTriggers(scope.action);
    const cached = this.#triggers.get(workflow);
    if (cached !== undefined) return cached;
    this.#triggers.set(workflow, null);
    let result: Set<string> | null = new Set();
    for (const trigger of workflow.triggers) {
      if (trigger.name !== 'workflow_call') result.add(trigger.name);
    }
    if (workflow.triggers.some((t) => t.name === 'workflow_call')) {
      const callers = this.#workflowCallers(workflow);
      if (callers.length === 0) result = null;
      for (const caller of callers) {
        const theirs = this.triggersOf({ workflow: caller.workflow });
        if (theirs === null || result === null) result = null;
        else for (const name of theirs) result.add(name);
      }
    }
    this.#triggers.set(workflow, result);
    return result;
  }

  /** A repository-private composite action runs in its callers' workflows: their triggers; null for a published one. */
  #actionTriggers(action: Action): ReadonlySet<string> | null {
    if (!isPrivateAction(action)) return null;
    const callers = this.#callersOf(action);
    if (callers.length === 0 || this.#active.has(`triggers:${action.file.path}`)) return null;
    this.#active.add(`triggers:${action.file.path}`);
    try {
      const result = new Set<string>();
      for (const caller of callers) {
        const theirs = this.triggersOf(stepScope(caller));
        if (theirs === null) return null;
        for (const name of theirs) result.add(name);
      }
      return result;
    } finally {
      this.#active.delete(`triggers:${action.file.path}`);
    }
  }

  #ofPath(path: string[], scope: TaintScope, depth: number): Taint | null {
    const [head, a, b, c] = path;
    const dotted = path.join('.');
    switch (head) {
      case 'github': {
        if (a === 'event' && b === 'inputs' && c !== undefined) return this.#ofInput(c, scope, depth, dotted);
        // `event.action` is an enum for every event but repository_dispatch, where the sender picks it.
        if (a === 'event' && b === 'action' && c === undefined && !dispatchable(scope)) return null;
        if (maintainerControlled(path) || generatedByGitHub(path)) return null;
        // A field no event has (`github.event.issue_number`, `github.event.name`): empty on every run, nobody's text.
        if (a === 'event' && b !== undefined && noEventHasField(b, knownEventField)) return null;
        const capability = githubContextCapability(path.slice(1));
        if (capability === 'fixed') return null;
        // Only the triggers whose payload has the field bring a value in: on the others it is empty. A field no
        // trigger has is nobody's text today (`maintainer`, no events): a latent injection, not an attack.
        const triggers = triggersWithField(path, this.triggersOf(scope));
        if (triggers !== null && triggers.size === 0) return { level: capability, controller: 'maintainer', source: dotted, via: [], events: [] };
        const controller = contextController(path, triggers);
        return withEvents({ level: capability, controller, source: dotted, via: [] }, triggers);
      }
      case 'inputs':
        return a === undefined ? null : this.#ofInput(a, scope, depth, dotted);
      case 'env':
        return a === undefined ? null : this.#ofEnv(a, scope, depth);
      case 'steps':
        return a !== undefined && b === 'outputs' && c !== undefined ? this.#ofStepOutput(a, c, scope, depth) : null;
      case 'needs':
        return a !== undefined && b === 'outputs' && c !== undefined ? this.#ofJobOutput(a, c, scope, depth) : null;
      case 'matrix':
        return this.#ofMatrix(a, scope, depth);
      default:
        return null;
    }
  }

  #guarded(key: string, compute: () => Taint | null): Taint | null {
    if (this.#active.has(key)) return null;
    this.#active.add(key);
    try {
      return compute();
    } finally {
      this.#active.delete(key);
    }
  }

  #ofEnv(name: string, scope: TaintScope, depth: number): Taint | null {
    const candidates: { pair: YPair | undefined; scope: TaintScope }[] = [
      { pair: findPair(scope.step?.env, name), scope },
      { pair: findPair(scope.job?.env, name), scope: { workflow: scope.workflow, job: scope.job } },
      { pair: findPair(scope.workflow?.env, name), scope: { workflow: scope.workflow } },
    ];
    for (const candidate of candidates) {
      if (candidate.pair === undefined) continue;
      const node = candidate.pair.value;
      const taint = this.#guarded(`env:${name}:${node.start}`, () => this.ofNode(node, candidate.scope, fileOf(scope), depth + 1));
      // Name the variable as the workflow declares it (lookups are case-insensitive, messages should not be).
      return taint === null ? null : through(`env.${keyText(candidate.pair.key)}`, taint);
    }
    return null;
  }

  #ofInput(name: string, scope: TaintScope, depth: number, dotted: string): Taint | null {
    const action = scope.action;
    if (action !== undefined) {
      const input = action.inputs.find((i) => i.name.toLowerCase() === name);
      const callers = this.#callersOf(action);
      let result: Taint | null = null;
      for (const caller of callers) {
        const passed = findKey(caller.with, input?.name ?? name);
        const node = passed ?? input?.default;
        if (node === undefined) continue;
        const callerScope = stepScope(caller);
        const taint = this.#guarded(`input:${action.file.path}:${name}:${caller.node.start}:${caller.owner.file.path}`, () =>
          this.ofNode(node, passed === undefined ? scope : callerScope, passed === undefined ? action.file : caller.owner.file, depth + 1),
        );
        result = stronger(result, taint === null ? null : through(`inputs.${name}`, taint));
      }
      // A repository-private action (under .github/) is run only by the callers we see; any other may be
      // published, and its users choose the inputs.
      if (callers.length > 0 && isPrivateAction(action)) return result;
      if (result !== null) return result;
      const given = callersGiven(callers.slice(0, 5), input?.name ?? name, input?.default);
      return { level: 'input', controller: 'unknown', source: dotted, via: [], ...(given.length > 0 ? { given } : {}) };
    }
    const workflow = scope.workflow;
    if (workflow === undefined) return { level: 'input', controller: 'unknown', source: dotted, via: [] };
    let dispatched = false;
    let called = false;
    let declaredAnywhere = false;
    for (const trigger of workflow.triggers) {
      if (trigger.name !== 'workflow_dispatch' && trigger.name !== 'workflow_call') continue;
      const inputs = getMap(trigger.config, 'inputs');
      const declared = inputs?.pairs.find((p) => keyText(p.key).toLowerCase() === name);
      if (declared === undefined) continue;
      declaredAnywhere = true;
      const type = getText(declared.value, 'type');
      if (type !== null && type !== 'string') return null;
      if (trigger.name === 'workflow_dispatch') dispatched = true;
      else called = true;
    }
    // An input the workflow's `workflow_dispatch` and `workflow_call` triggers do not declare is empty on every run: the
    // dispatch API rejects unexpected inputs (HTTP 422) and a caller that passes one makes its own workflow invalid
    // (a slip such as `inputs.timeConstant` for a declared `timeoutConstant`). Nobody's text.
    if (!declaredAnywhere && workflow.triggers.some((t) => t.name === 'workflow_dispatch' || t.name === 'workflow_call')) return null;
    if (!declaredAnywhere) return { level: 'input', controller: dispatchable(scope) ? 'unknown' : 'collaborator', source: dotted, via: [] };
    // Whoever dispatches the workflow has write access; a reusable workflow takes its inputs from the
    // callers we see in this repository, and from unknown callers when there are none.
    let result: Taint | null = dispatched ? { level: 'input', controller: 'collaborator', source: dotted, via: [] } : null;
    const callers = called ? this.#workflowCallers(workflow) : [];
    if (called && callers.length === 0) result = stronger(result, { level: 'input', controller: 'unknown', source: dotted, via: [] });
    for (const job of callers) {
      const passed = findKey(job.with, name);
      if (passed === undefined) continue;
      const taint = this.#guarded(`call:${job.workflow.file.path}:${job.id}:${name}`, () =>
        this.ofNode(passed, { workflow: job.workflow, job }, job.workflow.file, depth + 1),
      );
      result = stronger(result, taint === null ? null : through(`inputs.${name}`, taint));
    }
    return result;
  }

  /**
   * Jobs of this repository's workflows that call `workflow` as a reusable workflow: `./.github/workflows/x.yml`, or
   * by the repository's own name (`owner/name/.github/workflows/x.yml@main`), as the repository model resolves them.
   */
  #workflowCallers(workflow: Workflow): readonly Job[] {
    return localCallers(workflow);
  }

  #ofStepOutput(id: string, output: string, scope: TaintScope, depth: number): Taint | null {
    const steps = scope.job?.steps ?? scope.action?.steps ?? [];
    const step = steps.find((s) => s.id?.toLowerCase() === id);
    if (step === undefined) return null;
    const via = `steps.${id}.outputs.${output}`;
    const key = `step:${step.owner.file.path}:${step.node.start}:${output}`;
    if (this.#outputs.has(key)) return this.#outputs.get(key) ?? null;
    const result = this.#guarded(key, () => {
      let taint: Taint | null = null;
      const stepScopeValue = stepScope(step);
      if (step.run !== undefined && typeof step.run.value === 'string') {
        taint = this.#ofScriptOutput(step, step.run.value, output, stepScopeValue, depth);
      } else if (step.usesRef?.kind === 'repository') {
        const slug = step.usesRef.slug;
        const known = TAINTED_ACTION_OUTPUTS[slug];
        const form = known?.taint(step, output) ?? null;
        if (known !== undefined && form !== null) {
          const triggers = this.triggersOf(stepScopeValue);
          taint = withEvents({ level: 'arbitrary', controller: eventController(triggers), source: known.source, via: [], json: form === 'json' }, triggers);
        } else if (slug === 'actions/github-script') {
          // What the script returns (`result`) or sets (`core.setOutput`): tainted only by what those lines read.
          taint = this.#ofGithubScript(step, output, stepScopeValue, depth);
        } else {
          // An action that reads a file of an outsider's artifact into its outputs (`json-to-output` given
          // `path: output.json` after the download): every output is the fork's text.
          const artifact = this.#artifactTaint(step, stepScopeValue);
          if (artifact !== null && readsDownloadIntoOutputs(step, artifact.download)) taint = artifact.taint;
        }
      } else if (step.usesRef?.kind === 'local') {
        const action = this.#repo.localAction(step);
        const value = action === undefined ? undefined : get(findKey(action.outputs, output), 'value');
        if (action !== undefined && value !== undefined) taint = this.ofNode(value, { action }, action.file, depth + 1);
      }
      return taint === null ? null : through(via, taint);
    });
    this.#outputs.set(key, result);
    return result;
  }

  /**
   * What a `run:` script writes to one of its outputs: only the lines that write it and the assignments of
   * the shell variables they read when those can be found, anything tainted in the script otherwise.
   */
  #ofScriptOutput(step: Step, script: string, output: string, scope: TaintScope, depth: number): Taint | null {
    if (!/GITHUB_OUTPUT|::set-output/i.test(script)) return null;
    const run = step.run;
    if (run === undefined) return null;
    const writes = outputLines(script, output);
    if (writes === null) {
      let taint = this.ofNode(run, scope, step.owner.file, depth + 1);
      for (const name of referencedEnvVars(script)) taint = stronger(taint, this.#ofShellVariable(name, scope, depth));
      // A file of an outsider's artifact written into `$GITHUB_OUTPUT` as it is (`cat meta/outputs >> "$GITHUB_OUTPUT"`):
      // its lines name the outputs, so any of them may be the fork's text.
      const artifact = /GITHUB_OUTPUT/.test(script) ? this.#artifactTaint(step, scope) : null;
      if (artifact !== null && logicalLines(script).some((line) => /GITHUB_OUTPUT/.test(line.text) && readsDownloadedFile(step, line, artifact.download))) taint = stronger(taint, artifact.taint);
      return taint;
    }
    return this.#scriptFold(step, scope, depth).ofLines(writes);
  }

  /** The taint fold of a step's script (memoised per step: each variable is followed once). */
  #scriptFold(step: Step, scope: TaintScope, depth: number): ScriptFold<Taint | null> {
    const cached = this.#folds.get(step);
    if (cached !== undefined) return cached;
    const run = step.run as YScalar;
    const occurrences = expressionsOf(step.owner.file, run);
    const artifact = this.#artifactTaint(step, scope);
    const text = String(run.value);
    const lookup = this.#headBranchLookupTaint(step, text, scope);
    const files = this.#changedFilesLookupTaint(step, text, scope);
    const checkout = this.#checkoutTaint(step, scope);
    const fold = scriptFold<Taint | null>(text, {
      own: (line, [from, to]) => {
        let taint: Taint | null = null;
        // A file of an outsider's artifact read into the value (`N=$(cat pr/NR)`). A read of the variable it is
        // assigned to after a check (`[[ "$N" =~ ^[0-9]+$ ]] || exit 1`) does not come here (`checked` below).
        if (artifact !== null && readsDownloadedFile(step, line, artifact.download)) taint = artifact.taint;
        // A file or the commit text of an outsider's checkout read into the value (`grep '^#' CODEOWNERS`, `git log --format=%B`).
        if (checkout !== null && readsCheckout(line.text, checkout.dir)) taint = stronger(taint, checkout.taint);
        // A pull request's head branch name read from an API answer (`jq -r .head.ref`, `--json headRefName`).
        if (lookup !== null && HEAD_BRANCH_FIELD.test(line.text)) taint = stronger(taint, lookup);
        // A field of the event's payload read from its file (`jq -r .issue.title "$GITHUB_EVENT_PATH"`).
        taint = stronger(taint, this.ofEventPathRead(line.text, scope, depth));
        // The pull request's changed file names read from an API answer (`jq -r '.[].filename'`, `gh pr diff --name-only`).
        if (files !== null && CHANGED_FILES_FIELD.test(line.text)) taint = stronger(taint, files);
        for (let i = firstAtOrAfter(occurrences, from); i < occurrences.length; i++) {
          const occurrence = occurrences[i] as ExpressionOccurrence;
          if (occurrence.span.start >= to) break;
          if (occurrence.expr !== null) taint = stronger(taint, this.ofExpression(occurrence.expr, scope, depth + 1));
        }
        return taint;
      },
      external: (name) => this.#ofShellVariable(name, scope, depth),
      combine: stronger,
      empty: null,
      // A variable read where the script has checked it against an anchored pattern or an allow-list (after a
      // check that stops the script or empties it otherwise, or in the branch that runs only on a match) carries
      // the checked shape into the outputs it writes, not the text it was given.
      checked: true,
    });
    this.#folds.set(step, fold);
    return fold;
  }

  /**
   * `fromJSON(steps.<id>.outputs.data).head.ref` where step `<id>` runs `octokit/request-action` with a route that
   * gets one pull request (`GET /repos/{owner}/{repo}/pulls/{number}`): its `data` is the API's pull request object.
   * The fields its author writes (the head branch's name and label, the title, the body) are free text an outsider
   * sets on the events that bring their pull request in; any other field (the number, the base branch, a SHA, a
   * login) is none. Undefined when the expression is no such lookup (then the whole output's taint applies).
   */
  #lookedUpPullRequestField(expr: IndexAccess, scope: TaintScope): Taint | null | undefined {
    const fields: string[] = [];
    let current: Expr = expr;
    while (current instanceof IndexAccess) {
      const index = current.index;
      const value = index instanceof Literal ? (index.token.value ?? index.token.lexeme) : undefined;
      if (typeof value !== 'string' && typeof value !== 'number') return undefined;
      fields.push(String(value).toLowerCase());
      current = current.expr;
    }
    if (!(current instanceof FunctionCall) || functionName(current) !== 'fromjson' || current.args.length !== 1) return undefined;
    const path = contextPath(current.args[0] as Expr);
    if (path === null || path.length !== 4 || path[0] !== 'steps' || path[2] !== 'outputs' || path[3] !== 'data') return undefined;
    const step = (scope.job?.steps ?? scope.action?.steps ?? []).find((s) => s.id?.toLowerCase() === path[1]);
    if (step?.usesRef?.kind !== 'repository' || step.usesRef.slug !== 'octokit/request-action') return undefined;
    if (!PULL_REQUEST_ROUTE.test(getText(step.with, 'route') ?? '')) return undefined;
    const field = fields.reverse().join('.');
    const words = AUTHOR_PULL_REQUEST_FIELDS.get(field);
    if (words === undefined) return null;
    const taint = withEvents({ level: 'arbitrary', controller: 'external', source: `the pull request ${words} looked up by ${describeStep(step)}`, via: [] }, this.triggersOf(scope));
    return taint.events === undefined || taint.events.length === 0 ? null : taint;
  }

  /**
   * The taint of a pull request's head branch name that a step's script looks up through the API (`gh pr view
   * --json headRefName`, `gh api`, `curl` of the pull request, then `jq -r .head.ref`): the pull request's author
   * names the branch, and a branch name may hold `$(...)`, `;`, `|` and backticks (git forbids only spaces and a
   * few other characters), so it is free text. Only on the events through which an outsider brings a pull request
   * in; null on others, and for a script that asks no API.
   */
  #headBranchLookupTaint(step: Step, script: string, scope: TaintScope): Taint | null {
    if (!HEAD_BRANCH_FIELD.test(script) || !API_CALL.test(script)) return null;
    const taint = withEvents({ level: 'arbitrary', controller: 'external', source: `the pull request head branch name looked up by ${describeStep(step)}`, via: [] }, this.triggersOf(scope));
    return taint.events === undefined || taint.events.length === 0 ? null : taint;
  }

  /**
   * The taint of a pull request's changed file names that a step's script looks up through the API (`curl
   * .../pulls/N/files` or `gh api` then `jq -r '.[].filename'`, `gh pr view --json files`, `gh pr diff --name-only`):
   * the pull request's author names the files, and a path may hold `$(...)`, `;`, quotes and backticks (git forbids
   * only NUL), so it is free text. Only on the events through which an outsider brings a pull request in; null on
   * others, and for a script that asks no API for them.
   */
  #changedFilesLookupTaint(step: Step, script: string, scope: TaintScope): Taint | null {
    if (!CHANGED_FILES_FIELD.test(script) || !API_CALL.test(script) || !CHANGED_FILES_CALL.test(script)) return null;
    const taint = withEvents({ level: 'arbitrary', controller: 'external', source: `the pull request's changed file names looked up by ${describeStep(step)}`, via: [] }, this.triggersOf(scope));
    return taint.events === undefined || taint.events.length === 0 ? null : taint;
  }

  /**
   * The taint of what an earlier checkout of a pull request's code in the job holds (its files, and the commit
   * messages and file names of its history), for a step's script reading it: the pull request's author wrote all
   * of it, and a file's line or a commit message may hold `$(...)`, quotes and backticks. Only a checkout an
   * outsider reaches (`untrustedCheckouts`: not one restricted to trusted authors, nor the approved commit of a
   * maintainer's approval), with the directory it lands in (`''`: the workspace itself); null otherwise.
   */
  #checkoutTaint(step: Step, scope: TaintScope): { taint: Taint; dir: string } | null {
    if (this.#checkouts.has(step)) return this.#checkouts.get(step) ?? null;
    const found = this.#findCheckoutTaint(step, scope);
    this.#checkouts.set(step, found);
    return found;
  }

  /**
   * The taint of a field of the event's payload that one line of a script reads from the payload file with jq
   * (`jq -r '.issue.title' "$GITHUB_EVENT_PATH"`, `jq -r .comment.body < $GITHUB_EVENT_PATH`, `cat "$GITHUB_EVENT_PATH"
   * | jq -r .pull_request.head.ref`): the same text as `${{ github.event.issue.title }}`. Null when the line reads
   * no such field (a filter that is not one plain path is not followed).
   */
  ofEventPathRead(line: string, scope: TaintScope, depth = 0): Taint | null {
    if (!line.includes('GITHUB_EVENT_PATH')) return null;
    const field = eventPathField(line);
    if (field === null) return null;
    const expr = parseExpression(`github.event${field}`);
    return expr === null ? null : this.ofExpression(expr, scope, depth + 1);
  }

  /** The taint of what one line of a step's script reads from an outsider's checkout (`#checkoutTaint`), or null. */
  ofCheckoutRead(step: Step, line: string): Taint | null {
    const checkout = this.#checkoutTaint(step, stepScope(step));
    return checkout !== null && readsCheckout(line, checkout.dir) ? checkout.taint : null;
  }

  #findCheckoutTaint(step: Step, scope: TaintScope): { taint: Taint; dir: string } | null {
    const job = step.job;
    if (job === null) return null;
    // Only a step before it that can check something out (actions/checkout, a local action, a script that runs git or
    // gh) makes the pull request checkouts worth working out: they follow outputs back through the jobs a job needs,
    // which a long chain of needs would pay for at every step otherwise.
    if (!job.steps.some((s) => s.index < step.index && mayCheckOut(s))) return null;
    const found = untrustedCheckouts(job, this.#repo).find((c) => c.step.index < step.index);
    if (found === undefined) return null;
    const path = (found.path !== undefined ? found.path : found.step.run === undefined ? getText(found.step.with, 'path') : null) ?? '';
    const dir = path.trim().replace(/^\.\/+/, '').replace(/\/+$/, '');
    if (/[$*?{}\\]/.test(dir)) return null;
    const taint = withEvents({ level: 'arbitrary', controller: 'external', source: `the pull request head's files and commit messages, checked out by ${describeStep(found.step)}`, via: [] }, this.triggersOf(scope));
    return taint.events === undefined || taint.events.length === 0 ? null : { taint, dir: dir === '.' ? '' : dir };
  }

  /**
   * The taint of a file an outsider's artifact may hold, for a step of a job that downloads one (a fork's run
   * chose the files: free text an outsider sets, on the events that bring the run in); null otherwise.
   */
  #artifactTaint(step: Step, scope: TaintScope): { taint: Taint; download: NonNullable<ReturnType<typeof outsiderDownloadBefore>> } | null {
    const download = outsiderDownloadBefore(step, this.#repo);
    if (download === null) return null;
    const taint = withEvents({ level: 'arbitrary', controller: 'external', source: `the content of an artifact downloaded by ${describeStep(download.step)}`, via: [] }, this.triggersOf(scope));
    return { taint, download };
  }

  /** An environment variable a script reads: from `env:`, or a runner variable that carries outsider text. */
  #ofShellVariable(name: string, scope: TaintScope, depth: number): Taint | null {
    const own = this.#ofEnv(name.toLowerCase(), scope, depth + 1);
    if (own !== null) return own;
    const runner = TAINTED_RUNNER_VARIABLES[name];
    if (runner === undefined) return null;
    const triggers = triggersWithField(runner.source.split('.'), this.triggersOf(scope));
    return triggers !== null && triggers.size === 0 ? { ...runner, controller: 'maintainer', events: [] } : withEvents(runner, triggers);
  }

  /**
   * An output of an actions/github-script step: `result` is what the script returns, any other output what it
   * passes to `core.setOutput('<name>', ...)`. Only those lines count, with the variable they name when it is
   * assigned on one line (`const title = context.payload.pull_request.title`): what they read from the event
   * (`context.payload.*`, `github.event.*` in `${{ }}`) or the environment (`process.env.X`). A script that
   * returns a number, a flag or an API answer yields nothing an outsider wrote.
   */
  #ofGithubScript(step: Step, output: string, scope: TaintScope, depth: number): Taint | null {
    const node = get(step.with, 'script');
    if (node?.kind !== 'scalar' || typeof node.value !== 'string') return null;
    const script = node.value;
    const name = output.replace(/[^\w-]/g, '');
    const wanted = output === 'result' ? /\breturn\b\s*(.*)$/ : new RegExp(`\\bsetOutput\\(\\s*['"\`]${name}['"\`]\\s*,\\s*(.*)$`, 'i');
    const lines: { text: string; start: number }[] = [];
    for (let start = 0; start <= script.length; ) {
      const end = script.indexOf('\n', start);
      const stop = end === -1 ? script.length : end;
      lines.push({ text: script.slice(start, stop), start });
      start = stop + 1;
    }
    // The lines that give the output, and (`return title`) the line that assigns the name they give.
    const seeds: { text: string; start: number; end: number }[] = [];
    const named = new Set<string>();
    // Values the script checks first, stopping otherwise, or turns into numbers (githubScriptChecks).
    const checks = githubScriptChecks(script);
    for (const line of lines) {
      const match = wanted.exec(line.text);
      if (match === null) continue;
      if (JS_NUMBER.test(match[1] ?? '')) continue;
      const identifier = /^\s*([A-Za-z_$][\w$]*)\s*\)?\s*;?\s*$/.exec(match[1] ?? '')?.[1];
      if (identifier !== undefined) {
        const check = checks.get(identifier);
        if (check !== undefined && check.at <= line.start) continue;
        named.add(identifier);
      }
      seeds.push({ text: match[1] ?? '', start: line.start, end: line.start + line.text.length });
    }
    if (seeds.length === 0) return null;
    if (named.size > 0) {
      for (const line of lines) {
        const assigned = /^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=(.*)$/.exec(line.text);
        if (assigned?.[1] !== undefined && named.has(assigned[1])) seeds.push({ text: assigned[2] ?? '', start: line.start, end: line.start + line.text.length });
      }
    }
    let taint: Taint | null = null;
    // A file read into the output after an outsider's artifact was downloaded, unless it becomes a number.
    if (seeds.some((seed) => /\breadFileSync\s*\(|\breadFile\s*\(/.test(seed.text) && !/\b(Number|parseInt|parseFloat)\s*\(/.test(seed.text))) {
      taint = this.#artifactTaint(step, scope)?.taint ?? null;
    }
    for (const seed of seeds.slice(0, 64)) {
      for (const match of seed.text.matchAll(/\bcontext\.payload((?:\.[A-Za-z_]\w*){1,8})(\s*\()?|\bprocess\.env\.([A-Za-z_]\w*)/g)) {
        if (match[1] !== undefined) {
          const segments = match[1].slice(1).toLowerCase().split('.');
          // `.split(' ')`, `.trim()`: a method of the text, which keeps it; `.length`: a number.
          if (match[2] !== undefined) segments.pop();
          if (segments.at(-1) === 'length') continue;
          taint = stronger(taint, this.#ofPath(['github', 'event', ...segments], scope, depth + 1));
        } else if (match[3] !== undefined) taint = stronger(taint, this.#ofEnv(match[3].toLowerCase(), scope, depth + 1));
      }
    }
    if (script.includes('${{')) {
      for (const occurrence of expressionsOf(step.owner.file, node)) {
        const at = occurrence.span.start;
        if (occurrence.expr !== null && seeds.some((seed) => at >= seed.start && at < seed.end)) taint = stronger(taint, this.ofExpression(occurrence.expr, scope, depth + 1));
      }
    }
    return taint === null ? null : withoutJson(taint);
  }

  #ofJobOutput(jobId: string, output: string, scope: TaintScope, depth: number): Taint | null {
    const workflow = scope.workflow;
    const job = workflow?.jobs.find((j) => j.id.toLowerCase() === jobId);
    const node = findKey(job?.outputs, output);
    if (job === undefined || node === undefined) return null;
    const key = `job:${workflow?.file.path}:${job.id}:${output}`;
    if (this.#outputs.has(key)) return this.#outputs.get(key) ?? null;
    const taint = this.#guarded(key, () => this.ofNode(node, { workflow, job }, workflow?.file, depth + 1));
    const result = taint === null ? null : through(`needs.${jobId}.outputs.${output}`, taint);
    this.#outputs.set(key, result);
    return result;
  }

  /** `matrix.<name>` (or the whole `matrix` when `name` is undefined). */
  #ofMatrix(name: string | undefined, scope: TaintScope, depth: number): Taint | null {
    const matrix = get(scope.job?.strategy, 'matrix');
    if (matrix === undefined) return null;
    // A matrix computed by an expression, an axis whose values are expressions, or `include` entries
    // (themselves computed, or giving this key a computed value).
    const nodes: YNode[] = [];
    if (matrix.kind !== 'map' || name === undefined) nodes.push(matrix);
    else {
      const axis = findKey(matrix, name);
      if (axis !== undefined) nodes.push(axis);
      const include = get(matrix, 'include');
      if (include?.kind === 'seq') {
        for (const entry of include.items) {
          const value = entry.kind === 'map' ? findKey(entry, name) : entry;
          if (value !== undefined) nodes.push(value);
        }
      } else if (include !== undefined) nodes.push(include);
    }
    const label = name === undefined ? 'matrix' : `matrix.${name}`;
    let result: Taint | null = null;
    for (const node of nodes) {
      const taint = this.#guarded(`matrix:${scope.workflow?.file.path}:${node.start}`, () =>
        this.ofNode(node, { workflow: scope.workflow, job: scope.job }, fileOf(scope), depth + 1),
      );
      result = stronger(result, taint === null ? null : through(label, taint));
    }
    return result;
  }
}

function dispatchable(scope: TaintScope): boolean {
  const triggers = scope.workflow?.triggers;
  // Composite actions and reusable workflows do not know their caller's trigger: assume the worst.
  if (triggers === undefined || triggers.some((t) => t.name === 'workflow_call')) return true;
  return triggers.some((t) => t.name === 'repository_dispatch');
}

function fileOf(scope: TaintScope) {
  return scope.step?.owner.file ?? scope.workflow?.file ?? scope.action?.file;
}

/** A mapping's value by key, compared case-insensitively (env names and outputs are). */
function findKey(map: YNode | undefined, name: string): YNode | undefined {
  return findPair(map, name)?.value;
}

function findPair(map: YNode | undefined, name: string): YPair | undefined {
  if (map?.kind !== 'map') return undefined;
  const lower = name.toLowerCase();
  return map.pairs.find((p) => keyText(p.key).toLowerCase() === lower);
}

/** A step that may check out code: actions/checkout, a local action (which may run it), or a script that runs git or gh. */
function mayCheckOut(step: Step): boolean {
  const ref = step.usesRef;
  if (ref?.kind === 'local') return true;
  if (ref?.kind === 'repository') return isCheckoutAction(ref);
  const script = step.run?.value;
  return typeof script === 'string' && /\b(?:git|gh)\b/.test(script);
}

/**
 * Commands whose output is a file of the checkout or the text of its commits: a file read (`cat`, `grep ... FILE`,
 * `jq ... FILE`, `head`, `$(<FILE)`), and git's commit messages, authors and file names (`git log`, `git show`,
 * `git diff --name-only`, `git ls-files`).
 */
const CHECKOUT_TEXT = /\bgit\s+(?:-C\s+\S+\s+)?(?:log|show|format-patch|ls-files|ls-tree|diff\b[^\n|;&]*--name-(?:only|status))\b/;
const FILE_READ = /\$\(\s*<\s*["']?[\w./-]|(?:^|[\s;&|({`]|\$\()(?:cat|head|tail|grep|egrep|jq|yq|awk|sed|cut|sort|uniq)\s+(?:[^\n|;&]*\s)?["']?(?:\.\/)?([\w][\w./-]*)/g;

/**
 * True when a line of a script reads what a checkout in `dir` (`''`: the workspace) holds: git's text of its commits
 * (anywhere, for the workspace; naming `dir` otherwise), or a file by a relative path (under `dir/` when it has one).
 * A command that reads standard input (`echo "$x" | grep -c md`) reads no file.
 */
function readsCheckout(text: string, dir: string): boolean {
  if (!text.includes('git') && !/\b(?:cat|head|tail|grep|egrep|jq|yq|awk|sed|cut|sort|uniq)\b|\$\(\s*</.test(text)) return false;
  if (CHECKOUT_TEXT.test(text) && (dir === '' || text.includes(dir))) return true;
  FILE_READ.lastIndex = 0;
  for (let match = FILE_READ.exec(text); match !== null; match = FILE_READ.exec(text)) {
    const file = match[1];
    if (file === undefined) {
      if (dir === '') return true;
      continue;
    }
    // A flag's or pattern's word is no file (`grep -c md`: a pattern with no file, reading standard input).
    if (!/[./]/.test(file) && !/^[A-Z][A-Z0-9_-]+$/.test(file)) continue;
    if (dir === '' ? !file.startsWith('/') : file === dir || file.startsWith(`${dir}/`)) return true;
  }
  return false;
}

/** A request of one pull request (`octokit/request-action`'s `route`): `GET /repos/{owner}/{repo}/pulls/{number}`. */
const PULL_REQUEST_ROUTE = /^\s*(?:GET\s+)?\/repos\/\S+\/pulls\/[^\s/]+\s*$/i;
/** Fields of the API's pull request object its author writes, in words (`the pull request head branch name`). */
const AUTHOR_PULL_REQUEST_FIELDS: ReadonlyMap<string, string> = new Map([
  ['head.ref', 'head branch name'],
  ['head.label', 'head branch label'],
  ['title', 'title'],
  ['body', 'body'],
]);

/** A pull request's head branch name in an API answer: `headRefName` (`gh pr view --json`), `.head.ref`, `.head.label`. */
const HEAD_BRANCH_FIELD = /\bheadRefName\b|\.head\.(?:ref|label)\b/;

/**
 * jq's filter as one plain path (`.issue.title`, quoted or not, with a literal default after `//` when quoted:
 * `'.pull_request.base.ref // ""'`), given the payload file or fed it by `cat` or `<`.
 */
const JQ_PATH = String.raw`(?:'((?:\.[A-Za-z_][\w-]*)+)(?:\s*//\s*(?:""|"[\w .-]*"|false|true|null|empty|\d+))?\s*'|"((?:\.[A-Za-z_][\w-]*)+)"|((?:\.[A-Za-z_][\w-]*)+))`;
const EVENT_FILE = String.raw`["']?\$\{?GITHUB_EVENT_PATH\}?["']?`;
const JQ_OPTIONS = String.raw`\bjq\s+(?:-[a-zA-Z]+\s+)*`;
const EVENT_PATH_JQ = [
  new RegExp(`${JQ_OPTIONS}${JQ_PATH}\\s+${EVENT_FILE}`),
  new RegExp(`${JQ_OPTIONS}${JQ_PATH}\\s*<\\s*${EVENT_FILE}`),
  new RegExp(`\\bcat\\s+${EVENT_FILE}\\s*\\|\\s*${JQ_OPTIONS}${JQ_PATH}(?=\\s|\\)|$|[\`;|&])`),
];

/** The payload path (`.issue.title`) a line reads from the event's file with jq, or null. */
function eventPathField(line: string): string | null {
  for (const pattern of EVENT_PATH_JQ) {
    const match = pattern.exec(line);
    const path = match?.[1] ?? match?.[2] ?? match?.[3];
    if (path !== undefined) return path;
  }
  return null;
}
/** A command that asks GitHub's API (the answer a script reads the head's branch name from). */
const API_CALL = /\bgh\s+(?:pr|api)\b|\bcurl\b|\bwget\b|\bhttp\s|\bInvoke-RestMethod\b/;
/** A field or flag that reads a pull request's changed file names from an API answer. */
const CHANGED_FILES_FIELD = /\.filename\b|\bfiles\[\]\.path\b|\bgh\s+pr\s+diff\b[^\n]*--name-only/;
/** The calls that answer with them: the pull request's (or a comparison's) files, `gh pr view --json files`, `gh pr diff`. */
const CHANGED_FILES_CALL = /\/pulls\/(?:\$\{\{[^}\n]{0,100}\}\}|[^\s/]+)\/files\b|\/compare\/[^\s]+|--json\s+[\w,]*\bfiles\b|\bgh\s+pr\s+diff\b/;

/** The taint with the outsider events among `triggers` (none when they are not known). */
function withEvents(taint: Taint, triggers: ReadonlySet<string> | null): Taint {
  if (triggers === null) return taint;
  const events = outsiderEvents(triggers);
  return events.length === 0 ? taint : { ...taint, events };
}

function withoutJson(taint: Taint): Taint {
  if (taint.json !== true) return taint;
  const { json: _json, ...rest } = taint;
  return rest;
}

/** An action under `.github/` is private to its repository; others (the root `action.yml`, `actions/x/`) may be published. */
function isPrivateAction(action: Action): boolean {
  return action.directory === '.github' || action.directory.startsWith('.github/');
}

/** Index of the first occurrence (in value order) starting at or after `offset`. */
export function firstAtOrAfter(occurrences: readonly ExpressionOccurrence[], offset: number): number {
  let low = 0;
  let high = occurrences.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((occurrences[mid]?.span.start ?? 0) < offset) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** What each caller passes as an action's input (or the default it leaves it at), and where (`Taint.given`). */
function callersGiven(callers: readonly Step[], name: string, fallback: YNode | undefined): { value: string; at: string }[] {
  return callers.map((caller) => {
    const passed = findKey(caller.with, name);
    const node = passed ?? fallback;
    const text = node === undefined ? null : scalarText(node);
    const file = caller.owner.file;
    return { value: text === null ? '(none)' : passed === undefined ? `the default \`${oneLineValue(text)}\`` : `\`${oneLineValue(text)}\``, at: `${file.path}:${file.position((passed ?? caller.node).start).line}` };
  });
}

/** A caller's value on one line, shortened (`true`, `${{ env.LEVEL }}`). */
function oneLineValue(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 40 ? `${line.slice(0, 37)}...` : line;
}

/**
 * An index or field taken from a grouped `||` / `&&` expression, taken from each operand instead:
 * `(a || b).number` is `a.number || b.number`, whichever operand the group's value is. Null for any other shape.
 */
function spreadIndex(expr: IndexAccess): Expr | null {
  const indexes: Expr[] = [];
  let base: Expr = expr;
  while (base instanceof IndexAccess && indexes.length < 16) {
    indexes.push(base.index);
    base = base.expr;
  }
  while (base instanceof Grouping) base = base.group;
  if (!(base instanceof Logical)) return null;
  const onto = (operand: Expr): Expr => indexes.reduceRight<Expr>((inner, index) => new IndexAccess(inner, index), operand);
  return new Logical(base.operator, base.args.map(onto));
}
