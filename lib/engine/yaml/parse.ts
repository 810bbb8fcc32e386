import { parseDocument, isAlias, isMap, isScalar, isSeq, visit, type Alias, type Node as YamlNode, type Document } from 'yaml';
import { parseYamlFast } from './fast.js';
import type { ScalarStyle, YMap, YNode, YPair, YScalar, YSeq } from './model.js';
import { MAX_DEPTH, MAX_EXPANDED_NODES, MAX_FILE_BYTES } from './limits.js';

export { MAX_DEPTH, MAX_EXPANDED_NODES, MAX_FILE_BYTES };

export interface ParseProblem {
  /** Offset the problem is reported at. */
  offset: number;
  message: string;
}

export type ParseResult = { ok: true; root: YNode } | { ok: false; problem: ParseProblem };

class ModelLimitError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** UTF-8 byte length without allocating (the engine runs where Buffer may not exist). */
export function utf8Length(text: string, stopAbove = Infinity): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
    if (bytes > stopAbove) return bytes;
  }
  return bytes;
}

/**
 * Parses one YAML document into the positioned model. Never throws: syntax errors, size, nesting and
 * alias-expansion limits come back as a problem with an offset.
 */
export function parseYaml(text: string): ParseResult {
  if (text.length > MAX_FILE_BYTES || (text.length * 3 > MAX_FILE_BYTES && utf8Length(text, MAX_FILE_BYTES) > MAX_FILE_BYTES)) {
    return { ok: false, problem: { offset: 0, message: `the file is larger than the ${MAX_FILE_BYTES / 1024} KiB limit` } };
  }
  const fast = parseYamlFast(text);
  if (fast !== undefined) return { ok: true, root: fast };
  return parseYamlFull(text);
}

/** The full `yaml` library path: every construct, every error, with the nesting and alias limits. */
export function parseYamlFull(text: string): ParseResult {
  const flowTooDeep = flowNestingBeyond(text, MAX_DEPTH);
  const tooDeep = flowTooDeep !== -1 ? flowTooDeep : blockNestingBeyond(text, 2 * MAX_DEPTH);
  if (tooDeep !== -1) return { ok: false, problem: { offset: tooDeep, message: `the document nests deeper than ${MAX_DEPTH} levels` } };
  let doc: Document.Parsed;
  let index: DocumentIndex;
  try {
    // The library's own duplicate-key check compares each key with every earlier key of its mapping,
    // quadratic on a mapping of many keys; `indexDocument` does the same check with a set.
    doc = parseDocument(text, { prettyErrors: false, keepSourceTokens: false, stringKeys: false, uniqueKeys: false });
    index = indexDocument(doc);
  } catch (error) {
    // The yaml library recurses on nesting; a stack overflow on hostile input is a finding, not a crash.
    return { ok: false, problem: { offset: 0, message: `the YAML could not be parsed (${error instanceof RangeError ? 'nesting too deep' : 'parser error'})` } };
  }
  const first = doc.errors[0];
  if (first !== undefined && (index.duplicateKey === -1 || first.pos[0] <= index.duplicateKey)) {
    if (/call stack/i.test(first.message)) return { ok: false, problem: { offset: 0, message: 'the document nests too deeply to analyse' } };
    return { ok: false, problem: { offset: first.pos[0], message: `YAML syntax error: ${firstSentence(first.message)}` } };
  }
  if (index.duplicateKey !== -1) return { ok: false, problem: { offset: index.duplicateKey, message: 'YAML syntax error: Map keys must be unique' } };
  try {
    const root = new ModelBuilder(doc, index.aliasTargets).build();
    return { ok: true, root };
  } catch (error) {
    if (error instanceof ModelLimitError) return { ok: false, problem: { offset: error.offset, message: error.message } };
    if (error instanceof RangeError) return { ok: false, problem: { offset: 0, message: 'the YAML nests too deeply to analyse' } };
    throw error;
  }
}

interface DocumentIndex {
  /** What each alias refers to: the last node before it with its anchor. */
  aliasTargets: Map<Alias, YamlNode>;
  /** Offset of the first key that repeats an earlier key of its mapping, or -1. */
  duplicateKey: number;
}

