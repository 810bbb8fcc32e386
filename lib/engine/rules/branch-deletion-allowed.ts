import { defineSettingsRule } from '../rule.js';
import { assessProtection, REQUIREMENTS } from '../settings/protection.js';
import { branchLabel } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'branch-deletion-allowed',
    category: 'CICD-SEC-1',
    title: 'Default branch can be deleted',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description: 'The default branch is protected, but neither its classic protection nor any active ruleset restricts deleting it.',
    recommendation:
      'Restrict deletion: in the ruleset for the default branch (Settings → Rules → Rulesets) enable "Restrict deletions", or in the classic rule (Settings → Branches) turn "Allow deletions" off (`allow_deletions: false`).',
  },
  check(snapshot, context) {
    const protection = assessProtection(snapshot);
    if (protection.check(REQUIREMENTS['branch-deletion-allowed']) !== 'violated') return;
    const branch = branchLabel(snapshot);
    context.report({
      message: `Deleting ${branch} is not restricted: ${protection.lacks('restrict deletions')}. GitHub refuses to delete the current default branch, but as soon as another branch becomes the default, anyone with push access can delete ${branch} and the history only it holds.`,
    });
  },
});
