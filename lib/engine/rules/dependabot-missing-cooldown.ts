import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'dependabot-missing-cooldown',
    category: 'BEST-PRAC-4',
    title: 'Dependency updates adopted with no cooldown',
    severity: 'LOW',
    surface: 'workflow',
    description: 'Dependabot updates entries without cooldown.',
    recommendation: '',
  },
  create: () => ({}),
});
