import { defineSettingsRule } from '../rule.js';
import { readArea } from '../settings/areas.js';
import { text } from '../settings/json.js';
import { actionsDisabled, visibility } from '../settings/repository.js';

const WEAK: Readonly<Record<string, string>> = {
  first_time_contributors:
    'only first-time contributors need approval; anyone who has had one pull request merged (a typo fix is enough) runs workflows from their fork without a maintainer looking first',
  first_time_contributors_new_to_github:
    'only first-time contributors who are new to GitHub need approval; any established account runs workflows from its fork without a maintainer looking first',
};

export default defineSettingsRule({
  meta: {
    id: 'fork-pr-approval-weak',
    category: 'CICD-SEC-4',
    title: 'Fork pull requests run without maintainer approval',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description:
      'A public repository whose fork pull request approval policy is weaker than "all external contributors", so workflows of outsiders\' pull requests start without a maintainer approving them.',
    recommendation:
      'Settings → Actions → General → "Approval for running fork pull request workflows from contributors": choose "Require approval for all external contributors" (`PUT /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval` with `approval_policy: all_external_contributors`).',
  },
  check(snapshot, context) {
    if (visibility(snapshot) !== 'public' || actionsDisabled(snapshot)) return;
    const approval = readArea(snapshot, 'fork_pr_approval');
    const policy = approval.readable ? text(approval.value, 'approval_policy') : undefined;
    const weakness = policy === undefined ? undefined : WEAK[policy];
    if (weakness === undefined) return;
    context.report({
      message: `The fork pull request approval policy is \`${policy}\`, so ${weakness}. Attacker-written workflow code then runs in this repository's Actions, with its caches and any self-hosted runner it can target, before anyone has read it.`,
    });
  },
});
