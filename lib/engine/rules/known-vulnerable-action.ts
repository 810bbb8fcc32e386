import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'known-vulnerable-action',
    category: 'CICD-SEC-3',
    title: 'Action version with a known advisory or compromise',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'uses: ref inside a vulnerable or compromised range of a built-in, dated advisory snapshot shipped as data (e.g. tj-actions/changed-files, reviewdog/action-setup 2025 compromise).',
    recommendation: '',
  },
  create: () => ({}),
});
