/**
 * What GITHUB_TOKEN scopes well-known actions need, for the least-privilege `permissions:` fix. Keys are
 * `owner/repo` (or `owner/repo/path` for actions in a sub-directory), lower case. Each entry is the scopes
 * the action's documented usage asks for; `when` adds scopes that depend on an input (`registry: ghcr.io`).
 * An action not listed here makes the computed block a guess: the fix is then offered as unsafe.
 * `npm run fix:unknown-actions` lists the actions of the shared corpus that are not in this table.
 */
export type Scope =
  | 'actions'
  | 'attestations'
  | 'checks'
  | 'contents'
  | 'deployments'
  | 'discussions'
  | 'id-token'
  | 'issues'
  | 'packages'
  | 'pages'
  | 'pull-requests'
  | 'security-events'
  | 'statuses';

export type Access = 'read' | 'write';
export type Scopes = Partial<Record<Scope, Access>>;

export interface ActionPermissions {
  scopes: Scopes;
  /** Extra scopes when an input is set (`present`) or, with `matches`, when its value matches. */
  when?: readonly { input: string; matches?: RegExp; absent?: boolean; events?: readonly string[]; refs?: RegExp; scopes: Scopes }[];
  /**
   * The code the action runs that is not its own, in words (`its \`version\` and \`publish\` commands`): commands given in
   * its inputs or the repository's own hooks, run with the action's environment. A job token handed to the action (its
   * `with:` or environment) reaches that code, which may use any scope: `scopes` says only what the action itself asks for.
   */
  runsCode?: string;
}

const NONE: ActionPermissions = { scopes: {} };
const READ: ActionPermissions = { scopes: { contents: 'read' } };

