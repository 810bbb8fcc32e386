import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'settings-unreadable',
    category: 'BEST-PRAC-5',
    title: 'Repository setting could not be read',
    severity: 'INFO',
    surface: 'repo-settings',
    description: 'An area above could not be read; the description names it and the missing permission.',
    recommendation: '',
  },
  check: () => undefined,
});
