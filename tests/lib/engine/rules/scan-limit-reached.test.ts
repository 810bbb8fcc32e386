// The engine's limits: files, bytes per file and in all, findings, engine time. Over a limit the scan goes
// up to it, and one INFO scan-limit-reached finding names the limit and what was skipped; counts agree with
// the findings; with the rule disabled the limits still hold, silently.

import { describe, expect, it } from 'vitest';
import { scanRepository } from '../../../../lib/engine/scan.js';
import type { RepositoryFile } from '../../../../lib/engine/types.js';

const RULE = 'scan-limit-reached';
/** A workflow with a few findings (unpinned action, no permissions...). */
const workflow = (n: number) => `on: push\njobs:\n  build${n}:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n      - run: echo ${n}\n`;
const files = (count: number): RepositoryFile[] => Array.from({ length: count }, (_, i) => ({ path: `.github/workflows/w${String(i).padStart(3, '0')}.yml`, text: workflow(i) }));

function limitFinding(result: ReturnType<typeof scanRepository>) {
  return result.findings.filter((f) => f.rule_id === RULE);
}

function expectConsistent(result: ReturnType<typeof scanRepository>) {
  const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
  expect(total).toBe(result.findings.length);
  expect(result.records.map((r) => r.finding)).toEqual(result.findings);
}

describe(RULE, () => {
  it('is silent when no limit is reached', () => {
    const result = scanRepository(files(3), { limits: { maxFiles: 3, maxFileBytes: 10_000, maxTotalBytes: 100_000, maxFindings: 1_000 } });
    expect(limitFinding(result)).toEqual([]);
    expect(result.findings.length).toBe(scanRepository(files(3)).findings.length);
  });

  it('scans the first files in path order and names the ones skipped', () => {
    const all = scanRepository(files(10));
    const result = scanRepository(files(10), { limits: { maxFiles: 4 } });
    const [limit] = limitFinding(result);
    expect(limit).toMatchObject({ severity: 'INFO', file: '.github/workflows', line: 0 });
    expect(limit?.description).toContain('at most 4 files are scanned: 6 files not scanned (.github/workflows/w004.yml');
    expect(limit?.description).toContain('and 1 more');
    const scannedFiles = new Set(result.findings.filter((f) => f.rule_id !== RULE).map((f) => f.file));
    expect([...scannedFiles].sort()).toEqual(files(4).map((f) => f.path));
    expect(result.findings.filter((f) => f.rule_id !== RULE)).toEqual(all.findings.filter((f) => scannedFiles.has(f.file)));
    expectConsistent(result);
  });

  it('skips a file over the per-file size and keeps the total under its limit', () => {
    const big = { path: '.github/workflows/big.yml', text: `${workflow(99)}#${'x'.repeat(5_000)}\n` };
    const result = scanRepository([...files(3), big], { limits: { maxFileBytes: 1_000 } });
    expect(limitFinding(result)[0]?.description).toContain('a file is scanned up to 1000 bytes: 1 file not scanned (.github/workflows/big.yml)');
    expect(result.findings.some((f) => f.file === big.path)).toBe(false);

    const total = scanRepository(files(5), { limits: { maxTotalBytes: workflow(0).length * 2 + 10 } });
    expect(limitFinding(total)[0]?.description).toMatch(/bytes are scanned in all: 3 files not scanned/);
    expectConsistent(total);
  });

  it('keeps the most severe findings within the findings limit, the limit finding included', () => {
    const all = scanRepository(files(20));
    expect(all.findings.length).toBeGreaterThan(30);
    const result = scanRepository(files(20), { limits: { maxFindings: 10 } });
    expect(result.findings).toHaveLength(10);
    expect(limitFinding(result)[0]?.description).toMatch(/at most 10 findings are kept: \d+ less severe findings were dropped/);
    const rank = { HIGH: 0, MEDIUM: 1, LOW: 2, INFO: 3 } as const;
    const worstKept = Math.max(...result.findings.filter((f) => f.rule_id !== RULE).map((f) => rank[f.severity]));
    const kept = new Set(result.records.map((r) => r.fingerprint));
    const droppedBest = Math.min(...all.records.filter((r) => !kept.has(r.fingerprint)).map((r) => rank[r.finding.severity]));
    expect(worstKept).toBeLessThanOrEqual(droppedBest);
    expectConsistent(result);
  });

  it('stops parsing and visiting files at the deadline, on the clock it is given', () => {
    let t = 0;
    const now = () => t++;
    const result = scanRepository(files(10), { limits: { deadline: 3, now } });
    expect(limitFinding(result)[0]?.description).toContain('the engine ran out of time');
    expect(new Set(result.findings.filter((f) => f.rule_id !== RULE).map((f) => f.file)).size).toBeLessThan(10);
    expectConsistent(result);
    // A clock that never passes the deadline scans everything.
    expect(limitFinding(scanRepository(files(10), { limits: { deadline: 10, now: () => 0 } }))).toEqual([]);
  });

  it('can be disabled: the limits still hold, without the finding', () => {
    const result = scanRepository(files(10), { limits: { maxFiles: 2, maxFindings: 5 }, isEnabled: (id) => id !== RULE });
    expect(limitFinding(result)).toEqual([]);
    expect(result.findings.length).toBeLessThanOrEqual(5);
    expectConsistent(result);
  });

  it('bounds a hostile repository: three 500 KB workflows full of findings', () => {
    const step = '      - uses: some/action@main\n        with:\n          x: ${{ github.event.issue.title }}\n      - run: echo "${{ github.event.issue.body }}"\n';
    const hostile = Array.from({ length: 3 }, (_, i) => ({
      path: `.github/workflows/h${i}.yml`,
      text: `on: issues\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n${step.repeat(Math.floor(500_000 / step.length))}`,
    }));
    const result = scanRepository(hostile, { limits: { maxFiles: 300, maxFileBytes: 512 * 1024, maxTotalBytes: 8 * 1024 * 1024, maxFindings: 5_000 } });
    expect(result.findings.length).toBeLessThanOrEqual(5_000);
    expect(limitFinding(result)).toHaveLength(1);
    expect(JSON.stringify(result.findings).length).toBeLessThan(5 * 1024 * 1024);
    expectConsistent(result);
  });
});
