import type { CatalogRule } from '../catalog.js';
import type { CombinationKind } from '../combinations/types.js';

/*
 * The listings of `chainbreaker rules` and `chainbreaker combinations`. JSON mirrors the API
 * (`GET /api/rules` -> `{ rules }`); text is a table for people.
 */

export function formatRulesJson(rules: readonly CatalogRule[]): string {
  return `${JSON.stringify({ rules }, null, 2)}\n`;
}

export function formatRulesText(rules: readonly CatalogRule[]): string {
  const columns: [string, (r: CatalogRule) => string][] = [
    ['ID', (r) => r.id],
    ['SEVERITY', (r) => r.default_severity],
    ['CATEGORY', (r) => r.category],
    ['SURFACE', (r) => r.surface],
    ['TITLE', (r) => (r.pedantic === true ? `${r.title} (hygiene)` : r.title)],
  ];
  const widths = columns.map(([head, get]) => Math.max(head.length, ...rules.map((r) => get(r).length)));
  const row = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ');
  const lines = [row(columns.map(([head]) => head)), ...rules.map((r) => row(columns.map(([, get]) => get(r))))];
  return `${lines.join('\n')}\n${rules.length} rules.\n`;
}

/** `cannotFire`: ids of kinds that cannot fire under the rules the user turned off. */
export function formatKindsJson(kinds: readonly CombinationKind[], cannotFire: readonly string[]): string {
  return `${JSON.stringify({ kinds, cannot_fire: cannotFire }, null, 2)}\n`;
}

export function formatKindsText(kinds: readonly CombinationKind[], cannotFire: readonly string[]): string {
  const blocked = new Set(cannotFire);
  const lines: string[] = [];
  for (const k of kinds) {
    const requires = k.requires
      .map((group) => group.map((id) => `${id}${k.qualifiers.some((q) => q.rule_id === id) ? ` (${k.qualifiers.find((q) => q.rule_id === id)?.instance})` : ''}`).join(' | '))
      .map((group, _, all) => (all.length > 1 && group.includes(' | ') ? `(${group})` : group))
      .join(' AND ');
    lines.push(`${k.id}  ${k.severity}  ${k.scope} scope${blocked.has(k.id) ? '  (cannot fire: a required rule is disabled)' : ''}`);
    lines.push(`  ${k.title}`);
    lines.push(`  requires:   ${requires}`);
    if (k.amplifiers.length > 0) lines.push(`  amplifiers: ${k.amplifiers.join(', ')}`);
    lines.push(`  breaks at:  ${k.break_chain.map((b) => b.rule_id).join(' or ')}`);
    lines.push(`  impact:     ${k.impact}`);
    lines.push('');
  }
  lines.push(`${kinds.length} kinds of attack path${blocked.size > 0 ? `, ${blocked.size} of which cannot fire with the rules disabled` : ''}.`);
  return `${lines.join('\n')}\n`;
}
