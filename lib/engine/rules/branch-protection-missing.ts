import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'branch-protection-missing',
    category: 'CICD-SEC-1',
    title: 'Default branch is not protected',
    severity: 'HIGH',
    surface: 'repo-settings',
    description: 'Neither a classic protection rule nor an active ruleset targets the default branch.',
    recommendation: '',
  },
  check: () => undefined,
});
