/** Output formats: pure functions from a report (or a catalog) to a string. */
import type { Report } from '../report.js';
import type { Severity } from '../types.js';
import { formatGithub } from './github.js';
import { formatJson } from './json.js';
import { formatSarif } from './sarif.js';
import { formatText } from './text.js';

export { formatGithub, escapeData, escapeProperty } from './github.js';
export { formatJson } from './json.js';
export { COMBINATION_RULE_PREFIX, formatSarif, type SarifOptions } from './sarif.js';
export { formatText, type TextOptions } from './text.js';
export { formatKindsJson, formatKindsText, formatRulesJson, formatRulesText } from './catalog.js';

export const REPORT_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface FormatOptions {
  /** Text only: ANSI colours. */
  color: boolean;
  /** SARIF only: `tool.driver.version`. */
  toolVersion: string;
  /** Text and SARIF: where a rule's documentation is (SARIF: an absolute URL). */
  docUrl: (ruleId: string) => string;
  /** Text only: the documentation pointer when no docs URL is configured (default `chainbreaker rules <id>`). */
  textDocs?: (ruleId: string) => string;
  /** SARIF only: where an attack-path kind's documentation is. */
  kindDocUrl?: (kindId: string) => string;
  /** Text only: columns to wrap to. */
  width?: number;
  /** Text only: the severities listed finding by finding (default HIGH and MEDIUM; the others are summarized). */
  listed?: ReadonlySet<Severity>;
  /** Text only: why the exit code is what it is. */
  gate?: string;
  /** Text only: every description in full. */
  verbose?: boolean;
}

/** A documentation URL template (`{id}` replaced by the rule id) as a function. */
export function docUrlFrom(template: string): (ruleId: string) => string {
  return (ruleId) => template.replaceAll('{id}', encodeURIComponent(ruleId));
}

export function formatReport(format: ReportFormat, report: Report, options: FormatOptions): string {
  switch (format) {
    case 'text':
      return formatText(report, { color: options.color, docUrl: options.textDocs, width: options.width, listed: options.listed, gate: options.gate, verbose: options.verbose });
    case 'json':
      return formatJson(report);
    case 'sarif':
      return formatSarif(report, { toolVersion: options.toolVersion, docUrl: options.docUrl, kindDocUrl: options.kindDocUrl });
    case 'github':
      return formatGithub(report);
  }
}
