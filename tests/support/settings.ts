import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SETTINGS_RULES } from '../../lib/engine/rules/index.js';
import { scanRepository } from '../../lib/engine/scan.js';
import type { SettingsSnapshot } from '../../lib/engine/settings/snapshot.js';
import type { Finding } from '../../lib/engine/types.js';
import { scanWith } from './engine.js';

export type SettingsFixture = 'hardened' | 'weak' | 'metadata-only';

const fixturesDir = fileURLToPath(new URL('../fixtures/settings/', import.meta.url));

/** A fresh copy of a snapshot fixture in tests/fixtures/settings/, so a test may change it. */
export function settingsFixture(name: SettingsFixture): SettingsSnapshot {
  return JSON.parse(readFileSync(`${fixturesDir}${name}.json`, 'utf8')) as SettingsSnapshot;
}

/** Findings of `ruleId` alone on a settings snapshot. */
export function settingsFindings(ruleId: string, settings: SettingsSnapshot): Finding[] {
  return scanWith(ruleId, [], { settings });
}

/** Findings of every settings rule on a snapshot. */
export function allSettingsFindings(settings: SettingsSnapshot): Finding[] {
  const ids = new Set(SETTINGS_RULES.map((r) => r.meta.id));
  return scanRepository([], { settings, isEnabled: (id) => ids.has(id) }).findings;
}

const PROTECTION_URL = 'https://api.github.com/repos/acme/widget/branches/main/protection';

/** A classic protection body for `main` that satisfies every branch rule; override fields to weaken it. */
export function classicProtection(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    url: PROTECTION_URL,
    required_status_checks: { url: `${PROTECTION_URL}/required_status_checks`, strict: true, contexts: ['ci / test'], checks: [{ context: 'ci / test', app_id: 15368 }] },
    required_pull_request_reviews: {
      url: `${PROTECTION_URL}/required_pull_request_reviews`,
      dismiss_stale_reviews: true,
      require_code_owner_reviews: true,
      required_approving_review_count: 2,
      require_last_push_approval: false,
    },
    required_signatures: { url: `${PROTECTION_URL}/required_signatures`, enabled: true },
    enforce_admins: { url: `${PROTECTION_URL}/enforce_admins`, enabled: true },
    required_linear_history: { enabled: true },
    allow_force_pushes: { enabled: false },
    allow_deletions: { enabled: false },
    block_creations: { enabled: false },
    required_conversation_resolution: { enabled: true },
    lock_branch: { enabled: false },
    allow_fork_syncing: { enabled: false },
    ...overrides,
  };
}

/** One entry of GET /repos/{o}/{r}/rules/branches/{branch}. */
export function branchRule(type: string, parameters?: Record<string, unknown>, rulesetId = 42): Record<string, unknown> {
  return {
    type,
    ...(parameters === undefined ? {} : { parameters }),
    ruleset_source_type: 'Repository',
    ruleset_source: 'acme/widget',
    ruleset_id: rulesetId,
  };
}

export function pullRequestRule(parameters: Record<string, unknown> = {}, rulesetId = 42): Record<string, unknown> {
  return branchRule(
    'pull_request',
    {
      allowed_merge_methods: ['squash'],
      dismiss_stale_reviews_on_push: true,
      require_code_owner_review: true,
      require_last_push_approval: false,
      required_approving_review_count: 2,
      required_review_thread_resolution: false,
      ...parameters,
    },
    rulesetId,
  );
}

/** Rules of an active ruleset that satisfy every branch rule. */
export function strongBranchRules(rulesetId = 42): Record<string, unknown>[] {
  return [
    branchRule('deletion', undefined, rulesetId),
    branchRule('non_fast_forward', undefined, rulesetId),
    pullRequestRule({}, rulesetId),
    branchRule('required_status_checks', { strict_required_status_checks_policy: true, required_status_checks: [{ context: 'ci / test', integration_id: 15368 }] }, rulesetId),
    branchRule('required_signatures', undefined, rulesetId),
  ];
}

/** A GET /repos/{o}/{r}/rulesets/{id} body. */
export function rulesetBody(id: number, name: string, bypassActors: Record<string, unknown>[] | undefined): Record<string, unknown> {
  return {
    id,
    name,
    target: 'branch',
    source_type: 'Repository',
    source: 'acme/widget',
    enforcement: 'active',
    ...(bypassActors === undefined ? {} : { bypass_actors: bypassActors }),
    conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } },
    rules: [],
  };
}

export const PUBLIC_REPOSITORY = { id: 1, name: 'widget', full_name: 'acme/widget', private: false, visibility: 'public', default_branch: 'main' };
export const PRIVATE_REPOSITORY = { ...PUBLIC_REPOSITORY, private: true, visibility: 'private' };

/** A snapshot of the branch-protection areas (and a public repository with a CODEOWNERS file). */
export function protectionSnapshot(parts: Partial<Pick<SettingsSnapshot, 'branch_protection' | 'branch_rules' | 'rulesets' | 'unreadable' | 'codeowners'>>): SettingsSnapshot {
  return { repository: PUBLIC_REPOSITORY, codeowners: true, branch_protection: null, branch_rules: [], ...parts };
}

export const FORBIDDEN = '403 Resource not accessible by integration';
