import { describe, expect, it } from 'vitest';
import { ScanCache, ScanMemo, resetScanCaches } from '../../../../lib/engine/model/scan-cache.js';
import { scanRepository } from '../../../../lib/engine/scan.js';

describe('ScanCache', () => {
  it('is a memo by object identity until the caches are reset', () => {
    const cache = new ScanCache<object, number>();
    const a = {};
    const b = {};
    expect(cache.set(a, 1)).toBe(cache);
    expect(cache.get(a)).toBe(1);
    expect(cache.has(a)).toBe(true);
    expect(cache.has(b)).toBe(false);
    expect(cache.get(b)).toBeUndefined();
    resetScanCaches();
    expect(cache.has(a)).toBe(false);
    expect(cache.get(a)).toBeUndefined();
  });

  it('keeps every entry as its first is overwritten and more keys come', () => {
    const cache = new ScanCache<object, number | undefined>();
    const [a, b, c] = [{}, {}, {}];
    cache.set(a, 1).set(a, 2);
    expect(cache.get(a)).toBe(2);
    expect(cache.has(b)).toBe(false);
    cache.set(b, undefined).set(c, 3).set(a, 4);
    expect([cache.get(a), cache.get(b), cache.get(c)]).toEqual([4, undefined, 3]);
    expect(cache.has(b)).toBe(true);
    resetScanCaches();
    expect([cache.has(a), cache.has(b), cache.has(c)]).toEqual([false, false, false]);
    cache.set(c, 5);
    expect([cache.get(a), cache.get(c)]).toEqual([undefined, 5]);
    resetScanCaches();
  });

  it('is emptied when a scan ends', () => {
    const cache = new ScanCache<object, string>();
    const key = {};
    cache.set(key, 'kept until the scan ends');
    scanRepository([{ path: '.github/workflows/ci.yml', text: 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n' }]);
    expect(cache.has(key)).toBe(false);
  });
});

describe('ScanMemo', () => {
  it('is a memo by key, started afresh when full and when a scan ends', () => {
    const memo = new ScanMemo<string, number | null>(2);
    memo.set('a', 1).set('b', null);
    expect(memo.get('a')).toBe(1);
    expect(memo.has('b')).toBe(true);
    expect(memo.get('b')).toBeNull();
    // Full: the third entry starts a new map.
    memo.set('c', 3);
    expect(memo.has('a')).toBe(false);
    expect(memo.get('c')).toBe(3);
    scanRepository([{ path: '.github/workflows/ci.yml', text: 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n' }]);
    expect(memo.has('c')).toBe(false);
  });
});
