import type { FindingRecord, Severity } from './types.js';

// In a module of its own (types only) so that the service applies a team's severities without loading the engine.

/**
 * A team's severity per rule (the CLI's `rules.<id>.severity`, the service's rule settings): every finding of
 * such a rule is re-rated to it, in place, before the attack paths are found and the findings counted and
 * gated. Returns how many findings changed severity.
 */
export function applySeverities(records: readonly FindingRecord[], severities: ReadonlyMap<string, Severity>): number {
  if (severities.size === 0) return 0;
  let changed = 0;
  for (const r of records) {
    const severity = severities.get(r.finding.rule_id);
    if (severity !== undefined && severity !== r.finding.severity) {
      r.finding.severity = severity;
      changed++;
    }
  }
  return changed;
}
