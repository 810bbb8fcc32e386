import * as v from 'valibot';
import { baselineKey, type Report } from '../engine/report.js';

/*
 * `.chainbreaker-baseline.json`: the findings a team has accepted for now, by fingerprint. A fingerprint is
 * line-independent (rule, file, job, the flagged text): inserting lines above a finding or renaming an
 * unrelated job does not make it new. Line and severity are kept for people reading the file.
 */

export const BASELINE_FILE = '.chainbreaker-baseline.json';

const BaselineSchema = v.object({
  version: v.literal(1, 'must be 1 (a baseline written by chainbreaker baseline)'),
  findings: v.array(
    v.object({
      fingerprint: v.string(),
      file: v.string(),
      rule_id: v.string(),
      line: v.optional(v.number()),
      severity: v.optional(v.string()),
    }),
  ),
});

export class BaselineError extends Error {}

export function formatBaseline(report: Report, toolVersion: string): string {
  const findings = report.records.map((r) => ({ fingerprint: r.fingerprint, file: r.finding.file, rule_id: r.finding.rule_id, line: r.finding.line, severity: r.finding.severity }));
  return `${JSON.stringify({ version: 1, tool: 'chainbreaker', tool_version: toolVersion, findings }, null, 2)}\n`;
}

/** The keys (`baselineKey`) of the findings a baseline file records. */
export function parseBaseline(text: string, name: string): Set<string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BaselineError(`baseline ${name} is not valid JSON (write one with "chainbreaker baseline -o ${name}")`);
  }
  const result = v.safeParse(BaselineSchema, value);
  if (!result.success) {
    const issue = result.issues[0];
    const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    throw new BaselineError(`baseline ${name}: ${path === '' ? '' : `${path}: `}${issue.message} (write one with "chainbreaker baseline -o ${name}")`);
  }
  return new Set(result.output.findings.map((f) => baselineKey({ fingerprint: f.fingerprint, finding: { file: f.file } })));
}
