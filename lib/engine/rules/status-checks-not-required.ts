import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'status-checks-not-required',
    category: 'CICD-SEC-1',
    title: 'Status checks not required before merge',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description: 'No required status checks.',
    recommendation: '',
  },
  check: () => undefined,
});
