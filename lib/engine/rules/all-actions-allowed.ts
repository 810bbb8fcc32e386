import { defineSettingsRule } from '../rule.js';
import { readArea } from '../settings/areas.js';
import { flag, text } from '../settings/json.js';

export default defineSettingsRule({
  meta: {
    id: 'all-actions-allowed',
    category: 'CICD-SEC-8',
    title: 'Any third-party action may run',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description:
      'Actions is enabled with `allowed_actions: all`, so a workflow change (or a compromised dependency of one) can run any action from any publisher with the job\'s token and secrets.',
    recommendation:
      'Settings → Actions → General → Actions permissions: choose "Allow <owner>, and select non-<owner>, actions and reusable workflows" and list the actions the workflows use (`PUT /repos/{owner}/{repo}/actions/permissions` with `allowed_actions: selected`, then `PUT .../actions/permissions/selected-actions`).',
  },
  check(snapshot, context) {
    const actions = readArea(snapshot, 'actions_permissions');
    if (!actions.readable || flag(actions.value, 'enabled') === false || text(actions.value, 'allowed_actions') !== 'all') return;
    context.report({
      message:
        'Actions permissions allow every action and reusable workflow (`allowed_actions` is `all`): any publisher\'s code can run in this repository\'s jobs, with their tokens and secrets, as soon as a workflow references it.',
    });
  },
});
