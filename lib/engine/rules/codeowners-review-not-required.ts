import { defineSettingsRule } from '../rule.js';
import { readArea } from '../settings/areas.js';
import { assessProtection, REQUIREMENTS } from '../settings/protection.js';
import { branchLabel } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'codeowners-review-not-required',
    category: 'CICD-SEC-1',
    title: 'Code owner review not required',
    severity: 'LOW',
    surface: 'repo-settings',
    description:
      'The repository has a CODEOWNERS file and pull requests into the default branch are required, but a code owner\'s approval is not, so owned paths (workflows, release configuration) can be approved by anyone with write access.',
    recommendation:
      'In the ruleset for the default branch (Settings → Rules → Rulesets → "Require a pull request before merging") enable "Require review from Code Owners", or in the classic rule (Settings → Branches) enable "Require review from Code Owners" (`require_code_owner_reviews: true`).',
  },
  check(snapshot, context) {
    const codeowners = readArea(snapshot, 'codeowners');
    if (!codeowners.readable || !codeowners.value) return;
    const protection = assessProtection(snapshot);
    // Without a required pull request there is nothing to add code owners to: review-not-required says so.
    if (protection.check((f) => f.pullRequest) !== 'satisfied') return;
    if (protection.check(REQUIREMENTS['codeowners-review-not-required']) !== 'violated') return;
    context.report({
      message: `The repository has a CODEOWNERS file, but pull requests into ${branchLabel(snapshot)} do not need a code owner's approval (${protection.sources}): changes to owned paths, such as .github/workflows, can be approved by anyone with write access.`,
    });
  },
});