export const ACTION_PERMISSIONS: Readonly<Record<string, ActionPermissions>> = {
  // Checkout, setup and build tools: the repository's contents at most.
  'actions/checkout': READ,
  'actions/setup-node': NONE,
  'actions/setup-python': NONE,
  'actions/setup-go': NONE,
  'actions/setup-java': NONE,
  'actions/setup-dotnet': NONE,
  'ruby/setup-ruby': NONE,
  'dtolnay/rust-toolchain': NONE,
  'actions-rs/toolchain': NONE,
  'pnpm/action-setup': NONE,
  'oven-sh/setup-bun': NONE,
  'denoland/setup-deno': NONE,
  'astral-sh/setup-uv': NONE,
  'hashicorp/setup-terraform': NONE,
  'azure/setup-helm': NONE,
  'gradle/actions/setup-gradle': NONE,
  'gradle/actions/wrapper-validation': NONE,
  'swatinem/rust-cache': NONE,
  'taiki-e/install-action': NONE,
  'docker/setup-buildx-action': NONE,
  'docker/setup-qemu-action': NONE,
  'docker/metadata-action': NONE,
  'docker/build-push-action': NONE,
  'sigstore/cosign-installer': NONE,
  'actions/create-github-app-token': NONE,
  // Mints an installation token from the app's key (its action.yml takes no GitHub token).
  'tibdex/github-app-token': NONE,
  'slackapi/slack-github-action': NONE,
  'crazy-max/ghaction-import-gpg': NONE,
  'step-security/harden-runner': NONE,
  'google-github-actions/setup-gcloud': NONE,
  'helm/kind-action': NONE,
  'helm/chart-testing-action': NONE,
  're-actors/alls-green': NONE,
  'jlumbroso/free-disk-space': NONE,
  // Runs the repository's hooks, with the step's environment.
  'pre-commit/action': { scopes: {}, runsCode: "the repository's pre-commit hooks" },
  'crate-ci/typos': NONE,
  'pyo3/maturin-action': NONE,
  'docker/bake-action': NONE,
  'cargo-bins/cargo-binstall': NONE,
  'uraimo/run-on-arch-action': { scopes: {}, when: [{ input: 'githubToken', scopes: { packages: 'write' } }], runsCode: 'its `run` script' },
  'dorny/paths-filter': { scopes: { contents: 'read', 'pull-requests': 'read' } },
  'tj-actions/changed-files': { scopes: { contents: 'read', 'pull-requests': 'read' } },
  'peter-evans/find-comment': { scopes: { issues: 'read', 'pull-requests': 'read' } },
  'dessant/lock-threads': { scopes: { issues: 'write', 'pull-requests': 'write', discussions: 'write' } },
  'zizmorcore/zizmor-action': { scopes: { 'security-events': 'write', contents: 'read', actions: 'read' } },
  'actions/publish-immutable-action': { scopes: { contents: 'read', 'id-token': 'write', packages: 'write' } },
  'rust-lang/crates-io-auth-action': { scopes: { 'id-token': 'write' } },
  // Artifacts and caches of the same run need no scope; `run-id` reads another run's artifacts.
  'actions/cache': NONE,
  'actions/upload-artifact': NONE,
  'actions/download-artifact': { scopes: {}, when: [{ input: 'run-id', scopes: { actions: 'read' } }] },
  'actions/upload-pages-artifact': NONE,
  // Registries: pushing to GitHub Packages with the job's token.
  'docker/login-action': { scopes: {}, when: [{ input: 'registry', matches: /^ghcr\.io|docker\.pkg\.github\.com/i, scopes: { packages: 'write' } }] },
  'actions/delete-package-versions': { scopes: { packages: 'write' } },
  // Releases and commits.
  'softprops/action-gh-release': { scopes: { contents: 'write' } },
  'ncipollo/release-action': { scopes: { contents: 'write' } },
  'actions/create-release': { scopes: { contents: 'write' } },
  'actions/upload-release-asset': { scopes: { contents: 'write' } },
  // GoReleaser runs the hooks of the repository's configuration (`before.hooks`, build hooks) with its environment.
  'goreleaser/goreleaser-action': { scopes: { contents: 'write' }, runsCode: "the hooks of the repository's GoReleaser configuration" },
  'stefanzweifel/git-auto-commit-action': { scopes: { contents: 'write' } },
  'endbug/add-and-commit': { scopes: { contents: 'write' } },
  'jamesives/github-pages-deploy-action': { scopes: { contents: 'write' } },
  'peaceiris/actions-gh-pages': { scopes: { contents: 'write' } },
  // Before v7 the action itself runs the configuration's `autolabeler` on `pull_request` events, unless
  // `disable-autolabeler: true` (README v5/v6, "Autolabeler": "write permission is required for autolabeler"); v7
  // moved it to the sub-action below. Only a tag that names such a version counts (a SHA says no version).
  'release-drafter/release-drafter': {
    scopes: { contents: 'write', 'pull-requests': 'read' },
    when: [{ input: 'disable-autolabeler', absent: true, events: ['pull_request', 'pull_request_target'], refs: /^v?[1-6](?:\.|$)/, scopes: { 'pull-requests': 'write' } }],
  },
  // README (v7), "Autolabeler": the sub-action labels the pull request, "write permission is required for autolabeler".
  'release-drafter/release-drafter/autolabeler': { scopes: { contents: 'read', 'pull-requests': 'write' } },
  'googleapis/release-please-action': { scopes: { contents: 'write', 'pull-requests': 'write', issues: 'write' } },
  // Runs its `version` command (`changeset version` by default, with the repository's changelog generator) and its
  // `publish` command with its environment, `GITHUB_TOKEN` included.
  'changesets/action': { scopes: { contents: 'write', 'pull-requests': 'write' }, runsCode: 'its `version` and `publish` commands' },
  'peter-evans/create-pull-request': { scopes: { contents: 'write', 'pull-requests': 'write' } },
  // README, "Permissions": pushes the backport branch (`contents: write`) and opens its pull request.
  'korthout/backport-action': { scopes: { contents: 'write', 'pull-requests': 'write' } },
  // Pull requests, issues and comments.
  'peter-evans/create-or-update-comment': { scopes: { issues: 'write', 'pull-requests': 'write' } },
  'marocchino/sticky-pull-request-comment': { scopes: { 'pull-requests': 'write' } },
  'thollander/actions-comment-pull-request': { scopes: { 'pull-requests': 'write' } },
  'actions/labeler': { scopes: { contents: 'read', 'pull-requests': 'write' } },
  // README, "Recommended permissions": `contents: write # only for delete-branch option`.
  'actions/stale': { scopes: { actions: 'write', issues: 'write', 'pull-requests': 'write' }, when: [{ input: 'delete-branch', matches: /^(true|\$\{\{.*\}\})$/i, scopes: { contents: 'write' } }] },
  'actions/first-interaction': { scopes: { issues: 'write', 'pull-requests': 'write' } },
  'actions-ecosystem/action-add-labels': { scopes: { issues: 'write', 'pull-requests': 'write' } },
  'actions-ecosystem/action-remove-labels': { scopes: { issues: 'write', 'pull-requests': 'write' } },
  // With `wip: true` it sets a pending commit status on work-in-progress pull requests (README, "wip"; src/index.js
  // creates a status on the head SHA), which needs `statuses: write`.
  'amannn/action-semantic-pull-request': { scopes: { 'pull-requests': 'read' }, when: [{ input: 'wip', matches: /^true$/i, scopes: { statuses: 'write' } }] },
  'dependabot/fetch-metadata': { scopes: { 'pull-requests': 'read' } },
  'actions/dependency-review-action': { scopes: { contents: 'read' }, when: [{ input: 'comment-summary-in-pr', matches: /^(always|on-failure|true)$/i, scopes: { 'pull-requests': 'write' } }] },
  // Checks and test reports.
  'mikepenz/action-junit-report': { scopes: { checks: 'write' } },
  'enricomi/publish-unit-test-result-action': { scopes: { checks: 'write', 'pull-requests': 'write' } },
  'dorny/test-reporter': { scopes: { checks: 'write' } },
  'golangci/golangci-lint-action': { scopes: { contents: 'read' } },
  'super-linter/super-linter': { scopes: { contents: 'read', statuses: 'write' } },
  'codecov/codecov-action': { scopes: {}, when: [{ input: 'use_oidc', matches: /^(true|\$\{\{[\s\S]*\}\})$/i, scopes: { 'id-token': 'write' } }] },
  // Code scanning.
  'github/codeql-action/init': { scopes: { 'security-events': 'write', actions: 'read', contents: 'read', packages: 'read' } },
  'github/codeql-action/autobuild': NONE,
  'github/codeql-action/analyze': { scopes: { 'security-events': 'write', actions: 'read', contents: 'read' } },
  'github/codeql-action/upload-sarif': { scopes: { 'security-events': 'write', actions: 'read', contents: 'read' } },
  'ossf/scorecard-action': { scopes: { 'security-events': 'write', 'id-token': 'write', contents: 'read', actions: 'read' } },
  // Pages and OIDC.
  'actions/configure-pages': { scopes: { pages: 'write' } },
  'actions/deploy-pages': { scopes: { pages: 'write', 'id-token': 'write' } },
  'actions/attest-build-provenance': { scopes: { 'id-token': 'write', attestations: 'write', contents: 'read' } },
  'actions/attest': { scopes: { 'id-token': 'write', attestations: 'write', contents: 'read' } },
  'aws-actions/configure-aws-credentials': { scopes: {}, when: [{ input: 'aws-access-key-id', absent: true, scopes: { 'id-token': 'write' } }] },
  'google-github-actions/auth': { scopes: {}, when: [{ input: 'workload_identity_provider', scopes: { 'id-token': 'write' } }] },
  'azure/login': { scopes: {}, when: [{ input: 'creds', absent: true, scopes: { 'id-token': 'write' } }] },
  'pypa/gh-action-pypi-publish': { scopes: {}, when: [{ input: 'password', absent: true, scopes: { 'id-token': 'write' } }] },
};

