import { errorMessage, isObject, objects, type JsonObject } from './json.js';
import type { SettingsSnapshot } from './snapshot.js';

/**
 * The areas of a settings snapshot, in the order `settings-unreadable` reports them. Every key of the
 * snapshot is an area, plus `security_and_analysis`, the part of `repository` GitHub only shows to
 * callers with admin rights.
 */
export const SETTINGS_AREAS = [
  'repository',
  'security_and_analysis',
  'branch_protection',
  'branch_rules',
  'rulesets',
  'actions_permissions',
  'workflow_permissions',
  'fork_pr_approval',
  'vulnerability_alerts',
  'runners',
  'hooks',
  'codeowners',
] as const;

export type SettingsArea = (typeof SETTINGS_AREAS)[number];

export interface AreaInfo {
  /** What the area is, in a maintainer's words. */
  label: string;
  /** Where an adapter reads it (`{o}/{r}` is the repository, `{default}` its default branch). */
  source: string;
  /** The GitHub App permission that reading it needs. */
  permission: string;
  /** The rules that read it. */
  rules: readonly string[];
}

const PROTECTION_RULES = [
  'branch-protection-missing',
  'force-push-allowed',
  'branch-deletion-allowed',
  'review-not-required',
  'review-count-low',
  'stale-reviews-kept',
  'codeowners-review-not-required',
  'status-checks-not-required',
  'admin-bypass-allowed',
  'signed-commits-not-required',
];

export const AREA_INFO: Readonly<Record<SettingsArea, AreaInfo>> = {
  repository: {
    label: 'Repository metadata',
    source: 'GET /repos/{o}/{r}',
    permission: 'Metadata: read',
    rules: ['fork-pr-approval-weak', 'self-hosted-runner-public-repo', 'dependabot-security-updates-disabled', 'secret-scanning-disabled', 'push-protection-disabled'],
  },
  security_and_analysis: {
    label: 'Security and analysis settings',
    source: 'GET /repos/{o}/{r} (shown only to callers with admin rights)',
    permission: 'Administration: read',
    rules: ['dependabot-security-updates-disabled', 'secret-scanning-disabled', 'push-protection-disabled'],
  },
  branch_protection: {
    label: 'Classic branch protection of the default branch',
    source: 'GET /repos/{o}/{r}/branches/{default}/protection',
    permission: 'Administration: read',
    rules: PROTECTION_RULES,
  },
  branch_rules: {
    label: 'Ruleset rules of the default branch',
    source: 'GET /repos/{o}/{r}/rules/branches/{default}',
    permission: 'Metadata: read',
    rules: PROTECTION_RULES.filter((id) => id !== 'admin-bypass-allowed'),
  },
  rulesets: {
    label: 'Bypass lists of the rulesets that apply to the default branch',
    source: 'GET /repos/{o}/{r}/rulesets/{id}?includes_parents=true, for each ruleset_id in branch_rules (organization rulesets also need the organization permission "Administration: read")',
    permission: 'Administration: read',
    rules: ['admin-bypass-allowed'],
  },
  actions_permissions: {
    label: 'Actions permissions',
    source: 'GET /repos/{o}/{r}/actions/permissions',
    permission: 'Administration: read',
    rules: ['all-actions-allowed', 'sha-pinning-not-required'],
  },
  workflow_permissions: {
    label: 'Default workflow token permissions',
    source: 'GET /repos/{o}/{r}/actions/permissions/workflow',
    permission: 'Administration: read',
    rules: ['default-token-write', 'actions-can-approve-prs'],
  },
  fork_pr_approval: {
    label: 'Fork pull request approval policy',
    source: 'GET /repos/{o}/{r}/actions/permissions/fork-pr-contributor-approval',
    permission: 'Administration: read',
    rules: ['fork-pr-approval-weak'],
  },
  vulnerability_alerts: {
    label: 'Dependabot alerts setting',
    source: 'GET /repos/{o}/{r}/vulnerability-alerts (204: true, 404: false)',
    permission: 'Administration: read',
    rules: ['dependabot-alerts-disabled'],
  },
  runners: {
    label: 'Self-hosted runners of the repository',
    source: 'GET /repos/{o}/{r}/actions/runners',
    permission: 'Administration: read',
    rules: ['self-hosted-runner-public-repo'],
  },
  hooks: {
    label: 'Repository webhooks',
    source: 'GET /repos/{o}/{r}/hooks',
    permission: 'Webhooks: read',
    rules: ['webhook-without-secret'],
  },
  codeowners: {
    label: 'Presence of a CODEOWNERS file',
    source: 'CODEOWNERS, .github/CODEOWNERS or docs/CODEOWNERS on the default branch',
    permission: 'Contents: read',
    rules: ['codeowners-review-not-required'],
  },
};

