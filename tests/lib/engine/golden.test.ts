import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GOLDEN_DIR, goldenCases, goldenOutput } from '../../support/golden.js';

/**
 * Golden fixtures (tests/fixtures/golden, see tests/support/golden.ts): `ok/` must stay clean with every rule
 * on, and each `err/` case must give exactly the findings of its `.out`. After an intended change, run
 * `npm run golden:update` and read every changed line before committing it.
 */
const ok = await goldenCases('ok');
const err = await goldenCases('err');

const LINE = /^[^:\n]+:\d+:\d+: (?:HIGH|MEDIUM|LOW|INFO) .+ \[[a-z0-9-]+\]$/;

describe('golden ok/: hardened workflows, actions and Dependabot configs', () => {
  it('has realistic cases to check', () => {
    expect(ok.length).toBeGreaterThanOrEqual(5);
  });

  it.each(ok.map((c) => [c.name, c] as const))('%s produces no finding with every rule on', (_name, c) => {
    expect(c.files.length, 'a case must hold at least one file the engine reads').toBeGreaterThan(0);
    expect(goldenOutput(c.files)).toBe('');
  });
});

describe('golden err/: attacks as they are met, with their expected findings', () => {
  it('has a .out for every case and a case for every .out', () => {
    expect(err.length).toBeGreaterThanOrEqual(12);
    expect(err.filter((c) => !existsSync(c.outPath)).map((c) => c.name)).toEqual([]);
    const names = new Set(err.map((c) => c.name));
    const outs = readdirSync(join(GOLDEN_DIR, 'err')).filter((f) => f.endsWith('.out'));
    expect(outs.filter((f) => !names.has(f.slice(0, -'.out'.length)))).toEqual([]);
  });

  it.each(err.map((c) => [c.name, c] as const))('%s gives exactly its .out', (_name, c) => {
    expect(c.files.length, 'a case must hold at least one file the engine reads').toBeGreaterThan(0);
    const expected = existsSync(c.outPath) ? readFileSync(c.outPath, 'utf8') : '';
    for (const line of expected.split('\n').filter((l) => l !== '')) expect(line).toMatch(LINE);
    expect(expected, `${c.name}.out must list at least one finding`).not.toBe('');
    // Compared line by line, so a failure prints a diff of the findings that changed.
    expect(goldenOutput(c.files).split('\n'), `findings of ${c.name} (npm run golden:update, then review the diff)`).toEqual(expected.split('\n'));
  });
});
