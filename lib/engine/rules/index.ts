import type { Rule, SettingsRule, WorkflowRule, WorkflowRuleContext } from '../rule.js';
import untrustedCheckout from './untrusted-checkout.js';
import scriptInjection from './script-injection.js';
import githubEnvInjection from './github-env-injection.js';
import dangerousTrigger from './dangerous-trigger.js';
import artifactPoisoning from './artifact-poisoning.js';
import obfuscatedExpression from './obfuscated-expression.js';
import botActorCondition from './bot-actor-condition.js';
import unsoundCondition from './unsound-condition.js';
import unsoundContains from './unsound-contains.js';
import missingPermissions from './missing-permissions.js';
import excessivePermissions from './excessive-permissions.js';
import secretsInherit from './secrets-inherit.js';
import overprovisionedSecrets from './overprovisioned-secrets.js';
import unpinnedAction from './unpinned-action.js';
import unpinnedImage from './unpinned-image.js';
import knownVulnerableAction from './known-vulnerable-action.js';
import typosquatAction from './typosquat-action.js';
import pipeToShell from './pipe-to-shell.js';
import unpinnedPackageInstall from './unpinned-package-install.js';
import dependabotInsecureExecution from './dependabot-insecure-execution.js';
import hardcodedCredentials from './hardcoded-credentials.js';
import secretInLog from './secret-in-log.js';
import persistedCredentials from './persisted-credentials.js';
import unredactedSecrets from './unredacted-secrets.js';
import personalAccessToken from './personal-access-token.js';
import useTrustedPublishing from './use-trusted-publishing.js';
import insecureCommands from './insecure-commands.js';
import debugLoggingEnabled from './debug-logging-enabled.js';
import selfHostedRunner from './self-hosted-runner.js';
import githubAppTokenMisuse from './github-app-token-misuse.js';
import repositoryDispatchUnfiltered from './repository-dispatch-unfiltered.js';
import downloadWithoutChecksum from './download-without-checksum.js';
import cachePoisoning from './cache-poisoning.js';
import missingProvenance from './missing-provenance.js';
import continueOnError from './continue-on-error.js';
import missingTimeout from './missing-timeout.js';
import missingConcurrency from './missing-concurrency.js';
import unsoundTernary from './unsound-ternary.js';
import deprecatedWorkflowCommand from './deprecated-workflow-command.js';
import invalidWorkflow from './invalid-workflow.js';
import scanLimitReached from './scan-limit-reached.js';
import unpinnedToolVersion from './unpinned-tool-version.js';
import dependabotMissingCooldown from './dependabot-missing-cooldown.js';
import branchProtectionMissing from './branch-protection-missing.js';
import forcePushAllowed from './force-push-allowed.js';
import branchDeletionAllowed from './branch-deletion-allowed.js';
import reviewNotRequired from './review-not-required.js';
import reviewCountLow from './review-count-low.js';
import staleReviewsKept from './stale-reviews-kept.js';
import codeownersReviewNotRequired from './codeowners-review-not-required.js';
import statusChecksNotRequired from './status-checks-not-required.js';
import adminBypassAllowed from './admin-bypass-allowed.js';
import signedCommitsNotRequired from './signed-commits-not-required.js';
import actionsCanApprovePrs from './actions-can-approve-prs.js';
import defaultTokenWrite from './default-token-write.js';
import allActionsAllowed from './all-actions-allowed.js';
import shaPinningNotRequired from './sha-pinning-not-required.js';
import forkPrApprovalWeak from './fork-pr-approval-weak.js';
import selfHostedRunnerPublicRepo from './self-hosted-runner-public-repo.js';
import dependabotAlertsDisabled from './dependabot-alerts-disabled.js';
import dependabotSecurityUpdatesDisabled from './dependabot-security-updates-disabled.js';
import secretScanningDisabled from './secret-scanning-disabled.js';
import pushProtectionDisabled from './push-protection-disabled.js';
import webhookWithoutSecret from './webhook-without-secret.js';
import settingsUnreadable from './settings-unreadable.js';
import archivedAction from './archived-action.js';
import provenanceNotIsolated from './provenance-not-isolated.js';
import attestationMissingOidc from './attestation-missing-oidc.js';
import unpinnableAction from './unpinnable-action.js';
import forbiddenUses from './forbidden-uses.js';
import selfRepository from './self-repository.js';
import impostorCommit from './impostor-commit.js';
import refConfusion from './ref-confusion.js';
import staleActionRef from './stale-action-ref.js';
import refVersionMismatch from './ref-version-mismatch.js';
import onlineAuditIncomplete from './online-audit-incomplete.js';
import misfeature from './misfeature.js';
import secretsOutsideEnv from './secrets-outside-env.js';
import undocumentedPermissions from './undocumented-permissions.js';
import anonymousDefinition from './anonymous-definition.js';
import agentUntrustedInput from './agent-untrusted-input.js';
import superfluousAction from './superfluous-action.js';
import provenanceNotVerified from './provenance-not-verified.js';

