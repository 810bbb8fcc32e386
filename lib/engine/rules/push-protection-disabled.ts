import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'push-protection-disabled',
    category: 'CICD-SEC-6',
    title: 'Secret push protection disabled',
    severity: 'HIGH',
    surface: 'repo-settings',
    description: 'secret_scanning_push_protection disabled.',
    recommendation: '',
  },
  check: () => undefined,
});
