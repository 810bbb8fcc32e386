import { cacheUse, cacheWrite, type CacheUse } from '../analysis/caching.js';
import { describeStep, describeTaint } from '../analysis/describe.js';
import { envInjections, scriptInjections, type InjectionHit } from '../analysis/injections.js';
import { untrustedCheckouts } from '../analysis/pr-head.js';
import { isReleaseTriggered, publishesForReal, workflowPublishingSteps } from '../analysis/publishing.js';
import { isGithubToken, secretEnv, secretOccurrences } from '../analysis/secrets.js';
import { followsUntrustedRuns } from '../analysis/workflow-run.js';
import { stepScope, type TaintAnalyzer } from '../expressions/taint.js';
import type { RunModel } from '../analysis/run-model/index.js';
import { PRIVILEGED_TRIGGERS, type Job, type Step, type Workflow } from '../model/workflow.js';
import { get } from '../yaml/model.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import { reviewedEnvironmentGate, stepTrust } from '../analysis/trust-guards.js';

/**
 * Triggers whose runs share the default branch's cache scope while an outsider decides when they run and with
 * what: `pull_request_target` (the base branch), `workflow_run` and the issue, comment and discussion events
 * (the default branch). `pull_request` runs, a fork's included, write only to the pull request's own scope, and
 * `pull_request_review*` runs to the merge ref's: neither is read by a release.
 */
const DEFAULT_SCOPE_OUTSIDER_TRIGGERS: ReadonlySet<string> = new Set([...PRIVILEGED_TRIGGERS].filter((t) => !t.startsWith('pull_request_review')));

/** A workflow of the repository through which an outsider's code or text runs in the default branch's cache scope. */
interface OutsiderWriter {
  /** `.github/workflows/pr.yml` (job `test`): checks out and runs pull request code (untrusted-checkout) */
  text: string;
  /**
   * The writer runs only after a maintainer's approval (an approval-gated checkout, which untrusted-checkout
   * rates MEDIUM): the outsider needs that approval and a push after it, so the finding is MEDIUM too.
   */
  approvalGated?: boolean;
}

/**
 * The first job of the repository that runs an outsider's code in the default branch's cache scope, found with
 * the same analyses as the entry findings of the `cache-poisoning-release` attack path: a checkout of pull request
 * code (`untrusted-checkout`), outsider text expanded into a script (`script-injection`) or written to
 * `$GITHUB_ENV` (`github-env-injection`), at MEDIUM or above (a gate that holds makes them LOW: not counted), or
 * a `pull_request_target` cache save whose key the pull request picks. Null when there is none: then only
 * collaborators' merged code and what default-branch runs download write that scope.
 */
function outsiderWriter(context: WorkflowRuleContext): OutsiderWriter | null {
  const repository = context.repository;
  const inScope = (step: Step) => {
    const triggers = context.taint.triggersOf(stepScope(step));
    return triggers !== null && [...triggers].some((t) => DEFAULT_SCOPE_OUTSIDER_TRIGGERS.has(t));
  };
  const where = (step: Step) => `\`${step.owner.file.path}\` (${step.job === null ? 'a composite action' : `job \`${step.job.id}\``})`;
  const candidates = repository.workflows.filter((w) => w.triggers.some((t) => DEFAULT_SCOPE_OUTSIDER_TRIGGERS.has(t.name) || t.name === 'workflow_call'));
  // In the order the attack path prefers its entries: checkouts first, then injections. A writer behind a
  // maintainer's approval is kept only if no ungated one exists.
  let gated: OutsiderWriter | null = null;
  for (const workflow of candidates) {
    for (const job of workflow.jobs) {
      for (const checkout of untrustedCheckouts(job, repository)) {
        if (!DEFAULT_SCOPE_OUTSIDER_TRIGGERS.has(checkout.trigger) || reviewedEnvironmentGate(stepTrust(checkout.step)).holds) continue;
        // Behind a maintainer's approval the code is resolved when the job runs (untrusted-checkout reports only
        // such checkouts): the outsider's way in is a push after the approval; say so.
        const approval =
          checkout.uncheckedEnvironment !== undefined
            ? ` behind ${checkout.uncheckedEnvironment}, whose required reviewers could not be checked without a settings snapshot`
            : checkout.approved
              ? ' once a maintainer approves the run, resolving the code when the job runs (commits pushed after the approval)'
              : '';
        const writer = { text: `${where(checkout.step)} checks out pull request code under \`${checkout.trigger}\`${approval} (untrusted-checkout)` };
        if (!checkout.approved) return writer;
        gated ??= { ...writer, approvalGated: true };
      }
    }
  }
  for (const workflow of candidates) {
    for (const [analysis, what] of ENTRY_ANALYSES) {
      let found: Step | null = null;
      for (const job of workflow.jobs) {
        for (const step of job.steps) {
          if (found !== null) break;
          if (!inScope(step)) continue;
          if (analysis(step, context.taint, context.runs).some((hit) => hit.severity !== 'LOW' && hit.severity !== 'INFO')) found = step;
        }
      }
      if (found !== null) return { text: `${where(found)} ${what}` };
    }
    if (workflow.triggers.some((t) => t.name === 'pull_request_target')) {
      for (const job of workflow.jobs) {
        for (const step of job.steps) {
          const use = cacheUse(step);
          if (use === null || use.saves === false) continue;
          const controlled = prControlled(use, context, null);
          if (controlled !== null) return { text: `${where(step)} saves a cache under \`pull_request_target\` and ${controlled}` };
        }
      }
    }
  }
  return gated;
}

