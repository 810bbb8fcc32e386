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

const NOT_ATTACKER_TEXT = 'the expanded value is not text an outsider writes';

export const DIFFERENCES: readonly Difference[] = [
  // zizmor: expected findings we deliberately do not report.
  { peer: 'zizmor', check: 'artipacked', fixture: 'artipacked/issue-447-repro.yml', expect: 'fires', reason: 'the workflow grants the token nothing (`permissions: {}`), so the credential persisted in .git/config opens nothing (zizmor itself reports it only to auditors)' },
  { peer: 'zizmor', check: 'github-env', fixture: 'github-env/action.yml', expect: 'fires', reason: "what the steps write to GITHUB_ENV is a command's output and the runner's own variables, and no caller of the action passes outsider text: nothing an outsider controls reaches the file" },
  ...['concurrency-limits/missing.yml', 'concurrency-limits/no-cancel.yml', 'concurrency-limits/jobs-missing-no-cancel.yml', 'template-injection/issue-1664-repro.yml'].map(
    (fixture): Difference => ({
      peer: 'zizmor',
      check: 'concurrency-limits',
      fixture,
      expect: 'fires',
      reason: 'the workflow publishes and deploys nothing, so overlapping runs cost runner minutes and cannot race a release; we report a missing concurrency group where they can (zizmor: pedantic persona)',
    }),
  ),
  ...[
    'cache-poisoning/caching-enabled-by-default.yml',
    'cache-poisoning/caching-opt-in-boolish-toggle.yml',
    'cache-poisoning/issue-343-repro.yml',
    'cache-poisoning/issue-642-repro.yml',
    'cache-poisoning/issue-1081-repro.yml',
    'cache-poisoning/issue-1152-repro.yml',
    'cache-poisoning/issue-2320-repro.yml',
    'cache-poisoning/ramsey-composer-install.yml',
    'cache-poisoning/trigger-heuristics/tag-only.yml',
    'cache-poisoning/trigger-heuristics/tag-and-branch.yml',
  ].map(
    (fixture): Difference => ({
      peer: 'zizmor',
      check: 'cache-poisoning',
      fixture,
      expect: 'fires',
      reason:
        'no step publishes anything (no package upload, release asset or image push), so nothing a poisoned cache holds is shipped: a `release:` or tag trigger alone is not a publisher; the same cache steps before a publishing step are reported (rules/cache-poisoning tests)',
    }),
  ),
  { peer: 'zizmor', check: 'cache-poisoning', fixture: 'cache-poisoning/caching-opt-in-expression.yml', expect: 'fires', reason: "`enable-cache: ${{ github.ref == 'refs/heads/main' }}` is false on every run of a workflow that runs only on `release` (a tag ref): the release never restores a cache" },
  { peer: 'zizmor', check: 'template-injection', fixture: 'template-injection/template-injection-static-matrix.yml', expect: 'fires', reason: `${NOT_ATTACKER_TEXT}: every value of \`matrix.frob\` is a literal of the file (zizmor: auditor persona)` },
  { peer: 'zizmor', check: 'template-injection', fixture: 'template-injection/pr-317-repro.yml', expect: 'fires', reason: `${NOT_ATTACKER_TEXT}: the matrix values are literals and \`github.repository_owner\`` },
  { peer: 'zizmor', check: 'template-injection', fixture: 'template-injection/issue-339-repro.yml', expect: 'fires', reason: `${NOT_ATTACKER_TEXT}: a workflow run id from the repository's own API answer, a number` },
  { peer: 'zizmor', check: 'template-injection', fixture: 'template-injection/issue-988-repro.yml', expect: 'fires', reason: `${NOT_ATTACKER_TEXT}: \`github.event_name\` and \`github.repository\`` },
  { peer: 'zizmor', check: 'template-injection', fixture: 'template-injection/issue-1638-repro.yml', expect: 'fires', reason: `${NOT_ATTACKER_TEXT}: \`github.triggering_actor\` is a GitHub login, letters, digits and hyphens only` },
  { peer: 'zizmor', check: 'template-injection', fixture: 'template-injection/issue-1664-repro.yml', expect: 'fires', reason: `${NOT_ATTACKER_TEXT}: a stored secret and two literals, on a push to main` },
  { peer: 'zizmor', check: 'template-injection', fixture: 'template-injection/issue-1802-repro.yml', expect: 'fires', reason: `${NOT_ATTACKER_TEXT}: \`needs.<job>.result\` is one of success, failure, cancelled, skipped` },
  { peer: 'zizmor', check: 'template-injection', fixture: 'ignore.yml', expect: 'fires', reason: `${NOT_ATTACKER_TEXT}: \`github.ref\` on push and pull_request is refs/heads/<a branch of this repository> or refs/pull/<n>/merge (zizmor shows it only with --no-ignores)` },
  { peer: 'zizmor', check: 'template-injection', fixture: 'parallel-steps/basic.yml', expect: 'fires', reason: 'the workflow runs on push only, where `github.event.pull_request.title` is empty: no outsider writes it' },
  { peer: 'zizmor', check: 'self-hosted-runner', fixture: 'self-hosted/self-hosted-runner-group.yml', expect: 'fires', reason: 'a runner group without the `self-hosted` label may be the organisation\'s GitHub-hosted larger runners, which persist nothing; on `push` only collaborators\' code runs there, so we report a runner group only where an outsider\'s code runs on it (zizmor: low confidence)' },
  { peer: 'zizmor', check: 'excessive-permissions', fixture: 'excessive-permissions/workflow-read-all.yml', expect: 'fires', reason: '`read-all` grants no write scope: code in these jobs can read what a checkout already gives it, and change nothing (we report write grants a job does not need)' },
  { peer: 'zizmor', check: 'excessive-permissions', fixture: 'excessive-permissions/issue-472-repro.yml', expect: 'fires', reason: "the workflow runs only on `workflow_call`, so its call job's token is capped by the caller's job, where a missing `permissions:` is reported (missing-permissions, in the caller's file)" },
  { peer: 'zizmor', check: 'obfuscation', fixture: 'obfuscation/computed-indices.yml', expect: 'fires', reason: "a computed index (`inputs[inputs.foo]`, `secrets[matrix.name]`, `needs[matrix.job]`) is what dynamic lookups are written with, not a way to hide a fixed name: a reviewer reads the index expression as plainly as a dotted path, and a quoted literal index is reported (zizmor: pedantic persona)" },
  { peer: 'zizmor', check: 'unsound-ternary', fixture: 'unsound-ternary/issue-746-repro.yml', expect: 'fires', reason: 'the expression reads `foo`, which is no context: GitHub rejects the workflow (unrecognized named-value) before any run, so no value is ever chosen; the same `cond && \'\' || x` on a real context is reported (rules/unsound-ternary tests)' },
  { peer: 'zizmor', check: 'misfeature', fixture: 'misfeature/non-well-known-shell.yml', expect: 'fires', reason: 'a custom `shell:` template (`tcc -run {0}`, as `Rscript {0}` or `bash -el {0}`) is a documented feature that runs the script as written, under the job\'s own token: it hides nothing a reviewer reads and gives nobody outside anything (zizmor: auditor persona)' },
  { peer: 'zizmor', check: 'self-repository', fixture: 'unpinned-uses/reusable-workflow-unpinned.yml', expect: 'fires', reason: 'a job-level `uses: ./.github/workflows/x.yml` is taken from the caller\'s own commit, never from a workspace (a job has none before it starts), so `$/` would change nothing; we report `./` only for step actions, which the workspace resolves' },
  { peer: 'zizmor', check: 'superfluous-actions', fixture: 'superfluous-actions.yml', expect: 'fires', reason: '`dtolnay/rust-toolchain` also installs the requested toolchain and components and sets cargo\'s environment, and `peter-evans/create-or-update-comment` finds and edits comments and adds reactions, which no single `gh` call does: both are left out of the table on purpose (data/runner-tools.ts; zizmor: pedantic persona)' },
  // zizmor: expected silences where we deliberately report.
  { peer: 'zizmor', check: 'dangerous-triggers', fixture: 'dangerous-triggers/actions-labeler.yml', expect: 'clean', reason: "we keep a LOW note on every pull_request_target workflow, even one that only labels: it runs with the base repository's token on a fork's event, and the next step someone adds that checks out or runs the pull request makes it HIGH" },

  { peer: 'zizmor', check: 'excessive-permissions', fixture: 'excessive-permissions/workflow-default-perms-all-jobs-explicit.yml', expect: 'clean', reason: "LOW: each job's own `contents: write` / `id-token: write` is never used (the steps only check out, without persisting credentials); an unneeded write grant on a job is a finding for us even where it is job-level" },
  // Pipefort: expected findings we deliberately do not report.
  { peer: 'pipefort', check: 'cicd-sec-1-ppe-checkout', fixture: 'TestCheckUntrustedPullRequestTarget/workflow_run_checking_out_upstream_head_should_trigger_finding', expect: 'fires', reason: "`ref: github.event.workflow_run.head_branch` without `repository:` checks out a branch of this repository: a fork's branch is never fetched (its pull request exists here only as refs/pull/<n>/head), so no outsider code lands" },
  { peer: 'pipefort', check: 'cicd-sec-1-ppe-checkout', fixture: 'TestCheckUntrustedPullRequestTarget/pull_request_target_checking_out_head_ref_should_trigger_finding', expect: 'fires', reason: "`ref: github.head_ref` without `repository:` names the fork's branch in this repository, where it does not exist (or is another branch of the same name): the fork's code is never fetched, and no step runs anything" },
  { peer: 'pipefort', check: 'cicd-sec-4-cache-poisoning-release', fixture: 'TestCheckCachePoisoningRelease', expect: 'fires', reason: "the tag's run restores from its own ref and the default branch's cache scope, and no workflow of the repository saves there (a tag run's own save stays in the tag's scope): no run an outsider can reach writes an entry the release reads" },
  { peer: 'pipefort', check: 'cicd-sec-1-workflow-run-artifact-poisoning', fixture: 'TestCheckWorkflowRunArtifactPoisoning/workflow_run_downloading_artifacts_triggers_finding', expect: 'fires', reason: "`actions/download-artifact` without `run-id` downloads this run's own artifacts, never the triggering run's, and nothing uses them: nothing a fork's run produced arrives" },
  { peer: 'pipefort', check: 'cicd-sec-4-github-env-injection', fixture: 'TestCheckGitHubEnvInjection/direct_untrusted_context_into_GITHUB_ENV', expect: 'fires', reason: 'the workflow runs on pull_request_target only, where `github.event.issue.title` is empty (only issues and issue_comment carry it): no outsider writes it' },
  { peer: 'pipefort', check: 'cicd-sec-6-hardcoded-secrets', fixture: 'TestCheckHardcodedSecrets/Vulnerable_secrets_should_trigger_findings', expect: 'fires', reason: 'every value is a placeholder: words joined by `-` (`my-plaintext-api-key`), an all-zero Slack webhook (`T00000000/B00000000/XXXX...`), a GitHub token whose body counts 1234567890; flagging them flags every documentation example (the precision policy of issue 24)' },
  { peer: 'pipefort', check: 'cicd-sec-6-overprovisioned-secrets', fixture: 'TestCheckOverprovisionedSecrets#2', expect: 'fires', reason: "the workflow has one job, so the workflow `env:` is that job's `env:`: every step of the job gets the secret either way; we report secrets given to jobs that do not need them" },
  { peer: 'pipefort', check: 'slsa-build-l2-provenance', fixture: 'TestCheckSLSAProvenance/publish_without_attestation_triggers_finding', expect: 'fires', reason: '`softprops/action-gh-release` without `files:` uploads nothing the workflow built (GitHub makes the source archives from the tag itself): there is no artifact to attest' },
  { peer: 'pipefort', check: 'slsa-build-l3-provenance-isolated', fixture: 'TestCheckSLSAProvenanceIsolated/in-job_attestation_flags_as_L2-not-L3', expect: 'fires', reason: 'the job runs no build command before it attests (a checkout only), so no build code holds the OIDC identity that the isolation of SLSA Build L3 keeps away from the build' },
  { peer: 'pipefort', check: 'slsa-build-l2-verify-step', fixture: 'TestCheckSLSAVerifyStep/consume_without_verify_triggers_INFO', expect: 'fires', reason: "`actions/download-artifact` without `run-id` reads this run's own artifact, made minutes before by this workflow's own job: verifying it guards against nobody outside (artifacts a fork's run made are artifact-poisoning's)" },
  { peer: 'pipefort', check: 'cicd-sec-10-continue-on-error-job', fixture: 'TestCheckContinueOnErrorJob/job_continue-on-error:_true_triggers', expect: 'fires', reason: 'the job `flaky` runs `false`: no security gate (scanner, audit, signature or checksum verification) and no publish, so letting it fail hides nothing a gate or a release would have caught; `continue-on-error` on a test or best-effort job is a reliability choice (issue 24)' },
  // Pipefort: expected silences where we deliberately report.
  { peer: 'pipefort', check: 'cicd-sec-1-checkout-persist-credentials', fixture: 'TestCheckCheckoutPersistCredentials/checkout_under_plain_push_is_not_flagged', expect: 'clean', reason: 'we report the token persisted in .git/config at LOW on every trigger, as zizmor does: every later step, and any upload of the workspace, can read it' },
  { peer: 'pipefort', check: 'cicd-sec-4-secrets-inherit-pr-target', fixture: 'TestCheckSecretsInheritPRTarget/secrets_inherit_under_plain_pull_request_is_not_flagged', expect: 'clean', reason: "LOW: pull requests from this repository's own branches run with secrets, and `inherit` hands every one of them to the called workflow; forks get none, which is why it stays LOW" },

  // poutine: expected silences where we deliberately report.
  { peer: 'poutine', check: 'default_permissions_on_risky_events', fixture: '*', expect: 'clean', reason: "we report a workflow without `permissions:` on every trigger (missing-permissions), not only on pull_request_target and issue_comment: the token's default scopes are set outside the file, and may be write-all" },
  { peer: 'poutine', check: 'injection', fixture: 'composite/action.yml', expect: 'clean', reason: "LOW: an action input expanded into a script is injectable by whichever caller passes outsider text; the action cannot know its callers, so we note it at LOW" },
  // poutine: expected findings we deliberately do not report.
  { peer: 'poutine', check: 'untrusted_checkout_exec', fixture: '.github/workflows/valid.yml', expect: 'fires', reason: "the only job runs `if: github.event_name == 'push'`: on pull_request_target it never runs, so the pull request's code is never checked out or run" },
];

/** Our rules for a peer's check (empty when unmapped or unmeasured). */
export function oursFor(peer: Peer, check: string): readonly string[] {
  return CHECKS[peer][check]?.ours ?? [];
}
