/**
 * Just enough of Rust to read zizmor's snapshot tests: a lexer (identifiers, string literals with their
 * values, raw strings, nested block comments, char literals and lifetimes) and a reader of the
 * `insta::assert_snapshot!(<expression>, @<snapshot>)` invocations inside each `fn`, with the attributes
 * before the function. A macro's arguments are token trees, not expressions, so a full Rust parser would
 * give nothing more here.
 */

export interface Token {
  t: 'ident' | 'str' | 'punct' | 'num' | 'char' | 'lifetime';
  /** The identifier, the punctuation, or a string's value (escapes decoded). */
  v: string;
  line: number;
}

export function lexRust(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  const advance = (to: number) => {
    for (let k = i; k < to; k++) if (src.charCodeAt(k) === 10) line++;
    i = to;
  };
  while (i < n) {
    const c = src[i]!;
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (src.startsWith('//', i)) {
      const end = src.indexOf('\n', i);
      i = end === -1 ? n : end;
      continue;
    }
    if (src.startsWith('/*', i)) {
      let depth = 0;
      let k = i;
      while (k < n) {
        if (src.startsWith('/*', k)) {
          depth++;
          k += 2;
        } else if (src.startsWith('*/', k)) {
          depth--;
          k += 2;
          if (depth === 0) break;
        } else k++;
      }
      advance(k);
      continue;
    }
    // Raw strings: r"..", r#".."#, br"..".
    const raw = /^b?r(#*)"/.exec(src.slice(i, i + 260));
    if (raw !== null) {
      const hashes = raw[1]!;
      const start = i + raw[0].length;
      const close = src.indexOf(`"${hashes}`, start);
      const end = close === -1 ? n : close;
      const startLine = line;
      out.push({ t: 'str', v: src.slice(start, end), line: startLine });
      advance(Math.min(n, end + 1 + hashes.length));
      continue;
    }
    if (c === '"' || (c === 'b' && src[i + 1] === '"')) {
      let k = c === 'b' ? i + 2 : i + 1;
      let value = '';
      while (k < n && src[k] !== '"') {
        if (src[k] === '\\') {
          const e = src[k + 1] ?? '';
          if (e === '\n') {
            // A line continuation: the newline and the next line's leading whitespace are dropped.
            k += 2;
            while (k < n && /\s/.test(src[k]!)) k++;
            continue;
          }
          const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', '"': '"', "'": "'" };
          if (e in simple) {
            value += simple[e];
            k += 2;
          } else if (e === 'x') {
            value += String.fromCharCode(Number.parseInt(src.slice(k + 2, k + 4), 16));
            k += 4;
          } else if (e === 'u') {
            const close = src.indexOf('}', k);
            value += String.fromCodePoint(Number.parseInt(src.slice(k + 3, close), 16));
            k = close + 1;
          } else {
            value += e;
            k += 2;
          }
          continue;
        }
        value += src[k];
        k++;
      }
      const startLine = line;
      advance(Math.min(n, k + 1));
      out.push({ t: 'str', v: value, line: startLine });
      continue;
    }
    if (c === "'") {
      // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
      const m = /^'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'/.exec(src.slice(i, i + 12));
      if (m !== null) {
        out.push({ t: 'char', v: m[1]!, line });
        i += m[0].length;
        continue;
      }
      const lt = /^'[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 64));
      out.push({ t: 'lifetime', v: lt?.[0] ?? "'", line });
      i += lt?.[0].length ?? 1;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 256));
    if (ident !== null) {
      out.push({ t: 'ident', v: ident[0], line });
      i += ident[0].length;
      continue;
    }
    const num = /^[0-9][0-9a-zA-Z_.]*/.exec(src.slice(i, i + 64));
    if (num !== null) {
      out.push({ t: 'num', v: num[0], line });
      i += num[0].length;
      continue;
    }
    const punct = ['::', '->', '=>', '==', '!=', '<=', '>=', '&&', '||', '..'].find((p) => src.startsWith(p, i)) ?? c;
    out.push({ t: 'punct', v: punct, line });
    i += punct.length;
  }
  return out;
}

