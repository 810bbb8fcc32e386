/**
 * The one reviewed table of the recall harness (docs/recall.md): which of our rules report what each
 * peer's check reports, which checks cannot be compared and why, and where we deliberately differ from a
 * peer's expectation because its finding (or its silence) is wrong under our attacker model. A fixture the
 * table names as a difference counts as a difference, never as a catch; a difference that no longer
 * differs is reported as stale, so the table stays true.
 *
 * Fixtures are named as each peer names them: zizmor by the path under its `test-data/`, Pipefort by test
 * and subtest (`TestX/sub_test`, `#2` for the second assertion of one test on one rule), poutine by the path
 * under `scanner/testdata/`. Nothing of the peers' fixtures is copied here.
 */
import type { Peer } from './cases.js';

export interface CheckMapping {
  /** Our rules that report what the peer's check reports: a finding of any of them on the fixture is a catch. */
  ours: readonly string[];
  /** Set when the check is not compared at all: why (no rule of ours covers it, another CI system...). */
  unmeasured?: string;
  /**
   * Set when no rule of ours reports this check on purpose: why its findings are false positives under our
   * attacker model. Each of its expected findings counts as a deliberate difference.
   */
  difference?: string;
  /** What a reader of the table needs to know about the correspondence. */
  note?: string;
}

export interface Difference {
  peer: Peer;
  check: string;
  fixture: string;
  /** What the peer expects there. */
  expect: 'fires' | 'clean';
  /** Why we deliberately do otherwise: which of the attacker's needs is missing. */
  reason: string;
}

