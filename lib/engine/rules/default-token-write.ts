import { defineSettingsRule } from '../rule.js';
import { readArea } from '../settings/areas.js';
import { text } from '../settings/json.js';
import { actionsDisabled } from '../settings/repository.js';

export default defineSettingsRule({
  meta: {
    id: 'default-token-write',
    category: 'CICD-SEC-5',
    title: 'Default workflow token is read-write',
    severity: 'HIGH',
    surface: 'repo-settings',
    description:
      'The repository\'s default `GITHUB_TOKEN` permissions are read-write (`default_workflow_permissions: write`), so every job that does not declare `permissions:` can push code, publish packages and edit issues and pull requests.',
    recommendation:
      'Settings → Actions → General → Workflow permissions: choose "Read repository contents and packages permissions" (`PUT /repos/{owner}/{repo}/actions/permissions/workflow` with `default_workflow_permissions: read`), and grant write scopes per job with `permissions:` where a job needs them. An organization-level policy may enforce this for every repository.',
  },
  check(snapshot, context) {
    const workflow = readArea(snapshot, 'workflow_permissions');
    if (!workflow.readable || text(workflow.value, 'default_workflow_permissions') !== 'write' || actionsDisabled(snapshot)) return;
    context.report({
      message:
        'The default `GITHUB_TOKEN` is read-write (`default_workflow_permissions` is `write`): every job without a `permissions:` block can push to branches, publish packages and releases, and edit issues and pull requests, so any code injected into such a job can too.',
    });
  },
});
