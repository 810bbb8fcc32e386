// The data layer's view of what it stores and returns. Shapes are the JSON the SQL functions in
// supabase/migrations build, field for field (snake_case, as the API serves them). Findings are the engine's
// own type (a type-only import: nothing of the engine loads at run time), so values flow without conversion.

import type { ApiFix } from '../engine/fixes/apply.js';
import type { Finding, Ruleset, Severity } from '../engine/types.js';

export type { Finding, Ruleset, Severity };

/** A finding's fix as stored with it (`findings.fix`): a workflow diff, or a settings finding's GitHub call. */
export type StoredFix = ApiFix;

/** A public finding with its fix, when it has one (no `fix` key otherwise). */
export type FindingWithFix = Finding & { fix?: StoredFix };

/** A finding as stored with its scan: what combinations need beyond the public fields. */
export interface StoredFinding extends Finding {
  /** Id of the job the finding is bound to; null for workflow-level or repository-settings findings. */
  job: string | null;
  /** Stable identity of the finding across scans. */
  fingerprint: string;
  /** What the run model established (FindingRecord.facts), for the attack paths; null or absent when nothing. */
  facts?: string[] | null;
  /** Its fix, recorded with the scan (`record_scan`); the combination reads do not return it. */
  fix?: StoredFix;
}

/** Findings per severity; always consistent with the findings of the same scan. */
export type SeverityCounts = Record<Severity, number>;

/** ISO 8601 timestamp in UTC, e.g. `2026-11-22T02:43:01.416993+00:00`. */
export type Timestamp = string;

export interface Installation {
  installation_id: number;
  account_login: string;
  account_type: string;
  created_at: Timestamp;
  /** GitHub suspended the installation: its rows stay, scans and syncs are refused. (list_installations only.) */
  suspended?: boolean;
  /**
   * How the user reaches it (list_installations only): `link` through the installation callback (their own
   * account, or an organization they own), `member` through their GitHub user authorization.
   */
  access?: 'link' | 'member';
}

export interface InstallationLink {
  installationId: number;
  accountLogin: string;
  accountType: string;
  /** The GitHub account (numeric id, as text) whose ownership entitled the user to link (the service always says). */
  githubUserId?: string;
}

export interface Deleted {
  deleted: boolean;
}

/** A repository as the code host lists it, the input of a sync. */
export interface RepositoryListing {
  github_id: number;
  installation_id: number;
  full_name: string;
  private: boolean;
  html_url: string;
  default_branch: string;
}

