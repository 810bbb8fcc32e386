import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'default-token-write',
    category: 'CICD-SEC-5',
    title: 'Default workflow token is read-write',
    severity: 'HIGH',
    surface: 'repo-settings',
    description: 'default_workflow_permissions = write.',
    recommendation: '',
  },
  check: () => undefined,
});
