import { Lexer, Parser, type Expr } from '@actions/expressions';
import { ContextAccess, FunctionCall, Grouping, IndexAccess, Literal, Logical, Binary, Unary } from '@actions/expressions/ast';

export type { Expr };
export { ContextAccess, FunctionCall, Grouping, IndexAccess, Literal, Logical, Binary, Unary };

/** Every context a workflow expression may name. */
const CONTEXTS = ['github', 'env', 'vars', 'job', 'jobs', 'steps', 'runner', 'secrets', 'strategy', 'matrix', 'needs', 'inputs'];
/** Functions GitHub provides beyond the parser's built-ins (which cover contains, format, join, toJSON ...). */
const FUNCTIONS = [
  { name: 'hashFiles', minArgs: 1, maxArgs: 255 },
  { name: 'success', minArgs: 0, maxArgs: 0 },
  { name: 'always', minArgs: 0, maxArgs: 0 },
  { name: 'cancelled', minArgs: 0, maxArgs: 0 },
  { name: 'failure', minArgs: 0, maxArgs: 0 },
];
const MAX_SOURCE = 10_000;
const CACHE_LIMIT = 20_000;
const cache = new Map<string, Expr | null>();

/** Forgets the memoised parses (the scan calls it when it is done, so a long run keeps no expression it saw). */
export function clearExpressionCache(): void {
  cache.clear();
}

/** Parses an expression with GitHub's own parser; null when it does not parse. Results are memoised. */
export function parseExpression(source: string): Expr | null {
  const hit = cache.get(source);
  if (hit !== undefined || cache.has(source)) return hit ?? null;
  let expr: Expr | null = null;
  if (source.length <= MAX_SOURCE && source !== '') {
    try {
      expr = new Parser(new Lexer(source).lex().tokens, CONTEXTS, FUNCTIONS).parse();
    } catch {
      expr = null;
    }
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(source, expr);
  return expr;
}

/**
 * The context path an access expression names, lower-cased, `*` for wildcards and computed indexes:
 * `github.event.pull_request.labels.*.name` -> ['github','event','pull_request','labels','*','name'].
 * Null when the expression is not a chain of accesses rooted at a context.
 */
export function contextPath(expr: Expr): string[] | null {
  const segments: string[] = [];
  let current: Expr = expr;
  for (;;) {
    if (current instanceof ContextAccess) {
      segments.push(current.name.lexeme.toLowerCase());
      return segments.reverse();
    }
    if (current instanceof IndexAccess) {
      const index = current.index;
      // `.name` arrives as an identifier token, `['name']` and `[0]` as literal tokens carrying their value.
      const value = index instanceof Literal ? (index.token.value ?? index.token.lexeme) : undefined;
      if (typeof value === 'string' || typeof value === 'number') {
        segments.push(String(value).toLowerCase());
      } else {
        segments.push('*');
      }
      current = current.expr;
      continue;
    }
    return null;
  }
}

/** Visits every node of an expression tree, parents first. */
export function walkExpression(expr: Expr, visit: (node: Expr) => void): void {
  visit(expr);
  if (expr instanceof IndexAccess) {
    walkExpression(expr.expr, visit);
    walkExpression(expr.index, visit);
  } else if (expr instanceof FunctionCall) {
    for (const arg of expr.args) walkExpression(arg, visit);
  } else if (expr instanceof Logical) {
    for (const arg of expr.args) walkExpression(arg, visit);
  } else if (expr instanceof Binary) {
    walkExpression(expr.left, visit);
    walkExpression(expr.right, visit);
  } else if (expr instanceof Unary) {
    walkExpression(expr.expr, visit);
  } else if (expr instanceof Grouping) {
    walkExpression(expr.group, visit);
  }
}

/** Lower-cased name of a function call. */
export function functionName(call: FunctionCall): string {
  return call.functionName.lexeme.toLowerCase();
}
