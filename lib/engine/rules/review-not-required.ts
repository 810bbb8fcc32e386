import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'review-not-required',
    category: 'CICD-SEC-1',
    title: 'Pull request review not required',
    severity: 'HIGH',
    surface: 'repo-settings',
    description: 'No required pull-request review.',
    recommendation: '',
  },
  check: () => undefined,
});
