import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'secret-scanning-disabled',
    category: 'CICD-SEC-6',
    title: 'Secret scanning disabled',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description: 'security_and_analysis.secret_scanning disabled.',
    recommendation: '',
  },
  check: () => undefined,
});