/**
 * The analyses (shared with the rules named) that find an outsider's text running, and what they find in words.
 * They run whichever rules the user enabled: the writer exists either way.
 */
const ENTRY_ANALYSES: readonly (readonly [(step: Step, analyzer: TaintAnalyzer, runs: RunModel) => InjectionHit[], string])[] = [
  [scriptInjections, 'expands outsider-controlled text into a script (script-injection)'],
  [envInjections, 'writes outsider-controlled text to `$GITHUB_ENV` or `$GITHUB_PATH` (github-env-injection)'],
];

/**
 * Jobs whose files can reach what the workflow ships: the given jobs, and the jobs they need that hand files
 * over (upload an artifact), transitively.
 */
function feedingJobs(workflow: Workflow, outputs: readonly Job[]): Set<Job> {
  const result = new Set<Job>();
  const queue = [...outputs];
  while (queue.length > 0) {
    const job = queue.pop() as Job;
    if (result.has(job)) continue;
    result.add(job);
    for (const id of job.needs) {
      const needed = workflow.jobs.find((j) => j.id === id);
      if (needed !== undefined && needed.steps.some(uploadsArtifact)) queue.push(needed);
    }
  }
  return result;
}

function uploadsArtifact(step: Step): boolean {
  return step.usesRef?.kind === 'repository' && /^actions\/upload(-pages)?-artifact$/.test(step.usesRef.slug);
}

/** True when every trigger is a release one (tags, releases) or a manual dispatch: a release workflow, not CI that also runs on tags. */
function releaseOnly(workflow: Workflow): boolean {
  return workflow.triggers.every(
    (t) =>
      t.name === 'release' ||
      t.name === 'registry_package' ||
      t.name === 'workflow_dispatch' ||
      (t.name === 'push' && get(t.config, 'tags') !== undefined && get(t.config, 'branches') === undefined),
  );
}

/** Why the cache a step saves under `pull_request_target` is the pull request's to choose, or null. */
function prControlled(use: CacheUse, context: WorkflowRuleContext, checkedOut: Step | null): string | null {
  if (use.key !== undefined) {
    const taint = context.taint.ofNode(use.key, stepScope(use.step));
    if (taint !== null && (taint.level === 'arbitrary' || taint.level === 'structured')) return `its key comes from ${describeTaint(taint)}`;
  }
  if (checkedOut !== null && checkedOut.index < use.step.index) {
    return `${describeStep(checkedOut)} checked out the pull request first, so its files pick the key and the content`;
  }
  return null;
}

/** The first stored secret (not the run's GITHUB_TOKEN) a step of `job` from `from` on reads, as `name` and step. */
function laterSecret(job: Job, from: number): { name: string; step: Step } | null {
  for (const step of job.steps) {
    if (step.index < from) continue;
    const direct = secretOccurrences(step.owner.file, step.node).map((s) => s.name);
    const inherited = [...secretEnv(step).values()].flatMap((v) => v.secrets);
    const name = [...direct, ...inherited].find((n) => !isGithubToken(n));
    if (name !== undefined) return { name, step };
  }
  return null;
}

