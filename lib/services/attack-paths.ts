import type { User } from '../auth.js';
import { database } from '../db/connection.js';
import { attackPathInputs, listDismissals, repositoryComboInputs, type AttackPathCatalog } from '../db/operations.js';
import type { CompactDismissal, CompactFinding, DismissalReason, StoredFinding } from '../db/types.js';
import { hash53 } from '../engine/fingerprint.js';
import { ruleMeta } from '../engine/catalog.js';
import { COMBINATION_KINDS, countCombinations, findCombinations, type Combination } from '../engine/combinations/index.js';
import type { FindingRecord } from '../engine/types.js';
import { notFound } from '../http/errors.js';
import { enforceReadsRateLimit } from './read-limit.js';

/**
 * Toxic combinations from stored findings: each repository's latest scan, under the user's *current*
 * settings. The database functions return only findings of rules enabled now (global preference merged with
 * the repository's override), so a rule turned off after the last scan cannot form or amplify a combination,
 * without a re-scan. Two database round trips per request: the
 * per-user rate limit of expensive reads (`READS_RATE_LIMIT`), then the inputs.
 */

/**
 * What `attack_path_inputs` needs of the combinations catalog, which stays the one source of truth of which
 * rules matter: every kind's AND of OR-groups and all its rules (it returns, per repository, only findings of
 * kinds whose every group has a finding there), and every rule that can take part with its default
 * recommendation (sent back as null when a finding's is the default).
 */
export const COMBINATION_INPUTS: Readonly<AttackPathCatalog> = {
  rules: Object.fromEntries(
    [...new Set(COMBINATION_KINDS.flatMap((kind) => [...kind.requires.flat(), ...kind.amplifiers]))].sort().map((id) => [id, ruleMeta(id)?.recommendation ?? '']),
  ),
  kinds: COMBINATION_KINDS.map((kind) => ({ requires: kind.requires, rules: [...new Set([...kind.requires.flat(), ...kind.amplifiers])] })),
};

/** A combination with its stable identity, to dismiss it by. */
export type IdentifiedCombination = Combination & { fingerprint: string };
export type DismissedCombination = IdentifiedCombination & { dismissal: { reason: DismissalReason; comment: string; updated_at: string } };

export interface RepositoryCombinations {
  combos: IdentifiedCombination[];
  critical_count: number;
  high_count: number;
  /** The combinations the user dismissed; absent when none. */
  dismissed?: DismissedCombination[];
}

export interface AttackPaths {
  /** `commit_sha`: the commit the repository's latest scan read, when the code host said. */
  repos: { repo_id: string; full_name: string; html_url: string; combos: IdentifiedCombination[]; commit_sha?: string }[];
  total_combos: number;
  critical_count: number;
  high_count: number;
  /** The combinations the user dismissed, by repository; absent when none. */
  dismissed?: { repo_id: string; full_name: string; html_url: string; combo: DismissedCombination }[];
}

/** The combinations of one repository; 404 when the user does not own it, none when it was never scanned. */
export async function repositoryCombinations(user: User, repositoryId: string): Promise<RepositoryCombinations> {
  const db = await database();
  await enforceReadsRateLimit(db, user.id);
  const [findings, decisions] = await Promise.all([repositoryComboInputs(db, user.id, repositoryId), listDismissals(db, user.id, repositoryId)]);
  if (findings === null || decisions === null) throw notFound();
  const { combos, dismissed } = triaged(
    findings,
    decisions.dismissals.map((d) => [d.fingerprint, d.kind, d.reason, d.comment, d.updated_at]),
  );
  return { combos, ...countCombinations(combos), ...(dismissed.length === 0 ? {} : { dismissed }) };
}

/** Every repository of the user with at least one combination, by full name, and the totals over them. */
export async function attackPaths(user: User): Promise<AttackPaths> {
  const db = await database();
  await enforceReadsRateLimit(db, user.id);
  return attackPathsOf(await attackPathInputs(db, user.id, COMBINATION_INPUTS));
}

