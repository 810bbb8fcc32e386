import { defineSettingsRule } from '../rule.js';
import { assessProtection, REQUIREMENTS } from '../settings/protection.js';
import { branchLabel, branchSubject } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'review-not-required',
    category: 'CICD-SEC-1',
    title: 'Pull request review not required',
    severity: 'HIGH',
    surface: 'repo-settings',
    description:
      'The default branch is protected, but merging into it needs no approving review: no pull request is required, or one is required with 0 approvals.',
    recommendation:
      'Require reviews: in the ruleset for the default branch (Settings → Rules → Rulesets) enable "Require a pull request before merging" with "Required approvals" of at least 1, or in the classic rule (Settings → Branches) enable "Require a pull request before merging" → "Require approvals".',
  },
  check(snapshot, context) {
    const protection = assessProtection(snapshot);
    if (protection.check(REQUIREMENTS['review-not-required']) !== 'violated') return;
    const branch = branchLabel(snapshot);
    const facts = protection.combined;
    const codeOwners = facts.codeOwners ? ' Only changes to paths listed in CODEOWNERS need a code owner\'s approval.' : '';
    context.report({
      message: facts.pullRequest
        ? `Pull requests into ${branch} need 0 approvals (${protection.sources}): an author can merge their own change without anyone reviewing it.${codeOwners}`
        : `${branchSubject(snapshot)} does not require a pull request: ${protection.lacks('require one')}, so anyone with push access can put unreviewed changes on it directly.`,
    });
  },
});
