import type { Combination } from '../combinations/types.js';
import type { Report } from '../report.js';
import { SEVERITIES, SETTINGS_FILE, type Finding } from '../types.js';

export interface TextOptions {
  /** ANSI colours; the caller decides (off for NO_COLOR, non-TTY output and files). */
  color: boolean;
}

// Hand-written SGR codes rather than util.styleText: that one consults the environment and the stream
// itself, and this module must stay pure.
const SGR = { bold: 1, dim: 2, red: 31, yellow: 33, magenta: 35, cyan: 36 } as const;
type Style = keyof typeof SGR;

const SEVERITY_STYLE: Record<string, Style[]> = {
  CRITICAL: ['bold', 'magenta'],
  HIGH: ['bold', 'red'],
  MEDIUM: ['yellow'],
  LOW: ['cyan'],
  INFO: ['dim'],
};

/** The report for people: findings grouped by file, attack paths, then a summary line. */
export function formatText(report: Report, options: TextOptions): string {
  const paint = (text: string, ...styles: Style[]) =>
    options.color && styles.length > 0 ? `\x1b[${styles.map((s) => SGR[s]).join(';')}m${text}\x1b[0m` : text;
  const severity = (s: string) => paint(s.padEnd(6), ...(SEVERITY_STYLE[s] ?? []));
  const out: string[] = [];

  const groups = new Map<string, Finding[]>();
  for (const { finding } of report.records) {
    const group = groups.get(finding.file);
    if (group === undefined) groups.set(finding.file, [finding]);
    else group.push(finding);
  }
  for (const [file, findings] of groups) {
    out.push(paint(file, 'bold'));
    const width = Math.max(...findings.map((f) => position(f).length));
    for (const f of findings) {
      out.push(`  ${position(f).padStart(width)}  ${severity(f.severity)}  ${f.description} ${paint(`[${f.rule_id}]`, 'dim')}`);
    }
    out.push('');
  }

  if (report.combinations.length > 0) {
    out.push(paint('Attack paths', 'bold'), '');
    for (const c of report.combinations) out.push(...attackPath(c, paint, severity), '');
  }

  out.push(summary(report));
  return `${out.join('\n')}\n`;
}

function position(f: Finding): string {
  return f.line > 0 ? `${f.line}:${f.column}` : '';
}

function location(f: Finding): string {
  return f.line > 0 ? `${f.file}:${f.line}` : f.file;
}

function attackPath(c: Combination, paint: (text: string, ...styles: Style[]) => string, severity: (s: string) => string): string[] {
  const steps = c.stages.map((stage) => {
    const component = c.components.find((x) => x.rule_id === stage.rule_id);
    return component === undefined ? paint(stage.title, 'bold') : `${stage.title} (${location(component.finding)})`;
  });
  return [
    `  ${severity(c.severity)}  ${paint(c.title, 'bold')} ${paint(`[${c.id}]`, 'dim')}`,
    `    ${c.file === SETTINGS_FILE || c.file.endsWith(`/${SETTINGS_FILE}`) ? 'in the repository settings' : `in ${c.file}`}`,
    `    ${steps.join(' -> ')}`,
    `    ${c.impact}`,
    `    Break the chain: ${c.break_chain}`,
  ];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function summary(report: Report): string {
  const total = report.records.length;
  const findings =
    total === 0 ? 'No findings' : `${plural(total, 'finding')} (${SEVERITIES.map((s) => `${report.counts[s]} ${s.toLowerCase()}`).join(', ')})`;
  if (report.combinations.length === 0) return `${findings}.`;
  const critical = report.combinations.filter((c) => c.severity === 'CRITICAL').length;
  return `${findings}; ${plural(report.combinations.length, 'attack path')} (${critical} critical, ${report.combinations.length - critical} high).`;
}