/** What each area holds once read. */
export interface AreaValues {
  repository: JsonObject;
  security_and_analysis: JsonObject;
  /** null: the branch has no classic protection (GitHub answered 404). */
  branch_protection: JsonObject | null;
  branch_rules: JsonObject[];
  rulesets: JsonObject[];
  actions_permissions: JsonObject;
  workflow_permissions: JsonObject;
  fork_pr_approval: JsonObject;
  vulnerability_alerts: boolean;
  runners: JsonObject;
  hooks: JsonObject[];
  codeowners: boolean;
}

export type AreaRead<T> = { readable: true; value: T } | { readable: false; reason: string };

/**
 * Reads one area of a snapshot. An area is unreadable when `unreadable` names it, when its key is
 * absent, or when it holds something else than the REST body it stands for (a GitHub error body
 * saved by hand, for instance); `security_and_analysis` is also unreadable when the repository body
 * lacks it, which is how GitHub answers callers without admin rights.
 */
export function readArea<A extends SettingsArea>(snapshot: SettingsSnapshot, area: A): AreaRead<AreaValues[A]> {
  const root: unknown = snapshot;
  const declared = isObject(root) ? root.unreadable : undefined;
  if (isObject(declared) && Object.hasOwn(declared, area)) {
    const reason = declared[area];
    return { readable: false, reason: typeof reason === 'string' && reason.trim() !== '' ? reason : 'marked unreadable' };
  }
  if (area === 'security_and_analysis') {
    const repository = readArea(snapshot, 'repository');
    if (!repository.readable) return repository;
    const value = repository.value.security_and_analysis;
    if (isObject(value)) return { readable: true, value: value as AreaValues[A] };
    return { readable: false, reason: 'the repository body has no `security_and_analysis`; GitHub shows it only to callers with admin rights' };
  }
  const raw = isObject(root) ? root[area] : undefined;
  const read = validate(area, raw);
  return read as AreaRead<AreaValues[A]>;
}

type Kind = 'object' | 'protection' | 'list' | 'boolean';

const KIND: Readonly<Record<Exclude<SettingsArea, 'security_and_analysis'>, Kind>> = {
  repository: 'object',
  branch_protection: 'protection',
  branch_rules: 'list',
  rulesets: 'list',
  actions_permissions: 'object',
  workflow_permissions: 'object',
  fork_pr_approval: 'object',
  vulnerability_alerts: 'boolean',
  runners: 'object',
  hooks: 'list',
  codeowners: 'boolean',
};

const EXPECTED: Readonly<Record<Kind, string>> = {
  object: 'an object',
  protection: 'an object or null',
  list: 'an array',
  boolean: 'a boolean',
};

function validate(area: Exclude<SettingsArea, 'security_and_analysis'>, raw: unknown): AreaRead<AreaValues[SettingsArea]> {
  if (raw === undefined) return { readable: false, reason: `the snapshot has no \`${area}\`` };
  const kind = KIND[area];
  const error = errorMessage(raw);
  // For branch protection, 404 "Branch not protected" is an answer, not a failure.
  if (kind === 'protection' && (raw === null || (error !== undefined && /not protected/i.test(error)))) return { readable: true, value: null };
  if (error !== undefined) return { readable: false, reason: `GitHub answered "${error}"` };
  if (kind === 'list' && Array.isArray(raw)) return { readable: true, value: objects(raw) ?? [] };
  if (kind === 'boolean' && typeof raw === 'boolean') return { readable: true, value: raw };
  if ((kind === 'object' || kind === 'protection') && isObject(raw)) return { readable: true, value: raw };
  return { readable: false, reason: `the snapshot's \`${area}\` is ${describe(raw)}, not ${EXPECTED[kind]}` };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
