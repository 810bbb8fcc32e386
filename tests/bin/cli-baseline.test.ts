// The baseline file carries triage decisions (the web client's dismissals) compatibly: --reason/--comment
// write them, a re-run keeps those an existing file records, a file without them reads as before, and one
// with an unknown reason is refused with its path.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main } from '../../bin/cli.js';
import { baselineDecisions, parseBaseline } from '../../lib/cli/baseline.js';
import { cleanup, only, tempDir } from './support.js';

afterAll(cleanup);

async function run(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main({ argv, stdout: { write: (t: string) => (stdout += t), isTTY: false }, stderr: { write: (t: string) => (stderr += t) }, env: {}, cwd });
  return { code, stdout, stderr };
}

const WORKFLOW = `on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: echo a
  b:
    runs-on: ubuntu-latest
    steps:
      - run: echo b
`;

type Entry = { fingerprint: string; file: string; reason?: string; comment?: string };
const entries = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { findings: Entry[] }).findings;

describe('baseline decisions', () => {
  it('--reason and --comment record a decision on every entry; a re-run keeps the decisions already recorded', async () => {
    const repo = tempDir({ '.github/workflows/ci.yml': WORKFLOW });
    const out = join(repo, 'baseline.json');
    const first = await run(['baseline', '.', '-o', 'baseline.json', '--reason', 'accepted_risk', '--comment', 'short jobs', ...only('missing-timeout')], repo);
    expect(first.code).toBe(EXIT.ok);
    expect(entries(out).map((e) => [e.reason, e.comment])).toEqual([
      ['accepted_risk', 'short jobs'],
      ['accepted_risk', 'short jobs'],
    ]);
    // One entry's decision changed by hand (as a download from the web client would carry it), the other dropped.
    const edited = entries(out);
    edited[0] = { ...edited[0]!, reason: 'wont_fix', comment: 'legacy' };
    delete edited[1]!.reason;
    delete edited[1]!.comment;
    writeFileSync(out, JSON.stringify({ version: 1, findings: edited }));
    expect((await run(['baseline', '.', '-o', 'baseline.json', ...only('missing-timeout')], repo)).code).toBe(EXIT.ok);
    expect(entries(out).map((e) => [e.reason, e.comment])).toEqual([
      ['wont_fix', 'legacy'],
      [undefined, undefined],
    ]);
    // The file gates scans as before: nothing new.
    const scan = await run(['scan', '.', '--baseline', 'baseline.json', '--format', 'json', '--fail-on', 'low', ...only('missing-timeout')], repo);
    expect(scan.code).toBe(EXIT.ok);
    expect((JSON.parse(scan.stdout) as { findings: unknown[] }).findings).toEqual([]);
  });

  it('refuses an unknown --reason, and --comment without --reason, as usage errors', async () => {
    const repo = tempDir({ '.github/workflows/ci.yml': WORKFLOW });
    const bad = await run(['baseline', '.', '--reason', 'accepted-risk'], repo);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toContain('--reason must be one of false_positive, accepted_risk, wont_fix');
    expect((await run(['baseline', '.', '--comment', 'x'], repo)).code).toBe(EXIT.usage);
  });

  it('reads a file without decisions as before, and names an unknown reason', () => {
    const plain = JSON.stringify({ version: 1, findings: [{ fingerprint: 'abc', file: 'a.yml', rule_id: 'r' }] });
    expect(parseBaseline(plain, 'b.json').size).toBe(1);
    expect(baselineDecisions(plain, 'b.json').size).toBe(0);
    const decided = JSON.stringify({ version: 1, findings: [{ fingerprint: 'abc', file: 'a.yml', rule_id: 'r', reason: 'false_positive', dismissed_at: '2026-11-28T20:00:00Z' }] });
    expect([...baselineDecisions(decided, 'b.json').values()]).toEqual([{ reason: 'false_positive', dismissed_at: '2026-11-28T20:00:00Z' }]);
    const wrong = JSON.stringify({ version: 1, findings: [{ fingerprint: 'abc', file: 'a.yml', rule_id: 'r', reason: 'meh' }] });
    expect(() => parseBaseline(wrong, 'b.json')).toThrow(/findings\.0\.reason: must be false_positive, accepted_risk or wont_fix/);
  });
});
