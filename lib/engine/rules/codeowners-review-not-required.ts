import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'codeowners-review-not-required',
    category: 'CICD-SEC-1',
    title: 'Code owner review not required',
    severity: 'LOW',
    surface: 'repo-settings',
    description: 'A CODEOWNERS file exists and code-owner review is not required.',
    recommendation: '',
  },
  check: () => undefined,
});
