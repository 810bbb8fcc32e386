import { describe, expect, it } from 'vitest';
import { baselineOf, parseBaselineDecisions } from '../../web/src/data/baseline.js';
import type { Dismissal, Finding } from '../../web/src/data/types.js';

const finding = (fingerprint: string, rule_id = 'script-injection'): Finding => ({
  file: '.github/workflows/ci.yml',
  line: 3,
  column: 1,
  severity: 'HIGH',
  category: 'x',
  rule_id,
  title: 't',
  description: 'd',
  recommendation: 'r',
  fingerprint,
});
const dismissal = (fingerprint: string, comment = ''): Dismissal => ({
  fingerprint,
  kind: 'finding',
  reason: 'false_positive',
  comment,
  dismissed_by: 'u',
  created_at: '2026-11-28T20:00:00Z',
  updated_at: '2026-11-28T20:00:00Z',
});

describe('baseline files in the web client', () => {
  it('writes only the dismissed findings, with their decision, and reads them back', () => {
    const text = baselineOf([finding('aaaaaa11'), finding('bbbbbb22')], new Map([['bbbbbb22', dismissal('bbbbbb22', 'test only')]]));
    const file = JSON.parse(text) as { version: number; findings: Record<string, unknown>[] };
    expect(file.version).toBe(1);
    expect(file.findings).toEqual([
      { fingerprint: 'bbbbbb22', file: '.github/workflows/ci.yml', rule_id: 'script-injection', line: 3, severity: 'HIGH', reason: 'false_positive', comment: 'test only', dismissed_at: '2026-11-28T20:00:00Z' },
    ]);
    expect(parseBaselineDecisions(text)).toEqual([{ fingerprint: 'bbbbbb22', reason: 'false_positive', comment: 'test only' }]);
  });

  it('reads a plain CLI baseline as accepted risks, skips malformed entries, and refuses what is not a baseline', () => {
    const plain = JSON.stringify({ version: 1, findings: [{ fingerprint: 'cccccc33', file: 'a', rule_id: 'r' }, { fingerprint: '../x' }, null, { fingerprint: 'dddddd44', reason: 'nope' }] });
    expect(parseBaselineDecisions(plain).map((d) => [d.fingerprint, d.reason])).toEqual([
      ['cccccc33', 'accepted_risk'],
      ['dddddd44', 'accepted_risk'],
    ]);
    expect(() => parseBaselineDecisions('{')).toThrow(/not JSON/);
    expect(() => parseBaselineDecisions('{"version":2,"findings":[]}')).toThrow(/not a baseline/);
    expect(() => parseBaselineDecisions(JSON.stringify({ version: 1, findings: Array.from({ length: 5001 }, () => ({})) }))).toThrow(/more than 5000/);
  });
});
