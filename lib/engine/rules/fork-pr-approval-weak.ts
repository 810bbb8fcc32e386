import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'fork-pr-approval-weak',
    category: 'CICD-SEC-4',
    title: 'Fork pull requests run without maintainer approval',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description: 'Public repository whose fork-PR contributor approval policy is weaker than "all external contributors".',
    recommendation: '',
  },
  check: () => undefined,
});
