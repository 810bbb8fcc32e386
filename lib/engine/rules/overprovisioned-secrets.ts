import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'overprovisioned-secrets',
    category: 'CICD-SEC-5',
    title: 'Whole secrets context exposed',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'toJSON(secrets), secrets[<expression>], or mapping secrets into workflow-level env:.',
    recommendation: '',
  },
  create: () => ({}),
});
