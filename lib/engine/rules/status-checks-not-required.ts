import { defineSettingsRule } from '../rule.js';
import { assessProtection, REQUIREMENTS } from '../settings/protection.js';
import { branchLabel } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'status-checks-not-required',
    category: 'CICD-SEC-1',
    title: 'Status checks not required before merge',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description:
      'The default branch is protected, but no status check (or required workflow) must pass before merging, so changes can land while tests and security scans fail or have not run.',
    recommendation:
      'In the ruleset for the default branch (Settings → Rules → Rulesets) enable "Require status checks to pass" and add the CI jobs that must pass, or in the classic rule (Settings → Branches) enable "Require status checks to pass before merging" and select them.',
  },
  check(snapshot, context) {
    const protection = assessProtection(snapshot);
    if (protection.check(REQUIREMENTS['status-checks-not-required']) !== 'violated') return;
    context.report({
      message: `Merging into ${branchLabel(snapshot)} requires no status check: ${protection.lacks('name a required check')}, so a pull request can merge while its tests or security scans fail or before they run.`,
    });
  },
});