/** The combinations of `attack_path_inputs`' rows (no I/O). */
export function attackPathsOf(inputs: Awaited<ReturnType<typeof attackPathInputs>>): AttackPaths {
  const repos: AttackPaths['repos'] = [];
  const dismissedPaths: NonNullable<AttackPaths['dismissed']> = [];
  const totals = { total_combos: 0, critical_count: 0, high_count: 0 };
  for (const [repo_id, full_name, html_url, findings, decisions, commitSha] of inputs) {
    const { combos, dismissed } = triaged(findings.map(storedFinding), decisions ?? []);
    for (const combo of dismissed) dismissedPaths.push({ repo_id, full_name, html_url, combo });
    if (combos.length === 0) continue;
    repos.push({ repo_id, full_name, html_url, combos, ...(typeof commitSha === 'string' ? { commit_sha: commitSha } : {}) });
    const counts = countCombinations(combos);
    totals.total_combos += combos.length;
    totals.critical_count += counts.critical_count;
    totals.high_count += counts.high_count;
  }
  return { repos, ...totals, ...(dismissedPaths.length === 0 ? {} : { dismissed: dismissedPaths }) };
}

/**
 * The combinations of a repository's findings under its triage decisions: a dismissed finding takes no part
 * (so a path whose entry finding is dismissed is not formed), and a dismissed combination is set apart with
 * its decision.
 */
export function triaged(findings: readonly StoredFinding[], decisions: readonly CompactDismissal[]): { combos: IdentifiedCombination[]; dismissed: DismissedCombination[] } {
  const dismissedFindings = new Set(decisions.filter((d) => d[1] === 'finding').map((d) => d[0]));
  const dismissedPaths = new Map(decisions.filter((d) => d[1] === 'attack_path').map((d) => [d[0], d] as const));
  const kept = dismissedFindings.size === 0 ? findings : findings.filter((f) => !dismissedFindings.has(f.fingerprint));
  const fingerprints = new Map(kept.map((f) => [findingKey(f), f.fingerprint]));
  const combos: IdentifiedCombination[] = [];
  const dismissed: DismissedCombination[] = [];
  for (const combo of combinationsOf(kept)) {
    const identified = { ...combo, fingerprint: combinationFingerprint(combo.id, combo.components.map((c) => fingerprints.get(findingKey(c.finding)) ?? findingKey(c.finding))) };
    const decision = dismissedPaths.get(identified.fingerprint);
    if (decision === undefined) combos.push(identified);
    else dismissed.push({ ...identified, dismissal: { reason: decision[2], comment: decision[3], updated_at: decision[4] } });
  }
  return { combos, dismissed };
}

/**
 * An attack path's identity: its kind and its components' fingerprints (each line-independent), so it stays
 * the same across line shifts and rescans, and a path with other findings is another path.
 */
export function combinationFingerprint(kindId: string, componentFingerprints: readonly string[]): string {
  return `path-${hash53([kindId, ...[...componentFingerprints].sort()].join('\0'))}`;
}

function findingKey(f: { rule_id: string; file: string; line: number; column: number; description: string }): string {
  return `${f.rule_id}\0${f.file}\0${f.line}\0${f.column}\0${f.description}`;
}

/** A compact finding of `attack_path_inputs` with what it leaves out restored from the rule's metadata. */
function storedFinding([file, line, column, severity, rule_id, description, recommendation, job, fingerprint, facts]: CompactFinding): StoredFinding {
  const meta = ruleMeta(rule_id);
  return {
    file,
    line,
    column,
    severity,
    category: meta?.category ?? '',
    rule_id,
    title: meta?.title ?? '',
    description,
    recommendation: recommendation ?? meta?.recommendation ?? '',
    job,
    fingerprint,
    facts: facts ?? null,
  };
}

function combinationsOf(findings: readonly StoredFinding[]): Combination[] {
  // findCombinations shows components in the public nine-field shape, whatever else a record carries.
  const records: FindingRecord[] = findings.map((f) => (f.facts === null || f.facts === undefined ? { finding: f, job: f.job, fingerprint: f.fingerprint } : { finding: f, job: f.job, fingerprint: f.fingerprint, facts: f.facts }));
  // Already filtered by the current settings in the database (see above): every rule given here is enabled.
  return findCombinations(records, () => true);
}
