import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'unsound-ternary',
    category: 'BEST-PRAC-2',
    title: 'a && b || c used as a ternary where b can be falsy',
    severity: 'LOW',
    surface: 'workflow',
    description: 'Expression pseudo-ternary whose middle operand may be an empty string or false.',
    recommendation: '',
  },
  create: () => ({}),
});
