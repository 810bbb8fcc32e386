import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'dependabot-insecure-execution',
    category: 'CICD-SEC-3',
    title: 'Dependabot allowed to execute external code',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'insecure-external-code-execution: allow in dependabot config.',
    recommendation: '',
  },
  create: () => ({}),
});
