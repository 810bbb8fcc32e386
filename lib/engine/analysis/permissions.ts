import { expressionsOf } from '../expressions/extract.js';
import { stepScope, type TaintAnalyzer } from '../expressions/taint.js';
import type { RepositoryModel } from '../model/repository.js';
import type { Job, Step, Workflow } from '../model/workflow.js';
import { foreignDownloads } from './artifacts.js';
import { untrustedCheckouts } from './pr-head.js';
import { everyPathGuarded, stepTrust } from './trust-guards.js';
import { keyText, type YNode, type YScalar } from '../yaml/model.js';

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
      if (step.run === undefined) continue;
      const scope = stepScope(step);
      for (const occurrence of expressionsOf(step.owner.file, step.run)) {
        if (occurrence.expr === null) continue;
        const taint = context.taint.ofExpression(occurrence.expr, scope);
        if (taint !== null && (taint.level === 'arbitrary' || taint.level === 'structured') && taint.controller === 'external') {
          return `job \`${job.id}\` puts \`${taint.source}\` into a \`run:\` script`;
        }
      }
    }
  }
  return null;
}

/** True when every way the step runs passes a guard outsiders cannot pass (an environment only with known reviewers). */
export function gated(step: Step): boolean {
  return everyPathGuarded(stepTrust(step), (g) => g.kind !== 'bypassable-label' && (g.kind !== 'environment' || g.reviewed === true));
}
