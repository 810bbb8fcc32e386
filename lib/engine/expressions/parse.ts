import { data, Lexer, Parser, type Expr } from '@actions/expressions';
import { ContextAccess, FunctionCall, Grouping, IndexAccess, Literal, Logical, Binary, Star, Unary } from '@actions/expressions/ast';
import { TokenType, type Token } from '@actions/expressions/lexer';
import { ScanMemo } from '../model/scan-cache.js';

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
/** Parses, forgotten when a scan ends (a long run keeps no expression it saw). */
const cache = new ScanMemo<string, Expr | null>(CACHE_LIMIT);

/** Parses an expression with GitHub's own parser; null when it does not parse. Results are memoised. */
export function parseExpression(source: string): Expr | null {
  const hit = cache.get(source);
  if (hit !== undefined || cache.has(source)) return hit ?? null;
  let expr: Expr | null = null;
  if (source.length <= MAX_SOURCE && source !== '') {
    expr = parseCommon(source) ?? parseWithGitHub(source);
  }
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
 * The tree of the two commonest shapes of expression, built directly: a plain context path (`secrets.TOKEN`,
 * `steps.build.outputs.dir`, `needs.*.result`: four expressions in five), and a path compared with a string
 * (`github.event_name == 'push'`, a third of the rest). GitHub's lexer tests every character of a name with a
 * regular expression and its parser rebuilds its tables on each call, which made parsing most of the
 * expression extraction's time. The tree and its tokens (ranges included) are those the parser builds: its
 * evaluator, `contextPath` and the rules read them. Anything else, including input the parser would reject,
 * returns null and goes to the parser.
 */
function parseCommon(source: string): Expr | null {
  const path = readPath(source, 0);
  if (path === null) return null;
  if (path.end === source.length) return path.expr;
  // `path == 'text'` / `path != 'text'`, blanks around the operator and after the string.
  let at = skipBlanks(source, path.end);
  const c = source.charCodeAt(at);
  if ((c !== EQUALS && c !== BANG) || source.charCodeAt(at + 1) !== EQUALS) return null;
  const operator = token(c === EQUALS ? TokenType.EQUAL_EQUAL : TokenType.BANG_EQUAL, source, at, at + 2);
  at = skipBlanks(source, at + 2);
  if (source.charCodeAt(at) !== QUOTE) return null;
  // The lexer's string: `''` inside is a quote; the string ends at a quote not followed by another.
  let end = at + 1;
  for (;;) {
    if (end >= source.length) return null;
    const ch = source.charCodeAt(end);
    // A newline inside moves the lexer's line count: left to the lexer.
    if (ch === NEWLINE) return null;
    if (ch === QUOTE) {
      if (source.charCodeAt(end + 1) !== QUOTE) break;
      end++;
    }
    end++;
  }
  end++;
  if (skipBlanks(source, end) !== source.length) return null;
  // Like the lexer, `replace` with a string: only the first escaped quote is unescaped.
  const value = source.slice(at + 1, end - 1).replace("''", "'");
  const text = token(TokenType.STRING, source, at, end, value);
  return new Binary(path.expr, operator, new Literal(new data.StringData(value), text));
}

/**
 * A context path from `from` to the first character that is not part of it, as GitHub's lexer and parser read
 * it; null when it is not one, or is followed by something other than a blank or a comparison (for instance
 * a call, an index, or a character the lexer would take into the name).
 */
function readPath(source: string, from: number): { expr: Expr; end: number } | null {
  let expr: Expr | null = null;
  let segments = 0;
  let start = from;
  for (;;) {
    if (++segments > MAX_PATH_SEGMENTS) return null;
    let end: number;
    if (source.charCodeAt(start) === STAR && expr !== null) {
      end = start + 1;
      expr = new IndexAccess(expr, new Star());
    } else {
      // An identifier as the lexer reads one: a letter or `_`, then letters, digits, `_` and `-`.
      if (!identifierStart(source.charCodeAt(start))) return null;
      end = start + 1;
      while (end < source.length && identifierPart(source.charCodeAt(end))) end++;
      const lexeme = source.slice(start, end);
      const name = token(TokenType.IDENTIFIER, source, start, end);
      if (expr === null) {
        // `true`, `null` and other keywords are no context either, so this also keeps literals out.
        if (!CONTEXT_SET.has(lexeme.toLowerCase())) return null;
        expr = new ContextAccess(name);
      } else {
        expr = new IndexAccess(expr, new Literal(new data.StringData(lexeme), name));
      }
    }
    if (end === source.length) return { expr, end };
    const next = source.charCodeAt(end);
    if (next === SPACE || next === TAB || next === EQUALS || next === BANG) return { expr, end };
    if (next !== DOT) return null;
    start = end + 1;
  }
}

/** A token as the lexer makes it, for text on the expression's first line. */
function token(type: TokenType, source: string, start: number, end: number, value?: string): Token {
  return { type, lexeme: source.slice(start, end), range: { start: { line: 0, column: start }, end: { line: 0, column: end } }, value };
}

/** The offset of the first character at or after `at` that is not a space or a tab. */
function skipBlanks(source: string, at: number): number {
  while (at < source.length && (source.charCodeAt(at) === SPACE || source.charCodeAt(at) === TAB)) at++;
  return at;
}

const TAB = 9;
const NEWLINE = 10;
const SPACE = 32;
const BANG = 33;
const QUOTE = 39;
const STAR = 42;
const DOT = 46;
const EQUALS = 61;

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
