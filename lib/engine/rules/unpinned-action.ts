import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'unpinned-action',
    category: 'CICD-SEC-3',
    title: 'Action not pinned to a full commit SHA',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'uses: owner/repo[/path]@ref where ref is not a 40-hex SHA. LOW for GitHub-owned actions (actions/*, github/*). Local ./ actions are exempt. Also reusable workflows.',
    recommendation: '',
  },
  create: () => ({}),
});
