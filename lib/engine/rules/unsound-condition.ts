import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'unsound-condition',
    category: 'CICD-SEC-1',
    title: 'Condition that always evaluates to true',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'if: whose text mixes literal characters with ${{ }} (or a block scalar with a trailing newline) so it is a non-empty string.',
    recommendation: '',
  },
  create: () => ({}),
});
