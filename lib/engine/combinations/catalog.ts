import type { CombinationKind, StageTemplate } from './types.js';

/*
 * The static catalog of combination kinds (../shared/spec/combinations.md). The texts are written for the
 * maintainer who has to act on them: what each step gives the attacker, what they end with, and the one
 * change that breaks the chain.
 */

function stage(rule_id: string, title: string, description: string): StageTemplate {
  return { rule_id, title, description };
}

// Steps that read the same in every chain they appear in.
const UNTRUSTED_CHECKOUT = stage(
  'untrusted-checkout',
  'Fork code checked out',
  "A workflow that runs with the base repository's privileges (`pull_request_target`, `workflow_run`, comment triggers) checks out the pull request's code, so files the attacker wrote land in the workspace and run in the build steps that follow.",
);
const SCRIPT_INJECTION = stage(
  'script-injection',
  'Attacker text runs as a script',
  "An attacker-controlled value (an issue or pull request title, a branch name, a commit message) is expanded with `${{ }}` into a script before the shell parses it, so a crafted value runs the attacker's commands.",
);
const ARTIFACT_POISONING = stage(
  'artifact-poisoning',
  'Untrusted artifact unpacked in the workspace',
  "A privileged workflow (`workflow_run`, or another that fetches a pull request run's artifacts with `run-id`, `gh run download` or a download action) downloads an artifact a pull request's run produced into its workspace, where the files can replace scripts and configuration the job then uses.",
);
const GITHUB_ENV_INJECTION = stage(
  'github-env-injection',
  'Untrusted data written to GITHUB_ENV',
  'A privileged workflow writes attacker-controlled or artifact data to `$GITHUB_ENV` or `$GITHUB_PATH`; a crafted value sets variables such as `LD_PRELOAD`, `BASH_ENV` or `PATH` for every later step of the job.',
);
const DANGEROUS_TRIGGER = stage(
  'dangerous-trigger',
  'Privileged trigger on outsider events',
  "`pull_request_target` or `workflow_run` gives the workflow the base repository's token and secrets, while an outsider decides when it runs and with what input.",
);
const MISSING_PERMISSIONS = stage(
  'missing-permissions',
  'Token gets the repository default',
  "The workflow declares no `permissions:`, so the job's `GITHUB_TOKEN` has the repository's default scopes, which are read-write on many repositories.",
);
const EXCESSIVE_PERMISSIONS = stage(
  'excessive-permissions',
  'Token has write scopes',
  'The workflow grants its token write scopes (or `write-all`) that every step of the job, including code the attacker controls, can use.',
);
const DEFAULT_TOKEN_WRITE = stage(
  'default-token-write',
  'Default token is read-write',
  'The repository gives workflows a read-write token by default, so every job without its own `permissions:` can push commits, move tags and create releases.',
);
const SECRETS_INHERIT = stage(
  'secrets-inherit',
  'Every secret passed on',
  'The job calls a reusable workflow with `secrets: inherit`, handing it every secret of the repository instead of the few it needs.',
);
const OVERPROVISIONED_SECRETS = stage(
  'overprovisioned-secrets',
  'Secrets within reach of every step',
  '`toJSON(secrets)`, a computed `secrets[...]` lookup or secrets in workflow-level `env:` put every secret of the repository within reach of the job.',
);
const PERSONAL_ACCESS_TOKEN = stage(
  'personal-access-token',
  'Long-lived personal access token in the job',
  'A personal access token is passed to a step; unlike `GITHUB_TOKEN` it does not expire when the run ends and often reaches other repositories of its owner.',
);
const HARDCODED_CREDENTIALS = stage(
  'hardcoded-credentials',
  'Credential written in the file',
  'A credential is written literally in the workflow, where the code of every step, and anyone who can read the repository, can copy it.',
);
const SECRET_IN_LOG = stage(
  'secret-in-log',
  'Secret written to logs or outputs',
  'A step prints a secret or writes it to `$GITHUB_OUTPUT` or `$GITHUB_ENV`, where log masking misses transformed values and every later step can read it.',
);
const DEBUG_LOGGING = stage(
  'debug-logging-enabled',
  'Debug logging forced on',
  "`ACTIONS_STEP_DEBUG` or `ACTIONS_RUNNER_DEBUG` is set in the workflow's `env:`. GitHub's own debug logging needs a secret or variable of that name, but the actions and tools that read the variable themselves print more on every run, for anyone who can read the logs.",
);
/**
 * The self-hosted-runner finding's fact for labels that suggest ephemeral runners (Actions Runner Controller scale
 * sets such as `arc-runner-set`, `ephemeral` in a label or group): persistence is then only a possibility.
 */
const EPHEMERAL_HINT = 'runner:ephemeral-hint';
const SELF_HOSTED_RUNNER: StageTemplate = {
  ...stage(
    'self-hosted-runner',
    'Runs on a self-hosted runner',
    'The job runs on a self-hosted machine that keeps its state between jobs, so whatever runs there can stay behind and watch the jobs that follow.',
  ),
  notes: [{ fact: EPHEMERAL_HINT, text: 'Its labels suggest ephemeral runners (a fresh machine or pod per job, as Actions Runner Controller scale sets give): then nothing stays behind, and this holds only if the runners are reused between jobs.' }],
};
const DOWNLOAD_WITHOUT_CHECKSUM = stage(
  'download-without-checksum',
  'Downloads not verified',
  'A step downloads a binary, archive or script without checking a pinned checksum or signature, so a tampered file runs unnoticed.',
);
const MISSING_PROVENANCE = stage(
  'missing-provenance',
  'Release has no provenance',
  'The release is published without build provenance or signatures, so users cannot tell a tampered artifact from a genuine one.',
);
const ACTIONS_CAN_APPROVE = stage(
  'actions-can-approve-prs',
  'Workflows can approve pull requests',
  "The repository lets `GITHUB_TOKEN` submit approving reviews, so a workflow (or code running in one) can approve a pull request it opened itself.",
);

const PERMISSION_STAGES = [MISSING_PERMISSIONS, EXCESSIVE_PERMISSIONS, DEFAULT_TOKEN_WRITE];

/*
 * What a grant or a secret adds to a chain must be what the entry's job run holds (run model, holdings.ts):
 * a default token (no `permissions:` for the job: `token:default`) for `missing-permissions` and the settings'
 * `default-token-write`, a write scope or OIDC for `excessive-permissions`, secrets for `secrets-inherit` and
 * `overprovisioned-secrets`. A grant the entry's job overrides, or secrets of a job the entry never runs in, join nothing.
 */
const DEFAULT_TOKEN_OF_ENTRY = (rule_id: 'missing-permissions' | 'default-token-write') =>
  ({ rule_id, min_severity: 'LOW', instance: "the default token of the entry's job", entry_facts: ['token:default'] }) as const;
const GRANT_OF_ENTRY = { rule_id: 'excessive-permissions', min_severity: 'LOW', instance: "a write grant the entry's job holds", entry_facts: ['holds:token|holds:oidc'] } as const;
// `secrets-inherit` to a workflow of this same repository is INFO (tidiness: no other party gains the secrets), but
// the job still holds every secret: it joins as the others do.
const SECRETS_OF_ENTRY = (rule_id: 'secrets-inherit' | 'overprovisioned-secrets') =>
  ({ rule_id, min_severity: rule_id === 'secrets-inherit' ? 'INFO' : 'LOW', instance: "secrets the entry's job holds", entry_facts: ['holds:secrets'] }) as const;
