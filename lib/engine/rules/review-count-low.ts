import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'review-count-low',
    category: 'CICD-SEC-1',
    title: 'Fewer than two approvals required',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description: 'Required approvals < 2.',
    recommendation: '',
  },
  check: () => undefined,
});
