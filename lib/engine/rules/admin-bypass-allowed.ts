import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'admin-bypass-allowed',
    category: 'CICD-SEC-1',
    title: 'Administrators can bypass protection',
    severity: 'HIGH',
    surface: 'repo-settings',
    description: 'enforce_admins off, or ruleset bypass actors that include admin roles.',
    recommendation: '',
  },
  check: () => undefined,
});
