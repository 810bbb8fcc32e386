import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'untrusted-checkout',
    category: 'CICD-SEC-4',
    title: 'Untrusted pull request code checked out in a privileged workflow',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'Privileged trigger + actions/checkout (or git fetch/checkout of refs/pull/*, gh pr checkout) of the PR head/merge ref or workflow_run.head_*. MEDIUM when no later step in the job runs workspace code (build tools, package managers, local ./ actions, scripts from the checkout).',
    recommendation: '',
  },
  create: () => ({}),
});
