import type { Job } from '../model/workflow.js';
import { contextPath } from '../expressions/parse.js';
import { findExpressions } from '../expressions/extract.js';
import { parseExpression } from '../expressions/parse.js';
import { get, isMap, keyText, scalarText, type YNode } from '../yaml/model.js';

/**
 * The literal values a `${{ matrix.<key> }}` can take in a job: the items of `strategy.matrix.<key>`
 * plus the `<key>` of each `include` entry. Null when the matrix is computed (`fromJSON(...)`) or a value
 * is not a plain scalar, so callers can tell "unknown" from "no values".
 */
export function matrixValues(job: Job | null, key: string): string[] | null {
  const matrix = get(job?.strategy, 'matrix');
  if (!isMap(matrix)) return null;
  const values: string[] = [];
  let known = false;
  // Context property names are case-insensitive (`matrix.OS` reads the `os` key).
  const wanted = key.toLowerCase();
  for (const pair of matrix.pairs) {
    const name = keyText(pair.key).toLowerCase();
    if (name === wanted) {
      if (!collect(pair.value, values)) return null;
      known = true;
    } else if (name === 'include') {
      if (pair.value.kind !== 'seq') return null;
      for (const entry of pair.value.items) {
        const value = isMap(entry) ? entry.pairs.find((p) => keyText(p.key).toLowerCase() === wanted)?.value : undefined;
        if (value === undefined) continue;
        if (!collect(value, values)) return null;
        known = true;
      }
    }
  }
  return known ? values : null;
}

/**
 * The literal values a `${{ matrix.<key>.<field> }}` can take: the `<field>` of each mapping listed under
 * `strategy.matrix.<key>` (`job: [{ os: macos-14, target: ... }]`) and of each `include` entry's `<key>`. Null when
 * the matrix is computed, an item is not a mapping, or a value is not a plain scalar.
 */
export function matrixFieldValues(job: Job | null, key: string, field: string): string[] | null {
  const matrix = get(job?.strategy, 'matrix');
  if (!isMap(matrix)) return null;
  const values: string[] = [];
  let known = false;
  const wanted = key.toLowerCase();
  // An item without the field leaves the value empty on its legs: unknown, as a computed one.
  const fieldOf = (item: YNode): boolean | null => {
    if (!isMap(item)) return null;
    const value = item.pairs.find((p) => keyText(p.key).toLowerCase() === field.toLowerCase())?.value;
    if (value === undefined || value.kind !== 'scalar') return null;
    return collect(value, values) ? true : null;
  };
  for (const pair of matrix.pairs) {
    const name = keyText(pair.key).toLowerCase();
    if (name === wanted) {
      if (pair.value.kind !== 'seq') return null;
      for (const item of pair.value.items) {
        const found = fieldOf(item);
        if (found === null) return null;
        known ||= found;
      }
    } else if (name === 'include') {
      if (pair.value.kind !== 'seq') return null;
      for (const entry of pair.value.items) {
        const value = isMap(entry) ? entry.pairs.find((p) => keyText(p.key).toLowerCase() === wanted)?.value : undefined;
        if (value === undefined) continue;
        const found = fieldOf(value);
        if (found === null) return null;
        known ||= found;
      }
    }
  }
  return known ? values : null;
}

function collect(node: YNode, into: string[]): boolean {
  if (node.kind === 'scalar') {
    const text = scalarText(node);
    if (text === null || text.includes('${{')) return false;
    into.push(text);
    return true;
  }
  if (node.kind !== 'seq') return false;
  for (const item of node.items) {
    const text = scalarText(item);
    if (item.kind !== 'scalar' || text === null || text.includes('${{')) return false;
    into.push(text);
  }
  return true;
}

/**
 * Every string a value with `${{ matrix.<key> }}` expressions can become, or null when some expression
 * is not a plain matrix access or its values are unknown. Values without expressions resolve to themselves.
 * Bounded: more than `limit` combinations is treated as unknown.
 */
export function expandMatrix(job: Job | null, text: string, limit = 64): string[] | null {
  const spans = findExpressions(text);
  let results = [''];
  let from = 0;
  for (const span of spans) {
    const expr = span.terminated ? parseExpression(span.source) : null;
    const path = expr === null ? null : contextPath(expr);
    if (path === null || (path.length !== 2 && path.length !== 3) || path[0] !== 'matrix' || path[1] === undefined || path[1] === '*' || path[2] === '*') return null;
    const values = path[2] === undefined ? matrixValues(job, path[1]) : matrixFieldValues(job, path[1], path[2]);
    if (values === null) return null;
    const literal = text.slice(from, span.start);
    const next: string[] = [];
    for (const prefix of results) for (const value of values) next.push(prefix + literal + value);
    if (next.length > limit) return null;
    results = next;
    from = span.end;
  }
  const tail = text.slice(from);
  return results.map((r) => r + tail);
}
