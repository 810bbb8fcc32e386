import type { Report } from '../report.js';

/** `{ findings, counts, combinations }`: findings in the API's Finding shape, combinations in its Combination shape. */
export function formatJson(report: Report): string {
  const body = { findings: report.records.map((r) => r.finding), counts: report.counts, combinations: report.combinations };
  return `${JSON.stringify(body, null, 2)}\n`;
}
