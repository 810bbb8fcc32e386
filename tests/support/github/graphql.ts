import { execute, GraphQLError, parse, validate, type DocumentNode } from 'graphql';
import { blobOid, buildTree, fakeOid, fileText, findNode, type FakeFile, type FakeRepository, type TreeNode } from './model.js';
import { githubSchema } from './schema.js';

/**
 * The fake's GraphQL endpoint: documents are validated and executed against GitHub's published schema,
 * over objects built from the fake's state (REST-shaped settings are turned into GitHub's GraphQL types
 * here, the reverse of what the adapter does). Errors come back in GitHub's format: `type`, `path`,
 * `locations`, `message`, with `data` null where the failing field was.
 */

/** What the caller may see, decided by the fake from the request's token. */
export interface Viewer {
  canSee(repository: FakeRepository): boolean;
  /** Holds this repository permission (`contents`, `administration`, ...) on the repository. */
  can(repository: FakeRepository, permission: string): boolean;
  /** May edit rulesets of this source (repository admin; organization owner for organization rulesets). */
  canEditRulesets(repository: FakeRepository, sourceType: string): boolean;
  viewerCanAdminister(repository: FakeRepository): boolean;
  /** GitHub's words when the viewer lacks a permission (they differ for Apps and users). */
  refusal: string;
}

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

const documents = new Map<string, DocumentNode | readonly GraphQLError[]>();

/** Parses and validates against GitHub's schema once per distinct document (the online audits' fake uses it too). */
export function prepare(query: string): DocumentNode | readonly GraphQLError[] {
  let prepared = documents.get(query);
  if (prepared === undefined) {
    try {
      const document = parse(query);
      const errors = validate(githubSchema(), document);
      prepared = errors.length > 0 ? errors : document;
    } catch (error) {
      prepared = [error instanceof GraphQLError ? error : new GraphQLError(String(error))];
    }
    documents.set(query, prepared);
  }
  return prepared;
}

export async function executeGraphQL(
  request: GraphQLRequest,
  repositories: (fullName: string) => FakeRepository | undefined,
  viewer: Viewer,
): Promise<Record<string, unknown>> {
  const prepared = prepare(request.query);
  if (!('kind' in prepared)) return { errors: prepared.map((e) => ({ message: e.message, locations: e.locations })) };
  const rootValue = {
    repository: ({ owner, name }: { owner: string; name: string }) => {
      const repository = repositories(`${owner}/${name}`);
      if (repository === undefined || !viewer.canSee(repository)) {
        throw githubError('NOT_FOUND', `Could not resolve to a Repository with the name '${owner}/${name}'.`);
      }
      return repositoryObject(repository, viewer);
    },
    // The online audits' batches (lib/online/graphql.ts): this fake knows no advisory, and spends one point a query.
    securityVulnerabilities: () => ({ totalCount: 0, nodes: [], edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } }),
    rateLimit: () => ({ cost: 1, limit: 5000, nodeCount: 1, remaining: 4999, resetAt: '2026-11-26T15:00:00Z', used: 1 }),
  };
  const result = await execute({ schema: githubSchema(), document: prepared, rootValue, variableValues: request.variables ?? {}, operationName: request.operationName });
  const body: Record<string, unknown> = { data: result.data ?? null };
  if (result.errors !== undefined && result.errors.length > 0) {
    body.errors = result.errors.map((e) => ({
      ...(typeof e.extensions?.type === 'string' ? { type: e.extensions.type } : {}),
      path: e.path,
      locations: e.locations,
      message: e.message,
    }));
  }
  return body;
}

function githubError(type: string, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { type } });
}

/** Throws GitHub's FORBIDDEN error unless the viewer may read the area (the settings may also declare it unreadable). */
function requireArea(repository: FakeRepository, viewer: Viewer, area: string, permission: string): void {
  const declared = repository.settings.unreadable?.[area];
  if (declared !== undefined) throw githubError('FORBIDDEN', declared.replace(/^\d{3}\s+/, ''));
  if (!viewer.can(repository, permission)) throw githubError('FORBIDDEN', viewer.refusal);
}

