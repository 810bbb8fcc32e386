// The shapes the client works with: the API contract's (api-spec.md), whichever backend read them.

export type Severity = 'HIGH' | 'MEDIUM' | 'LOW' | 'INFO';
export const SEVERITIES: readonly Severity[] = ['HIGH', 'MEDIUM', 'LOW', 'INFO'];
export type Counts = Record<Severity, number>;

export interface Repository {
  id: string;
  full_name: string;
  private: boolean;
  html_url: string;
}

/** A repository with its latest scan's open counts (`GET /api/repositories`). */
export interface RepositoryOverview {
  repo_id: string;
  full_name: string;
  private: boolean;
  html_url: string;
  latest_scan: { scan_id: string; ruleset: 'all' | 'owasp'; created_at: string; counts: Counts; dismissed: number } | null;
}

export interface Installation {
  installation_id: number;
  account: string;
  account_type: string;
  created_at: string;
}

/** An optional machine-applicable fix: a workflow diff, or for settings the GitHub API call (shown as text). */
export interface FindingFix {
  safe?: boolean;
  diff?: string;
  [key: string]: unknown;
}

export interface Finding {
  file: string;
  line: number;
  column: number;
  severity: Severity;
  category: string;
  rule_id: string;
  title: string;
  description: string;
  recommendation: string;
  /** Line-independent identity (what dismissals and baselines are keyed by). */
  fingerprint?: string;
  fix?: FindingFix;
}

export type DismissalReason = 'false_positive' | 'accepted_risk' | 'wont_fix';
export const DISMISSAL_REASONS: readonly { value: DismissalReason; label: string }[] = [
  { value: 'false_positive', label: 'False positive' },
  { value: 'accepted_risk', label: 'Accepted risk' },
  { value: 'wont_fix', label: "Won't fix" },
];
export type DismissalKind = 'finding' | 'attack_path';

export interface Dismissal {
  fingerprint: string;
  kind: DismissalKind;
  reason: DismissalReason;
  comment: string;
  dismissed_by: string;
  created_at: string;
  updated_at: string;
}

export interface DismissalEvent {
  fingerprint: string;
  action: 'dismiss' | 'reopen';
  kind: DismissalKind;
  reason: DismissalReason | null;
  comment: string;
  actor: string;
  at: string;
}

export interface Dismissals {
  dismissals: Dismissal[];
  events: DismissalEvent[];
}

/** What started a scan: a person, a push to the default branch, a pull request's check, the daily re-check. */
export type ScanTrigger = 'manual' | 'push' | 'pull_request' | 'schedule';

export interface ScanSummary {
  scan_id: string;
  repo_id: string;
  ruleset: 'all' | 'owasp';
  trigger: ScanTrigger;
  counts: Counts;
  created_at: string;
  /** The commit the scan read, when the code host said. */
  commit_sha?: string;
}

export interface Scan extends ScanSummary {
  findings: Finding[];
  /** `POST /api/scan`: the findings the user dismissed, left out of `findings` and `counts`. */
  dismissed_findings?: Finding[];
}

/** The latest check run Chainbreaker published on one of the repository's pull requests. */
export interface CheckRun {
  pull_number: number;
  head_sha: string;
  conclusion: 'success' | 'failure' | 'neutral';
  html_url: string;
  new_findings: number;
  new_attack_paths: number;
  updated_at: string;
}

export interface ScanPage {
  scans: ScanSummary[];
  next_cursor: string | null;
}

export interface Rule {
  id: string;
  category: string;
  title: string;
  default_severity: Severity;
  surface: 'workflow' | 'repo-settings';
  description: string;
  doc_url: string;
}

export interface RuleSetting {
  rule_id: string;
  enabled: boolean;
  updated_at: string;
  /** A global preference's options, when the rule has some (see data/rule-options.ts). */
  options?: Record<string, unknown>;
  /** The severity the user set for the rule (globally or in a repository's override); no key: the rule's own. */
  severity?: Severity;
}

export interface Stage {
  order: number;
  title: string;
  description: string;
  rule_id: string;
}

export interface Combination {
  id: string;
  title: string;
  /** MEDIUM when the way in is weaker than the kind presumes (someone else's code on a tag); not in the counts. */
  severity: 'CRITICAL' | 'HIGH' | 'MEDIUM';
  scope: string;
  file: string;
  impact: string;
  break_chain: string;
  break_chain_rule: string;
  stages: Stage[];
  components: { rule_id: string; finding: Finding }[];
  /** The path's stable identity, to dismiss it by. */
  fingerprint?: string;
  /** Set on a dismissed path. */
  dismissal?: { reason: DismissalReason; comment: string; updated_at: string };
}

export interface AttackPaths {
  repos: { repo_id: string; full_name: string; html_url: string; combos: Combination[]; commit_sha?: string }[];
  total_combos: number;
  critical_count: number;
  high_count: number;
  /** The paths the user dismissed (left out of `repos` and the counts). */
  dismissed?: { repo_id: string; full_name: string; html_url: string; combo: Combination }[];
}

export interface InstallationLink {
  installation_id: number;
  account: string;
  account_type: string;
}

/** What the server tells the client about itself (`/config.json`). */
export interface ClientConfig {
  mode: 'embedded' | 'supabase';
  devSignIn: boolean;
  connectUrl: string | null;
  /** The deployment offers the App's user authorization: members reach repositories through their own GitHub access. */
  memberAccess?: boolean;
  supabaseUrl: string | null;
  supabaseAnonKey: string | null;
}
