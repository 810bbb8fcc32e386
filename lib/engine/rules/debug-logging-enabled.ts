import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'debug-logging-enabled',
    category: 'CICD-SEC-7',
    title: 'Actions debug logging forced on',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'ACTIONS_STEP_DEBUG / ACTIONS_RUNNER_DEBUG truthy in any env:.',
    recommendation: '',
  },
  create: () => ({}),
});
