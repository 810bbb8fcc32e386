/**
 * `items.flatMap(fn)` as a plain loop, with the same result (`fn` gets the item, its index and the list; an
 * array it returns is spread one level, anything else is kept as it is).
 *
 * Why not the builtin: on Node 20, `Array.prototype.flatMap` is a builtin the optimizing compiler does not
 * inline, and it takes a generic path for every element and every result (1-2 µs to flatten three jobs' steps,
 * 15-20 times a loop's cost). The engine called it about 40,000 times a pass over the corpus, 21 times for
 * the median workflow, mostly to list a workflow's steps or a job's downloads (docs/performance.md).
 */
export function flatMap<T, U>(items: readonly T[], fn: (item: T, index: number, items: readonly T[]) => U | readonly U[]): U[] {
  const out: U[] = [];
  for (let i = 0; i < items.length; i++) {
    const result = fn(items[i] as T, i, items);
    if (Array.isArray(result)) for (let k = 0; k < result.length; k++) out.push(result[k] as U);
    else out.push(result as U);
  }
  return out;
}