function repositoryObject(repository: FakeRepository, viewer: Viewer): Record<string, unknown> {
  const tree = buildTree(repository.files);
  return {
    __typename: 'Repository',
    id: `R_kgDO${repository.id}`,
    databaseId: repository.id,
    name: repository.name,
    nameWithOwner: repository.fullName,
    url: `https://github.com/${repository.fullName}`,
    visibility: repository.visibility.toUpperCase(),
    isPrivate: repository.visibility !== 'public',
    isEmpty: repository.empty,
    viewerCanAdminister: viewer.viewerCanAdminister(repository),
    hasVulnerabilityAlertsEnabled: () => {
      requireArea(repository, viewer, 'vulnerability_alerts', 'administration');
      return repository.settings.vulnerability_alerts === true;
    },
    defaultBranchRef: repository.empty ? null : refObject(repository, viewer),
    environments: ({ first }: { first?: number }) => {
      requireArea(repository, viewer, 'environments', 'actions');
      const body = repository.settings.environments;
      const list = isRecord(body) && Array.isArray(body.environments) ? body.environments.filter(isRecord) : [];
      return connection(list.map(environmentObject), first);
    },
    object: ({ expression }: { expression?: string }) => {
      const match = /^([^:]*):(.*)$/.exec(expression ?? '');
      // `HEAD:path`, `<default branch>:path`, or `<sha>:path` of a commit the repository has.
      const commit = match === null ? undefined : repository.commits.get(match[1] ?? '');
      if (repository.empty || match === null || (commit === undefined && match[1] !== 'HEAD' && match[1] !== repository.defaultBranch)) return null;
      if (!viewer.can(repository, 'contents')) throw githubError('FORBIDDEN', viewer.refusal);
      const node = findNode(commit === undefined ? tree : buildTree(commit), match[2] ?? '');
      return node === null ? null : gitObject(node);
    },
  };
}

function refObject(repository: FakeRepository, viewer: Viewer): Record<string, unknown> {
  const settings = repository.settings;
  return {
    __typename: 'Ref',
    id: `REF_${fakeOid(repository.fullName + repository.defaultBranch)}`,
    name: repository.defaultBranch,
    prefix: 'refs/heads/',
    target: { __typename: 'Commit', oid: fakeOid(`${repository.fullName}@commit`) },
    branchProtectionRule: () => {
      requireArea(repository, viewer, 'branch_protection', 'administration');
      const body = settings.branch_protection;
      return isRecord(body) ? protectionRule(body, repository.defaultBranch) : null;
    },
    rules: ({ first }: { first?: number }) => {
      requireArea(repository, viewer, 'branch_rules', 'metadata');
      const rules = (settings.branch_rules ?? []).filter(isRecord);
      return connection(
        rules.map((rule, i) => ruleObject(rule, i, repository, viewer)),
        first,
      );
    },
  };
}

function connection<T>(items: readonly T[], first: number | undefined): Record<string, unknown> {
  const nodes = first === undefined ? items : items.slice(0, first);
  return {
    totalCount: items.length,
    nodes,
    edges: nodes.map((node, i) => ({ cursor: `Y3Vyc29yOnYyOpHO${i}`, node })),
    pageInfo: { hasNextPage: nodes.length < items.length, hasPreviousPage: false, startCursor: null, endCursor: null },
  };
}

/** `BranchProtectionRule` from the REST body of `GET .../branches/{branch}/protection`. */
function protectionRule(body: Record<string, unknown>, branch: string): Record<string, unknown> {
  const reviews = isRecord(body.required_pull_request_reviews) ? body.required_pull_request_reviews : undefined;
  const checks = isRecord(body.required_status_checks) ? body.required_status_checks : undefined;
  const on = (key: string) => isRecord(body[key]) && (body[key] as Record<string, unknown>).enabled === true;
  return {
    __typename: 'BranchProtectionRule',
    id: `BPR_${fakeOid(branch)}`,
    pattern: branch,
    allowsDeletions: on('allow_deletions'),
    allowsForcePushes: on('allow_force_pushes'),
    blocksCreations: on('block_creations'),
    dismissesStaleReviews: reviews?.dismiss_stale_reviews === true,
    isAdminEnforced: on('enforce_admins'),
    lockAllowsFetchAndMerge: on('allow_fork_syncing'),
    lockBranch: on('lock_branch'),
    requireLastPushApproval: reviews?.require_last_push_approval === true,
    requiredApprovingReviewCount: typeof reviews?.required_approving_review_count === 'number' ? reviews.required_approving_review_count : null,
    requiredStatusCheckContexts: Array.isArray(checks?.contexts) ? checks.contexts : [],
    requiredStatusChecks: (Array.isArray(checks?.checks) ? checks.checks.filter(isRecord) : []).map((c) => ({
      context: c.context,
      app: typeof c.app_id === 'number' ? { __typename: 'App', databaseId: c.app_id } : null,
    })),
    requiresApprovingReviews: reviews !== undefined,
    requiresCodeOwnerReviews: reviews?.require_code_owner_reviews === true,
    requiresCommitSignatures: on('required_signatures'),
    requiresConversationResolution: on('required_conversation_resolution'),
    requiresLinearHistory: on('required_linear_history'),
    requiresStatusChecks: checks !== undefined,
    requiresStrictStatusChecks: checks?.strict === true,
  };
}

