import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'branch-deletion-allowed',
    category: 'CICD-SEC-1',
    title: 'Default branch can be deleted',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description: 'Protection/ruleset present and deletion allowed.',
    recommendation: '',
  },
  check: () => undefined,
});
