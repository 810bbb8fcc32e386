import { SETTINGS_AREAS, type SettingsArea } from '../../engine/settings/areas.js';
import { isObject, type JsonObject } from '../../engine/settings/json.js';
import type { SettingsSnapshot } from '../../engine/settings/snapshot.js';
import type { RepositoryFile } from '../../engine/types.js';
import { CodeHostError } from '../port.js';
import { graphqlUrl, type RequestFunction } from './client.js';
import { codeHostError, describeFailure } from './errors.js';
import { FileCollector, isRegularTreeEntry, treeEntries, type TreeEntry } from './files.js';
import { compare, isActionDefinition, isWorkflowSurfaceAction, planActionDefinitions, skippedActionFiles } from '../actions.js';
import { MAX_FILE_BYTES } from '../../engine/yaml/parse.js';
import { ACTION_TREE_LEVELS, blobsQuery, BLOBS_PER_QUERY, ENVIRONMENTS_ALIAS, FILE_OBJECTS, localActionsQuery, revision, snapshotQuery, VULNERABILITY_ALERTS, type SnapshotQueryFields } from './query.js';
import { ACTIONS_PERMISSION, branchProtectionBody, branchRulesBody, environmentsBody, missingPermission, ORGANIZATION_ADMINISTRATION, permissionOf, rulesetBodies } from './settings.js';

/** Who asks, and how: the same code serves the App (installation token) and the CLI (personal token). */
export interface SnapshotSource {
  /** Octokit's request, bound to the token, the operation's deadline signal and its request counter. */
  request: RequestFunction;
  /**
   * The installation token's permissions (GitHub's `permissions` object of the token response): areas
   * they do not cover are recorded as unreadable without a request. Null for a personal token, whose
   * rights are only known from GitHub's answers.
   */
  permissions: Readonly<Record<string, string>> | null;
  /** REST root, for the `url` fields of bodies built from GraphQL. */
  apiUrl: string;
  /**
   * Aborts the optional REST areas before the operation's deadline: a slow area is then unreadable
   * instead of timing the whole scan out.
   */
  optionalSignal?: AbortSignal;
}

/** How long before the deadline the optional areas are given up. */
export const OPTIONAL_AREA_RESERVE_MS = 2_000;

export interface SnapshotTarget {
  /** `owner/name`. */
  fullName: string;
  /** Visibility as last synced: a repository known to be private is not asked for its public-only areas. */
  private?: boolean;
  /** The default branch as last synced; used only when the repository has no branch at all (empty). */
  defaultBranch?: string;
  /**
   * The commit (40 hex digits) whose files are read, instead of the default branch's head: a push's commit,
   * a pull request's base or head (GitHub keeps a pull request's head commits, a fork's too, in the base
   * repository). The settings are the repository's own either way.
   */
  ref?: string;
  /** Read the files only: no settings area is asked for (`settings` is then empty and not to be used). */
  filesOnly?: boolean;
}

export interface FetchedSnapshot {
  files: RepositoryFile[];
  settings: SettingsSnapshot;
  defaultBranch: string;
}

interface RestArea {
  area: SettingsArea;
  route: string;
  parameters?: Record<string, unknown>;
  /** Read only for public repositories (the rules that use it apply to them only). */
  publicOnly?: boolean;
  /** A list: later pages are followed when GitHub's Link header names them. */
  paginated?: boolean;
}

/**
 * The settings only REST has, read in parallel with the GraphQL query. `repository` is the one critical
 * read among them (it holds `private` and `security_and_analysis`); a failure of any other area is an
 * `unreadable` entry, not a failed scan.
 */
const REST_AREAS: readonly RestArea[] = [
  { area: 'repository', route: 'GET /repos/{owner}/{repo}' },
  { area: 'actions_permissions', route: 'GET /repos/{owner}/{repo}/actions/permissions' },
  { area: 'workflow_permissions', route: 'GET /repos/{owner}/{repo}/actions/permissions/workflow' },
  { area: 'fork_pr_approval', route: 'GET /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval', publicOnly: true },
  // total_count covers the count beyond the first page (lib/engine/settings/README.md).
  { area: 'runners', route: 'GET /repos/{owner}/{repo}/actions/runners', parameters: { per_page: 100 }, publicOnly: true },
  { area: 'hooks', route: 'GET /repos/{owner}/{repo}/hooks', parameters: { per_page: 100 }, paginated: true },
];

