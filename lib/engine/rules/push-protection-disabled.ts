import { defineSettingsRule } from '../rule.js';
import { readArea } from '../settings/areas.js';
import { text } from '../settings/json.js';

export default defineSettingsRule({
  meta: {
    id: 'push-protection-disabled',
    category: 'CICD-SEC-6',
    title: 'Secret push protection disabled',
    severity: 'HIGH',
    surface: 'repo-settings',
    description: 'Secret scanning push protection is off, so a push containing a recognizable token or key is accepted instead of blocked.',
    recommendation:
      'Settings → Advanced Security (or "Code security") → Secret Protection → Push protection: Enable (`PATCH /repos/{owner}/{repo}` with `security_and_analysis: {"secret_scanning_push_protection": {"status": "enabled"}}`; secret scanning must be on).',
  },
  check(snapshot, context) {
    const security = readArea(snapshot, 'security_and_analysis');
    if (!security.readable || text(security.value, 'secret_scanning_push_protection', 'status') !== 'disabled') return;
    context.report({
      message:
        'Secret scanning push protection is disabled: a push that contains a recognizable token or private key is accepted, and the secret is public (or readable by everyone with access) the moment it lands.',
    });
  },
});
