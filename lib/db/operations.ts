// Typed wrappers, one per server function, so that callers never spell a function or parameter name. Each
// documents what it returns; the SQL side is supabase/migrations, the full list lib/db/README.md.

import type { Database } from './port.js';
import type { Severity } from '../engine/types.js';
import type {
  DeadJob,
  RepositoryOverview,
  AttackPathInput,
  CheckPolicy,
  CheckRunResult,
  Cleared,
  Deleted,
  Dismissal,
  DismissalKind,
  DismissalReason,
  Dismissals,
  GithubIdentity,
  Installation,
  InstallationLink,
  RateLimitDecision,
  RateLimitRequest,
  RecordedScan,
  Repository,
  RepositoryListing,
  RuleSetting,
  RuleState,
  MonitoredRepository,
  ScanContext,
  ScanSummary,
  ScanTrigger,
  StoredCheckRun,
  StoredScan,
  ScanToRecord,
  StoredFinding,
  StoredGithubAuthorization,
} from './types.js';

/** Links (or re-links, refreshing the account) a code-host app installation to the user. */
export function linkInstallation(db: Database, userId: string, link: InstallationLink): Promise<Installation> {
  return db.call('link_installation', {
    p_user_id: userId,
    p_installation_id: link.installationId,
    p_account_login: link.accountLogin,
    p_account_type: link.accountType,
    p_github_user_id: link.githubUserId,
  });
}

/** Removes the user's link and the repositories it gave them, with their scans and findings; idempotent. */
export function unlinkInstallation(db: Database, userId: string, installationId: number): Promise<Deleted> {
  return db.call('unlink_installation', { p_user_id: userId, p_installation_id: installationId });
}

/** Whether GitHub suspended the installation. */
export function installationSuspended(db: Database, installationId: number): Promise<boolean> {
  return db.call('installation_suspended', { p_installation_id: installationId });
}

/**
 * A sync that follows GitHub, atomically: drops the user's links in `dropped`, drops the repositories of the
 * `listed` installations that GitHub no longer lists, then stores `repositories` as `syncRepositories` does.
 */
export function resyncRepositories(
  db: Database,
  userId: string,
  sync: { listed: readonly number[]; dropped: readonly number[]; repositories: readonly RepositoryListing[] },
): Promise<Repository[]> {
  return db.call('resync_repositories', {
    p_user_id: userId,
    p_listed_installation_ids: sync.listed,
    p_dropped_installation_ids: sync.dropped,
    p_repositories: sync.repositories,
  });
}

/** Claims a webhook delivery: `first` is true exactly once per delivery id. */
export function claimWebhookDelivery(db: Database, deliveryId: string, event: string): Promise<{ first: boolean }> {
  return db.call('claim_webhook_delivery', { p_delivery_id: deliveryId, p_event: event });
}

/** Gives a delivery back after its handling failed, so that a redelivery is acted on. */
export function releaseWebhookDelivery(db: Database, deliveryId: string): Promise<Deleted> {
  return db.call('release_webhook_delivery', { p_delivery_id: deliveryId });
}

/** Every user's link to the installation goes, with what it gave them. */
export function installationDeleted(db: Database, installationId: number): Promise<{ links: number }> {
  return db.call('installation_deleted', { p_installation_id: installationId });
}

export function setInstallationSuspended(db: Database, installationId: number, suspended: boolean): Promise<{ suspended: boolean }> {
  return db.call('set_installation_suspended', { p_installation_id: installationId, p_suspended: suspended });
}

/** Those repositories of the installation go for every user, with their scans and findings. */
export function installationRepositoriesRemoved(db: Database, installationId: number, githubIds: readonly number[]): Promise<{ repositories: number }> {
  return db.call('installation_repositories_removed', { p_installation_id: installationId, p_github_ids: githubIds });
}

/** The links a GitHub account made to an organization's installation go (by installation, else by login). */
export function organizationMemberRemoved(
  db: Database,
  removed: { installationId: number | null; orgLogin: string; githubUserId: string },
): Promise<{ links: number }> {
  return db.call('organization_member_removed', {
    p_installation_id: removed.installationId,
    p_org_login: removed.orgLogin,
    p_github_user_id: removed.githubUserId,
  });
}