/** A stored repository; `id` is the service-side id the API hands out, stable across syncs. */
export interface Repository extends RepositoryListing {
  id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ScanContext {
  repository: Repository;
  /** Rules whose effective state (override, else global preference, else enabled) is disabled. */
  disabled_rules: string[];
  /** The options of the user's global rule settings that have some, by rule id (`ScanOptions.ruleOptions`). */
  rule_options: Record<string, Record<string, unknown>>;
  /** The effective severity per rule (the repository's override, else the global setting) where one is set (absent before the rule-severity migration). */
  rule_severities?: Record<string, Severity>;
  /** The repository's `uses:` references at its last scan (`owner/repo@ref#version`, sorted; [] before one). */
  action_references: string[];
  /** Fingerprints of the repository's dismissed findings (absent before the dismissals migration's scan_context). */
  dismissed?: string[];
}

export interface RuleSetting {
  rule_id: string;
  enabled: boolean;
  updated_at: Timestamp;
  /** The rule's options (global settings only), when it has some; no key otherwise. */
  options?: Record<string, unknown>;
  /** The severity set for the rule (global settings and overrides), when one is; no key otherwise. */
  severity?: Severity;
}

export interface RuleState {
  rule_id: string;
  enabled: boolean;
  /** Where the effective state comes from: the repository's override, or the global preference. */
  source: 'override' | 'global';
}

export interface Cleared {
  /** Whether there was a row to remove; clearing is idempotent either way. */
  deleted: boolean;
}

export interface ScanToRecord {
  repositoryId: string;
  ruleset: Ruleset;
  counts: SeverityCounts;
  findings: readonly StoredFinding[];
  /**
   * Bounds on what is stored (record_scan, 20261128005000_scan_retention.sql): the repository keeps its last
   * `keep` scans; a scan whose `contentHash` and ruleset equal the latest one's is not stored again (that one
   * is returned); the user's stored findings stay under `quota` (0: none), oldest history first.
   */
  retention?: { contentHash: string; keep: number; quota: number };
  /** The commit the files were read at (with `retention` only; 20261128010000_scan_commit.sql). */
  commitSha?: string;
}

export interface RecordedScan {
  /** Null when the scan was refused for the storage quota (`quota_exceeded`). */
  scan_id: string;
  created_at: Timestamp;
  /** With `retention`: false when an identical latest scan was returned, or the quota refused it. */
  stored?: boolean;
  quota_exceeded?: boolean;
  stored_findings?: number;
  quota?: number;
}

/** What started a scan: a person (manual), a push to the default branch, a pull request's check, the daily re-check. */
export const SCAN_TRIGGERS = ['manual', 'push', 'pull_request', 'schedule'] as const;
export type ScanTrigger = (typeof SCAN_TRIGGERS)[number];

/** A stored scan without its findings, as `list_repository_scans` returns it (`seq` orders and pages). */
export interface ScanSummary {
  scan_id: string;
  repo_id: string;
  ruleset: Ruleset;
  counts: { HIGH: number; MEDIUM: number; LOW: number; INFO: number };
  created_at: Timestamp;
  seq: number;
  /** What started it (20261128224504_monitoring.sql; every scan before it was manual). */
  trigger: ScanTrigger;
  /** The commit the scan read, when the code host said (no key otherwise). */
  commit_sha?: string;
}

/** A repository of the user with its latest scan's open counts, as `repository_overview` returns it. */
export interface RepositoryOverview {
  repo_id: string;
  full_name: string;
  private: boolean;
  html_url: string;
  /** Null when never scanned; `counts` leave out the findings the user dismissed, `dismissed` counts them. */
  latest_scan: { scan_id: string; ruleset: Ruleset; created_at: Timestamp; counts: ScanSummary['counts']; dismissed: number } | null;
}

/** A stored scan with its public findings (each with its fix, if any) in recorded order, as `get_scan` returns it. */
export interface StoredScan extends Omit<ScanSummary, 'seq'> {
  findings: FindingWithFix[];
}

/** One user's repository a monitor job serves (`monitor_repository_users`). */
export interface MonitoredRepository {
  user_id: string;
  repository_id: string;
  full_name: string;
  private: boolean;
  default_branch: string;
  html_url: string;
  /** How the user reaches the installation (see `Installation.access`). */
  access: 'link' | 'member';
}

/** A pull request check's outcome, as published on GitHub. */
export interface CheckRunResult {
  pull_number: number;
  head_sha: string;
  conclusion: 'success' | 'failure' | 'neutral';
  html_url: string;
  new_findings: number;
  new_attack_paths: number;
}

/** The repository's latest check run as `repository_check_run` returns it. */
export interface StoredCheckRun extends CheckRunResult {
  updated_at: Timestamp;
}

/** A monitoring job set aside (the dead letter) for one of the user's repositories, as `monitor_dead_jobs` returns it. */
export interface DeadJob {
  kind: 'push-scan' | 'pr-check' | 'recheck';
  /** The user's repository (the database's id) and its name. */
  repo_id: string;
  full_name: string;
  /** The commit the job was for (a pull request check's: the head), when it names one. */
  sha?: string;
  pull_number?: number;
  attempts: number;
  /** Why it was set aside: the last failure's message (at most 1,000 characters). */
  reason: string;
  finished_at: Timestamp;
}

/** The installation's pull request check policy. */
export interface CheckPolicy {
  /** A new HIGH finding or a new HIGH/CRITICAL attack path makes the check fail (else it only reports). */
  fail_on_high: boolean;
}

/**
 * A finding as `attack_path_inputs` returns it: `[file, line, column, severity, rule_id, description,
 * recommendation, job, fingerprint, facts]`, with `recommendation` null when it is the rule's default. Category and
 * title are the rule's own and not sent (lib/services/attack-paths.ts restores all three from the rule metadata).
 */
export type CompactFinding = [
  file: string,
  line: number,
  column: number,
  severity: Severity,
  rule_id: string,
  description: string,
  recommendation: string | null,
  job: string | null,
  fingerprint: string,
  facts: string[] | null,
];

/** One repository of `attack_path_inputs`: its latest scan's usable findings (see `attackPathInputs`), in recorded order. */
export type AttackPathInput = [repo_id: string, full_name: string, html_url: string, findings: CompactFinding[], dismissed?: CompactDismissal[], commit_sha?: string | null];

/** A decision of `attack_path_inputs`: `[fingerprint, kind, reason, comment, updated_at]`. */
export type CompactDismissal = [fingerprint: string, kind: DismissalKind, reason: DismissalReason, comment: string, updated_at: Timestamp];

export const DISMISSAL_REASONS = ['false_positive', 'accepted_risk', 'wont_fix'] as const;
export type DismissalReason = (typeof DISMISSAL_REASONS)[number];
export type DismissalKind = 'finding' | 'attack_path';

/** A triage decision in force: the finding or attack path with this fingerprint is dismissed in the repository. */
export interface Dismissal {
  fingerprint: string;
  kind: DismissalKind;
  reason: DismissalReason;
  comment: string;
  /** Who decided (the user's id). */
  dismissed_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One entry of the audit trail: a dismissal or a reopening. */
export interface DismissalEvent {
  fingerprint: string;
  action: 'dismiss' | 'reopen';
  kind: DismissalKind;
  /** Null for a reopening. */
  reason: DismissalReason | null;
  comment: string;
  actor: string;
  at: Timestamp;
}

export interface Dismissals {
  dismissals: Dismissal[];
  /** Newest first, at most 500. */
  events: DismissalEvent[];
}

/** The user's GitHub user authorization as stored: token ciphertexts (never sent anywhere but the API). */
export interface StoredGithubAuthorization {
  github_user_id: string;
  github_login: string;
  access_token: string | null;
  access_expires_at: Timestamp | null;
  refresh_token: string | null;
  refresh_expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface GithubIdentity {
  /** GitHub's numeric user id, as text. */
  provider_id: string;
  login: string | null;
}

export interface RateLimitRequest {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a refused call may be retried; 0 when allowed. */
  retry_after_seconds: number;
  reset_at: Timestamp;
}
