import { data, Evaluator } from '@actions/expressions';
import { falsy } from '@actions/expressions/result';
import { ContextAccess, FunctionCall, functionName, walkExpression, type Expr } from '../expressions/parse.js';

/** Functions whose result depends only on their arguments. */
const PURE_FUNCTIONS = new Set(['format', 'fromjson', 'tojson', 'join', 'contains', 'startswith', 'endswith']);

/** True when an expression reads no context and calls only pure functions, so it always has one value. */
export function isConstant(expr: Expr): boolean {
  let constant = true;
  walkExpression(expr, (node) => {
    if (node instanceof ContextAccess || (node instanceof FunctionCall && !PURE_FUNCTIONS.has(functionName(node)))) constant = false;
  });
  return constant;
}

/** The string a constant expression turns into where GitHub writes it (`${{ true }}` -> `true`), or null. */
export function constantString(expr: Expr): string | null {
  if (!isConstant(expr)) return null;
  try {
    return new Evaluator(expr, new data.Dictionary()).evaluate().coerceString();
  } catch {
    return null;
  }
}

/**
 * The truthiness of a constant expression (`''`, `0`, `false`, `null`, `fromJSON('false')` are falsy), or
 * null when the expression is not constant or fails to evaluate.
 */
export function constantTruthiness(expr: Expr): boolean | null {
  if (!isConstant(expr)) return null;
  try {
    return !falsy(new Evaluator(expr, new data.Dictionary()).evaluate());
  } catch {
    return null;
  }
}
