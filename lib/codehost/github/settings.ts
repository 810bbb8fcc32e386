import { AREA_INFO, type SettingsArea } from '../../engine/settings/areas.js';
import { isObject, type JsonObject } from '../../engine/settings/json.js';

/**
 * The settings areas GraphQL answers, in the REST shape the snapshot format stores (see
 * lib/engine/settings/README.md): field for field the body the REST endpoint of the area returns, for
 * every field the rules read and the ones beside them that GraphQL has. Reading them in the scan's one
 * GraphQL query saves three REST requests per scan and reads them on the *current* default branch.
 */

/** A GitHub App permission as the installation token's `permissions` object names it. */
const PERMISSION_KEYS: Readonly<Record<string, string>> = {
  'Metadata: read': 'metadata',
  'Contents: read': 'contents',
  'Administration: read': 'administration',
  'Webhooks: read': 'repository_hooks',
};

/** Organization rulesets show their bypass lists to an App with this organization permission only. */
export const ORGANIZATION_ADMINISTRATION = 'organization_administration';

/** The permission key an area needs (`administration`, `repository_hooks`, ...). */
export function permissionOf(area: SettingsArea): string {
  const key = PERMISSION_KEYS[AREA_INFO[area].permission];
  if (key === undefined) throw new Error(`no permission key for ${AREA_INFO[area].permission}`);
  return key;
}

/** Why an installation cannot read `area`, or null when its token's permissions cover it. */
export function missingPermission(permissions: Readonly<Record<string, string>>, area: SettingsArea): string | null {
  return permissions[permissionOf(area)] === undefined ? `the installation has no "${AREA_INFO[area].permission}" permission` : null;
}

export interface BranchContext {
  /** REST root (`https://api.github.com`), for the `url` fields REST bodies carry. */
  apiUrl: string;
  fullName: string;
  branch: string;
}

/**
 * `GET /repos/{o}/{r}/branches/{branch}/protection` from the branch's `BranchProtectionRule`; null when no
 * rule applies (REST answers 404 "Branch not protected"). Sections REST omits when off are omitted here too.
 */
export function branchProtectionBody(rule: unknown, context: BranchContext): JsonObject | null {
  if (!isObject(rule)) return null;
  const url = `${context.apiUrl}/repos/${context.fullName}/branches/${context.branch}/protection`;
  const enabled = (value: unknown) => ({ enabled: value === true });
  const body: JsonObject = { url };
  if (rule.requiresStatusChecks === true) {
    const checks = Array.isArray(rule.requiredStatusChecks) ? rule.requiredStatusChecks.filter(isObject) : [];
    body.required_status_checks = {
      url: `${url}/required_status_checks`,
      strict: rule.requiresStrictStatusChecks === true,
      contexts: stringList(rule.requiredStatusCheckContexts),
      contexts_url: `${url}/required_status_checks/contexts`,
      checks: checks.map((c) => ({ context: c.context, app_id: isObject(c.app) && typeof c.app.databaseId === 'number' ? c.app.databaseId : null })),
    };
  }
  if (rule.requiresApprovingReviews === true) {
    body.required_pull_request_reviews = {
      url: `${url}/required_pull_request_reviews`,
      dismiss_stale_reviews: rule.dismissesStaleReviews === true,
      require_code_owner_reviews: rule.requiresCodeOwnerReviews === true,
      required_approving_review_count: typeof rule.requiredApprovingReviewCount === 'number' ? rule.requiredApprovingReviewCount : 0,
      require_last_push_approval: rule.requireLastPushApproval === true,
    };
  }
  body.required_signatures = { url: `${url}/required_signatures`, ...enabled(rule.requiresCommitSignatures) };
  body.enforce_admins = { url: `${url}/enforce_admins`, ...enabled(rule.isAdminEnforced) };
  body.required_linear_history = enabled(rule.requiresLinearHistory);
  body.allow_force_pushes = enabled(rule.allowsForcePushes);
  body.allow_deletions = enabled(rule.allowsDeletions);
  body.block_creations = enabled(rule.blocksCreations);
  body.required_conversation_resolution = enabled(rule.requiresConversationResolution);
  body.lock_branch = enabled(rule.lockBranch);
  body.allow_fork_syncing = enabled(rule.lockAllowsFetchAndMerge);
  return body;
}

/** `GET /repos/{o}/{r}/rules/branches/{branch}` from `Ref.rules` (the rules of active rulesets that apply). */
export function branchRulesBody(nodes: readonly unknown[]): JsonObject[] {
  return nodes.filter(isObject).map((node) => {
    const rule: JsonObject = { type: typeof node.type === 'string' ? node.type.toLowerCase() : node.type };
    if (isObject(node.parameters)) {
      const parameters = snakeCase(node.parameters);
      if (isObject(parameters) && Object.keys(parameters).length > 0) rule.parameters = parameters;
    }
    const ruleset = isObject(node.repositoryRuleset) ? node.repositoryRuleset : undefined;
    const source = rulesetSource(ruleset);
    if (source !== undefined) {
      rule.ruleset_source_type = source.type;
      rule.ruleset_source = source.name;
    }
    if (typeof ruleset?.databaseId === 'number') rule.ruleset_id = ruleset.databaseId;
    return rule;
  });
}

/**
 * `GET /repos/{o}/{r}/rulesets/{id}` for each ruleset the rules name, without its rules (the engine reads
 * them from `branch_rules`). `bypass_actors` is set only when `canSeeBypass` says the caller may see the
 * ruleset's list and GitHub delivered it whole: an absent list reads as "unknown", an empty one as "nobody".
 */
