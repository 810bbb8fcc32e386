import { defineSettingsRule } from '../rule.js';
import { readArea } from '../settings/areas.js';

export default defineSettingsRule({
  meta: {
    id: 'dependabot-alerts-disabled',
    category: 'CICD-SEC-3',
    title: 'Dependabot alerts disabled',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description: 'Dependabot alerts (vulnerability alerts) are off, so nobody is told when a dependency, or an action a workflow uses, has a published vulnerability.',
    recommendation:
      'Settings → Advanced Security (or "Code security") → Dependabot alerts: Enable (`PUT /repos/{owner}/{repo}/vulnerability-alerts`).',
  },
  check(snapshot, context) {
    const alerts = readArea(snapshot, 'vulnerability_alerts');
    if (!alerts.readable || alerts.value) return;
    context.report({
      message:
        'Dependabot alerts are disabled: known vulnerabilities in the repository\'s dependencies and in the actions its workflows use go unreported.',
    });
  },
});
