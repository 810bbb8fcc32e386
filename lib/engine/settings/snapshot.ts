/**
 * The repository-settings snapshot: the code host's own REST response bodies, keyed by area, so an
 * adapter stores what it receives and a user can save one by hand. Fields are typed loosely on purpose:
 * the rules read them defensively, and unknown fields are ignored. The full format is documented in
 * lib/engine/settings/README.md.
 */
export interface SettingsSnapshot {
  repository?: Record<string, unknown> | null;
  branch_protection?: Record<string, unknown> | null;
  branch_rules?: unknown[] | null;
  actions_permissions?: Record<string, unknown> | null;
  workflow_permissions?: Record<string, unknown> | null;
  fork_pr_approval?: Record<string, unknown> | null;
  vulnerability_alerts?: boolean | null;
  runners?: Record<string, unknown> | null;
  hooks?: unknown[] | null;
  codeowners?: boolean | null;
  /** Areas that could not be read, with the reason. */
  unreadable?: Record<string, string>;
}