/** How many links a GitHub account made to an organization's installation (the rows `organizationMemberRemoved` would delete), and to which installations. */
export function organizationMemberLinks(
  db: Database,
  member: { installationId: number | null; orgLogin: string; githubUserId: string },
): Promise<{ links: number; installation_ids: number[] }> {
  return db.call('organization_member_links', {
    p_installation_id: member.installationId,
    p_org_login: member.orgLogin,
    p_github_user_id: member.githubUserId,
  });
}

/** The user's installations, by installation id. */
export function listInstallations(db: Database, userId: string): Promise<Installation[]> {
  return db.call('list_installations', { p_user_id: userId });
}

/**
 * Stores what the code host listed now (every listed installation must be linked to the user) and returns
 * exactly those rows, by full_name, with their stable service-side ids.
 */
export function syncRepositories(db: Database, userId: string, repositories: readonly RepositoryListing[]): Promise<Repository[]> {
  return db.call('sync_repositories', { p_user_id: userId, p_repositories: repositories });
}

/** The repository if the user owns it, else null. */
export function getRepository(db: Database, userId: string, repositoryId: string): Promise<Repository | null> {
  return db.call('get_repository', { p_user_id: userId, p_repository_id: repositoryId });
}

/** What a scan needs from the database in one round trip; null when the user does not own the repository. */
export function scanContext(db: Database, userId: string, repositoryId: string): Promise<ScanContext | null> {
  return db.call('scan_context', { p_user_id: userId, p_repository_id: repositoryId });
}

/**
 * Rules with an explicit entry for the repository, with their effective state (override, else global) and
 * its source, by rule id; null when the user does not own the repository. Rules not listed are enabled.
 */
export function effectiveRuleStates(db: Database, userId: string, repositoryId: string): Promise<RuleState[] | null> {
  return db.call('effective_rule_states', { p_user_id: userId, p_repository_id: repositoryId });
}

/**
 * Stores a scan and its findings atomically. Rejects with DatabaseError 'not_found' when the user does not
 * own the repository, and 'internal' when `counts` disagree with `findings` or a finding is malformed.
 */
export function recordScan(db: Database, userId: string, scan: ScanToRecord): Promise<RecordedScan> {
  return db.call('record_scan', {
    p_user_id: userId,
    p_repository_id: scan.repositoryId,
    p_ruleset: scan.ruleset,
    p_counts: scan.counts,
    p_findings: scan.findings,
    ...(scan.retention === undefined
      ? {}
      : {
          p_content_hash: scan.retention.contentHash,
          p_keep: scan.retention.keep,
          p_quota: scan.retention.quota,
          ...(scan.commitSha === undefined ? {} : { p_commit_sha: scan.commitSha }),
        }),
  });
}

/**
 * Stores a scan started by the monitor (lib/services/monitor): as `recordScan` with retention, plus its
 * trigger. A scan on push or pull request names its commit, and a second one of the same commit and trigger
 * is not stored (the first is returned, `stored: false`).
 */
export function recordTriggeredScan(db: Database, userId: string, scan: ScanToRecord & { retention: NonNullable<ScanToRecord['retention']>; trigger: ScanTrigger }): Promise<RecordedScan> {
  return db.call('record_scan', {
    p_user_id: userId,
    p_repository_id: scan.repositoryId,
    p_ruleset: scan.ruleset,
    p_counts: scan.counts,
    p_findings: scan.findings,
    p_content_hash: scan.retention.contentHash,
    p_keep: scan.retention.keep,
    p_quota: scan.retention.quota,
    p_commit_sha: scan.commitSha ?? null,
    p_trigger: scan.trigger,
  });
}

/** Whom a job about one repository of an installation serves (every user linked who has it); [] while the installation is suspended. */
export function monitorRepositoryUsers(db: Database, installationId: number, githubId: number): Promise<MonitoredRepository[]> {
  return db.call('monitor_repository_users', { p_installation_id: installationId, p_github_id: githubId });
}

/** Stores a published check run as the repository's latest, for every user who has the repository. */
export function recordCheckRun(db: Database, installationId: number, githubId: number, result: CheckRunResult & { check_run_id: number }): Promise<{ users: number }> {
  return db.call('record_check_run', { p_installation_id: installationId, p_github_id: githubId, p_result: result });
}

