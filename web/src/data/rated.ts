import type { RuleSetting, Severity } from './types.js';

/** Where a rule's severity comes from, when the user set one: the repository's override, else the global setting. */
export interface RatedBy {
  severity: Severity;
  scope: 'repository' | 'global';
}

/** The severities the user set that apply to this repository, by rule id (override over global). */
export function ratedBy(global: readonly RuleSetting[], overrides: readonly RuleSetting[]): Map<string, RatedBy> {
  const out = new Map<string, RatedBy>();
  for (const g of global) if (g.severity !== undefined) out.set(g.rule_id, { severity: g.severity, scope: 'global' });
  for (const o of overrides) if (o.severity !== undefined) out.set(o.rule_id, { severity: o.severity, scope: 'repository' });
  return out;
}
