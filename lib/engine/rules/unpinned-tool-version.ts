import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'unpinned-tool-version',
    category: 'BEST-PRAC-4',
    title: 'Toolchain version left floating',
    severity: 'LOW',
    surface: 'workflow',
    description: 'setup-* actions with no version input or latest.',
    recommendation: '',
  },
  create: () => ({}),
});
