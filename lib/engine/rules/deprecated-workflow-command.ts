import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'deprecated-workflow-command',
    category: 'BEST-PRAC-3',
    title: 'Deprecated workflow command',
    severity: 'LOW',
    surface: 'workflow',
    description: '::set-output, ::save-state, ::set-env, ::add-path in run:.',
    recommendation: '',
  },
  create: () => ({}),
});