/** GraphQL's parameter types per REST rule type, with the defaults GitHub fills in. */
const PARAMETERS: Readonly<Record<string, { typename: string; defaults: Record<string, unknown> }>> = {
  pull_request: {
    typename: 'PullRequestParameters',
    defaults: {
      allowedMergeMethods: ['merge', 'squash', 'rebase'],
      dismissStaleReviewsOnPush: false,
      requireCodeOwnerReview: false,
      requireLastPushApproval: false,
      requiredApprovingReviewCount: 0,
      requiredReviewThreadResolution: false,
    },
  },
  required_status_checks: { typename: 'RequiredStatusChecksParameters', defaults: { doNotEnforceOnCreate: false, strictRequiredStatusChecksPolicy: false, requiredStatusChecks: [] } },
  workflows: { typename: 'WorkflowsParameters', defaults: { doNotEnforceOnCreate: false, workflows: [] } },
};

/** `RepositoryRule` from an item of `GET .../rules/branches/{branch}`. */
function ruleObject(rule: Record<string, unknown>, index: number, repository: FakeRepository, viewer: Viewer): Record<string, unknown> {
  const type = String(rule.type);
  const parameterType = PARAMETERS[type];
  const parameters =
    parameterType === undefined ? null : { __typename: parameterType.typename, ...parameterType.defaults, ...(camelCase(rule.parameters ?? {}) as Record<string, unknown>) };
  const id = typeof rule.ruleset_id === 'number' ? rule.ruleset_id : null;
  return {
    __typename: 'RepositoryRule',
    id: `RRU_${index}_${id ?? 0}`,
    type: type.toUpperCase(),
    parameters,
    repositoryRuleset: id === null ? null : rulesetObject(id, rule, repository, viewer),
  };
}

/** `RepositoryRuleset`: the ruleset's REST body when the settings have one, else what the rule says of it. */
function rulesetObject(id: number, rule: Record<string, unknown>, repository: FakeRepository, viewer: Viewer): Record<string, unknown> {
  const body = (repository.settings.rulesets ?? []).filter(isRecord).find((r) => r.id === id);
  const sourceType = String(body?.source_type ?? rule.ruleset_source_type ?? 'Repository');
  const sourceName = String(body?.source ?? rule.ruleset_source ?? repository.fullName);
  const refName = isRecord(body?.conditions) && isRecord(body.conditions.ref_name) ? body.conditions.ref_name : undefined;
  const actors = Array.isArray(body?.bypass_actors) ? body.bypass_actors.filter(isRecord) : undefined;
  return {
    __typename: 'RepositoryRuleset',
    id: `RRS_${id}`,
    databaseId: id,
    name: typeof body?.name === 'string' ? body.name : `ruleset ${id}`,
    target: String(body?.target ?? 'branch').toUpperCase(),
    enforcement: String(body?.enforcement ?? 'active').toUpperCase(),
    source:
      sourceType === 'Organization'
        ? { __typename: 'Organization', login: sourceName }
        : sourceType === 'Enterprise'
          ? { __typename: 'Enterprise', slug: sourceName }
          : { __typename: 'Repository', nameWithOwner: sourceName },
    conditions: { refName: refName === undefined ? null : { include: refName.include ?? [], exclude: refName.exclude ?? [] } },
    createdAt: '2024-05-14T10:11:22Z',
    updatedAt: '2026-09-01T08:45:09Z',
    // GitHub shows bypass lists only to those who can edit the ruleset.
    bypassActors: ({ first }: { first?: number }) =>
      actors === undefined || !viewer.canEditRulesets(repository, sourceType) ? null : connection(actors.map(bypassActor), first),
  };
}

