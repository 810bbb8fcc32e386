import { data, Lexer, Parser, type Expr } from '@actions/expressions';
import { ContextAccess, FunctionCall, Grouping, IndexAccess, Literal, Logical, Binary, Star, Unary } from '@actions/expressions/ast';
import { TokenType, type Token } from '@actions/expressions/lexer';
import { ScanMemo } from '../model/scan-cache.js';

export type { Expr };
export { ContextAccess, FunctionCall, Grouping, IndexAccess, Literal, Logical, Binary, Unary };

/** Every context a workflow expression may name. */
export const CONTEXTS = ['github', 'env', 'vars', 'job', 'jobs', 'steps', 'runner', 'secrets', 'strategy', 'matrix', 'needs', 'inputs'];
const CONTEXT_SET: ReadonlySet<string> = new Set(CONTEXTS);
/** Functions GitHub provides beyond the parser's built-ins (which cover contains, format, join, toJSON ...). */
export const FUNCTIONS = [
  { name: 'hashFiles', minArgs: 1, maxArgs: 255 },
  { name: 'success', minArgs: 0, maxArgs: 0 },
  { name: 'always', minArgs: 0, maxArgs: 0 },
  { name: 'cancelled', minArgs: 0, maxArgs: 0 },
  { name: 'failure', minArgs: 0, maxArgs: 0 },
];
const MAX_SOURCE = 10_000;
/** GitHub's lexer throws past this many characters (`MAX_EXPRESSION_LENGTH` of the library; above MAX_SOURCE). */
const MAX_EXPRESSION_LENGTH = 21_000;
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
  const tokens = lexTokens(source);
  if (tokens === null) return null;
  try {
    return githubParser(tokens).parse();
  } catch {
    return null;
  }
}

/**
 * What GitHub's `Parser` constructor sets up, made once: its constructor rebuilds the context and function tables
 * from the lists on every call, a good part of parsing a short expression. The parser only reads them.
 */
const PARSER_STATE = (() => {
  const model = new Parser([], CONTEXTS, FUNCTIONS) as unknown as { extContexts: unknown; extFuncs: unknown; context: unknown };
  return { extContexts: model.extContexts, extFuncs: model.extFuncs, context: model.context };
})();

/** A GitHub `Parser` over `tokens`, in the state its constructor leaves it in, with the tables made once. */
function githubParser(tokens: Token[]): Parser {
  const parser = Object.create(Parser.prototype) as Record<string, unknown>;
  parser.tokens = tokens;
  parser.offset = 0;
  parser.depth = 0;
  parser.extContexts = PARSER_STATE.extContexts;
  parser.extFuncs = PARSER_STATE.extFuncs;
  parser.context = PARSER_STATE.context;
  return parser as unknown as Parser;
}

/** GitHub's lexer as it is (`Lexer#lex`), for the tests that compare the two. */
export function githubTokens(source: string): Token[] | null {
  try {
    return new Lexer(source).lex().tokens;
  } catch {
    return null;
  }
}

/**
 * The tokens GitHub's `Lexer` makes of `source`, null where it throws: the same tokens (types, lexemes, values,
 * ranges, and the lexer's line and column counting, odd as it is inside strings) by the same rules, reading
 * character codes. The lexer tests each character of a name with a regular expression and splits a name into an
 * array of characters to check it, which made lexing half of a parse (a test compares the two on the corpus's
 * expressions and on generated ones).
 */
