import { hasAny, scriptOf, wordMask } from '../analysis/file-scripts.js';
import { literalEnv, rehearsalFlagOn } from '../analysis/publishing.js';
import { readPermissions } from '../analysis/permissions.js';
import { carriedSecrets, isGithubToken, secretEnv, secretOccurrences, type SecretEnvVar } from '../analysis/secrets.js';
import { variableUses } from '../analysis/shell-vars.js';
import { expressionsOf, type ExpressionOccurrence } from '../expressions/extract.js';
import { contextPath, walkExpression } from '../expressions/parse.js';
import type { RepositoryModel } from '../model/repository.js';
import type { Job, Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { commandName, pipelines, words, type ScriptSpan } from '../shell.js';
import { get, getText, keyText, type YNode, type YScalar } from '../yaml/model.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { flatMap } from '../model/arrays.js';

/** Registries with OIDC trusted publishing for GitHub Actions. */
type Registry = 'PyPI' | 'npm' | 'crates.io' | 'RubyGems' | 'NuGet';

interface PublishCommand {
  registry: Registry;
  /** Matches the program and its words (`npm publish`, `cargo +1.80 publish`), after `python -m`/`npx` are unwrapped. */
  matches: (program: string, args: readonly string[]) => boolean;
  /** Options that send the upload to another registry than the public one. */
  elsewhere: RegExp;
  /** Environment variables the tool reads its token from. */
  tokenEnv: RegExp;
}

const PUBLIC_NPM = /registry\.npmjs\.org/;
const PUBLIC_PYPI = /(?:upload|test)\.pypi\.org/;

const has = (args: readonly string[], word: string) => args.includes(word);

/** Package-manager subcommands that run another tool, whose own `publish` is not the package manager's. */
const RUNS_ANOTHER_TOOL = new Set(['dlx', 'exec', 'x', 'run', 'run-script', 'create', 'init']);

/** `publish` is the package manager's own subcommand: no `dlx`/`exec`/`run` before it hands the word to another tool. */
const publishes = (args: readonly string[]) => {
  const at = args.indexOf('publish');
  return at >= 0 && !args.slice(0, at).some((w) => RUNS_ANOTHER_TOOL.has(w));
};

const COMMANDS: PublishCommand[] = [
  {
    registry: 'npm',
    matches: (p, a) =>
      ((p === 'npm' || p === 'pnpm') && publishes(a)) || (p === 'yarn' && (a[0] === 'publish' || (a[0] === 'npm' && a[1] === 'publish'))) || (p === 'bun' && a[0] === 'publish'),
    elsewhere: /--registry[= ]\s*(\S+)/,
    tokenEnv: /^(?:NODE_AUTH_TOKEN|NPM_TOKEN|NPM_AUTH_TOKEN|NPM_CONFIG_\w*AUTH\w*|YARN_NPM_AUTH_TOKEN)$/i,
  },
  {
    registry: 'PyPI',
    matches: (p, a) => (p === 'twine' && has(a, 'upload')) || (['poetry', 'uv', 'hatch', 'flit', 'pdm', 'maturin'].includes(p) && (has(a, 'publish') || (p === 'maturin' && has(a, 'upload')))),
    elsewhere: /--repository-url[= ]\s*(\S+)|--publish-url[= ]\s*(\S+)|--index-url[= ]\s*(\S+)|(?:^|\s)(?:-r|--repository)[= ]\s*(\S+)/,
    tokenEnv: /^(?:TWINE_PASSWORD|POETRY_PYPI_TOKEN_\w+|POETRY_HTTP_BASIC_\w+_PASSWORD|UV_PUBLISH_TOKEN|UV_PUBLISH_PASSWORD|HATCH_INDEX_AUTH|FLIT_PASSWORD|PDM_PUBLISH_PASSWORD|MATURIN_PYPI_TOKEN|MATURIN_PASSWORD)$/i,
  },
  {
    registry: 'crates.io',
    matches: (p, a) => p === 'cargo' && (a[0] === 'publish' || (a[0]?.startsWith('+') === true && a[1] === 'publish')),
    elsewhere: /--registry[= ]\s*(\S+)|--index[= ]\s*(\S+)/,
    tokenEnv: /^(?:CARGO_REGISTRY_TOKEN|CARGO_REGISTRIES_CRATES_IO_TOKEN)$/i,
  },
  {
    registry: 'RubyGems',
    matches: (p, a) => p === 'gem' && a[0] === 'push',
    elsewhere: /--host[= ]\s*(\S+)/,
    tokenEnv: /^(?:GEM_HOST_API_KEY|RUBYGEMS_API_KEY)$/i,
  },
  {
    registry: 'NuGet',
    matches: (p, a) => (p === 'dotnet' && a[0] === 'nuget' && a[1] === 'push') || (p === 'nuget' && a[0] === 'push'),
    elsewhere: /(?:--source|-s|-Source)[= ]\s*(\S+)/,
    tokenEnv: /^(?:NUGET_API_KEY|NUGET_AUTH_TOKEN)$/i,
  },
];

/**
 * Program and arguments of a command, looking through `python -m x`, `npx x`, `bunx x`, `uvx x`,
 * `pipx run x`, `bundle exec x`; a program is named without `.exe` or a version (`twine==6.1.0`).
 */
function invocation(command: string): { program: string; args: readonly string[] } | null {
  const first = commandName(command);
  if (first === null) return null;
  let list = words(command);
  list = list.slice(Math.max(0, list.findIndex((w) => w.replace(/^.*\//, '') === first)) + 1);
  const bare = (word: string) => word.replace(/^.*[/\\]/, '').replace(/\.exe$/i, '').replace(/(?:==|@)[\w.*+-]+$/, '');
  const program = bare(first);
  const unwrapped = (rest: readonly string[]) => (rest[0] === undefined ? null : { program: bare(rest[0]), args: rest.slice(1) });
  if (/^python[\d.]*$|^py$/.test(program) && list[0] === '-m') return unwrapped(list.slice(1)) ?? { program, args: list };
  if (program === 'npx' || program === 'uvx' || program === 'bunx') return unwrapped(list) ?? { program, args: list };
  if ((program === 'pipx' && list[0] === 'run') || (program === 'bundle' && list[0] === 'exec')) return unwrapped(list.slice(1)) ?? { program, args: list };
  return { program, args: list };
}

/** True when the destination named by an `elsewhere` option is the registry's public index anyway. */
function isPublicIndex(registry: Registry, target: string): boolean {
  const value = target.replace(/^["']|["']$/g, '');
  switch (registry) {
    case 'npm':
      return PUBLIC_NPM.test(value);
    case 'PyPI':
      return PUBLIC_PYPI.test(value) || /^(?:pypi|testpypi)$/i.test(value);
    case 'crates.io':
      return /^crates-io$/i.test(value);
    case 'RubyGems':
      return /rubygems\.org/.test(value);
    case 'NuGet':
      return /nuget\.org/.test(value);
  }
}

/** Script lines that put a registry token in place: an npmrc, a pypirc, `cargo login`, `npm config set`. */
const CREDENTIAL_SETUP = /_authToken|\.npmrc|\.pypirc|cargo\s+login|credentials|npm\s+config\s+set|nuget\s+(?:setapikey|sources)|--token|--api-key|-k\s|--password|-p\s/i;

/**
 * The long-lived secret a `${{ }}` carries (not the job token). In a composite action, where the
 * `secrets` context does not exist, an `inputs.X` counts when a caller passes a secret as `X`.
 */
function storedSecret(occurrence: ExpressionOccurrence, step: Step, repository: RepositoryModel): string | undefined {
  const direct = carriedSecrets(occurrence.expr).find((name) => !isGithubToken(name));
  if (direct !== undefined || step.owner.kind !== 'action' || occurrence.expr === null) return direct;
  const action = step.owner;
  const inputs = new Set<string>();
  walkExpression(occurrence.expr, (node) => {
    const path = contextPath(node);
    if (path?.[0] === 'inputs' && path[1] !== undefined) inputs.add(path[1]);
  });
  for (const caller of inputs.size === 0 ? [] : repository.callersOf(action)) {
    for (const pair of caller.with?.pairs ?? []) {
      if (!inputs.has(keyText(pair.key).toLowerCase())) continue;
      const passed = secretOccurrences(caller.owner.file, pair.value).find((o) => !isGithubToken(o.name));
      if (passed !== undefined) return passed.name;
    }
  }
  return undefined;
}

interface Evidence {
  registry: Registry;
  /** Where to report: the secret itself when it is in the step, else the step's `uses:`/`run:`. */
  node: YScalar;
  offset: number;
  /** The stored secret it authenticates with, or null when the job cannot mint an OIDC token and no secret is in sight. */
  secret: string | null;
  how: string;
}

/**
 * Whether the step's job may hold an OIDC token: it grants `id-token: write` (or `write-all`), or its
 * permissions are not known from the file (an expression, a reusable workflow whose caller decides, a
 * composite action). Without a `permissions:` block at either level a job gets no `id-token` scope.
 */
function mayMintOidc(step: Step): boolean {
  const job = step.job;
  if (job === null) return true;
  const workflow = job.workflow;
  const node = job.permissions ?? workflow.permissions;
  if (node === undefined) return workflow.triggers.some((t) => t.name === 'workflow_call');
  const granted = readPermissions(node);
  if (granted.kind === 'write-all' || granted.kind === 'other') return true;
  return granted.kind === 'scopes' && granted.writes.some((w) => w.scope === 'id-token');
}

function firstSecret(step: Step, node: YNode | undefined, repository: RepositoryModel): { occurrence: ExpressionOccurrence; name: string } | undefined {
  if (node?.kind !== 'scalar') return undefined;
  for (const occurrence of expressionsOf(step.owner.file, node)) {
    const name = storedSecret(occurrence, step, repository);
    if (name !== undefined) return { occurrence, name };
  }
  return undefined;
}

/** The step's environment variables holding a long-lived secret (through its callers, for composite actions). */
function tokenEnvOf(step: Step, repository: RepositoryModel): Map<string, SecretEnvVar> {
  const env = new Map([...secretEnv(step)].filter(([, v]) => v.secrets.some((s) => !isGithubToken(s))));
  if (step.owner.kind === 'action') {
    for (const pair of step.env?.pairs ?? []) {
      const found = firstSecret(step, pair.value, repository);
      const name = keyText(pair.key);
      if (found !== undefined && !env.has(name)) env.set(name, { name, secrets: [found.name], key: pair.key, value: pair.value, level: 'step' });
    }
  }
  return env;
}

/** An environment variable of the step (or its job or workflow) named like a registry token and holding a secret. */
function tokenFromEnv(step: Step, tokenEnv: RegExp, repository: RepositoryModel): SecretEnvVar | undefined {
  return [...tokenEnvOf(step, repository).values()].find((v) => tokenEnv.test(v.name));
}

/** `actions/setup-node` in the job pointed at another registry than npmjs.org (GitHub Packages ...). */
function npmRegistryElsewhere(job: Job | null): boolean {
  return (job?.steps ?? []).some((s) => {
    if (s.usesRef?.kind !== 'repository' || s.usesRef.slug !== 'actions/setup-node') return false;
    const url = getText(s.with, 'registry-url');
    return url !== null && !url.includes('${{') && !PUBLIC_NPM.test(url);
  });
}

/** The actions `fromAction` reads. */
const PUBLISHING_ACTIONS: ReadonlySet<string> = new Set([
  'pypa/gh-action-pypi-publish',
  'js-devtools/npm-publish',
  'changesets/action',
  'pyo3/maturin-action',
  'rubygems/configure-rubygems-credentials',
  'rubygems/release-gem',
]);

function fromAction(step: Step, repository: RepositoryModel): Evidence | null {
  if (step.usesRef?.kind !== 'repository' || step.uses === undefined) return null;
  const slug = step.usesRef.slug;
  // Most steps run other actions: return before building the helpers below.
  if (!PUBLISHING_ACTIONS.has(slug)) return null;
  const withSecret = (key: string, registry: Registry, how: string): Evidence | null => {
    const found = firstSecret(step, get(step.with, key), repository);
    return found === undefined ? null : { registry, node: found.occurrence.scalar, offset: found.occurrence.offset, secret: found.name, how };
  };
  const envSecret = (tokenEnv: RegExp, registry: Registry, how: string): Evidence | null => {
    const variable = tokenFromEnv(step, tokenEnv, repository);
    if (variable === undefined || step.uses === undefined) return null;
    return { registry, node: step.uses, offset: step.uses.start, secret: variable.secrets.find((s) => !isGithubToken(s)) ?? '', how: `${how} with \`${variable.name}\`` };
  };
  switch (slug) {
    case 'pypa/gh-action-pypi-publish': {
      const index = getText(step.with, 'repository-url') ?? getText(step.with, 'repository_url');
      if (index !== null && !PUBLIC_PYPI.test(index)) return null;
      return withSecret('password', 'PyPI', '`pypa/gh-action-pypi-publish` is given a `password`');
    }
    case 'js-devtools/npm-publish': {
      const registry = getText(step.with, 'registry');
      if (registry !== null && !PUBLIC_NPM.test(registry)) return null;
      return withSecret('token', 'npm', '`js-devtools/npm-publish` is given a `token`');
    }
    case 'changesets/action':
      if (getText(step.with, 'publish') === null || npmRegistryElsewhere(step.job)) return null;
      return envSecret(COMMANDS[0]?.tokenEnv ?? /$^/, 'npm', '`changesets/action` publishes');
    case 'pyo3/maturin-action':
      if (!/^(?:publish|upload)\b/.test(getText(step.with, 'command') ?? '')) return null;
      return envSecret(COMMANDS[1]?.tokenEnv ?? /$^/, 'PyPI', '`PyO3/maturin-action` uploads');
    case 'rubygems/configure-rubygems-credentials':
      return withSecret('api-token', 'RubyGems', '`rubygems/configure-rubygems-credentials` is given an `api-token`');
    case 'rubygems/release-gem': {
      const setting = get(step.with, 'setup-trusted-publisher');
      if (setting?.kind !== 'scalar' || !(setting.value === false || String(setting.value).trim() === 'false')) return null;
      return envSecret(COMMANDS[3]?.tokenEnv ?? /$^/, 'RubyGems', '`rubygems/release-gem` turns trusted publishing off and pushes');
    }
    default:
      return null;
  }
}

/** Every publishing command of `COMMANDS` has one of these programs and one of these verbs as words. */
const PUBLISHERS = wordMask('npm', 'pnpm', 'yarn', 'bun', 'twine', 'poetry', 'uv', 'hatch', 'flit', 'pdm', 'maturin', 'cargo', 'gem', 'dotnet', 'nuget');
const PUBLISH_VERBS = wordMask('publish', 'upload', 'push');

const PUBLISH_TEXT = /publish|upload|push/i;

function fromScript(step: Step, repository: RepositoryModel): Evidence | null {
  const found = scriptOf(step);
  // Every publishing command below says publish, upload or push: most scripts need no closer look.
  if (found === null || !hasAny(found.words, PUBLISH_VERBS) || !PUBLISH_TEXT.test(found.text)) return null;
  if (!hasAny(found.words, PUBLISHERS) && !/\b(?:nuget\.exe|twine==|twine@)/i.test(found.text)) return null;
  const run = found.run;
  const lines = found.lines;
  const stepEnv = literalEnv(step);
  // Each line's commands are read once (lazily), not once per registry; a line that does not say publish,
  // upload or push (the script's test above, line by line) has none of them.
  const calls: (readonly { program: string; args: readonly string[] }[] | undefined)[] = [];
  const callsOf = (index: number) =>
    (calls[index] ??= PUBLISH_TEXT.test((lines[index] as ScriptSpan).text)
      ? flatMap(pipelines(lines[index] as ScriptSpan), (p) => flatMap(p.commands, (c) => invocation(c.text) ?? []))
      : []);
  for (const command of COMMANDS) {
    const line = lines.find((_, index) =>
      callsOf(index).some((call) => command.matches(call.program, call.args) && !rehearsalFlagOn(call.args.join(' '), stepEnv) && !call.args.includes('-n')),
    );
    if (line === undefined) continue;
    const target = command.elsewhere.exec(line.text);
    const destination = target?.slice(1).find((g) => g !== undefined);
    if (destination !== undefined && !isPublicIndex(command.registry, destination)) continue;
    if (/\b(?:localhost|127\.0\.0\.1)\b/.test(line.text)) continue;
    if (command.registry === 'npm' && npmRegistryElsewhere(step.job)) continue;

    // A secret written into the script, on the publish line or where credentials are set up.
    const relevant = (l: ScriptSpan) => l === line || CREDENTIAL_SETUP.test(l.text);
    for (const occurrence of expressionsOf(step.owner.file, run)) {
      const name = storedSecret(occurrence, step, repository);
      const at = lines.find((l) => occurrence.span.start >= l.offset && occurrence.span.start <= l.offset + l.text.length);
      if (name !== undefined && at !== undefined && relevant(at)) {
        return { registry: command.registry, node: run, offset: occurrence.offset, secret: name, how: 'the script passes it to the upload' };
      }
    }
    // A variable holding a secret: read by the tool itself (`NODE_AUTH_TOKEN`), or used in the script.
    const env = tokenEnvOf(step, repository);
    const byName = tokenFromEnv(step, command.tokenEnv, repository);
    const used = lines
      .filter(relevant)
      .flatMap((l) => variableUses(l.text).map((u) => env.get(u.name)))
      .find((v): v is SecretEnvVar => v !== undefined && v.secrets.some((s) => !isGithubToken(s)));
    const variable = byName ?? used;
    if (variable === undefined && !mayMintOidc(step)) {
      return { registry: command.registry, node: run, offset: valueOffsetToSource(step.owner.file, run, line.offset), secret: null, how: '' };
    }
    if (variable !== undefined) {
      const inStep = variable.level === 'step' ? expressionsOf(step.owner.file, variable.value as YScalar)[0] : undefined;
      return {
        registry: command.registry,
        node: inStep?.scalar ?? run,
        offset: inStep?.offset ?? run.start,
        secret: variable.secrets.find((s) => !isGithubToken(s)) ?? '',
        how: `the upload authenticates with \`${variable.name}\``,
      };
    }
  }
  return null;
}

const HOW_TO: Record<Registry, string> = {
  PyPI: 'register the workflow as a trusted publisher on PyPI and drop the password (`pypa/gh-action-pypi-publish` and `uv publish` use OIDC when `id-token: write` is granted)',
  npm: 'configure trusted publishing for the package on npmjs.com and drop `NODE_AUTH_TOKEN` (npm 11.5+ exchanges the OIDC token when `id-token: write` is granted)',
  'crates.io': 'configure trusted publishing for the crate on crates.io and mint a short-lived token with `rust-lang/crates-io-auth-action`',
  RubyGems: 'configure a trusted publisher on rubygems.org and use `rubygems/release-gem` (or `rubygems/configure-rubygems-credentials` without `api-token`)',
  NuGet: 'configure a trusted publishing policy on nuget.org and exchange the OIDC token with `NuGet/login`',
};

export default defineWorkflowRule({
  meta: {
    id: 'use-trusted-publishing',
    category: 'CICD-SEC-2',
    title: 'Registry token used where OIDC trusted publishing exists',
    severity: 'INFO',
    surface: 'workflow',
    description:
      'A step publishes to PyPI, npm, crates.io, RubyGems or NuGet with a long-lived registry token from a secret, although the registry accepts short-lived OIDC credentials (trusted publishing) from GitHub Actions.',
    recommendation:
      'Configure trusted publishing for the package on the registry, grant `id-token: write` to the publishing job only, and delete the token secret.',
  },
  create: (context) => ({
    step(step) {
      const evidence = fromAction(step, context.repository) ?? fromScript(step, context.repository);
      if (evidence === null) return;
      if (evidence.secret === null) {
        context.report({
          node: evidence.node,
          offset: evidence.offset,
          message: `This step publishes to ${evidence.registry} from a job that is not granted \`id-token: write\`, so it cannot be using trusted publishing: the upload authenticates with a long-lived token set up outside this step (a secret, a credentials file or an earlier login); ${evidence.registry} supports trusted publishing.`,
          recommendation: `Grant \`id-token: write\` to this job only, ${HOW_TO[evidence.registry]}, and delete the stored token.`,
        });
        return;
      }
      context.report({
        node: evidence.node,
        offset: evidence.offset,
        message: `This step publishes to ${evidence.registry} with the long-lived token \`secrets.${evidence.secret}\` (${evidence.how}); ${evidence.registry} supports trusted publishing.`,
        recommendation: `Instead of a stored token, ${HOW_TO[evidence.registry]}; then delete \`secrets.${evidence.secret}\`.`,
      });
    },
  }),
});