const ENV_ADVICE =
  'Pass the value through an environment variable instead of expanding it in the script: `env: TITLE: ${{ github.event.issue.title }}`, then use `"$TITLE"` in `run:` (or `process.env.TITLE` in `actions/github-script`), so the shell never parses it as code.';

/** Every kind of combination, ordered by severity then id (the order of the output). */
export const COMBINATION_KINDS: readonly CombinationKind[] = [
  {
    id: 'artifact-poisoning-chain',
    title: 'Poisoned pull request artifact used by a privileged workflow',
    severity: 'CRITICAL',
    scope: 'file',
    requires: [['artifact-poisoning'], ['github-env-injection', 'missing-permissions', 'excessive-permissions', 'secrets-inherit']],
    amplifiers: [],
    // The run model's facts: a step runs (or the environment of later steps carries) what the outsider's run
    // produced, and an outsider starts the job without an approval of that content.
    qualifiers: [
      { rule_id: 'artifact-poisoning', min_severity: 'MEDIUM', instance: 'an artifact a later step runs, in a job an outsider starts', facts: ['exec', 'reach:anyone|reach:sticky-label'] },
      { rule_id: 'github-env-injection', min_severity: 'MEDIUM', instance: 'a write that later steps of the job read, in a job an outsider starts', facts: ['exec', 'reach:anyone|reach:sticky-label'] },
      DEFAULT_TOKEN_OF_ENTRY('missing-permissions'),
      GRANT_OF_ENTRY,
      SECRETS_OF_ENTRY('secrets-inherit'),
    ],
    break_chain: [
      {
        rule_id: 'artifact-poisoning',
        advice:
          'Download the artifact to a directory outside the workspace (for example `path: ${{ runner.temp }}/artifact`) and treat its contents as untrusted data: validate what you read from it, and never execute it, source it or write it to `$GITHUB_ENV`.',
      },
    ],
    impact:
      "A pull request's build uploads crafted files that the privileged workflow unpacks and uses, so the attacker runs code with that workflow's token and secrets.",
    impact_title: "Attacker code runs with the privileged workflow's token",
    stages: [ARTIFACT_POISONING, GITHUB_ENV_INJECTION, ...PERMISSION_STAGES.slice(0, 2), SECRETS_INHERIT],
  },
  {
    id: 'compromised-action',
    title: 'Compromised or look-alike action with access to the token or secrets',
    severity: 'CRITICAL',
    scope: 'file',
    requires: [['known-vulnerable-action', 'typosquat-action'], ['missing-permissions', 'excessive-permissions', 'secrets-inherit', 'overprovisioned-secrets']],
    amplifiers: [],
    // An advisory that needs more than the action running (debug artifacts of a failed run, a shared runner,
    // a spreadsheet someone opens) is MEDIUM and starts no CRITICAL path.
    // Only a compromise (malicious code in the version used: `advisory:compromise`); a bug an outsider's text
    // exploits is the advisory finding's own claim (an injection), not a compromised action's.
    qualifiers: [{ rule_id: 'known-vulnerable-action', min_severity: 'HIGH', instance: 'a compromise: malicious code runs when the action runs', facts: ['advisory:compromise'] }],
    break_chain: [
      {
        rule_id: 'known-vulnerable-action',
        advice:
          'Upgrade the action to a fixed release pinned by its full commit SHA, then rotate every secret and token the job could read since the affected version was first used.',
      },
      {
        rule_id: 'typosquat-action',
        advice:
          'Compare the action\'s owner and name with the action you meant to use, switch to the genuine one pinned by its full commit SHA, and rotate every secret and token the job could read.',
      },
    ],
    impact: "Code from a known-compromised or impostor action runs inside the job and takes its token and secrets with it.",
    impact_title: 'Token and secrets stolen by the action',
    stages: [
      stage(
        'known-vulnerable-action',
        'Action version with a known compromise',
        'The job uses a version of an action that falls inside a published advisory or a known compromise, such as the 2025 `tj-actions/changed-files` incident.',
      ),
      stage(
        'typosquat-action',
        'Look-alike action',
        "The action's name is one character away from a popular action: the classic way to get an impostor's code into a workflow.",
      ),
      ...PERMISSION_STAGES.slice(0, 2),
      SECRETS_INHERIT,
      OVERPROVISIONED_SECRETS,
    ],
  },
  {
    id: 'injected-runner-takeover',
    title: 'Attacker code on a self-hosted runner',
    severity: 'CRITICAL',
    scope: 'file',
    requires: [['script-injection', 'untrusted-checkout'], ['self-hosted-runner']],
    amplifiers: ['missing-timeout'],
    // MEDIUM is a runner group or an unknown label on a pull request workflow: possibly a GitHub-hosted larger
    // runner, which persists nothing, so no CRITICAL "foothold on your runner" from it (the injection's own paths remain).
    // The entry runs an outsider's text or code (a fork's `pull_request` run counts: on a self-hosted runner the
    // machine is the prize, whatever the token) in a job the run model places on a definite self-hosted runner.
    qualifiers: [
      {
        rule_id: 'script-injection',
        min_severity: 'MEDIUM',
        instance: "outsider text run in a job on a definite self-hosted runner (a fork's pull request run counts)",
        facts: ['exec', 'reach:anyone|reach:sticky-label|reach:fork-pr', 'holds:self-hosted'],
      },
      {
        rule_id: 'untrusted-checkout',
        min_severity: 'MEDIUM',
        instance: 'a checkout whose code a later step runs, started by an outsider, in a job on a definite self-hosted runner',
        facts: ['exec', 'reach:anyone|reach:sticky-label|reach:unreviewed-environment|reach:fork-pr', 'holds:self-hosted'],
      },
      // A runner group or custom label (`runner:possible`) may be a GitHub-hosted larger runner, which persists nothing.
      { rule_id: 'self-hosted-runner', min_severity: 'LOW', instance: "job on a definite self-hosted runner (the `self-hosted` label, or a group or label named after another cloud's machine)", facts: ['holds:self-hosted'] },
    ],
    break_chain: [
      {
        rule_id: 'self-hosted-runner',
        advice:
          'Run this job on a GitHub-hosted runner (`runs-on: ubuntu-latest`), or on ephemeral self-hosted runners that are destroyed after every job (`config.sh --ephemeral`, Actions Runner Controller); never run outsider-reachable jobs on a persistent machine.',
      },
    ],
    impact:
      'Attacker code runs on your own machine, where it can stay behind, steal the secrets and tokens of the jobs that run there next, and reach your internal network.',
    impact_variants: [
      {
        when: { rule_id: 'self-hosted-runner', facts: [EPHEMERAL_HINT] },
        impact:
          'Attacker code runs on your own machine, where it can reach your internal network and, if the runners are reused between jobs (the labels suggest ephemeral ones), stay behind and steal the secrets and tokens of the jobs that run there next.',
      },
    ],
    impact_title: 'Persistent foothold on your runner',
    stages: [
      SCRIPT_INJECTION,
      UNTRUSTED_CHECKOUT,
      SELF_HOSTED_RUNNER,
      stage('missing-timeout', 'No job timeout', 'Without `timeout-minutes` the job can keep the runner, and the token, for up to 6 hours.'),
    ],
  },
  {
    id: 'injection-secret-exfiltration',
    title: 'Script injection in a job that holds secrets',
    severity: 'CRITICAL',
    scope: 'file',
    requires: [['script-injection'], ['secrets-inherit', 'overprovisioned-secrets', 'hardcoded-credentials', 'secret-in-log', 'personal-access-token']],
    amplifiers: ['debug-logging-enabled'],
    // The injection's own claim (run model): its text runs, an outsider brings it in through a privileged event
    // (a value only `pull_request` brings in runs where a fork's run has no secrets), and its job holds secrets.
    qualifiers: [
      {
        rule_id: 'script-injection',
        min_severity: 'MEDIUM',
        instance: 'outsider text run on a privileged event in a job that holds secrets',
        facts: ['exec', 'reach:anyone|reach:sticky-label', 'holds:secrets'],
      },
    ],
    break_chain: [{ rule_id: 'script-injection', advice: ENV_ADVICE }],
    impact:
      "An outsider's injected commands read the job's secrets and send them out, leaving the attacker with credentials that outlive the run: registry tokens, cloud keys, personal access tokens.",
    impact_title: 'Secrets stolen',
    stages: [SCRIPT_INJECTION, SECRETS_INHERIT, OVERPROVISIONED_SECRETS, HARDCODED_CREDENTIALS, SECRET_IN_LOG, PERSONAL_ACCESS_TOKEN, DEBUG_LOGGING],
  },
  {
    id: 'injection-token-theft',
    title: 'Script injection with a write-scoped token',
    severity: 'CRITICAL',
    scope: 'file',
    requires: [['script-injection'], ['missing-permissions', 'excessive-permissions', 'default-token-write']],
    amplifiers: ['dangerous-trigger'],
    // The injection's own claim (run model): its text runs, an outsider brings it in through a privileged event,
    // and its job's token can write (a value only `pull_request` brings in runs with a fork's read-only token).
    qualifiers: [
      {
        rule_id: 'script-injection',
        min_severity: 'MEDIUM',
        instance: 'outsider text run on a privileged event in a job whose token can write',
        facts: ['exec', 'reach:anyone|reach:sticky-label', 'holds:token'],
      },
      DEFAULT_TOKEN_OF_ENTRY('missing-permissions'),
      DEFAULT_TOKEN_OF_ENTRY('default-token-write'),
    ],
    break_chain: [{ rule_id: 'script-injection', advice: ENV_ADVICE }],
    impact:
      "Anyone who can open an issue or a pull request, or name a branch, runs commands in the job and uses its write-scoped `GITHUB_TOKEN` to push code, move tags or publish releases.",
    impact_title: 'Repository write access',
    stages: [DANGEROUS_TRIGGER, SCRIPT_INJECTION, ...PERMISSION_STAGES],
  },
  {
    id: 'public-runner-takeover',
    title: 'Fork pull requests run on self-hosted runners',
    severity: 'CRITICAL',
    scope: 'repo',
    requires: [['self-hosted-runner'], ['fork-pr-approval-weak', 'self-hosted-runner-public-repo']],
    amplifiers: ['default-token-write'],
    // The run model: a fork's `pull_request` run puts its code on a definite self-hosted runner (HIGH: no approval in the way).
    qualifiers: [
      {
        rule_id: 'self-hosted-runner',
        min_severity: 'HIGH',
        instance: "job on a definite self-hosted runner that runs a fork pull request's code",
        facts: ['exec', 'reach:fork-pr', 'holds:self-hosted'],
      },
    ],
    break_chain: [
      {
        rule_id: 'fork-pr-approval-weak',
        advice:
          'In Settings > Actions > General, require approval for all external contributors before fork pull request workflows run, and move `pull_request` jobs to GitHub-hosted runners.',
      },
    ],
    impact:
      'Anyone with a GitHub account opens a pull request and runs code on your self-hosted runner, where it can stay behind, attack the jobs that follow and reach your network.',
    impact_variants: [
      {
        when: { rule_id: 'self-hosted-runner', facts: [EPHEMERAL_HINT] },
        impact:
          'Anyone with a GitHub account opens a pull request and runs code on your self-hosted runner, where it can reach your network and, if the runners are reused between jobs (the labels suggest ephemeral ones), stay behind and attack the jobs that follow.',
      },
    ],
    impact_title: 'Persistent foothold on your runner',
    stages: [
      stage(
        'self-hosted-runner',
        'Pull request jobs on a self-hosted runner',
        "A job triggered by `pull_request` runs on a self-hosted runner, so the pull request's code runs on your machine.",
      ),
      stage(
        'fork-pr-approval-weak',
        'Fork pull requests run without approval',
        'The repository runs workflows for pull requests from (some) outside contributors without a maintainer approving them first.',
      ),
      stage(
        'self-hosted-runner-public-repo',
        'Self-hosted runners on a public repository',
        'Self-hosted runners are registered to this public repository, where anyone can open a pull request.',
      ),
      DEFAULT_TOKEN_WRITE,
    ],
  },
  {
    id: 'pwn-request',
    title: "Pull request code runs with the base repository's privileges",
    severity: 'CRITICAL',
    scope: 'file',
    requires: [['untrusted-checkout'], ['missing-permissions', 'excessive-permissions', 'default-token-write', 'secrets-inherit']],
    amplifiers: ['persisted-credentials', 'script-injection'],
    // Only a grant that hands the pull request's code the repository (contents, packages, actions, id-token
    // or write-all on the privileged trigger: excessive-permissions rates exactly those HIGH) makes this
    // CRITICAL; `statuses`, `checks`, `issues` or `pull-requests` write add nothing the checkout's own HIGH
    // finding does not already say (see README.md, "pwn-request: which grants count").
    qualifiers: [
      {
        rule_id: 'untrusted-checkout',
        min_severity: 'MEDIUM',
        instance: 'a checkout whose code a later step of the job runs, started by an outsider',
        facts: ['exec', 'reach:anyone|reach:sticky-label|reach:unreviewed-environment'],
      },
      DEFAULT_TOKEN_OF_ENTRY('missing-permissions'),
      { ...GRANT_OF_ENTRY, min_severity: 'HIGH', instance: 'a grant of contents, packages, actions or id-token write, or write-all, that the checkout\'s job holds' },
      DEFAULT_TOKEN_OF_ENTRY('default-token-write'),
      SECRETS_OF_ENTRY('secrets-inherit'),
      // The amplifier tells of an outsider's text run in the same privileged job run, not of a fork's own read-only run.
      { rule_id: 'script-injection', min_severity: 'MEDIUM', instance: 'outsider text run on a privileged event', facts: ['exec', 'reach:anyone|reach:sticky-label'] },
    ],
    break_chain: [
      {
        rule_id: 'untrusted-checkout',
        advice:
          'Check out the base branch in the privileged workflow, or move the build to a `pull_request` workflow (read-only token, no secrets) and pass its results via artifacts that the privileged workflow reads in a separate step, as data it never executes.',
      },
    ],
    impact:
      "Any pull request from a fork runs its own code with a write-scoped token or the repository's secrets, so its author can push commits, tamper with releases or steal the secrets.",
    impact_title: 'Repository write access or secrets stolen',
    stages: [
      UNTRUSTED_CHECKOUT,
      SCRIPT_INJECTION,
      stage(
        'persisted-credentials',
        'Token left in .git/config',
        '`actions/checkout` stores the token in `.git/config`, where the build scripts of the checked-out pull request can read it.',
      ),
      ...PERMISSION_STAGES,
      SECRETS_INHERIT,
    ],
  },
  {
    id: 'repository-takeover',
    title: 'Outsider code can push to an unprotected default branch',
    severity: 'CRITICAL',
    scope: 'repo',
    requires: [
      ['untrusted-checkout', 'script-injection', 'artifact-poisoning'],
      ['default-token-write'],
      ['branch-protection-missing', 'admin-bypass-allowed', 'force-push-allowed'],
    ],
    amplifiers: ['actions-can-approve-prs'],
    // The entry runs an outsider's code or text in a job an outsider starts, and that job's token is the default
    // one (no `permissions:`), which the settings make read-write.
    qualifiers: [
      {
        rule_id: 'untrusted-checkout',
        min_severity: 'MEDIUM',
        instance: 'a checkout whose code a later step runs, started by an outsider',
        facts: ['exec', 'reach:anyone|reach:sticky-label|reach:unreviewed-environment'],
      },
      { rule_id: 'script-injection', min_severity: 'MEDIUM', instance: 'outsider text run on a privileged event', facts: ['exec', 'reach:anyone|reach:sticky-label'] },
      { rule_id: 'artifact-poisoning', min_severity: 'MEDIUM', instance: 'an artifact a later step runs, in a job an outsider starts', facts: ['exec', 'reach:anyone|reach:sticky-label'] },
      DEFAULT_TOKEN_OF_ENTRY('default-token-write'),
    ],
    break_chain: [
      {
        rule_id: 'default-token-write',
        advice:
          'In Settings > Actions > General > Workflow permissions, choose "Read repository contents and packages permissions", then grant write scopes with `permissions:` only to the jobs that need them.',
      },
    ],
    impact:
      "An outsider's code runs with a read-write token and pushes straight to the default branch, taking over the code that every user, deployment and release builds from.",
    impact_title: 'Default branch taken over',
    stages: [
      UNTRUSTED_CHECKOUT,
      SCRIPT_INJECTION,
      ARTIFACT_POISONING,
      DEFAULT_TOKEN_WRITE,
      stage(
        'branch-protection-missing',
        'Default branch unprotected',
        'No branch protection rule or ruleset guards the default branch, so the token can push to it directly.',
      ),
      stage(
        'admin-bypass-allowed',
        'Protection can be bypassed',
        'Branch protection exempts administrators (or a ruleset lists bypass actors), so it does not reliably stop pushes to the default branch.',
      ),
      stage(
        'force-push-allowed',
        'Force pushes allowed',
        'Force pushes to the default branch are allowed, so history can be rewritten and the change hidden.',
      ),
      stage(
        'actions-can-approve-prs',
        'Workflows can approve pull requests',
        'Workflows may approve pull requests, so the same token can also satisfy a required review.',
      ),
    ],
  },
  {
    id: 'agent-prompt-injection-takeover',
    title: 'AI agent that reads text anyone can write holds a write token or secrets',
    severity: 'HIGH',
    scope: 'file',
    requires: [['agent-untrusted-input'], ['excessive-permissions', 'missing-permissions', 'default-token-write', 'secrets-inherit', 'overprovisioned-secrets']],
    amplifiers: [],
    // What the grant or secret adds must be what the agent's job holds (the finding carries the job's holdings).
    qualifiers: [
      GRANT_OF_ENTRY,
      DEFAULT_TOKEN_OF_ENTRY('missing-permissions'),
      DEFAULT_TOKEN_OF_ENTRY('default-token-write'),
      SECRETS_OF_ENTRY('secrets-inherit'),
      SECRETS_OF_ENTRY('overprovisioned-secrets'),
    ],
    break_chain: [
      {
        rule_id: 'agent-untrusted-input',
        advice:
          "Give the agent's job read-only permissions and only the secrets it needs (no `id-token: write`, no other credential than its model key), and let a separate job with write access act on its reviewed output, or restrict the agent's tools to an allowlist that runs no shell command able to write files (`echo`, `printf`, `cat`, `tee`). Starting it only for trusted actors (`author_association`, the actor's permission) keeps outsiders from starting it, but not from writing the thread it reads.",
      },
    ],
    impact:
      "Text anyone can put in an issue, comment or pull request becomes instructions to the agent that reads it, which uses the job's write token to push code or publish, or sends its secrets out.",
    impact_title: 'Repository write access or secrets stolen through the agent',
    attacker: 'an outside GitHub user (an issue, a comment or a pull request the agent reads)',
    stages: [
      stage(
        'agent-untrusted-input',
        'Agent reads text anyone can write',
        'An AI coding agent, acting with its tools and the GitHub API, runs on an issue, comment or pull request and builds its prompt from the thread (title, body, earlier comments), which anyone can write: whether an outsider starts it or a maintainer does, nothing checks who wrote that text.',
      ),
      EXCESSIVE_PERMISSIONS,
      MISSING_PERMISSIONS,
      DEFAULT_TOKEN_WRITE,
      SECRETS_INHERIT,
      OVERPROVISIONED_SECRETS,
    ],
  },
  {
    id: 'bot-confused-deputy',
    title: 'Bot check guards a privileged job',
    severity: 'HIGH',
    scope: 'file',
    requires: [['bot-actor-condition'], ['dangerous-trigger', 'excessive-permissions', 'missing-permissions']],
    amplifiers: [],
    // The privileged trigger counts only where some job of it takes an outsider's code, artifacts or text
    // (dangerous-trigger MEDIUM or HIGH); LOW is a `pull_request_target` whose jobs use nothing of the pull request,
    // where passing the bot check gives the attacker nothing to run.
    // The bot check must let through steps that run the pull request's code or merge it while the job holds
    // something worth taking (bot-actor-condition HIGH); one that lets through only an approval, a label or a
    // comment hands the attacker that act, not the job's privileges.
    qualifiers: [
      { rule_id: 'dangerous-trigger', min_severity: 'MEDIUM', instance: "a privileged trigger whose jobs take an outsider's code, artifacts or text" },
      { rule_id: 'bot-actor-condition', min_severity: 'HIGH', instance: "a bot check that lets the pull request's code run, or merges it, where the job holds something worth taking" },
    ],
    break_chain: [
      {
        rule_id: 'bot-actor-condition',
        advice:
          "Check who wrote the change, not who triggered the run: compare `github.event.pull_request.user.login` (not `github.actor`) with the bot's login, and for Dependabot read `dependabot/fetch-metadata` in a `pull_request` workflow.",
      },
    ],
    impact:
      "An attacker gets a bot to act on their pull request (for example by asking Dependabot to rebase it), the `github.actor` check passes, and their code runs with the workflow's privileges.",
    impact_title: "Attacker code runs with the workflow's privileges",
    stages: [
      stage(
        'bot-actor-condition',
        'Job trusts a bot actor',
        "The job's `if:` lets it run when `github.actor` is a bot, but the actor is whoever last caused the event, not whoever wrote the code it runs.",
      ),
      DANGEROUS_TRIGGER,
      EXCESSIVE_PERMISSIONS,
      MISSING_PERMISSIONS,
    ],
  },
  {
    id: 'cache-poisoning-release',
    title: 'Poisoned cache can reach a release',
    severity: 'HIGH',
    scope: 'repo',
    requires: [['untrusted-checkout', 'script-injection', 'github-env-injection'], ['cache-poisoning']],
    amplifiers: ['missing-provenance'],
    // HIGH: a release restores a cache that an outsider's run in the default branch's scope writes (the finding
    // names that run). MEDIUM cases are a release only collaborators' runs write to, or a `pull_request_target`
    // or `workflow_run` job that is no release.
    // The entry must be one of the writers the release finding names (`writer:<file>#<job>`): a job that runs
    // an outsider's code or text in the default branch's cache scope.
    qualifiers: [
      { rule_id: 'untrusted-checkout', min_severity: 'MEDIUM', instance: 'a checkout whose code runs in a job the release finding names as a writer', facts: ['exec'], named_by: { rule_id: 'cache-poisoning', fact: 'writer' } },
      { rule_id: 'script-injection', min_severity: 'MEDIUM', instance: 'an injection in a job the release finding names as a writer', named_by: { rule_id: 'cache-poisoning', fact: 'writer' } },
      { rule_id: 'github-env-injection', min_severity: 'MEDIUM', instance: 'a write in a job the release finding names as a writer', named_by: { rule_id: 'cache-poisoning', fact: 'writer' } },
      { rule_id: 'cache-poisoning', min_severity: 'HIGH', instance: 'release restoring a cache an outsider can write', facts: ['holds:publish'] },
    ],
    // The writer named is a job that saves, in the normal course, a cache the release's restore reads (the same
    // action and package manager, an `actions/cache` key of the same shape or under a restore key: cache-scope.ts
    // `writerSave`) whenever the release finding names one; `cache:by-hand` says none of the jobs it names does,
    // so their code must write the entry through the runner's cache token, which the release takes only while its
    // key has no entry yet or once the legitimate entry is evicted (entries are immutable per key and scope).
    break_chain: [
      {
        rule_id: 'cache-poisoning',
        when: { facts: ['cache:by-hand'] },
        advice:
          "Do not restore caches in release and publishing workflows: remove `actions/cache` and the `cache:` input of `setup-*` actions there (turn off the caches `setup-go` and `setup-uv` keep by default: `cache: false`, `enable-cache: false`), drop `cache-from: type=gha` from `docker/build-push-action`, and build releases from a clean state. The job that runs the outsider's code saves no cache the release restores, so taking caching out of that job does not break the chain: code running there writes the entry by hand through the runner's cache token, and the release takes it the first time its key has no entry (a new lockfile or cache key) or once the legitimate entry is evicted.",
      },
      {
        rule_id: 'cache-poisoning',
        advice:
          'Do not restore caches in release and publishing workflows: remove `actions/cache` and the `cache:` input of `setup-*` actions there (turn off the caches `setup-go` and `setup-uv` keep by default: `cache: false`, `enable-cache: false`), drop `cache-from: type=gha` from `docker/build-push-action`, and build releases from a clean state.',
      },
    ],
    impact:
      "Code an outsider gets to run writes a poisoned entry to the repository's Actions cache, which the release workflow restores and ships inside your published artifacts.",
    impact_variants: [
      {
        when: { rule_id: 'cache-poisoning', facts: ['cache:by-hand'] },
        impact:
          "Code an outsider gets to run, in a job that saves no cache the release restores, writes a poisoned entry under the release's cache key by hand through the runner's cache token; the release restores it and ships it inside your published artifacts the first time that key has no entry (after a lockfile or cache key change) or once the legitimate entry is evicted (unused for 7 days, or pushed out past the repository's cache limit).",
      },
    ],
    impact_title: 'Tampered release published',
    stages: [
      UNTRUSTED_CHECKOUT,
      SCRIPT_INJECTION,
      GITHUB_ENV_INJECTION,
      stage(
        'cache-poisoning',
        'Release restores the cache',
        "A release or publishing workflow restores dependencies or build output from the Actions cache, which any workflow running in the default branch's scope, including one running attacker code, can write.",
      ),
      MISSING_PROVENANCE,
    ],
  },
  {
    id: 'env-injection-hijack',
    title: 'Untrusted environment variables in a privileged job',
    severity: 'HIGH',
    scope: 'file',
    requires: [['github-env-injection'], ['missing-permissions', 'excessive-permissions', 'secrets-inherit', 'overprovisioned-secrets']],
    amplifiers: [],
    qualifiers: [
      { rule_id: 'github-env-injection', min_severity: 'MEDIUM', instance: 'a write that later steps of the job read, in a job an outsider starts', facts: ['exec', 'reach:anyone|reach:sticky-label'] },
      DEFAULT_TOKEN_OF_ENTRY('missing-permissions'),
      GRANT_OF_ENTRY,
      SECRETS_OF_ENTRY('secrets-inherit'),
      SECRETS_OF_ENTRY('overprovisioned-secrets'),
    ],
    break_chain: [
      {
        rule_id: 'github-env-injection',
        advice:
          'Do not write event or artifact data to `$GITHUB_ENV` or `$GITHUB_PATH`: validate the value, then pass it to the steps that need it with step `outputs` or their own `env:`.',
      },
    ],
    impact:
      'Environment variables the attacker chooses (`LD_PRELOAD`, `BASH_ENV`, `PATH` entries) run their code in every later step of the job, with its token and secrets.',
    impact_title: "Attacker code runs with the job's token and secrets",
    stages: [GITHUB_ENV_INJECTION, ...PERMISSION_STAGES.slice(0, 2), SECRETS_INHERIT, OVERPROVISIONED_SECRETS],
  },
  {
    id: 'mutable-action-secret-theft',
    title: 'Mutable third-party action in a job with secrets',
    severity: 'HIGH',
    scope: 'file',
    requires: [['unpinned-action'], ['secrets-inherit', 'overprovisioned-secrets', 'personal-access-token']],
    amplifiers: ['all-actions-allowed', 'sha-pinning-not-required'],
    // Someone else's action (ownership.ts: not the repository's owner, not GitHub), in a job whose secrets reach
    // either the action itself (`secrets:step`) or only the runner's memory (`secrets:job`); the stage says which.
    qualifiers: [
      {
        rule_id: 'unpinned-action',
        min_severity: 'MEDIUM',
        instance: 'third-party action in a job that holds secrets',
        facts: ['owner:third-party', 'secrets:step|secrets:job'],
      },
    ],
    // Pinning this one action leaves the chain standing when other third-party actions of the job are on tags too.
    break_chain: [
      {
        rule_id: 'unpinned-action',
        when: { several: ['unpinned-action'] },
        advice:
          'Pin this action and every other third-party action of the job to a full commit SHA (`uses: owner/action@<40-hex sha> # v1.2.3`): each of them can take the secrets; let Dependabot or Renovate propose updates, so new code reaches the job only through a reviewed change.',
      },
      {
        rule_id: 'unpinned-action',
        advice:
          'Pin the action to a full commit SHA (`uses: owner/action@<40-hex sha> # v1.2.3`) and let Dependabot or Renovate propose updates, so new code reaches the job only through a reviewed change.',
      },
    ],
    impact:
      "Whoever controls the third-party action's tag (its maintainer, or an attacker who takes over their account) changes the code this job runs and takes its secrets, as happened with `tj-actions/changed-files` in 2025.",
    impact_title: 'Secrets stolen through the action',
    stages: [
      {
        ...stage(
          'unpinned-action',
          'Third-party action on a mutable tag',
          'A third-party action is referenced by a tag or branch, which its owner, or whoever takes over the account, can move to new code at any time.',
        ),
        notes: [
          { fact: 'secrets:step', text: 'Secrets of the job are passed to the action itself (its `with:` or environment), so the moved code is handed them directly.' },
          {
            fact: 'secrets:job',
            text: "None of the job's secrets is passed to the action itself, but they are in the runner's memory while the job runs, where the action's code can read them.",
          },
        ],
      },
      stage('all-actions-allowed', 'Any action may run', 'The repository allows every third-party action, so nothing limits what a moved tag can bring in.'),
      stage('sha-pinning-not-required', 'SHA pinning not enforced', 'The repository does not require actions to be pinned to a full commit SHA.'),
      SECRETS_INHERIT,
      OVERPROVISIONED_SECRETS,
      PERSONAL_ACCESS_TOKEN,
    ],
  },
  {
    id: 'open-dispatch-secret-leak',
    title: 'Any repository_dispatch event runs a workflow that leaks secrets',
    severity: 'HIGH',
    scope: 'repo',
    requires: [['repository-dispatch-unfiltered'], ['secret-in-log', 'debug-logging-enabled', 'hardcoded-credentials']],
    amplifiers: [],
    // The secret must reach the log or the summary (not `$GITHUB_ENV`, where it stays masked), in a step that a
    // dispatch event runs (run model: the events of the step's run set).
    qualifiers: [
      {
        rule_id: 'secret-in-log',
        min_severity: 'HIGH',
        instance: 'a secret printed to the log by a step a dispatch event runs',
        facts: ['dest:log|dest:summary', 'event:repository_dispatch'],
      },
    ],
    break_chain: [
      {
        rule_id: 'repository-dispatch-unfiltered',
        advice:
          'List the event types the workflow handles (`on: repository_dispatch: types: [deploy]`) and validate `github.event.client_payload` before using it.',
      },
    ],
    impact:
      'Anyone holding a token that can send `repository_dispatch` to this repository (often a widely shared automation token) runs the workflow on demand, with a payload of their choice, and reads the secrets it exposes in the logs.',
    impact_title: 'Secrets read from the logs',
    stages: [
      stage(
        'repository-dispatch-unfiltered',
        'Any dispatch event starts the workflow',
        '`repository_dispatch` has no `types:` list, so every dispatch event, with any payload, starts the workflow.',
      ),
      SECRET_IN_LOG,
      DEBUG_LOGGING,
      HARDCODED_CREDENTIALS,
    ],
  },
  {
    id: 'persistent-supply-chain-foothold',
    title: 'Mutable third-party code runs on a self-hosted runner',
    severity: 'HIGH',
    scope: 'file',
    requires: [['unpinned-action', 'unpinned-image'], ['self-hosted-runner']],
    amplifiers: [],
    // A GitHub-owned action or the repository's own image (LOW) is not someone else's code to take over; the
    // mutable code must run in a job the run model places on a definite self-hosted runner (the `self-hosted`
    // label, or a name of another cloud's machine: `holds:self-hosted`), not a custom label that may be a
    // GitHub-hosted larger runner.
    qualifiers: [
      { rule_id: 'unpinned-action', min_severity: 'MEDIUM', instance: 'third-party action in a job on a definite self-hosted runner', facts: ['owner:third-party', 'holds:self-hosted'] },
      { rule_id: 'unpinned-image', min_severity: 'MEDIUM', instance: 'image the repository does not publish, in a job on a definite self-hosted runner', facts: ['owner:third-party', 'holds:self-hosted'] },
      // A runner group or custom label (`runner:possible`) may be a GitHub-hosted larger runner, which persists nothing.
      { rule_id: 'self-hosted-runner', min_severity: 'LOW', instance: "job on a definite self-hosted runner (the `self-hosted` label, or a group or label named after another cloud's machine)", facts: ['holds:self-hosted'] },
    ],
    // Pinning one action breaks the chain only when it is the job's one mutable input: a runner that already runs
    // an outsider's code (self-hosted-runner with `exec`), a job that builds someone else's repository cloned at a
    // branch or tag (`clone:mutable`, run model: RunModel.mutableClones), or a job with other mutable inputs
    // (actions or images on tags, downloads nothing verifies, remote scripts), breaks at the runner.
    break_chain: [
      {
        rule_id: 'self-hosted-runner',
        when: { facts: ['exec|clone:mutable'], several: ['unpinned-action', 'unpinned-image', 'download-without-checksum', 'pipe-to-shell'] },
        advice:
          "Run this job on a GitHub-hosted runner, or make the runner ephemeral (`config.sh --ephemeral`, Actions Runner Controller) so nothing a job leaves behind survives it: the runner takes more than this one mutable input (other actions or images on tags, unverified downloads, another repository cloned at a branch and built, or pull request code), so pinning one of them leaves the others; then pin the actions and images by SHA and digest, and check out a full commit SHA of what the job clones.",
      },
      {
        rule_id: 'unpinned-action',
        advice:
          'Pin the action to a full commit SHA (`uses: owner/action@<40-hex sha> # v1.2.3`) and let Dependabot or Renovate propose updates; for good measure, make the runner ephemeral (`config.sh --ephemeral`, Actions Runner Controller) so nothing a job leaves behind survives it.',
      },
      {
        rule_id: 'unpinned-image',
        advice:
          'Pin the image by digest (`image: name@sha256:<digest>`) and let Dependabot or Renovate propose updates; for good measure, make the runner ephemeral so nothing a job leaves behind survives it.',
      },
    ],
    impact:
      "Whoever takes over the action's tag or the image's tag (its maintainer's account, a compromised release) runs code on your own machine, where it can stay after the job, watch and alter the jobs that run there next, steal their secrets and reach your internal network.",
    impact_variants: [
      {
        when: { rule_id: 'self-hosted-runner', facts: [EPHEMERAL_HINT] },
        impact:
          "Whoever takes over the action's tag or the image's tag (its maintainer's account, a compromised release) runs code on your own machine, where it can steal the job's secrets and reach your internal network and, if the runners are reused between jobs (the labels suggest ephemeral ones), stay after the job and watch and alter the jobs that run there next.",
      },
    ],
    impact_title: 'Persistent foothold on your runner',
    stages: [
      stage(
        'unpinned-action',
        'Third-party action on a mutable tag',
        'A third-party action is referenced by a tag or branch, which its owner, or whoever takes over the account, can move to new code at any time.',
      ),
      stage(
        'unpinned-image',
        'Container image on a mutable tag',
        "A container the job runs (its job container, a step's `docker://` image or a service) is referenced by a tag, which whoever controls the image's registry account can re-push.",
      ),
      SELF_HOSTED_RUNNER,
    ],
  },
  {
    id: 'remote-script-on-runner',
    title: 'Unverified remote script on a self-hosted runner',
    severity: 'HIGH',
    scope: 'repo',
    requires: [['pipe-to-shell'], ['self-hosted-runner']],
    amplifiers: ['download-without-checksum'],
    // A well-known vendor installer over HTTPS (rustup, bun, uv...) is LOW: the vendor is already trusted with the toolchain.
    qualifiers: [
      { rule_id: 'pipe-to-shell', min_severity: 'MEDIUM', instance: 'script from a host that is not a known vendor installer, or over plain HTTP' },
      // As for injected-runner-takeover: a maybe-hosted larger runner (`runner:possible`) keeps nothing.
      { rule_id: 'self-hosted-runner', min_severity: 'LOW', instance: "job on a definite self-hosted runner (the `self-hosted` label, or a group or label named after another cloud's machine)", facts: ['holds:self-hosted'] },
    ],
    break_chain: [
      {
        rule_id: 'pipe-to-shell',
        advice:
          'Download the script to a file, check it against a pinned SHA-256 (`echo "<sha256>  install.sh" | sha256sum -c -`) and only then run it, or use a pinned action or package instead.',
      },
    ],
    impact:
      "Whoever controls the script's server, or the network path to it, runs code on your self-hosted runner, where it can stay behind and watch the jobs that follow.",
    impact_variants: [
      {
        when: { rule_id: 'self-hosted-runner', facts: [EPHEMERAL_HINT] },
        impact:
          "Whoever controls the script's server, or the network path to it, runs code on your self-hosted runner, where it can read what the job holds and, if the runners are reused between jobs (the labels suggest ephemeral ones), stay behind and watch the jobs that follow.",
      },
    ],
    impact_title: 'Persistent foothold on your runner',
    stages: [
      stage(
        'pipe-to-shell',
        'Remote script piped into a shell',
        'A step downloads a script and runs it in the same pipeline, without anyone or anything checking what it contains.',
      ),
      DOWNLOAD_WITHOUT_CHECKSUM,
      stage(
        'self-hosted-runner',
        'Self-hosted runners in use',
        'The repository runs jobs on self-hosted machines that keep their state between jobs.',
      ),
    ],
  },
  {
    id: 'review-bypass',
    title: 'Workflows can approve their own pull requests',
    severity: 'HIGH',
    scope: 'repo',
    requires: [['actions-can-approve-prs'], ['review-count-low', 'codeowners-review-not-required', 'review-not-required']],
    amplifiers: ['default-token-write'],
    qualifiers: [],
    break_chain: [
      {
        rule_id: 'actions-can-approve-prs',
        advice:
          'In Settings > Actions > General > Workflow permissions, clear "Allow GitHub Actions to create and approve pull requests".',
      },
    ],
    impact:
      'A workflow token opens a pull request and approves it, so a change reaches the default branch without any human review.',
    impact_title: 'Change merged without human review',
    stages: [
      stage(
        'default-token-write',
        'Every workflow holds a write token',
        'The default workflow token is read-write, so any workflow, or code injected into one, can push a branch and open the pull request to approve.',
      ),
      ACTIONS_CAN_APPROVE,
      stage(
        'review-count-low',
        'One approval is enough',
        "A single approval satisfies the default branch's review rule, and a workflow can give it.",
      ),
      stage(
        'codeowners-review-not-required',
        'Code owners not required',
        "Code owner review is not required, so an approval from anyone, a workflow included, satisfies the branch's rules.",
      ),
      stage(
        'review-not-required',
        'No review required',
        'The default branch does not require a pull request review at all, so nothing human stands between a workflow and the branch.',
      ),
    ],
  },
  {
    id: 'secret-exposure-in-logs',
    title: 'Debug logging in a workflow that exposes secrets',
    severity: 'HIGH',
    scope: 'file',
    requires: [['debug-logging-enabled'], ['hardcoded-credentials', 'secret-in-log']],
    amplifiers: [],
    // Only a secret that reaches the log or the summary (not `$GITHUB_ENV` or a step output, where it stays masked).
    // The debug variables in `env:` are LOW (GitHub's debug logging needs a secret or variable of the name), and
    // still the entry the catalog names: what leaks is the secret printed to the log.
    qualifiers: [
      { rule_id: 'debug-logging-enabled', min_severity: 'LOW', instance: 'the debug variables set in `env:`' },
      { rule_id: 'secret-in-log', min_severity: 'HIGH', instance: 'a secret printed to the log', facts: ['dest:log|dest:summary'] },
    ],
    break_chain: [
      {
        rule_id: 'debug-logging-enabled',
        advice:
          'Remove `ACTIONS_STEP_DEBUG` and `ACTIONS_RUNNER_DEBUG` from the workflow; when you need debug output, re-run a single run with "Enable debug logging".',
      },
    ],
    impact:
      'Secrets end up in the run logs, which everyone with read access (the whole world, for a public repository) can read and keep.',
    impact_title: 'Secrets readable in the logs',
    stages: [DEBUG_LOGGING, HARDCODED_CREDENTIALS, SECRET_IN_LOG],
  },
  {
    id: 'silent-supply-chain-tampering',
    title: 'Unverified downloads in a pipeline that cannot notice tampering',
    severity: 'HIGH',
    scope: 'repo',
    requires: [['download-without-checksum'], ['unpinned-action', 'continue-on-error']],
    amplifiers: ['missing-provenance'],
    // Departure from the spec: a GitHub-owned or same-owner action on a tag (LOW) is not the mutable
    // third-party code this path warns about; on nearly every repository it would make the path fire. The
    // download must be in a job that publishes, or hands its build to one through artifacts (run model:
    // `holds:publish`, `feeds:publish`), where tampering ships; of the job's mutable actions, the one that
    // itself publishes is named first.
    qualifiers: [
      { rule_id: 'download-without-checksum', min_severity: 'MEDIUM', instance: 'download in a job that publishes or feeds one', facts: ['holds:publish|feeds:publish'] },
      { rule_id: 'unpinned-action', min_severity: 'MEDIUM', instance: 'third-party action', facts: ['owner:third-party'], prefer_facts: ['publisher'] },
    ],
    // Verifying the one download breaks the chain only when it is the job's one mutable input: a job that also runs
    // actions on tags or branches (the chain's own mutable action among them: repo scope binds both to one job),
    // other unverified downloads, images on tags or remote scripts still ships whatever they change, so the fix is
    // to pin and verify all of them (listed by line when there are few).
    break_chain: [
      {
        rule_id: 'download-without-checksum',
        when: { several: ['download-without-checksum', 'unpinned-action', 'unpinned-image', 'pipe-to-shell'] },
        list: true,
        advice:
          'Pin every third-party action and image of this job to a full commit SHA or digest and verify every download and remote script in it against a pinned checksum or signature (`sha256sum -c`, `gh attestation verify`, `cosign verify-blob`): the job takes more than this one mutable input, so verifying this download alone leaves the others able to change what it ships.',
      },
      {
        rule_id: 'download-without-checksum',
        advice:
          'Verify every download in the step that fetches it, against a pinned checksum or signature (`sha256sum -c`, `gh attestation verify`, `cosign verify-blob`).',
      },
    ],
    // "Failing checks do not stop the run" only where the job ignores a failure (`continue-on-error` on it or on
    // a check of it); elsewhere a failing build or check still stops the release.
    impact: 'A tampered download or a silently updated action goes into your builds unnoticed, because nothing verifies what is fetched.',
    impact_variants: [
      {
        when: { rule_id: 'continue-on-error', in_job: true },
        impact:
          'A tampered download or a silently updated action goes into your builds unnoticed, because nothing verifies what is fetched and failing checks do not stop the run.',
      },
    ],
    impact_title: 'Tampered build output shipped',
    stages: [
      DOWNLOAD_WITHOUT_CHECKSUM,
      stage(
        'unpinned-action',
        'Actions on mutable tags',
        'Actions are referenced by tags or branches, which their owners can move to new code at any time.',
      ),
      stage(
        'continue-on-error',
        'Failures ignored',
        '`continue-on-error: true` lets a job or a security check fail without failing the run.',
      ),
      MISSING_PROVENANCE,
    ],
  },
  {
    id: 'token-leak-via-artifact',
    title: 'Workflow token uploaded in an artifact',
    severity: 'HIGH',
    scope: 'file',
    requires: [['persisted-credentials'], ['dangerous-trigger', 'missing-permissions', 'excessive-permissions']],
    amplifiers: [],
    // The token in the artifact is the job's: a default token (`token:default`) for missing-permissions, a write grant the job holds for excessive-permissions.
    // persisted-credentials is HIGH only when the token is still valid when the artifact can be downloaded: the
    // job's token in an upload-artifact v4+ artifact (downloadable during the run), or a stored secret in any; the
    // job's token in a v1-v3 artifact, served only after the run when the token has expired, is LOW and joins no
    // path. A stored secret's finding carries none of the job token's facts, so no grant of the job's token joins it.
    qualifiers: [
      { rule_id: 'persisted-credentials', min_severity: 'HIGH', instance: 'workspace uploaded as an artifact someone can download while its token is valid' },
      DEFAULT_TOKEN_OF_ENTRY('missing-permissions'),
      GRANT_OF_ENTRY,
    ],
    break_chain: [
      {
        rule_id: 'persisted-credentials',
        advice:
          'Set `persist-credentials: false` on `actions/checkout`, and upload only the build output directory, never the workspace root or `.git`.',
      },
    ],
    impact:
      "The token the checkout persisted ships inside `.git/config` in an artifact that anyone who can read the repository can download while the token is still valid: the job's `GITHUB_TOKEN` while the run is still going (upload-artifact v4 and later serve artifacts during the run), a stored secret for as long as it lives.",
    impact_title: 'Token stolen from the artifact',
    stages: [
      stage(
        'persisted-credentials',
        'Token uploaded with the workspace',
        '`actions/checkout` writes the token to `.git/config`, and a later step uploads the workspace, `.git` included, as an artifact.',
      ),
      DANGEROUS_TRIGGER,
      MISSING_PERMISSIONS,
      EXCESSIVE_PERMISSIONS,
    ],
  },
  {
    id: 'unverifiable-release',
    title: 'Release built with mutable actions and published without provenance',
    severity: 'HIGH',
    scope: 'file',
    requires: [['unpinned-action'], ['missing-provenance']],
    amplifiers: ['sha-pinning-not-required'],
    // A third-party action (ownership.ts) in a job that really publishes (run model: `holds:publish`); the
    // action that itself publishes is named before the job's first mutable one.
    qualifiers: [
      {
        rule_id: 'unpinned-action',
        min_severity: 'MEDIUM',
        instance: 'third-party action in a job that publishes',
        facts: ['owner:third-party', 'holds:publish'],
        prefer_facts: ['publisher'],
      },
    ],
    break_chain: [
      {
        rule_id: 'unpinned-action',
        advice:
          'Pin every third-party action of the release job to a full commit SHA (`uses: owner/action@<40-hex sha> # v1.2.3`), then publish with provenance so users can check that what they install came from this workflow: the registry\'s own (`pypa/gh-action-pypi-publish` v1.11 or later attests by default with trusted publishing, `npm publish --provenance`), or `actions/attest-build-provenance` (with `id-token: write` and `attestations: write`).',
      },
    ],
    impact:
      "Whoever moves the third-party action's tag runs code in the job that publishes your release: they swap the artifact or take the publishing credential, and with no provenance your users cannot tell their release from yours.",
    impact_title: 'Tampered release your users cannot tell apart',
    stages: [
      stage(
        'unpinned-action',
        'Third-party action on a mutable tag in the release job',
        'The job that publishes runs a third-party action referenced by a tag or branch, which its owner, or whoever takes over the account, can move to new code at any time.',
      ),
      stage('sha-pinning-not-required', 'SHA pinning not enforced', 'The repository does not require actions to be pinned to a full commit SHA.'),
      MISSING_PROVENANCE,
    ],
  },
];

