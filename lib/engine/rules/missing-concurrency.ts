import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'missing-concurrency',
    category: 'BEST-PRAC-1',
    title: 'Deploying or publishing workflow without concurrency control',
    severity: 'INFO',
    surface: 'workflow',
    description: 'Workflow that deploys (environment:) or publishes with no concurrency:.',
    recommendation: '',
  },
  create: () => ({}),
});
