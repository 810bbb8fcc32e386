import type { Combination } from '../combinations/types.js';
import type { Report } from '../report.js';
import { SETTINGS_FILE, type Finding, type Severity } from '../types.js';
import { neutralize, neutralizeKeepingLines } from './neutralize.js';

/*
 * GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::message`): run the CLI in a
 * workflow step and the findings appear as annotations on the run and, for changed lines, on the diff.
 * Escaping follows the runner's rules (the toolkit's `escapeData` / `escapeProperty`).
 */

const LEVEL: Record<Severity, string> = { HIGH: 'error', MEDIUM: 'warning', LOW: 'notice', INFO: 'notice' };

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function isSettings(file: string): boolean {
  return file === SETTINGS_FILE || file.endsWith(`/${SETTINGS_FILE}`);
}

/** One workflow command; repository strings lose their control characters before the runner's escaping. */
function command(level: string, properties: [string, string | number][], message: string): string {
  const props = properties.map(([k, v]) => `${k}=${escapeProperty(neutralize(String(v)))}`).join(',');
  return `::${level}${props === '' ? '' : ` ${props}`}::${escapeData(neutralizeKeepingLines(message))}`;
}

/** Where an annotation points: a file (and a line when there is one); settings findings point nowhere. */
function place(f: Pick<Finding, 'file' | 'line' | 'column'>): [string, string | number][] {
  if (isSettings(f.file)) return [];
  if (f.line <= 0) return [['file', f.file]];
  return [
    ['file', f.file],
    ['line', f.line],
    ['col', f.column],
  ];
}

function combinationCommand(c: Combination): string {
  const anchor = c.components.find((x) => x.finding.file === c.file)?.finding ?? { file: c.file, line: 0, column: 0 };
  const chain = c.stages
    .map((s) => {
      const f = c.components.find((x) => x.rule_id === s.rule_id)?.finding;
      return f === undefined ? s.title : `${s.title} (${f.line > 0 ? `${f.file}:${f.line}` : f.file})`;
    })
    .join(' -> ');
  return command('error', [...place(anchor), ['title', `${c.severity} attack path: ${c.title} [${c.id}]`]], `${chain}\n${c.impact}\nBreak the chain: ${c.break_chain}`);
}

export function formatGithub(report: Report): string {
  const lines = report.records.map(({ finding: f }) =>
    command(LEVEL[f.severity], [...place(f), ['title', `${f.title} [${f.rule_id}]`]], f.recommendation === '' ? f.description : `${f.description}\n${f.recommendation}`),
  );
  lines.push(...report.combinations.map(combinationCommand));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
