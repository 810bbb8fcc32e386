// The bound on the fixes POST /api/scan returns and stores: a fix over MAX_FIX_BYTES, or past the scan's
// MAX_SCAN_FIX_BYTES, is dropped whole (a cut diff would not apply); the others are kept as they are.

import { describe, expect, it } from 'vitest';
import { boundFixes, MAX_FIX_BYTES, MAX_SCAN_FIX_BYTES } from '../../../lib/services/scan.js';

/** A diff fix whose JSON is exactly `bytes` UTF-8 bytes long. */
function fixOf(bytes: number) {
  const overhead = Buffer.byteLength(JSON.stringify({ safe: true, diff: '' }));
  return { safe: true, diff: 'x'.repeat(bytes - overhead) };
}

describe('boundFixes', () => {
  it('keeps fixes up to MAX_FIX_BYTES and drops a larger one, leaving nulls where they were', () => {
    const small = { safe: false, api: { method: 'PUT' as const, path: '/repos/o/r/vulnerability-alerts' } };
    const atBound = fixOf(MAX_FIX_BYTES);
    expect(boundFixes([small, null, atBound, fixOf(MAX_FIX_BYTES + 1), undefined])).toEqual([small, null, atBound, null, null]);
  });

  it('counts bytes, not characters: a diff of multi-byte text over the bound is dropped', () => {
    const overhead = Buffer.byteLength(JSON.stringify({ safe: true, diff: '' }));
    const wide = { safe: true, diff: 'é'.repeat(Math.ceil((MAX_FIX_BYTES - overhead) / 2) + 1) };
    expect(wide.diff.length).toBeLessThan(MAX_FIX_BYTES);
    expect(boundFixes([wide])).toEqual([null]);
  });

  it('stops at MAX_SCAN_FIX_BYTES for the whole scan, then keeps only what still fits', () => {
    const count = Math.floor(MAX_SCAN_FIX_BYTES / MAX_FIX_BYTES);
    const big = Array.from({ length: count + 1 }, () => fixOf(MAX_FIX_BYTES));
    const tiny = fixOf(100);
    const bounded = boundFixes([...big, tiny]);
    expect(bounded.filter((f) => f !== null)).toHaveLength(count);
    expect(bounded[count]).toBeNull();
    // The room left after the big ones is 0, so even the tiny one is dropped.
    expect(bounded[count + 1]).toBeNull();
    expect(boundFixes([fixOf(100)])).toEqual([fixOf(100)]);
  });
});
