import { defineSettingsRule } from '../rule.js';
import { assessProtection, REQUIREMENTS } from '../settings/protection.js';
import { branchSubject } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'signed-commits-not-required',
    category: 'CICD-SEC-1',
    title: 'Signed commits not required',
    severity: 'LOW',
    surface: 'repo-settings',
    description: 'The default branch is protected, but accepts commits without a verified signature, so a commit can claim any author.',
    recommendation:
      'In the ruleset for the default branch (Settings → Rules → Rulesets) enable "Require signed commits", or in the classic rule (Settings → Branches) enable "Require signed commits" (`POST /repos/{owner}/{repo}/branches/{branch}/protection/required_signatures`).',
  },
  check(snapshot, context) {
    const protection = assessProtection(snapshot);
    if (protection.check(REQUIREMENTS['signed-commits-not-required']) !== 'violated') return;
    context.report({
      message: `${branchSubject(snapshot)} accepts unsigned commits: ${protection.lacks('require signed commits')}. Commit authorship can be forged, so the history cannot show who really wrote a change.`,
    });
  },
});
