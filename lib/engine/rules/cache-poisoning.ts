import { cacheUse, cacheWrite, type CacheUse } from '../analysis/caching.js';
import { describeStep, describeTaint } from '../analysis/describe.js';
import { untrustedCheckouts } from '../analysis/pr-head.js';
import { isReleaseTriggered, publishesForReal, workflowPublishingSteps } from '../analysis/publishing.js';
import { isGithubToken, secretEnv, secretOccurrences } from '../analysis/secrets.js';
import { followsUntrustedRuns } from '../analysis/workflow-run.js';
import { stepScope } from '../expressions/taint.js';
import { actionSlug } from '../model/uses.js';
import type { Job, Step, Workflow } from '../model/workflow.js';
import { get } from '../yaml/model.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';

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
  return step.usesRef?.kind === 'repository' && /^actions\/upload(-pages)?-artifact$/.test(actionSlug(step.usesRef));
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
      'A workflow triggered by tags or releases, or a job that publishes (package upload, `gh release`, image push) or feeds one, restores a GitHub Actions cache (`actions/cache`, or a `setup-*` action with caching). Any workflow run on the default branch can write those cache entries, so code injected anywhere there (a compromised test dependency, an injected script) can plant files the release then ships. MEDIUM for a `pull_request_target` job whose cache key, or content, the pull request controls, and for a `workflow_run` job that follows runs a pull request can start, restores a cache and then uses stored secrets.',
    recommendation:
      'Do not restore caches in release and publishing jobs: build them from a clean state (`cache: false`, `lookup-only: true`, no `actions/cache`). Under `pull_request_target`, do not save caches from pull request data.',
  },
  create: (context) => ({
    workflow(workflow) {
      // Rehearsals (`--dry-run`, goreleaser `--snapshot`) publish nothing.
      const publishing = workflowPublishingSteps(workflow).filter(publishesForReal);
      const released = isReleaseTriggered(workflow);
      const publishingJobs = [...new Set(publishing.flatMap((p) => (p.step.job === null ? [] : [p.step.job])))];
      // A release workflow ships whatever its jobs build; CI that also runs on tags ships only what it publishes.
      const scoped = publishingJobs.length > 0 ? feedingJobs(workflow, publishingJobs) : released && releaseOnly(workflow) ? new Set(workflow.jobs) : new Set<Job>();
      const prTarget = workflow.triggers.some((t) => t.name === 'pull_request_target');
      const followsPullRequests = followsUntrustedRuns(workflow, context.repository);
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
            context.report({
              node: use.node,
              job,
              message: `${describeStep(step)} restores a cache (${use.how}) and ${why}; cache entries written by any run on the default branch end up in the release.`,
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
  }),
});
