import type { YMap, YNode, YPair, YScalar, YSeq } from './model.js';

/**
 * A fast path to the positioned model for the YAML that workflows are actually written in: block
 * mappings and sequences, plain scalars (multi-line ones included), single-line quoted scalars, literal
 * and folded block scalars, and flow collections (over several lines too). It is written by hand because composing
 * full `yaml` Documents costs more than the whole rule pass (see the engine benchmark).
 *
 * It is deliberately strict: anything outside that subset, and anything it is not sure the `yaml`
 * library would accept with the same meaning (tabs, CR, anchors, tags, multi-line quoted scalars, odd
 * indentation, duplicate keys ...), returns `undefined` and the caller falls back to the
 * full parser. So malformed input is always judged by the `yaml` library, and a differential test over
 * the corpus and generated documents checks that both paths build identical models.
 */
export function parseYamlFast(text: string): YNode | undefined {
  // Control characters, CR, BOM and NEL are rare in workflows and have subtle YAML rules: full parser.
  if (UNSUPPORTED_CHARS.test(text)) return undefined;
  try {
    return new FastParser(text).parseDocument();
  } catch (error) {
    if (error === BAIL) return undefined;
    throw error;
  }
}

// eslint-disable-next-line no-control-regex
const UNSUPPORTED_CHARS = /[\x00-\x08\x0b-\x1f\x7f\x85\ufeff\u2028\u2029]/;
const BAIL = Symbol('bail');
const MAX_FAST_DEPTH = 32;

function bail(): never {
  throw BAIL;
}

