import { expressionsOf } from '../expressions/extract.js';
import { fileScalars, occurrencesIn } from './file-scalars.js';
import { parseExpression, type Expr } from '../expressions/parse.js';
import type { Action, Job, Step, Workflow } from '../model/workflow.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { keyText, stringScalars, type YNode, type YScalar } from '../yaml/model.js';
import { ScanCache } from '../model/scan-cache.js';

/** One expression of a workflow or composite action, where it is and what evaluates it. */
export interface ExpressionSite {
  expr: Expr;
  /** The expression's text (without `${{ }}`). */
  source: string;
  scalar: YScalar;
  /** File offset of the expression: its `${{`, or the first character of a bare `if:` condition. */
  offset: number;
  /**
   * True for an `if:` that GitHub evaluates as one expression (bare, or exactly one `${{ }}`): only its
   * truthiness matters. A mixed `if:` text is a format string, so its `${{ }}` parts are plain values.
   */
  condition: boolean;
  /** The job whose definition holds the expression; null for workflow-level keys and composite actions. */
  job: Job | null;
}

const cache = new ScanCache<Workflow | Action, ExpressionSite[]>();

/**
 * Every expression of a workflow or composite action, in file order: the `${{ }}` of every string value
 * (keys are never evaluated) and the bare expressions of `if:` conditions.
 */
export function expressionSites(model: Workflow | Action): ExpressionSite[] {
  const cached = cache.get(model);
  if (cached !== undefined) return cached;
  const sites: ExpressionSite[] = [];
  if (fileScalars(model).tree) {
    if (model.kind === 'workflow') {
      for (const pair of model.root.pairs) if (keyText(pair.key) !== 'jobs') collectByRange(model, pair.value, null, undefined, [], sites);
      for (const job of model.jobs) collectByRange(model, job.node, job, job.if, job.steps, sites);
    } else {
      collectByRange(model, model.root, null, undefined, model.steps, sites);
    }
  } else {
    const conditions = new Set<YNode>();
    if (model.kind === 'workflow') {
      for (const job of model.jobs) {
        if (job.if !== undefined) conditions.add(job.if);
        for (const step of job.steps) if (step.if !== undefined) conditions.add(step.if);
      }
      for (const pair of model.root.pairs) if (keyText(pair.key) !== 'jobs') collect(model, pair.value, null, conditions, sites);
      for (const job of model.jobs) collect(model, job.node, job, conditions, sites);
    } else {
      for (const step of model.steps) if (step.if !== undefined) conditions.add(step.if);
      collect(model, model.root, null, conditions, sites);
    }
  }
  sites.sort((a, b) => a.offset - b.offset);
  cache.set(model, sites);
  return sites;
}

function collect(model: Workflow | Action, node: YNode, job: Job | null, conditions: Set<YNode>, sites: ExpressionSite[]): void {
  for (const scalar of stringScalars(node)) {
    if (conditions.has(scalar)) {
      const condition = conditionOf(model, scalar);
      if (condition !== null) {
        sites.push({ expr: condition.expr, source: condition.source, offset: condition.offset, scalar, condition: true, job });
        continue;
      }
    }
    for (const occurrence of expressionsOf(model.file, scalar)) {
      if (occurrence.expr === null) continue;
      sites.push({ expr: occurrence.expr, source: occurrence.span.source, scalar, offset: occurrence.offset, condition: false, job });
    }
  }
}

/**
 * `collect` for a tree-shaped file (see file-scalars.ts): the `${{ }}` of the region come from the file's
 * extraction, and its conditions (the job's `if:` and its steps': in a tree they lie in this region and
 * nowhere else) replace those of their scalar when GitHub evaluates them as one expression. Sites are sorted
 * by offset afterwards, and in a tree no two share one, so the order is `collect`'s.
 */
function collectByRange(
  model: Workflow | Action,
  node: YNode,
  job: Job | null,
  jobCondition: YNode | undefined,
  steps: readonly Step[],
  sites: ExpressionSite[],
): void {
  let evaluated: YNode[] | undefined;
  // -1 is the job's own condition, then each step's.
  for (let i = -1; i < steps.length; i++) {
    const candidate = i === -1 ? jobCondition : steps[i]!.if;
    if (candidate?.kind !== 'scalar' || typeof candidate.value !== 'string') continue;
    const condition = conditionOf(model, candidate);
    if (condition === null) continue;
    // Spelled out: an object spread here was most of this function's time.
    sites.push({ expr: condition.expr, source: condition.source, offset: condition.offset, scalar: candidate, condition: true, job });
    (evaluated ??= []).push(candidate);
  }
  for (const occurrence of occurrencesIn(model, node)) {
    if (occurrence.expr === null || evaluated?.includes(occurrence.scalar) === true) continue;
    sites.push({ expr: occurrence.expr, source: occurrence.span.source, scalar: occurrence.scalar, offset: occurrence.offset, condition: false, job });
  }
}

/** A condition without any `${{ }}`: GitHub evaluates its whole text. */
function bareCondition(model: Workflow | Action, scalar: YScalar): { expr: Expr; source: string; offset: number } | null {
  const value = String(scalar.value);
  // Any `${{`, closed or not, makes `findExpressions` find a span: then it is no bare condition.
  if (value.includes('${{')) return null;
  const source = value.trim();
  const expr = parseExpression(source);
  if (expr === null) return null;
  const lead = value.length - value.trimStart().length;
  return { expr, source, offset: valueOffsetToSource(model.file, scalar, lead) };
}

/**
 * The expression GitHub evaluates for an `if:` (bare text, or exactly one `${{ }}` with nothing around
 * it), with its file offset; null when the condition does not parse or is a format string (see
 * unsound-condition).
 */
export function conditionOf(model: Workflow | Action, node: YNode | undefined): { expr: Expr; source: string; offset: number } | null {
  if (node?.kind !== 'scalar' || typeof node.value !== 'string') return null;
  const bare = bareCondition(model, node);
  if (bare !== null) return bare;
  const occurrences = expressionsOf(model.file, node);
  const only = occurrences[0];
  if (occurrences.length !== 1 || only === undefined || only.expr === null) return null;
  if (only.span.start !== 0 || only.span.end !== node.value.length) return null;
  return { expr: only.expr, source: only.span.source, offset: only.offset };
}