const BY_ID: ReadonlyMap<string, CombinationKind> = new Map(COMBINATION_KINDS.map((k) => [k.id, k]));

/** Rules through which an outsider's pull request, issue or comment enters a chain. */
export const OUTSIDER_ENTRIES: ReadonlySet<string> = new Set(['script-injection', 'untrusted-checkout', 'artifact-poisoning', 'github-env-injection', 'bot-actor-condition', 'cache-poisoning', 'agent-untrusted-input']);
/** Rules through which someone else's code enters: an action, an image or a download. */
export const UPSTREAM_ENTRIES: ReadonlySet<string> = new Set(['known-vulnerable-action', 'typosquat-action', 'unpinned-action', 'unpinned-image', 'download-without-checksum', 'pipe-to-shell']);

/** Who starts a kind's chain: its own `attacker`, or the one its first group's rules let in. */
export function attackerOf(kind: CombinationKind): string {
  if (kind.attacker !== undefined) return kind.attacker;
  const entry = kind.requires[0] ?? [];
  if (entry.some((r) => OUTSIDER_ENTRIES.has(r))) return 'an outside GitHub user (a fork pull request, an issue or a comment)';
  if (entry.some((r) => UPSTREAM_ENTRIES.has(r))) return 'a compromised upstream (an action, image or download host taken over)';
  if (kind.requires.flat().includes('self-hosted-runner')) return 'an outside GitHub user whose pull request reaches the runner';
  return 'anyone who can run code in a workflow of the repository (a collaborator, or code a compromised dependency runs)';
}

export function combinationKind(id: string): CombinationKind | undefined {
  return BY_ID.get(id);
}
