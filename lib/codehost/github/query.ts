/**
 * The GraphQL documents of a scan. One query reads the workflow surface and the settings GraphQL can give
 * (GitHub's schema is checked by the test fake, which executes these documents against it); a follow-up
 * reads local actions that a workflow names outside the trees the first query walked.
 *
 * Paths reach GraphQL as variables, never spliced into the document: a `uses: ./path` comes from the
 * repository being scanned.
 */

/** Levels of `.github/actions` the first query walks (`.github/actions/<group>/<name>/action.yml` is level 3). */
export const ACTION_TREE_LEVELS = 3;
/** Rules and bypass actors beyond this many make the area unreadable instead of partially read. */
export const CONNECTION_PAGE = 100;

const BLOB = 'oid byteSize isBinary isTruncated text';
const LISTING = 'entries { name type mode }';

/** `entries` with blob text, `levels` deep. */
function walk(levels: number): string {
  const deeper = levels > 1 ? ` ... on Tree { ${walk(levels - 1)} }` : '';
  return `entries { name type mode object { ... on Blob { ${BLOB} }${deeper} } }`;
}

const RULE_PARAMETERS = `parameters {
        __typename
        ... on PullRequestParameters { allowedMergeMethods dismissStaleReviewsOnPush requireCodeOwnerReview requireLastPushApproval requiredApprovingReviewCount requiredReviewThreadResolution }
        ... on RequiredStatusChecksParameters { doNotEnforceOnCreate strictRequiredStatusChecksPolicy requiredStatusChecks { context integrationId } }
        ... on WorkflowsParameters { doNotEnforceOnCreate workflows { path ref repositoryId sha } }
      }`;

const BYPASS_ACTORS = `bypassActors(first: ${CONNECTION_PAGE}) {
          pageInfo { hasNextPage }
          nodes { actor { __typename ... on App { databaseId } ... on Team { databaseId } } bypassMode deployKey enterpriseOwner organizationAdmin repositoryRoleDatabaseId }
        }`;

const BRANCH_PROTECTION_RULE = `branchProtectionRule {
      pattern allowsDeletions allowsForcePushes blocksCreations dismissesStaleReviews isAdminEnforced lockAllowsFetchAndMerge lockBranch
      requireLastPushApproval requiredApprovingReviewCount requiredStatusCheckContexts requiredStatusChecks { context app { databaseId } }
      requiresApprovingReviews requiresCodeOwnerReviews requiresCommitSignatures requiresConversationResolution requiresLinearHistory
      requiresStatusChecks requiresStrictStatusChecks
    }`;

/** Which admin-only fields the first query asks for. */
export interface SnapshotQueryFields {
  /** Classic branch protection of the default branch (needs Administration: read). */
  branchProtection: boolean;
  /**
   * `hasVulnerabilityAlertsEnabled` (needs Administration: read), asked under its own alias of
   * `repository`: the field is non-null, so an error in it would null its parent, and under the main
   * `repository` that would be the whole snapshot.
   */
  vulnerabilityAlerts: boolean;
  /** Bypass lists of the rulesets that apply (only callers who can edit a ruleset see them). */
  bypassActors: boolean;
  /** `viewerCanAdminister`: a personal token's admin rights, unknown until asked. */
  viewerCanAdminister: boolean;
  /** Deployment environments and their protection rules (an App needs Actions: read). */
  environments: boolean;
}

/**
 * The alias of `repository` that holds only `environments`: the connection is non-null, so a refusal
 * (an App without Actions: read) would otherwise null the whole `repository` answer.
 */
export const ENVIRONMENTS_ALIAS = 'deploymentEnvironments';

/** Environments read (GitHub allows far fewer in practice; one not listed is simply no gate). */
export const ENVIRONMENTS_PAGE = 50;
/**
 * Protection rules read per environment: GitHub has at most one each of required reviewers, wait timer
 * and branch policy, plus up to six custom deployment protection rules.
 */
export const PROTECTION_RULES_PAGE = 10;

/**
 * Environments with the facts the engine's gate needs: whether a required-reviewers rule names anyone
 * (`reviewers(first: 1) { totalCount }`, not the list: the count is all that is read). GitHub prices a
 * query by the connections it may return, so the pages are kept small: this part adds about 6 points (1 + 50 + 500 connections, divided by 100).
 */
const ENVIRONMENTS = `environments(first: ${ENVIRONMENTS_PAGE}) {
      totalCount
      pageInfo { hasNextPage }
      nodes { databaseId name protectionRules(first: ${PROTECTION_RULES_PAGE}) { nodes { databaseId type preventSelfReview timeout reviewers(first: 1) { totalCount } } } }
    }`;

/** The alias of `repository` that holds only `hasVulnerabilityAlertsEnabled`. */
export const VULNERABILITY_ALERTS = 'vulnerabilityAlerts';

/** Aliases of the first query, in the order the code reads them. */
export const FILE_OBJECTS = {
  root: '',
  dotGithub: '.github',
  workflows: '.github/workflows',
  actions: '.github/actions',
  actionYml: 'action.yml',
  actionYaml: 'action.yaml',
  dependabotYml: '.github/dependabot.yml',
  dependabotYaml: '.github/dependabot.yaml',
  codeowners: '.github/CODEOWNERS',
  rootCodeowners: 'CODEOWNERS',
  docsCodeowners: 'docs/CODEOWNERS',
} as const;

