import { defineSettingsRule } from '../rule.js';
import { readArea } from '../settings/areas.js';
import { text } from '../settings/json.js';
import { visibility } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'secret-scanning-disabled',
    category: 'CICD-SEC-6',
    title: 'Secret scanning disabled',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description: 'Secret scanning is off, so tokens and keys committed to the repository (or printed into it by a workflow) raise no alert.',
    recommendation:
      'Settings → Advanced Security (or "Code security") → Secret Protection / Secret scanning: Enable (`PATCH /repos/{owner}/{repo}` with `security_and_analysis: {"secret_scanning": {"status": "enabled"}}`). Private repositories need GitHub Secret Protection.',
  },
  check(snapshot, context) {
    const security = readArea(snapshot, 'security_and_analysis');
    if (!security.readable || text(security.value, 'secret_scanning', 'status') !== 'disabled') return;
    const plan = visibility(snapshot) === 'private' ? ' (for a private repository this needs GitHub Secret Protection)' : '';
    context.report({
      message: `Secret scanning is disabled${plan}: credentials committed to the repository raise no alert, so a leaked token stays valid until someone happens to notice it.`,
    });
  },
});