/**
 * One walk of the composed document in the library's own order. It replaces two checks of the `yaml`
 * library that are quadratic on hostile files: `Alias.resolve` walks the whole document for every
 * alias, and `uniqueKeys` compares each key with every earlier key of its mapping. Keys are equal as
 * the library compares them: scalars by value (`===`), anything else by identity.
 */
function indexDocument(doc: Document.Parsed): DocumentIndex {
  const anchors = new Map<string, YamlNode>();
  const aliasTargets = new Map<Alias, YamlNode>();
  let duplicateKey = -1;
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node)) {
        const target = anchors.get(node.source);
        if (target !== undefined) aliasTargets.set(node, target);
        return;
      }
      if (node.anchor) anchors.set(node.anchor, node);
      if (!isMap(node)) return;
      const seen = new Set<unknown>();
      for (const { key } of node.items) {
        if (!isScalar(key) || Number.isNaN(key.value)) continue;
        if (seen.has(key.value)) {
          const offset = key.range?.[0] ?? 0;
          if (duplicateKey === -1 || offset < duplicateKey) duplicateKey = offset;
        }
        seen.add(key.value);
      }
    },
  });
  return { aliasTargets, duplicateKey };
}

/**
 * Offset where `[`/`{` nesting first exceeds `limit`, or -1. A cheap pre-scan so hostile nesting is
 * rejected before the recursive parser sees it; quotes and comments are skipped roughly, which can only
 * under-count.
 */
function flowNestingBeyond(text: string, limit: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i;
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--;
    } else if (c === 0x22 || c === 0x27) {
      const close = text.indexOf(text[i] ?? '', i + 1);
      const eol = text.indexOf('\n', i + 1);
      if (close !== -1 && (eol === -1 || close < eol)) i = close;
    } else if (c === 0x23) {
      const eol = text.indexOf('\n', i);
      if (eol === -1) break;
      i = eol;
    }
  }
  return -1;
}

/**
 * Offset of the line where block nesting (indentation levels and `- ` entries) first exceeds `limit`, or
 * -1. The yaml library recurses once per level and runs out of stack at a depth that depends on the
 * stack left, which differs between a cold and a warm process; without this pre-scan the same deep file
 * could get a different finding from the CLI and from the API. Block scalar bodies are skipped; other
 * continuation lines may over-count, so the limit sits well above MAX_DEPTH, which the model enforces
 * exactly.
 */
