import { CATALOG } from './catalog.js';
import { compareCombinations, findCombinations } from './combinations/detect.js';
import type { Combination } from './combinations/types.js';
import { scanRepository, type ScanLimits } from './scan.js';
import { applySeverities } from './severities.js';
import type { SettingsSnapshot } from './settings/snapshot.js';
import { joinExtraRecords, type UnusedSuppression } from './suppress.js';
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
  /** Its `owner/name` on GitHub when known (`--github`, the checkout's `origin` remote): same-owner actions are first-party. */
  fullName?: string;
  /** Its default branch when known (a checkout's `origin/HEAD`): `ScanOptions.defaultBranch`. */
  defaultBranch?: string;
  /** How its files are reported (default: as they are, prefixed with `name` when several repositories are scanned). */
  display?: (file: string) => string;
  /** Findings found outside the engine (the online audits, lib/online), joined with the engine's before combinations. */
  extraRecords?: readonly FindingRecord[];
}

export interface ReportOptions {
  ruleset?: Ruleset;
  /** Rule ids turned off (`--disable`). */
  disabled?: ReadonlySet<string>;
  /** Each repository's scan limits; `maxEngineMs` is per repository, on `limits.now` (default `Date.now`). */
  limits?: Omit<ScanLimits, 'deadline'> & { maxEngineMs?: number };
  /** Severity overrides per rule id (a team's config). */
  severities?: ReadonlyMap<string, Severity>;
  /** Options per rule id (a team's config; `ScanOptions.ruleOptions`). */
  ruleOptions?: Readonly<Record<string, unknown>>;
  /** The online audits run (`--online`): `ScanOptions.online`. */
  online?: boolean;
}

/** What every output format renders: findings with their fingerprints, counts, and combinations. */
export interface Report {
  /** Sorted per repository (file, line, column, rule id), repositories in the order given. */
  records: FindingRecord[];
  counts: Counts;
  combinations: Combination[];
  /** Findings removed by `# chainbreaker: ignore` comments. */
  suppressed: number;
  /** Suppression comments (or rule ids in them) that matched nothing among the rules that ran. */
  unusedSuppressions: UnusedSuppression[];
  /** Suppression comments naming unknown rule ids. */
  unknownSuppressions: UnusedSuppression[];
  /** Findings left out because the baseline has them (`--baseline`). */
  baselined: number;
  /** Findings left out because they are below `--min-severity`. */
  belowMinimum: number;
}

/**
 * Whether a rule runs and takes part in combinations under the ruleset and the disabled ids. Every rule of
 * the catalog runs by default, hygiene rules included, as in the service (the API contract enables a rule
 * without a stored preference): the CLI, the API and the web client report the same findings, and the text
 * report keeps hygiene noise out of the way by how it presents LOW and INFO findings.
 */
export function enabledRules(options: Pick<ReportOptions, 'ruleset' | 'disabled'>): (ruleId: string) => boolean {
  const owasp = new Set(CATALOG.filter((r) => r.category.startsWith('CICD-SEC-')).map((r) => r.id));
  return (id) => !(options.disabled?.has(id) ?? false) && (options.ruleset !== 'owasp' || owasp.has(id));
}

/**
 * Scans repositories and joins their findings and combinations into one report. Combinations are found
 * per repository. With more than one repository, every `file` (of findings, combinations and their
 * components) is prefixed with the repository's name, so the report says which repository each is from.
 */
export function buildReport(repositories: readonly RepositoryInput[], options: ReportOptions = {}): Report {
  const builder = new ReportBuilder(options, repositories.length > 1);
  for (const repository of repositories) builder.add(repository);
  return builder.finish();
}

/**
 * One repository's part of a report, before it joins the others: its findings (severities overridden, online
 * findings joined), suppressions and combinations, with file names as the repository has them. Plain data (no
 * functions, no class instances), so that a worker thread can send it whole (structured clone).
 */
export interface RepositoryReport {
  /** Sorted (file, line, column, rule id). */
  records: FindingRecord[];
  combinations: Combination[];
  suppressed: number;
  unusedSuppressions: UnusedSuppression[];
  unknownSuppressions: UnusedSuppression[];
}

/**
 * Scans one repository for a report (`ReportBuilder.merge` joins the result): the engine's scan under the
 * options' limits (`maxEngineMs` counts from the call), the extra records, the severity overrides, and the
 * combinations. Depends on nothing but its arguments, so repositories can be scanned in any order or on
 * several threads and merged in their own order afterwards.
 */
