import { field, objects, text } from './json.js';
import type { SettingsSnapshot } from './snapshot.js';

/** At most this many environments are read from a snapshot (GitHub pages them 30 by default, 100 at most). */
const MAX_ENVIRONMENTS = 1000;

/**
 * The environments (lower-case names: GitHub compares them case-insensitively) whose protection rules
 * require a reviewer, from the optional `environments` area (`GET /repos/{o}/{r}/environments`). A
 * `required_reviewers` rule with an empty `reviewers` list approves nothing and does not count. Empty when
 * the area is absent, unreadable or malformed: then no environment is a gate, as without a snapshot.
 */
export function reviewedEnvironments(snapshot: SettingsSnapshot | undefined): Set<string> {
  const names = new Set<string>();
  // The snapshot may be any JSON a user saved: read it defensively.
  if (field(snapshot, 'unreadable', 'environments') !== undefined) return names;
  for (const environment of (objects(snapshot, 'environments', 'environments') ?? []).slice(0, MAX_ENVIRONMENTS)) {
    const name = text(environment, 'name');
    if (name === undefined || name.trim() === '') continue;
    const rules = objects(environment, 'protection_rules') ?? [];
    const reviewed = rules.some((rule) => {
      if (text(rule, 'type') !== 'required_reviewers') return false;
      const reviewers = rule.reviewers;
      return !Array.isArray(reviewers) || reviewers.length > 0;
    });
    if (reviewed) names.add(name.trim().toLowerCase());
  }
  return names;
}
