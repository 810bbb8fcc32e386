import { describe, expect, it } from 'vitest';
import { shellBranches } from '../../../../lib/engine/analysis/shell-branches.js';

/** The expression shellBranches replaces (quadratic in a line's length), kept here as the reference. */
const REFERENCE = /\bif\b([^\n]*?)\bthen\b([^]*?)\bfi\b|([^\n]*?)(?:\|\||&&)\s*(\{[^}]*\}|exit\b[^\n;]*)/g;
const reference = (text: string) => [...text.matchAll(REFERENCE)].map((m) => ({ at: m.index, end: m.index + m[0].length, condition: m[1] ?? m[3] ?? '', body: m[2] ?? m[4] ?? '' }));

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['if', 'if ', ' then', 'then', 'fi', ' fi', 'elif', 'fifo', '\n', '\n', ' ', '\t', '||', '&&', '|', '&', '{', '}', 'exit', 'exit 0', 'exited', ';', 'x', '_', '[ "$P" = admin ]', 'echo no', '\u00a0', 'thenx'];

describe('shellBranches', () => {
  it('finds an if-then-fi and a command run on a test', () => {
    const script = 'if [ "$PERM" != admin ]; then\n  echo no\n  exit 0\nfi\n[ "$A" = write ] || { echo x; exit 0; }\ntest -n "$B" && exit 1 ; echo done';
    expect(shellBranches(script)).toEqual(reference(script));
    expect(shellBranches(script).map((b) => [b.condition, b.body])).toEqual([
      [' [ "$PERM" != admin ]; ', '\n  echo no\n  exit 0\n'],
      ['[ "$A" = write ] ', '{ echo x; exit 0; }'],
      ['test -n "$B" ', 'exit 1 '],
    ]);
  });

  it('negative: no branch in a script without `then` on the line of its `if`, a `fi`, or a command after `||`', () => {
    const script = 'if [ -n "$X" ]\nthen\n  echo yes\nfi\nmake || true\nfoo && bar\nif x; then echo unterminated';
    expect(shellBranches(script)).toEqual([]);
    expect(reference(script)).toEqual([]);
  });

  it('gives what the regular expression gives on generated scripts', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const length = Math.floor(next() * 40);
      let script = '';
      for (let i = 0; i < length; i++) script += PIECES[Math.floor(next() * PIECES.length)];
      expect(shellBranches(script), `seed ${seed}: ${JSON.stringify(script)}`).toEqual(reference(script));
    }
  });

  it('reads a 200 KB script of long lines with many `if`s, `||` and `&&` (work linear in its length)', () => {
    const line = `${'if x || y && z '.repeat(400)}\n`;
    const script = `${line.repeat(30)}if [ "$P" != admin ]; then exit 0; fi\n${'a'.repeat(20000)} || exit 0`;
    expect(script.length).toBeGreaterThan(200_000);
    const found = shellBranches(script);
    expect(found.map((b) => b.body)).toEqual([' exit 0; ', 'exit 0']);
    expect(found[1]?.condition).toBe(`${'a'.repeat(20000)} `);
  });
});
