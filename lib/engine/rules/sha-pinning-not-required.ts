import { defineSettingsRule } from '../rule.js';
import { readArea } from '../settings/areas.js';
import { flag } from '../settings/json.js';

export default defineSettingsRule({
  meta: {
    id: 'sha-pinning-not-required',
    category: 'CICD-SEC-3',
    title: 'SHA pinning of actions not enforced',
    severity: 'LOW',
    surface: 'repo-settings',
    description:
      'Actions is enabled and `sha_pinning_required` is false, so workflows may reference actions by mutable tags or branches, which their publisher (or whoever compromises it) can move to new code.',
    recommendation:
      'Settings → Actions → General → Actions permissions: enable "Require actions to be pinned to a full-length commit SHA" (`PUT /repos/{owner}/{repo}/actions/permissions` with `enabled: true, sha_pinning_required: true`), after pinning existing references (e.g. with `pinact` or Dependabot).',
  },
  check(snapshot, context) {
    const actions = readArea(snapshot, 'actions_permissions');
    // An absent `sha_pinning_required` means a host without the setting (older Enterprise Server): nothing to enable.
    if (!actions.readable || flag(actions.value, 'enabled') === false || flag(actions.value, 'sha_pinning_required') !== false) return;
    context.report({
      message:
        'GitHub does not require actions to be pinned to a full commit SHA (`sha_pinning_required` is false): a workflow may use `owner/action@v1`, and whoever controls that tag decides what code runs next.',
    });
  },
});
