import { MAX_EXPANDED_NODES } from './limits.js';
import type { YMap, YNode, YPair, YScalar, YSeq } from './model.js';

/**
 * A fast path to the positioned model for the YAML that workflows are actually written in: block
 * mappings and sequences, plain scalars (multi-line ones included), quoted scalars, literal and folded
 * block scalars, flow collections (over several lines too, with comments), anchors and aliases, LF or
 * CRLF line breaks, a leading byte order mark, and `---` / `...` around the one document. It is written
 * by hand because composing full `yaml` Documents costs more than the whole rule pass (see the engine
 * benchmark).
 *
 * It is deliberately strict: anything outside that subset, and anything it is not sure the `yaml`
 * library would accept with the same meaning (tabs, a lone CR, tags, odd indentation, duplicate keys,
 * an alias to a missing or unfinished anchor, aliases that expand past the model's node limit ...),
 * returns `undefined` and the caller falls back to the full parser. So malformed input is always judged
 * by the `yaml` library, and a differential test over the corpus, committed fixtures and generated
 * documents checks that both paths build identical models (aliased nodes shared the same way).
 */
export function parseYamlFast(text: string): YNode | undefined {
  // Control characters, a lone CR, NEL and a BOM after the start are rare in workflows and have subtle
  // YAML rules: full parser.
  if (hasUnsupportedChar(text) || hasLoneCR(text)) return undefined;
  try {
    return new FastParser(text).parseDocument();
  } catch (error) {
    if (error === BAIL) return undefined;
    throw error;
  }
}

/**
 * The characters `hasUnsupportedChar` looks for: C0 controls but tab, LF and CR; DEL; NEL; the line and
 * paragraph separators (a byte order mark is looked for apart: it may open the text).
 */
const UNSUPPORTED_CHARS: readonly string[] = [
  ...Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c)).filter((c) => c !== '\t' && c !== '\n' && c !== '\r'),
  '\x7f',
  '\x85',
  '\u2028',
  '\u2029',
];

/**
 * Whether the text holds one of `UNSUPPORTED_CHARS`, or a byte order mark after its start. One `includes`
 * per character: each is a `memchr` over the text, and the 33 of them cost about a third of what the
 * character class `/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x85\ufeff\u2028\u2029]/` did, which tested every
 * position in turn (15 M instructions a pass over 200 corpus workflows, against 5 M).
 */
function hasUnsupportedChar(text: string): boolean {
  for (let i = 0; i < UNSUPPORTED_CHARS.length; i++) if (text.includes(UNSUPPORTED_CHARS[i] ?? '')) return true;
  return text.indexOf('\ufeff', 1) !== -1;
}

/** A CR that does not start a CRLF line break. */
function hasLoneCR(text: string): boolean {
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) if (text.charCodeAt(i + 1) !== 0x0a) return true;
  return false;
}
const BAIL = Symbol('bail');
const MAX_FAST_DEPTH = 32;

function bail(): never {
  throw BAIL;
}

/** Whether a line's text from `pos` to `end` may follow a document marker: spaces, then maybe a comment. */
function isMarkerEnd(text: string, pos: number, end: number): boolean {
  if (pos === end) return true;
  if (text.charCodeAt(pos) !== 0x20) return false;
  let i = pos;
  while (i < end && text.charCodeAt(i) === 0x20) i++;
  return i === end || text.charCodeAt(i) === 0x23;
}

/**
 * The keys of one mapping so far: a repeated key is an error the full parser reports. Keys compare by
 * value as the `yaml` library compares them (`1` and `"1"` differ); a few keys are compared in a loop,
 * more through a set, so a mapping of many keys stays linear.
 */
class DuplicateKeys {
  #set: Set<unknown> | undefined;

  add(value: YScalar['value'], pairs: readonly YPair[]): void {
    const set = this.#set;
    if (set !== undefined) {
      if (set.has(value)) bail();
      set.add(value);
      return;
    }
    for (let i = 0; i < pairs.length; i++) if (pairs[i]?.key.value === value) bail();
    if (pairs.length >= 16) {
      this.#set = new Set(pairs.map((pair) => pair.key.value));
      this.#set.add(value);
    }
  }
}

