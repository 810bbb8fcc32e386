import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'dependabot-alerts-disabled',
    category: 'CICD-SEC-3',
    title: 'Dependabot alerts disabled',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description: 'Vulnerability alerts off.',
    recommendation: '',
  },
  check: () => undefined,
});
