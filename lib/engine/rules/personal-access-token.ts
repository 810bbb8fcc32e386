import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'personal-access-token',
    category: 'CICD-SEC-2',
    title: 'Long-lived personal access token used in a workflow',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'secrets.* whose name matches PAT patterns (*_PAT, PAT_*, *PERSONAL_ACCESS_TOKEN*, *_GH_TOKEN) passed as a token.',
    recommendation: '',
  },
  create: () => ({}),
});
