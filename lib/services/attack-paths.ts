import type { User } from '../auth.js';
import { database } from '../db/connection.js';
import { attackPathInputs, repositoryComboInputs, type AttackPathCatalog } from '../db/operations.js';
import type { CompactFinding, StoredFinding } from '../db/types.js';
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

export interface RepositoryCombinations {
  combos: Combination[];
  critical_count: number;
  high_count: number;
}

export interface AttackPaths {
  repos: { repo_id: string; full_name: string; html_url: string; combos: Combination[] }[];
  total_combos: number;
  critical_count: number;
  high_count: number;
}

/** The combinations of one repository; 404 when the user does not own it, none when it was never scanned. */
export async function repositoryCombinations(user: User, repositoryId: string): Promise<RepositoryCombinations> {
  const db = await database();
  await enforceReadsRateLimit(db, user.id);
  const findings = await repositoryComboInputs(db, user.id, repositoryId);
  if (findings === null) throw notFound();
  const combos = combinationsOf(findings);
  return { combos, ...countCombinations(combos) };
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
  const totals = { total_combos: 0, critical_count: 0, high_count: 0 };
  for (const [repo_id, full_name, html_url, findings] of inputs) {
    const combos = combinationsOf(findings.map(storedFinding));
    if (combos.length === 0) continue;
    repos.push({ repo_id, full_name, html_url, combos });
    const counts = countCombinations(combos);
    totals.total_combos += combos.length;
    totals.critical_count += counts.critical_count;
    totals.high_count += counts.high_count;
  }
  return { repos, ...totals };
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
