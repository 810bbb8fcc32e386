import { defineSettingsRule } from '../rule.js';
import { listing } from '../settings/json.js';
import { assessBypass } from '../settings/protection.js';
import { branchLabel } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'admin-bypass-allowed',
    category: 'CICD-SEC-1',
    title: 'Administrators can bypass protection',
    severity: 'HIGH',
    surface: 'repo-settings',
    description:
      'The default branch\'s protection does not bind administrators: classic protection has `enforce_admins` off, or an active ruleset lists a repository role or organization owners in its bypass list.',
    recommendation:
      'Classic rule: Settings → Branches → edit the rule → enable "Do not allow bypassing the above settings" (`POST /repos/{owner}/{repo}/branches/{branch}/protection/enforce_admins`). Rulesets: Settings → Rules → Rulesets → the ruleset → Bypass list: remove roles and owners; if an automation must bypass, add that one app with "For pull requests only".',
  },
  check(snapshot, context) {
    const bypass = assessBypass(snapshot);
    if (bypass.bypasses.length === 0) return;
    const unknown = bypass.rulesetsUnknown.length > 0 ? ` The bypass lists of ${listing(bypass.rulesetsUnknown.map((r) => r.label))} could not be read and were not assessed.` : '';
    context.report({
      message: `Protection of ${branchLabel(snapshot)} can be bypassed: ${listing(bypass.bypasses)}. A compromised privileged account can push or merge anything without review or checks.${unknown}`,
    });
  },
});
