import { contextPath, FunctionCall, functionName, Grouping, Literal, Logical, type Expr } from '../expressions/parse.js';
import { flatMap } from '../model/arrays.js';

/**
 * The sub-expressions an expression's value can come from: `a && 'x' || 'y'` yields `a`, `'x'` or `'y'`,
 * `fromJSON('["x"]')` its literal, but never the operands of a comparison (`inputs.runner == 'self-hosted'`
 * yields a boolean). Only literals and context accesses are returned.
 */
export function valueSources(expr: Expr, out: Expr[] = []): Expr[] {
  if (expr instanceof Grouping) return valueSources(expr.group, out);
  if (expr instanceof Logical || (expr instanceof FunctionCall && functionName(expr) === 'fromjson')) {
    for (const arg of expr.args) valueSources(arg, out);
    return out;
  }
  if (expr instanceof Literal || contextPath(expr) !== null) out.push(expr);
  return out;
}

/** The string literals among an expression's value sources. */
export function literalValues(expr: Expr): string[] {
  return flatMap(valueSources(expr), (e) => (e instanceof Literal && typeof e.token.value === 'string' ? [e.token.value] : []));
}
