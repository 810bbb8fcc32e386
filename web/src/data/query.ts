/**
 * A view's search, sort, filters and page, kept in the address (`#/<view>?q=…&sort=…`), so a view can be
 * shared as a link and survives a reload. Values read from the address are hostile like any input: each is
 * bounded and, where the view knows its choices, checked against them (an unknown one is the default).
 */

/** The longest search text kept. */
export const MAX_QUERY_LENGTH = 200;

export type QueryState = Readonly<Record<string, string>>;

/** The parameters of the address's hash (`#/path?a=1`), each at most MAX_QUERY_LENGTH characters. */
export function hashParams(hash: string): Record<string, string> {
  const at = hash.indexOf('?');
  const out: Record<string, string> = {};
  if (at < 0) return out;
  for (const [key, value] of new URLSearchParams(hash.slice(at + 1))) {
    if (key.length <= 32 && !(key in out)) out[key] = value.slice(0, MAX_QUERY_LENGTH);
  }
  return out;
}

/** The hash for `path` with the parameters that differ from `defaults` (so the default view has a clean address). */
export function hashWith(path: string, state: QueryState, defaults: QueryState): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state)) {
    if (value !== '' && value !== defaults[key]) params.set(key, value);
  }
  const query = params.toString();
  return `#${path}${query === '' ? '' : `?${query}`}`;
}

/** `value` when it is one of `choices`, else `fallback`. */
export function oneOf<T extends string>(value: string | undefined, choices: readonly T[], fallback: T): T {
  return choices.includes(value as T) ? (value as T) : fallback;
}

/** A 1-based page number from the address: a positive integer, else 1. */
export function pageNumber(value: string | undefined): number {
  return value !== undefined && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

/** The slice of `items` on `page` (clamped to the pages there are), and how many pages there are. */
export function paginate<T>(items: readonly T[], page: number, perPage: number): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  const current = Math.min(Math.max(1, page), pages);
  return { items: items.slice((current - 1) * perPage, current * perPage), page: current, pages };
}

/** Case-insensitive: does any of `fields` contain every word of `query`? */
export function matches(query: string, ...fields: readonly string[]): boolean {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return true;
  const text = fields.join('\n').toLowerCase();
  return words.every((w) => text.includes(w));
}
