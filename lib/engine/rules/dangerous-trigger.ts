import { followsUntrustedRuns } from '../analysis/workflow-run.js';
import { defineWorkflowRule } from '../rule.js';
import { actionSlug } from '../model/uses.js';
import type { Job } from '../model/workflow.js';

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
  return job.steps.every((step) => step.run === undefined && step.usesRef?.kind === 'repository' && TRIAGE_ACTIONS.has(actionSlug(step.usesRef)));
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
      for (const trigger of workflow.triggers) {
        if (!DANGEROUS.has(trigger.name)) continue;
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
