import { describe, expect, it } from 'vitest';
import { formatJson } from '../../../../lib/engine/format/index.js';
import { emptyReport, sampleReport } from './fixture.js';

describe('json format', () => {
  it('is { findings, counts, suppressed, combinations }: the public finding shape with its fingerprint', () => {
    const report = sampleReport();
    const body = JSON.parse(formatJson({ ...report, suppressed: 2 })) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['findings', 'counts', 'suppressed', 'combinations']);
    expect(body.findings).toEqual(report.records.map((r) => ({ ...r.finding, fingerprint: r.fingerprint })));
    expect((body.findings as { fingerprint: string }[]).every((f) => /^\S+$/.test(f.fingerprint))).toBe(true);
    expect(body.counts).toEqual({ HIGH: 3, MEDIUM: 1, LOW: 2, INFO: 1 });
    expect(body.suppressed).toBe(2);
    expect(body.combinations).toEqual(report.combinations);
    // The job binding stays internal.
    expect(JSON.stringify(body.findings)).not.toContain('"job"');
  });

  it('keeps empty arrays and zero counts', () => {
    expect(JSON.parse(formatJson(emptyReport()))).toEqual({ findings: [], counts: { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 }, suppressed: 0, combinations: [] });
  });
});
