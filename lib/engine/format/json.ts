import type { Report } from '../report.js';

/**
 * `{ findings, counts, suppressed, combinations }`: findings in the API's Finding shape with their line-independent
 * `fingerprint` (what a baseline records), combinations in its Combination shape, and how many findings
 * suppression comments removed.
 */
export function formatJson(report: Report): string {
  const body = {
    findings: report.records.map((r) => ({ ...r.finding, fingerprint: r.fingerprint })),
    counts: report.counts,
    suppressed: report.suppressed,
    combinations: report.combinations,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