/** The repository's latest check run for the user (`check_run` null before one); null when not owned. */
export function repositoryCheckRun(db: Database, userId: string, repositoryId: string): Promise<{ check_run: StoredCheckRun | null } | null> {
  return db.call('repository_check_run', { p_user_id: userId, p_repository_id: repositoryId });
}

/** The dead monitoring jobs of the user's repositories, newest first (at most `limit`, 1..200). */
export function monitorDeadJobs(db: Database, userId: string, limit: number): Promise<{ dead_jobs: DeadJob[] }> {
  return db.call('monitor_dead_jobs', { p_user_id: userId, p_limit: limit });
}

/** The installation's pull request check policy (default: a new HIGH finding or HIGH/CRITICAL path fails the check). */
export function installationCheckPolicy(db: Database, installationId: number): Promise<CheckPolicy> {
  return db.call('installation_check_policy', { p_installation_id: installationId });
}

/** Sets the installation's check policy; rejects with 'not_found' unless the user linked the installation (not as a member). */
export function setInstallationCheckPolicy(db: Database, userId: string, installationId: number, policy: CheckPolicy): Promise<CheckPolicy> {
  return db.call('set_installation_check_policy', { p_user_id: userId, p_installation_id: installationId, p_fail_on_high: policy.fail_on_high });
}

/**
 * The latest scan's findings of rules enabled now, in recorded order: [] when never scanned, null when the
 * user does not own the repository.
 */
export function repositoryComboInputs(db: Database, userId: string, repositoryId: string): Promise<StoredFinding[] | null> {
  return db.call('repository_combo_inputs', { p_user_id: userId, p_repository_id: repositoryId });
}

/** What `attackPathInputs` needs of the combinations catalog (see lib/services/attack-paths.ts). */
export interface AttackPathCatalog {
  /** Every rule that can take part in a combination, with its default recommendation. */
  rules: Readonly<Record<string, string>>;
  /** Every kind: its AND of OR-groups of rule ids, and all its rules (the groups' and the amplifiers). */
  kinds: readonly { requires: readonly (readonly string[])[]; rules: readonly string[] }[];
}

/**
 * For every scanned repository of the user, by full_name, in one round trip: of its latest scan's findings
 * of rules enabled now, those of the kinds in `catalog.kinds` whose every group has such a finding there, in
 * recorded order and compact (`CompactFinding`; a recommendation equal to the default in `catalog.rules` is
 * null). Repositories left without a finding are left out.
 */
export function attackPathInputs(db: Database, userId: string, catalog: AttackPathCatalog): Promise<AttackPathInput[]> {
  return db.call('attack_path_inputs', { p_user_id: userId, p_rules: catalog.rules, p_kinds: catalog.kinds });
}

/**
 * The repository's scans, newest first: at most `limit` (clamped to 1..100) with `seq` below `beforeSeq`
 * (null: from the newest). Null when the user does not own the repository.
 */
export function listRepositoryScans(
  db: Database,
  userId: string,
  repositoryId: string,
  page: { limit: number; beforeSeq: number | null },
): Promise<ScanSummary[] | null> {
  return db.call('list_repository_scans', {
    p_user_id: userId,
    p_repository_id: repositoryId,
    p_limit: page.limit,
    p_before_seq: page.beforeSeq,
  });
}

/** Every repository of the user, by full name, with its latest scan and that scan's open counts (dismissed findings left out). */
export function repositoryOverview(db: Database, userId: string): Promise<RepositoryOverview[]> {
  return db.call('repository_overview', { p_user_id: userId });
}

/** One scan of the user with its findings in recorded order; null when it is not theirs or does not exist. */
export function getScan(db: Database, userId: string, scanId: string): Promise<StoredScan | null> {
  return db.call('get_scan', { p_user_id: userId, p_scan_id: scanId });
}

/** The user's global rule preferences (sparse), by rule id. */
export function listRuleSettings(db: Database, userId: string): Promise<RuleSetting[]> {
  return db.call('list_rule_settings', { p_user_id: userId });
}

