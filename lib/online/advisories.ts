import { parseRefVersion, versionComment, type RefVersion } from '../engine/analysis/action-version.js';
import { ACTION_ADVISORIES } from '../engine/data/advisories.js';
import { findingFingerprint } from '../engine/fingerprint.js';
import { isFullSha } from '../engine/model/uses.js';
import { findingOf } from '../engine/rule.js';
import { WORKFLOW_RULES } from '../engine/rules/index.js';
import { snapshotMatches, vulnerableWording, type SnapshotMatch } from '../engine/rules/known-vulnerable-action.js';
import type { FindingRecord, RepositoryFile } from '../engine/types.js';
import { repositoryUses, type UsesSite } from './uses.js';

/**
 * `known-vulnerable-action` live: the GitHub Advisory Database (GraphQL `securityVulnerabilities`,
 * ecosystem ACTIONS) asked per action repository, matched against the version each `uses:` resolves to.
 *
 * How it joins the offline rule: the built-in snapshot stays authoritative for the advisories it has (its
 * entries carry what the database does not: malicious commits, compromises where a SHA pin of a genuine
 * release is safe, MEDIUM judgements). The live answer adds the advisories the snapshot does not have
 * (published since, or never copied). A use with such an addition gets one finding that lists both, with
 * the fingerprint, job and position the offline rule gives it, and it replaces the offline finding; a use
 * without one keeps the offline finding as it is. Withdrawn advisories are ignored.
 */

export interface LiveAdvisory {
  ghsaId: string;
  cve: string | null;
  summary: string;
  /** GitHub's severity of the vulnerability in this package. */
  severity: 'LOW' | 'MODERATE' | 'HIGH' | 'CRITICAL';
  permalink: string | null;
  /** `vulnerableVersionRange`: `< 4.0.1`, `>= 2, < 2.3`, `= 1.0.0`, `<= 1.0.8`, `>= 0.0.1`. */
  range: string;
  /** `firstPatchedVersion.identifier`, null when no release fixes it. */
  patched: string | null;
}

/** The cached fact `advisories:owner/repo`: the package's live (not withdrawn) vulnerabilities. */
export interface AdvisoryFact {
  vulnerabilities: LiveAdvisory[];
}

/** Vulnerabilities asked per package in one query; a package with more is not judged live. */
export const MAX_VULNERABILITIES = 100;

const SNAPSHOT_IDS = new Set(ACTION_ADVISORIES.map((a) => a.id.toUpperCase()));
const SEVERITIES = new Set(['LOW', 'MODERATE', 'HIGH', 'CRITICAL']);

/** The GraphQL selection of one package's vulnerabilities (aliased per package by the caller). */
export const VULNERABILITIES_SELECTION = `pageInfo { hasNextPage } nodes { vulnerableVersionRange firstPatchedVersion { identifier } severity advisory { ghsaId summary severity permalink publishedAt withdrawnAt identifiers { type value } } }`;

/** The fact from a `securityVulnerabilities` connection; null when it is not GitHub's shape or is cut (more than one page). */
export function advisoryFact(connection: unknown): AdvisoryFact | null {
  const nodes = field(connection, 'nodes');
  if (!Array.isArray(nodes) || field(field(connection, 'pageInfo'), 'hasNextPage') !== false) return null;
  const vulnerabilities: LiveAdvisory[] = [];
  for (const node of nodes) {
    const advisory = field(node, 'advisory');
    const ghsaId = field(advisory, 'ghsaId');
    const range = field(node, 'vulnerableVersionRange');
    const severity = field(node, 'severity') ?? field(advisory, 'severity');
    if (typeof ghsaId !== 'string' || typeof range !== 'string' || typeof severity !== 'string' || !SEVERITIES.has(severity)) return null;
    if (field(advisory, 'withdrawnAt') !== null && field(advisory, 'withdrawnAt') !== undefined) continue;
    const identifiers = field(advisory, 'identifiers');
    const cve = Array.isArray(identifiers) ? identifiers.find((i) => field(i, 'type') === 'CVE') : undefined;
    const patched = field(field(node, 'firstPatchedVersion'), 'identifier');
    const summary = field(advisory, 'summary');
    const permalink = field(advisory, 'permalink');
    vulnerabilities.push({
      ghsaId: ghsaId.slice(0, 40),
      cve: typeof field(cve, 'value') === 'string' ? String(field(cve, 'value')).slice(0, 40) : null,
      summary: typeof summary === 'string' ? oneLine(summary) : '(no summary)',
      severity: severity as LiveAdvisory['severity'],
      permalink: typeof permalink === 'string' ? permalink.slice(0, 200) : null,
      range: range.slice(0, 200),
      patched: typeof patched === 'string' ? patched.slice(0, 60) : null,
    });
  }
  return { vulnerabilities };
}

