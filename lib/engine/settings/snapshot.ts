/**
 * The repository-settings snapshot: the code host's own REST response bodies, keyed by area, so an
 * adapter stores what it receives and a user can save one by hand. Fields are typed loosely on purpose:
 * the rules read them defensively, and unknown fields are ignored. The full format, with an example and
 * the permission each area needs, is documented in lib/engine/settings/README.md.
 */
export interface SettingsSnapshot {
  /** `GET /repos/{o}/{r}`: `private`, `visibility`, `default_branch`, `security_and_analysis`. */
  repository?: Record<string, unknown> | null;
  /** `GET /repos/{o}/{r}/branches/{default}/protection`; null when the branch has none (404). */
  branch_protection?: Record<string, unknown> | null;
  /** `GET /repos/{o}/{r}/rules/branches/{default}`: the active rulesets' rules for the default branch. */
  branch_rules?: unknown[] | null;
  /**
   * Optional: `GET /repos/{o}/{r}/rulesets/{id}?includes_parents=true` for each `ruleset_id` in
   * `branch_rules`. Only their `bypass_actors` are read (`branch_rules` does not carry them); needed
   * only when rulesets apply to the default branch.
   */
  rulesets?: unknown[] | null;
  /** `GET /repos/{o}/{r}/actions/permissions`: `enabled`, `allowed_actions`, `sha_pinning_required`. */
  actions_permissions?: Record<string, unknown> | null;
  /** `GET /repos/{o}/{r}/actions/permissions/workflow`. */
  workflow_permissions?: Record<string, unknown> | null;
  /** `GET /repos/{o}/{r}/actions/permissions/fork-pr-contributor-approval`; public repositories only. */
  fork_pr_approval?: Record<string, unknown> | null;
  /** `GET /repos/{o}/{r}/vulnerability-alerts`: 204 -> true, 404 -> false. */
  vulnerability_alerts?: boolean | null;
  /** `GET /repos/{o}/{r}/actions/runners`; public repositories only. */
  runners?: Record<string, unknown> | null;
  /** `GET /repos/{o}/{r}/hooks`. */
  hooks?: unknown[] | null;
  /**
   * Optional: `GET /repos/{o}/{r}/environments`. Only `environments[].name` and
   * `environments[].protection_rules[]` (`type: 'required_reviewers'`, `reviewers`) are read: a job
   * deploying to an environment with required reviewers is gated (its injection and checkout findings are
   * LOW); one the area shows without reviewers approves nothing (`total_count` says whether the list is
   * complete). Absent, nothing is gated; no settings rule reads it, so it is never reported as unreadable.
   */
  environments?: Record<string, unknown> | null;
  /** Whether a CODEOWNERS file exists on the default branch. */
  codeowners?: boolean | null;
  /**
   * Areas that could not be read, with the reason (`"403 Resource not accessible by integration"`).
   * Keys are area names (see `SETTINGS_AREAS`); an entry wins over a value of the same area.
   */
  unreadable?: Record<string, string>;
}
