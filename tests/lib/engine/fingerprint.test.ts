import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findingFingerprint, hash53, nodeAnchor } from '../../../lib/engine/fingerprint.js';

// The fingerprint scheme before it hashed the identity piece by piece: the hash of the joined string. Stored
// findings and baselines carry these values, so the two must agree on every input.
function joined(ruleId: string, file: string, job: string | null, anchor: string, occurrence: number): string {
  return hash53(`${ruleId}\0${file}\0${job ?? ''}\0${anchor}\0${occurrence}`);
}

// cyrb53 as first written: one pass over the string and the 53-bit result through Number#toString(16).
function cyrb53(text: string): string {
  let a = 0xdeadbeef;
  let b = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    a = Math.imul(a ^ ch, 2654435761);
    b = Math.imul(b ^ ch, 1597334677);
  }
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return (4294967296 * (2097151 & b) + (a >>> 0)).toString(16).padStart(14, '0');
}

describe('hash53', () => {
  it('agrees with the plain cyrb53 on any input (its hex digits written out one by one)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expect(hash53(text)).toBe(cyrb53(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the published cyrb53 values (14 hex digits)', () => {
    // Reference values of cyrb53 (seed 0) for these inputs, as 53-bit numbers in hex.
    expect(hash53('')).toBe((3338908027751811).toString(16).padStart(14, '0'));
    expect(hash53('a')).toBe((7929297801672961).toString(16).padStart(14, '0'));
    expect(hash53('abc')).toMatch(/^[0-9a-f]{14}$/);
    expect(hash53('abc')).not.toBe(hash53('abd'));
  });
});

describe('findingFingerprint', () => {
  it('is the hash of rule, file, job, anchor and occurrence joined by NUL', () => {
    expect(findingFingerprint('script-injection', '.github/workflows/ci.yml', 'build', 'run: echo ${{ github.head_ref }}', 2)).toBe(
      hash53('script-injection\0.github/workflows/ci.yml\0build\0run: echo ${{ github.head_ref }}\u00002'),
    );
  });

  it('treats a missing job as an empty one and defaults the occurrence to 0', () => {
    expect(findingFingerprint('missing-permissions', 'a.yml', null, 'on: push')).toBe(hash53('missing-permissions\0a.yml\0\0on: push\0' + '0'));
    expect(findingFingerprint('missing-permissions', 'a.yml', null, 'on: push')).toBe(findingFingerprint('missing-permissions', 'a.yml', '', 'on: push', 0));
  });

  it('tells apart identities that differ in one part only', () => {
    const base = findingFingerprint('r', 'f', 'j', 'x', 0);
    expect(findingFingerprint('r', 'f', 'j', 'x', 1)).not.toBe(base);
    expect(findingFingerprint('r', 'f', 'k', 'x', 0)).not.toBe(base);
    expect(findingFingerprint('r', 'g', 'j', 'x', 0)).not.toBe(base);
  });

  it('agrees with the joined-string hash on any input (NULs, astral characters, long anchors)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.option(fc.string(), { nil: null }), fc.string({ maxLength: 300 }), fc.nat(), (rule, file, job, anchor, occurrence) => {
        expect(findingFingerprint(rule, file, job, anchor, occurrence)).toBe(joined(rule, file, job, anchor, occurrence));
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (rule, anchor) => {
        expect(findingFingerprint(rule, '\0', '\0', anchor, 7)).toBe(joined(rule, '\0', '\0', anchor, 7));
      }),
    );
  });

  it('does not carry state from one hash to the next', () => {
    const first = findingFingerprint('r', 'f', 'j', 'anchor', 0);
    hash53('something else entirely');
    findingFingerprint('other', 'file', null, 'a much longer anchor than before', 12);
    expect(findingFingerprint('r', 'f', 'j', 'anchor', 0)).toBe(first);
  });
});

describe('nodeAnchor', () => {
  const collapsed = (text: string, start: number, end: number) => text.slice(start, Math.min(Math.max(end, start + 1), start + 120)).replace(/\s+/g, ' ').trim();

  it('is the first 120 characters with white space collapsed and trimmed, whatever the white space', () => {
    const spaces = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u0085', '\u0001'];
    const text = fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...spaces)), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.nat(50), fc.nat(200), (t, start, length) => {
        expect(nodeAnchor(t, start, start + length)).toBe(collapsed(t, start, start + length));
      }),
      { numRuns: 2000 },
    );
    expect(nodeAnchor('uses: actions/checkout@v3', 6, 25)).toBe('actions/checkout@v3');
    expect(nodeAnchor('run: |\n  echo  hi\n', 5, 19)).toBe('| echo hi');
  });
});
