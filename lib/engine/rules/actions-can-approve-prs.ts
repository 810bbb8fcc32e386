import { defineSettingsRule } from '../rule.js';
import { readArea } from '../settings/areas.js';
import { flag } from '../settings/json.js';
import { actionsDisabled } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'actions-can-approve-prs',
    category: 'CICD-SEC-1',
    title: 'GitHub Actions can approve pull requests',
    severity: 'HIGH',
    surface: 'repo-settings',
    description:
      'Workflows may create and approve pull requests (`can_approve_pull_request_reviews`), so any workflow, including one an attacker can inject code into, can supply the approval that branch protection requires.',
    recommendation:
      'Settings → Actions → General → Workflow permissions: clear "Allow GitHub Actions to create and approve pull requests" (`PUT /repos/{owner}/{repo}/actions/permissions/workflow` with `can_approve_pull_request_reviews: false`). Bots that open pull requests can use a GitHub App token instead.',
  },
  check(snapshot, context) {
    const workflow = readArea(snapshot, 'workflow_permissions');
    if (!workflow.readable || flag(workflow.value, 'can_approve_pull_request_reviews') !== true || actionsDisabled(snapshot)) return;
    context.report({
      message:
        'GitHub Actions may create and approve pull requests (`can_approve_pull_request_reviews` is true): a workflow token can approve a pull request, so one injected or malicious workflow can supply the review that branch protection requires.',
    });
  },
});
