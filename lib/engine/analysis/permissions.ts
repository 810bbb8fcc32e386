import type { TaintAnalyzer } from '../expressions/taint.js';
import type { RepositoryModel } from '../model/repository.js';
import { triggerNames, type Job, type Step, type Workflow } from '../model/workflow.js';
import { foreignDownloads } from './artifacts.js';
import { untrustedCheckouts } from './pr-head.js';
import { everyPathGuarded, stepTrust } from './trust-guards.js';
import { keyText, type YNode, type YScalar } from '../yaml/model.js';
import { actionPermissions, conditionHolds, GH_COMMANDS, type Scope } from '../data/permissions.js';
import { describeStep } from './describe.js';
import { githubPackagesPush, inputWithEnv, JOB_TOKEN, oidcPublish, otherTokenOnly } from './token-uses.js';
import { stepAgent } from './agent-input.js';
import type { AgentAction } from '../data/agent-actions.js';
import { stepExecutions } from './run-model/execution.js';
import { handedTokens } from './run-model/handed.js';

/** A `<scope>: write` entry of a `permissions:` mapping. */
export interface WriteScope {
  scope: string;
  key: YScalar;
  value: YScalar;
}

/** What a `permissions:` value grants, as far as the rules need to know. */
export type Permissions =
  | { kind: 'read-all' | 'write-all'; node: YScalar }
  /** A mapping (possibly empty, `{}`); `writes` lists its `write` scopes in file order. */
  | { kind: 'scopes'; writes: WriteScope[] }
  /** An expression, an empty value or anything GitHub would reject: the rules make no claim about it. */
  | { kind: 'other' };

/** Reads a workflow- or job-level `permissions:` value. */
export function readPermissions(node: YNode): Permissions {
  if (node.kind === 'scalar') {
    const text = typeof node.value === 'string' ? node.value.trim().toLowerCase() : null;
    if (text === 'read-all' || text === 'write-all') return { kind: text, node };
    return { kind: 'other' };
  }
  if (node.kind === 'seq') return { kind: 'other' };
  const writes: WriteScope[] = [];
  for (const pair of node.pairs) {
    const value = pair.value;
    if (value.kind === 'scalar' && typeof value.value === 'string' && value.value.trim().toLowerCase() === 'write') {
      writes.push({ scope: keyText(pair.key).toLowerCase(), key: pair.key, value });
    }
  }
  return { kind: 'scopes', writes };
}

export { calledLocalWorkflow, localWorkflowPath } from './callers.js';

/** True when every job of `workflow` runs with a token its own `permissions:` (workflow or job level) decides. */
export function declaresOwnPermissions(workflow: Workflow): boolean {
  return workflow.permissions !== undefined || (workflow.jobs.length > 0 && workflow.jobs.every((j) => j.permissions !== undefined));
}

/** What in a job's text shows it needs a write scope: the commands and actions that consume it. */
const SCOPE_USES: Record<string, RegExp> = {
  contents:
    /\bgit\s+(push|tag)\b|\bgh\s+(release|pr\s+merge|api)\b|\b(release|commit|push|publish|pages|changesets|backport|tag|version|deploy|auto-?merge|update|format|fix|style|pre-commit)[\w-]*@|GITHUB_TOKEN|github\.token|\bgithub-token\b|\btoken:/i,
  'id-token':
    /configure-aws-credentials|google-github-actions\/auth|azure\/login|pypi-publish|--provenance|provenance:|sigstore|cosign|attest|ACTIONS_ID_TOKEN|oidc|vault-action|slsa|workload_identity|role-to-assume|trusted[-_ ]publish|claude-code-action|run-gemini-cli|gemini-cli|npm\s+publish|twine|gh-action-pypi|id-token/i,
  packages: /ghcr\.io|docker\.pkg\.github\.com|npm\.pkg\.github\.com|maven\.pkg\.github\.com|nuget\.pkg\.github\.com|rubygems\.pkg\.github\.com|docker\/login-action|\bpublish\b/i,
  actions: /\bgh\s+(run|workflow|cache)\b|actions\/(cache|upload-artifact|download-artifact)|\/actions\/(runs|workflows|caches)|GITHUB_TOKEN|github\.token|\bgithub-token\b|cla-assistant|delete-/i,
};

