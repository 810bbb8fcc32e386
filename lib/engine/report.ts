import { CATALOG } from './catalog.js';
import { compareCombinations, findCombinations } from './combinations/detect.js';
import type { Combination } from './combinations/types.js';
import { scanRepository, type ScanLimits } from './scan.js';
import type { SettingsSnapshot } from './settings/snapshot.js';
import { SEVERITIES, emptyCounts, severityRank, type Counts, type FindingRecord, type RepositoryFile, type Ruleset, type Severity } from './types.js';

/**
 * One repository to scan, from whatever source read it (a local checkout today; the code host's API
 * later): its files, the settings snapshot when there is one, and the name it is reported under.
 */
export interface RepositoryInput {
  /** How the user named the repository (a path as given, `owner/repo`); prefixes files when several are scanned. */
  name: string;
  files: readonly RepositoryFile[];
  settings?: SettingsSnapshot;
}

export interface ReportOptions {
  ruleset?: Ruleset;
  /** Rule ids turned off (`--disable`). */
  disabled?: ReadonlySet<string>;
  /** Each repository's scan limits; `maxEngineMs` is per repository, on `limits.now` (default `Date.now`). */
  limits?: Omit<ScanLimits, 'deadline'> & { maxEngineMs?: number };
}

/** What every output format renders: findings with their fingerprints, counts, and combinations. */
export interface Report {
  /** Sorted per repository (file, line, column, rule id), repositories in the order given. */
  records: FindingRecord[];
  counts: Counts;
  combinations: Combination[];
}

/** Whether a rule runs and takes part in combinations under the ruleset and the disabled ids. */
export function enabledRules(options: ReportOptions): (ruleId: string) => boolean {
  const owasp = new Set(CATALOG.filter((r) => r.category.startsWith('CICD-SEC-')).map((r) => r.id));
  return (id) => !(options.disabled?.has(id) ?? false) && (options.ruleset !== 'owasp' || owasp.has(id));
}

/**
 * Scans repositories and joins their findings and combinations into one report. Combinations are found
 * per repository. With more than one repository, every `file` (of findings, combinations and their
 * components) is prefixed with the repository's name, so the report says which repository each is from.
 */
export function buildReport(repositories: readonly RepositoryInput[], options: ReportOptions = {}): Report {
  const isEnabled = enabledRules(options);
  const records: FindingRecord[] = [];
  const combinations: Combination[] = [];
  for (const repository of repositories) {
    const { maxEngineMs, ...limits } = options.limits ?? {};
    const deadline = maxEngineMs === undefined ? undefined : (limits.now ?? Date.now)() + maxEngineMs;
    const scan = scanRepository(repository.files, {
      ruleset: options.ruleset ?? 'all',
      isEnabled,
      settings: repository.settings,
      limits: { ...limits, ...(deadline === undefined ? {} : { deadline }) },
    });
    const found = findCombinations(scan.records, isEnabled);
    const prefix = repositories.length > 1 ? (file: string) => prefixed(repository.name, file) : (file: string) => file;
    records.push(...scan.records.map((r) => ({ ...r, finding: { ...r.finding, file: prefix(r.finding.file) } })));
    combinations.push(
      ...found.map((c) => ({
        ...c,
        file: prefix(c.file),
        components: c.components.map((component) => ({ ...component, finding: { ...component.finding, file: prefix(component.finding.file) } })),
      })),
    );
  }
  const counts = emptyCounts();
  for (const r of records) counts[r.finding.severity]++;
  return { records, counts, combinations: combinations.sort(compareCombinations) };
}

function prefixed(name: string, file: string): string {
  const base = name.replace(/\\/g, '/').replace(/\/+$/, '');
  return `${base}/${file}`;
}

/** `--fail-on`: the lowest severity that fails the run, or `none`. */
export type FailOn = Severity | 'none';

/** True when a finding is at or above the threshold. Combinations never count. */
export function failsThreshold(counts: Counts, failOn: FailOn): boolean {
  if (failOn === 'none') return false;
  return SEVERITIES.some((s) => severityRank(s) <= severityRank(failOn) && counts[s] > 0);
}
