import * as v from 'valibot';
import { baselineKey, type Report } from '../engine/report.js';

/*
 * `.chainbreaker-baseline.json`: the findings a team has accepted for now, by fingerprint. A fingerprint is
 * line-independent (rule, file, job, the flagged text): inserting lines above a finding or renaming an
 * unrelated job does not make it new. Line and severity are kept for people reading the file.
 *
 * An entry may also carry a triage decision, the same the service stores (`PUT /api/repositories/{repo_id}/
 * dismissals/{fingerprint}`): `reason` (false_positive, accepted_risk, wont_fix), `comment` and
 * `dismissed_at`. The web client downloads a repository's decisions as such a file and imports one back;
 * `chainbreaker baseline --reason R [--comment TEXT]` writes them, and a re-run keeps the decisions an
 * existing file at the output path holds for the same findings. All three are optional, so a file without
 * them reads as before, and an older version reads a file with them (unknown keys are ignored).
 */

export const BASELINE_FILE = '.chainbreaker-baseline.json';
export const DISMISSAL_REASONS = ['false_positive', 'accepted_risk', 'wont_fix'] as const;
export type DismissalReason = (typeof DISMISSAL_REASONS)[number];
const MAX_COMMENT = 1000;

const BaselineSchema = v.object({
  version: v.literal(1, 'must be 1 (a baseline written by chainbreaker baseline)'),
  findings: v.array(
    v.object({
      fingerprint: v.string(),
      file: v.string(),
      rule_id: v.string(),
      line: v.optional(v.number()),
      severity: v.optional(v.string()),
      reason: v.optional(v.picklist(DISMISSAL_REASONS, 'must be false_positive, accepted_risk or wont_fix')),
      comment: v.optional(v.pipe(v.string(), v.maxLength(MAX_COMMENT, `must be at most ${MAX_COMMENT} characters`))),
      dismissed_at: v.optional(v.string()),
    }),
  ),
});

/** The triage decision an entry may carry (see above). */
export interface BaselineDecision {
  reason: DismissalReason;
  comment?: string;
  dismissed_at?: string;
}

export class BaselineError extends Error {}

/**
 * The baseline of a report. `decisions` (by `baselineKey`) gives entries their triage decision; `all`, when
 * set, is the decision of every entry without one.
 */
export function formatBaseline(report: Report, toolVersion: string, decisions: { byKey?: ReadonlyMap<string, BaselineDecision>; all?: BaselineDecision } = {}): string {
  const findings = report.records.map((r) => {
    const decision = decisions.byKey?.get(baselineKey(r)) ?? decisions.all;
    return {
      fingerprint: r.fingerprint,
      file: r.finding.file,
      rule_id: r.finding.rule_id,
      line: r.finding.line,
      severity: r.finding.severity,
      ...(decision === undefined ? {} : decisionFields(decision)),
    };
  });
  return `${JSON.stringify({ version: 1, tool: 'chainbreaker', tool_version: toolVersion, findings }, null, 2)}\n`;
}

function decisionFields(decision: BaselineDecision): BaselineDecision {
  return {
    reason: decision.reason,
    ...(decision.comment === undefined || decision.comment === '' ? {} : { comment: decision.comment }),
    ...(decision.dismissed_at === undefined ? {} : { dismissed_at: decision.dismissed_at }),
  };
}

/** The decisions a baseline file records, by `baselineKey` (entries without a reason have none). */
export function baselineDecisions(text: string, name: string): Map<string, BaselineDecision> {
  const decisions = new Map<string, BaselineDecision>();
  for (const f of readBaselineFile(text, name).findings) {
    if (f.reason !== undefined) decisions.set(baselineKey({ fingerprint: f.fingerprint, finding: { file: f.file } }), decisionFields({ reason: f.reason, comment: f.comment, dismissed_at: f.dismissed_at }));
  }
  return decisions;
}

/** The keys (`baselineKey`) of the findings a baseline file records. */
export function parseBaseline(text: string, name: string): Set<string> {
  return new Set(readBaselineFile(text, name).findings.map((f) => baselineKey({ fingerprint: f.fingerprint, finding: { file: f.file } })));
}

function readBaselineFile(text: string, name: string): v.InferOutput<typeof BaselineSchema> {
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
  return result.output;
}
