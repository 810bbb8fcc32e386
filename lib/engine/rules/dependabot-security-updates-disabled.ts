import { defineSettingsRule } from '../rule.js';
import { readArea } from '../settings/areas.js';
import { text } from '../settings/json.js';

export default defineSettingsRule({
  meta: {
    id: 'dependabot-security-updates-disabled',
    category: 'CICD-SEC-3',
    title: 'Dependabot security updates disabled',
    severity: 'LOW',
    surface: 'repo-settings',
    description:
      'Dependabot security updates (automated security fixes) are off, so a vulnerable dependency stays until someone upgrades it by hand.',
    recommendation:
      'Settings → Advanced Security (or "Code security") → Dependabot security updates: Enable (`PUT /repos/{owner}/{repo}/automated-security-fixes`; Dependabot alerts must be on).',
  },
  check(snapshot, context) {
    const security = readArea(snapshot, 'security_and_analysis');
    // GitHub lists only the features available to the repository; a missing entry is not "disabled".
    if (!security.readable || text(security.value, 'dependabot_security_updates', 'status') !== 'disabled') return;
    context.report({
      message:
        'Dependabot security updates are disabled (`security_and_analysis.dependabot_security_updates.status` is `disabled`): when an alert is raised, no pull request upgrading the vulnerable dependency is opened.',
    });
  },
});
