import { describe, expect, it } from 'vitest';
import { flatMap } from '../../../../lib/engine/model/arrays.js';

describe('flatMap (a loop with Array.prototype.flatMap results)', () => {
  const cases: [unknown[], (x: unknown, i: number, all: readonly unknown[]) => unknown][] = [
    [[], (x) => [x]],
    [[1, 2, 3], (x) => [x, x]],
    [[1, 2, 3], () => []],
    [[1, 2, 3], (x) => x],
    [[[1], [2, [3]]], (x) => x],
    [[1, 2], (x) => [[x], [x, x]]],
    [['a', 'b'], (x, i, all) => [`${String(x)}${i}${all.length}`]],
  ];

  it('gives what the builtin gives: arrays spread one level, other values kept, index and list passed', () => {
    for (const [items, fn] of cases) expect(flatMap(items, fn)).toEqual(items.flatMap(fn));
  });

  it('spreads only one level, and returns a new array', () => {
    const items = [[1], [2]];
    const out = flatMap(items, (x) => [x]);
    expect(out).toEqual([[1], [2]]);
    expect(out[0]).toBe(items[0]);
    expect(out).not.toBe(items);
    expect(flatMap([1, 2], (x) => [x])).not.toEqual([1, 2, 3]);
  });
});
