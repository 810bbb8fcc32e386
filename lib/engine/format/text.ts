import type { Combination } from '../combinations/types.js';
import type { Report } from '../report.js';
import type { UnusedSuppression } from '../suppress.js';
import { SEVERITIES, SETTINGS_FILE, type Finding, type Severity } from '../types.js';
import { neutralize } from './neutralize.js';
import { words, wrap } from './wrap.js';

export interface TextOptions {
  /** ANSI colours; the caller decides (off for NO_COLOR, non-TTY output and files). */
  color: boolean;
  /**
   * Where a rule's documentation is, shown once per rule: a URL (a configured `docs-url`), or by default the
   * command that prints the documentation shipped with the scanner (`chainbreaker rules <id>`).
   */
  docUrl?: (ruleId: string) => string;
  /** Columns to wrap to (the terminal's width; 80 when the output is not a terminal). */
  width?: number;
  /**
   * The severities listed finding by finding; the others are summarized in one line each (counts per rule).
   * Default: HIGH and MEDIUM. `--verbose` or an explicit `--min-severity` lists every severity reported.
   */
  listed?: ReadonlySet<Severity>;
  /** The exit code's reason, printed last (`gate` of lib/engine/report.ts); none when absent. */
  gate?: string;
  /**
   * Every description in full. Otherwise the first entry of each rule is in full and the rule's other entries
   * take one line each (their location and the start of their description), so a long report stays readable.
   */
  verbose?: boolean;
}

export const DEFAULT_WIDTH = 80;
export const DEFAULT_LISTED: ReadonlySet<Severity> = new Set(['HIGH', 'MEDIUM']);

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
 * The report for people, in a terminal or a CI log: attack paths first (each with its chain and the one fix
 * that breaks it), then the findings by severity and rule. Identical findings (same rule, description and
 * fix) are one entry listing their locations; the fix and the documentation are said once per rule. The
 * severities not in `listed` (LOW and INFO by default) are summarized in one line each. Lines are wrapped
 * to `width` without breaking a code span. Every string from the repository is neutralized (no control
 * characters reach the terminal).
 */
export function formatText(report: Report, options: TextOptions): string {
  const paint: Paint = (text, ...styles) => (options.color && styles.length > 0 ? `\x1b[${styles.map((s) => SGR[s]).join(';')}m${text}\x1b[0m` : text);
  const width = Math.max(40, options.width ?? DEFAULT_WIDTH);
  const listed = options.listed ?? DEFAULT_LISTED;
  const docs = options.docUrl ?? ((id: string) => `chainbreaker rules ${id}`);
  const out: string[] = [];

  if (report.combinations.length > 0) {
    out.push(paint(`Attack paths (${report.combinations.length})`, 'bold'), '');
    for (const c of report.combinations) out.push(...attackPath(c, paint, width), '');
  }

  for (const severity of SEVERITIES) {
    const records = report.records.filter((r) => r.finding.severity === severity);
    if (records.length === 0 || !listed.has(severity)) continue;
    out.push(paint(`${severity} (${records.length})`, ...(SEVERITY_STYLE[severity] ?? [])));
    for (const rule of byRule(records.map((r) => r.finding))) out.push(...ruleEntry(rule, paint, width, docs, options.verbose === true), '');
  }

  const summarized = SEVERITIES.filter((s) => !listed.has(s) && report.counts[s] > 0);
  for (const severity of summarized) out.push(...severityLine(severity, report, paint, width));
  if (summarized.length > 0) out.push('');

  out.push(...suppressionNotes(report.unusedSuppressions, width));
  const notListed = summarized.length === 0 ? '' : ` ${summarized.join(' and ')} findings are counted above; --verbose lists them.`;
  out.push(...wrap(summary(report) + notListed, width, '', ''));
  if (options.gate !== undefined) out.push(...wrap(options.gate, width, '', ''));
  return `${out.join('\n')}\n`;
}

interface RuleGroup {
  ruleId: string;
  title: string;
  count: number;
  /** Findings with the same description and fix, in the order of their first location. */
  entries: { description: string; recommendation: string; findings: Finding[] }[];
}

/** Findings of one severity grouped by rule (most findings first), then by identical description and fix. */
function byRule(findings: readonly Finding[]): RuleGroup[] {
  const rules = new Map<string, RuleGroup>();
  for (const f of findings) {
    let rule = rules.get(f.rule_id);
    if (rule === undefined) rules.set(f.rule_id, (rule = { ruleId: f.rule_id, title: f.title, count: 0, entries: [] }));
    rule.count++;
    const entry = rule.entries.find((e) => e.description === f.description && e.recommendation === f.recommendation);
    if (entry === undefined) rule.entries.push({ description: f.description, recommendation: f.recommendation, findings: [f] });
    else entry.findings.push(f);
  }
  return [...rules.values()].sort((a, b) => b.count - a.count || (a.ruleId < b.ruleId ? -1 : 1));
}

