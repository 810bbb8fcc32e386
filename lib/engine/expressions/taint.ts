import { githubContextCapability } from '../contexts/index.js';
import type { RepositoryModel } from '../model/repository.js';
import type { Action, Job, Step, Workflow } from '../model/workflow.js';
import { actionSlug } from '../model/uses.js';
import { get, getMap, getText, keyText, stringScalars, type YNode } from '../yaml/model.js';
import { expressionsOf } from './extract.js';
import {
  Binary,
  contextPath,
  FunctionCall,
  functionName,
  Grouping,
  IndexAccess,
  ContextAccess,
  Logical,
  Unary,
  type Expr,
} from './parse.js';

/**
 * How far an outsider controls a value, least to most dangerous. `input` is a string input of a
 * workflow or action (chosen by whoever dispatches or calls it); `unknown` is a value whose provenance
 * the engine cannot see.
 */
export type TaintLevel = 'unknown' | 'input' | 'structured' | 'arbitrary';

const RANK: Record<TaintLevel, number> = { unknown: 1, input: 2, structured: 3, arbitrary: 4 };

export interface Taint {
  level: TaintLevel;
  /** The context the value originates from, e.g. `github.event.issue.title`. */
  source: string;
  /** How the value reached the expression, outermost first, e.g. `['env.TITLE', 'steps.meta.outputs.title']`. */
  via: string[];
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
  return RANK[b.level] > RANK[a.level] ? b : a;
}

/** The scope of a step: its job and workflow, or its composite action. */
export function stepScope(step: Step): TaintScope {
  return step.owner.kind === 'workflow'
    ? { workflow: step.owner, job: step.job, step }
    : { action: step.owner, step };
}

/** Functions whose result is a boolean or a hash, whatever their arguments. */
const CLEARING_FUNCTIONS = new Set(['contains', 'startswith', 'endswith', 'hashfiles', 'success', 'always', 'failure', 'cancelled']);

/** Actions whose outputs carry attacker-chosen text (file or branch names from the pull request). */
const TAINTED_ACTION_OUTPUTS: Record<string, { outputs: RegExp; source: string }> = {
  'tj-actions/changed-files': { outputs: /.*/, source: 'names of files changed by the pull request' },
  'tj-actions/branch-names': { outputs: /.*/, source: 'branch names' },
  'dorny/paths-filter': { outputs: /_files$/, source: 'names of files changed by the pull request' },
  'xt0rted/pull-request-comment-branch': { outputs: /^head_ref$/, source: 'the pull request head branch' },
};

const MAX_DEPTH = 12;

/**
 * Follows values through env, step outputs, job outputs, matrix values, action inputs and the
 * value-preserving functions (format, join, toJSON, fromJSON, ||, &&) to the context they come from.
 * One analyser serves one repository scan; results are memoised per expression and scope.
 */
export class TaintAnalyzer {
  readonly #repo: RepositoryModel;
  readonly #active = new Set<string>();

  constructor(repo: RepositoryModel) {
    this.#repo = repo;
  }

  /** The most dangerous source among the `${{ }}` of a node (every string below it). */
  ofNode(node: YNode, scope: TaintScope, file = fileOf(scope), depth = 0): Taint | null {
    if (file === undefined) return null;
    let result: Taint | null = null;
    for (const scalar of stringScalars(node)) {
      for (const occurrence of expressionsOf(file, scalar)) {
        if (occurrence.expr === null) continue;
        result = stronger(result, this.ofExpression(occurrence.expr, scope, depth));
      }
    }
    return result;
  }

  ofExpression(expr: Expr, scope: TaintScope, depth = 0): Taint | null {
    if (depth > MAX_DEPTH) return null;
    if (expr instanceof ContextAccess || expr instanceof IndexAccess) {
      const path = contextPath(expr);
      if (path !== null) return this.#ofPath(path, scope, depth);
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
      return result;
    }
    if (expr instanceof Logical) {
      let result: Taint | null = null;
      for (const arg of expr.args) result = stronger(result, this.ofExpression(arg, scope, depth + 1));
      return result;
    }
    if (expr instanceof Grouping) return this.ofExpression(expr.group, scope, depth + 1);
    if (expr instanceof Binary || expr instanceof Unary) return null;
    return null;
  }

