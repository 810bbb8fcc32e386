import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'actions-can-approve-prs',
    category: 'CICD-SEC-1',
    title: 'GitHub Actions can approve pull requests',
    severity: 'HIGH',
    surface: 'repo-settings',
    description: 'can_approve_pull_request_reviews true.',
    recommendation: '',
  },
  check: () => undefined,
});
