// ReportBuilder in two steps: `scanForReport` scans one repository into plain data (what a worker thread of the
// CLI sends back), `merge` joins the parts in the repositories' order. The report must not depend on which thread
// scanned a repository or in what order the parts were computed, only on the order they are merged in.

import { describe, expect, it } from 'vitest';
import { ReportBuilder, buildReport, scanForReport, type ReportOptions, type RepositoryInput } from '../../../lib/engine/report.js';
import { goldenCases } from '../../support/golden.js';

const cases = await goldenCases('err');
// Several repositories with findings and attack paths, one of them shown under its own name (`display`).
const repositories: RepositoryInput[] = cases.slice(0, 8).map((c, i) => ({
  name: `repos/${c.name}/`,
  files: c.files,
  ...(i === 2 ? { display: (file: string) => `shown/${file}` } : {}),
}));
const options: ReportOptions = { severities: new Map([['missing-timeout', 'MEDIUM']]), limits: { maxFindings: 10_000 } };

describe('scanForReport and ReportBuilder.merge', () => {
  it('has repositories with findings and attack paths to merge', () => {
    const report = buildReport(repositories, options);
    expect(repositories.length).toBeGreaterThanOrEqual(4);
    expect(report.records.length).toBeGreaterThan(10);
    expect(report.combinations.length).toBeGreaterThan(0);
    expect(report.records.some((r) => r.finding.file.startsWith('shown/'))).toBe(true);
  });

  it('parts computed in reverse order and sent through a structured clone merge into the report buildReport makes', () => {
    const expected = buildReport(repositories, options);
    const parts = new Map<number, ReturnType<typeof scanForReport>>();
    for (let i = repositories.length - 1; i >= 0; i--) {
      const { display: _display, ...sendable } = repositories[i]!;
      parts.set(i, structuredClone(scanForReport(structuredClone(sendable), structuredClone(options))));
    }
    const builder = new ReportBuilder(options, true);
    for (const [i, repository] of repositories.entries()) builder.merge(repository, parts.get(i)!);
    const merged = builder.finish();
    expect(JSON.stringify(merged)).toBe(JSON.stringify(expected));
    expect(merged).toEqual(expected);
  });

  it('the merge order is the report order', () => {
    const parts = repositories.map((r) => scanForReport(r, options));
    const inOrder = new ReportBuilder(options, true);
    const reversed = new ReportBuilder(options, true);
    for (const [i, repository] of repositories.entries()) inOrder.merge(repository, parts[i]!);
    for (const [i, repository] of [...repositories.entries()].reverse()) reversed.merge(repository, parts[i]!);
    const files = (builder: ReportBuilder) => [...new Set(builder.finish().records.map((r) => r.finding.file.split('/').slice(0, 2).join('/')))];
    expect(files(inOrder)).toEqual(files(reversed).reverse());
    expect(files(inOrder)[0]).toBe(`repos/${cases[0]!.name}`);
  });
});