/** Areas the GraphQL query reads only with admin rights. */
const ADMIN_GRAPHQL_AREAS = ['branch_protection', 'vulnerability_alerts', 'rulesets'] as const;

/** A chain of local actions using local actions is followed this many follow-up queries deep. */
const MAX_FOLLOW_UPS = 8;
/** Directories asked for in one follow-up query. */
const DIRS_PER_FOLLOW_UP = 50;

type AreaResult = { area: SettingsArea; value: unknown } | { area: SettingsArea; unreadable: string };
/** The settings areas plus `environments`, the optional area no settings rule reads. */
type GraphArea = SettingsArea | 'environments';

/**
 * One repository's scan snapshot. Round trips: one parallel batch (the GraphQL query and the REST-only
 * areas), then, only when needed, one more for local actions outside the fetched trees, a repository
 * made public since the last sync, or a second page of webhooks. Failures of the files or of the
 * repository itself throw a `CodeHostError`; any other area that fails becomes an `unreadable` entry.
 */
export async function fetchRepositorySnapshot(source: SnapshotSource, target: SnapshotTarget): Promise<FetchedSnapshot> {
  const [owner, name] = splitFullName(target.fullName);
  const rev = revision(target.ref);
  const filesOnly = target.filesOnly === true;
  const { permissions } = source;
  if (permissions !== null && permissions[permissionOf('codeowners')] === undefined) {
    throw new CodeHostError('forbidden', `repository ${target.fullName}: the installation has no "Contents: read" permission, so its workflows cannot be read`);
  }
  const unreadable: Record<string, string> = {};
  const admin = permissions === null ? null : permissions[permissionOf('branch_protection')] !== undefined;
  if (admin === false) {
    for (const area of [...ADMIN_GRAPHQL_AREAS, 'security_and_analysis'] as const) unreadable[area] = missingPermission(permissions ?? {}, area) ?? '';
  }
  const fields: SnapshotQueryFields = {
    branchProtection: !filesOnly && admin !== false,
    vulnerabilityAlerts: !filesOnly && admin !== false,
    bypassActors: !filesOnly && admin !== false,
    viewerCanAdminister: !filesOnly && permissions === null,
    environments: !filesOnly && (permissions === null || permissions[ACTIONS_PERMISSION] !== undefined),
  };
  // Environments are an optional area no settings rule reports: unreadable, no environment is a gate.
  if (!fields.environments) unreadable.environments = 'the installation has no "Actions: read" permission';

  const restFor = (areas: readonly RestArea[]) =>
    areas.map((def) => {
      const missing = permissions === null ? null : missingPermission(permissions, def.area);
      if (missing !== null) return Promise.resolve<AreaResult>({ area: def.area, unreadable: missing });
      return readRestArea(source, def, owner, name, target.fullName);
    });
  const firstRest = filesOnly ? [] : REST_AREAS.filter((def) => !(def.publicOnly === true && target.private === true));
  const [graph, tree, ...rest] = await Promise.all([
    graphql(source, snapshotQuery(fields, rev), { owner, name }, target.fullName),
    readTree(source, owner, name, rev),
    ...restFor(firstRest),
  ]);

  const repository = graph.repository;
  if (typeof repository.visibility !== 'string') {
    throw new CodeHostError('unavailable', `repository ${target.fullName}: GitHub's GraphQL answer lacks the repository's visibility`);
  }
  const isPublic = repository.visibility === 'PUBLIC';
  const results = new Map<SettingsArea, AreaResult>(rest.map((r) => [r.area, r]));

  // Files.
  const collector = new FileCollector();
  collector.addTree('', repository.root, 1);
  collector.addTree('.github', repository.dotGithub, 1);
  collector.addTree('.github/workflows', repository.workflows, 1);
  collector.addTree('.github/actions', repository.actions, ACTION_TREE_LEVELS);
  for (const alias of ['actionYml', 'actionYaml', 'dependabotYml', 'dependabotYaml', 'codeowners', 'rootCodeowners'] as const) {
    collector.addBlobAt(FILE_OBJECTS[alias], repository[alias]);
  }

  // Action definitions anywhere in the repository, from one recursive listing (../actions.ts has the bounds).
  const empty = !isObject(repository.defaultBranchRef);
  let listing: { entries: TreeEntry[]; truncated: boolean } = { entries: [], truncated: false };
  if (!empty) {
    if ('error' in tree) throw codeHostError(tree.error, `repository ${target.fullName}, file listing`);
    listing = tree;
  }
  if (!listing.truncated) collector.addTreeListings(listing.entries);
  // `docs/` is listed only by the recursive tree: its CODEOWNERS is taken once that listing says it is a regular file.
  collector.addBlobAt(FILE_OBJECTS.docsCodeowners, repository.docsCodeowners);
  const regular = new Map(listing.entries.filter((e) => isRegularTreeEntry(e) && isActionDefinition(e.path)).map((e) => [e.path, e]));
  const plan = planActionDefinitions(regular.keys());
  const wanted = [...[...regular.keys()].filter(isWorkflowSurfaceAction), ...plan.read].filter((p) => !collector.has(p));
  await fetchBlobs(source, wanted.map((p) => regular.get(p)).filter((e) => e !== undefined), collector, { owner, name, fullName: target.fullName, rev });

  // Follow-ups, all in one round each: local actions, public-only areas a stale sync skipped, webhook pages.
  const late = isPublic && !filesOnly ? REST_AREAS.filter((def) => def.publicOnly === true && !results.has(def.area)) : [];
  const lateResults = restFor(late);
  const hooks = results.get('hooks');
  const morePages = hooks !== undefined && 'next' in hooks ? followPages(source, hooks as NextPage, target.fullName) : null;
  for (let round = 0; round < MAX_FOLLOW_UPS; round++) {
    const dirs = collector.pendingLocalActions().slice(0, DIRS_PER_FOLLOW_UP);
    if (dirs.length === 0) break;
    const { query, variables } = localActionsQuery(dirs, rev);
    const answer = await graphql(source, query, { owner, name, ...variables }, target.fullName);
    dirs.forEach((dir, i) => {
      collector.addTree(dir, answer.repository[`d${i}`], 1);
      collector.addBlobAt(dir === '' ? 'action.yml' : `${dir}/action.yml`, answer.repository[`d${i}yml`]);
      collector.addBlobAt(dir === '' ? 'action.yaml' : `${dir}/action.yaml`, answer.repository[`d${i}yaml`]);
    });
  }
  const skippedFiles = skippedActionFiles(plan.over, collector.paths(), listing.truncated);
  if (filesOnly) {
    const files = [...collector.result(), ...skippedFiles].sort((a, b) => compare(a.path, b.path));
    return { files, settings: { unreadable: {} } as SettingsSnapshot, defaultBranch: typeof repository.defaultBranchRef === 'object' && isObject(repository.defaultBranchRef) && typeof repository.defaultBranchRef.name === 'string' ? repository.defaultBranchRef.name : (target.defaultBranch ?? ''), ...(target.ref === undefined ? {} : { commitSha: target.ref }) };
  }
  for (const result of await Promise.all(lateResults)) results.set(result.area, result);
  if (morePages !== null) results.set('hooks', await morePages);
  if (!isPublic) {
    // Their rules apply to public repositories only; what a stale sync fetched anyway is dropped.
    for (const def of REST_AREAS) if (def.publicOnly === true) results.delete(def.area);
  }

  // Settings.
  const values = new Map<GraphArea, unknown>();
  for (const result of results.values()) {
    if ('unreadable' in result) unreadable[result.area] = result.unreadable;
    else values.set(result.area, result.value);
  }
  const repositoryBody = values.get('repository');
  const ref = isObject(repository.defaultBranchRef) ? repository.defaultBranchRef : null;
  const restBranch = isObject(repositoryBody) && typeof repositoryBody.default_branch === 'string' ? repositoryBody.default_branch : undefined;
  const defaultBranch = typeof ref?.name === 'string' ? ref.name : (restBranch ?? target.defaultBranch ?? '');
  readGraphSettings(graph, ref, { ...source, fullName: target.fullName, defaultBranch, admin }, values, unreadable);
  values.set(
    'codeowners',
    collector.hasFile('.github', 'CODEOWNERS') || collector.hasFile('', 'CODEOWNERS') || (isObject(repository.docsCodeowners) && repository.docsCodeowners.__typename === 'Blob'),
  );

  const settings: Record<string, unknown> = {};
  for (const area of SETTINGS_AREAS) {
    if (values.has(area) && !(area in unreadable)) settings[area] = values.get(area);
  }
  settings.unreadable = Object.fromEntries(SETTINGS_AREAS.filter((a) => a in unreadable).map((a) => [a, unreadable[a]]));
  if ('environments' in unreadable) (settings.unreadable as Record<string, string>).environments = unreadable.environments ?? '';
  else if (values.has('environments')) settings.environments = values.get('environments');
  const files = [...collector.result(), ...skippedFiles].sort((a, b) => compare(a.path, b.path));
  // The commit the snapshot's files are read at (the default branch's head), for links to the code.
  const head = isObject(ref?.target) ? ref.target : null;
  const commitSha = target.ref ?? (typeof head?.oid === 'string' && /^[0-9a-f]{40}$/.test(head.oid) ? head.oid : undefined);
  return { files, settings: settings as SettingsSnapshot, defaultBranch, ...(commitSha === undefined ? {} : { commitSha }) };
}

