import type { Combination } from '../combinations/types.js';
import type { Report } from '../report.js';
import type { UnusedSuppression } from '../suppress.js';
import { SEVERITIES, SETTINGS_FILE, type Finding } from '../types.js';
import { neutralize } from './neutralize.js';

export interface TextOptions {
  /** ANSI colours; the caller decides (off for NO_COLOR, non-TTY output and files). */
  color: boolean;
  /** The absolute URL of a rule's documentation, shown under each finding; none when absent. */
  docUrl?: (ruleId: string) => string;
}

// Hand-written SGR codes rather than util.styleText: that one consults the environment and the stream
// itself, and this module must stay pure.
const SGR = { bold: 1, dim: 2, red: 31, yellow: 33, magenta: 35, cyan: 36 } as const;
type Style = keyof typeof SGR;
type Paint = (text: string, ...styles: Style[]) => string;

const SEVERITY_STYLE: Record<string, Style[]> = {
  CRITICAL: ['bold', 'magenta'],
  HIGH: ['bold', 'red'],
  MEDIUM: ['yellow'],
  LOW: ['cyan'],
  INFO: ['dim'],
};

/**
 * The report for people: findings grouped by file, each with its recommendation and documentation link,
 * the attack paths, then a summary table (attack paths first, then rules by severity) and a summary line.
 * Every string from the repository is neutralized (no control characters reach the terminal).
 */
export function formatText(report: Report, options: TextOptions): string {
  const paint: Paint = (text, ...styles) => (options.color && styles.length > 0 ? `\x1b[${styles.map((s) => SGR[s]).join(';')}m${text}\x1b[0m` : text);
  const severity = (s: string) => paint(s.padEnd(6), ...(SEVERITY_STYLE[s] ?? []));
  const out: string[] = [];

  const groups = new Map<string, Finding[]>();
  for (const { finding } of report.records) {
    const group = groups.get(finding.file);
    if (group === undefined) groups.set(finding.file, [finding]);
    else group.push(finding);
  }
  for (const [file, findings] of groups) {
    out.push(paint(neutralize(file), 'bold'));
    const width = Math.max(...findings.map((f) => position(f).length));
    const indent = ' '.repeat(2 + width + 2 + 6 + 2);
    for (const f of findings) {
      out.push(`  ${position(f).padStart(width)}  ${severity(f.severity)}  ${neutralize(f.description)} ${paint(`[${f.rule_id}]`, 'dim')}`);
      if (f.recommendation !== '') out.push(`${indent}${paint('Fix:', 'bold')} ${neutralize(f.recommendation)}`);
      if (options.docUrl !== undefined) out.push(`${indent}${paint(`Docs: ${options.docUrl(f.rule_id)}`, 'dim')}`);
    }
    out.push('');
  }

  if (report.combinations.length > 0) {
    out.push(paint('Attack paths', 'bold'), '');
    for (const c of report.combinations) out.push(...attackPath(c, paint, severity), '');
  }

  if (report.records.length > 0 || report.combinations.length > 0) out.push(summaryTable(report, paint), '');
  out.push(...suppressionNotes(report.unusedSuppressions));
  out.push(summary(report));
  return `${out.join('\n')}\n`;
}

function position(f: Finding): string {
  return f.line > 0 ? `${f.line}:${f.column}` : '';
}

function location(f: Finding): string {
  return neutralize(f.line > 0 ? `${f.file}:${f.line}` : f.file);
}

function attackPath(c: Combination, paint: Paint, severity: (s: string) => string): string[] {
  const steps = c.stages.map((stage) => {
    const component = c.components.find((x) => x.rule_id === stage.rule_id);
    return component === undefined ? paint(stage.title, 'bold') : `${stage.title} (${location(component.finding)})`;
  });
  return [
    `  ${severity(c.severity)}  ${paint(c.title, 'bold')} ${paint(`[${c.id}]`, 'dim')}`,
    `    ${c.file === SETTINGS_FILE || c.file.endsWith(`/${SETTINGS_FILE}`) ? 'in the repository settings' : `in ${neutralize(c.file)}`}`,
    `    ${steps.join(' -> ')}`,
    `    ${neutralize(c.impact)}`,
    `    Break the chain: ${neutralize(c.break_chain)}`,
  ];
}

/** Rows: each kind of attack path (with its severity), then each rule, with counts per severity. */
function summaryTable(report: Report, paint: Paint): string {
  const paths = new Map<string, { severity: string; count: number }>();
  for (const c of report.combinations) {
    const row = paths.get(c.id) ?? { severity: c.severity, count: 0 };
    row.count++;
    paths.set(c.id, row);
  }
  const rules = new Map<string, Record<string, number>>();
  for (const { finding: f } of report.records) {
    const row = rules.get(f.rule_id) ?? Object.fromEntries(SEVERITIES.map((s) => [s, 0]));
    row[f.severity] = (row[f.severity] ?? 0) + 1;
    rules.set(f.rule_id, row);
  }
  const header = ['', 'CRITICAL', ...SEVERITIES];
  const rows: string[][] = [];
  for (const [id, { severity, count }] of [...paths].sort((a, b) => (a[1].severity === b[1].severity ? a[0].localeCompare(b[0]) : a[1].severity === 'CRITICAL' ? -1 : 1))) {
    rows.push([`attack path ${id}`, ...header.slice(1).map((s) => (s === severity ? String(count) : ''))]);
  }
  const ruleRows = [...rules].sort((a, b) => total(b[1]) - total(a[1]) || a[0].localeCompare(b[0]));
  for (const [id, counts] of ruleRows) rows.push([id, '', ...SEVERITIES.map((s) => (counts[s] === 0 ? '' : String(counts[s])))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  return [paint(line(header.map((h, i) => (i === 0 ? 'SUMMARY' : h))), 'bold'), ...rows.map(line)].join('\n');
}

function total(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

function suppressionNotes(unused: readonly UnusedSuppression[]): string[] {
  if (unused.length === 0) return [];
  const lines = unused.map((u) => `  ${neutralize(u.file)}:${u.line}  ${u.rules === 'all' ? 'ignore (matched no finding)' : `ignore[${u.rules.map(neutralize).join(',')}] (matched no finding)`}`);
  return [`Unused suppression comment${unused.length === 1 ? '' : 's'}:`, ...lines, ''];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function summary(report: Report): string {
  const total = report.records.length;
  const findings =
    total === 0 ? 'No findings' : `${plural(total, 'finding')} (${SEVERITIES.map((s) => `${report.counts[s]} ${s.toLowerCase()}`).join(', ')})`;
  const left = [
    report.suppressed > 0 ? `${report.suppressed} suppressed` : '',
    report.baselined > 0 ? `${report.baselined} in the baseline` : '',
    report.belowMinimum > 0 ? `${report.belowMinimum} below --min-severity` : '',
  ].filter((x) => x !== '');
  const notShown = left.length === 0 ? '' : ` Not shown: ${left.join(', ')}.`;
  if (report.combinations.length === 0) return `${findings}.${notShown}`;
  const critical = report.combinations.filter((c) => c.severity === 'CRITICAL').length;
  return `${findings}; ${plural(report.combinations.length, 'attack path')} (${critical} critical, ${report.combinations.length - critical} high).${notShown}`;
}
