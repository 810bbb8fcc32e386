import { defineSettingsRule } from '../rule.js';
import { assessProtection, REQUIREMENTS } from '../settings/protection.js';
import { branchSubject } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'branch-protection-missing',
    category: 'CICD-SEC-1',
    title: 'Default branch is not protected',
    severity: 'HIGH',
    surface: 'repo-settings',
    description:
      'Neither a classic protection rule nor an active ruleset targets the default branch, so anyone with write access (and any workflow token that can write contents) can push to it, force-push over it or merge unreviewed code.',
    recommendation:
      'Add a branch ruleset for the default branch (Settings → Rules → Rulesets → New branch ruleset, target "Include default branch", enforcement Active) with "Restrict deletions", "Block force pushes", "Require a pull request before merging" (at least one approval, stale approvals dismissed) and "Require status checks to pass"; or a classic rule under Settings → Branches.',
  },
  check(snapshot, context) {
    // The other branch rules stay silent on an unprotected branch: this one finding says it all.
    if (assessProtection(snapshot).check(REQUIREMENTS['branch-protection-missing']) !== 'unprotected') return;
    context.report({
      message: `${branchSubject(snapshot)} has no classic branch protection and no active ruleset: anyone with write access, and any workflow whose token can write contents, can push to it directly, rewrite its history or merge without review or passing checks.`,
    });
  },
});