/** The index of the bracket closing the one at `open`, or the last index. */
export function closing(tokens: Token[], open: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  const stack: string[] = [];
  for (let k = open; k < tokens.length; k++) {
    const v = tokens[k]!.t === 'punct' ? tokens[k]!.v : '';
    if (v in pairs) stack.push(pairs[v]!);
    else if (v === stack.at(-1)) {
      stack.pop();
      if (stack.length === 0) return k;
    }
  }
  return tokens.length - 1;
}

export interface SnapshotCall {
  /** The test function's name. */
  fn: string;
  /** The attributes before the function, as text (`cfg_attr(not(feature = "gh-token-tests"), ignore)`). */
  attributes: string[];
  /** The expression whose output is snapshotted. */
  expression: Token[];
  /** The inline snapshot, or null when it is stored in a `.snap` file. */
  inline: string | null;
  line: number;
  /** 1 for the first `assert_snapshot!` of the function, 2 for the second... (insta's `-N` suffixes). */
  ordinal: number;
}

/** Every `assert_snapshot!` in a file's functions. */
export function snapshotCalls(tokens: Token[]): SnapshotCall[] {
  const out: SnapshotCall[] = [];
  let attributes: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    if (tok.t === 'punct' && tok.v === '#' && tokens[i + 1]?.v === '[') {
      const end = closing(tokens, i + 1);
      attributes.push(tokens.slice(i + 2, end).map((t) => (t.t === 'str' ? JSON.stringify(t.v) : t.v)).join(' '));
      i = end;
      continue;
    }
    if (tok.t === 'ident' && tok.v === 'fn' && tokens[i + 1]?.t === 'ident') {
      const name = tokens[i + 1]!.v;
      let k = i + 2;
      while (k < tokens.length && !(tokens[k]!.t === 'punct' && (tokens[k]!.v === '{' || tokens[k]!.v === ';'))) {
        if (tokens[k]!.v === '(' || tokens[k]!.v === '[') k = closing(tokens, k);
        k++;
      }
      if (tokens[k]?.v !== '{') {
        attributes = [];
        i = k;
        continue;
      }
      const end = closing(tokens, k);
      let ordinal = 0;
      for (let j = k; j < end; j++) {
        if (tokens[j]!.v === 'assert_snapshot' && tokens[j + 1]?.v === '!' && tokens[j + 2]?.v === '(') {
          const close = closing(tokens, j + 2);
          const args = splitArgs(tokens.slice(j + 3, close));
          const snapshot = args.find((a) => a[0]?.v === '@');
          ordinal++;
          out.push({
            fn: name,
            attributes,
            expression: args[0] ?? [],
            inline: snapshot?.[1]?.t === 'str' ? snapshot[1].v : null,
            line: tokens[j]!.line,
            ordinal,
          });
          j = close;
        }
      }
      attributes = [];
      i = end;
      continue;
    }
    if (tok.t === 'ident' && tok.v !== 'pub' && tok.v !== 'async' && tok.v !== 'crate' && tok.v !== 'unsafe') attributes = [];
  }
  return out;
}

/** Splits a token list at top-level commas. */
export function splitArgs(tokens: Token[]): Token[][] {
  const out: Token[][] = [[]];
  let depth = 0;
  for (const t of tokens) {
    if (t.t === 'punct' && (t.v === '(' || t.v === '[' || t.v === '{')) depth++;
    if (t.t === 'punct' && (t.v === ')' || t.v === ']' || t.v === '}')) depth--;
    if (depth === 0 && t.t === 'punct' && t.v === ',') out.push([]);
    else out.at(-1)!.push(t);
  }
  return out.filter((a) => a.length > 0);
}

/** The builder calls of a `zizmor()...run()` chain: `.name(args)` with their argument tokens, in order. */
export function methodCalls(expression: Token[]): { name: string; args: Token[] }[] {
  const out: { name: string; args: Token[] }[] = [];
  for (let k = 0; k + 2 < expression.length; k++) {
    const t = expression[k]!;
    if (t.t === 'punct' && t.v === '.' && expression[k + 1]!.t === 'ident' && expression[k + 2]!.v === '(') {
      const close = closing(expression, k + 2);
      out.push({ name: expression[k + 1]!.v, args: expression.slice(k + 3, close) });
    }
  }
  return out;
}
