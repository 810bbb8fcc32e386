import { defineSettingsRule } from '../rule.js';
import { assessProtection, REQUIREMENTS } from '../settings/protection.js';
import { branchLabel } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'force-push-allowed',
    category: 'CICD-SEC-1',
    title: 'Force pushes allowed on the default branch',
    severity: 'HIGH',
    surface: 'repo-settings',
    description:
      'The default branch is protected, but neither its classic protection nor any active ruleset blocks force pushes, so its history can be rewritten.',
    recommendation:
      'Block force pushes: in the ruleset for the default branch (Settings → Rules → Rulesets) enable "Block force pushes", or in the classic rule (Settings → Branches) turn "Allow force pushes" off (`PUT /repos/{owner}/{repo}/branches/{branch}/protection` with `allow_force_pushes: false`).',
  },
  check(snapshot, context) {
    const protection = assessProtection(snapshot);
    if (protection.check(REQUIREMENTS['force-push-allowed']) !== 'violated') return;
    const branch = branchLabel(snapshot);
    context.report({
      message: `Force pushes to ${branch} are allowed: ${protection.lacks('block them')}. Anyone who can push to ${branch} can rewrite its history, replacing reviewed commits with unreviewed ones or erasing the trace of a malicious change.`,
    });
  },
});