/** Advisory text is written by others: one line, bounded, no backticks that would break the finding's code spans. */
function oneLine(text: string): string {
  let flat = '';
  for (const ch of text.slice(0, 1000)) {
    const code = ch.codePointAt(0) ?? 0;
    flat += code < 0x20 || code === 0x7f || ch === '`' ? ' ' : ch;
  }
  flat = flat.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

// ---- Versions and ranges -------------------------------------------------------------------------------

/** A version as ranges compare it: up to four numbers, and a pre-release (which sorts before its release). */
interface Version {
  parts: number[];
  pre: string | null;
}

const VERSION_TEXT = /^v?(\d{1,9})(?:\.(\d{1,9}))?(?:\.(\d{1,9}))?(?:\.(\d{1,9}))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]*)?$/;

export function parseVersionText(text: string): Version | null {
  const match = VERSION_TEXT.exec(text.trim());
  if (match === null) return null;
  return { parts: [match[1], match[2], match[3], match[4]].filter((p): p is string => p !== undefined).map(Number), pre: match[5] ?? null };
}

function compareVersion(a: Version, b: Version): number {
  for (let i = 0; i < 4; i++) {
    const d = (a.parts[i] ?? 0) - (b.parts[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  if (a.pre === b.pre) return 0;
  if (a.pre === null) return 1;
  if (b.pre === null) return -1;
  return a.pre.localeCompare(b.pre, 'en', { numeric: true });
}

type Operator = '<' | '<=' | '>' | '>=' | '=';
interface Constraint {
  op: Operator;
  version: Version;
}

/** `>= 2, < 2.3` as constraints that must all hold; null when the text is not the database's syntax. */
export function parseRange(range: string): Constraint[] | null {
  const constraints: Constraint[] = [];
  for (const part of range.split(',')) {
    const match = /^\s*(<=|>=|<|>|=)?\s*(\S+)\s*$/.exec(part);
    const version = match?.[2] === undefined ? null : parseVersionText(match[2]);
    if (match === null || version === null) return null;
    constraints.push({ op: (match[1] ?? '=') as Operator, version });
  }
  return constraints.length === 0 ? null : constraints;
}

function holds(version: Version, { op, version: bound }: Constraint): boolean {
  const c = compareVersion(version, bound);
  return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : op === '>=' ? c >= 0 : c === 0;
}

/** What a `uses:` runs, as far as versions go. */
export type Resolved =
  /** A release (`4.0.1`, from the tag, a tag at the pinned commit, or the SHA's version comment). */
  | { kind: 'release'; version: string }
  /** A floating tag the tag list could not resolve (`v4`): the newest release of its line. */
  | { kind: 'line'; version: string }
  /** A branch: the newest code, affected only by an advisory no release fixes. */
  | { kind: 'branch' };

/**
 * Whether a resolved reference is in a vulnerable range: a release by the range; a line (`v4`) by its
 * newest possible release (as the offline rule judges floating tags); a branch only when the range has no
 * upper bound. Null when the range cannot be read.
 */
export function inVulnerableRange(resolved: Resolved, range: string): boolean | null {
  const constraints = parseRange(range);
  if (constraints === null) return null;
  if (resolved.kind === 'branch') return constraints.every((c) => c.op === '>' || c.op === '>=');
  const version = parseVersionText(resolved.version);
  if (version === null) return null;
  if (resolved.kind === 'line') {
    const newest = { parts: [...version.parts], pre: null };
    while (newest.parts.length < 4) newest.parts.push(Number.MAX_SAFE_INTEGER);
    return constraints.every((c) => c.op !== '=' && holds(newest, c));
  }
  return constraints.every((c) => holds(version, c));
}

/**
 * The release a tag list says a commit is: the highest full version (`v4.1.2`, not `v4`) among the tags
 * pointing at it; null when none does.
 */
export function releaseAt(tags: readonly (readonly [string, string])[], sha: string): string | null {
  let best: { name: string; version: Version } | null = null;
  for (const [name, commit] of tags) {
    if (commit !== sha) continue;
    const version = parseVersionText(name);
    if (version === null || version.parts.length < 3) continue;
    if (best === null || compareVersion(version, best.version) > 0) best = { name, version };
  }
  return best?.name.replace(/^v/, '') ?? null;
}

// ---- Uses, as the offline rule sees them -----------------------------------------------------------------

/** One use of `owner/repo@ref` in a file (its sub-paths and repeated lines together), as the offline rule groups them. */
export interface VulnerableUse {
  file: string;
  slug: string;
  path: string;
  /** As written (the offline rule's key keeps it so). */
  ref: string;
  /** The version the offline rule judges: a tag's own, a SHA pin's comment. */
  version: RefVersion | null;
  line: number;
  column: number;
  lines: number[];
  /** The job id when every line is in the same job, else null (the offline rule's binding). */
  job: string | null;
}

/**
 * The repository `uses:` of the workflow and action files, grouped per file and `owner/repo@ref` exactly as
 * the offline rule groups them (same node positions, same job binding, same key), so a live finding has the
 * offline finding's fingerprint.
 */
export function collectUses(files: readonly RepositoryFile[], sites: readonly UsesSite[] = repositoryUses(files)): VulnerableUse[] {
  const uses = new Map<string, VulnerableUse & { jobs: Set<string | null> }>();
  for (const { file, job, node, ref } of sites) {
    const key = `${file.path}\u0000${ref.slug}@${ref.ref}`;
    const { line, column } = file.position(node.start);
    const existing = uses.get(key);
    if (existing !== undefined) {
      existing.lines.push(line);
      existing.jobs.add(job);
      continue;
    }
    const version = isFullSha(ref.ref) ? versionComment(file, node) : parseRefVersion(ref.ref);
    uses.set(key, { file: file.path, slug: ref.slug, path: ref.path, ref: ref.ref, version, line, column, lines: [line], job: null, jobs: new Set([job]) });
  }
  return [...uses.values()].map(({ jobs, ...use }) => ({ ...use, job: jobs.size === 1 ? ([...jobs][0] ?? null) : null }));
}

/** A live advisory in the snapshot's shape, for the shared wording. */
function asSnapshotEntry(slug: string, a: LiveAdvisory): SnapshotMatch {
  const severity = a.severity === 'MODERATE' ? 'MEDIUM' : a.severity === 'LOW' ? 'LOW' : undefined;
  return {
    malicious: false,
    advisory: {
      id: a.ghsaId,
      cve: a.cve,
      action: slug,
      source: 'GitHub Advisory Database (live)',
      published: null,
      summary: a.summary,
      ranges: [],
      compromise: false,
      upgrade: a.patched ?? 'no fixed release yet (remove the action or pin a commit you reviewed)',
      ...(severity === undefined ? {} : { severity }),
    },
  };
}

/**
 * The live `known-vulnerable-action` finding of a use, when the database has an advisory for it that the
 * snapshot does not (see the module comment); null otherwise. `resolve` says what the use runs.
 */
export function liveFinding(use: VulnerableUse, fact: AdvisoryFact, resolved: Resolved | null): FindingRecord | null {
  if (resolved === null) return null;
  const added = fact.vulnerabilities.filter((a) => !SNAPSHOT_IDS.has(a.ghsaId.toUpperCase()) && inVulnerableRange(resolved, a.range) === true);
  const unique = [...new Map(added.map((a) => [a.ghsaId, a])).values()];
  if (unique.length === 0) return null;
  const meta = WORKFLOW_RULES.find((r) => r.meta.id === 'known-vulnerable-action')?.meta;
  if (meta === undefined) return null;
  const matched = [...snapshotMatches(use.slug, use.path, use.ref, use.version), ...unique.map((a) => asSnapshotEntry(use.slug, a))];
  const version = resolved.kind === 'branch' ? null : resolved.version;
  const wording = vulnerableWording({ slug: use.slug, path: use.path, ref: use.ref, version: use.version?.normalized ?? version, matched, otherLines: use.lines.slice(1) });
  const finding = findingOf(meta, { file: use.file, line: use.line, column: use.column }, { message: wording.message, recommendation: wording.recommendation, severity: wording.severity });
  // The offline rule's identity: rule, file, job, key `owner/repo@ref`; the first occurrence.
  return { finding, job: use.job, fingerprint: findingFingerprint('known-vulnerable-action', use.file, use.job, `${use.slug}@${use.ref}`) };
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}