/** Estimated text bytes of one blob query (GitHub's answer stays far below its limits). */
const BLOB_QUERY_BYTES = 4_000_000;

/**
 * Fetches blobs a tree listed as regular files, in queries of at most `BLOBS_PER_QUERY` and about
 * `BLOB_QUERY_BYTES` each, all in parallel (one round trip). A file over the engine's limit is not fetched:
 * its size alone makes it unreadable, with the engine's words.
 */
async function fetchBlobs(source: SnapshotSource, entries: readonly TreeEntry[], collector: FileCollector, target: { owner: string; name: string; fullName: string; rev: string }): Promise<void> {
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const entry of entries) {
    if (entry.size !== undefined && entry.size > MAX_FILE_BYTES) {
      collector.addRegularBlob(entry.path, { byteSize: entry.size });
      continue;
    }
    const size = entry.size ?? 0;
    if (batch.length > 0 && (batch.length >= BLOBS_PER_QUERY || bytes + size > BLOB_QUERY_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(entry.path);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  await Promise.all(
    batches.map(async (paths) => {
      const { query, variables } = blobsQuery(paths, target.rev);
      const answer = await graphql(source, query, { owner: target.owner, name: target.name, ...variables }, target.fullName);
      paths.forEach((path, i) => collector.addRegularBlob(path, answer.repository[`b${i}`]));
    }),
  );
}

/**
 * The default branch's whole tree in one request (`recursive=1`; GitHub stops at 100,000 entries or 7 MB
 * and says `truncated`). A failure is returned, not thrown: an empty repository has no tree, which only
 * the GraphQL answer beside it can tell.
 */
async function readTree(source: SnapshotSource, owner: string, repo: string, rev: string): Promise<{ entries: TreeEntry[]; truncated: boolean } | { error: unknown }> {
  try {
    const response = await source.request('GET /repos/{owner}/{repo}/git/trees/{tree_sha}', { owner, repo, tree_sha: rev, recursive: '1' });
    const tree = treeEntries(response.data);
    return tree ?? { error: Object.assign(new Error("GitHub's tree listing is not in its documented shape"), { status: 502 }) };
  } catch (error) {
    return { error };
  }
}

interface GraphContext extends SnapshotSource {
  fullName: string;
  defaultBranch: string;
  /** The installation's admin permission; null for a personal token (its `viewerCanAdminister` decides). */
  admin: boolean | null;
}

/** Branch protection, ruleset rules and bodies, Dependabot alerts: from the GraphQL answer into REST shape. */
function readGraphSettings(
  { repository, data, errors }: GraphAnswer,
  ref: JsonObject | null,
  context: GraphContext,
  values: Map<GraphArea, unknown>,
  unreadable: Record<string, string>,
): void {
  for (const [area, reason] of errors) unreadable[area] ??= reason;
  if (!('environments' in unreadable)) {
    const body = environmentsBody(isObject(data[ENVIRONMENTS_ALIAS]) ? data[ENVIRONMENTS_ALIAS].environments : undefined);
    if (body === null) unreadable.environments = 'GitHub did not list the repository\'s environments';
    else values.set('environments', body);
  }
  // A personal token without admin rights gets no error for these, only empty answers: they prove nothing.
  if (context.admin === null && repository.viewerCanAdminister !== true) {
    for (const area of ADMIN_GRAPHQL_AREAS) unreadable[area] ??= 'the token has no admin rights on the repository';
    unreadable.security_and_analysis ??= 'the token has no admin rights on the repository';
  }
  if (!('vulnerability_alerts' in unreadable)) {
    const alerts = isObject(data[VULNERABILITY_ALERTS]) ? data[VULNERABILITY_ALERTS].hasVulnerabilityAlertsEnabled : undefined;
    if (typeof alerts === 'boolean') values.set('vulnerability_alerts', alerts);
    else unreadable.vulnerability_alerts = 'GitHub did not say whether Dependabot alerts are enabled';
  }
  if (!('branch_protection' in unreadable)) {
    values.set('branch_protection', ref === null ? null : branchProtectionBody(ref.branchProtectionRule, { apiUrl: context.apiUrl, fullName: context.fullName, branch: context.defaultBranch }));
  }
  // An empty repository has no branch, hence no rules.
  const rules = ref === null ? { pageInfo: { hasNextPage: false }, nodes: [] } : ref.rules;
  const nodes = isObject(rules) && Array.isArray(rules.nodes) ? rules.nodes : null;
  if (!('branch_rules' in unreadable)) {
    if (nodes === null) unreadable.branch_rules = 'GitHub did not list the rules of the default branch';
    else if (!isObject(rules) || !isObject(rules.pageInfo) || rules.pageInfo.hasNextPage !== false) {
      unreadable.branch_rules = `more than ${nodes.length} ruleset rules apply to the default branch; only complete lists are assessed`;
    } else values.set('branch_rules', branchRulesBody(nodes));
  }
  if (!('rulesets' in unreadable) && nodes !== null) {
    const permissions = context.permissions;
    const canSeeBypass = (sourceType: string) =>
      permissions === null || sourceType === 'Repository' || (sourceType === 'Organization' && permissions[ORGANIZATION_ADMINISTRATION] !== undefined);
    values.set('rulesets', rulesetBodies(nodes, canSeeBypass));
  }
}

interface GraphAnswer {
  /** `data`, whole. */
  data: JsonObject;
  /** `data.repository`. */
  repository: JsonObject;
  /** Errors GitHub reported inside optional settings fields, by area. */
  errors: Map<GraphArea, string>;
}

/**
 * One GraphQL request. Errors GitHub reports inside an optional settings field make that area
 * unreadable; any other error, a missing `repository` or an answer of the wrong shape fails the scan.
 */
async function graphql(source: SnapshotSource, query: string, variables: Record<string, unknown>, fullName: string): Promise<GraphAnswer> {
  let body: unknown;
  let headers: Record<string, string | undefined>;
  try {
    const response = await source.request(`POST ${graphqlUrl(source.apiUrl)}`, { query, variables });
    body = response.data;
    headers = response.headers as Record<string, string | undefined>;
  } catch (error) {
    throw codeHostError(error, `repository ${fullName}`);
  }
  const errorList = isObject(body) && Array.isArray(body.errors) ? body.errors.filter(isObject) : [];
  const data = isObject(body) && isObject(body.data) ? body.data : null;
  const repository = data !== null && isObject(data.repository) ? data.repository : null;
  const areaErrors = new Map<GraphArea, string>();
  const critical: JsonObject[] = [];
  for (const error of errorList) {
    const area = optionalArea(error.path);
    // Inside an optional field, only a refusal (a missing permission or feature) makes the area unreadable.
    const refusal = error.type === 'FORBIDDEN' || error.type === 'NOT_FOUND';
    if (area === null || repository === null || !refusal) critical.push(error);
    else areaErrors.set(area, `${String(error.type)}: ${String(error.message ?? 'error')}`);
  }
  if (critical.length > 0 || repository === null) {
    const first = critical[0];
    const type = typeof first?.type === 'string' ? first.type : undefined;
    const message = first === undefined ? 'the answer has no repository' : String(first.message ?? 'error');
    if (type === 'NOT_FOUND') throw new CodeHostError('not_found', `repository ${fullName}: ${message}`);
    if (type === 'RATE_LIMITED') {
      throw new CodeHostError('rate_limited', `repository ${fullName}: GraphQL ${message}`, { retryAfter: describeFailure({ status: 403, response: { headers } }).retryAfter });
    }
    if (type === 'FORBIDDEN') throw new CodeHostError('forbidden', `repository ${fullName}: ${message}`);
    throw new CodeHostError('unavailable', `repository ${fullName}: GitHub's GraphQL API gave no usable answer (${message})`);
  }
  return { data: data ?? {}, repository, errors: areaErrors };
}

/** The settings area a GraphQL error path points into, or null for anything else (files, the repository). */
function optionalArea(path: unknown): GraphArea | null {
  if (!Array.isArray(path)) return null;
  const at = path.filter((p): p is string => typeof p === 'string').join('.');
  const within = (prefix: string) => at === prefix || at.startsWith(`${prefix}.`);
  if (within(ENVIRONMENTS_ALIAS)) return 'environments';
  if (within(VULNERABILITY_ALERTS)) return 'vulnerability_alerts';
  if (within('repository.defaultBranchRef.branchProtectionRule')) return 'branch_protection';
  if (within('repository.defaultBranchRef.rules.nodes.repositoryRuleset.bypassActors')) return 'rulesets';
  if (within('repository.defaultBranchRef.rules')) return 'branch_rules';
  return null;
}

type NextPage = { area: SettingsArea; value: unknown[]; next: string };

/** One REST area. `repository` failing fails the scan; any other area becomes unreadable with GitHub's reason. */
async function readRestArea(source: SnapshotSource, def: RestArea, owner: string, repo: string, fullName: string): Promise<AreaResult | NextPage> {
  const critical = def.area === 'repository';
  const signal = critical ? undefined : source.optionalSignal;
  try {
    const response = await source.request(def.route, { owner, repo, ...def.parameters, ...(signal === undefined ? {} : { request: { signal } }) });
    const next = def.paginated === true ? nextLink(response.headers.link) : undefined;
    if (next !== undefined && Array.isArray(response.data)) return { area: def.area, value: response.data, next };
    return { area: def.area, value: response.data };
  } catch (error) {
    if (critical) throw codeHostError(error, `repository ${fullName}`);
    return optionalAreaFailure(error, def.area, fullName);
  }
}

/**
 * A settings area GitHub will not show (404, 403: a missing permission, plan or feature) is recorded as
 * unreadable. A transient fault (5xx, rate limit, no answer in time) fails the whole scan instead, so a
 * scan is never stored with an area silently unassessed; the caller answers 502/503 and the client retries.
 */
function optionalAreaFailure(error: unknown, area: SettingsArea, fullName: string): AreaResult {
  const failure = describeFailure(error);
  // 422 is how GitHub says an area does not apply (fork-PR approval on a private repository).
  const refusal = failure.kind === 'not_found' || failure.kind === 'forbidden' || failure.status === 422;
  if (refusal) return { area, unreadable: failure.reason };
  throw new CodeHostError(failure.kind, `repository ${fullName}, ${area}: ${failure.reason}`, { retryAfter: failure.retryAfter });
}

/** The remaining pages of a list area; a page that fails makes the area unreadable (a partial list could hide a hook). */
async function followPages(source: SnapshotSource, first: NextPage, fullName: string): Promise<AreaResult> {
  const items = [...first.value];
  let next: string | undefined = first.next;
  const signal = source.optionalSignal;
  try {
    while (next !== undefined) {
      const response = await source.request(`GET ${next}`, signal === undefined ? {} : { request: { signal } });
      if (Array.isArray(response.data)) items.push(...(response.data as unknown[]));
      next = nextLink(response.headers.link);
    }
  } catch (error) {
    return optionalAreaFailure(error, first.area, fullName);
  }
  return { area: first.area, value: items };
}

function nextLink(link: string | undefined): string | undefined {
  return link === undefined ? undefined : /<([^>]+)>;\s*rel="next"/.exec(link)?.[1];
}

export function splitFullName(fullName: string): [string, string] {
  const match = /^([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+)$/.exec(fullName);
  if (match === null || match[2] === '.' || match[2] === '..') throw new CodeHostError('not_found', `"${fullName}" is not a repository name (owner/name)`);
  return [match[1] ?? '', match[2] ?? ''];
}