/** Characters that cannot start a plain scalar (or that this parser leaves to the full one). */
function plainStartForbidden(c: number): boolean {
  switch (c) {
    case 0x5b: // [
    case 0x5d: // ]
    case 0x7b: // {
    case 0x7d: // }
    case 0x2c: // ,
    case 0x23: // #
    case 0x26: // &
    case 0x2a: // *
    case 0x21: // !
    case 0x7c: // |
    case 0x3e: // >
    case 0x27: // '
    case 0x22: // "
    case 0x25: // %
    case 0x40: // @
    case 0x60: // `
      return true;
    default:
      return false;
  }
}

/** An anchor's node, and its weight: how many nodes it stands for with its own aliases expanded. */
interface Anchor {
  /** Undefined while the anchored node is being parsed (an alias to it then refers to itself). */
  node: YNode | undefined;
  weight: number;
}

/** What the block parser and the flow parsers of one document share: anchors and the node budget. */
class Shared {
  /** The last anchor of each name met so far, in document order (as the `yaml` library resolves aliases). */
  readonly anchors = new Map<string, Anchor>();
  /**
   * Nodes in the model with aliases expanded, counted as the full parser's model builder weighs them:
   * past MAX_EXPANDED_NODES the full parser reports the file, so this one hands it over.
   */
  weight = 0;

  add(weight: number): void {
    this.weight += weight;
    if (this.weight > MAX_EXPANDED_NODES) bail();
  }
}

/** The node an alias `*name` stands for (the anchored node itself: the model is a DAG). */
function resolveAlias(shared: Shared, name: string): YNode {
  const anchor = shared.anchors.get(name);
  // An unknown alias, or one inside the node it names, is an error the full parser reports.
  if (anchor?.node === undefined) return bail();
  shared.add(anchor.weight);
  return anchor.node;
}

/** End of an anchor or alias name that starts at `pos`: names this parser takes are `[A-Za-z0-9_.-]+`. */
function nameEnd(text: string, pos: number): number {
  let i = pos;
  for (;;) {
    const c = text.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d || c === 0x2e) i++;
    else break;
  }
  if (i === pos) bail();
  return i;
}

/**
 * The next offset of one character at or after a given one (the text's length when there is none), found
 * with `indexOf` and remembered: the parser asks for offsets that mostly move forward, so the text is
 * searched about once in all, natively, instead of character by character in the parser's loops (where
 * each `charCodeAt` of a string of either width is tens of instructions).
 */
class NextOf {
  readonly #text: string;
  readonly #char: string;
  /** No `#char` in `[#from, #at)`, and one at `#at` (or `#at` is the text's length). */
  #from = 0;
  #at = -1;

  constructor(text: string, char: string) {
    this.#text = text;
    this.#char = char;
  }

  at(from: number): number {
    if (from >= this.#from && from <= this.#at) return this.#at;
    const at = this.#text.indexOf(this.#char, from);
    this.#from = from;
    this.#at = at === -1 ? this.#text.length : at;
    return this.#at;
  }
}

class FastParser {
  readonly #text: string;
  /** Whether the text holds a tab: only then do the scans for keys and plain values look for one. */
  readonly #tabs: boolean;
  readonly #colons: NextOf;
  readonly #hashes: NextOf;
  readonly #singleQuotes: NextOf;
  readonly #doubleQuotes: NextOf;
  readonly #backslashes: NextOf;
  readonly #starts: number[] = [];
  /** End of each line's content: before its `\n`, or its `\r\n`. */
  readonly #ends: number[] = [];
  /** Offset of each line's first character that is not a space (its end when there is none). */
  readonly #firsts: number[] = [];
  /** Lines of the document: a `...` line ends it (what follows may only be blank or comments). */
  #count = 0;
  /** The next line not yet consumed. */
  #line = 0;
  /** Collections currently open; deep documents go to the full parser, which enforces the limit. */
  #depth = 0;
  readonly #shared = new Shared();