/**
 * Upserts the global preference. `options` undefined keeps the stored options, `{}` clears them (the rule's
 * defaults), another object replaces them; validate it first (lib/engine/rule-options.ts).
 */
export function setRuleSetting(
  db: Database,
  userId: string,
  ruleId: string,
  enabled: boolean,
  options?: Readonly<Record<string, unknown>>,
  severity?: Severity | null,
): Promise<RuleSetting> {
  return db.call('set_rule_setting', { p_user_id: userId, p_rule_id: ruleId, p_enabled: enabled, p_options: options, p_severity: storedSeverity(severity) });
}

/** `p_severity` of set_rule_setting and set_rule_override: undefined keeps the stored severity, null clears it ('DEFAULT'). */
const storedSeverity = (severity: Severity | null | undefined): string | undefined => (severity === null ? 'DEFAULT' : severity);

/** Removes the global preference (the rule becomes enabled by default); idempotent. */
export function clearRuleSetting(db: Database, userId: string, ruleId: string): Promise<Cleared> {
  return db.call('clear_rule_setting', { p_user_id: userId, p_rule_id: ruleId });
}

/** The repository's overrides (sparse), by rule id; null when the user does not own the repository. */
export function listRuleOverrides(db: Database, userId: string, repositoryId: string): Promise<RuleSetting[] | null> {
  return db.call('list_rule_overrides', { p_user_id: userId, p_repository_id: repositoryId });
}

/** Rejects with DatabaseError 'not_found' when the user does not own the repository. */
export function setRuleOverride(
  db: Database,
  userId: string,
  repositoryId: string,
  ruleId: string,
  enabled: boolean,
  severity?: Severity | null,
): Promise<RuleSetting> {
  return db.call('set_rule_override', {
    p_user_id: userId,
    p_repository_id: repositoryId,
    p_rule_id: ruleId,
    p_enabled: enabled,
    p_severity: storedSeverity(severity),
  });
}

/**
 * Removes the override (the rule inherits the global preference); idempotent for a missing override. Rejects
 * with DatabaseError 'not_found' when the user does not own the repository.
 */
export function clearRuleOverride(db: Database, userId: string, repositoryId: string, ruleId: string): Promise<Cleared> {
  return db.call('clear_rule_override', { p_user_id: userId, p_repository_id: repositoryId, p_rule_id: ruleId });
}

/** The user's GitHub account from the auth server's identities (never user_metadata); null without one. */
export function githubIdentity(db: Database, userId: string): Promise<GithubIdentity | null> {
  return db.call('github_identity', { p_user_id: userId });
}

/** Counts one call against the user's limit in `bucket` and says whether it may proceed. */
/** Counts one call against the installation's limit in `bucket` (work a user not linked to it can cause). */
export function consumeInstallationRateLimit(db: Database, installationId: number, request: RateLimitRequest): Promise<RateLimitDecision> {
  return db.call('consume_installation_rate_limit', {
    p_installation_id: installationId,
    p_bucket: request.bucket,
    p_limit: request.limit,
    p_window_seconds: request.windowSeconds,
  });
}

export function consumeRateLimit(db: Database, userId: string, request: RateLimitRequest): Promise<RateLimitDecision> {
  return db.call('consume_rate_limit', {
    p_user_id: userId,
    p_bucket: request.bucket,
    p_limit: request.limit,
    p_window_seconds: request.windowSeconds,
  });
}

/** The live facts of the online audits' shared cache among `keys` (not per user: the facts are public). */
export function onlineFactsGet(db: Database, keys: readonly string[]): Promise<Record<string, unknown>> {
  return db.call('online_facts_get', { p_keys: keys });
}

/** Replaces the repository's `uses:` references read by the next scan's context; stored false when not owned. */
export function setActionReferences(db: Database, userId: string, repositoryId: string, refs: readonly string[]): Promise<{ stored: boolean }> {
  return db.call('set_action_references', { p_user_id: userId, p_repository_id: repositoryId, p_refs: refs });
}

/** Stores facts of the online audits' shared cache, each with its time to live. */
export function onlineFactsPut(db: Database, entries: readonly { key: string; value: unknown; ttl_seconds: number }[]): Promise<{ stored: number }> {
  return db.call('online_facts_put', { p_entries: entries });
}

