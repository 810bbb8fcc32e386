/**
 * What a GitHub App installation token a step mints can do, from the minting step's own inputs (read once per step):
 * its permissions and the repositories it reaches. `actions/create-github-app-token`: each `permission-<scope>` input
 * (`read`, `write`) limits the token to those permissions (none set: every permission the app's installation has);
 * with neither `owner` nor `repositories` the token reaches only the current repository, with `repositories` those
 * listed, with `owner` alone every repository of that owner the installation reaches (its README, "Inputs").
 * `tibdex/github-app-token`: its `permissions` input (a JSON object of scope to access) limits it likewise, and its
 * `repositories` input (a JSON array) lists the repositories; without it the token reaches every repository the
 * installation reaches (its README).
 */
import type { Step } from '../../model/workflow.js';
import { ScanCache } from '../../model/scan-cache.js';
import { getText, keyText } from '../../yaml/model.js';

/** Write scopes with which a token pushes code, changes workflows or runs, publishes packages or deploys. */
export const CODE_WRITE_SCOPES: ReadonlySet<string> = new Set(['contents', 'actions', 'packages', 'workflows', 'deployments', 'administration']);

/** Actions that mint a GitHub App installation token (`outputs.token`) from a stored private key: those `appTokenScope` reads. */
export const APP_TOKEN_ACTIONS: ReadonlySet<string> = new Set(['actions/create-github-app-token', 'tibdex/github-app-token']);

export interface AppTokenScope {
  /** The minting action, `owner/repo`. */
  action: string;
  /** The permissions its inputs grant, scope to access (`issues` → `write`), in input order; null: not limited (every permission of the installation), or not known (an expression). */
  permissions: ReadonlyMap<string, string> | null;
  /** `current`: only the repository the workflow runs in; `listed`: the repositories `listed` names; `installation`: every repository the app's installation reaches (of `owner`, when given); `unknown`: an expression decides. */
  reach: 'current' | 'listed' | 'installation' | 'unknown';
  listed: readonly string[];
}

const cache = new ScanCache<Step, AppTokenScope | null>();

/** The scope of the token `step` mints, when it is a known app-token action; null otherwise. */
export function appTokenScope(step: Step): AppTokenScope | null {
  let found = cache.get(step);
  if (found === undefined) {
    found = readScope(step);
    cache.set(step, found);
  }
  return found;
}

function readScope(step: Step): AppTokenScope | null {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository') return null;
  const action = ref.slug.toLowerCase();
  if (action === 'actions/create-github-app-token') {
    const permissions = new Map<string, string>();
    let computed = false;
    if (step.with?.kind === 'map') {
      for (const pair of step.with.pairs) {
        const key = keyText(pair.key).toLowerCase();
        if (!key.startsWith('permission-')) continue;
        const value = pair.value.kind === 'scalar' && typeof pair.value.value === 'string' ? pair.value.value.trim().toLowerCase() : '';
        if (value !== 'read' && value !== 'write') computed = true;
        else permissions.set(key.slice('permission-'.length), value);
      }
    }
    const owner = getText(step.with, 'owner')?.trim() ?? '';
    const repositories = getText(step.with, 'repositories')?.trim() ?? '';
    const reach: AppTokenScope['reach'] =
      owner.includes('${{') || repositories.includes('${{') ? 'unknown' : repositories !== '' ? 'listed' : owner !== '' ? 'installation' : 'current';
    const listed = repositories.split(/[\s,]+/).filter((r) => r !== '');
    return { action, permissions: computed || permissions.size === 0 ? null : permissions, reach, listed };
  }
  if (action === 'tibdex/github-app-token') {
    const text = getText(step.with, 'permissions');
    const permissions = text === null ? null : jsonScopes(text);
    const repositories = getText(step.with, 'repositories');
    const listed = repositories === null ? null : jsonList(repositories);
    const reach: AppTokenScope['reach'] = repositories === null ? 'installation' : listed === null ? 'unknown' : 'listed';
    return { action, permissions, reach, listed: listed ?? [] };
  }
  return null;
}

/** `{"contents": "read", "issues": "write"}` as scope to access; null when it is not such an object (an expression). */
function jsonScopes(text: string): Map<string, string> | null {
  if (text.length > 2000 || text.includes('${{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    const found = new Map<string, string>();
    for (const [scope, access] of Object.entries(value as Record<string, unknown>)) {
      if (access !== 'read' && access !== 'write') return null;
      found.set(scope.replace(/_/g, '-').toLowerCase(), access);
    }
    return found.size === 0 ? null : found;
  } catch {
    return null;
  }
}

/** `["org/a", "org/b"]` as its names; null when it is not such a list. */
function jsonList(text: string): string[] | null {
  if (text.length > 2000 || text.includes('${{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;
  } catch {
    return null;
  }
}

/** True when the token may push code, change workflows or runs, publish or deploy: a code-writing scope, or permissions not limited. */
export function appTokenWritesCode(scope: AppTokenScope): boolean {
  return scope.permissions === null || [...scope.permissions].some(([s, access]) => access === 'write' && CODE_WRITE_SCOPES.has(s));
}

/**
 * What the token can do, in words: `for this repository only, with \`issues: write\`, \`contents: read\``, and when it
 * writes no code `(no scope that pushes code, changes workflows or publishes)`.
 */
export function appTokenWords(scope: AppTokenScope): string {
  const where =
    scope.reach === 'current'
      ? 'for this repository only (no `owner` or `repositories` input)'
      : scope.reach === 'listed'
        ? `for ${scope.listed.length === 1 ? 'repository' : 'repositories'} ${scope.listed.slice(0, 3).map((r) => `\`${r}\``).join(', ')}${scope.listed.length > 3 ? ` and ${scope.listed.length - 3} more` : ''}`
        : scope.reach === 'installation'
          ? "for every repository the app's installation reaches"
          : 'for repositories an expression picks';
  const granted =
    scope.permissions === null
      ? "with every permission the app's installation has"
      : `with ${[...scope.permissions].slice(0, 5).map(([s, access]) => `\`${s}: ${access}\``).join(', ')}${scope.permissions.size > 5 ? ', ...' : ''}`;
  return `${where}, ${granted}${appTokenWritesCode(scope) ? '' : ' (no scope that pushes code, changes workflows or publishes)'}`;
}
