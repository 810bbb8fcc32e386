import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'insecure-commands',
    category: 'CICD-SEC-7',
    title: 'Deprecated insecure workflow commands re-enabled',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'ACTIONS_ALLOW_UNSECURE_COMMANDS set truthy in any env:.',
    recommendation: '',
  },
  create: () => ({}),
});
