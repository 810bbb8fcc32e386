import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'excessive-permissions',
    category: 'CICD-SEC-5',
    title: 'Workflow token granted broader permissions than needed',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'write-all, or write scopes granted at workflow level (apply to every job). HIGH for write-all and for contents/id-token/packages/actions write on a privileged trigger.',
    recommendation: '',
  },
  create: () => ({}),
});
