import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'sha-pinning-not-required',
    category: 'CICD-SEC-3',
    title: 'SHA pinning of actions not enforced',
    severity: 'LOW',
    surface: 'repo-settings',
    description: 'sha_pinning_required false.',
    recommendation: '',
  },
  check: () => undefined,
});
