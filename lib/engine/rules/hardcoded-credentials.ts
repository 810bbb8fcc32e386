import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'hardcoded-credentials',
    category: 'CICD-SEC-6',
    title: 'Credential written literally in a workflow',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'Literal credentials.password of container/services; token patterns (ghp_, github_pat_, gho_, AKIA…, xox[abp]-, -----BEGIN … PRIVATE KEY-----, glpat-, npm_…) anywhere; env: keys named like secrets with literal non-placeholder values.',
    recommendation: '',
  },
  create: () => ({}),
});
