import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'typosquat-action',
    category: 'CICD-SEC-3',
    title: 'Action name one edit away from a popular action',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'owner/repo at edit distance 1 from an entry of a built-in popular-actions list, with a different owner or repo.',
    recommendation: '',
  },
  create: () => ({}),
});