/**
 * The revision the files are read at: `HEAD` (the default branch) or a commit's 40-hex SHA (a push, a pull
 * request's base or head). Anything else is refused here, so nothing else is ever spliced into a document.
 */
export function revision(ref: string | undefined): string {
  if (ref === undefined) return 'HEAD';
  if (!/^[0-9a-f]{40}$/.test(ref)) throw new Error('a commit to read files at is 40 lower-case hex digits');
  return ref;
}

export function snapshotQuery(fields: SnapshotQueryFields, rev = 'HEAD'): string {
  return `query ChainbreakerSnapshot($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    visibility
    ${fields.viewerCanAdminister ? 'viewerCanAdminister' : ''}
    defaultBranchRef {
      name
      target { oid }
      ${fields.branchProtection ? BRANCH_PROTECTION_RULE : ''}
      rules(first: ${CONNECTION_PAGE}) {
        pageInfo { hasNextPage }
        nodes {
          type
          ${RULE_PARAMETERS}
          repositoryRuleset {
            databaseId name target enforcement
            source { __typename ... on Repository { nameWithOwner } ... on Organization { login } ... on Enterprise { slug } }
            conditions { refName { include exclude } }
            ${fields.bypassActors ? BYPASS_ACTORS : ''}
          }
        }
      }
    }
    root: object(expression: "${rev}:") { ... on Tree { ${LISTING} } }
    dotGithub: object(expression: "${rev}:.github") { ... on Tree { ${LISTING} } }
    workflows: object(expression: "${rev}:.github/workflows") { ... on Tree { ${walk(1)} } }
    actions: object(expression: "${rev}:.github/actions") { ... on Tree { ${walk(ACTION_TREE_LEVELS)} } }
    actionYml: object(expression: "${rev}:action.yml") { ... on Blob { ${BLOB} } }
    actionYaml: object(expression: "${rev}:action.yaml") { ... on Blob { ${BLOB} } }
    dependabotYml: object(expression: "${rev}:.github/dependabot.yml") { ... on Blob { ${BLOB} } }
    dependabotYaml: object(expression: "${rev}:.github/dependabot.yaml") { ... on Blob { ${BLOB} } }
    codeowners: object(expression: "${rev}:.github/CODEOWNERS") { ... on Blob { ${BLOB} } }
    rootCodeowners: object(expression: "${rev}:CODEOWNERS") { ... on Blob { ${BLOB} } }
    docsCodeowners: object(expression: "${rev}:docs/CODEOWNERS") { __typename ... on Blob { ${BLOB} } }
  }
  ${fields.vulnerabilityAlerts ? `${VULNERABILITY_ALERTS}: repository(owner: $owner, name: $name) { hasVulnerabilityAlertsEnabled }` : ''}
  ${fields.environments ? `${ENVIRONMENTS_ALIAS}: repository(owner: $owner, name: $name) { ${ENVIRONMENTS} }` : ''}
}`.replace(/\n\s*\n/g, '\n');
}

/**
 * The follow-up for local actions: for each directory, its listing (to tell a regular file from a
 * symbolic link, as a checkout does) and its `action.yml` / `action.yaml`. Aliases are `d<i>`, `d<i>yml`
 * and `d<i>yaml`.
 */
export function localActionsQuery(dirs: readonly string[], rev = 'HEAD'): { query: string; variables: Record<string, string> } {
  const variables: Record<string, string> = {};
  const declarations: string[] = [];
  const selections: string[] = [];
  dirs.forEach((dir, i) => {
    variables[`d${i}`] = `${rev}:${dir}`;
    variables[`d${i}yml`] = `${rev}:${dir === '' ? '' : `${dir}/`}action.yml`;
    variables[`d${i}yaml`] = `${rev}:${dir === '' ? '' : `${dir}/`}action.yaml`;
    declarations.push(`$d${i}: String!, $d${i}yml: String!, $d${i}yaml: String!`);
    selections.push(
      `d${i}: object(expression: $d${i}) { ... on Tree { ${LISTING} } }`,
      `d${i}yml: object(expression: $d${i}yml) { ... on Blob { ${BLOB} } }`,
      `d${i}yaml: object(expression: $d${i}yaml) { ... on Blob { ${BLOB} } }`,
    );
  });
  const query = `query ChainbreakerLocalActions($owner: String!, $name: String!, ${declarations.join(', ')}) {
  repository(owner: $owner, name: $name) {
    ${selections.join('\n    ')}
  }
}`;
  return { query, variables };
}

/** Blobs fetched by path in one query (each an alias `b<i>`). */
export const BLOBS_PER_QUERY = 100;

/** Blobs by path, as aliases `b<i>` of `object(expression: "<rev>:<path>")`; paths travel as variables. */
export function blobsQuery(paths: readonly string[], rev = 'HEAD'): { query: string; variables: Record<string, string> } {
  const variables: Record<string, string> = {};
  const declarations: string[] = [];
  const selections: string[] = [];
  paths.forEach((path, i) => {
    variables[`b${i}`] = `${rev}:${path}`;
    declarations.push(`$b${i}: String!`);
    selections.push(`b${i}: object(expression: $b${i}) { ... on Blob { ${BLOB} } }`);
  });
  const query = `query ChainbreakerActionDefinitions($owner: String!, $name: String!, ${declarations.join(', ')}) {
  repository(owner: $owner, name: $name) {
    ${selections.join('\n    ')}
  }
}`;
  return { query, variables };
}