function blockNestingBeyond(text: string, limit: number): number {
  const open: number[] = [];
  let scalarParent = -1;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    let i = start;
    while (i < end && text.charCodeAt(i) === 0x20) i++;
    const indent = i - start;
    const first = text.charCodeAt(i);
    const content = i < end && first !== 0x23 && first !== 0x0d;
    if (content && (scalarParent === -1 || indent <= scalarParent)) {
      scalarParent = -1;
      while (open.length > 0 && (open.at(-1) ?? 0) >= indent) open.pop();
      open.push(indent);
      while (text.charCodeAt(i) === 0x2d && (i + 1 === end || text.charCodeAt(i + 1) === 0x20)) {
        i++;
        while (i < end && text.charCodeAt(i) === 0x20) i++;
        open.push(i - start);
      }
      if (open.length > limit) return start + indent;
      const line = text.slice(i, end);
      const comment = line.search(/(?:^|[ \t])#/);
      if (BLOCK_SCALAR_HEADER.test(comment === -1 ? line : line.slice(0, comment))) scalarParent = indent;
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return -1;
}

/** A line (without its comment) that ends with a block scalar indicator: `|`, `>-`, `|2+` ... */
const BLOCK_SCALAR_HEADER = /(?:^|[ \t])[|>][-+1-9]{0,2}[ \t\r]*$/;

function firstSentence(message: string): string {
  const line = message.split('\n', 1)[0] ?? message;
  return line.replace(/ at line \d+, column \d+:?$/, '');
}

/**
 * A flow collection ends at its closing bracket; a block collection at the end of its last value (the
 * `yaml` library's own range would also take in trailing comments and blank lines).
 */
function collectionEnd(flow: boolean, rangeEnd: number, last: YNode | undefined): number {
  return flow || last === undefined ? rangeEnd : last.end;
}

const STYLES: Record<string, ScalarStyle> = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single',
  QUOTE_DOUBLE: 'double',
  BLOCK_LITERAL: 'literal',
  BLOCK_FOLDED: 'folded',
};

class ModelBuilder {
  readonly #doc: Document.Parsed;
  readonly #converted = new Map<YamlNode, YNode>();
  readonly #weight = new Map<YNode, number>();
  readonly #inProgress = new Set<YamlNode>();
  readonly #aliasTargets: ReadonlyMap<Alias, YamlNode>;

  constructor(doc: Document.Parsed, aliasTargets: ReadonlyMap<Alias, YamlNode>) {
    this.#doc = doc;
    this.#aliasTargets = aliasTargets;
  }

  build(): YNode {
    const contents = this.#doc.contents;
    if (contents === null) return { kind: 'scalar', start: 0, end: 0, value: null, style: 'plain' };
    const root = this.#convert(contents, 0);
    if ((this.#weight.get(root) ?? 0) > MAX_EXPANDED_NODES) {
      throw new ModelLimitError(`aliases expand the document beyond ${MAX_EXPANDED_NODES} nodes`, 0);
    }
    return root;
  }

  #convert(node: YamlNode, depth: number): YNode {
    if (depth > MAX_DEPTH) throw new ModelLimitError(`the document nests deeper than ${MAX_DEPTH} levels`, node.range?.[0] ?? 0);
    if (isAlias(node)) {
      const target = this.#aliasTargets.get(node);
      if (target === undefined) throw new ModelLimitError(`unknown alias *${node.source}`, node.range?.[0] ?? 0);
      if (this.#inProgress.has(target)) throw new ModelLimitError(`alias *${node.source} refers to itself`, node.range?.[0] ?? 0);
      return this.#convert(target, depth);
    }
    const done = this.#converted.get(node);
    if (done !== undefined) return done;
    this.#inProgress.add(node);
    const result = this.#convertNew(node, depth);
    this.#inProgress.delete(node);
    this.#converted.set(node, result);
    return result;
  }

  #convertNew(node: YamlNode, depth: number): YNode {
    const [start, end] = node.range ?? [0, 0];
    if (isScalar(node)) {
      const v = node.value;
      const value = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null ? v : String(v);
      const scalar: YScalar = { kind: 'scalar', start, end, value, style: STYLES[node.type ?? 'PLAIN'] ?? 'plain' };
      this.#weight.set(scalar, 1);
      return scalar;
    }
    if (isMap(node)) {
      const pairs: YPair[] = [];
      let weight = 1;
      for (const item of node.items) {
        const key = item.key as YamlNode | null;
        const keyNode = key === null ? undefined : this.#convert(key, depth + 1);
        // Complex (non-scalar) keys have no meaning in workflows; such pairs are skipped.
        if (keyNode?.kind !== 'scalar') continue;
        const rawValue = item.value as YamlNode | null;
        const value: YNode =
          rawValue === null
            ? { kind: 'scalar', start: keyNode.end, end: keyNode.end, value: null, style: 'plain' }
            : this.#convert(rawValue, depth + 1);
        weight += 1 + (this.#weight.get(value) ?? 1);
        pairs.push({ key: keyNode, value });
      }
      this.#checkWeight(weight, start);
      const map: YMap = { kind: 'map', start, end: collectionEnd(node.flow === true, end, pairs.at(-1)?.value), pairs };
      this.#weight.set(map, weight);
      return map;
    }
    if (isSeq(node)) {
      const items: YNode[] = [];
      let weight = 1;
      for (const item of node.items) {
        const converted: YNode =
          item === null
            ? { kind: 'scalar', start, end: start, value: null, style: 'plain' }
            : this.#convert(item as YamlNode, depth + 1);
        weight += this.#weight.get(converted) ?? 1;
        items.push(converted);
      }
      this.#checkWeight(weight, start);
      const seq: YSeq = { kind: 'seq', start, end: collectionEnd(node.flow === true, end, items.at(-1)), items };
      this.#weight.set(seq, weight);
      return seq;
    }
    return { kind: 'scalar', start, end, value: null, style: 'plain' };
  }

  #checkWeight(weight: number, offset: number): void {
    if (weight > MAX_EXPANDED_NODES) {
      throw new ModelLimitError(`aliases expand the document beyond ${MAX_EXPANDED_NODES} nodes`, offset);
    }
  }
}
