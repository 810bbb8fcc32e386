import { foreignDownloads } from '../analysis/artifacts.js';
import { untrustedCheckouts } from '../analysis/pr-head.js';
import { followsUntrustedRuns } from '../analysis/workflow-run.js';
import { outsiderControlled } from '../expressions/controller.js';
import { stepScope } from '../expressions/taint.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import type { Job, Workflow } from '../model/workflow.js';
import { getText } from '../yaml/model.js';

const DANGEROUS = new Set(['pull_request_target', 'workflow_run']);

/**
 * Well-known actions that only label, assign, greet, check titles or mark stale issues and pull requests
 * through the API: they never run the pull request's code or pass its text to a shell.
 */
const TRIAGE_ACTIONS = new Set([
  'actions/labeler',
  'actions/first-interaction',
  'actions/stale',
  'actions/add-to-project',
  'github/issue-labeler',
  'srvaroa/labeler',
  'timonvs/pr-labeler-action',
  'codelytv/pr-size-labeler',
  'kentaro-m/auto-assign-action',
  'pozil/auto-assign-issue',
  'actions-ecosystem/action-add-labels',
  'actions-ecosystem/action-remove-labels',
  'amannn/action-semantic-pull-request',
  'thehanimo/pr-title-checker',
  'thollander/actions-comment-pull-request',
  'release-drafter/release-drafter',
  'eps1lon/actions-label-merge-conflict',
  'step-security/harden-runner',
]);

/** A job that only runs well-known triage actions: no checkout, no script, no reusable workflow. */
function triageOnly(job: Job): boolean {
  if (job.uses !== undefined || job.steps.length === 0) return false;
  return job.steps.every((step) => step.run === undefined && step.usesRef?.kind === 'repository' && TRIAGE_ACTIONS.has(step.usesRef.slug));
}

/** Scripts that read the event payload themselves (`context.payload`, `$GITHUB_EVENT_PATH`, `gh pr ...`). */
const READS_EVENT = /context\.payload|GITHUB_EVENT_PATH|GITHUB_HEAD_REF|\bgh\s+pr\s|pull_request/;

/**
 * True when some job of the workflow touches pull request code or data: checks it out, downloads the
 * triggering run's artifacts, passes outsider-controlled values to a step, reads the event payload in a
 * script, or calls a reusable workflow (whose steps the engine does not follow here).
 */
function touchesPullRequest(workflow: Workflow, context: WorkflowRuleContext): boolean {
  for (const job of workflow.jobs) {
    if (job.uses !== undefined) return true;
    if (untrustedCheckouts(job, context.repository).length > 0 || foreignDownloads(job).length > 0) return true;
    for (const step of job.steps) {
      const scope = stepScope(step);
      for (const node of [step.run, step.with, step.env]) {
        if (node === undefined) continue;
        const taint = context.taint.ofNode(node, scope);
        if (taint !== null && outsiderControlled(taint.controller)) return true;
      }
      const script = step.run !== undefined ? String(step.run.value ?? '') : (getText(step.with, 'script') ?? '');
      if (READS_EVENT.test(script)) return true;
    }
  }
  return false;
}

export default defineWorkflowRule({
  meta: {
    id: 'dangerous-trigger',
    category: 'CICD-SEC-4',
    title: 'Workflow uses a trigger that runs with base-repository privileges',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'The workflow runs on `pull_request_target` or `workflow_run`: events an outsider can cause (by opening a pull request) that run with the base repository\'s secrets and a write token. Any mistake in such a workflow (checking out the pull request, expanding its text into a script, trusting its artifacts) is exploitable by anyone.',
    recommendation:
      'Prefer `pull_request`, which runs fork pull requests without secrets. Where the privileged trigger is needed, keep its jobs minimal: no checkout of pull request code, no `${{ }}` of pull request data in scripts, least `permissions:`, and artifacts treated as untrusted data.',
  },
  create: (context) => ({
    workflow(workflow) {
      const safe = workflow.jobs.length > 0 && workflow.jobs.every(triageOnly);
      let touches: boolean | undefined;
      for (const trigger of workflow.triggers) {
        if (!DANGEROUS.has(trigger.name)) continue;
        touches ??= safe || touchesPullRequest(workflow, context);
        const outsiders = trigger.name === 'pull_request_target' || followsUntrustedRuns(workflow, context.repository);
        if (!safe && (!touches || !outsiders)) {
          // The trigger alone grants an outsider nothing: keep it visible as hygiene, say why it is LOW.
          context.report({
            node: trigger.node,
            job: null,
            severity: 'LOW',
            message: outsiders
              ? `\`${trigger.name}\` runs with the base repository's secrets and a write token on events outsiders cause, but no job checks out, downloads or reads pull request code or data; keep it that way, with least \`permissions:\`.`
              : `\`${trigger.name}\` runs with the base repository's secrets and a write token after workflows that do not run on pull requests today; any that starts to hands its runs to this one.`,
          });
          continue;
        }
        const what =
          trigger.name === 'pull_request_target'
            ? 'runs on pull requests from forks with the base repository\'s secrets and a write token'
            : followsUntrustedRuns(workflow, context.repository)
              ? 'runs after other workflows, including runs started by fork pull requests, with the base repository\'s secrets and a write token'
              : 'runs after other workflows with the base repository\'s secrets and a write token (the workflows it names do not run on pull requests today, but any that starts to hands its runs to this one)';
        context.report({
          node: trigger.node,
          job: null,
          severity: safe ? 'LOW' : 'MEDIUM',
          message: safe
            ? `\`${trigger.name}\` ${what}; every job only runs well-known labeling or triage actions, with no checkout or script.`
            : `\`${trigger.name}\` ${what}; its jobs check out code, run scripts or call actions that must all treat pull request data as hostile.`,
        });
      }
    },
  }),
});
