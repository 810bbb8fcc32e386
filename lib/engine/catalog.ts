import type { RuleMeta } from './rule.js';
import { RULE_METADATA } from './rule-metadata.generated.js';
import type { Severity, Surface } from './types.js';

// Built from the generated metadata (`npm run gen:rules`), not from the rule set: the catalog, rule
// settings and attack paths need ids and metadata only, and importing every rule's code would cost
// their endpoints tens of milliseconds of cold start. A test keeps the metadata equal to the registry's.

/** A catalog entry exactly as `GET /api/rules` and `chainbreaker rules --format json` show it. */
export interface CatalogRule {
  id: string;
  category: string;
  title: string;
  default_severity: Severity;
  surface: Surface;
  description: string;
  doc_url: string;
  /** Present (true) on hygiene rules: no attack behind them; they run like every rule and never join an attack path. */
  pedantic?: true;
}

export function catalogEntry(rule: { meta: RuleMeta }): CatalogRule {
  const { id, category, title, severity, surface, description } = rule.meta;
  return { id, category, title, default_severity: severity, surface, description, doc_url: `/rules/${id}`, ...(rule.meta.pedantic === true ? { pedantic: true as const } : {}) };
}

/** The static rule catalog, in registry order. */
export const CATALOG: readonly CatalogRule[] = RULE_METADATA.map((meta) => catalogEntry({ meta }));

const BY_ID: ReadonlyMap<string, RuleMeta> = new Map(RULE_METADATA.map((meta) => [meta.id, meta]));

/** Ids of the hygiene (pedantic) rules, see `RuleMeta.pedantic`. */
export const PEDANTIC_RULES: ReadonlySet<string> = new Set(RULE_METADATA.filter((meta) => meta.pedantic === true).map((meta) => meta.id));

export function isKnownRule(id: string): boolean {
  return BY_ID.has(id);
}

/** A rule's metadata (id, category, title, default severity and recommendation, ...), without its code. */
export function ruleMeta(id: string): RuleMeta | undefined {
  return BY_ID.get(id);
}
