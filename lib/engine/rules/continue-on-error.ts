import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'continue-on-error',
    category: 'CICD-SEC-10',
    title: 'Failures hidden by continue-on-error',
    severity: 'LOW',
    surface: 'workflow',
    description: 'continue-on-error: true on a job, or on a step that runs a security tool (CodeQL, scanners, audits).',
    recommendation: '',
  },
  create: () => ({}),
});
