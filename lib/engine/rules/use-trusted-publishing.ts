import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'use-trusted-publishing',
    category: 'CICD-SEC-2',
    title: 'Registry token used where OIDC trusted publishing exists',
    severity: 'INFO',
    surface: 'workflow',
    description: 'Publishing to PyPI/npm/crates.io/RubyGems/NuGet with a long-lived token secret.',
    recommendation: '',
  },
  create: () => ({}),
});
