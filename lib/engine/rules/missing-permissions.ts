import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'missing-permissions',
    category: 'CICD-SEC-5',
    title: 'Workflow token permissions not declared',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'No workflow-level permissions: and at least one job without job-level permissions:; the token inherits the repository default. HIGH on privileged triggers.',
    recommendation: '',
  },
  create: () => ({}),
});