export const CHECKS: Record<Peer, Record<string, CheckMapping>> = {
  zizmor: {
    'adhoc-packages': { ours: ['unpinned-package-install'] },
    'anonymous-definition': { ours: ['anonymous-definition'] },
    'archived-uses': { ours: ['archived-action'] },
    artipacked: { ours: ['persisted-credentials'] },
    'bot-conditions': { ours: ['bot-actor-condition'] },
    'cache-poisoning': { ours: ['cache-poisoning'] },
    'concurrency-limits': { ours: ['missing-concurrency'] },
    'dangerous-triggers': { ours: ['dangerous-trigger'] },
    'dependabot-cooldown': { ours: ['dependabot-missing-cooldown'] },
    'dependabot-execution': { ours: ['dependabot-insecure-execution'] },
    'excessive-permissions': { ours: ['excessive-permissions', 'missing-permissions'], note: 'zizmor reports a missing `permissions:` block as excessive (the default token); we name it missing-permissions' },
    'forbidden-uses': { ours: ['forbidden-uses'], note: "compared under the test's policy, translated to the rule's allow/deny options" },
    'github-app': { ours: ['github-app-token-misuse'] },
    'github-env': { ours: ['github-env-injection'] },
    'hardcoded-container-credentials': { ours: ['hardcoded-credentials'] },
    'impostor-commit': { ours: ['impostor-commit'] },
    'insecure-commands': { ours: ['insecure-commands'] },
    'insecure-url-scheme': { ours: [], unmeasured: 'pre-commit configuration files, which Chainbreaker does not read' },
    'known-vulnerable-actions': { ours: ['known-vulnerable-action'] },
    misfeature: { ours: ['misfeature'] },
    obfuscation: { ours: ['obfuscated-expression'] },
    'overprovisioned-secrets': { ours: ['overprovisioned-secrets'] },
    'ref-confusion': { ours: ['ref-confusion'] },
    'ref-version-mismatch': { ours: ['ref-version-mismatch'] },
    'secrets-inherit': { ours: ['secrets-inherit'] },
    'secrets-outside-env': { ours: ['secrets-outside-env'] },
    'self-hosted-runner': { ours: ['self-hosted-runner'] },
    'self-repository': { ours: ['self-repository'] },
    'stale-action-refs': { ours: ['stale-action-ref'] },
    'superfluous-actions': { ours: ['superfluous-action'] },
    'template-injection': { ours: ['script-injection'] },
    'typosquat-uses': { ours: ['typosquat-action'] },
    'undocumented-permissions': { ours: ['undocumented-permissions'] },
    'unpinned-images': { ours: ['unpinned-image'] },
    'unpinned-tools': { ours: ['unpinned-tool-version'] },
    'unpinned-uses': { ours: ['unpinned-action', 'unpinnable-action'], note: 'an action file that uses a mutable ref is unpinnable-action when the repository publishes it' },
    'unredacted-secrets': { ours: ['unredacted-secrets'] },
    'unsound-condition': { ours: ['unsound-condition'] },
    'unsound-contains': { ours: ['unsound-contains'] },
    'unsound-ternary': { ours: ['unsound-ternary'] },
    'use-trusted-publishing': { ours: ['use-trusted-publishing'] },
  },
  pipefort: {
    'cicd-sec-1-ppe-checkout': { ours: ['untrusted-checkout'] },
    'cicd-sec-2-long-lived-pat': { ours: ['personal-access-token'] },
    'cicd-sec-3-unpinned-action': { ours: ['unpinned-action'] },
    'cicd-sec-3-unpinned-image': { ours: ['unpinned-image'] },
    'cicd-sec-3-known-vulnerable-action': { ours: ['known-vulnerable-action'] },
    'cicd-sec-3-impostor-commit': { ours: ['impostor-commit'] },
    'cicd-sec-3-ref-version-mismatch': { ours: ['ref-version-mismatch'] },
    'cicd-sec-3-typosquat-action': { ours: ['typosquat-action'] },
    'cicd-sec-3-archived-action': { ours: ['archived-action'] },
    'cicd-sec-3-stale-action-ref': { ours: ['stale-action-ref'] },
    'cicd-sec-3-ref-confusion': { ours: ['ref-confusion'] },
    'cicd-sec-4-ppe-shell-injection': { ours: ['script-injection'] },
    'cicd-sec-5-missing-permissions': { ours: ['missing-permissions'] },
    'cicd-sec-6-hardcoded-secrets': { ours: ['hardcoded-credentials'] },
    'cicd-sec-7-debug-logging-enabled': { ours: ['debug-logging-enabled'] },
    'cicd-sec-8-repository-dispatch-unfiltered': { ours: ['repository-dispatch-unfiltered'] },
    'cicd-sec-9-download-without-checksum': { ours: ['download-without-checksum'] },
    'cicd-sec-10-continue-on-error-job': { ours: ['continue-on-error'] },
    'best-prac-1-pipe-to-shell': { ours: ['pipe-to-shell'] },
    'best-prac-2-missing-timeout': { ours: ['missing-timeout'] },
    'best-prac-3-self-hosted-runners': { ours: ['self-hosted-runner'] },
    'cicd-sec-1-workflow-run-artifact-poisoning': { ours: ['artifact-poisoning'] },
    'cicd-sec-1-checkout-persist-credentials': { ours: ['persisted-credentials'] },
    'cicd-sec-4-secrets-inherit-pr-target': { ours: ['secrets-inherit'] },
    'cicd-sec-6-secret-in-run-output': { ours: ['secret-in-log'] },
    'cicd-sec-4-github-env-injection': { ours: ['github-env-injection'] },
    'cicd-sec-1-spoofable-actor-condition': { ours: ['bot-actor-condition'] },
    'cicd-sec-1-unsound-condition': { ours: ['unsound-condition'] },
    'cicd-sec-1-unsound-contains': { ours: ['unsound-contains'] },
    'cicd-sec-4-obfuscated-expression': { ours: ['obfuscated-expression'] },
    'cicd-sec-4-cache-poisoning-release': { ours: ['cache-poisoning'] },
    'cicd-sec-6-overprovisioned-secrets': { ours: ['overprovisioned-secrets'] },
    'cicd-sec-2-use-trusted-publishing': { ours: ['use-trusted-publishing'] },
    'best-prac-4-missing-concurrency': { ours: ['missing-concurrency'] },
    'cicd-sec-5-forbidden-uses': { ours: ['forbidden-uses'], note: "compared under the test's policy, translated to the rule's allow/deny options" },
    'slsa-build-l2-provenance': { ours: ['missing-provenance'] },
    'slsa-build-l3-provenance-isolated': { ours: ['provenance-not-isolated'] },
    'slsa-build-l2-oidc-token-scope': { ours: ['attestation-missing-oidc'] },
    'slsa-build-l2-perms-overly-broad': { ours: ['excessive-permissions'] },
    'slsa-build-l3-cache-poisoning': { ours: ['cache-poisoning'] },
    'slsa-build-l2-verify-step': { ours: ['provenance-not-verified'] },
  },
  poutine: {
    confused_deputy_auto_merge: { ours: ['bot-actor-condition'] },
    debug_enabled: { ours: ['debug-logging-enabled'] },
    default_permissions_on_risky_events: { ours: ['missing-permissions'] },
    github_action_from_unverified_creator_used: {
      ours: [],
      difference:
        "a Marketplace creator's verified badge says nothing an attacker needs: a verified creator's tag can move as easily as anyone's, and an unverified creator's action pinned by SHA cannot change. We report the mutable reference (unpinned-action), whoever publishes it",
    },
    if_always_true: { ours: ['unsound-condition'] },
    injection: { ours: ['script-injection'] },
    job_all_secrets: { ours: ['overprovisioned-secrets'] },
    known_vulnerability_in_build_component: { ours: ['known-vulnerable-action'] },
    known_vulnerability_in_build_platform: { ours: [], unmeasured: 'the version of a self-managed GitLab or Azure DevOps server, not a workflow' },
    pr_runs_on_self_hosted: { ours: ['self-hosted-runner'] },
    unpinnable_action: { ours: ['unpinnable-action'] },
    untrusted_checkout_exec: { ours: ['untrusted-checkout'] },
    unverified_script_exec: { ours: ['pipe-to-shell'] },
  },
};

export const DIFFERENCES: readonly Difference[] = [];

/** Our rules for a peer's check (empty when unmapped or unmeasured). */
export function oursFor(peer: Peer, check: string): readonly string[] {
  return CHECKS[peer][check]?.ours ?? [];
}
