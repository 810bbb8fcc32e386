import { field, integer, objects, text } from './json.js';
import type { SettingsSnapshot } from './snapshot.js';

/** At most this many environments are read from a snapshot (GitHub pages them 30 by default, 100 at most). */
const MAX_ENVIRONMENTS = 1000;

/** What the settings snapshot says about the protection of the repository's deployment environments. */
export interface EnvironmentProtection {
  /** Lower-case names of the environments whose protection rules require a reviewer. */
  reviewed: ReadonlySet<string>;
  /**
   * True when the snapshot shows that the environment (any case) has no required reviewer: it is listed
   * without one, or the list is complete (`total_count` covers it) and does not name it (GitHub creates an
   * environment a job names on first use, without protection rules). False when the snapshot cannot say.
   */
  isUnreviewed(name: string): boolean;
}

/**
 * The environments (lower-case names: GitHub compares them case-insensitively) whose protection rules
 * require a reviewer, from the optional `environments` area (`GET /repos/{o}/{r}/environments`). A
 * `required_reviewers` rule with an empty `reviewers` list approves nothing and does not count. Empty when
 * the area is absent, unreadable or malformed: then no environment is a gate, as without a snapshot.
 */
export function reviewedEnvironments(snapshot: SettingsSnapshot | undefined): Set<string> {
  return new Set(environmentProtection(snapshot)?.reviewed ?? []);
}

/**
 * The environments area read as facts (see `EnvironmentProtection`), or null when the snapshot has no
 * readable, well-formed `environments` area: then nothing is known about any environment.
 */
export function environmentProtection(snapshot: SettingsSnapshot | undefined): EnvironmentProtection | null {
  // The snapshot may be any JSON a user saved: read it defensively.
  if (field(snapshot, 'unreadable', 'environments') !== undefined) return null;
  const all = objects(snapshot, 'environments', 'environments');
  if (all === undefined) return null;
  const reviewed = new Set<string>();
  const listed = new Set<string>();
  const environments = all.slice(0, MAX_ENVIRONMENTS);
  for (const environment of environments) {
    const name = text(environment, 'name');
    if (name === undefined || name.trim() === '') continue;
    listed.add(name.trim().toLowerCase());
    const rules = objects(environment, 'protection_rules') ?? [];
    const isReviewed = rules.some((rule) => {
      if (text(rule, 'type') !== 'required_reviewers') return false;
      const reviewers = rule.reviewers;
      return !Array.isArray(reviewers) || reviewers.length > 0;
    });
    if (isReviewed) reviewed.add(name.trim().toLowerCase());
  }
  // Complete only when GitHub's count says every environment was listed (a first page is not the list).
  const total = integer(snapshot, 'environments', 'total_count');
  const complete = total !== undefined && total <= environments.length && environments.length === all.length;
  return {
    reviewed,
    isUnreviewed: (name) => {
      const key = name.trim().toLowerCase();
      return !reviewed.has(key) && (listed.has(key) || complete);
    },
  };
}