function ruleEntry(rule: RuleGroup, paint: Paint, width: number, docs: (id: string) => string, verbose: boolean): string[] {
  const out = wrap(neutralize(rule.title), width, `${paint(rule.ruleId, 'bold')} (${rule.count}): `, '    ');
  const fixes = new Set(rule.entries.map((e) => e.recommendation));
  const oneFix = fixes.size === 1;
  for (const [i, entry] of rule.entries.entries()) {
    const text = `${locations(entry.findings)}: ${neutralize(entry.description)}`;
    const lines = wrap(text, width, '  - ', '    ');
    // After the rule's first entry, one line each: the reader knows what the rule says by then.
    out.push(...(verbose || i === 0 || lines.length === 1 ? lines : [oneLine(text, width, '  - ')]));
    if (!oneFix && entry.recommendation !== '') out.push(...wrap(neutralize(entry.recommendation), width, `    ${paint('Fix:', 'bold')} `, '      '));
  }
  const [fix] = fixes;
  if (oneFix && fix !== undefined && fix !== '') out.push(...wrap(neutralize(fix), width, `  ${paint('Fix:', 'bold')} `, '    '));
  out.push(...wrap(docs(rule.ruleId), width, `  ${paint('Docs:', 'dim')} `, '    '));
  return out;
}

/** The start of `text` that fits on one line after `prefix`, cut between words (never inside a code span), with `…`. */
function oneLine(text: string, width: number, prefix: string): string {
  let line = prefix;
  for (const word of words(text)) {
    const next = line === prefix ? line + word : `${line} ${word}`;
    if (next.length + 2 > width) return line === prefix ? `${next}` : `${line} …`;
    line = next;
  }
  return line;
}

/** `a.yml:3, 9, 12; b.yml:4`: the locations of identical findings, by file, lines in order. */
function locations(findings: readonly Finding[]): string {
  const files = new Map<string, number[]>();
  for (const f of findings) {
    const lines = files.get(f.file);
    if (lines === undefined) files.set(f.file, f.line > 0 ? [f.line] : []);
    else if (f.line > 0 && !lines.includes(f.line)) lines.push(f.line);
  }
  return [...files]
    .map(([file, lines]) => {
      const name = isSettings(file) ? file.replace(SETTINGS_FILE, 'repository settings') : file;
      return neutralize(lines.length === 0 ? name : `${name}:${lines.sort((a, b) => a - b).join(', ')}`);
    })
    .join('; ');
}

function isSettings(file: string): boolean {
  return file === SETTINGS_FILE || file.endsWith(`/${SETTINGS_FILE}`);
}

/** `LOW  47: unpinned-action 20, persisted-credentials 15, missing-timeout 12`. */
function severityLine(severity: Severity, report: Report, paint: Paint, width: number): string[] {
  const counts = new Map<string, number>();
  for (const { finding } of report.records) if (finding.severity === severity) counts.set(finding.rule_id, (counts.get(finding.rule_id) ?? 0) + 1);
  const rules = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id, n]) => `${id} ${n}`);
  return wrap(rules.join(', '), width, `${paint(severity.padEnd(6), ...(SEVERITY_STYLE[severity] ?? []))} ${String(report.counts[severity]).padStart(3)}: `, '            ');
}

function attackPath(c: Combination, paint: Paint, width: number): string[] {
  const where = isSettings(c.file) ? 'repository settings' : neutralize(c.file);
  const steps = c.stages.map((stage) => {
    const component = c.components.find((x) => x.rule_id === stage.rule_id);
    if (component === undefined) return neutralize(stage.title);
    const f = component.finding;
    const at = isSettings(f.file) ? 'settings' : f.file === c.file ? (f.line > 0 ? `:${f.line}` : '') : `${f.file}${f.line > 0 ? `:${f.line}` : ''}`;
    return at === '' ? neutralize(stage.title) : `${neutralize(stage.title)} (${neutralize(at)})`;
  });
  return [
    ...wrap(`${neutralize(c.title)} [${c.id}]`, width, `${paint(c.severity, ...(SEVERITY_STYLE[c.severity] ?? []))}  `, '    '),
    ...wrap(`${where}: ${steps.join(' -> ')}`, width, '  ', '    '),
    ...wrap(neutralize(c.break_chain), width, `  ${paint('Break the chain:', 'bold')} `, '    '),
  ];
}

function suppressionNotes(unused: readonly UnusedSuppression[], width: number): string[] {
  if (unused.length === 0) return [];
  const lines = unused.flatMap((u) =>
    wrap(`${neutralize(u.file)}:${u.line}  ${u.rules === 'all' ? 'ignore (matched no finding)' : `ignore[${u.rules.map(neutralize).join(',')}] (matched no finding)`}`, width, '  ', '    '),
  );
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
  const medium = report.combinations.filter((c) => c.severity === 'MEDIUM').length;
  const bySeverity = `${critical} critical, ${report.combinations.length - critical - medium} high${medium === 0 ? '' : `, ${medium} medium`}`;
  return `${findings}; ${plural(report.combinations.length, 'attack path')} (${bySeverity}).${notShown}`;
}