export function scanForReport(repository: Omit<RepositoryInput, 'display'>, options: ReportOptions, isEnabled: (ruleId: string) => boolean = enabledRules(options)): RepositoryReport {
  const { maxEngineMs, ...limits } = options.limits ?? {};
  const deadline = maxEngineMs === undefined ? undefined : (limits.now ?? Date.now)() + maxEngineMs;
  const scan = scanRepository(repository.files, {
    ruleset: options.ruleset ?? 'all',
    isEnabled,
    settings: repository.settings,
    ...(repository.fullName === undefined ? {} : { repository: repository.fullName }),
    ...(repository.defaultBranch === undefined ? {} : { defaultBranch: repository.defaultBranch }),
    ...(options.ruleOptions === undefined ? {} : { ruleOptions: options.ruleOptions }),
    ...(options.online === true ? { online: true } : {}),
    limits: { ...limits, ...(deadline === undefined ? {} : { deadline }) },
  });
  if (repository.extraRecords !== undefined && repository.extraRecords.length > 0) {
    const joined = joinExtraRecords(scan, repository.files, repository.extraRecords.filter((r) => isEnabled(r.finding.rule_id)).map((r) => ({ ...r, finding: { ...r.finding } })));
    scan.records = joined.records.sort(compareRecords);
    scan.suppressed = joined.suppressed;
    scan.unusedSuppressions = joined.unusedSuppressions;
  }
  if (options.severities !== undefined) applySeverities(scan.records, options.severities);
  return {
    records: scan.records,
    combinations: findCombinations(scan.records, isEnabled),
    suppressed: scan.suppressed,
    unusedSuppressions: scan.unusedSuppressions,
    unknownSuppressions: scan.unknownSuppressions,
  };
}

/**
 * `buildReport` one repository at a time, for callers that read repositories one by one: only the
 * findings of a scanned repository are kept, so its files (and everything parsed from them) can go before
 * the next is read. `several` says whether files are prefixed with the repository's name (more than one
 * repository in the report), as `buildReport` decides from the count.
 */
export class ReportBuilder {
  readonly #options: ReportOptions;
  readonly #several: boolean;
  readonly #isEnabled: (ruleId: string) => boolean;
  readonly #records: FindingRecord[] = [];
  readonly #combinations: Combination[] = [];
  readonly #unusedSuppressions: UnusedSuppression[] = [];
  readonly #unknownSuppressions: UnusedSuppression[] = [];
  #suppressed = 0;

  constructor(options: ReportOptions, several: boolean) {
    this.#options = options;
    this.#several = several;
    this.#isEnabled = enabledRules(options);
  }