/** `ACTION_PERMISSIONS` as a map: a keyed load of a name the table lacks costs V8 more on an object this large. */
const PERMISSIONS_BY_NAME: ReadonlyMap<string, ActionPermissions> = new Map(Object.entries(ACTION_PERMISSIONS));

/** The table entry of `owner/repo[/path]` (lower-cased), trying the sub-path first. */
type ScopeCondition = NonNullable<ActionPermissions['when']>[number];

/**
 * Whether an input's value may match: as written, or, for an expression (`${{ cond && 'on-failure' || 'never' }}`),
 * one of the quoted strings it may give; an expression with none may give anything.
 */
function mayMatch(pattern: RegExp, value: string): boolean {
  if (pattern.test(value.trim()) || !value.includes('${{')) return pattern.test(value.trim());
  const literals = [...value.matchAll(/'((?:[^']|'')*)'/g)].map((m) => (m[1] ?? '').replace(/''/g, "'"));
  return literals.length === 0 || literals.some((l) => pattern.test(l.trim()));
}

/**
 * Whether a `when` condition holds for a step: `value` the input's text (null when not given), `triggers` the
 * names of its workflow's triggers (null when not known: a composite action's step), `ref` the `@ref` it uses.
 */
export function conditionHolds(condition: ScopeCondition, value: string | null, triggers: ReadonlySet<string> | null, ref: string): boolean {
  const applies = condition.absent === true ? value === null : value !== null && (condition.matches === undefined || mayMatch(condition.matches, value));
  const onEvent = condition.events === undefined || triggers === null || condition.events.some((e) => triggers.has(e));
  return applies && onEvent && (condition.refs === undefined || condition.refs.test(ref));
}

