import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'persisted-credentials',
    category: 'CICD-SEC-6',
    title: 'Checkout leaves the token in .git/config',
    severity: 'LOW',
    surface: 'workflow',
    description: 'actions/checkout without persist-credentials: false. MEDIUM in privileged-trigger workflows; HIGH when a later step uploads the workspace (or a path containing .git) as an artifact.',
    recommendation: '',
  },
  create: () => ({}),
});