/**
 * Whether a job's own text shows it uses a write scope (a heuristic: a deploy with OIDC, a `git push`, a
 * package pushed to GitHub Packages). For a single-job workflow, a workflow-level grant the job uses is
 * exactly what the job needs, so there is nothing excessive to report.
 */
export function jobUsesScope(job: Job, scope: string): boolean {
  const pattern = SCOPE_USES[scope];
  if (pattern === undefined) return true;
  return pattern.test(job.workflow.file.text.slice(job.node.start, job.node.end));
}

/**
 * Why outside input can steer a job that holds the token, or null: it checks out pull request code or downloads
 * the triggering run's artifacts (the analyses of `untrusted-checkout` and `artifact-poisoning`: a checkout of
 * the base branch, or of a branch name in the base repository, is not outside input), or splices event text an
 * outsider chooses (free or structured text, not a number or a login) into a script.
 */
export function outsiderInput(context: { repository: RepositoryModel; taint: TaintAnalyzer }, jobs: readonly Job[], outsider: readonly string[], withGates: boolean): string | null {
  const codeTrigger = outsider.find((t) => t === 'pull_request_target' || t === 'workflow_run');
  for (const job of jobs) {
    if (codeTrigger !== undefined) {
      const checkout = untrustedCheckouts(job, context.repository).find((c) => !withGates || !gated(c.step));
      if (checkout !== undefined) return `job \`${job.id}\` checks out pull request code (${checkout.how}) on \`${checkout.trigger}\``;
      const download = foreignDownloads(job).find((d) => !withGates || !gated(d.step));
      if (download !== undefined && job.workflow.triggers.some((t) => t.name === 'workflow_run')) return `job \`${job.id}\` downloads the triggering run's artifacts (${download.how}) on \`workflow_run\``;
    }
    for (const step of job.steps) {
      // A step only trusted authors or a maintainer's approval reach (a same-repository condition, a member's
      // comment, a label on a `labeled`-only workflow, an environment with required reviewers) is no outsider's.
      if (withGates && gated(step)) continue;
      for (const { taint } of context.taint.outsiderScriptText(step)) return `job \`${job.id}\` puts \`${taint.source}\` into a \`run:\` script`;
    }
  }
  return null;
}

/** True when every way the step runs passes a guard outsiders cannot pass (an environment only with known reviewers; no check the scan cannot read). */
export function gated(step: Step): boolean {
  return everyPathGuarded(stepTrust(step), (g) => g.kind !== 'bypassable-label' && g.kind !== 'unread-check' && (g.kind !== 'environment' || g.reviewed === true));
}

/** Actions that never write with the job's token (they read with it at most: fetch code, download tools). */
const TOKEN_FREE_ACTIONS = /^(actions\/(checkout|cache|cache\/restore|cache\/save|upload-artifact|download-artifact|upload-pages-artifact|configure-pages)|docker\/(setup-[\w-]+|login-action|metadata-action)|[\w.-]+\/(setup-[\w-]+|[\w-]+-setup|action-setup|[\w-]+-toolchain|toolchain))$/;
/** Actions that comment on, label, assign or close issues and pull requests: `issues` / `pull-requests` scopes only. */
const TRIAGE_ACTIONS = /^(actions\/(labeler|stale|first-interaction)|peter-evans\/(create-or-update-comment|find-comment)|marocchino\/sticky-pull-request-comment|thollander\/actions-comment-pull-request|mshick\/add-pr-comment|dessant\/(lock-threads|label-actions)|kentaro-m\/auto-assign-action|actions-ecosystem\/action-(add|remove)-labels|srvaroa\/labeler|github\/issue-labeler|andymckay\/labeler|pozil\/auto-assign-issue|hmarr\/auto-approve-action|amannn\/action-semantic-pull-request|codelytv\/pr-size-labeler)$/;
/**
 * What a `github-script` script calls that needs each critical scope. `contents` also by a `git push` it runs
 * (`exec.exec('git push origin HEAD:b')`, `exec.exec('git', ['push', ...])`), with the credentials a checkout left.
 */
