import { describe, expect, it } from 'vitest';
import { formatJson } from '../../../../lib/engine/format/index.js';
import { emptyReport, sampleReport } from './fixture.js';

describe('json format', () => {
  it('is { findings, counts, combinations } with findings in the public nine-field shape', () => {
    const report = sampleReport();
    const body = JSON.parse(formatJson(report)) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['findings', 'counts', 'combinations']);
    expect(body.findings).toEqual(report.records.map((r) => r.finding));
    expect(body.counts).toEqual({ HIGH: 3, MEDIUM: 1, LOW: 2, INFO: 1 });
    expect(body.combinations).toEqual(report.combinations);
    // Job binding and fingerprint stay internal.
    expect(JSON.stringify(body)).not.toContain('fingerprint');
  });

  it('keeps empty arrays and zero counts', () => {
    expect(JSON.parse(formatJson(emptyReport()))).toEqual({ findings: [], counts: { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 }, combinations: [] });
  });
});
