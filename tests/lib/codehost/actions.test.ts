// The bounds' messages are built when lib/codehost/actions.ts loads, on every CLI scan: they group digits by
// hand rather than through `toLocaleString`, which loads ICU's number formatting (docs/performance.md).

import { describe, expect, it } from 'vitest';
import { groupDigits, LISTING_TRUNCATED, MAX_LISTED_ENTRIES } from '../../../lib/codehost/actions.js';

describe('groupDigits', () => {
  it("writes a non-negative integer as toLocaleString('en-US') does", () => {
    const values = [0, 7, 99, 100, 999, 1_000, 9_999, 10_000, 12_345, 100_000, 999_999, 1_000_000, 1_234_567, 987_654_321, 2 ** 31, Number.MAX_SAFE_INTEGER];
    for (const n of values) expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
  });

  it('names the listing bound with its digits grouped', () => {
    expect(MAX_LISTED_ENTRIES).toBe(100_000);
    expect(LISTING_TRUNCATED).toContain('more than 100,000 files and directories');
  });
});
