import { Binary, contextPath, FunctionCall, functionName, Grouping, Literal, Logical, Unary, type Expr } from '../expressions/parse.js';
import { flatMap } from '../model/arrays.js';

/**
 * The sub-expressions an expression's value can come from: `a && 'x' || 'y'` yields `a`, `'x'` or `'y'`,
 * `fromJSON('["x"]')` its literal, but never the operands of a comparison (`inputs.runner == 'self-hosted'`
 * yields a boolean). Only literals and context accesses are returned.
 */
export function valueSources(expr: Expr, out: Expr[] = [], repository: string | null = null): Expr[] {
  if (expr instanceof Grouping) return valueSources(expr.group, out, repository);
  // `cond && 'x'` whose condition tests the repository's name and fails for this repository is `false`, no value of
  // its own (`endsWith(github.repository, '-enterprise') && fromJSON('["self-hosted"]') || 'ubuntu-latest'`).
  if (repository !== null && expr instanceof Logical && expr.operator.lexeme === '&&' && expr.args.some((a) => repositoryTruth(a, repository) === false)) return out;
  if (expr instanceof Logical || (expr instanceof FunctionCall && functionName(expr) === 'fromjson')) {
    for (const arg of expr.args) valueSources(arg, out, repository);
    return out;
  }
  if (expr instanceof Literal || contextPath(expr) !== null) out.push(expr);
  return out;
}

/** The string literals among an expression's value sources. */
export function literalValues(expr: Expr): string[] {
  return flatMap(valueSources(expr), (e) => (e instanceof Literal && typeof e.token.value === 'string' ? [e.token.value] : []));
}

/** `github.repository` / `github.repository_owner` as the repository's name gives them (lower case), or null. */
function repositoryValue(expr: Expr, repository: string): string | null {
  const path = contextPath(expr);
  if (path?.[0] !== 'github' || path.length !== 2) return null;
  if (path[1] === 'repository') return repository;
  if (path[1] === 'repository_owner') return repository.split('/')[0] ?? null;
  return null;
}

/**
 * The truth of a condition that only tests the repository's own name (`github.repository == 'org/x'`,
 * `endsWith(github.repository, '-enterprise')`, `github.repository_owner != 'org'`, negated or joined), for a scan
 * that knows that name (lower case); null when it tests anything else. GitHub compares these without case.
 */
export function repositoryTruth(expr: Expr, repository: string): boolean | null {
  if (expr instanceof Grouping) return repositoryTruth(expr.group, repository);
  if (expr instanceof Unary && expr.operator.lexeme === '!') {
    const inner = repositoryTruth(expr.expr, repository);
    return inner === null ? null : !inner;
  }
  if (expr instanceof Logical) {
    const parts = expr.args.map((a) => repositoryTruth(a, repository));
    if (expr.operator.lexeme === '&&') return parts.includes(false) ? false : parts.every((p) => p === true) ? true : null;
    return parts.includes(true) ? true : parts.every((p) => p === false) ? false : null;
  }
  const text = (e: Expr): string | null => repositoryValue(e, repository) ?? (e instanceof Literal && typeof e.token.value === 'string' ? e.token.value.toLowerCase() : null);
  const isName = (e: Expr) => repositoryValue(e, repository) !== null;
  if (expr instanceof Binary && (expr.operator.lexeme === '==' || expr.operator.lexeme === '!=')) {
    if (!isName(expr.left) && !isName(expr.right)) return null;
    const a = text(expr.left);
    const b = text(expr.right);
    if (a === null || b === null) return null;
    return expr.operator.lexeme === '==' ? a === b : a !== b;
  }
  if (expr instanceof FunctionCall && expr.args.length === 2) {
    const name = functionName(expr);
    if (name !== 'startswith' && name !== 'endswith' && name !== 'contains') return null;
    const [hay, needle] = expr.args as [Expr, Expr];
    if (!isName(hay)) return null;
    const a = text(hay);
    const b = text(needle);
    if (a === null || b === null) return null;
    return name === 'startswith' ? a.startsWith(b) : name === 'endswith' ? a.endsWith(b) : a.includes(b);
  }
  return null;
}
