import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'github-app-token-misuse',
    category: 'CICD-SEC-2',
    title: 'GitHub App installation token minted too broadly',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'actions/create-github-app-token with skip-token-revoke: true, an owner without repositories, or no permission narrowing.',
    recommendation: '',
  },
  create: () => ({}),
});
