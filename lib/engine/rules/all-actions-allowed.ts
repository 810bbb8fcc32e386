import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'all-actions-allowed',
    category: 'CICD-SEC-8',
    title: 'Any third-party action may run',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description: 'Actions enabled and allowed_actions = all.',
    recommendation: '',
  },
  check: () => undefined,
});