/** The workflow-surface rules, in catalog order. The registry is explicit: a rule exists when it is listed here. */
export const WORKFLOW_RULES: readonly WorkflowRule[] = [
  untrustedCheckout,
  scriptInjection,
  githubEnvInjection,
  dangerousTrigger,
  artifactPoisoning,
  obfuscatedExpression,
  botActorCondition,
  unsoundCondition,
  unsoundContains,
  missingPermissions,
  excessivePermissions,
  secretsInherit,
  overprovisionedSecrets,
  unpinnedAction,
  unpinnedImage,
  knownVulnerableAction,
  typosquatAction,
  pipeToShell,
  unpinnedPackageInstall,
  dependabotInsecureExecution,
  hardcodedCredentials,
  secretInLog,
  persistedCredentials,
  unredactedSecrets,
  personalAccessToken,
  useTrustedPublishing,
  insecureCommands,
  debugLoggingEnabled,
  selfHostedRunner,
  githubAppTokenMisuse,
  repositoryDispatchUnfiltered,
  downloadWithoutChecksum,
  cachePoisoning,
  missingProvenance,
  continueOnError,
  missingTimeout,
  missingConcurrency,
  unsoundTernary,
  deprecatedWorkflowCommand,
  invalidWorkflow,
  scanLimitReached,
  unpinnedToolVersion,
  dependabotMissingCooldown,
  forbiddenUses,
  selfRepository,
  archivedAction,
  superfluousAction,
  undocumentedPermissions,
  secretsOutsideEnv,
  anonymousDefinition,
  misfeature,
  unpinnableAction,
  agentUntrustedInput,
  provenanceNotIsolated,
  attestationMissingOidc,
  provenanceNotVerified,
  impostorCommit,
  refConfusion,
  staleActionRef,
  refVersionMismatch,
  onlineAuditIncomplete,
];

/** The repository-settings rules, in catalog order. */
export const SETTINGS_RULES: readonly SettingsRule[] = [
  branchProtectionMissing,
  forcePushAllowed,
  branchDeletionAllowed,
  reviewNotRequired,
  reviewCountLow,
  staleReviewsKept,
  codeownersReviewNotRequired,
  statusChecksNotRequired,
  adminBypassAllowed,
  signedCommitsNotRequired,
  actionsCanApprovePrs,
  defaultTokenWrite,
  allActionsAllowed,
  shaPinningNotRequired,
  forkPrApprovalWeak,
  selfHostedRunnerPublicRepo,
  dependabotAlertsDisabled,
  dependabotSecurityUpdatesDisabled,
  secretScanningDisabled,
  pushProtectionDisabled,
  webhookWithoutSecret,
  settingsUnreadable,
];

export const RULES: readonly Rule[] = [...WORKFLOW_RULES, ...SETTINGS_RULES];

/**
 * Every rule that visits workflow files, as the engine walks them: the workflow rules, then the settings rules'
 * `workflows` visitors (a setting a workflow can undo), each under its settings rule's metadata.
 */
export const WORKFLOW_VISITORS: readonly WorkflowRule[] = [
  ...WORKFLOW_RULES,
  ...SETTINGS_RULES.flatMap((rule) => {
    const workflows = rule.workflows;
    return workflows === undefined ? [] : [{ meta: rule.meta as unknown as WorkflowRule['meta'], create: (context: WorkflowRuleContext) => workflows.call(rule, context) }];
  }),
];

/**
 * Rules only the online audits report (lib/online; their `create` reports nothing offline). A suppression
 * comment naming one cannot be judged unused by an offline scan.
 */
export const ONLINE_ONLY_RULES = ['impostor-commit', 'ref-confusion', 'stale-action-ref', 'ref-version-mismatch', 'online-audit-incomplete'] as const;

/**
 * Rules the engine reports from a snapshot and the online audits also report live (uses the snapshot lacks).
 * An offline scan cannot tell whether a suppression comment naming one waits for a live finding.
 */
export const LIVE_RULES = ['known-vulnerable-action', 'archived-action'] as const;

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.meta.id === id);
}
