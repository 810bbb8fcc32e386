import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'repository-dispatch-unfiltered',
    category: 'CICD-SEC-8',
    title: 'repository_dispatch accepted without an event-type allow-list',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'on: repository_dispatch with no non-empty types:.',
    recommendation: '',
  },
  create: () => ({}),
});
