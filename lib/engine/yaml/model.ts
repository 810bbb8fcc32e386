import { ScanCache } from '../model/scan-cache.js';

/**
 * The positioned YAML model the rules read. It is independent of the parser that builds it: every node
 * knows its source range as offsets, and line/column are computed only for nodes that get reported.
 * Aliases resolve to the anchored node itself (the model is a DAG), so expansion costs no memory.
 */
export type YNode = YMap | YSeq | YScalar;

export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal' | 'folded';

export interface YScalar {
  readonly kind: 'scalar';
  /** Offset of the node's first character (for block scalars, the `|` or `>` indicator). */
  readonly start: number;
  readonly end: number;
  /** The resolved value under the YAML 1.2 core schema. */
  readonly value: string | number | boolean | null;
  readonly style: ScalarStyle;
}

export interface YPair {
  readonly key: YScalar;
  /** An empty value (`key:`) is a null scalar positioned after the key. */
  readonly value: YNode;
}

export interface YMap {
  readonly kind: 'map';
  readonly start: number;
  readonly end: number;
  readonly pairs: readonly YPair[];
}

export interface YSeq {
  readonly kind: 'seq';
  readonly start: number;
  readonly end: number;
  readonly items: readonly YNode[];
}

export function isMap(node: YNode | undefined): node is YMap {
  return node?.kind === 'map';
}

export function isSeq(node: YNode | undefined): node is YSeq {
  return node?.kind === 'seq';
}

export function isScalar(node: YNode | undefined): node is YScalar {
  return node?.kind === 'scalar';
}

/** String form of a scalar's value (`null` for an empty value or a non-scalar). */
export function scalarText(node: YNode | undefined): string | null {
  if (node?.kind !== 'scalar' || node.value === null) return null;
  return String(node.value);
}

/** The string form of a scalar key. */
export function keyText(key: YScalar): string {
  return key.value === null ? '' : String(key.value);
}

export function getPair(map: YMap | undefined, key: string): YPair | undefined {
  if (map === undefined) return undefined;
  // By index, not an iterator: before TurboFan optimizes this (the most called reader of the model), each
  // iterator step is a call.
  const pairs = map.pairs;
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i]!;
    // Most keys are strings: compared as they are, without `keyText`'s conversion.
    const value = pair.key.value;
    if (typeof value === 'string' ? value === key : keyText(pair.key) === key) return pair;
  }
  return undefined;
}

export function get(map: YNode | undefined, key: string): YNode | undefined {
  if (map?.kind !== 'map') return undefined;
  return getPair(map, key)?.value;
}

export function getMap(map: YNode | undefined, key: string): YMap | undefined {
  const value = get(map, key);
  return value?.kind === 'map' ? value : undefined;
}

export function getScalar(map: YNode | undefined, key: string): YScalar | undefined {
  const value = get(map, key);
  return value?.kind === 'scalar' ? value : undefined;
}

/** `key: value` string, or null when absent, empty or not a scalar. */
export function getText(map: YNode | undefined, key: string): string | null {
  return scalarText(get(map, key));
}

/** The items of a sequence, a lone scalar as a one-item list, nothing otherwise. */
export function asList(node: YNode | undefined): readonly YNode[] {
  if (node === undefined) return [];
  if (node.kind === 'seq') return node.items;
  if (node.kind === 'scalar' && node.value === null) return [];
  return [node];
}

/** True for YAML `true` and for the strings GitHub treats as true in these places. */
export function isTruthy(node: YNode | undefined): boolean {
  if (node?.kind !== 'scalar') return false;
  if (node.value === true) return true;
  return typeof node.value === 'string' && /^(true|1|yes|on)$/i.test(node.value.trim());
}

/** True for an empty value and the strings GitHub treats as false in these places (`false`, `no`, `0`, `off`). */
export function isFalsyText(text: string): boolean {
  return /^(?:false|no|0|off|)$/i.test(text.trim());
}

/** Every node below (and including) `node`, depth-first, each shared (aliased) node once. */
export function* descendants(node: YNode): Generator<YNode> {
  const seen = new Set<YNode>();
  const stack: YNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === undefined || seen.has(current)) continue;
    seen.add(current);
    yield current;
    if (current.kind === 'map') {
      for (let i = current.pairs.length - 1; i >= 0; i--) {
        const pair = current.pairs[i];
        if (pair === undefined) continue;
        stack.push(pair.value, pair.key);
      }
    } else if (current.kind === 'seq') {
      for (let i = current.items.length - 1; i >= 0; i--) {
        const item = current.items[i];
        if (item !== undefined) stack.push(item);
      }
    }
  }
}

const stringScalarCache = new ScanCache<YNode, readonly YScalar[]>();
const NO_SCALARS: readonly YScalar[] = Object.freeze([]);

/**
 * Every string scalar value below (and including) `node`, keys excluded, shared nodes once, in document
 * order. Memoised per node (the model is immutable): many rules ask for the same subtrees.
 */
export function stringScalars(node: YNode): readonly YScalar[] {
  if (node.kind === 'scalar' && typeof node.value !== 'string') return NO_SCALARS;
  const cached = stringScalarCache.get(node);
  if (cached !== undefined) return cached;
  if (node.kind === 'scalar') {
    // Asked again for the same scalar (a `runs-on` label, a matrix value): one array per node, not per call.
    const one = Object.freeze([node]);
    stringScalarCache.set(node, one);
    return one;
  }
  const out: YScalar[] = [];
  const seen = new Set<YNode>();
  const stack: YNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === undefined || seen.has(current)) continue;
    seen.add(current);
    if (current.kind === 'scalar') {
      if (typeof current.value === 'string') out.push(current);
    } else if (current.kind === 'map') {
      for (let i = current.pairs.length - 1; i >= 0; i--) {
        const pair = current.pairs[i];
        if (pair !== undefined) stack.push(pair.value);
      }
    } else {
      for (let i = current.items.length - 1; i >= 0; i--) {
        const item = current.items[i];
        if (item !== undefined) stack.push(item);
      }
    }
  }
  Object.freeze(out);
  stringScalarCache.set(node, out);
  return out;
}