/** Characters that cannot start a plain scalar (or that this parser leaves to the full one). */
const PLAIN_START_FORBIDDEN = new Set(['[', ']', '{', '}', ',', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);

class FastParser {
  readonly #text: string;
  readonly #starts: number[] = [];
  readonly #ends: number[] = [];
  /** The next line not yet consumed. */
  #line = 0;
  /** Collections currently open; deep documents go to the full parser, which enforces the limit. */
  #depth = 0;

  constructor(text: string) {
    this.#text = text;
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl === -1) {
        this.#starts.push(start);
        this.#ends.push(text.length);
        break;
      }
      this.#starts.push(start);
      this.#ends.push(nl);
      start = nl + 1;
    }
  }

  parseDocument(): YNode {
    let first = this.#nextContent(0);
    if (first !== -1 && this.#isDocumentStart(first)) first = this.#nextContent(first + 1);
    // An empty document is rare and its null node's position has its own rules: full parser.
    if (first === -1) bail();
    const indent = this.#indent(first);
    const root = this.#blockNode(first, indent, -1);
    if (this.#nextContent(this.#line) !== -1) bail();
    return root;
  }

  /** `---` alone (or with a comment) on the first content line. */
  #isDocumentStart(line: number): boolean {
    const text = this.#lineText(line);
    if (!text.startsWith('---')) return false;
    const rest = text.slice(3);
    if (rest.trim() === '' || /^\s+#/.test(rest)) return true;
    return bail();
  }

  #lineText(line: number): string {
    return this.#text.slice(this.#starts[line], this.#ends[line]);
  }

  #indent(line: number): number {
    const start = this.#starts[line] ?? 0;
    const end = this.#ends[line] ?? 0;
    let i = start;
    while (i < end && this.#text.charCodeAt(i) === 0x20) i++;
    if (i < end && this.#text.charCodeAt(i) === 0x09) bail();
    return i - start;
  }

  /** True for a blank or comment-only line. */
  #isBlank(line: number): boolean {
    const start = this.#starts[line] ?? 0;
    const end = this.#ends[line] ?? 0;
    for (let i = start; i < end; i++) {
      const c = this.#text.charCodeAt(i);
      if (c === 0x20) continue;
      if (c === 0x09) bail();
      return c === 0x23;
    }
    return true;
  }

  /** The first line at or after `from` with content, or -1. Document markers end the subset. */
  #nextContent(from: number): number {
    for (let line = from; line < this.#starts.length; line++) {
      if (this.#isBlank(line)) continue;
      const text = this.#lineText(line);
      if (line > 0 && (text.startsWith('---') || text.startsWith('...'))) bail();
      if (text.startsWith('%')) bail();
      return line;
    }
    return -1;
  }

  /**
   * A block node whose first character is at column `col` of `line`. `parentIndent` is the indentation
   * of the construct that owns it (-1 for the document).
   */
  #blockNode(line: number, col: number, parentIndent: number): YNode {
    const pos = (this.#starts[line] ?? 0) + col;
    const end = this.#ends[line] ?? 0;
    if (this.#isSequenceEntry(pos, end)) return this.#sequence(line, col);
    // A flow collection, even one holding `key: value` pairs (a flow key would be followed by `:`: the
    // check after the value sends that to the full parser).
    if (this.#text[pos] === '[' || this.#text[pos] === '{') return this.#inlineValue(line, pos, parentIndent);
    if (this.#keyEnd(pos, end) !== -1) return this.#mapping(line, col);
    return this.#inlineValue(line, pos, parentIndent);
  }

  /**
   * Whether a comment line in `[from, to)` is indented no deeper than `col`. The `yaml` library rejects
   * some scalar values that follow such a comment (`b:` + an empty line + `# c` at column 0 + an indented
   * `x` + a later key is "Implicit keys need to be on a single line"): those go to the full parser.
   */
  #outdentedComment(from: number, to: number, col: number): boolean {
    for (let line = from; line < to; line++) {
      const start = this.#starts[line] ?? 0;
      const end = this.#ends[line] ?? 0;
      let i = start;
      while (i < end && this.#text.charCodeAt(i) === 0x20) i++;
      if (i < end && this.#text.charCodeAt(i) === 0x23 && i - start <= col) return true;
    }
    return false;
  }

  #isSequenceEntry(pos: number, end: number): boolean {
    if (this.#text[pos] !== '-') return false;
    if (this.#text[pos + 1] === '\t') bail();
    return pos + 1 === end || this.#text[pos + 1] === ' ';
  }

  /**
   * If the text at `pos` is a mapping key (`key:` followed by a space or the end of the line), the
   * offset of its colon, else -1.
   */
  #keyEnd(pos: number, end: number): number {
    const text = this.#text;
    const c = text[pos];
    if (c === '"' || c === "'") {
      const close = this.#quotedEnd(pos, end);
      if (close === -1) return -1;
      return text[close] === ':' && (close + 1 === end || text[close + 1] === ' ') ? close : -1;
    }
    for (let i = pos; i < end; i++) {
      const ch = text[i];
      if (ch === '\t') bail();
      if (ch === ':' && (i + 1 === end || text[i + 1] === ' ')) return i;
      if (ch === '#' && i > pos && text[i - 1] === ' ') return -1;
    }
    return -1;
  }

  #mapping(firstLine: number, col: number): YMap {
    if (++this.#depth > MAX_FAST_DEPTH) bail();
    const pairs: YPair[] = [];
    const seen = new Set<string>();
    let line = firstLine;
    for (;;) {
      const start = (this.#starts[line] ?? 0) + col;
      const end = this.#ends[line] ?? 0;
      const colon = this.#keyEnd(start, end);
      if (colon === -1) bail();
      const key = this.#key(start, colon);
      const identity = `${typeof key.value}:${String(key.value)}`;
      if (seen.has(identity)) bail();
      seen.add(identity);
      this.#line = line + 1;
      let valueStart = colon + 1;
      while (valueStart < end && this.#text[valueStart] === ' ') valueStart++;
      let value: YNode;
      if (valueStart === end || this.#text[valueStart] === '#') {
        const next = this.#nextContent(line + 1);
        const nextIndent = next === -1 ? -1 : this.#indent(next);
        if (next !== -1 && nextIndent > col) {
          value = this.#blockNode(next, nextIndent, col);
          if (value.kind === 'scalar' && this.#outdentedComment(line + 1, next, col)) bail();
        } else if (next !== -1 && nextIndent === col && this.#isSequenceEntry((this.#starts[next] ?? 0) + col, this.#ends[next] ?? 0)) {
          value = this.#sequence(next, col);
        } else {
          value = nullScalar(valueStart);
        }
      } else {
        value = this.#inlineValue(line, valueStart, col);
      }
      pairs.push({ key, value });
      const next = this.#nextContent(this.#line);
      if (next === -1) break;
      const indent = this.#indent(next);
      if (indent < col) break;
      if (indent > col) bail();
      if (this.#isSequenceEntry((this.#starts[next] ?? 0) + col, this.#ends[next] ?? 0)) bail();
      line = next;
    }
    const first = pairs[0];
    const last = pairs[pairs.length - 1];
    if (first === undefined || last === undefined) return bail();
    this.#depth--;
    return { kind: 'map', start: first.key.start, end: last.value.end, pairs };
  }

  #key(start: number, colon: number): YScalar {
    const c = this.#text[start];
    if (c === '"' || c === "'") return this.#quoted(start, colon);
    // `name : value`: a plain implicit key ends before the spaces that precede its colon.
    const raw = this.#text.slice(start, colon).trimEnd();
    if (!isPlainStart(raw)) bail();
    return plainScalar(raw, start, start + raw.length);
  }

  #sequence(firstLine: number, col: number): YSeq {
    if (++this.#depth > MAX_FAST_DEPTH) bail();
    const items: YNode[] = [];
    let line = firstLine;
    for (;;) {
      const dash = (this.#starts[line] ?? 0) + col;
      const end = this.#ends[line] ?? 0;
      let pos = dash + 1;
      while (pos < end && this.#text[pos] === ' ') pos++;
      this.#line = line + 1;
      if (pos === end || this.#text[pos] === '#') {
        // An entry whose value is on the following lines; empty entries are left to the full parser.
        const next = this.#nextContent(line + 1);
        if (next === -1 || this.#indent(next) <= col) bail();
        const item = this.#blockNode(next, this.#indent(next), col);
        if (item.kind === 'scalar' && this.#outdentedComment(line + 1, next, col)) bail();
        items.push(item);
      } else {
        const itemCol = pos - (this.#starts[line] ?? 0);
        if (this.#isSequenceEntry(pos, end)) bail();
        if (this.#text[pos] === '[' || this.#text[pos] === '{') items.push(this.#inlineValue(line, pos, col));
        else if (this.#keyEnd(pos, end) !== -1) items.push(this.#mapping(line, itemCol));
        else items.push(this.#inlineValue(line, pos, col));
      }
      const next = this.#nextContent(this.#line);
      if (next === -1) break;
      const indent = this.#indent(next);
      if (indent < col) break;
      if (indent > col) bail();
      if (!this.#isSequenceEntry((this.#starts[next] ?? 0) + col, this.#ends[next] ?? 0)) break;
      line = next;
    }
    const last = items[items.length - 1];
    if (last === undefined) return bail();
    this.#depth--;
    return { kind: 'seq', start: (this.#starts[firstLine] ?? 0) + col, end: last.end, items };
  }

  /**
   * A value that starts at `pos` on `line`: a block scalar, a flow collection, a quoted or a plain
   * scalar. `parentIndent` is the indentation of the owning key or entry.
   */
  #inlineValue(line: number, pos: number, parentIndent: number): YNode {
    const text = this.#text;
    let end = this.#ends[line] ?? 0;
    const c = text[pos] ?? '';
    this.#line = line + 1;
    if (c === '|' || c === '>') return this.#blockScalar(line, pos, parentIndent);
    let node: YNode;
    let after: number;
    if (c === '[' || c === '{') {
      const flow = new FlowParser(text, pos, { line, starts: this.#starts, ends: this.#ends, parentIndent });
      node = flow.parse();
      after = flow.position;
      // The collection may end on a later line: what follows it there is checked below.
      end = flow.lineEnd;
      this.#line = flow.line + 1;
    } else if (c === '"' || c === "'") {
      if (this.#quotedEnd(pos, end) === -1) {
        const multi = this.#multiLineQuoted(line, pos, parentIndent);
        node = multi.node;
        end = this.#ends[multi.line] ?? 0;
        this.#line = multi.line + 1;
      } else {
        node = this.#quoted(pos, end);
      }
      after = node.end;
    } else {
      if (c === '-' && (pos + 1 === end || text[pos + 1] === ' ')) bail();
      let stop = end;
      for (let i = pos; i < end; i++) {
        if (text[i] === '#' && text[i - 1] === ' ') {
          stop = i;
          break;
        }
      }
      const raw = text.slice(pos, stop).trimEnd();
      if (!isBlockPlainStart(raw) || raw.includes(': ') || raw.endsWith(':') || raw.includes('\t')) bail();
      after = pos + raw.length;
      const continued = this.#plainContinuation(line, parentIndent);
      if (continued === null) {
        node = plainScalar(raw, pos, pos + raw.length);
      } else {
        // A comment ends a plain scalar: a more indented line after one is an error.
        if (stop !== end) bail();
        node = { kind: 'scalar', start: pos, end: continued.end, value: resolvePlain(raw + continued.folded), style: 'plain' };
        this.#line = continued.nextLine;
      }
    }
    while (after < end && text[after] === ' ') after++;
    if (after < end && !(text[after] === '#' && text[after - 1] === ' ')) bail();
    return node;
  }

  /**
   * The lines continuing a plain scalar whose first line is `line`: the following lines indented more than
   * `parentIndent`, folded as YAML folds them (one line break becomes a space, n empty lines n line
   * breaks, each line trimmed), with the offset just after the last one's text. Null when the next
   * content line does not continue it. Continuations with anything this parser is unsure of (comments,
   * `: `, tabs) go to the full parser.
   */
  #plainContinuation(line: number, parentIndent: number): { folded: string; end: number; nextLine: number } | null {
    const text = this.#text;
    let folded = '';
    let breaks = 0;
    let end = -1;
    let nextLine = line + 1;
    for (let l = line + 1; l < this.#starts.length; l++) {
      const start = this.#starts[l] ?? 0;
      const lineEnd = this.#ends[l] ?? 0;
      let i = start;
      while (i < lineEnd && text.charCodeAt(i) === 0x20) i++;
      if (i === lineEnd) {
        breaks++;
        continue;
      }
      if (i - start <= parentIndent) break;
      // A plain scalar at the root has no parent indentation to end it (and `---` would): full parser.
      if (parentIndent < 0) bail();
      const content = text.slice(i, lineEnd).trimEnd();
      if (content.includes('#') || content.includes('\t') || content.includes(': ') || content.endsWith(':')) bail();
      folded += breaks === 0 ? ` ${content}` : `${'\n'.repeat(breaks)}${content}`;
      breaks = 0;
      end = i + content.length;
      nextLine = l + 1;
    }
    return end === -1 ? null : { folded, end, nextLine };
  }

  /** A single-line quoted scalar starting at `pos`. */
  #quoted(pos: number, end: number): YScalar {
    const close = this.#quotedEnd(pos, end);
    if (close === -1) bail();
    const raw = this.#text.slice(pos + 1, close - 1);
    if (this.#text[pos] === "'") {
      return { kind: 'scalar', start: pos, end: close, value: raw.replaceAll("''", "'"), style: 'single' };
    }
    return { kind: 'scalar', start: pos, end: close, value: unescapeDouble(raw), style: 'double' };
  }

  /**
   * A quoted scalar that starts at `pos` on `line` and closes on a later line, folded as YAML folds flow
   * scalars: each line trimmed (the first at its end, the last at its start), one line break a space, n
   * empty lines n line breaks. Anything subtler goes to the full parser: backslashes (escaped line breaks
   * and spaces), tabs, continuation lines not indented past `parentIndent`, a scalar at the root.
   */
  #multiLineQuoted(line: number, pos: number, parentIndent: number): { node: YScalar; line: number } {
    const text = this.#text;
    const quote = text[pos];
    if (parentIndent < 0) bail();
    const firstEnd = this.#ends[line] ?? 0;
    const first = text.slice(pos + 1, firstEnd);
    if (first.includes('\\') || first.includes('\t')) bail();
    let value = first.trimEnd();
    let breaks = 0;
    for (let l = line + 1; l < this.#starts.length; l++) {
      const start = this.#starts[l] ?? 0;
      const lineEnd = this.#ends[l] ?? 0;
      const content = text.slice(start, lineEnd);
      if (content.includes('\\') || content.includes('\t')) bail();
      let i = start;
      while (i < lineEnd && text.charCodeAt(i) === 0x20) i++;
      if (i === lineEnd) {
        breaks++;
        continue;
      }
      if (i - start <= parentIndent) bail();
      let close = -1;
      for (let j = i; j < lineEnd; j++) {
        if (text[j] !== quote) continue;
        if (quote === "'" && text[j + 1] === "'") {
          j++;
          continue;
        }
        close = j;
        break;
      }
      const piece = close === -1 ? text.slice(i, lineEnd).trimEnd() : text.slice(i, close);
      value += breaks === 0 ? ` ${piece}` : `${'\n'.repeat(breaks)}${piece}`;
      breaks = 0;
      if (close !== -1) {
        if (quote === "'") value = value.replaceAll("''", "'");
        return { node: { kind: 'scalar', start: pos, end: close + 1, value, style: quote === "'" ? 'single' : 'double' }, line: l };
      }
    }
    return bail();
  }

  /** Offset just after the closing quote of a quoted scalar on one line, or -1. */
  #quotedEnd(pos: number, end: number): number {
    const text = this.#text;
    const quote = text[pos];
    for (let i = pos + 1; i < end; i++) {
      const ch = text[i];
      if (quote === '"' && ch === '\\') {
        i++;
        continue;
      }
      if (ch === quote) {
        if (quote === "'" && text[i + 1] === "'") {
          i++;
          continue;
        }
        return i + 1;
      }
    }
    return -1;
  }

  #blockScalar(line: number, pos: number, parentIndent: number): YScalar {
    const text = this.#text;
    const style = text[pos] === '|' ? 'literal' : 'folded';
    const headerEnd = this.#ends[line] ?? 0;
    let i = pos + 1;
    // Keep chomping (`+`) and explicit indentation indicators are rare: full parser.
    const strip = text[i] === '-';
    if (strip) i++;
    if (i < headerEnd && text[i] !== ' ' && text[i] !== '#') bail();
    while (i < headerEnd && text[i] === ' ') i++;
    if (i < headerEnd && !(text[i] === '#' && text[i - 1] === ' ')) bail();

    // Content: lines indented more than the parent; the first non-empty line fixes the indentation.
    let indent = -1;
    let lastContent = -1;
    /** The last whitespace-only line with more spaces than the indentation. */
    let wide = -1;
    for (let l = line + 1; l < this.#starts.length; l++) {
      const start = this.#starts[l] ?? 0;
      const end = this.#ends[l] ?? 0;
      let spaces = 0;
      while (start + spaces < end && text.charCodeAt(start + spaces) === 0x20) spaces++;
      if (start + spaces === end) {
        // Whitespace-only lines longer than the indentation are content: their extra spaces are kept
        // (checked below: only between lines of text). Before the first one they have their own rules.
        if (indent === -1 ? spaces > parentIndent + 1 : spaces > indent) {
          if (indent === -1) bail();
          wide = l;
        }
        continue;
      }
      // Document markers end a block scalar even at its indentation: full parser.
      if (spaces === 0 && /^(---|\.\.\.)(\s|$)/.test(text.slice(start, Math.min(end, start + 4)))) bail();
      if (indent === -1) {
        if (spaces <= parentIndent) break;
        indent = spaces;
      } else if (spaces < indent) break;
      lastContent = l;
    }
    if (lastContent === -1) bail();
    // Trailing ones are kept or chomped by rules of their own: full parser.
    if (wide > lastContent) bail();
    this.#line = lastContent + 1;
    const lines: string[] = [];
    for (let l = line + 1; l <= lastContent; l++) {
      const start = this.#starts[l] ?? 0;
      const end = this.#ends[l] ?? 0;
      lines.push(end - start <= indent ? '' : text.slice(start + indent, end));
    }
    const body = style === 'literal' ? lines.join('\n') : fold(lines);
    const lineEnd = this.#ends[lastContent] ?? 0;
    const hasBreak = lineEnd < text.length;
    return {
      kind: 'scalar',
      start: pos,
      end: hasBreak ? lineEnd + 1 : lineEnd,
      value: strip ? body : `${body}\n`,
      style,
    };
  }
}

/**
 * Folds the content lines (indentation removed) of a `>` scalar exactly as the `yaml` library does: a line
 * break between two lines of text becomes a space, n empty lines between them n line breaks, and the
 * breaks around a more-indented line (one that starts with a space) are kept, as is its indentation.
 */
function fold(lines: readonly string[]): string {
  let value = '';
  let sep = '';
  let prevMoreIndented = false;
  let i = 0;
  // Leading empty lines are kept as line breaks.
  while (i < lines.length && lines[i] === '') {
    value += '\n';
    i++;
  }
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    // Tabs at the start of a line are more-indented text in YAML; rare enough to leave to the full parser.
    if (line.startsWith('\t')) bail();
    if (line.startsWith(' ')) {
      if (sep === ' ') sep = '\n';
      else if (!prevMoreIndented && sep === '\n') sep = '\n\n';
      value += sep + line;
      sep = '\n';
      prevMoreIndented = true;
    } else if (line === '') {
      if (sep === '\n') value += '\n';
      else sep = '\n';
    } else {
      value += sep + line;
      sep = ' ';
      prevMoreIndented = false;
    }
  }
  return value;
}

function isPlainStart(raw: string): boolean {
  if (raw === '') return false;
  const c = raw[0] ?? '';
  if (PLAIN_START_FORBIDDEN.has(c)) return false;
  if ((c === '-' || c === '?' || c === ':') && (raw.length === 1 || raw[1] === ' ')) return false;
  if (c === '?' || c === ':') return false;
  return true;
}

/**
 * A plain scalar in a block value may also start with `:` when a non-space follows (`:16:8`,
 * `:module:task`): YAML's ns-plain-safe-out is any non-space character. Keys and flow collections keep
 * the stricter check.
 */
function isBlockPlainStart(raw: string): boolean {
  return isPlainStart(raw) || (raw.length > 1 && raw[0] === ':' && raw[1] !== ' ');
}

function nullScalar(at: number): YScalar {
  return { kind: 'scalar', start: at, end: at, value: null, style: 'plain' };
}

function plainScalar(raw: string, start: number, end: number): YScalar {
  return { kind: 'scalar', start, end, value: resolvePlain(raw), style: 'plain' };
}

/** The YAML 1.2 core schema, exactly as the `yaml` library resolves it. */
export function resolvePlain(raw: string): string | number | boolean | null {
  if (/^(?:~|[Nn]ull|NULL)?$/.test(raw)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(raw)) return raw[0] === 't' || raw[0] === 'T';
  const c = raw.charCodeAt(0);
  // Only strings that start like a number can be one.
  if (!((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) return raw;
  if (/^0o[0-7]+$/.test(raw)) return parseInt(raw.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(raw)) return parseInt(raw, 10);
  if (/^0x[0-9a-fA-F]+$/.test(raw)) return parseInt(raw.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(raw)) {
    return raw.slice(-3).toLowerCase() === 'nan' ? NaN : raw[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(raw)) return parseFloat(raw);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(raw)) return parseFloat(raw);
  return raw;
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  '\t': '\t',
};

function unescapeDouble(raw: string): string {
  if (!raw.includes('\\')) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = raw[++i] ?? '';
    const simple = ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const length = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0;
    const hex = raw.slice(i + 1, i + 1 + length);
    if (length === 0 || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== length) bail();
    const code = parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) bail();
    out += String.fromCodePoint(code);
    i += length;
  }
  return out;
}

/** Where a flow collection starts, for following it onto later lines. */
interface FlowLines {
  line: number;
  starts: readonly number[];
  ends: readonly number[];
  /** Indentation of the block construct that owns the collection: its later lines must be deeper. */
  parentIndent: number;
}

/**
 * Flow collections: `[a, "b", {c: d}]`, `{ a: 1, b: [x] }`. A collection may go on over later lines where
 * a line break is only spacing (after `[`, `{` or `,`, and after an entry), each of those lines indented
 * deeper than the collection's owner (the closing line may be as deep); comments, keys or scalars broken
 * over lines, and shallow lines go to the full parser.
 */
class FlowParser {
  readonly #text: string;
  readonly #lines: FlowLines;
  /** End of the current line. */
  #end: number;
  position: number;
  /** The line `position` is on. */
  line: number;

  constructor(text: string, start: number, lines: FlowLines) {
    this.#text = text;
    this.#lines = lines;
    this.position = start;
    this.line = lines.line;
    this.#end = lines.ends[lines.line] ?? text.length;
  }

  /** End of the line the collection ended on. */
  get lineEnd(): number {
    return this.#end;
  }

  parse(): YMap | YSeq {
    const node = this.#collection(0);
    return node;
  }

  #collection(depth: number): YMap | YSeq {
    if (depth > MAX_FAST_DEPTH) bail();
    const text = this.#text;
    const open = text[this.position];
    const start = this.position;
    this.position++;
    this.#gap(depth);
    const isMap = open === '{';
    const close = isMap ? '}' : ']';
    const items: YNode[] = [];
    const pairs: YPair[] = [];
    const seen = new Set<string>();
    if (text[this.position] === close) {
      this.position++;
      return isMap ? { kind: 'map', start, end: this.position, pairs } : { kind: 'seq', start, end: this.position, items };
    }
    for (;;) {
      if (isMap) {
        const key = this.#scalar(true);
        if (key.kind !== 'scalar') bail();
        const identity = `${typeof key.value}:${String(key.value)}`;
        if (seen.has(identity)) bail();
        seen.add(identity);
        if (text[this.position] !== ':') bail();
        this.position++;
        if (text[this.position] !== ' ') bail();
        this.#spaces();
        const value = this.#value(depth);
        pairs.push({ key, value });
      } else {
        items.push(this.#value(depth));
        if (text[this.position] === ':') bail();
      }
      this.#gap(depth);
      const c = text[this.position];
      if (c === ',') {
        this.position++;
        this.#gap(depth);
        // A trailing comma before the closing bracket ends the collection (`[a, b,]` is `[a, b]`).
        if (text[this.position] === close) {
          this.position++;
          break;
        }
        continue;
      }
      if (c === close) {
        this.position++;
        break;
      }
      bail();
    }
    return isMap ? { kind: 'map', start, end: this.position, pairs } : { kind: 'seq', start, end: this.position, items };
  }

  #value(depth: number): YNode {
    const c = this.#text[this.position];
    if (c === '[' || c === '{') return this.#collection(depth + 1);
    return this.#scalar(false);
  }

  #scalar(isKey: boolean): YScalar {
    const text = this.#text;
    const start = this.position;
    const c = text[start];
    if (c === '"' || c === "'") {
      let i = start + 1;
      for (; i < this.#end; i++) {
        const ch = text[i];
        if (c === '"' && ch === '\\') {
          i++;
          continue;
        }
        if (ch === c) {
          if (c === "'" && text[i + 1] === "'") {
            i++;
            continue;
          }
          break;
        }
      }
      if (i >= this.#end) bail();
      this.position = i + 1;
      const raw = text.slice(start + 1, i);
      this.#spaces();
      return c === "'"
        ? { kind: 'scalar', start, end: i + 1, value: raw.replaceAll("''", "'"), style: 'single' }
        : { kind: 'scalar', start, end: i + 1, value: unescapeDouble(raw), style: 'double' };
    }
    let i = start;
    for (; i < this.#end; i++) {
      const ch = text[i];
      if (ch === ',' || ch === '[' || ch === ']' || ch === '{' || ch === '}') break;
      if (ch === ':' && (text[i + 1] === ' ' || text[i + 1] === ',' || text[i + 1] === ']' || text[i + 1] === '}' || i + 1 === this.#end)) break;
      if (ch === '#' && text[i - 1] === ' ') bail();
      if (ch === '\t') bail();
    }
    const raw = text.slice(start, i).trimEnd();
    if (!isPlainStart(raw)) bail();
    if (!isKey && text[i] === ':') bail();
    this.position = start + raw.length;
    this.#spaces();
    return plainScalar(raw, start, start + raw.length);
  }

  #spaces(): void {
    while (this.position < this.#end && this.#text[this.position] === ' ') this.position++;
  }

  /**
   * Spaces, and at the end of a line the line breaks up to the next content line (see the class). The
   * line that closes the outermost collection (`depth` 0) may be as deep as its owner, as YAML allows.
   */
  #gap(depth: number): void {
    this.#spaces();
    const { starts, ends, parentIndent } = this.#lines;
    while (this.position === this.#end && this.line + 1 < starts.length) {
      // A collection at the root has no owner to be deeper than (and `---` could end it): full parser.
      if (parentIndent < 0) bail();
      this.line++;
      const start = starts[this.line] ?? 0;
      this.#end = ends[this.line] ?? 0;
      let i = start;
      while (i < this.#end && this.#text.charCodeAt(i) === 0x20) i++;
      this.position = i;
      if (i === this.#end) continue;
      const c = this.#text[i];
      if (c === '#' || c === '\t' || i - start < parentIndent) bail();
      if (i - start === parentIndent && !(depth === 0 && (c === ']' || c === '}'))) bail();
    }
  }
}
