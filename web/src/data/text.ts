/**
 * Unicode's bidirectional controls (embeddings and overrides, isolates, the implicit marks). Strings from a
 * scanned repository (paths, names, quoted expressions, diffs) are hostile: one of these could make the page
 * show text in another order than it is ("Trojan Source"). Everything the client reads goes through
 * `withoutBidi`, so no view renders one.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** The value with every bidirectional control removed from its strings (object keys included), at any depth. */
export function withoutBidi<T>(value: T): T {
  return strip(value, 0) as T;
}

function strip(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.replace(BIDI_CONTROLS, '');
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => strip(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [strip(key, depth + 1) as string, strip(item, depth + 1)]));
}