export default defineWorkflowRule({
  meta: {
    id: 'cache-poisoning',
    category: 'CICD-SEC-9',
    title: 'Cache restored in a release or publishing workflow',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'A workflow triggered by tags or releases, or a job that publishes (package upload, `gh release`, image push) or feeds one, restores a GitHub Actions cache (`actions/cache`, or a `setup-*` action with caching). Any workflow run on the default branch can write those cache entries, so code injected anywhere there can plant files the release then ships. HIGH when a workflow of the repository runs an outsider\'s code or text in the default branch\'s cache scope (a checkout of pull request code or an injection under `pull_request_target`, `workflow_run`, `issue_comment` ...); MEDIUM when only collaborators\' merged code and what default-branch runs download write it. MEDIUM also for a `pull_request_target` job whose cache key, or content, the pull request controls, and for a `workflow_run` job that follows runs a pull request can start, restores a cache and then uses stored secrets.',
    recommendation:
      'Do not restore caches in release and publishing jobs: build them from a clean state (`cache: false`, `lookup-only: true`, no `actions/cache`). Under `pull_request_target`, do not save caches from pull request data.',
  },
  create: (context) => {
    let outsider: OutsiderWriter | null | undefined;
    return {
      workflow(workflow) {
        // Rehearsals (`--dry-run`, goreleaser `--snapshot`) publish nothing.
        const publishing = workflowPublishingSteps(workflow).filter(publishesForReal);
        const released = isReleaseTriggered(workflow);
        const publishingJobs = [...new Set(publishing.flatMap((p) => (p.step.job === null ? [] : [p.step.job])))];
        // A release workflow ships whatever its jobs build; CI that also runs on tags ships only what it publishes.
        const scoped = publishingJobs.length > 0 ? feedingJobs(workflow, publishingJobs) : released && releaseOnly(workflow) ? new Set(workflow.jobs) : new Set<Job>();
        const prTarget = workflow.triggers.some((t) => t.name === 'pull_request_target');
        const followsPullRequests = followsUntrustedRuns(workflow, context.repository);
        // Computed once per scan, and only when a release job restores a cache.
        const writer = () => (outsider === undefined ? (outsider = outsiderWriter(context)) : outsider);
        for (const job of workflow.jobs) {
          const checkedOut = prTarget && !scoped.has(job) ? (untrustedCheckouts(job, context.repository)[0]?.step ?? null) : null;
          for (const step of job.steps) {
            // Under pull_request_target, fork code that writes the cache (BuildKit `type=gha` exports) plants
            // entries in the base branch's scope as surely as a cache action's save.
            const use = cacheUse(step) ?? (prTarget && !scoped.has(job) ? cacheWrite(step) : null);
            if (use === null) continue;
            if (scoped.has(job)) {
              const publisher = publishing.find((p) => p.step.job === job) ?? publishing[0];
              const why =
                publisher !== undefined
                  ? publisher.step.job === job
                    ? `job \`${job.id}\` publishes (${publisher.evidence})`
                    : `job \`${job.id}\` feeds a publishing job (${publisher.evidence} in \`${publisher.step.job?.id ?? ''}\`)`
                  : 'the workflow runs only for tags or releases';
              const found = writer();
              context.report({
                node: use.node,
                job,
                severity: found === null || found.approvalGated === true ? 'MEDIUM' : 'HIGH',
                message:
                  `${describeStep(step)} restores a cache (${use.how}) and ${why}; cache entries written by any run on the default branch end up in the release` +
                  (found === null
                    ? ". No workflow of the repository runs an outsider's code in the default branch's cache scope, so writing those entries takes a collaborator's merged code, or a compromised dependency or action of a default-branch run (MEDIUM)."
                    : found.approvalGated === true
                      ? `, and ${found.text}, so an outsider can write them only with a maintainer's approval and a push after it (MEDIUM).`
                      : `, and ${found.text}, so an outsider can write them.`),
              });
              continue;
            }
            if (followsPullRequests && cacheUse(step) !== null) {
              // A privileged follow-up of pull request runs restores the default branch's cache: whatever wrote
              // an entry there (a base-scope run that ran a pull request's code) now runs next to the secrets.
              const secret = laterSecret(job, step.index);
              if (secret !== null) {
                context.report({
                  node: use.node,
                  job,
                  severity: 'MEDIUM',
                  message: `${describeStep(step)} restores a cache (${use.how}) in a \`workflow_run\` job that follows runs a pull request can start, and ${secret.step === step ? 'the same step' : describeStep(secret.step)} then uses \`secrets.${secret.name}\`; an entry planted in the default branch's cache scope (by any base-scope run that executes a pull request's code) runs with that secret.`,
                });
                continue;
              }
            }
            // A step that restores without saving (\`actions/cache/restore\`, setup-uv \`save-cache: false\`) plants nothing.
            if (!prTarget || use.saves === false) continue;
            const controlled = prControlled(use, context, checkedOut);
            if (controlled === null) continue;
            context.report({
              node: use.node,
              job,
              severity: 'MEDIUM',
              message: `${describeStep(step)} saves a cache (${use.how}) under \`pull_request_target\`, in the base branch's cache scope, and ${controlled}; runs on the default branch, releases included, restore it.`,
            });
          }
        }
      },
    };
  },
});
