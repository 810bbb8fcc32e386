import { defineSettingsRule } from '../rule.js';
import { assessProtection, REQUIREMENTS } from '../settings/protection.js';
import { branchLabel } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'review-count-low',
    category: 'CICD-SEC-1',
    title: 'Fewer than two approvals required',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description:
      'Pull requests into the default branch need a single approval, so one compromised or colluding account (or an automated approver) is enough to merge. Zero approvals is reported by review-not-required instead.',
    recommendation:
      'Raise "Required approvals" to 2 in the ruleset for the default branch (Settings → Rules → Rulesets → "Require a pull request before merging"), or in the classic rule (Settings → Branches, `required_approving_review_count: 2`).',
  },
  check(snapshot, context) {
    const protection = assessProtection(snapshot);
    if (protection.check(REQUIREMENTS['review-not-required']) !== 'satisfied' || protection.check(REQUIREMENTS['review-count-low']) !== 'violated') return;
    const approvals = protection.combined.approvals;
    context.report({
      message: `Pull requests into ${branchLabel(snapshot)} need only ${approvals} approval (${protection.sources}): one compromised or colluding account, or one workflow allowed to approve, is enough to merge any change.`,
    });
  },
});