export function actionPermissions(slugWithPath: string): ActionPermissions | undefined {
  const key = slugWithPath.toLowerCase();
  const found = PERMISSIONS_BY_NAME.get(key);
  if (found !== undefined) return found;
  // `owner/repo` of `owner/repo/path`, without splitting the name (asked for most steps of every job).
  const second = key.indexOf('/', key.indexOf('/') + 1);
  return second === -1 ? undefined : PERMISSIONS_BY_NAME.get(key.slice(0, second));
}

/**
 * What run scripts ask of the token: `gh` subcommands and `git push`. A `gh` command not listed (and
 * `gh api`, whose needs depend on the call) is unknown.
 */
export const GH_COMMANDS: Readonly<Record<string, Scopes>> = {
  'pr view': { 'pull-requests': 'read' },
  'pr list': { 'pull-requests': 'read' },
  'pr diff': { 'pull-requests': 'read' },
  'pr checks': { 'pull-requests': 'read', checks: 'read' },
  'pr status': { 'pull-requests': 'read' },
  'pr checkout': { 'pull-requests': 'read', contents: 'read' },
  'pr comment': { 'pull-requests': 'write' },
  'pr edit': { 'pull-requests': 'write' },
  'pr review': { 'pull-requests': 'write' },
  'pr close': { 'pull-requests': 'write' },
  'pr reopen': { 'pull-requests': 'write' },
  'pr ready': { 'pull-requests': 'write' },
  'pr create': { 'pull-requests': 'write' },
  'pr merge': { 'pull-requests': 'write', contents: 'write' },
  'issue view': { issues: 'read' },
  'issue list': { issues: 'read' },
  'issue comment': { issues: 'write' },
  'issue create': { issues: 'write' },
  'issue edit': { issues: 'write' },
  'issue close': { issues: 'write' },
  'issue reopen': { issues: 'write' },
  'issue lock': { issues: 'write' },
  'label create': { issues: 'write' },
  'label edit': { issues: 'write' },
  'label delete': { issues: 'write' },
  'release view': { contents: 'read' },
  'release list': { contents: 'read' },
  'release download': { contents: 'read' },
  'release create': { contents: 'write' },
  'release upload': { contents: 'write' },
  'release edit': { contents: 'write' },
  'release delete': { contents: 'write' },
  'run view': { actions: 'read' },
  'run list': { actions: 'read' },
  'run download': { actions: 'read' },
  'run watch': { actions: 'read' },
  'run rerun': { actions: 'write' },
  'run cancel': { actions: 'write' },
  'workflow run': { actions: 'write' },
  'workflow view': { actions: 'read' },
  'workflow list': { actions: 'read' },
  'cache list': { actions: 'read' },
  'cache delete': { actions: 'write' },
  'attestation verify': { attestations: 'read' },
  'extension install': {},
  'actions-cache list': { actions: 'read' },
  'actions-cache delete': { actions: 'write' },
};
