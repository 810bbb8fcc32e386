import { SEVERITIES, type AttackPaths, type Combination, type Finding, type Severity } from './types.js';
import { codeUrl } from './links.js';

/**
 * Exports of what a view shows, built in the browser from the data it loaded: CSV (for a spreadsheet) and
 * SARIF 2.1.0 or JSON (for tools). Every string may come from a scanned repository (names, paths, titles
 * quoting workflow text) and is hostile: a CSV cell a spreadsheet would read as a formula (starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`, and every cell is quoted.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: defused against formula injection, quoted, inner quotes doubled. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** Rows to CSV text (RFC 4180: CRLF line ends). */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | boolean | null | undefined)[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export interface RepositoryRow {
  full_name: string;
  private: boolean;
  html_url: string;
  last_scan: string | null;
  counts: Record<Severity, number> | null;
  dismissed: number;
}

export function repositoriesCsv(rows: readonly RepositoryRow[]): string {
  return toCsv(
    ['repository', 'private', 'last_scan', ...SEVERITIES, 'dismissed', 'url'],
    rows.map((r) => [r.full_name, r.private, r.last_scan ?? '', ...SEVERITIES.map((s) => (r.counts ? r.counts[s] : '')), r.dismissed, r.html_url]),
  );
}

export interface FindingRow {
  finding: Finding;
  repository: string;
  htmlUrl: string;
  commitSha: string | undefined;
  status: 'open' | 'dismissed';
}

export function findingsCsv(rows: readonly FindingRow[]): string {
  return toCsv(
    ['repository', 'severity', 'rule', 'title', 'file', 'line', 'column', 'status', 'fingerprint', 'url'],
    rows.map(({ finding: f, repository, htmlUrl, commitSha, status }) => [
      repository,
      f.severity,
      f.rule_id,
      f.title,
      f.file,
      f.line,
      f.column,
      status,
      f.fingerprint ?? '',
      codeUrl(htmlUrl, commitSha, f.file, f.line) ?? '',
    ]),
  );
}

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { HIGH: 'error', MEDIUM: 'warning', LOW: 'note', INFO: 'note' };

/** SARIF 2.1.0 of the findings (one run; each rule's help at `<origin>/rules/<id>`; dismissed ones carry an external suppression, as code scanning reads it). */
export function findingsSarif(rows: readonly FindingRow[], origin: string, toolVersion = '0.1.0'): string {
  const ruleIds = [...new Set(rows.map((r) => r.finding.rule_id))].sort();
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Chainbreaker',
            version: toolVersion,
            informationUri: 'https://github.com/chainbreaker/chainbreaker',
            rules: ruleIds.map((id) => {
              const example = rows.find((r) => r.finding.rule_id === id)?.finding;
              return { id, shortDescription: { text: example?.title ?? id }, helpUri: new URL(`/rules/${encodeURIComponent(id)}`, origin).href };
            }),
          },
        },
        results: rows.map(({ finding: f, repository, status }) => ({
          ruleId: f.rule_id,
          ruleIndex: ruleIds.indexOf(f.rule_id),
          level: SARIF_LEVEL[f.severity],
          message: { text: `${f.title}: ${f.description}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: f.file },
                ...(f.line > 0 ? { region: { startLine: f.line, ...(f.column > 0 ? { startColumn: f.column } : {}) } } : {}),
              },
            },
          ],
          ...(f.fingerprint === undefined ? {} : { partialFingerprints: { chainbreaker: f.fingerprint } }),
          properties: { repository, severity: f.severity, category: f.category },
          ...(status === 'dismissed' ? { suppressions: [{ kind: 'external', status: 'accepted' }] } : {}),
        })),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

export interface PathRow {
  repository: string;
  combo: Combination;
}

export function attackPathsCsv(rows: readonly PathRow[]): string {
  return toCsv(
    ['repository', 'severity', 'kind', 'title', 'file', 'stages', 'break_rule', 'fingerprint'],
    rows.map(({ repository, combo }) => [
      repository,
      combo.severity,
      combo.id,
      combo.title,
      combo.file,
      [...combo.stages].sort((a, b) => a.order - b.order).map((s) => s.rule_id || s.title).join(' > '),
      combo.break_chain_rule,
      combo.fingerprint ?? '',
    ]),
  );
}

/** The attack paths shown, as JSON (the API's shape, one entry per path). */
export function attackPathsJson(rows: readonly PathRow[]): string {
  return `${JSON.stringify({ attack_paths: rows.map(({ repository, combo }) => ({ repository, ...combo })) } satisfies { attack_paths: unknown[] } & Partial<AttackPaths>, null, 2)}\n`;
}

/** Offers `text` as a file download. */
export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
