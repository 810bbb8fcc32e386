import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'signed-commits-not-required',
    category: 'CICD-SEC-1',
    title: 'Signed commits not required',
    severity: 'LOW',
    surface: 'repo-settings',
    description: 'Required signatures off.',
    recommendation: '',
  },
  check: () => undefined,
});
