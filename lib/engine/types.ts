/** Severity of a finding, highest first. The keys of `counts`. */
export const SEVERITIES = ['HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export type Severity = (typeof SEVERITIES)[number];

export type Surface = 'workflow' | 'repo-settings';
export type Ruleset = 'all' | 'owasp';

/** A finding exactly as the API and the CLI's JSON output show it (nine fields, in this order). */
export interface Finding {
  file: string;
  line: number;
  column: number;
  severity: Severity;
  category: string;
  rule_id: string;
  title: string;
  description: string;
  recommendation: string;
}

/**
 * A finding with what the engine knows beside the public shape: the job it is bound to (null for
 * workflow-level facts, which bind to every job of the file, and for files without jobs) and a
 * fingerprint that does not change when lines move.
 */
export interface FindingRecord {
  finding: Finding;
  job: string | null;
  fingerprint: string;
  /**
   * What the run model established about the finding, as short tags the attack paths check (sorted, distinct):
   * `reach:anyone`, `exec`, `holds:secrets`, `run:<occasions>` ... Absent on findings that state no such facts
   * (hygiene rules, settings).
   */
  facts?: string[];
}

export type Counts = Record<Severity, number>;

/** One file of a repository, path relative to the repository root with forward slashes. */
export interface RepositoryFile {
  path: string;
  text: string;
  /**
   * Set when the file could not be read completely (for example a blob the code host truncated): the
   * engine reports it as `invalid-workflow` with this reason instead of analysing partial text.
   */
  unreadable?: string;
  /**
   * Set when the code host left the file out at one of its bounds (too many action definitions, a listing
   * that stopped): `text` is empty and the engine names it in its `scan-limit-reached` finding with this
   * reason instead of scanning it. The path may be a pattern (`**\/action.yml`) when no single file is meant.
   */
  skipped?: string;
}

/** File of the pseudo-path used by findings about repository settings. */
export const SETTINGS_FILE = '<repository settings>';

export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** The milder (less severe) of two severities: a finding's own ceiling and the policy's, for example. */
export function milder(a: Severity, b: Severity): Severity {
  return severityRank(a) >= severityRank(b) ? a : b;
}

export function emptyCounts(): Counts {
  return { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
}