  add(repository: RepositoryInput): void {
    this.merge(repository, scanForReport(repository, this.#options, this.#isEnabled));
  }

  /**
   * Joins one repository's part (`scanForReport`, possibly run on another thread) to the report: its files are
   * prefixed with the repository's name (or shown by its `display`) when the report has several. Parts must be
   * merged in the order of the repositories for the report to be the same whatever scanned them.
   */
  merge(repository: Pick<RepositoryInput, 'name' | 'display'>, part: RepositoryReport): void {
    const prefix = repository.display ?? (this.#several ? (file: string) => prefixed(repository.name, file) : (file: string) => file);
    this.#records.push(...part.records.map((r) => ({ ...r, finding: { ...r.finding, file: prefix(r.finding.file) } })));
    this.#suppressed += part.suppressed;
    this.#unusedSuppressions.push(...part.unusedSuppressions.map((u) => ({ ...u, file: prefix(u.file) })));
    this.#unknownSuppressions.push(...part.unknownSuppressions.map((u) => ({ ...u, file: prefix(u.file) })));
    this.#combinations.push(
      ...part.combinations.map((c) => ({
        ...c,
        file: prefix(c.file),
        components: c.components.map((component) => ({ ...component, finding: { ...component.finding, file: prefix(component.finding.file) } })),
      })),
    );
  }

  finish(): Report {
    const counts = emptyCounts();
    for (const r of this.#records) counts[r.finding.severity]++;
    return {
      records: this.#records,
      counts,
      combinations: this.#combinations.sort(compareCombinations),
      suppressed: this.#suppressed,
      unusedSuppressions: this.#unusedSuppressions,
      unknownSuppressions: this.#unknownSuppressions,
      baselined: 0,
      belowMinimum: 0,
    };
  }
}

/** What `narrowReport` leaves out: findings below a severity, findings a baseline already has. */
export interface Narrowing {
  minSeverity?: Severity;
  /** Keys (`baselineKey`) of the findings recorded in a baseline. */
  baseline?: ReadonlySet<string>;
}

/** A finding's identity in a baseline: its file as reported and its line-independent fingerprint. */
export function baselineKey(record: Pick<FindingRecord, 'fingerprint'> & { finding: Pick<FindingRecord['finding'], 'file'> }): string {
  return `${record.finding.file}\0${record.fingerprint}`;
}

/**
 * The report with only the findings to act on: at or above the minimum severity and not in the
 * baseline. Counts are recomputed; an attack path stays when one of its components is still reported
 * (a chain made only of baselined or hidden findings is not new).
 */
export function narrowReport(report: Report, narrowing: Narrowing): Report {
  const { minSeverity, baseline } = narrowing;
  let baselined = 0;
  let belowMinimum = 0;
  const records = report.records.filter((r) => {
    if (minSeverity !== undefined && severityRank(r.finding.severity) > severityRank(minSeverity)) {
      belowMinimum++;
      return false;
    }
    if (baseline?.has(baselineKey(r)) === true) {
      baselined++;
      return false;
    }
    return true;
  });
  // --min-severity hides findings, never an attack path (a MEDIUM path too); the baseline does when every
  // component of the chain is in it.
  const position = (file: string, line: number, column: number, rule: string) => `${file}\0${line}\0${column}\0${rule}`;
  const fresh = new Set(report.records.filter((r) => baseline?.has(baselineKey(r)) !== true).map((r) => position(r.finding.file, r.finding.line, r.finding.column, r.finding.rule_id)));
  const combinations =
    baseline === undefined ? report.combinations : report.combinations.filter((c) => c.components.some((x) => fresh.has(position(x.finding.file, x.finding.line, x.finding.column, x.rule_id))));
  const counts = emptyCounts();
  for (const r of records) counts[r.finding.severity]++;
  return { ...report, records, counts, combinations, baselined: report.baselined + baselined, belowMinimum: report.belowMinimum + belowMinimum };
}

function prefixed(name: string, file: string): string {
  const base = name.replace(/\\/g, '/').replace(/\/+$/, '');
  return `${base}/${file}`;
}

/** The `--fail-on` threshold, the lowest severity that fails the run (or `none`): a finding or an attack path at or above it fails it. */
export type FailOn = 'CRITICAL' | Severity | 'none';

const GATE_ORDER = ['CRITICAL', ...SEVERITIES] as const;
const gateRank = (s: string) => GATE_ORDER.indexOf(s as (typeof GATE_ORDER)[number]);

/** True when a finding is at or above the threshold (attack paths are counted by `gate`). */
export function failsThreshold(counts: Counts, failOn: FailOn): boolean {
  if (failOn === 'none') return false;
  return SEVERITIES.some((s) => gateRank(s) <= gateRank(failOn) && counts[s] > 0);
}

/**
 * The gate of a run: it fails when an attack path (at its severity: CRITICAL, HIGH or MEDIUM) or a finding is at
 * or above `failOn`. `reason` says why the exit code is what it is, in one sentence.
 */
export function gate(report: Pick<Report, 'counts' | 'combinations'>, failOn: FailOn): { fails: boolean; reason: string } {
  if (failOn === 'none') return { fails: false, reason: 'Exit 0: --fail-on none never fails.' };
  const threshold = `--fail-on ${failOn.toLowerCase()}`;
  const paths = report.combinations.filter((c) => gateRank(c.severity) <= gateRank(failOn));
  const findings = SEVERITIES.filter((s) => gateRank(s) <= gateRank(failOn)).reduce((n, s) => n + report.counts[s], 0);
  const parts = [
    paths.length === 0 ? '' : `${paths.length} attack path${paths.length === 1 ? '' : 's'}`,
    findings === 0 ? '' : `${findings} finding${findings === 1 ? '' : 's'}`,
  ].filter((x) => x !== '');
  if (parts.length === 0) return { fails: false, reason: `Exit 0: no attack path or finding at or above ${threshold}.` };
  return { fails: true, reason: `Exit 1: ${parts.join(' and ')} at or above ${threshold}.` };
}

function compareRecords(a: FindingRecord, b: FindingRecord): number {
  const x = a.finding;
  const y = b.finding;
  return x.file < y.file ? -1 : x.file > y.file ? 1 : x.line - y.line || x.column - y.column || (x.rule_id < y.rule_id ? -1 : x.rule_id > y.rule_id ? 1 : 0);
}
