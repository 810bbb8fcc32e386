import { DISMISSAL_REASONS, type Dismissal, type DismissalReason, type Finding } from './types.js';

/**
 * The CLI's baseline file (`.chainbreaker-baseline.json`, lib/cli/baseline.ts) as the carrier of triage
 * decisions: the web client downloads a repository's dismissed findings as one (with `reason`, `comment`,
 * `dismissed_at` per entry, which `chainbreaker scan --baseline` reads like any baseline), and imports one
 * back as dismissals. Bounded: at most 2 MB of text and 5,000 entries are read.
 */

// Browsers drop a download name's leading dot; commit it as .chainbreaker-baseline.json, or pass it to --baseline as is.
export const BASELINE_NAME = 'chainbreaker-baseline.json';
export const MAX_BASELINE_BYTES = 2 * 1024 * 1024;
export const MAX_BASELINE_ENTRIES = 5000;
const REASONS = new Set<string>(DISMISSAL_REASONS.map((r) => r.value));
const FINGERPRINT = /^[0-9a-f]{6,64}$/;

/** The dismissed findings among `findings`, as a baseline file's text. */
export function baselineOf(findings: readonly Finding[], dismissals: ReadonlyMap<string, Dismissal>): string {
  const entries = findings.flatMap((f) => {
    const decision = f.fingerprint === undefined ? undefined : dismissals.get(f.fingerprint);
    if (decision === undefined) return [];
    return [
      {
        fingerprint: f.fingerprint,
        file: f.file,
        rule_id: f.rule_id,
        line: f.line,
        severity: f.severity,
        reason: decision.reason,
        ...(decision.comment === '' ? {} : { comment: decision.comment }),
        dismissed_at: decision.updated_at,
      },
    ];
  });
  return `${JSON.stringify({ version: 1, tool: 'chainbreaker', findings: entries }, null, 2)}\n`;
}

export interface ImportedDecision {
  fingerprint: string;
  reason: DismissalReason;
  comment: string;
}

/**
 * The decisions a baseline file records; an entry without a reason (a plain `chainbreaker baseline`) counts as
 * an accepted risk, which is what recording it in a baseline says. Throws an Error saying what is wrong.
 */
export function parseBaselineDecisions(text: string): ImportedDecision[] {
  if (text.length > MAX_BASELINE_BYTES) throw new Error('The file is larger than 2 MB; a baseline is far smaller.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('The file is not JSON: choose a baseline written by "chainbreaker baseline" or downloaded here.');
  }
  const file = value as { version?: unknown; findings?: unknown };
  if (typeof value !== 'object' || value === null || file.version !== 1 || !Array.isArray(file.findings)) {
    throw new Error('The file is not a baseline (version 1 with a findings list).');
  }
  if (file.findings.length > MAX_BASELINE_ENTRIES) throw new Error(`The baseline has more than ${MAX_BASELINE_ENTRIES} entries.`);
  const decisions: ImportedDecision[] = [];
  for (const entry of file.findings as unknown[]) {
    const e = entry as { fingerprint?: unknown; reason?: unknown; comment?: unknown };
    if (typeof entry !== 'object' || entry === null || typeof e.fingerprint !== 'string' || !FINGERPRINT.test(e.fingerprint)) continue;
    const reason = typeof e.reason === 'string' && REASONS.has(e.reason) ? (e.reason as DismissalReason) : 'accepted_risk';
    const comment = typeof e.comment === 'string' ? e.comment.slice(0, 1000) : 'Recorded in a baseline file.';
    decisions.push({ fingerprint: e.fingerprint, reason, comment });
  }
  return decisions;
}
