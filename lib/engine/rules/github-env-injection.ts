import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'github-env-injection',
    category: 'CICD-SEC-4',
    title: 'Untrusted data written to GITHUB_ENV or GITHUB_PATH',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'In a privileged-trigger workflow, a run: writes to $GITHUB_ENV/$GITHUB_PATH (>>, >, tee) a value that is attacker-controlled or comes from a downloaded artifact.',
    recommendation: '',
  },
  create: () => ({}),
});
