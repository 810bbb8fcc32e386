import { data, Lexer, Parser, type Expr } from '@actions/expressions';
import { ContextAccess, FunctionCall, Grouping, IndexAccess, Literal, Logical, Binary, Star, Unary } from '@actions/expressions/ast';
import { TokenType, type Token } from '@actions/expressions/lexer';

export type { Expr };
export { ContextAccess, FunctionCall, Grouping, IndexAccess, Literal, Logical, Binary, Unary };

/** Every context a workflow expression may name. */
const CONTEXTS = ['github', 'env', 'vars', 'job', 'jobs', 'steps', 'runner', 'secrets', 'strategy', 'matrix', 'needs', 'inputs'];
const CONTEXT_SET: ReadonlySet<string> = new Set(CONTEXTS);
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
    expr = parsePath(source) ?? parseWithGitHub(source);
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(source, expr);
  return expr;
}

function parseWithGitHub(source: string): Expr | null {
  try {
    return new Parser(new Lexer(source).lex().tokens, CONTEXTS, FUNCTIONS).parse();
  } catch {
    return null;
  }
}

/** Most paths are short; a long one goes to the parser, which enforces its nesting limit on it. */
const MAX_PATH_SEGMENTS = 32;

/**
 * The tree of a plain context path (`secrets.TOKEN`, `steps.build.outputs.dir`, `needs.*.result`), which four
 * expressions in five are, built directly: GitHub's lexer tests every character with a regular expression
 * and its parser rebuilds its tables on each call, which made parsing most of the expression extraction's
 * time. The tree and its tokens are those the parser builds (its evaluator and `contextPath` read them);
 * anything else, including a path the parser would reject, returns null and goes to the parser.
 */
function parsePath(source: string): Expr | null {
  let expr: Expr | null = null;
  let segments = 0;
  let start = 0;
  for (;;) {
    if (++segments > MAX_PATH_SEGMENTS) return null;
    let end: number;
    if (source.charCodeAt(start) === 42 /* * */ && expr !== null) {
      end = start + 1;
      expr = new IndexAccess(expr, new Star());
    } else {
      // An identifier as the lexer reads one: a letter or `_`, then letters, digits, `_` and `-`.
      if (!identifierStart(source.charCodeAt(start))) return null;
      end = start + 1;
      while (end < source.length && identifierPart(source.charCodeAt(end))) end++;
      const lexeme = source.slice(start, end);
      const token: Token = { type: TokenType.IDENTIFIER, lexeme, range: { start: { line: 0, column: start }, end: { line: 0, column: end } }, value: undefined };
      if (expr === null) {
        // `true`, `null` and other keywords are no context either, so this also keeps literals out.
        if (!CONTEXT_SET.has(lexeme.toLowerCase())) return null;
        expr = new ContextAccess(token);
      } else {
        expr = new IndexAccess(expr, new Literal(new data.StringData(lexeme), token));
      }
    }
    if (end === source.length) return expr;
    if (source.charCodeAt(end) !== 46 /* . */) return null;
    start = end + 1;
  }
}

function identifierStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function identifierPart(c: number): boolean {
  return identifierStart(c) || (c >= 48 && c <= 57) || c === 45;
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
