/**
 * Settings findings are fixed in GitHub, not in a file: each fixable one carries the exact REST call that
 * fixes it. The service shows the call and never makes it (changing settings needs the repository's
 * administration permission, and is the maintainer's decision). `{owner}` and `{repo}` are filled in by
 * `settingsApiFix`. Rules whose fix needs a body built from the current configuration (branch protection,
 * rulesets) have no entry: a call that rewrote the whole configuration would drop what is there.
 */
import type { SettingsSnapshot } from '../settings/snapshot.js';

export interface ApiCall {
  method: 'PUT' | 'PATCH' | 'POST' | 'DELETE';
  path: string;
  /** JSON body; absent for calls without one. */
  body?: Record<string, unknown>;
}

type CallFor = (snapshot: SettingsSnapshot | undefined) => ApiCall | null;

function actionsPermissions(snapshot: SettingsSnapshot | undefined): Record<string, unknown> {
  return snapshot?.actions_permissions ?? {};
}

export const SETTINGS_API_FIXES: Readonly<Record<string, CallFor>> = {
  'default-token-write': () => ({ method: 'PUT', path: '/repos/{owner}/{repo}/actions/permissions/workflow', body: { default_workflow_permissions: 'read' } }),
  'actions-can-approve-prs': () => ({ method: 'PUT', path: '/repos/{owner}/{repo}/actions/permissions/workflow', body: { can_approve_pull_request_reviews: false } }),
  'sha-pinning-not-required': (snapshot) => {
    const current = actionsPermissions(snapshot);
    // The endpoint requires `enabled`; keep the current `allowed_actions` so only the pinning requirement changes.
    return {
      method: 'PUT',
      path: '/repos/{owner}/{repo}/actions/permissions',
      body: { enabled: true, ...(typeof current.allowed_actions === 'string' ? { allowed_actions: current.allowed_actions } : {}), sha_pinning_required: true },
    };
  },
  'fork-pr-approval-weak': () => ({ method: 'PUT', path: '/repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval', body: { approval_policy: 'all_external_contributors' } }),
  'secret-scanning-disabled': () => ({ method: 'PATCH', path: '/repos/{owner}/{repo}', body: { security_and_analysis: { secret_scanning: { status: 'enabled' } } } }),
  'push-protection-disabled': () => ({ method: 'PATCH', path: '/repos/{owner}/{repo}', body: { security_and_analysis: { secret_scanning_push_protection: { status: 'enabled' } } } }),
  'dependabot-alerts-disabled': () => ({ method: 'PUT', path: '/repos/{owner}/{repo}/vulnerability-alerts' }),
  'dependabot-security-updates-disabled': () => ({ method: 'PUT', path: '/repos/{owner}/{repo}/automated-security-fixes' }),
};

/** The call that fixes a settings finding of `fullName` (`owner/repo`), or null when there is none. */
export function settingsApiFix(ruleId: string, fullName: string, snapshot?: SettingsSnapshot): ApiCall | null {
  const call = SETTINGS_API_FIXES[ruleId]?.(snapshot) ?? null;
  if (call === null) return null;
  const [owner = '', repo = ''] = fullName.split('/');
  return { ...call, path: call.path.replace('{owner}', encodeURIComponent(owner)).replace('{repo}', encodeURIComponent(repo)) };
}
