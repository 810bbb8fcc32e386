/**
 * Actions that install a toolchain or a tool, with the inputs that choose its version and what they do
 * without one: the table of the `unpinned-tool-version` rule. Each entry names its source (the action's
 * `action.yml` and README, where the default is documented).
 */
export interface SetupAction {
  /** `owner/repo` of the action, lower case. */
  slug: string;
  /** Inputs that choose the version (a version or a version file). */
  inputs: string[];
  /** Inputs whose value is the version itself (checked for `latest` and friends). */
  versionInputs: string[];
  /**
   * What the action does with no version input: `floating` (the latest release or the runner's preinstalled
   * tool, so a finding) or `file` (reads a version file such as `.ruby-version`, which the scan cannot see, so none).
   */
  whenMissing: 'floating' | 'file';
  /** Language whose whole major line is one floating target (`3.x` for Python, `1.x` for Go). */
  wholeMajor?: string;
  /** Where the behaviour without a version is documented. */
  source: string;
}

const doc = (slug: string) => `https://github.com/${slug}/blob/HEAD/action.yml and its README`;

export const SETUP_ACTIONS: readonly SetupAction[] = [
  { slug: 'actions/setup-node', inputs: ['node-version', 'node-version-file'], versionInputs: ['node-version'], whenMissing: 'floating', source: `${doc('actions/setup-node')} (no version: the node already on the runner's PATH)` },
  { slug: 'actions/setup-go', inputs: ['go-version', 'go-version-file'], versionInputs: ['go-version'], whenMissing: 'floating', wholeMajor: '1', source: `${doc('actions/setup-go')} (no version: the runner's preinstalled Go)` },
  { slug: 'actions/setup-java', inputs: ['java-version', 'java-version-file'], versionInputs: ['java-version'], whenMissing: 'floating', source: doc('actions/setup-java') },
  // setup-python reads `.python-version`, setup-dotnet `global.json`, when no version is given.
  { slug: 'actions/setup-python', inputs: ['python-version', 'python-version-file'], versionInputs: ['python-version'], whenMissing: 'file', wholeMajor: '3', source: `${doc('actions/setup-python')} (no version: .python-version)` },
  { slug: 'actions/setup-dotnet', inputs: ['dotnet-version', 'global-json-file'], versionInputs: ['dotnet-version'], whenMissing: 'file', source: `${doc('actions/setup-dotnet')} (no version: global.json)` },
  { slug: 'ruby/setup-ruby', inputs: ['ruby-version'], versionInputs: ['ruby-version'], whenMissing: 'file', source: `${doc('ruby/setup-ruby')} (default \`default\`: .ruby-version, .tool-versions)` },
  { slug: 'pnpm/action-setup', inputs: ['version'], versionInputs: ['version'], whenMissing: 'file', source: `${doc('pnpm/action-setup')} (no version: packageManager of package.json)` },
  { slug: 'oven-sh/setup-bun', inputs: ['bun-version', 'bun-version-file'], versionInputs: ['bun-version'], whenMissing: 'file', source: `${doc('oven-sh/setup-bun')} (no version: package.json, .bun-version, .tool-versions)` },
  { slug: 'denoland/setup-deno', inputs: ['deno-version', 'deno-version-file'], versionInputs: ['deno-version'], whenMissing: 'file', source: doc('denoland/setup-deno') },
  { slug: 'astral-sh/setup-uv', inputs: ['version', 'version-file'], versionInputs: ['version'], whenMissing: 'file', source: `${doc('astral-sh/setup-uv')} (no version: required-version of uv.toml or pyproject.toml)` },
  { slug: 'shivammathur/setup-php', inputs: ['php-version', 'php-version-file'], versionInputs: ['php-version'], whenMissing: 'file', source: `${doc('shivammathur/setup-php')} (no version: .php-version)` },
  { slug: 'hashicorp/setup-terraform', inputs: ['terraform_version'], versionInputs: ['terraform_version'], whenMissing: 'floating', source: `${doc('hashicorp/setup-terraform')} (terraform_version defaults to latest)` },
  { slug: 'azure/setup-helm', inputs: ['version'], versionInputs: ['version'], whenMissing: 'floating', source: `${doc('azure/setup-helm')} (version defaults to latest)` },
  { slug: 'azure/setup-kubectl', inputs: ['version'], versionInputs: ['version'], whenMissing: 'floating', source: `${doc('azure/setup-kubectl')} (version defaults to latest)` },
  { slug: 'haskell-actions/setup', inputs: ['ghc-version'], versionInputs: ['ghc-version'], whenMissing: 'floating', source: `${doc('haskell-actions/setup')} (ghc-version defaults to latest)` },
  { slug: 'erlef/setup-beam', inputs: ['otp-version', 'elixir-version', 'version-file'], versionInputs: ['otp-version', 'elixir-version'], whenMissing: 'file', source: doc('erlef/setup-beam') },
  {
    slug: 'aquasecurity/setup-trivy',
    inputs: ['version'],
    versionInputs: ['version'],
    whenMissing: 'floating',
    source: `${doc('aquasecurity/setup-trivy')} ("Install the latest Trivy version": no version, or latest); zizmor's unpinned-tools audit`,
  },
  {
    slug: '1password/load-secrets-action',
    inputs: ['version'],
    versionInputs: ['version'],
    whenMissing: 'floating',
    source: `${doc('1password/load-secrets-action')} (v2 and later install the 1Password CLI, version defaults to latest); zizmor's unpinned-tools audit`,
  },
];

export const SETUP_ACTION_BY_SLUG: ReadonlyMap<string, SetupAction> = new Map(SETUP_ACTIONS.map((a) => [a.slug, a]));