/** Stores (or replaces) the user's GitHub user authorization: ciphertexts only (lib/services/user-access.ts). */
export function storeGithubAuthorization(
  db: Database,
  userId: string,
  authorization: { githubUserId: string; githubLogin: string; accessToken: string; accessExpiresAt: string | null; refreshToken: string | null; refreshExpiresAt: string | null },
): Promise<{ github_user_id: string; github_login: string }> {
  return db.call('store_github_authorization', {
    p_user_id: userId,
    p_github_user_id: authorization.githubUserId,
    p_github_login: authorization.githubLogin,
    p_access_token: authorization.accessToken,
    p_access_expires_at: authorization.accessExpiresAt,
    p_refresh_token: authorization.refreshToken,
    p_refresh_expires_at: authorization.refreshExpiresAt,
  });
}

/** The user's GitHub user authorization, or null when they never gave one. */
export function githubAuthorization(db: Database, userId: string): Promise<StoredGithubAuthorization | null> {
  return db.call('github_authorization', { p_user_id: userId });
}

/** Ends the user's authorization (sign-out): tokens gone, `member` links gone with what they gave. */
export function revokeGithubAuthorization(db: Database, userId: string): Promise<{ revoked: boolean; links: number }> {
  return db.call('revoke_github_authorization', { p_user_id: userId });
}

/** The live authorizations acting for a GitHub account (user ids, token ciphertexts). */
export function githubAuthorizationsOf(db: Database, githubUserId: string): Promise<{ user_id: string; access_token: string | null }[]> {
  return db.call('github_authorizations_of', { p_github_user_id: githubUserId });
}

/** GitHub confirmed the account revoked the App's authorization: as `revokeGithubAuthorization` for these users, whose sessions end too. */
export function githubAuthorizationRevoked(db: Database, githubUserId: string, userIds: readonly string[]): Promise<{ user_ids: string[]; links: number }> {
  return db.call('github_authorization_revoked', { p_github_user_id: githubUserId, p_user_ids: userIds });
}

/** The installations GitHub lists for the user's token become their `member` links; unlisted `member` links go. */
export function syncMemberInstallations(
  db: Database,
  userId: string,
  githubUserId: string,
  installations: readonly { installation_id: number; account_login: string; account_type: string }[],
): Promise<{ installations: number }> {
  return db.call('sync_member_installations', { p_user_id: userId, p_github_user_id: githubUserId, p_installations: installations });
}

/** One repository of the user goes, with its scans and findings; idempotent. */
export function removeUserRepository(db: Database, userId: string, repositoryId: string): Promise<Deleted> {
  return db.call('remove_user_repository', { p_user_id: userId, p_repository_id: repositoryId });
}

/** The repository's triage decisions and their trail; null when the user does not own the repository. */
export function listDismissals(db: Database, userId: string, repositoryId: string): Promise<Dismissals | null> {
  return db.call('list_dismissals', { p_user_id: userId, p_repository_id: repositoryId });
}

/** Dismisses (or re-dismisses) by fingerprint; rejects with 'not_found' when the user does not own the repository. */
export function setDismissal(
  db: Database,
  userId: string,
  repositoryId: string,
  decision: { fingerprint: string; kind: DismissalKind; reason: DismissalReason; comment: string },
): Promise<Dismissal | { limit_reached: true }> {
  return db.call('set_dismissal', {
    p_user_id: userId,
    p_repository_id: repositoryId,
    p_fingerprint: decision.fingerprint,
    p_kind: decision.kind,
    p_reason: decision.reason,
    p_comment: decision.comment,
  });
}

/** Reopens; idempotent. Rejects with 'not_found' when the user does not own the repository. */
export function clearDismissal(db: Database, userId: string, repositoryId: string, fingerprint: string): Promise<Cleared> {
  return db.call('clear_dismissal', { p_user_id: userId, p_repository_id: repositoryId, p_fingerprint: fingerprint });
}

/** A demoted owner's `link` rows to the organization's installation go; their `member` rows stay. */
export function organizationOwnerLinksRemoved(db: Database, installationId: number, githubUserId: string): Promise<{ links: number }> {
  return db.call('organization_owner_links_removed', { p_installation_id: installationId, p_github_user_id: githubUserId });
}
