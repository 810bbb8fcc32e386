import { defineSettingsRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineSettingsRule({
  meta: {
    id: 'webhook-without-secret',
    category: 'CICD-SEC-8',
    title: 'Webhook without a secret',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description: 'A repository webhook with no secret. HIGH when insecure_ssl is on.',
    recommendation: '',
  },
  check: () => undefined,
});
