import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'stale-reviews-kept',
    category: 'CICD-SEC-1',
    title: 'Approvals survive new commits',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description: 'dismiss_stale_reviews off.',
    recommendation: '',
  },
  check: () => undefined,
});
