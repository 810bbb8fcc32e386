import { scanRepository, type ScanOptions } from '../../lib/engine/scan.js';
import type { Finding, FindingRecord, RepositoryFile } from '../../lib/engine/types.js';

export const WORKFLOW_PATH = '.github/workflows/test.yml';

/** Strips the common indentation of a template literal, so fixtures can be indented with the test code. */
export function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const text = strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]) : ''), '');
  const lines = text.replace(/^\n/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

/** Scans files (a single string is a workflow at WORKFLOW_PATH) with only `ruleId` enabled. */
export function scanWith(ruleId: string, input: string | RepositoryFile[], options: ScanOptions = {}): Finding[] {
  return recordsWith(ruleId, input, options).map((r) => r.finding);
}

export function recordsWith(ruleId: string, input: string | RepositoryFile[], options: ScanOptions = {}): FindingRecord[] {
  const files = typeof input === 'string' ? [{ path: WORKFLOW_PATH, text: input }] : input;
  return scanRepository(files, { ...options, isEnabled: (id) => id === ruleId && (options.isEnabled?.(id) ?? true) }).records;
}

/** `line:column severity` of each finding: compact, and pins what matters in rule tests. */
export function positions(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.line}:${f.column} ${f.severity}`);
}
