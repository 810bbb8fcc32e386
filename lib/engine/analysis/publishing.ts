import type { Job, Step, Workflow } from '../model/workflow.js';
import { hasAny, scriptOf, wordMask, type WordMask } from './file-scripts.js';
import { getText, isTruthy, get, keyText } from '../yaml/model.js';
import { ScanCache } from '../model/scan-cache.js';
import { flatMap } from '../model/arrays.js';
import { visibleEnv } from './step-env.js';
import { matrixValues } from './matrix-values.js';
import { normalizeWorkspacePath, scriptCommands, workingDirectory } from './run-model/execution.js';
import { words } from '../shell.js';

export type Registry = 'npm' | 'pypi' | 'crates' | 'rubygems' | 'nuget' | 'maven' | 'container' | 'github-release' | 'other';

export interface PublishingStep {
  step: Step;
  registry: Registry;
  /** What gave it away, for finding messages: `npm publish`, `pypa/gh-action-pypi-publish` ... */
  evidence: string;
}

/**
 * Shell commands that publish a package, image or release. `needs`: words the script must contain for the
 * pattern to match, each mask at least one of its words (see file-scripts.ts), so most scripts run no pattern.
 */
const COMMANDS: { pattern: RegExp; registry: Registry; evidence: string; needs: WordMask[] }[] = [
  { pattern: /\b(npm|pnpm)\s+publish\b/, registry: 'npm', evidence: 'npm publish', needs: [wordMask('npm', 'pnpm'), wordMask('publish')] },
  { pattern: /\byarn\s+(npm\s+)?publish\b/, registry: 'npm', evidence: 'yarn publish', needs: [wordMask('yarn'), wordMask('publish')] },
  { pattern: /\bbun\s+publish\b/, registry: 'npm', evidence: 'bun publish', needs: [wordMask('bun'), wordMask('publish')] },
  { pattern: /\btwine\s+upload\b/, registry: 'pypi', evidence: 'twine upload', needs: [wordMask('twine'), wordMask('upload')] },
  {
    pattern: /\b(poetry|uv|hatch|flit|pdm)\s+publish\b/,
    registry: 'pypi',
    evidence: 'Python package publish',
    needs: [wordMask('poetry', 'uv', 'hatch', 'flit', 'pdm'), wordMask('publish')],
  },
  { pattern: /\bcargo\s+publish\b/, registry: 'crates', evidence: 'cargo publish', needs: [wordMask('cargo'), wordMask('publish')] },
  { pattern: /\bgem\s+push\b/, registry: 'rubygems', evidence: 'gem push', needs: [wordMask('gem'), wordMask('push')] },
  { pattern: /\b(dotnet\s+nuget|nuget)\s+push\b/, registry: 'nuget', evidence: 'nuget push', needs: [wordMask('nuget'), wordMask('push')] },
  // Gradle's `publishToMavenLocal` (and `publish<Name>PublicationToMavenLocal`) installs into the runner's own
  // `~/.m2`: no publish (https://docs.gradle.org/current/userguide/publishing_maven.html#publishing_maven:tasks).
  // The Maven wrapper (`./mvnw`) too, and the goal on a later line of a command continued with `\`; a deploy to a
  // directory of the runner (`-DaltDeploymentRepository=id::file://...`, a staging copy to upload as an artifact) is none.
  { pattern: /\bmvnw?\b(?!(?:[^\n]|\\\n)*-DaltDeploymentRepository=["']?[^\s"']*::file:)(?:[^\n]|\\\n)*\bdeploy\b|\bgradlew?\b(?:[^\n]|\\\n)*\bpublish\w*(?<!ToMavenLocal)\b/, registry: 'maven', evidence: 'Maven/Gradle publish', needs: [wordMask('mvn', 'mvnw', 'gradle', 'gradlew')] },
  {
    pattern: /\b(docker|podman|buildah)\s+(image\s+)?push\b|\bdocker\s+buildx\s+build\b[^\n]*--push\b/,
    registry: 'container',
    evidence: 'image push',
    needs: [wordMask('docker', 'podman', 'buildah'), wordMask('push')],
  },
  {
    // Registry tools that copy or write images straight to a registry, with no Docker daemon: regctl
    // (https://regclient.org/cli/regctl/: `image copy|import`, `manifest put`, `index create|add`, `artifact put`),
    // crane (https://github.com/google/go-containerregistry/blob/main/cmd/crane/doc/crane.md: `copy`, `push`,
    // `append`, `mutate`, `tag`, `rebase`, `flatten`, `index append`) and skopeo (`copy` to a `docker://`
    // destination, `sync --dest docker`).
    pattern:
      /\bregctl\s+(?:image\s+(?:copy|cp|import)|manifest\s+put|index\s+(?:create|add)|artifact\s+put)\b|\bcrane\s+(?:copy|cp|push|append|mutate|tag|rebase|flatten|index\s+append)\b|\bskopeo\s+copy\b[^\n]*\s\S+[ \t]+["']?docker:\/\/[^\s;&|]+["']?[ \t]*(?:$|[;&|#)])|\bskopeo\s+sync\b[^\n]*--dest[ =]+docker\b/m,
    registry: 'container',
    evidence: 'image push',
    needs: [wordMask('regctl', 'crane', 'skopeo')],
  },
  {
    // Nx release (https://nx.dev/docs/guides/nx-release/publish-in-ci-cd): `nx release publish` performs the publishing
    // step alone; `nx release` with no subcommand runs versioning, changelog and publishing (`--skip-publish`, a
    // rehearsal, skips it). The JavaScript plugin, its default, publishes to npm.
    pattern: /(?:^|[\s;&|(])nx\s+release(?:\s+publish\b|(?=[ \t]*(?:$|[;&|)#]|-)))/m,
    registry: 'npm',
    evidence: 'nx release publish',
    needs: [wordMask('nx'), wordMask('release')],
  },
  { pattern: /\bgh\s+release\s+(create|upload)\b/, registry: 'github-release', evidence: 'gh release', needs: [wordMask('gh'), wordMask('release')] },
  {
    pattern: /(?:^|[\s;&|(])goreleaser\s+(?:[^\n]*\s)?release\b/m,
    registry: 'github-release',
    evidence: 'goreleaser release',
    needs: [wordMask('goreleaser'), wordMask('release')],
  },
];

/** Any word some publishing command needs: a script with none of them publishes nothing. */
const ANY_COMMAND = wordMask('npm', 'pnpm', 'yarn', 'bun', 'twine', 'poetry', 'uv', 'hatch', 'flit', 'pdm', 'cargo', 'gem', 'nuget', 'mvn', 'mvnw', 'gradle', 'gradlew', 'docker', 'podman', 'buildah', 'regctl', 'crane', 'skopeo', 'gh', 'goreleaser', 'nx');

/**
 * Actions that publish. `when` narrows actions that publish only with some input. A map: looked up for every step
 * that calls an action, and a keyed load of a name the table lacks costs V8 more on an object.
 */
const ACTIONS: ReadonlyMap<string, { registry: Registry; when?: (step: Step) => boolean }> = new Map(Object.entries({
  'pypa/gh-action-pypi-publish': { registry: 'pypi' },
  'js-devtools/npm-publish': { registry: 'npm' },
  'changesets/action': { registry: 'npm', when: (s) => getText(s.with, 'publish') !== null },
  'rubygems/release-gem': { registry: 'rubygems' },
  'rust-lang/crates-io-auth-action': { registry: 'crates' },
  'docker/build-push-action': { registry: 'container', when: (s) => isTruthy(get(s.with, 'push')) || /\$\{\{/.test(getText(s.with, 'push') ?? '') },
  'docker/bake-action': { registry: 'container', when: (s) => isTruthy(get(s.with, 'push')) || /\$\{\{/.test(getText(s.with, 'push') ?? '') },
  'elgohr/publish-docker-github-action': { registry: 'container' },
  'redhat-actions/push-to-registry': { registry: 'container' },
  'softprops/action-gh-release': { registry: 'github-release' },
  'ncipollo/release-action': { registry: 'github-release' },
  'goreleaser/goreleaser-action': { registry: 'github-release' },
  'actions/create-release': { registry: 'github-release' },
  'svenstaro/upload-release-action': { registry: 'github-release' },
  'gradle/gradle-build-action': { registry: 'maven', when: (s) => /\bpublish\w*(?<!ToMavenLocal)\b/.test(getText(s.with, 'arguments') ?? '') },
} as Record<string, { registry: Registry; when?: (step: Step) => boolean }>));

const stepCache = new ScanCache<Step, PublishingStep | null>();
const jobCache = new ScanCache<Job, readonly PublishingStep[]>();
const workflowCache = new ScanCache<Workflow, readonly PublishingStep[]>();

/** How a step publishes, or null (read once per step: several rules ask). */
export function publishingStep(step: Step): PublishingStep | null {
  const cached = stepCache.get(step);
  if (cached !== undefined) return cached;
  const result = readPublishingStep(step);
  stepCache.set(step, result);
  return result;
}

function readPublishingStep(step: Step): PublishingStep | null {
  const script = scriptOf(step);
  if (script !== null && hasAny(script.words, ANY_COMMAND)) {
    for (const command of COMMANDS) {
      if (command.needs.every((mask) => hasAny(script.words, mask)) && command.pattern.test(script.text)) {
        return { step, registry: command.registry, evidence: command.evidence };
      }
    }
  }
  if (script !== null) {
    const signalled = publishingByEnvironment(step, script.text);
    if (signalled !== null) return signalled;
  }
  if (step.usesRef?.kind === 'repository') {
    const slug = step.usesRef.slug;
    const known = ACTIONS.get(slug);
    if (known !== undefined && (known.when?.(step) ?? true)) return { step, registry: known.registry, evidence: slug };
    if (known === undefined) return publishInput(step);
  }
  return null;
}

/** An action's input named for the command it publishes with (`publish_script`, `publish-command`, `publish`). */
const PUBLISH_INPUT = /^publish(?:[-_]?(?:script|command|cmd|run))?$/i;
const JS_TOOLS = /^(?:npm|pnpm|yarn|bun|npx)$/;

/**
 * An action the table does not know, handed the command it publishes with under an input named so
 * (`publish_script: pnpm release`, as changesets/action's `publish:` input is): a wrapper around the
 * repository's own release script, or around a registry tool's publish (`npm publish`). The input's name says
 * what the command is for; a command that runs nothing of the project by name and publishes nothing is none.
 */
function publishInput(step: Step): PublishingStep | null {
  for (const pair of step.with?.pairs ?? []) {
    const key = keyText(pair.key);
    if (!PUBLISH_INPUT.test(key) || pair.value?.kind !== 'scalar' || typeof pair.value.value !== 'string') continue;
    const text = pair.value.value.trim();
    if (text === '' || text.length > 500 || /^(?:true|false)$/i.test(text)) continue;
    const direct = COMMANDS.find((command) => command.pattern.test(text));
    const evidence = `\`${step.usesRef?.kind === 'repository' ? step.usesRef.slug : ''}\` with \`${key}: ${text.split('\n')[0]?.slice(0, 60) ?? ''}\``;
    if (direct !== undefined) return { step, registry: direct.registry, evidence };
    const run = repositoryScript(text);
    if (run === null || OTHER_NAME.test(run.name) || !PUBLISH_NAME.test(run.name)) continue;
    const tool = (words(text)[0] ?? '').replace(/^.*\//, '');
    return { step, registry: JS_TOOLS.test(tool) ? 'npm' : 'other', evidence };
  }
  return null;
}

/**
 * npm's provenance switch: npm reads its settings from `npm_config_<name>` variables whatever their case
 * (https://docs.npmjs.com/cli/v11/using-npm/config#environment-variables), and `provenance` is read only by
 * `npm publish` (and the pnpm, yarn and release tools that call it): nothing else signs a package.
 */
const NPM_PROVENANCE = /^npm_config_provenance$/i;

/**
 * Registry credentials by the variable the registry's own publishing tool reads: `NODE_AUTH_TOKEN` (the `.npmrc`
 * that actions/setup-node's `registry-url` writes), `NPM_TOKEN` (semantic-release, changesets, `.npmrc` files),
 * twine's `TWINE_PASSWORD`, `UV_PUBLISH_TOKEN`, `POETRY_PYPI_TOKEN_PYPI`, cargo's `CARGO_REGISTRY_TOKEN`,
 * RubyGems' `GEM_HOST_API_KEY`.
 */
const REGISTRY_TOKENS: ReadonlyMap<string, Registry> = new Map([
  ['NODE_AUTH_TOKEN', 'npm'],
  ['NPM_TOKEN', 'npm'],
  ['TWINE_PASSWORD', 'pypi'],
  ['UV_PUBLISH_TOKEN', 'pypi'],
  ['POETRY_PYPI_TOKEN_PYPI', 'pypi'],
  ['CARGO_REGISTRY_TOKEN', 'crates'],
  ['GEM_HOST_API_KEY', 'rubygems'],
]);

/** A name that says publish (`release`, `ci:publish`, `publish-crates.py`, `deploy`). */
const PUBLISH_NAME = /publish|release|deploy/i;
/** Parts of a name that say it does something else around a release (`release:notes`, `build:release`, `release-dry-run`). */
const OTHER_NAME = /(?:^|[-:_./\s])(?:notes?|changelog|version|bump|build|check|test|lint|dry|preview|verify|prepare|pack|draft|docs?|pages|site|storybook)(?=$|[-:_./\s])/i;

/** pnpm's and yarn's own commands: any other first word (`pnpm release`, `yarn changeset publish`) runs a script or a bin of the project. */
const PACKAGE_MANAGER_COMMANDS: Record<string, ReadonlySet<string>> = {
  pnpm: new Set([
    'add', 'i', 'install', 'it', 'install-test', 'ci', 'up', 'update', 'upgrade', 'remove', 'rm', 'uninstall', 'un', 'link', 'ln', 'unlink', 'import',
    'rebuild', 'rb', 'prune', 'fetch', 'patch', 'patch-commit', 'patch-remove', 'audit', 'list', 'ls', 'll', 'outdated', 'why', 'licenses', 'exec',
    'run', 'test', 't', 'start', 'dlx', 'create', 'publish', 'pack', 'store', 'root', 'bin', 'setup', 'init', 'deploy', 'config', 'c', 'env', 'server',
    'approve-builds', 'cat-file', 'cat-index', 'find-hash', 'self-update', 'help', 'doctor', 'recursive', 'multi', 'm', 'dedupe', 'version', 'login', 'logout', 'whoami',
  ]),
  yarn: new Set([
    'add', 'install', 'up', 'upgrade', 'remove', 'run', 'test', 'start', 'dlx', 'exec', 'npm', 'pack', 'publish', 'version', 'config', 'cache',
    'init', 'info', 'why', 'link', 'unlink', 'set', 'plugin', 'node', 'bin', 'workspaces', 'constraints', 'dedupe', 'explain', 'patch', 'patch-commit',
    'rebuild', 'stage', 'unplug', 'check', 'audit', 'list', 'outdated', 'global', 'login', 'logout', 'owner', 'tag', 'team', 'help', 'import', 'licenses', 'policies', 'generate-lock-entry',
  ]),
};

/** Options of pnpm, yarn, npm and make that take the next word as their value. */
const VALUE_OPTIONS = new Set(['--filter', '-F', '-C', '--dir', '--prefix', '--workspace', '-w', '-f', '--file', '--makefile', '--directory', '--cwd', '--justfile', '--working-directory', '-d', '--taskfile', '-t']);
/** Programs that run the script file named after their options. */
const FILE_RUNNERS = new Set(['bash', 'sh', 'zsh', 'pwsh', 'python', 'python3', 'node', 'ruby', 'perl', 'deno', 'bun', 'tsx', 'ts-node', 'zx']);

/** The words after index `from` that are not options, the value of an option that takes one skipped. */
function operands(list: readonly string[], from: number): string[] {
  const result: string[] = [];
  for (let i = from; i < list.length && result.length < 4; i++) {
    const word = list[i] ?? '';
    if (word === '--') break;
    if (word.startsWith('-')) {
      if (!word.includes('=') && VALUE_OPTIONS.has(word)) i++;
      continue;
    }
    // A value taken at run time (`${{ inputs.tag }}`, `$TAG`) names nothing.
    if (/[${}]/.test(word)) continue;
    result.push(word);
  }
  return result;
}

/**
 * What a command runs of the repository's own, by name, or null: a package script or a bin of the project
 * (`npm run release`, `pnpm release`, `pnpm run ci:publish`, `yarn changeset publish`, `bun run release`, `npx
 * semantic-release`, `pnpm exec changeset publish`), a task runner's target (`make -C sdk publish`, `just release`)
 * or a script file (`./publish.py`, `python3 scripts/publish-crates.py`, `bash release.sh`). `name` is what says
 * what it does (the script, the bin and its first words, the targets, the file's name); `text` the command as
 * far as the name, for messages.
 */
function repositoryScript(command: string): { name: string; text: string } | null {
  // An expression is one word of run-time value (`make ${{ matrix.target }}` names no target).
  const list = words(command.replace(/\$\{\{[^}\n]*\}\}/g, '$EXPR'));
  let at = 0;
  while (at < list.length && (/^[A-Za-z_]\w*=/.test(list[at] ?? '') || list[at] === 'sudo' || list[at] === 'env')) at++;
  const program = list[at] ?? '';
  const tool = program.replace(/^.*\//, '');
  const named = (name: string[], upTo: number) => (name.length === 0 ? null : { name: name.join(' '), text: list.slice(at, Math.min(upTo, list.length)).join(' ').slice(0, 80) });
  const rest = operands(list, at + 1);
  const after = (word: string | undefined) => (word === undefined ? list.length : list.indexOf(word, at + 1) + 1);
  switch (tool) {
    case 'npm':
    case 'bun':
      // A script's name alone (what follows are its arguments); a bin's name and its first operand (`exec changeset publish`).
      if (rest[0] === 'run' || rest[0] === 'run-script') return named(rest.slice(1, 2), after(rest[1]));
      if (rest[0] === 'exec' || rest[0] === 'x') return named(rest.slice(1, 3), after(rest[2] ?? rest[1]));
      // `bun scripts/release.ts` runs a file, read below; npm's other commands run no script of the project by name.
      if (tool === 'npm') return null;
      break;
    case 'pnpm':
    case 'yarn': {
      const commands = PACKAGE_MANAGER_COMMANDS[tool] as ReadonlySet<string>;
      const first = rest[0];
      if (first === undefined) return null;
      if (first === 'run') return named(rest.slice(1, 2), after(rest[1]));
      if (first === 'exec' || first === 'dlx') return named(rest.slice(1, 3), after(rest[2] ?? rest[1]));
      // `yarn workspace <name> <script>`: the script of one workspace.
      if (tool === 'yarn' && first === 'workspace') return named(rest.slice(2, 3), after(rest[2]));
      return commands.has(first) ? null : named(rest.slice(0, 2), after(rest[1] ?? first));
    }
    case 'npx':
    case 'pnpx':
    case 'bunx':
      return named(rest.slice(0, 2), after(rest[1] ?? rest[0]));
    case 'make':
    case 'gmake':
    case 'just':
    case 'task':
      return named(rest.filter((w) => !w.includes('=')), list.length);
    default:
      break;
  }
  // `python3 scripts/publish.py`, `deno run -A tools/release.ts`: the first operand that is a path.
  const file = FILE_RUNNERS.has(tool) ? rest.find((w, i) => /[/.]/.test(w) || (i === 0 && w !== 'run')) : undefined;
  if (file !== undefined && /[/.]/.test(file)) return named([file.replace(/^.*\//, '')], after(file));
  if (program.startsWith('./') || (program.includes('/') && /\.(?:sh|py|js|mjs|cjs|ts|mts|rb|pl)$/.test(program))) return named([tool], at + 1);
  return null;
}

/** True for an `env:` value that may hold something: a literal other than empty or false, or an expression. */
function setValue(value: string | null, falsy: RegExp): boolean {
  if (value === null) return false;
  const text = value.trim();
  return text.includes('${{') || (text !== '' && !falsy.test(text));
}

/**
 * A `run:` step that publishes through a script of the repository, told by its environment, or null:
 * - npm provenance on (`NPM_CONFIG_PROVENANCE: true`, or an expression) in the step's own `env:` with any
 *   script or bin of the project (`pnpm run release`, `pnpm changelogen --publish`, `npx semantic-release`):
 *   only `npm publish` reads it, so the step publishes to npm through whatever it runs; set by the job or the
 *   workflow, with a script named for publishing (`release`, `publish`, `deploy`), since every step sees it there;
 * - a registry credential (`REGISTRY_TOKENS`) in the step's own `env:` with a script named for publishing
 *   (`npm run publish`, `make publish`, `./publish.py`). A token given to the job or workflow (installs of
 *   private packages read it too), or to a step that runs `npm ci`, `npm deprecate` or tests, says nothing.
 * Names that say something else around a release (`release:notes`, `build:release`, `release:dry-run`) do not count.
 */
function publishingByEnvironment(step: Step, script: string): PublishingStep | null {
  const own = step.env;
  let token: { name: string; registry: Registry } | null = null;
  for (const pair of own?.pairs ?? []) {
    const name = keyText(pair.key);
    const registry = REGISTRY_TOKENS.get(name);
    if (token === null && registry !== undefined && setValue(getText(own, name), /^$/)) token = { name, registry };
  }
  // The provenance setting the step sees (its own over its job's over its workflow's), and whether it is its own.
  let provenance: 'step' | 'job' | null = null;
  for (const [name, value] of visibleEnv(step, (scope, _, key) => (NPM_PROVENANCE.test(key) ? (getText(scope, key) ?? '') : undefined))) {
    if (setValue(value, /^(?:false|0|no|off)$/i)) provenance = getText(own, name) !== null ? 'step' : 'job';
  }
  if (provenance === null && token === null) return null;
  let fallback: { name: string; text: string } | null = null;
  let found: { name: string; text: string } | null = null;
  for (const { text } of scriptCommands(script, null)) {
    const run = repositoryScript(text);
    if (run === null || OTHER_NAME.test(run.name)) continue;
    if (PUBLISH_NAME.test(run.name)) {
      found = run;
      break;
    }
    fallback ??= run;
  }
  if (provenance === 'step' && (found ?? fallback) !== null) {
    return { step, registry: 'npm', evidence: `\`${(found ?? fallback)?.text ?? ''}\` with NPM_CONFIG_PROVENANCE` };
  }
  if (found === null) return null;
  if (provenance === 'job') return { step, registry: 'npm', evidence: `\`${found.text}\` with NPM_CONFIG_PROVENANCE` };
  if (token !== null) return { step, registry: token.registry, evidence: `\`${found.text}\` with ${token.name}` };
  return null;
}

/** The publishing steps of a job, in order (read once per job). */
export function publishingSteps(job: Job): readonly PublishingStep[] {
  let result = jobCache.get(job);
  if (result === undefined) {
    result = flatMap(job.steps, (s) => {
      const p = publishingStep(s);
      return p === null ? [] : [p];
    });
    jobCache.set(job, result);
  }
  return result;
}

/** Every publishing step of a workflow, in file order (read once per workflow). */
export function workflowPublishingSteps(workflow: Workflow): readonly PublishingStep[] {
  let result = workflowCache.get(workflow);
  if (result === undefined) {
    result = flatMap(workflow.jobs, (job) => publishingSteps(job));
    workflowCache.set(workflow, result);
  }
  return result;
}

/** Triggered by tags or releases: `push: tags`, `release`, or `registry_package`. */
export function isReleaseTriggered(workflow: Workflow): boolean {
  return workflow.triggers.some(
    (t) => t.name === 'release' || t.name === 'registry_package' || (t.name === 'push' && get(t.config, 'tags') !== undefined),
  );
}

/** Flags and targets other than a dry run that make a publish command a rehearsal: nothing reaches a real registry. */
const REHEARSAL = /--skip[-=]publish\b|\bgoreleaser\s+(check|build)\b|\b(localhost|127\.0\.0\.1)(:\d+)?\b|\bttl\.sh\b/;

/**
 * `--dry-run` (npm, pnpm, yarn, nx release, cargo, ...) or goreleaser's `--snapshot`, with the value written after
 * it: `=value`, or (`--dry-run` only) the next word, an expression `${{ ... }}` kept whole.
 */
const REHEARSAL_FLAG = /--(dry-run|snapshot)\b(?:=(\$\{\{[^}\n]{0,300}\}\}|"[^"\n]{0,300}"|'[^'\n]{0,300}'|[^\s;&|)]{0,300})|[ \t]+(\$\{\{[^}\n]{0,300}\}\}|"[^"\n]{0,300}"|'[^'\n]{0,300}'|[^\s;&|)]{1,300}))?/g;

/** The literal `env:` values a step sees (workflow, then job, then step); values holding an expression are left out. */
export function literalEnv(step: Step): Map<string, string> {
  return visibleEnv(step, (scope, _, name) => {
    const value = getText(scope, name);
    return value === null || value.includes('${{') ? undefined : value;
  });
}

/** The `env:` values a step sees as written (workflow, then job, then step), expressions kept; an empty value is ''. */
function writtenEnv(step: Step): Map<string, string> {
  return visibleEnv(step, (scope, _, name) => getText(scope, name) ?? '');
}

/**
 * True when a command line rehearses by a flag whose value is a literal true: `--dry-run`, `--dry-run=true`,
 * `--dry-run true`, goreleaser `--snapshot`. A literal false (`--dry-run=false`) publishes, and so does a value
 * taken at run time (`--dry-run="$DRY_RUN"`, `--dry-run=${{ inputs.dry_run }}`): on the runs where it is false the
 * command publishes, so the job can publish. A variable whose `env:` value is a literal is read as that literal.
 * A word after a bare `--dry-run` that is no true/false (`npm publish --dry-run pkg/`) is an operand: the flag is
 * on; a variable there counts as the flag's value only when its name says dry run (`--dry-run $DRY_RUN`).
 */
export function rehearsalFlagOn(text: string, env: ReadonlyMap<string, string> = new Map(), snapshot = true): boolean {
  for (const match of text.matchAll(REHEARSAL_FLAG)) {
    if (!snapshot && match[1] === 'snapshot') continue;
    const attached = match[2];
    const next = match[1] === 'dry-run' ? match[3] : undefined;
    if (flagValueOn(attached ?? next, attached !== undefined, env)) return true;
  }
  return false;
}

function flagValueOn(written: string | undefined, attached: boolean, env: ReadonlyMap<string, string>): boolean {
  if (written === undefined) return true;
  let value = written.trim().replace(/^"([^"]*)"$|^'([^']*)'$/, (_, a?: string, b?: string) => a ?? b ?? '').trim();
  const variable = /^\$\{\{\s*env\.(\w+)\s*\}\}$|^\$\{(\w+)\}$|^\$(\w+)$/.exec(value);
  if (variable !== null) {
    const name = variable[1] ?? variable[2] ?? variable[3] ?? '';
    const literal = env.get(name);
    if (literal !== undefined) value = literal.trim();
    else return !attached && !/dry/i.test(name);
  } else if (value.includes('$')) {
    // An expression or a shell expansion: known at run time only.
    return !attached && !/dry/i.test(value);
  }
  if (/^(?:false|0|no|off)$/i.test(value)) return false;
  if (/^(?:true|1|yes|on)$/i.test(value)) return true;
  // `=` with no value, or an unknown literal after `=`, is not read as a rehearsal; an operand after a space is.
  return !attached;
}

/**
 * True when a script or argument line rehearses: a rehearsal flag that is on, or a rehearsal target. `snapshot`:
 * whether `--snapshot` counts, which is goreleaser's rehearsal only (`changeset version --snapshot` makes a
 * snapshot release that `changeset publish` then publishes).
 */
function rehearses(text: string, env: ReadonlyMap<string, string>, snapshot = true): boolean {
  return REHEARSAL.test(text) || rehearsalFlagOn(text, env, snapshot);
}

/**
 * Images a registry container runs from (Docker's `registry`, the CNCF `distribution`, zot): a service of the
 * job made from one is a registry the job itself started, thrown away with the job.
 */
const REGISTRY_IMAGE = /^(?:(?:docker\.io\/)?(?:library\/)?registry|(?:ghcr\.io\/|docker\.io\/)?distribution\/distribution|ghcr\.io\/project-zot\/zot(?:-linux-\w+)?|(?:docker\.io\/)?kindest\/registry)(?::[^@\s]*)?(?:@\S+)?$/i;

/** The names of the job's service containers that run a registry (`services: { registry: { image: registry:2 } }`). */
export function registryServices(job: Job | null): string[] {
  if (job === null) return [];
  const names: string[] = [];
  for (const pair of job.services?.pairs ?? []) {
    const image = pair.value.kind === 'scalar' ? getText(job.services, keyText(pair.key)) : getText(pair.value, 'image');
    if (image !== null && REGISTRY_IMAGE.test(image.trim())) names.push(keyText(pair.key).toLowerCase());
  }
  return names;
}

/**
 * True when an image reference (`localhost:5000/app:1`, `registry:5000/app`) names a registry the job itself
 * runs or a throwaway one: a host on the runner (`localhost`, `127.x`, `0.0.0.0`, `[::1]`), `ttl.sh`, `kind-registry`,
 * or a registry service container of the job, by its name.
 */
export function scratchRegistryReference(reference: string, services: readonly string[]): boolean {
  const host = (reference.trim().replace(/^["']|["']$/g, '').replace(/^(?:docker|oci):\/\//, '').split('/')[0] ?? '').toLowerCase();
  if (!reference.includes('/')) return false;
  // The port as a number or as an expression (`localhost:${{ job.services.registry.ports[5000] }}`).
  const name = host.replace(/:(?:\d+|\$\{\{[^}]*\}\})$/, '');
  return /^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\]|ttl\.sh|kind-registry)$/.test(name) || services.includes(name);
}

/** The literal values of the environment variables a script names (the step's, its job's, its workflow's `env:`). */
function referencedEnv(step: Step, script: string): string[] {
  const values: string[] = [];
  // The names the script expands (`$NAME`, `${NAME}`), read once: a name counts when it is a whole word there.
  const named = new Set<string>();
  for (const m of script.matchAll(/\$\{?(\w+)/g)) named.add(m[1] ?? '');
  for (const env of [step.env, step.job?.env, step.job?.workflow.env]) {
    for (const pair of env?.pairs ?? []) {
      const name = keyText(pair.key);
      if (!named.has(name)) continue;
      const value = getText(env, name);
      if (value !== null) values.push(value);
    }
  }
  return values;
}

/** Container pushes, by the image words they push (`docker push X`, `podman push X DEST`, `-t X` with `--push`). */
const PUSHED_IMAGE = /\b(docker|podman|buildah)\s+(?:image\s+)?push\s+(?:--?\S+\s+)*((?:\$\{\{[^}\n]*\}\}|[^\s;&|])+)(?:[ \t]+((?:\$\{\{[^}\n]*\}\}|[^\s;&|#<>\\-])(?:\$\{\{[^}\n]*\}\}|[^\s;&|])*))?/g;

/**
 * True when every image a container-pushing script pushes goes to a registry the job itself started or a
 * throwaway one (`scratchRegistryReference`), its variables read from the `env:` the step sees; false when one
 * goes elsewhere; null when the script names no pushed image the scan can read.
 */
function scriptPushesToScratch(step: Step, script: string, services: readonly string[]): boolean | null {
  // `podman push SOURCE DESTINATION` (and buildah's): the image goes to the destination.
  const targets = [...script.matchAll(PUSHED_IMAGE)].map((m) => (m[1] !== 'docker' ? m[3] : undefined) ?? m[2] ?? '');
  // `docker buildx build --push -t X`: the tags of a building line that pushes.
  for (const line of script.replace(/\\\r?\n/g, ' ').split('\n')) {
    if (/\bbuildx\s+build\b/.test(line) && /\s--push\b|type=registry|push=true/.test(line)) for (const m of line.matchAll(/(?:^|\s)(?:-t|--tag)[=\s]+((?:\$\{\{[^}]*\}\}|\S)+)/g)) targets.push(m[1] ?? '');
  }
  if (targets.length === 0) return null;
  const env = writtenEnv(step);
  const expand = (word: string) => word.replace(/\$\{\{\s*env\.(\w+)\s*\}\}|\$\{(\w+)\}|\$(\w+)/g, (all, a?: string, b?: string, c?: string) => env.get(a ?? b ?? c ?? '') ?? all);
  // The script's own assignments of a literal (`IMAGE=localhost:5000/app:ci`, `export IMAGE="$REGISTRY/app"`),
  // read in order; a name assigned twice is dropped (which value a push sees is not followed).
  const assigned = new Set<string>();
  for (const m of script.matchAll(/^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)=("[^"\n$`]*(?:\$\{?\w+\}?[^"\n$`]*)*"|'[^'\n]*'|[^\s;&|$`'"]*(?:\$\{?\w+\}?[^\s;&|$`'"]*)*)[ \t]*(?:$|;|#)/gm)) {
    const name = m[1] ?? '';
    if (assigned.has(name)) env.delete(name);
    else env.set(name, expand((m[2] ?? '').replace(/^["']|["']$/g, '')));
    assigned.add(name);
  }
  return targets.every((t) => scratchRegistryReference(expand(t.replace(/["']/g, '')), services));
}

/**
 * False for publishing steps that only rehearse: `npm publish --dry-run`, `cargo publish --dry-run`,
 * goreleaser `--snapshot`/`check`/`build`/`install-only`, pushes to a registry on the runner itself, to a
 * registry service container of the job (`services: { registry: { image: registry:2 } }`) or to the throwaway
 * `ttl.sh` (named in the script or in the `env:` values it reads), and image build actions whose every tag goes
 * to such a registry. A registry the job started is gone when the job ends: nothing is published. The evidence of
 * `publishingStep` is kept as it is; callers that care about real releases (provenance, signing) filter with this.
 */
export function publishesForReal(p: PublishingStep): boolean {
  return publishesForRealIn(p, p.step.job);
}

/** `publishesForReal` for a step run in `job` (the calling job, for a step of a composite action). */
export function publishesForRealIn(p: PublishingStep, job: Job | null): boolean {
  // A step of a composite action has no job of its own: the services are those of the job that calls it.
  const services = registryServices(job);
  if (typeof p.step.run?.value === 'string') {
    const script = p.step.run.value;
    // An image push is judged by where each image goes: a push to the runner's registry beside a real one still publishes.
    if (p.registry === 'container') {
      const scratch = scriptPushesToScratch(p.step, script, services);
      if (scratch !== null) return !scratch;
    }
    const env = literalEnv(p.step);
    const snapshot = p.evidence === 'goreleaser release';
    // A flag held in a variable (`FLAGS: --dry-run`) counts when its `env:` value is a literal.
    return !(rehearses(script, env, snapshot) || referencedEnv(p.step, script).some((v) => !v.includes('${{') && rehearses(v, env, snapshot)));
  }
  if (p.evidence === 'goreleaser/goreleaser-action' && isTruthy(get(p.step.with, 'install-only'))) return false;
  if (p.evidence === 'goreleaser/goreleaser-action') {
    const args = getText(p.step.with, 'args') ?? '';
    return !rehearses(args, literalEnv(p.step)) && !/^\s*(check|build)\b/.test(args);
  }
  if (p.evidence === 'docker/build-push-action' || p.evidence === 'redhat-actions/push-to-registry' || p.evidence === 'docker/bake-action') {
    const targets =
      p.evidence === 'docker/build-push-action' ? imageTargets(p.step) : p.evidence === 'docker/bake-action' ? bakeTargets(p.step) : [`${getText(p.step.with, 'registry') ?? ''}/x`];
    if (targets.length > 0 && targets.every((t) => scratchRegistryReference(t, services))) return false;
  }
  return true;
}

/**
 * True for a step whose `tags` output names tags of the images its `images:` input lists: `docker/metadata-action`,
 * or a local action (`uses: ./`, `uses: ./path`) given `images:`, which is the repository's own metadata action or
 * one wrapping docker/metadata-action (no other kind of action takes an `images:` input and outputs `tags`).
 */
export function isMetadataStep(step: Step): boolean {
  const ref = step.usesRef;
  if (ref?.kind === 'repository') return ref.slug === 'docker/metadata-action';
  return ref?.kind === 'local' && get(step.with, 'images') !== undefined;
}

/**
 * The images a metadata step (`isMetadataStep`) of the job with id `id` names (`images:`, one a line or
 * comma-separated, `name=` forms read), its `${{ env.X }}` and `${{ matrix.x }}` read as `expandImage` does: the
 * tags it outputs are of these images. Null when there is no such step.
 */
function metadataImages(step: Step, id: string): string[] | null {
  const meta = step.job?.steps.find((s) => s.id === id && isMetadataStep(s));
  if (meta === undefined) return null;
  const env = writtenEnv(meta);
  const images = (getText(meta.with, 'images') ?? '').split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const names = flatMap(images, (line) => expandImage((/(?:^|,)\s*name=([^,\s]+)/.exec(line)?.[1] ?? line.split(',')[0] ?? '').trim(), env, meta.job));
  // A name with a blank in it (two images folded onto one line) is not read; the blanks inside an expression
  // (`ttl.sh/app-${{ steps.uuid.outputs.uuid }}`) are the expression's own.
  return names.some((n) => /\s/.test(n.replace(/\$\{\{[^}]*\}\}/g, 'x'))) ? null : names;
}

/** `${{ matrix.x }}` in an image word. */
const MATRIX_EXPRESSION = /\$\{\{\s*matrix\.([\w-]+)\s*\}\}/g;
/** At most this many values for one image word once its matrix values are put in. */
const MAX_IMAGE_VALUES = 16;

/**
 * The values an image word takes: `${{ env.X }}` replaced by the `env:` the step sees (`env`), then each
 * `${{ matrix.x }}` by every value the job's matrix gives it (kept as written when the matrix is computed).
 */
function expandImage(word: string, env: ReadonlyMap<string, string>, job: Job | null): string[] {
  const text = word.replace(/\$\{\{\s*env\.(\w+)\s*\}\}/g, (all, name: string) => env.get(name) ?? all);
  if (!text.includes('matrix.')) return [text];
  let values = [text];
  for (const m of text.matchAll(MATRIX_EXPRESSION)) {
    const known = matrixValues(job, m[1] ?? '');
    if (known === null || known.length === 0) continue;
    values = flatMap(values, (v) => known.map((k) => v.replace(m[0], k.trim()))).slice(0, MAX_IMAGE_VALUES);
  }
  return values;
}

/** The images of a `docker/bake-action` step whose `set:` overrides every target's tags (`*.tags=...`); empty otherwise. */
function bakeTargets(step: Step): string[] {
  return [...(getText(step.with, 'set') ?? '').matchAll(/(?:^|[\s,])\*\.tags=([^\s,]+)/g)].map((m) => m[1] ?? '');
}

/** The images a `docker/build-push-action` step pushes: its `tags`, and the `name=` of a registry `outputs`. */
function imageTargets(step: Step): string[] {
  const env = writtenEnv(step);
  // `tags: ${{ steps.meta.outputs.tags }}`: the tags of the images a metadata step of the job names.
  const tags = (getText(step.with, 'tags') ?? '').split(/[\n,]+/).map((t) => t.trim()).filter((t) => t !== '').flatMap((t) => {
    const id = /^\$\{\{\s*steps\.([\w-]+)\.outputs\.tags\s*\}\}$/.exec(t)?.[1];
    return (id === undefined ? null : metadataImages(step, id)) ?? [t];
  });
  const outputs = [...(getText(step.with, 'outputs') ?? '').matchAll(/\bname=([^,\s]+)/g)].map((m) => m[1] ?? '');
  return flatMap([...tags, ...outputs], (t) => expandImage(t, env, step.job));
}

/** goreleaser's flags that delete its `dist` directory before it builds: `--clean`, and `--rm-dist` of releases before v2. */
const GORELEASER_CLEAN = /(?:^|\s)--(?:clean|rm-dist)(?:=true)?(?=\s|$)/;

/**
 * The workspace directory a goreleaser publishing step deletes before it builds anything, or null. `goreleaser
 * release --clean` (`--rm-dist` before v2) removes the `dist` directory (https://goreleaser.com/cmd/goreleaser_release/:
 * "--clean  Removes the 'dist' directory"; `dist`, https://goreleaser.com/customization/general/dist/, is `./dist`
 * unless `.goreleaser.yaml` says otherwise, a file the scan does not read) in the directory it runs in: the
 * action's `workdir` (default `.`), or the step's working directory for a script that does not change it first.
 * Null for any other publishing step, a run that keeps `dist`, or a directory the scan cannot read.
 */
export function goreleaserCleanDirectory(p: PublishingStep): string | null {
  if (p.evidence === 'goreleaser/goreleaser-action') {
    if (!GORELEASER_CLEAN.test(getText(p.step.with, 'args') ?? '')) return null;
    const workdir = normalizeWorkspacePath(getText(p.step.with, 'workdir') ?? '');
    return workdir === null ? null : joinWorkspace(workdir, 'dist');
  }
  if (p.evidence !== 'goreleaser release' || typeof p.step.run?.value !== 'string') return null;
  // Continued lines read as one.
  const script = p.step.run.value.replace(/\\\r?\n/g, ' ');
  const line = script.split('\n').find((l) => /(?:^|[\s;&|(])goreleaser\s/.test(l) && /\brelease\b/.test(l));
  // A script that changes directory (before the command or on its line) runs it somewhere the scan does not follow.
  if (line === undefined || !GORELEASER_CLEAN.test(line) || /(?:^|[\s;&|(])(?:cd|pushd)\s/m.test(script.slice(0, script.indexOf(line) + line.length))) return null;
  const cwd = workingDirectory(p.step);
  return cwd === null ? null : joinWorkspace(cwd, 'dist');
}

function joinWorkspace(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/** `gh release create` options that take a value (the rest of its options are flags). */
const GH_RELEASE_VALUE_OPTIONS = new Set(['-t', '--title', '-n', '--notes', '-F', '--notes-file', '--target', '-R', '--repo', '--discussion-category', '--notes-start-tag', '--fail-on-no-commits']);

/** The words of a command line after `gh release create`, lines joined at `\`, quotes kept together. */
function ghReleaseCreateArgs(script: string): string[][] {
  const joined = script.replace(/\\\r?\n/g, ' ');
  const result: string[][] = [];
  for (const match of joined.matchAll(/\bgh\s+release\s+create\b([^\n;&|]{0,2000})/g)) {
    result.push([...(match[1] ?? '').matchAll(/"(?:[^"\\]|\\.)*"|'[^']*'|\S+/g)].map((m) => m[0]));
  }
  return result;
}

/**
 * True when a publishing step ships files a build produced, not only a tag or a release of the source: every
 * registry upload does; a GitHub release only with assets (`gh release create <tag> <files>`, `gh release
 * upload`, `files:` of softprops/action-gh-release, `artifacts:` of ncipollo/release-action, goreleaser,
 * svenstaro/upload-release-action). `gh release create v1 --generate-notes` and `actions/create-release`
 * publish the tagged source, which GitHub archives itself: no cache entry reaches it.
 */
export function shipsBuild(p: PublishingStep): boolean {
  if (p.registry !== 'github-release') return true;
  const script = p.step.run?.value;
  if (typeof script === 'string') {
    if (/\bgh\s+release\s+upload\b|\bgoreleaser\b/.test(script)) return true;
    return ghReleaseCreateArgs(script).some((args) => {
      const positional: string[] = [];
      for (let i = 0; i < args.length; i++) {
        const word = args[i] as string;
        if (word.startsWith('-')) {
          if (!word.includes('=') && GH_RELEASE_VALUE_OPTIONS.has(word)) i++;
          continue;
        }
        positional.push(word);
      }
      // The first is the tag; anything after it is an asset.
      return positional.length > 1;
    });
  }
  switch (p.evidence) {
    case 'softprops/action-gh-release':
      return get(p.step.with, 'files') !== undefined;
    case 'ncipollo/release-action':
      return get(p.step.with, 'artifacts') !== undefined;
    case 'actions/create-release':
      return false;
    default:
      return true;
  }
}