export function rulesetBodies(nodes: readonly unknown[], canSeeBypass: (sourceType: string) => boolean): JsonObject[] {
  const bodies = new Map<number, JsonObject>();
  for (const node of nodes) {
    const ruleset = isObject(node) && isObject(node.repositoryRuleset) ? node.repositoryRuleset : undefined;
    if (ruleset === undefined || typeof ruleset.databaseId !== 'number' || bodies.has(ruleset.databaseId)) continue;
    const source = rulesetSource(ruleset);
    const refName = isObject(ruleset.conditions) && isObject(ruleset.conditions.refName) ? ruleset.conditions.refName : undefined;
    const body: JsonObject = {
      id: ruleset.databaseId,
      name: ruleset.name,
      target: typeof ruleset.target === 'string' ? ruleset.target.toLowerCase() : ruleset.target,
      source_type: source?.type,
      source: source?.name,
      enforcement: typeof ruleset.enforcement === 'string' ? ruleset.enforcement.toLowerCase() : ruleset.enforcement,
      conditions: refName === undefined ? {} : { ref_name: { include: stringList(refName.include), exclude: stringList(refName.exclude) } },
    };
    const actors = isObject(ruleset.bypassActors) ? ruleset.bypassActors : undefined;
    const complete = isObject(actors?.pageInfo) && actors.pageInfo.hasNextPage === false && Array.isArray(actors.nodes);
    if (complete && source !== undefined && canSeeBypass(source.type)) {
      body.bypass_actors = (actors.nodes as unknown[]).filter(isObject).map(bypassActor);
    }
    bodies.set(ruleset.databaseId, body);
  }
  return [...bodies.values()];
}

/** One `RepositoryRulesetBypassActor` as REST lists it (`actor_id`, `actor_type`, `bypass_mode`). */
function bypassActor(actor: JsonObject): JsonObject {
  const mode = typeof actor.bypassMode === 'string' ? { bypass_mode: actor.bypassMode.toLowerCase() } : {};
  if (typeof actor.repositoryRoleDatabaseId === 'number') return { actor_id: actor.repositoryRoleDatabaseId, actor_type: 'RepositoryRole', ...mode };
  if (actor.organizationAdmin === true) return { actor_id: null, actor_type: 'OrganizationAdmin', ...mode };
  if (actor.enterpriseOwner === true) return { actor_id: null, actor_type: 'EnterpriseOwner', ...mode };
  if (actor.deployKey === true) return { actor_id: null, actor_type: 'DeployKey', ...mode };
  const who = isObject(actor.actor) ? actor.actor : {};
  const id = typeof who.databaseId === 'number' ? who.databaseId : null;
  return { actor_id: id, actor_type: who.__typename === 'Team' ? 'Team' : 'Integration', ...mode };
}

function rulesetSource(ruleset: JsonObject | undefined): { type: string; name: unknown } | undefined {
  const source = isObject(ruleset?.source) ? ruleset.source : undefined;
  switch (source?.__typename) {
    case 'Repository':
      return { type: 'Repository', name: source.nameWithOwner };
    case 'Organization':
      return { type: 'Organization', name: source.login };
    case 'Enterprise':
      return { type: 'Enterprise', name: source.slug };
    default:
      return undefined;
  }
}

/** GraphQL's camelCase field names as REST's snake_case, recursively; `__typename` dropped. */
function snakeCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCase);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '__typename') continue;
    out[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = snakeCase(item);
  }
  return out;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The permission key GitHub's environments need (REST and GraphQL): "Actions: read". */
export const ACTIONS_PERMISSION = 'actions';

/**
 * `GET /repos/{o}/{r}/environments` from `Repository.environments`: `total_count`, and per environment
 * `id`, `name` and `protection_rules` (`type` in REST's lower case; `prevent_self_review` for required
 * reviewers, `wait_timer` for a wait timer). GraphQL is asked for the number of reviewers only, so a
 * required-reviewers rule carries `reviewers: []` when it names nobody (or GitHub's answer does not say) and no `reviewers` list otherwise
 * (lib/engine/settings/environments.ts reads exactly that). Null for an answer not in GraphQL's shape.
 */
export function environmentsBody(connection: unknown): JsonObject | null {
  if (!isObject(connection) || !Array.isArray(connection.nodes)) return null;
  const environments = connection.nodes.filter(isObject).map((node) => {
    const rules = isObject(node.protectionRules) && Array.isArray(node.protectionRules.nodes) ? node.protectionRules.nodes.filter(isObject) : [];
    return {
      id: node.databaseId,
      name: node.name,
      protection_rules: rules.map((rule) => {
        const type = typeof rule.type === 'string' ? rule.type.toLowerCase() : rule.type;
        const body: JsonObject = { id: rule.databaseId, type };
        if (type === 'required_reviewers') {
          body.prevent_self_review = rule.preventSelfReview === true;
          // Only a count GitHub states makes the rule a gate; anything else reads as "nobody".
          const count = isObject(rule.reviewers) ? rule.reviewers.totalCount : undefined;
          if (typeof count !== 'number' || count < 1) body.reviewers = [];
        }
        if (type === 'wait_timer') body.wait_timer = rule.timeout;
        return body;
      }),
    };
  });
  return { total_count: typeof connection.totalCount === 'number' ? connection.totalCount : environments.length, environments };
}