  constructor(text: string) {
    this.#text = text;
    this.#tabs = text.includes('\t');
    this.#colons = new NextOf(text, ':');
    this.#hashes = new NextOf(text, '#');
    this.#singleQuotes = new NextOf(text, "'");
    this.#doubleQuotes = new NextOf(text, '"');
    this.#backslashes = new NextOf(text, '\\');
    // A byte order mark is not part of the first line (offsets still count it). The `yaml` library
    // counts it in that line's indentation, and rejects a sequence entry on it (`\ufeff- a`): an
    // indented line or an entry after one goes to the full parser.
    let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (start === 1) {
      const c = text.charCodeAt(1);
      if (c === 0x20 || c === 0x09 || (c === 0x2d && (text.length === 2 || /[ \t\r\n]/.test(text[2] ?? '')))) bail();
    }
    let documentEnd = -1;
    for (;;) {
      const nl = text.indexOf('\n', start);
      const end = nl === -1 ? text.length : nl > start && text.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
      if (documentEnd === -1 && text.charCodeAt(start) === 0x2e && text.startsWith('...', start) && isMarkerEnd(text, start + 3, end)) {
        documentEnd = this.#starts.length;
      }
      let first = start;
      while (first < end && text.charCodeAt(first) === 0x20) first++;
      this.#starts.push(start);
      this.#ends.push(end);
      this.#firsts.push(first);
      if (nl === -1) break;
      start = nl + 1;
    }
    this.#count = this.#starts.length;
    if (documentEnd !== -1) {
      // Only blank and comment lines may follow the document end marker.
      for (let line = documentEnd + 1; line < this.#count; line++) if (!this.#isBlank(line)) bail();
      this.#count = documentEnd;
    }
  }

  parseDocument(): YNode {
    let first = 0;
    while (first < this.#count && this.#isBlank(first)) first++;
    // `---` (alone or with a comment) may open the document, after blank and comment lines.
    if (first < this.#count && this.#text.startsWith('---', this.#starts[first] ?? 0)) {
      if (!isMarkerEnd(this.#text, (this.#starts[first] ?? 0) + 3, this.#ends[first] ?? 0)) bail();
      first++;
    }
    first = this.#nextContent(first);
    // An empty document is rare and its null node's position has its own rules: full parser.
    if (first === -1) bail();
    const indent = this.#indent(first);
    const root = this.#blockNode(first, indent, -1);
    if (this.#nextContent(this.#line) !== -1) bail();
    return root;
  }

  #indent(line: number): number {
    const first = this.#firsts[line] ?? 0;
    if (this.#text.charCodeAt(first) === 0x09 && first < (this.#ends[line] ?? 0)) bail();
    return first - (this.#starts[line] ?? 0);
  }

  /** True for a blank or comment-only line. */
  #isBlank(line: number): boolean {
    const first = this.#firsts[line] ?? 0;
    if (first === this.#ends[line]) return true;
    const c = this.#text.charCodeAt(first);
    if (c === 0x09) bail();
    return c === 0x23;
  }

  /**
   * The first line at or after `from` with content, or -1. A second document, a `%` directive and a line
   * that starts like a document marker go to the full parser.
   */
  #nextContent(from: number): number {
    const text = this.#text;
    for (let line = from; line < this.#count; line++) {
      if (this.#isBlank(line)) continue;
      const start = this.#starts[line] ?? 0;
      const c = text.charCodeAt(start);
      if (c === 0x25 || ((c === 0x2d || c === 0x2e) && (text.startsWith('---', start) || text.startsWith('...', start)))) bail();
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
      const i = this.#firsts[line] ?? 0;
      if (i < (this.#ends[line] ?? 0) && this.#text.charCodeAt(i) === 0x23 && i - (this.#starts[line] ?? 0) <= col) return true;
    }
    return false;
  }

  #isSequenceEntry(pos: number, end: number): boolean {
    const text = this.#text;
    if (text.charCodeAt(pos) !== 0x2d) return false;
    if (pos + 1 === end) return true;
    const next = text.charCodeAt(pos + 1);
    if (next === 0x09) bail();
    return next === 0x20;
  }

  /**
   * If the text at `pos` is a mapping key (`key:` followed by a space or the end of the line), the
   * offset of its colon, else -1.
   */
  #keyEnd(pos: number, end: number): number {
    const text = this.#text;
    const c = text.charCodeAt(pos);
    if (c === 0x22 || c === 0x27) {
      const close = this.#quotedEnd(pos, end);
      if (close === -1) return -1;
      return text.charCodeAt(close) === 0x3a && (close + 1 === end || text.charCodeAt(close + 1) === 0x20) ? close : -1;
    }
    if (!this.#tabs) {
      // The first colon followed by a space or the line's end, unless a comment (`#` after a space) starts
      // before it: the loop below, from colon to colon and comment sign to comment sign.
      let hash = this.#hashes.at(pos + 1);
      for (let colon = this.#colons.at(pos); colon < end; colon = this.#colons.at(colon + 1)) {
        for (; hash < colon; hash = this.#hashes.at(hash + 1)) if (text.charCodeAt(hash - 1) === 0x20) return -1;
        if (colon + 1 === end || text.charCodeAt(colon + 1) === 0x20) return colon;
      }
      return -1;
    }
    for (let i = pos; i < end; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 0x3a) {
        if (i + 1 === end || text.charCodeAt(i + 1) === 0x20) return i;
      } else if (ch === 0x09) bail();
      else if (ch === 0x23 && i > pos && text.charCodeAt(i - 1) === 0x20) return -1;
    }
    return -1;
  }

  #mapping(firstLine: number, col: number): YMap {
    if (++this.#depth > MAX_FAST_DEPTH) bail();
    const text = this.#text;
    const pairs: YPair[] = [];
    const keys = new DuplicateKeys();
    let line = firstLine;
    for (;;) {
      const start = (this.#starts[line] ?? 0) + col;
      const end = this.#ends[line] ?? 0;
      const colon = this.#keyEnd(start, end);
      if (colon === -1) bail();
      const key = this.#key(start, colon);
      keys.add(key.value, pairs);
      this.#line = line + 1;
      let valueStart = colon + 1;
      while (valueStart < end && text.charCodeAt(valueStart) === 0x20) valueStart++;
      let value: YNode;
      const v = text.charCodeAt(valueStart);
      if (v === 0x2a) {
        value = this.#alias(valueStart, end);
      } else {
        let anchor: Anchor | undefined;
        let before = 0;
        if (v === 0x26) {
          anchor = this.#anchor(valueStart, end);
          valueStart = this.#afterProperty;
          before = this.#shared.weight;
        }
        if (valueStart === end || text.charCodeAt(valueStart) === 0x23) {
          const next = this.#nextContent(line + 1);
          const nextIndent = next === -1 ? -1 : this.#indent(next);
          if (next !== -1 && nextIndent > col) {
            value = this.#blockNode(next, nextIndent, col);
            if (value.kind === 'scalar' && this.#outdentedComment(line + 1, next, col)) bail();
          } else if (next !== -1 && nextIndent === col && this.#isSequenceEntry((this.#starts[next] ?? 0) + col, this.#ends[next] ?? 0)) {
            value = this.#sequence(next, col);
          } else {
            // An anchored empty value is positioned by rules of its own: full parser.
            if (anchor !== undefined) bail();
            value = nullScalar(valueStart);
            this.#shared.add(1);
          }
        } else {
          value = this.#inlineValue(line, valueStart, col);
        }
        if (anchor !== undefined) {
          anchor.node = value;
          anchor.weight = this.#shared.weight - before;
        }
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
    this.#shared.add(1);
    return { kind: 'map', start: first.key.start, end: last.value.end, pairs };
  }

  /** Where the value after the last anchor read by `#anchor` starts. */
  #afterProperty = 0;

  /**
   * An anchor `&name` at `pos` (on a line ending at `end`), registered before its node is parsed, as the
   * `yaml` library does (an alias inside the node then refers to it). Sets `#afterProperty`.
   */
  #anchor(pos: number, end: number): Anchor {
    const text = this.#text;
    const nameStop = nameEnd(text, pos + 1);
    if (nameStop < end && text.charCodeAt(nameStop) !== 0x20) bail();
    let after = nameStop;
    while (after < end && text.charCodeAt(after) === 0x20) after++;
    const anchor: Anchor = { node: undefined, weight: 0 };
    this.#shared.anchors.set(text.slice(pos + 1, nameStop), anchor);
    this.#afterProperty = after;
    return anchor;
  }

  /** An alias `*name` at `pos`, alone on the rest of its line (a comment aside). */
  #alias(pos: number, end: number): YNode {
    const text = this.#text;
    const nameStop = nameEnd(text, pos + 1);
    let after = nameStop;
    while (after < end && text.charCodeAt(after) === 0x20) after++;
    if (after < end && !(text.charCodeAt(after) === 0x23 && after > nameStop)) bail();
    return resolveAlias(this.#shared, text.slice(pos + 1, nameStop));
  }

  #key(start: number, colon: number): YScalar {
    const c = this.#text[start];
    if (c === '"' || c === "'") {
      this.#shared.add(1);
      return this.#quoted(start, colon);
    }
    // `name : value`: a plain implicit key ends before the spaces that precede its colon.
    const text = this.#text;
    const rawEnd = trimmedEnd(text, start, colon);
    if (!isPlainStart(text, start, rawEnd)) bail();
    this.#shared.add(1);
    return plainScalar(text.slice(start, rawEnd), start, rawEnd);
  }

  #sequence(firstLine: number, col: number): YSeq {
    if (++this.#depth > MAX_FAST_DEPTH) bail();
    const items: YNode[] = [];
    let line = firstLine;
    for (;;) {
      const dash = (this.#starts[line] ?? 0) + col;
      const end = this.#ends[line] ?? 0;
      let pos = dash + 1;
      while (pos < end && this.#text.charCodeAt(pos) === 0x20) pos++;
      this.#line = line + 1;
      const c = this.#text.charCodeAt(pos);
      if (c === 0x2a) {
        items.push(this.#alias(pos, end));
      } else {
        let anchor: Anchor | undefined;
        let before = 0;
        if (c === 0x26) {
          anchor = this.#anchor(pos, end);
          pos = this.#afterProperty;
          before = this.#shared.weight;
        }
        let item: YNode;
        if (pos === end || this.#text.charCodeAt(pos) === 0x23) {
          // An entry whose value is on the following lines; empty entries are left to the full parser.
          const next = this.#nextContent(line + 1);
          if (next === -1 || this.#indent(next) <= col) bail();
          item = this.#blockNode(next, this.#indent(next), col);
          if (item.kind === 'scalar' && this.#outdentedComment(line + 1, next, col)) bail();
        } else {
          const itemCol = pos - (this.#starts[line] ?? 0);
          if (this.#isSequenceEntry(pos, end)) bail();
          const first = this.#text.charCodeAt(pos);
          if (first === 0x5b || first === 0x7b) item = this.#inlineValue(line, pos, col);
          else if (this.#keyEnd(pos, end) !== -1) {
            // `- &a key: value` anchors the key, not the mapping: full parser.
            if (anchor !== undefined) bail();
            item = this.#mapping(line, itemCol);
          } else item = this.#inlineValue(line, pos, col);
        }
        if (anchor !== undefined) {
          anchor.node = item;
          anchor.weight = this.#shared.weight - before;
        }
        items.push(item);
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
    this.#shared.add(1);
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
      const flow = new FlowParser(text, pos, { line, starts: this.#starts, ends: this.#ends, count: this.#count, parentIndent }, this.#shared);
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
      // Where a comment starts, and the first tab and `: ` before it, which send a value that holds them
      // to the full parser.
      let stop = end;
      let tab = end;
      let colon = end;
      if (this.#tabs) {
        for (let i = pos; i < end; i++) {
          const ch = text.charCodeAt(i);
          if (ch === 0x23) {
            if (text.charCodeAt(i - 1) === 0x20) {
              stop = i;
              break;
            }
          } else if (ch === 0x09) {
            if (tab === end) tab = i;
          } else if (ch === 0x3a && colon === end && text.charCodeAt(i + 1) === 0x20) colon = i;
        }
      } else {
        // The same from comment sign to comment sign and colon to colon (see `NextOf`).
        for (let hash = this.#hashes.at(pos); hash < end; hash = this.#hashes.at(hash + 1)) {
          if (text.charCodeAt(hash - 1) === 0x20) {
            stop = hash;
            break;
          }
        }
        for (let c = this.#colons.at(pos); c < stop; c = this.#colons.at(c + 1)) {
          if (text.charCodeAt(c + 1) === 0x20) {
            colon = c;
            break;
          }
        }
      }
      const rawEnd = trimmedEnd(text, pos, stop);
      if (tab < rawEnd || colon < rawEnd || text.charCodeAt(rawEnd - 1) === 0x3a) bail();
      if (!isBlockPlainStart(text, pos, rawEnd)) bail();
      const raw = text.slice(pos, rawEnd);
      after = rawEnd;
      const continued = this.#plainContinuation(line, parentIndent);
      if (continued === null) {
        node = plainScalar(raw, pos, rawEnd);
      } else {
        // A comment ends a plain scalar: a more indented line after one is an error.
        if (stop !== end) bail();
        node = { kind: 'scalar', start: pos, end: continued.end, value: resolvePlain(raw + continued.folded), style: 'plain' };
        this.#line = continued.nextLine;
      }
    }
    if (node.kind === 'scalar') this.#shared.add(1);
    // Spaces and tabs may follow a value, then a comment after a space.
    while (after < end && (text.charCodeAt(after) === 0x20 || text.charCodeAt(after) === 0x09)) after++;
    if (after < end && !(text.charCodeAt(after) === 0x23 && text.charCodeAt(after - 1) === 0x20)) bail();
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
    for (let l = line + 1; l < this.#count; l++) {
      const start = this.#starts[l] ?? 0;
      const lineEnd = this.#ends[l] ?? 0;
      const i = this.#firsts[l] ?? lineEnd;
      if (i === lineEnd) {
        breaks++;
        continue;
      }
      if (i - start <= parentIndent) break;
      // A plain scalar at the root has no parent indentation to end it (and `---` would): full parser.
      if (parentIndent < 0) bail();
      // A comment line ends the scalar (a more indented line after it is an error the caller leaves to
      // the full parser).
      if (text.charCodeAt(i) === 0x23) break;
      const content = text.slice(i, trimmedEnd(text, i, lineEnd));
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
    let value = first.slice(0, trimmedEnd(first, 0, first.length));
    let breaks = 0;
    for (let l = line + 1; l < this.#count; l++) {
      const start = this.#starts[l] ?? 0;
      const lineEnd = this.#ends[l] ?? 0;
      const content = text.slice(start, lineEnd);
      if (content.includes('\\') || content.includes('\t')) bail();
      const i = this.#firsts[l] ?? lineEnd;
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
      const piece = text.slice(i, close === -1 ? trimmedEnd(text, i, lineEnd) : close);
      value += breaks === 0 ? ` ${piece}` : `${'\n'.repeat(breaks)}${piece}`;
      breaks = 0;
      if (close !== -1) {
        if (quote === "'") value = value.replaceAll("''", "'");
        return { node: { kind: 'scalar', start: pos, end: close + 1, value, style: quote === "'" ? 'single' : 'double' }, line: l };
      }
    }
    return bail();
  }

  /** Offset just after the closing quote of a quoted scalar on one line (its quote at `pos`), or -1. */
  #quotedEnd(pos: number, end: number): number {
    const text = this.#text;
    const quote = text[pos];
    // From quote to quote (see `NextOf`): `''` in single quotes, any character after `\` in double ones.
    if (quote === "'") {
      for (let i = this.#singleQuotes.at(pos + 1); i < end; i = this.#singleQuotes.at(i + 2)) {
        if (text.charCodeAt(i + 1) !== 0x27) return i + 1;
      }
      return -1;
    }
    if (quote === '"') {
      let escape = this.#backslashes.at(pos + 1);
      for (let i = this.#doubleQuotes.at(pos + 1); i < end; ) {
        if (escape < i) {
          // The escaped character may be the quote itself.
          const after = escape + 2;
          escape = this.#backslashes.at(after);
          if (i < after) i = this.#doubleQuotes.at(after);
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
    for (let l = line + 1; l < this.#count; l++) {
      const start = this.#starts[l] ?? 0;
      const end = this.#ends[l] ?? 0;
      const spaces = (this.#firsts[l] ?? end) - start;
      if (start + spaces === end) {
        // Whitespace-only lines longer than the indentation are content: their extra spaces are kept
        // (checked below: only between lines of text). Before the first one they have their own rules.
        if (indent === -1 ? spaces > parentIndent + 1 : spaces > indent) {
          if (indent === -1) bail();
          wide = l;
        }
        continue;
      }
      // A second document's marker ends a block scalar even at its indentation: full parser. (The
      // document end marker `...` ends the lines this parser reads.)
      if (spaces === 0 && text.startsWith('---', start)) bail();
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
    // Clip chomping keeps one final line break. For a literal scalar (every `run:` script) it is joined in
    // rather than appended: `${body}\n` would be a V8 cons string, slower for every script reader to scan.
    let value: string;
    if (style === 'literal') {
      if (!strip) lines.push('');
      value = lines.join('\n');
    } else {
      value = strip ? fold(lines) : `${fold(lines)}\n`;
    }
    // The scalar takes in the line break after its last line (`\n` or `\r\n`), when there is one.
    const end = this.#starts[lastContent + 1] ?? this.#ends[lastContent] ?? 0;
    this.#shared.add(1);
    return { kind: 'scalar', start: pos, end, value, style };
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

/**
 * `end` moved back over the spaces and tabs before it (not past `start`): YAML's white space. Other
 * Unicode spaces (a no-break space ...) are part of a scalar, as in the `yaml` library.
 */
function trimmedEnd(text: string, start: number, end: number): number {
  let i = end;
  for (;;) {
    if (i <= start) return start;
    const c = text.charCodeAt(i - 1);
    if (c !== 0x20 && c !== 0x09) return i;
    i--;
  }
}

/**
 * Whether `text` from `start` to `end` may be a plain scalar by its start. (Read in place: the scalar's
 * own string, a slice or a copy, would make `length` and the character reads here megamorphic.)
 */
function isPlainStart(text: string, start: number, end: number): boolean {
  if (start >= end) return false;
  const c = text.charCodeAt(start);
  if (plainStartForbidden(c) || c === 0x3f || c === 0x3a) return false;
  return c !== 0x2d || (end - start > 1 && text.charCodeAt(start + 1) !== 0x20);
}

/**
 * A plain scalar in a block value may also start with `:` when a non-space follows (`:16:8`,
 * `:module:task`): YAML's ns-plain-safe-out is any non-space character. Keys and flow collections keep
 * the stricter check.
 */
function isBlockPlainStart(text: string, start: number, end: number): boolean {
  return isPlainStart(text, start, end) || (end - start > 1 && text.charCodeAt(start) === 0x3a && text.charCodeAt(start + 1) !== 0x20);
}

function nullScalar(at: number): YScalar {
  return { kind: 'scalar', start: at, end: at, value: null, style: 'plain' };
}

function plainScalar(raw: string, start: number, end: number): YScalar {
  return { kind: 'scalar', start, end, value: resolvePlain(raw), style: 'plain' };
}

/** The YAML 1.2 core schema, exactly as the `yaml` library resolves it. */
export function resolvePlain(raw: string): string | number | boolean | null {
  const c = raw.charCodeAt(0);
  switch (c) {
    case 0x6e: // n
    case 0x4e: // N
      return raw === 'null' || raw === 'Null' || raw === 'NULL' ? null : raw;
    case 0x7e: // ~
      return raw.length === 1 ? null : raw;
    case 0x74: // t
    case 0x54: // T
      return raw === 'true' || raw === 'True' || raw === 'TRUE' ? true : raw;
    case 0x66: // f
    case 0x46: // F
      return raw === 'false' || raw === 'False' || raw === 'FALSE' ? false : raw;
    default:
      if (raw === '') return null;
  }
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
  /** Lines of the document. */
  count: number;
  /** Indentation of the block construct that owns the collection: its later lines must be deeper. */
  parentIndent: number;
}

/**
 * Flow collections: `[a, "b", {c: d}, *alias, k: v]`, `{ a: 1, b: [x] }`. A collection may go on over
 * later lines where a line break is only spacing (after `[`, `{` or `,`, and after an entry), each of
 * those lines indented deeper than the collection's owner (the closing line may be as deep); comments
 * may end its lines, or fill them. Keys or scalars broken over lines, anchors, and shallow lines go to
 * the full parser.
 */
class FlowParser {
  readonly #text: string;
  readonly #lines: FlowLines;
  readonly #shared: Shared;
  /** End of the current line. */
  #end: number;
  position: number;
  /** The line `position` is on. */
  line: number;

  constructor(text: string, start: number, lines: FlowLines, shared: Shared) {
    this.#text = text;
    this.#lines = lines;
    this.#shared = shared;
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
    const keys = new DuplicateKeys();
    this.#shared.add(1);
    if (text[this.position] === close) {
      this.position++;
      return isMap ? { kind: 'map', start, end: this.position, pairs } : { kind: 'seq', start, end: this.position, items };
    }
    for (;;) {
      if (isMap) {
        const key = this.#scalar(true);
        keys.add(key.value, pairs);
        if (text[this.position] !== ':') bail();
        this.position++;
        if (text[this.position] !== ' ') bail();
        this.#spaces();
        const value = this.#value(depth);
        pairs.push({ key, value });
      } else {
        const item = this.#value(depth);
        if (text[this.position] === ':') {
          // `[key: value]`: a mapping of one pair, from the key to the value.
          if (item.kind !== 'scalar' || text[this.position + 1] !== ' ') bail();
          this.position++;
          this.#spaces();
          const valueStart = this.position;
          const value = this.#value(depth);
          this.#shared.add(1);
          // The pair ends where its value's text ends: for an alias, at the end of its name, not where
          // the anchored node it stands for ends (as the `yaml` library positions it).
          const end = text[valueStart] === '*' ? nameEnd(text, valueStart + 1) : value.end;
          items.push({ kind: 'map', start: item.start, end, pairs: [{ key: item, value }] });
        } else {
          items.push(item);
        }
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
    if (c === '*') return this.#alias();
    return this.#scalar(false);
  }

  /** `*name`, ended by a space, `,`, `]`, `}` or the end of the line. */
  #alias(): YNode {
    const text = this.#text;
    const stop = nameEnd(text, this.position + 1);
    const c = text.charCodeAt(stop);
    if (stop < this.#end && c !== 0x20 && c !== 0x2c && c !== 0x5d && c !== 0x7d) bail();
    const node = resolveAlias(this.#shared, text.slice(this.position + 1, stop));
    this.position = stop;
    this.#spaces();
    return node;
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
      this.#shared.add(1);
      return c === "'"
        ? { kind: 'scalar', start, end: i + 1, value: raw.replaceAll("''", "'"), style: 'single' }
        : { kind: 'scalar', start, end: i + 1, value: unescapeDouble(raw), style: 'double' };
    }
    let i = start;
    for (; i < this.#end; i++) {
      const ch = text[i];
      if (ch === ',' || ch === '[' || ch === ']' || ch === '{' || ch === '}') break;
      if (ch === ':' && (text[i + 1] === ' ' || text[i + 1] === ',' || text[i + 1] === ']' || text[i + 1] === '}' || i + 1 === this.#end)) break;
      // A comment ends the scalar (and the line).
      if (ch === '#' && text[i - 1] === ' ') break;
      if (ch === '\t') bail();
    }
    const rawEnd = trimmedEnd(text, start, i);
    if (!isPlainStart(text, start, rawEnd)) bail();
    if (!isKey && text[i] === ':' && text[i + 1] !== ' ') bail();
    this.position = rawEnd;
    this.#spaces();
    this.#shared.add(1);
    return plainScalar(text.slice(start, rawEnd), start, rawEnd);
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
    const text = this.#text;
    // A comment after a space runs to the end of the line.
    if (this.position < this.#end && text.charCodeAt(this.position) === 0x23 && text.charCodeAt(this.position - 1) === 0x20) this.position = this.#end;
    const { starts, ends, count, parentIndent } = this.#lines;
    while (this.position === this.#end && this.line + 1 < count) {
      // A collection at the root has no owner to be deeper than (and `---` could end it): full parser.
      if (parentIndent < 0) bail();
      this.line++;
      const start = starts[this.line] ?? 0;
      this.#end = ends[this.line] ?? 0;
      let i = start;
      while (i < this.#end && text.charCodeAt(i) === 0x20) i++;
      this.position = i;
      if (i === this.#end) continue;
      const c = text[i];
      if (c === '#') {
        // A comment line, at any indentation.
        this.position = this.#end;
        continue;
      }
      if (c === '\t' || i - start < parentIndent) bail();
      if (i - start === parentIndent && !(depth === 0 && (c === ']' || c === '}'))) bail();
    }
  }
}
