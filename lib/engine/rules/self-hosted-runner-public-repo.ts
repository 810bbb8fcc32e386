import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'self-hosted-runner-public-repo',
    category: 'CICD-SEC-7',
    title: 'Self-hosted runners attached to a public repository',
    severity: 'HIGH',
    surface: 'repo-settings',
    description: 'Public repository with registered self-hosted runners.',
    recommendation: '',
  },
  check: () => undefined,
});
