import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'dangerous-trigger',
    category: 'CICD-SEC-4',
    title: 'Workflow uses a trigger that runs with base-repository privileges',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'pull_request_target or workflow_run. LOW when every job is trivially safe (single well-known labeler/triage action, no checkout, no run:).',
    recommendation: '',
  },
  create: () => ({}),
});
