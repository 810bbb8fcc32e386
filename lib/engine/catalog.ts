import { RULES } from './rules/index.js';
import type { Rule } from './rule.js';
import type { Severity, Surface } from './types.js';

/** A catalog entry exactly as `GET /api/rules` and `chainbreaker rules --format json` show it. */
export interface CatalogRule {
  id: string;
  category: string;
  title: string;
  default_severity: Severity;
  surface: Surface;
  description: string;
  doc_url: string;
}

export function catalogEntry(rule: Rule): CatalogRule {
  const { id, category, title, severity, surface, description } = rule.meta;
  return { id, category, title, default_severity: severity, surface, description, doc_url: `/rules/${id}` };
}

/** The static rule catalog, in registry order. */
export const CATALOG: readonly CatalogRule[] = RULES.map(catalogEntry);

const IDS: ReadonlySet<string> = new Set(RULES.map((r) => r.meta.id));

export function isKnownRule(id: string): boolean {
  return IDS.has(id);
}

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.meta.id === id);
}
