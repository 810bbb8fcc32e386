import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'secrets-inherit',
    category: 'CICD-SEC-5',
    title: 'All secrets passed to a reusable workflow',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'secrets: inherit on a job that calls a reusable workflow. HIGH on a privileged trigger.',
    recommendation: '',
  },
  create: () => ({}),
});
