import { defineSettingsRule } from '../rule.js';
import { assessProtection, REQUIREMENTS } from '../settings/protection.js';
import { branchLabel } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'stale-reviews-kept',
    category: 'CICD-SEC-1',
    title: 'Approvals survive new commits',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description:
      'Pull requests into the default branch need approval, but an approval stays valid after new commits are pushed (stale approvals are not dismissed and the most recent push need not be approved), so code can be added after review.',
    recommendation:
      'In the ruleset for the default branch (Settings → Rules → Rulesets → "Require a pull request before merging") enable "Dismiss stale pull request approvals when new commits are pushed", or in the classic rule (Settings → Branches) enable "Dismiss stale pull request approvals when new commits are pushed" (`dismiss_stale_reviews: true`).',
  },
  check(snapshot, context) {
    const protection = assessProtection(snapshot);
    if (protection.check(REQUIREMENTS['review-not-required']) !== 'satisfied') return;
    if (protection.check(REQUIREMENTS['stale-reviews-kept']) !== 'violated') return;
    context.report({
      message: `Approvals of pull requests into ${branchLabel(snapshot)} survive new commits: ${protection.lacks('dismiss stale approvals or require approval of the most recent push')}. An author can collect an approval, push unreviewed code to the same pull request and merge it.`,
    });
  },
});