  #ofPath(path: string[], scope: TaintScope, depth: number): Taint | null {
    const [head, a, b, c] = path;
    const dotted = path.join('.');
    switch (head) {
      case 'github': {
        if (a === 'event' && b === 'inputs' && c !== undefined) return this.#ofInput(c, scope, depth, dotted);
        // `event.action` is an enum for every event but repository_dispatch, where the sender picks it.
        if (a === 'event' && b === 'action' && c === undefined && !dispatchable(scope)) return null;
        const capability = githubContextCapability(path.slice(1));
        if (capability === 'fixed') return null;
        return { level: capability, source: dotted, via: [] };
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
        return a === undefined ? null : this.#ofMatrix(a, scope, depth);
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
    const candidates: { node: YNode | undefined; scope: TaintScope }[] = [
      { node: findKey(scope.step?.env, name), scope },
      { node: findKey(scope.job?.env, name), scope: { workflow: scope.workflow, job: scope.job } },
      { node: findKey(scope.workflow?.env, name), scope: { workflow: scope.workflow } },
    ];
    for (const candidate of candidates) {
      if (candidate.node === undefined) continue;
      const node = candidate.node;
      const taint = this.#guarded(`env:${name}:${node.start}`, () => this.ofNode(node, candidate.scope, fileOf(scope), depth + 1));
      return taint === null ? null : { ...taint, via: [`env.${name}`, ...taint.via] };
    }
    return null;
  }

  #ofInput(name: string, scope: TaintScope, depth: number, dotted: string): Taint | null {
    const action = scope.action;
    if (action !== undefined) {
      const input = action.inputs.find((i) => i.name.toLowerCase() === name);
      let result: Taint | null = null;
      for (const caller of this.#repo.callersOf(action)) {
        const passed = findKey(caller.with, input?.name ?? name);
        const node = passed ?? input?.default;
        if (node === undefined) continue;
        const callerScope = stepScope(caller);
        const taint = this.#guarded(`input:${action.file.path}:${name}:${caller.node.start}:${caller.owner.file.path}`, () =>
          this.ofNode(node, passed === undefined ? scope : callerScope, passed === undefined ? action.file : caller.owner.file, depth + 1),
        );
        result = stronger(result, taint === null ? null : { ...taint, via: [`inputs.${name}`, ...taint.via] });
      }
      return result ?? { level: 'input', source: dotted, via: [] };
    }
    const workflow = scope.workflow;
    if (workflow === undefined) return { level: 'input', source: dotted, via: [] };
    for (const trigger of workflow.triggers) {
      if (trigger.name !== 'workflow_dispatch' && trigger.name !== 'workflow_call') continue;
      const inputs = getMap(trigger.config, 'inputs');
      const declared = inputs?.pairs.find((p) => keyText(p.key).toLowerCase() === name);
      if (declared === undefined) continue;
      const type = getText(declared.value, 'type');
      if (type !== null && type !== 'string') return null;
    }
    return { level: 'input', source: dotted, via: [] };
  }

  #ofStepOutput(id: string, output: string, scope: TaintScope, depth: number): Taint | null {
    const steps = scope.job?.steps ?? scope.action?.steps ?? [];
    const step = steps.find((s) => s.id?.toLowerCase() === id);
    if (step === undefined) return null;
    const via = `steps.${id}.outputs.${output}`;
    return this.#guarded(`step:${step.owner.file.path}:${step.node.start}:${output}`, () => {
      let taint: Taint | null = null;
      const stepScopeValue = stepScope(step);
      if (step.run !== undefined && typeof step.run.value === 'string') {
        const script = step.run.value;
        if (!/GITHUB_OUTPUT|::set-output/.test(script)) return null;
        taint = this.ofNode(step.run, stepScopeValue, step.owner.file, depth + 1);
        for (const name of referencedEnvVars(script)) {
          taint = stronger(taint, this.#ofEnv(name.toLowerCase(), stepScopeValue, depth + 1));
        }
      } else if (step.usesRef?.kind === 'repository') {
        const known = TAINTED_ACTION_OUTPUTS[actionSlug(step.usesRef)];
        if (known !== undefined && known.outputs.test(output)) taint = { level: 'arbitrary', source: known.source, via: [] };
        else if (actionSlug(step.usesRef) === 'actions/github-script') taint = { level: 'unknown', source: via, via: [] };
      } else if (step.usesRef?.kind === 'local') {
        const action = this.#repo.localAction(step);
        const value = action === undefined ? undefined : get(findKey(action.outputs, output), 'value');
        if (action !== undefined && value !== undefined) taint = this.ofNode(value, { action }, action.file, depth + 1);
      }
      return taint === null ? null : { ...taint, via: [via, ...taint.via] };
    });
  }

  #ofJobOutput(jobId: string, output: string, scope: TaintScope, depth: number): Taint | null {
    const workflow = scope.workflow;
    const job = workflow?.jobs.find((j) => j.id.toLowerCase() === jobId);
    const node = findKey(job?.outputs, output);
    if (job === undefined || node === undefined) return null;
    const taint = this.#guarded(`job:${workflow?.file.path}:${job.id}:${output}`, () =>
      this.ofNode(node, { workflow, job }, workflow?.file, depth + 1),
    );
    return taint === null ? null : { ...taint, via: [`needs.${jobId}.outputs.${output}`, ...taint.via] };
  }

  #ofMatrix(name: string, scope: TaintScope, depth: number): Taint | null {
    const matrix = get(scope.job?.strategy, 'matrix');
    if (matrix === undefined) return null;
    // A matrix computed by an expression, or an axis (or include entry) whose values are expressions.
    const node = matrix.kind === 'scalar' ? matrix : (findKey(matrix, name) ?? get(matrix, 'include'));
    if (node === undefined) return null;
    const taint = this.#guarded(`matrix:${scope.workflow?.file.path}:${node.start}`, () =>
      this.ofNode(node, { workflow: scope.workflow, job: scope.job }, fileOf(scope), depth + 1),
    );
    return taint === null ? null : { ...taint, via: [`matrix.${name}`, ...taint.via] };
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
  if (map?.kind !== 'map') return undefined;
  const lower = name.toLowerCase();
  return map.pairs.find((p) => keyText(p.key).toLowerCase() === lower)?.value;
}

/** Environment variables a script reads: `$X`, `${X}`, `$env:X`, `%X%`, `process.env.X`. */
export function referencedEnvVars(script: string): Set<string> {
  const names = new Set<string>();
  const pattern = /\$\{?([A-Za-z_][A-Za-z0-9_]*)|\$env:([A-Za-z_][A-Za-z0-9_]*)|%([A-Za-z_][A-Za-z0-9_]*)%|process\.env\.([A-Za-z_][A-Za-z0-9_]*)/g;
  for (const match of script.matchAll(pattern)) {
    const name = match[1] ?? match[2] ?? match[3] ?? match[4];
    if (name !== undefined) names.add(name);
  }
  return names;
}
