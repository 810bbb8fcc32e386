/**
 * Defensive readers for the snapshot's JSON. A snapshot may be saved by hand or come from an older
 * GitHub Enterprise Server, so no field is trusted to exist or to have its documented type: a value of
 * the wrong type reads as absent, and nothing here throws.
 */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path` below `value`, or undefined when any step is missing or not an object. */
export function field(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

export function flag(value: unknown, ...path: string[]): boolean | undefined {
  const v = field(value, ...path);
  return typeof v === 'boolean' ? v : undefined;
}

export function text(value: unknown, ...path: string[]): string | undefined {
  const v = field(value, ...path);
  return typeof v === 'string' ? v : undefined;
}

export function integer(value: unknown, ...path: string[]): number | undefined {
  const v = field(value, ...path);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The objects of the array at `path` (other items are skipped), or undefined when it is not an array. */
export function objects(value: unknown, ...path: string[]): JsonObject[] | undefined {
  const v = path.length === 0 ? value : field(value, ...path);
  return Array.isArray(v) ? v.filter(isObject) : undefined;
}

/**
 * GitHub's error body (`{"message": "...", "documentation_url": "..."}`), which a snapshot saved by
 * hand may hold where the area's body should be.
 */
export function errorMessage(value: unknown): string | undefined {
  if (!isObject(value) || typeof value.message !== 'string') return undefined;
  return 'documentation_url' in value || 'status' in value ? value.message : undefined;
}

/** `a`, `a and b`, `a, b and c`. */
export function listing(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** `1 ruleset`, `2 rulesets`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