export function lexTokens(input: string): Token[] | null {
  if (input.length > MAX_EXPRESSION_LENGTH) return null;
  const tokens: Token[] = [];
  const length = input.length;
  let start = 0;
  let offset = 0;
  let line = 0;
  let lastLineOffset = 0;
  const previous = (): TokenType => (tokens.length === 0 ? TokenType.EOF : (tokens[tokens.length - 1] as Token).type);
  const add = (type: TokenType, value?: unknown): void => {
    tokens.push({
      type,
      lexeme: input.substring(start, offset),
      range: { start: { line, column: start - lastLineOffset }, end: { line, column: offset - lastLineOffset } },
      value: value as Token['value'],
    });
  };
  // `=`, `&`, `|` alone, and anything else the lexer reads as a name that is not one, throw there.
  const identifier = (): boolean => {
    while (offset < length && !isBoundary(input.charCodeAt(offset))) offset++;
    const lexeme = input.substring(start, offset);
    let type = TokenType.IDENTIFIER;
    let value: number | undefined;
    if (previous() !== TokenType.DOT) {
      switch (lexeme) {
        case 'true': type = TokenType.TRUE; break;
        case 'false': type = TokenType.FALSE; break;
        case 'null': type = TokenType.NULL; break;
        case 'NaN': type = TokenType.NUMBER; value = NaN; break;
        case 'Infinity': type = TokenType.NUMBER; value = Infinity; break;
      }
    }
    if (!isLegalIdentifier(lexeme)) return false;
    add(type, value);
    return true;
  };
  const number = (): boolean => {
    while (offset < length && (!isBoundary(input.charCodeAt(offset)) || input.charCodeAt(offset) === DOT)) offset++;
    const lexeme = input.substring(start, offset);
    const value = new data.StringData(lexeme).number();
    if (Number.isNaN(value)) return false;
    add(TokenType.NUMBER, value);
    return true;
  };
  while (offset < length) {
    start = offset;
    const c = input.charCodeAt(offset++);
    let ok = true;
    switch (c) {
      case 0x28: add(TokenType.LEFT_PAREN); break; // (
      case 0x29: add(TokenType.RIGHT_PAREN); break; // )
      case 0x5b: add(TokenType.LEFT_BRACKET); break; // [
      case 0x5d: add(TokenType.RIGHT_BRACKET); break; // ]
      case 0x2c: add(TokenType.COMMA); break; // ,
      case DOT: {
        const before = previous();
        if (before !== TokenType.IDENTIFIER && before !== TokenType.RIGHT_BRACKET && before !== TokenType.RIGHT_PAREN && before !== TokenType.STAR) ok = number();
        else add(TokenType.DOT);
        break;
      }
      case 0x2d: // -
      case 0x2b: // +
        ok = number();
        break;
      case BANG:
        if (offset < length && input.charCodeAt(offset) === EQUALS) {
          offset++;
          add(TokenType.BANG_EQUAL);
        } else add(TokenType.BANG);
        break;
      case EQUALS:
        if (offset < length && input.charCodeAt(offset) === EQUALS) {
          offset++;
          add(TokenType.EQUAL_EQUAL);
        } else ok = identifier();
        break;
      case 0x3c: // <
        if (offset < length && input.charCodeAt(offset) === EQUALS) {
          offset++;
          add(TokenType.LESS_EQUAL);
        } else add(TokenType.LESS);
        break;
      case 0x3e: // >
        if (offset < length && input.charCodeAt(offset) === EQUALS) {
          offset++;
          add(TokenType.GREATER_EQUAL);
        } else add(TokenType.GREATER);
        break;
      case 0x26: // &
        if (offset < length && input.charCodeAt(offset) === 0x26) {
          offset++;
          add(TokenType.AND);
        } else ok = identifier();
        break;
      case 0x7c: // |
        if (offset < length && input.charCodeAt(offset) === 0x7c) {
          offset++;
          add(TokenType.OR);
        } else ok = identifier();
        break;
      case STAR: add(TokenType.STAR); break;
      case SPACE:
      case 0x0d:
      case TAB:
        break;
      case NEWLINE:
        ++line;
        lastLineOffset = offset;
        break;
      case QUOTE: {
        // The lexer counts a newline inside a string as a line, without moving the column's origin.
        for (;;) {
          if (offset >= length) return null; // unterminated
          const ch = input.charCodeAt(offset);
          if (ch === QUOTE && input.charCodeAt(offset + 1) !== QUOTE) break;
          if (ch === NEWLINE) line++;
          offset += ch === QUOTE ? 2 : 1;
        }
        offset++;
        add(TokenType.STRING, input.substring(start + 1, offset - 1).replace("''", "'"));
        break;
      }
      default:
        ok = c >= 0x30 && c <= 0x39 ? number() : identifier();
    }
    if (!ok) return null;
  }
  tokens.push({ type: TokenType.EOF, lexeme: '', range: { start: { line, column: start - lastLineOffset }, end: { line, column: offset - lastLineOffset } } });
  return tokens;
}

/** The lexer's boundary: an operator or bracket character, or what `/\s/` matches. */
function isBoundary(c: number): boolean {
  switch (c) {
    case 0x28: case 0x5b: case 0x29: case 0x5d: case 0x2c: case DOT: case BANG: case 0x3e: case 0x3c: case EQUALS: case 0x26: case 0x7c:
      return true;
  }
  return isJsSpace(c);
}

/** A code unit `/\s/` matches. */
function isJsSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** The lexer's legal name: a letter or `_`, then letters, digits, `_` and `-`. */
function isLegalIdentifier(lexeme: string): boolean {
  if (lexeme === '' || !identifierStart(lexeme.charCodeAt(0))) return false;
  for (let i = 1; i < lexeme.length; i++) if (!identifierPart(lexeme.charCodeAt(i))) return false;
  return true;
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