const SCRIPT_SCOPE: Readonly<Record<string, RegExp>> = {
  contents: /\brepos\.|\bgit\.|createRelease|uploadReleaseAsset|createOrUpdateFile|updateRef|createRef|\bmerge\b|\/contents\/|\/git\/|\/releases|\bgit\s+push\b|['"`]git['"`]\s*,\s*\[\s*['"`]push['"`]/,
  'id-token': /getIDToken|id-token|oidc/i,
  packages: /\bpackages\./,
  actions: /\bactions\.|\/actions\//,
};
/**
 * The API families of the other write scopes an `actions/github-script` script calls (GitHub's "permissions
 * required for GitHub Apps" pages name the scope of each REST endpoint). Comments and labels on a pull request
 * go through the issues API, which either `issues` or `pull-requests` allows, so both count them. A raw
 * `github.request`/`graphql` call, or a client of its own, may use any scope.
 */
const SCRIPT_API: Readonly<Record<string, RegExp>> = {
  issues: /\bissues\.|\/issues\b|\/labels\b|\breactions\./,
  'pull-requests': /\bpulls\.|\/pulls\b|\bissues\.|\/issues\b|\/labels\b|\breactions\./,
  checks: /\bchecks\.|\/check-runs|\/check-suites/,
  statuses: /createCommitStatus|\/statuses\//,
  deployments: /\bdeployments?\b|createDeployment/i,
  discussions: /discussion/i,
  'security-events': /codeScanning|secretScanning|code-scanning|secret-scanning|dependabot/i,
  pages: /\bpages\b/i,
};
const ANY_API = /\bgithub\.(request|graphql)\b|\bgetOctokit\b|\bnew\s+Octokit\b|\bfetch\s*\(|\brequire\s*\(|\bimport\s*\(/;

/** What a `run:` script does that needs each critical scope (a token given to it aside). */
const RUN_SCOPE: Readonly<Record<string, RegExp>> = {
  // Tools that push a branch with the credentials a checkout left: `mike deploy --push`, `ghp-import -p`, `mkdocs gh-deploy`.
  contents: /\bgit\s+(push|tag)\b|\bgh\s+(release|api|repo|pr\s+(merge|create))\b|\bmike\s+(deploy|set-default|delete|alias|retitle)\b[^\n]*\s(--push|-p)\b|\bghp-import\b[^\n]*\s(--push|-p)\b|\bmkdocs\s+gh-deploy\b/,
  'id-token': /ACTIONS_ID_TOKEN|\boidc\b|id-token|sigstore|cosign|\battest|\bpublish\b|\bgem\s+push\b|twine|--provenance|\b(gcloud|aws|az|vault)\s/i,
  packages: /ghcr\.io|docker\.pkg\.github\.com|npm\.pkg\.github\.com|maven\.pkg\.github\.com|nuget\.pkg\.github\.com|rubygems\.pkg\.github\.com|\b(docker|podman)\s+push\b/i,
  actions: /\bgh\s+(run|workflow|cache|api)\b|\/actions\/(runs|workflows|caches)/,
};
/** A script that releases, publishes, tags or commits (through credentials a checkout left, or its own tooling). */
const RELEASE_WORDS = /\b(semantic-release|release-it|standard-version|changeset|goreleaser|gh-pages|lerna\s+(version|publish)|(make|just|task|rake|npm\s+run|yarn|pnpm(\s+run)?|bun\s+run|pixi\s+run|mise\s+run|cargo\s+make|\.\/[\w./-]*)\s+[\w:.-]*(release|publish|deploy|tag|version|bump|changelog|docs|pages|upload))/i;
/**
 * A project task named for publishing (`pixi run upload-packages`, `make publish`): it may sign in to a registry with
 * the job's OIDC token (npm's scripts are read by whether provenance is asked for: `publishesWithProvenance`).
 */
const PUBLISH_TASK = /\b(make|just|task|rake|pixi\s+run|mise\s+run|cargo\s+make|\.\/[\w./-]*)\s+[\w:.-]*(release|publish|deploy|upload)/i;
/** A task runner's options that take a value (`pixi run -e release x`, `make -C docs x`): the value names no task. */
const TASK_OPTIONS = /\s(?:-e|--environment|-m|--manifest-path|-C|--directory|-f|--file|--justfile)(?:\s+|=)\S+/g;
/** A script given the token. */
const TOKEN_REF = /github\.token|GITHUB_TOKEN|GH_TOKEN|secrets\.GITHUB/i;
/** A script that only comments on, labels or closes issues and pull requests with it, and runs nothing else of note. */
const TRIAGE_ONLY = /\bgh\s+(pr|issue)\s+(comment|edit|close|reopen|review|view|list)\b|\bgh\s+label\b/;
const DOES_MORE = /\bgh\s+(release|api|repo|run|workflow|pr\s+(merge|create|checkout))\b|\bgit\s+push\b|\b(npx|npm|yarn|pnpm|make|python3?|node|bash|sh|go|cargo|mvn|gradle|curl)\b|\.sh\b/;

/** The job's and workflow's `env:` text, where a token given to every step would be. */
function envText(step: Step): string {
  const job = step.job;
  if (job === null) return '';
  const file = job.workflow.file.text;
  const nodes = [job.env, job.workflow.env].filter((n) => n !== undefined);
  return nodes.map((n) => file.slice(n!.start, n!.end)).join('\n');
}

/**
 * Whether an AI agent step may use a write scope of its job's token. OIDC (`id-token`) is how agents reach their
 * model or their app's token, so it is theirs; an agent that writes only with a token it is handed (the table's
 * `jobToken: 'given'`) uses the job's write scopes only when an input or the environment hands it over.
 */
function agentMayUse(step: Step, agent: AgentAction, scope: string): boolean {
  if (scope === 'id-token' || agent.jobToken !== 'given' || agent.implicitToken?.use === 'write') return true;
  const file = step.owner.file.text;
  const given = [step.with, step.env].some((n) => n !== undefined && JOB_TOKEN.test(file.slice(n.start, n.end)));
  return given || JOB_TOKEN.test(envText(step));
}

/** npm told to attach provenance through its environment (`NPM_CONFIG_PROVENANCE: true`, `npm_config_provenance=true`). */
const NPM_PROVENANCE = /\bnpm_config_provenance["']?\s*[:=]\s*["']?true\b/i;

/**
 * A step that publishes to npm with provenance, which signs with the job's OIDC token (`id-token: write`, per
 * npm's "Generating provenance statements" and GitHub's npm publishing guide): `--provenance` on the command,
 * or `NPM_CONFIG_PROVENANCE=true` in the step's script or env, the job's or the workflow's, on a step that
 * publishes or releases (`npm publish`, `npm run release`, `changesets/action` with `publish:`). The package's
 * own `publishConfig.provenance` is not visible here.
 */
function publishesWithProvenance(step: Step): boolean {
  const text = step.owner.file.text.slice(step.node.start, step.node.end);
  if (/--provenance\b/.test(text) && /\bpublish\b/i.test(text)) return true;
  if (!NPM_PROVENANCE.test(text) && !NPM_PROVENANCE.test(envText(step))) return false;
  return /\bpublish\b/i.test(text) || RELEASE_WORDS.test(text);
}

/** Whether one step may use a write scope of its job's token (false: it provably does not). */
/** How deep the repository's own composite actions are followed into one another. */
const MAX_ACTION_DEPTH = 4;

function stepMayUse(step: Step, scope: string, repository?: RepositoryModel, depth = 0): boolean {
  const critical = SCRIPT_SCOPE[scope] !== undefined;
  // The repository's own composite action named by its full name (`owner/repo/.github/actions/scan@<sha>`): its
  // steps run at this call with this job's token (`github.token` inside it is the job's), so a step of it that may
  // use the scope (`github/codeql-action/upload-sarif` for `security-events`) uses it here, whatever token the call
  // hands its inputs. A local `./` action counts as a use below, as any action whose code is not read.
  const own = step.usesRef?.kind === 'repository' && depth < MAX_ACTION_DEPTH ? repository?.ownAction(step) : undefined;
  if (own !== undefined && own.using === 'composite' && own.steps.some((s) => stepMayUse(s, scope, repository, depth + 1))) return true;
  if (scope === 'id-token' && publishesWithProvenance(step)) return true;
  // Publishing with OIDC, pushing to GitHub's container registry (token-uses.ts): uses no input alone can show.
  if (scope === 'id-token' && oidcPublish(step) !== null) return true;
  if (scope === 'packages' && githubPackagesPush(step) !== null) return true;
  const ref = step.usesRef;
  if (ref !== undefined) {
    // A `docker://` image gets what its `with:` and `env:` hand it (inputs arrive as `INPUT_*` variables): handed the
    // job's token (`token: ${{ secrets.GITHUB_TOKEN }}`), it may write with any scope of it, as an unknown action may.
    if (ref.kind === 'docker') return scope !== 'id-token' && handedTokens(step).job;
    if (ref.kind !== 'repository') return true;
    const full = ref.path === '' ? ref.slug : `${ref.slug}/${ref.path.toLowerCase()}`;
    const agent = stepAgent(step);
    if (agent !== undefined) return agentMayUse(step, agent, scope);
    // Given another token (an app's installation token, a PAT) in its token input, the action does not hold the job's.
    if (scope !== 'id-token' && otherTokenOnly(step) !== null) return false;
    // The least-privilege table of the permissions fix knows what a well-known action asks for, by its inputs.
    const known = actionPermissions(full);
    if (known !== undefined) {
      // An action that runs code of its inputs or the repository's (`changesets/action`'s `publish` command) hands the
      // token it is handed through its environment to that code, which may use any scope (run-model/handed.ts).
      if (known.runsCode !== undefined && scope !== 'id-token' && handedTokens(step).job) return true;
      if (known.scopes[scope as Scope] === 'write') return true;
      // `registry: ${{ env.REGISTRY }}` is the literal the step's `env:` gives it.
      const triggers = step.job === null ? null : triggerNames(step.job.workflow);
      return (known.when ?? []).some((c) => c.scopes[scope as Scope] === 'write' && conditionHolds(c, inputWithEnv(step, c.input), triggers, ref.ref));
    }
    if (TOKEN_FREE_ACTIONS.test(full)) return false;
    if (TRIAGE_ACTIONS.test(full)) return !critical;
    if (full === 'actions/github-script' && critical) {
      const text = step.owner.file.text.slice(step.node.start, step.node.end);
      return SCRIPT_SCOPE[scope]!.test(text);
    }
    if (full === 'actions/github-script' && SCRIPT_API[scope] !== undefined) {
      const text = step.owner.file.text.slice(step.node.start, step.node.end);
      return ANY_API.test(text) || SCRIPT_API[scope]!.test(text);
    }
    return true;
  }
  if (step.run === undefined) return false;
  // A script whose `gh` and git act with another token (GH_TOKEN from an app, a checkout given a PAT) holds no job token.
  if (scope !== 'id-token' && otherTokenOnly(step) !== null) return false;
  const text = step.owner.file.text.slice(step.node.start, step.node.end);
  if (critical && RUN_SCOPE[scope]!.test(text)) return true;
  // `run: 5` is a number in YAML (GitHub runs its text); only a string script is read below.
  const script = typeof step.run.value === 'string' ? step.run.value : String(step.run.value ?? '');
  // `gh` commands ask for what the permissions fix's table says (an unknown one, or `gh api`, for anything).
  for (const match of script.matchAll(/(?:^|[\s;&|(`$])gh\s+([a-z-]+)(?:\s+([a-z-]+))?/g)) {
    const command = match[1] === 'api' ? 'api' : `${match[1] ?? ''} ${match[2] ?? ''}`.trim();
    const scopes = GH_COMMANDS[command];
    if (scopes === undefined || scopes[scope as Scope] === 'write') return true;
  }
  const tasks = script.replace(TASK_OPTIONS, '');
  if ((scope === 'contents' || scope === 'packages') && RELEASE_WORDS.test(tasks)) return true;
  if (scope === 'id-token' && PUBLISH_TASK.test(tasks)) return true;
  // A publishing tool may report back on the pull request or commit with whatever it finds.
  if (/\bpublish\b/i.test(text)) return true;
  // A script file of the repository's (`./scripts/report.sh`) may read the token wherever it is (the
  // credentials a checkout left in .git/config, the environment): only build tools and inline commands are read.
  if (stepExecutions(step).some((e) => e.kind === 'file')) return true;
  if (!TOKEN_REF.test(text) && !TOKEN_REF.test(envText(step))) return false;
  // Given the token: only triage commands (`gh pr comment`) use it for nothing but issues and pull requests.
  return !critical || !TRIAGE_ONLY.test(text) || DOES_MORE.test(text);
}

/**
 * The steps of a job that take its token without being handed it, to read with it only (an agent action whose
 * action.yml reads `github.token` for a check of the actor's access): `openai/codex-action (its write-access
 * check ...)`. Empty for most jobs.
 */
export function implicitTokenReaders(job: Job): string[] {
  const found: string[] = [];
  for (const step of job.steps) {
    const agent = stepAgent(step);
    if (agent?.implicitToken?.use === 'read' && step.usesRef?.kind === 'repository') found.push(`${step.usesRef.slug} (${agent.implicitToken.what})`);
  }
  return found;
}

/**
 * The steps of a job that act on GitHub with another token than the job's (an app's installation token, a
 * personal access token: `otherTokenOnly`), with the token as written (`steps.app.outputs.token`).
 */
export function otherTokenSteps(job: Job): { step: Step; token: string }[] {
  const found: { step: Step; token: string }[] = [];
  for (const step of job.steps) {
    const token = otherTokenOnly(step);
    if (token !== null) found.push({ step, token: token.length > 60 ? `${token.slice(0, 57)}...` : token });
  }
  return found;
}

/**
 * Why a job may use a write scope of its token, or null when it provably does not: it calls a reusable
 * workflow (the grant is that workflow's ceiling), or one of its steps may use it: a script that shows a use
 * of the scope (`git push`, `gh release`, a GitHub Packages push, OIDC) or is given the token for more than
 * commenting, or an action that may read the token by default (any but checkout, caches, artifacts, toolchain
 * setup, and for `contents`/`id-token`/`packages`/`actions` the comment and label actions and a `github-script`
 * that calls no API of that scope). A test, lint or build job, or a comment bot for `contents: write`, does not.
 */
export function scopeUse(job: Job, scope: string, repository?: RepositoryModel): string | null {
  if (job.uses !== undefined) return 'it calls a reusable workflow, whose jobs the grant is the ceiling of';
  for (const step of job.steps) if (stepMayUse(step, scope, repository)) return describeStep(step);
  return null;
}
