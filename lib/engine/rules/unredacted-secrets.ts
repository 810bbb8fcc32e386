import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'unredacted-secrets',
    category: 'CICD-SEC-6',
    title: 'Secret field accessed in a way that defeats log masking',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'fromJSON(secrets.X).field, substrings of secrets.',
    recommendation: '',
  },
  create: () => ({}),
});