/** `Environment` from an item of `GET /repos/{o}/{r}/environments`. */
function environmentObject(environment: Record<string, unknown>): Record<string, unknown> {
  const rules = Array.isArray(environment.protection_rules) ? environment.protection_rules.filter(isRecord) : [];
  return {
    __typename: 'Environment',
    id: `EN_${String(environment.id)}`,
    databaseId: environment.id,
    name: environment.name,
    isPinned: false,
    pinnedPosition: null,
    protectionRules: ({ first }: { first?: number }) =>
      connection(
        rules.map((rule) => ({
          __typename: 'DeploymentProtectionRule',
          databaseId: rule.id,
          type: String(rule.type).toUpperCase(),
          preventSelfReview: rule.type === 'required_reviewers' ? rule.prevent_self_review === true : null,
          timeout: typeof rule.wait_timer === 'number' ? rule.wait_timer : 0,
          reviewers: ({ first: count }: { first?: number }) =>
            connection(
              (Array.isArray(rule.reviewers) ? rule.reviewers.filter(isRecord) : []).map((r) => {
                const who = isRecord(r.reviewer) ? r.reviewer : {};
                return r.type === 'Team' ? { __typename: 'Team', slug: who.slug, databaseId: who.id } : { __typename: 'User', login: who.login, databaseId: who.id };
              }),
              count,
            ),
        })),
        first,
      ),
  };
}

const ROLE_NAMES: Readonly<Record<number, string>> = { 1: 'read', 2: 'maintain', 3: 'triage', 4: 'write', 5: 'admin' };

function bypassActor(actor: Record<string, unknown>): Record<string, unknown> {
  const type = actor.actor_type;
  const id = typeof actor.actor_id === 'number' ? actor.actor_id : null;
  const mode = actor.bypass_mode === 'always' ? 'ALWAYS' : actor.bypass_mode === 'pull_request' ? 'PULL_REQUEST' : null;
  return {
    __typename: 'RepositoryRulesetBypassActor',
    id: `RRSBA_${String(type)}_${id ?? 0}`,
    actor: type === 'Integration' ? { __typename: 'App', databaseId: id } : type === 'Team' ? { __typename: 'Team', databaseId: id } : null,
    bypassMode: mode,
    deployKey: type === 'DeployKey',
    enterpriseOwner: type === 'EnterpriseOwner',
    organizationAdmin: type === 'OrganizationAdmin',
    repositoryRoleDatabaseId: type === 'RepositoryRole' ? id : null,
    repositoryRoleName: type === 'RepositoryRole' && id !== null ? (ROLE_NAMES[id] ?? 'custom') : null,
  };
}

const SYMLINK_MODE = 0o120000;
const FILE_MODE = 0o100644;
const TREE_MODE = 0o040000;
/** GitHub's GraphQL API cuts `Blob.text` here. */
const TEXT_LIMIT = 512_000;

function gitObject(node: TreeNode): Record<string, unknown> {
  return node.kind === 'tree' ? treeObject(node) : blobObject(node.file);
}

function treeObject(node: TreeNode & { kind: 'tree' }): Record<string, unknown> {
  return {
    __typename: 'Tree',
    id: `T_${fakeOid(node.path)}`,
    oid: fakeOid(`tree:${node.path}`),
    entries: () =>
      [...node.entries.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, child]) => ({
          name,
          path: child.path,
          type: child.kind === 'tree' ? 'tree' : 'blob',
          mode: child.kind === 'tree' ? TREE_MODE : typeof child.file !== 'string' && child.file.symlink === true ? SYMLINK_MODE : FILE_MODE,
          oid: child.kind === 'tree' ? fakeOid(`tree:${child.path}`) : blobOid(fileText(child.file)),
          size: child.kind === 'tree' ? 0 : Buffer.byteLength(fileText(child.file)),
          extension: child.kind === 'tree' || !name.includes('.') ? null : name.slice(name.lastIndexOf('.')),
          isGenerated: false,
          object: () => gitObject(child),
        })),
  };
}

function blobObject(file: FakeFile): Record<string, unknown> {
  const text = fileText(file);
  const bytes = Buffer.from(text, 'utf8');
  const binary = typeof file !== 'string' && file.binary === true;
  const truncated = bytes.length > TEXT_LIMIT || (typeof file !== 'string' && file.truncated === true);
  const cut = bytes.length > TEXT_LIMIT ? bytes.subarray(0, TEXT_LIMIT).toString('utf8') : typeof file !== 'string' && file.truncated === true ? text.slice(0, Math.ceil(text.length / 2)) : text;
  return {
    __typename: 'Blob',
    id: `B_${blobOid(text)}`,
    oid: blobOid(text),
    abbreviatedOid: blobOid(text).slice(0, 7),
    byteSize: bytes.length,
    isBinary: binary,
    isTruncated: truncated,
    text: binary ? null : cut,
  };
}

function camelCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelCase);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), camelCase(item)]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
