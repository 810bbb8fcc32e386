import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'dependabot-security-updates-disabled',
    category: 'CICD-SEC-3',
    title: 'Dependabot security updates disabled',
    severity: 'LOW',
    surface: 'repo-settings',
    description: 'Automated security fixes off.',
    recommendation: '',
  },
  check: () => undefined,
});
