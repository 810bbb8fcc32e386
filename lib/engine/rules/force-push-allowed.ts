import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'force-push-allowed',
    category: 'CICD-SEC-1',
    title: 'Force pushes allowed on the default branch',
    severity: 'HIGH',
    surface: 'repo-settings',
    description: 'Protection/ruleset present and force pushes allowed.',
    recommendation: '',
  },
  check: () => undefined,
});
