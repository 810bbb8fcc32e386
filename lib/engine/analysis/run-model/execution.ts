/**
 * What a step executes, and from where: each command of a `run:` script with the directory it runs in (the
 * step's `working-directory`, the job's or workflow's `defaults.run.working-directory`, and any `cd` before it),
 * a script file by its path, a build tool in its project directory, a local action by its directory, an action
 * that builds or runs the project in a directory it is given. Registry packages (`npm install -g x`, `npx x`,
 * `pip install x`, `go install x@v`) run code from the registry, not from the workspace (`npx x` and `bunx x`
 * keep the directory they run in as `resolvesFrom`: a package installed there comes first). `python -m <module>`
 * (after any options) runs a module, imported from the working directory first, never a file named like it; a
 * tool module (`venv`, `http.server`) runs nothing of the project. The virtual environments a script creates
 * (`stepVenvs`) let the run model drop the sourcing of their activate scripts, which the tool wrote. Each execution names its command as written
 * (`python3 -m pytest`, `make ${{ matrix.target }}`: an expression argument whole, up to 60 characters).
 *
 * Paths are relative to the workspace (`''` is the workspace itself); null when they cannot be placed
 * (a variable, an absolute path outside the workspace, `..` above it).
 */
import type { Step } from '../../model/workflow.js';
import { commandName, logicalLines, pipelines, words } from '../../shell.js';
import { get, getText, isTruthy, type YNode } from '../../yaml/model.js';
import { ScanCache } from '../../model/scan-cache.js';
import { agentCommands, agentGate, scriptAgentCommands, scriptAgents, stepAgent } from '../agent-input.js';
import type { AgentAction } from '../../data/agent-actions.js';
import { secretEnv, valueSecrets } from '../secrets.js';

export type ExecutionKind =
  /** A build tool, package manager, test runner or linter that runs the project in `path` (a directory). */
  | 'project'
  /** A script or program file at `path`. */
  | 'file'
  /** A local action (`uses: ./dir`): the action's code in directory `path`. */
  | 'local-action'
  /** A package fetched from a registry and run (`npm install -g`, `npx pkg`, `pip install pkg`): not the workspace's code. */
  | 'registry';

export interface Execution {
  step: Step;
  kind: ExecutionKind;
  /** `npm ci`, `python tools/x.py`, `local action ./.github/actions/setup`, `docker/build-push-action` */
  evidence: string;
  /** Directory (project, local-action) or file (file) relative to the workspace; null: outside it or unknown. */
  path: string | null;
  /** Offset of the command in the step's script (value offset), for scripts. */
  offset?: number;
  /**
   * For a package runner that runs a package installed in its project first (`npx x`, `bunx x`: `node_modules/.bin`
   * of the nearest `package.json` before the registry), the directory it runs in; null when not known.
   */
  resolvesFrom?: string | null;
  /**
   * For a command an AI coding agent runs (agent-input.ts `agentCommands`): the agent's action runs only for an
   * actor with write access, in words. What the command runs then runs on a maintainer's act (a comment, a
   * label), not on an outsider's.
   */
  startedBy?: string;
  /**
   * For a task runner (`make`, `just`, `task`): the file its recipes are read from (`Makefile`), which the scan
   * does not read, so what the target runs is not known: a build or a test of the project, or a command that
   * runs none of its dependencies' code (`go mod tidy`).
   */
  recipes?: string;
  /**
   * For a container image build (containers.ts `containerBuild`: docker/build-push-action, docker/bake-action,
   * `docker build`, `docker buildx build`, `docker compose build`): what the build is given. Its commands (the
   * Dockerfile's `RUN`) run in a build container, not on the runner: they get none of the job's token, secrets,
   * OIDC or files outside the build context, only what the build is handed. Absent for every other execution.
   */
  build?: ContainerBuild;
}

/** What a container image build is handed (`Execution.build`). */
export interface ContainerBuild {
  /** Stored secrets handed to the build (build arguments, build secrets, `secret-envs`), in order. */
  secrets: readonly string[];
  /** The job's `GITHUB_TOKEN` is handed to the build (`github.token` in a build argument or secret). */
  token: boolean;
  /** The build pushes the image it built (`push: true`, `--push`, a registry output), with the tags as written. */
  push: { tags: readonly string[] } | null;
}

/** `docker buildx` subcommands that run no Dockerfile: they manage builders or read and copy pushed images. */
const BUILDX_NO_BUILD = new Set(['imagetools', 'ls', 'create', 'use', 'inspect', 'rm', 'prune', 'du', 'stop', 'version', 'history']);

/** Task runners, and the file (in words) their recipes come from. */
const TASK_RUNNERS: Record<string, string> = { make: 'Makefile', gmake: 'Makefile', just: 'justfile', task: 'Taskfile' };

/**
 * Programs that run code or configuration from their working directory: build tools, package managers
 * (install scripts, lockfile sources), test runners and linters with executable configuration. Sources:
 * BoostSecurity's "Living off the Pipeline" catalogue and CodeQL's poisonable-commands model.
 */
const BUILD_TOOLS = new Set([
  'make', 'gmake', 'cmake', 'ninja', 'meson', 'bazel', 'bazelisk', 'buck', 'buck2', 'just', 'task', 'scons',
  'npm', 'pnpm', 'yarn', 'bun', 'deno', 'tsx', 'ts-node', 'lerna', 'nx', 'turbo',
  'pip', 'pip3', 'pipx', 'poetry', 'pdm', 'uv', 'hatch', 'tox', 'nox', 'pytest', 'py.test', 'pre-commit', 'mypy', 'pylint',
  'sphinx-build', 'mkdocs', 'asv', 'maturin',
  'cargo', 'cross', 'rustc',
  'go', 'goreleaser', 'golangci-lint', 'mage',
  'mvn', 'mvnw', 'gradle', 'gradlew', 'ant', 'sbt', 'lein', 'clojure', 'kotlinc',
  'dotnet', 'msbuild', 'nuget',
  'bundle', 'bundler', 'rake', 'rails', 'rubocop', 'pod', 'fastlane',
  'composer', 'phpunit', 'phpstan',
  'swift', 'xcodebuild', 'flutter', 'dart', 'mix', 'rebar3', 'cabal', 'stack', 'zig',
  'eslint', 'prettier', 'stylelint', 'jest', 'vitest', 'mocha', 'babel', 'webpack', 'webpack-cli', 'vite', 'rollup', 'esbuild', 'playwright', 'cypress',
  'commitlint',
  'terraform', 'tofu', 'terragrunt', 'tflint', 'checkov', 'docker-compose',
]);
/**
 * Registry packages that load their configuration as code from the directory they run in, so `npx prettier`
 * runs the workspace's `prettier.config.js` even though the program itself comes from the registry. Sources:
 * each tool's configuration docs: prettier (`prettier.config.js`, `.prettierrc.js`, plugins), ESLint
 * (`eslint.config.js`, `.eslintrc.js`), Stylelint (`stylelint.config.js`), Jest (`jest.config.js`), Vitest and
 * Vite (`vite.config.ts`, `vitest.config.ts`), Mocha (`.mocharc.js`), Babel (`babel.config.js`), webpack
 * (`webpack.config.js`), Rollup (`rollup.config.js`), Playwright (`playwright.config.ts`), Cypress
 * (`cypress.config.js`), commitlint (`commitlint.config.js`). Not `tsc`: `tsconfig.json` is data, and the
 * compiler does not run the code it compiles.
 */
const CONFIG_AS_CODE_PACKAGES = new Set([
  'prettier', 'eslint', 'stylelint', 'jest', 'vitest', 'vite', 'mocha', '@babel/cli', 'babel-cli', 'webpack', 'webpack-cli',
  'rollup', 'playwright', '@playwright/test', 'cypress', '@commitlint/cli', 'commitlint',
]);
/** Packages that run the script file they are given (`npx tsx scripts/x.ts`). */
const SCRIPT_RUNNERS = new Set(['tsx', 'ts-node', 'zx', 'babel-node', '@babel/node', 'esno', 'vite-node', 'node', 'jiti', 'esrun']);
/** Runners of registry packages: the package named runs, not the project (unless told to use the local install). */
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx']);
/** Package runners that take a package installed in the project they run in before the registry's (`pnpx` is `pnpm dlx`: always fetched). */
const LOCAL_FIRST_RUNNERS = new Set(['npx', 'bunx']);
/** Commands that only read package metadata, or print versions. */
const HARMLESS_SUBCOMMANDS = new Set(['view', 'info', 'show', 'whoami', 'config', 'help', 'cache', 'version', 'search', '--version', '-v', '-V', '--help', 'outdated', 'audit', 'login', 'env', 'fmt', 'mod']);
/**
 * Tools whose `format` subcommand only rewrites source text: `dart format` (and Flutter's, which calls it) parses the
 * files and runs none of the project's code or configuration (https://dart.dev/tools/dart-format). Not `dotnet
 * format`, which restores the project and loads the analyzers its packages bring.
 */
const FORMAT_ONLY = new Set(['dart', 'flutter']);
/** Interpreters: running one on a file (not `-c`/`-e` inline code) runs that file. */
const INTERPRETERS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'fish', 'pwsh', 'powershell', 'python', 'python3', 'python2', 'node', 'ruby', 'perl', 'php', 'lua', 'Rscript', 'source', '.']);
/** Shells whose `-s` option reads the script from standard input. */
const STDIN_SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh']);
/** Python modules that are tools, not the project (`python -m pip install pkg`). */
const HARMLESS_MODULES = new Set(['venv', 'json.tool', 'http.server', 'site', 'ensurepip']);

/**
 * Actions that build or run the project in a directory: the input naming it (null: the workspace root), or a
 * predicate for actions that do so only with some input. Sources: each action's `action.yml`.
 */
const WORKSPACE_ACTIONS: Record<string, { dir: string | null; when?: (step: Step) => boolean }> = {
  'docker/bake-action': { dir: 'workdir' },
  'pre-commit/action': { dir: null },
  'cypress-io/github-action': { dir: 'working-directory' },
  'bahmutov/npm-install': { dir: 'working-directory' },
  'gradle/gradle-build-action': { dir: 'build-root-directory' },
  'github/super-linter': { dir: null },
  'super-linter/super-linter': { dir: null },
  'oxsecurity/megalinter': { dir: null },
  'sonarsource/sonarcloud-github-action': { dir: 'projectBaseDir' },
  'sonarsource/sonarqube-scan-action': { dir: 'projectBaseDir' },
  'bridgecrewio/checkov-action': { dir: 'directory' },
  'actions/jekyll-build-pages': { dir: 'source' },
  'golangci/golangci-lint-action': { dir: 'working-directory' },
  'goreleaser/goreleaser-action': { dir: 'workdir', when: (s) => !isTruthy(get(s.with, 'install-only')) },
  'pypa/cibuildwheel': { dir: 'package-dir' },
  'pyo3/maturin-action': { dir: 'working-directory' },
  'ruby/setup-ruby': { dir: 'working-directory', when: (s) => isTruthy(get(s.with, 'bundler-cache')) },
  'pnpm/action-setup': { dir: null, when: (s) => (getText(s.with, 'run_install') ?? 'false') !== 'false' },
  // A CLI resolved in the project first (`npx --no-install`, the project's own dependency).
  'cloudflare/wrangler-action': { dir: 'workingDirectory' },
  'amondnet/vercel-action': { dir: 'working-directory' },
  'netlify/actions/cli': { dir: null },
  'firebaseextended/action-hosting-deploy': { dir: 'entryPoint' },
  'changesets/action': { dir: 'cwd' },
};

const cache = new ScanCache<Step, readonly Execution[]>();

/** The executions of a step, in order (read once per step). */
export function stepExecutions(step: Step): readonly Execution[] {
  let found = cache.get(step);
  if (found === undefined) {
    found = readExecutions(step);
    cache.set(step, found);
  }
  return found;
}

/** The step's starting directory: its `working-directory`, else the job's or workflow's `defaults.run`. */
export function workingDirectory(step: Step): string | null {
  const own = getText(step.node, 'working-directory');
  const job = step.job;
  const fallback = job === null ? null : (getText(get(get(job.node, 'defaults'), 'run'), 'working-directory') ?? getText(get(get(job.workflow.root, 'defaults'), 'run'), 'working-directory'));
  return normalizeWorkspacePath(own ?? fallback ?? '');
}

function readExecutions(step: Step): Execution[] {
  const ref = step.usesRef;
  if (ref?.kind === 'local') {
    // `$/path` runs the action from the workflow's own commit, not from the workspace.
    if (ref.self === true) return [];
    return [{ step, kind: 'local-action', evidence: `local action \`${ref.path}\``, path: normalizeWorkspacePath(ref.path) }];
  }
  if (ref?.kind === 'repository') {
    const slug = ref.slug;
    const full = ref.path === '' ? slug : `${slug}/${ref.path.toLowerCase()}`;
    if (full === 'github/codeql-action/autobuild') return [{ step, kind: 'project', evidence: full, path: inputDirectory(step, 'working-directory') }];
    if (slug === 'docker/build-push-action') {
      // Without `context:` BuildKit builds the Git context of the run's own commit (github.sha), not the workspace.
      const context = getText(step.with, 'context');
      if (context === null || /^\s*\{\{\s*defaultContext\s*\}\}/.test(context)) return [];
      const build = actionBuild(step);
      return [{ step, kind: 'project', evidence: `${slug} with \`context: ${context.trim()}\``, path: normalizeWorkspacePath(context), ...(build === null ? {} : { build }) }];
    }
    if (slug === 'actions/github-script') return scriptRequires(step);
    const agent = stepAgent(step);
    if (agent !== undefined) return agentExecutions(step, agent);
    const known = WORKSPACE_ACTIONS[full] ?? WORKSPACE_ACTIONS[slug];
    if (known === undefined || (known.when !== undefined && !known.when(step))) return [];
    const build = slug === 'docker/bake-action' ? actionBuild(step) : null;
    return [{ step, kind: 'project', evidence: slug, path: known.dir === null ? '' : inputDirectory(step, known.dir), ...(build === null ? {} : { build }) }];
  }
  const run = step.run;
  if (run === undefined || typeof run.value !== 'string') return [];
  const result: Execution[] = [];
  for (const command of scriptCommands(scriptText(step, run.value), workingDirectory(step))) {
    const found = commandExecution(command.text, command.cwd);
    if (found === null) continue;
    const build = found.kind === 'project' && CONTAINER_BUILD_EVIDENCE.test(found.evidence) ? commandBuild(step, command.text) : null;
    result.push({ step, ...found, offset: command.offset, ...(build === null ? {} : { build }) });
  }
  // An AI agent's command-line tool run headless (`claude -p`, `codex exec --full-auto`): what it may run, in the
  // step's directory.
  for (const agent of scriptAgents(step)) {
    const commands = scriptAgentCommands(agent);
    const base = workingDirectory(step);
    if (commands === 'any') {
      result.push({ step, kind: 'project', evidence: `commands of its choosing (${agent.cli.name}, whose tools include a shell)`, path: base, offset: agent.offset });
      continue;
    }
    for (const command of commands) {
      const execution = commandExecution(command, base);
      if (execution !== null) result.push({ step, ...execution, evidence: `${execution.evidence} (a command ${agent.cli.name} is allowed to run)`, offset: agent.offset });
    }
  }
  return result;
}

/**
 * `require('./scripts/x.js')`, `await import('./x.mjs')`, `require(\`${process.env.GITHUB_WORKSPACE}/x\`)` in an
 * `actions/github-script` script: github-script resolves a relative module path from the working directory
 * (the workspace), so the script runs that file of the checkout, with the job's token in `github`.
 */
const SCRIPT_REQUIRE = /\b(?:require|import)\s*\(\s*(?:(['"`])((?:\.{1,2}\/|\.github\/)[^'"`\n]{1,300})\1|`\$\{\s*process\.env\.GITHUB_WORKSPACE\s*\}\/?([^`\n]{1,300})`|process\.env\.GITHUB_WORKSPACE\s*\+\s*(['"])\/?([^'"\n]{1,300})\4|process\.cwd\(\)\s*\+\s*(['"])\/?([^'"\n]{1,300})\6)/g;

function scriptRequires(step: Step): Execution[] {
  const script = getText(step.with, 'script');
  if (script === null || !/\b(require|import)\s*\(/.test(script)) return [];
  const cwd = normalizeWorkspacePath(getText(step.node, 'working-directory') ?? '');
  const found: Execution[] = [];
  for (const m of script.matchAll(SCRIPT_REQUIRE)) {
    const relative = m[2] ?? m[3] ?? m[5] ?? m[7] ?? '';
    if (relative.includes('${') || found.length >= 20) continue;
    const path = m[2] !== undefined ? resolvePath(cwd, relative) : normalizeWorkspacePath(relative);
    found.push({ step, kind: 'file', evidence: `\`${m[0].startsWith('import') ? 'import' : 'require'}(${m[2] !== undefined ? `'${relative.slice(0, 80)}'` : `<workspace>/${relative.slice(0, 80)}`})\` in actions/github-script`, path });
  }
  return found;
}

/**
 * What an AI coding agent may run in the workspace (its working directory): any command when it has a shell,
 * else each command its allowed tools name that runs code (`Bash(bun install)`, `Bash(npm test)`; `git diff` and
 * `gh pr view` run none). An agent whose tools only read and edit files runs nothing.
 */
function agentExecutions(step: Step, agent: AgentAction): Execution[] {
  const commands = agentCommands(agent, step);
  const check = agentGate(agent, step, step.job?.workflow.triggers.map((t) => t.name) ?? []);
  const gate = check === null ? {} : { startedBy: check };
  if (commands === 'any') return [{ step, kind: 'project', evidence: `commands of its choosing (${agent.name}, whose tools include a shell)`, path: '', ...gate }];
  const found: Execution[] = [];
  for (const command of commands) {
    const execution = commandExecution(command, '');
    if (execution !== null) found.push({ step, ...execution, evidence: `${execution.evidence} (a command ${agent.name} is allowed to run)`, ...gate });
  }
  return found;
}

function inputDirectory(step: Step, input: string): string | null {
  const value = getText(step.with, input);
  return value === null ? '' : normalizeWorkspacePath(value);
}

/** A command of a script with the directory it runs in: `ScriptCommand.cwd` is null when not known. */
export interface ScriptCommand {
  text: string;
  /** The command's offset in the script's value. */
  offset: number;
  cwd: string | null;
}

/**
 * The commands of a script in order, each with the directory it runs in: `start` (the step's working directory)
 * changed by every `cd`/`pushd`/`popd` before it (`changedDirectory`), which are read, not yielded.
 */
export function* scriptCommands(script: string, start: string | null): Generator<ScriptCommand> {
  let cwd = start;
  for (const line of logicalLines(script)) {
    for (const pipeline of pipelines(line)) {
      for (const command of pipeline.commands) {
        const moved = changedDirectory(command.text, cwd);
        if (moved !== undefined) {
          cwd = moved;
          continue;
        }
        yield { text: command.text, offset: command.offset, cwd };
      }
    }
  }
}

/** For `cd x`, `pushd x`: the new directory (null: unknown); undefined for any other command. */
export function changedDirectory(command: string, cwd: string | null): string | null | undefined {
  const list = words(command);
  if (list[0] !== 'cd' && list[0] !== 'pushd') return undefined;
  const target = list.slice(1).find((w) => !w.startsWith('-'));
  if (target === undefined || target === '~') return null;
  return resolvePath(cwd, target);
}

/** A virtual environment a script creates: its directory (workspace-relative; null when it cannot be placed) and the command's offset. */
export interface VenvCreation {
  dir: string | null;
  /** Offset of the command in the step's script (value offset). */
  offset: number;
}

const venvCache = new ScanCache<Step, readonly VenvCreation[]>();

/**
 * The virtual environments a step's script creates, in order: `uv venv [dir]` (`.venv` in its directory by
 * default), `python -m venv <dir>...`, `virtualenv <dir>`, each placed from the script's directory at that point
 * (after any `cd`). The tool writes the environment's activate scripts (`<dir>/bin/activate`,
 * `<dir>/Scripts/activate`), replacing any the checkout holds there: sourcing them afterwards runs the tool's
 * script, not the workspace's (`activatedVenv`).
 */
export function stepVenvs(step: Step): readonly VenvCreation[] {
  const cached = venvCache.get(step);
  if (cached !== undefined) return cached;
  const found: VenvCreation[] = [];
  const run = step.run;
  if (run !== undefined && typeof run.value === 'string' && run.value.includes('venv')) {
    for (const command of scriptCommands(run.value, workingDirectory(step))) {
      for (const dir of venvDirectories(command.text, command.cwd)) found.push({ dir, offset: command.offset });
    }
  }
  venvCache.set(step, found);
  return found;
}

/** Options of `uv venv`, `python -m venv` and `virtualenv` that take the next word as their value. */
const VENV_VALUE_OPTIONS = new Set([
  '-p', '--python', '--prompt', '-i', '--index-url', '--extra-index-url', '--index', '--default-index', '-f', '--find-links', '--index-strategy',
  '--keyring-provider', '--exclude-newer', '--link-mode', '--cache-dir', '--directory', '--project', '--config-file', '--color',
  '--creator', '--seeder', '--activators', '--app-data', '--discovery', '--extra-search-dir', '--pip', '--setuptools', '--wheel',
]);

/** The directories a command creates virtual environments in (none when it creates none). */
function venvDirectories(command: string, cwd: string | null): (string | null)[] {
  const program = commandName(command);
  if (program === null) return [];
  const list = words(command);
  const at = list.findIndex((w) => w === program || w.endsWith(`/${program}`));
  if (at === -1) return [];
  const name = program.replace(/^python[\d.]+$/, 'python');
  let args: readonly string[];
  let fallback: string | undefined;
  if (name === 'uv' && list[at + 1] === 'venv') {
    args = list.slice(at + 2);
    fallback = '.venv';
  } else if (name === 'python' || name === 'python3') {
    const module = pythonModule(list.slice(at + 1));
    if (module?.name !== 'venv' && module?.name !== 'virtualenv') return [];
    args = module.rest;
  } else if (name === 'virtualenv') args = list.slice(at + 1);
  else return [];
  const dirs: string[] = [];
  for (let i = 0; i < args.length && dirs.length < 10; i++) {
    const word = args[i] ?? '';
    if (word.startsWith('-')) {
      if (VENV_VALUE_OPTIONS.has(word)) i++;
      continue;
    }
    dirs.push(word);
  }
  if (dirs.length === 0) return fallback === undefined ? [] : [resolvePath(cwd, fallback)];
  return dirs.map((d) => resolvePath(cwd, d));
}

/** `<dir>/bin/activate` (and `.fish`, `.csh`, `.ps1`), `<dir>/Scripts/activate` (`.bat`, `Activate.ps1`): a virtual environment's activate script. */
const ACTIVATE_SCRIPT = /^(?:(.+)\/)?(?:bin\/activate(?:\.(?:fish|csh|nu|ps1))?|Scripts\/(?:activate(?:\.bat)?|Activate\.ps1))$/;

/** For an execution of a virtual environment's activate script, the environment's directory; null for any other. */
export function activatedVenv(execution: Execution): string | null {
  if (execution.kind !== 'file' || execution.path === null) return null;
  const m = ACTIVATE_SCRIPT.exec(execution.path);
  return m === null ? null : (m[1] ?? '');
}

/** `PR=$(cat ./NR)`, PR=`cat ./NR`: a command that only assigns a command substitution runs the substituted command. */
const ASSIGNED_SUBSTITUTION = /^[A-Za-z_][A-Za-z0-9_]*=(?:\$\(([^]*)\)|`([^]*)`)$/;

function commandExecution(command: string, cwd: string | null): Omit<Execution, 'step'> | null {
  const substitution = ASSIGNED_SUBSTITUTION.exec(command.trim());
  if (substitution !== null) return commandExecution((substitution[1] ?? substitution[2] ?? '').trim(), cwd);
  const program = commandName(command);
  if (program === null) return null;
  const list = words(command);
  const at = list.findIndex((w) => w === program || w.endsWith(`/${program}`));
  // `python3.12`, `pip3.11`: versioned names of the same tools (descriptions show the program as written).
  const name = program.replace(/^(python|pip|ruby|node|perl|php)[\d.]+$/, '$1');
  const written = at === -1 ? undefined : list[at];
  // `${{ github.workspace }}/x`, `$env:GITHUB_WORKSPACE/x`: the workspace's file, as `$GITHUB_WORKSPACE/x`.
  const first = written === undefined ? undefined : workspaceRooted(written);
  const args = at === -1 ? [] : list.slice(at + 1);
  // `./build.sh`, `scripts/test`, `bin/rails`: a program from the checkout itself.
  if (first !== undefined && /^\.{0,2}\/|^[\w.-]+\/[\w./-]+$/.test(first) && !first.startsWith('/')) {
    return { kind: 'file', evidence: `\`${first}\``, path: resolvePath(cwd, first) };
  }
  if (first !== undefined && /^\$\{?(GITHUB_WORKSPACE)\}?\//.test(first)) {
    return { kind: 'file', evidence: `\`${first}\``, path: normalizeWorkspacePath(first) };
  }
  // `hab pkg build <dir>`: Habitat runs the build callbacks of the plan in that directory (`plan.sh`, `plan.ps1`).
  if (name === 'hab') {
    const words = args.filter((a) => !a.startsWith('-'));
    if (words[0] !== 'pkg' || words[1] !== 'build') return null;
    return { kind: 'project', evidence: '`hab pkg build`', path: resolvePath(cwd, words[2] ?? '.') };
  }
  if (INTERPRETERS.has(name)) {
    // `python -m <module>` (after other options: `python -u -m pytest`) runs a module, not a file named like it: it
    // imports from the working directory first.
    const module = name === 'python' ? pythonModule(args) : null;
    if (module !== null) {
      if (HARMLESS_MODULES.has(module.name)) return null;
      if (module.name === 'pip') return pipExecution(`\`${program} -m pip\``, module.rest, cwd);
      return { kind: 'project', evidence: `\`${program} -m ${module.name}\``, path: cwd };
    }
    const script = args.find((a) => !a.startsWith('-'));
    // `-e` is inline code for `node`, `perl` and `ruby`, but errexit for a shell (`bash -e ./ci/x.sh` runs the file).
    if (script === undefined || args.some((a) => a === '-c' || (a === '-e' && !STDIN_SHELLS.has(name)) || a === '-Command' || a === '-command')) return null;
    // `bash -s -- args` (`curl ... | sudo bash -s -- -t x`): the shell reads its commands from standard input; the
    // words after it are that script's arguments, not a file.
    if (STDIN_SHELLS.has(name) && args.slice(0, args.indexOf(script)).some((a) => /^-[a-z]*s[a-z]*$/.test(a))) return null;
    // `bash <(curl -Ls https://host/get.sh) report`: a process substitution, the script a command printed (a
    // download, pipe-to-shell's to judge), not a file of the workspace.
    if (script.startsWith('<(')) return null;
    return { kind: 'file', evidence: `\`${program} ${script}\``, path: resolvePath(cwd, script) };
  }
  if (PACKAGE_RUNNERS.has(name)) {
    const local = args.includes('--no-install') || args.includes('--offline');
    const pkg = args.find((a) => !a.startsWith('-')) ?? '';
    // `npx tsx scripts/x.ts`: a registry runner of a script, given a file of the workspace, runs that file.
    const script = SCRIPT_RUNNERS.has(pkg.replace(/@[^/]*$/, '')) ? args.slice(args.indexOf(pkg) + 1).find((a) => !a.startsWith('-')) : undefined;
    if (script !== undefined && /^[\w./-]+\.(?:[cm]?[jt]sx?)$/.test(script)) return { kind: 'file', evidence: `\`${name} ${pkg} ${script}\``, path: resolvePath(cwd, script) };
    if (local) return { kind: 'project', evidence: `\`${name} --no-install ${pkg}\``, path: cwd };
    // `npx prettier --check .`: the registry's program, the workspace's configuration, which is code.
    const bare = pkg.replace(/(?!^)@[^/]*$/, '');
    if (CONFIG_AS_CODE_PACKAGES.has(bare)) return { kind: 'project', evidence: `\`${name} ${bare}\` (which loads its configuration from the working directory as code)`, path: cwd };
    return { kind: 'registry', evidence: `\`${name} ${pkg}\``, path: null, ...(LOCAL_FIRST_RUNNERS.has(name) ? { resolvesFrom: cwd } : {}) };
  }
  const tool = uvToolExecution(name, args, cwd);
  if (tool !== undefined) return tool;
  // `docker buildx imagetools create` (a manifest list of pushed digests), `ls`, `create`, `use` ... build nothing.
  if (name === 'docker' && ['build', 'buildx', 'compose'].includes(args[0] ?? '') && !(args[0] === 'buildx' && BUILDX_NO_BUILD.has(args.slice(1).find((a) => !a.startsWith('-')) ?? ''))) {
    return { kind: 'project', evidence: `\`docker ${args[0] ?? ''}\``, path: cwd };
  }
  if (!BUILD_TOOLS.has(name)) return null;
  const subAt = args.findIndex((a) => !a.startsWith('-'));
  const sub = args[subAt] ?? '';
  if (HARMLESS_SUBCOMMANDS.has(sub) || HARMLESS_SUBCOMMANDS.has(args[0] ?? '')) return null;
  if (FORMAT_ONLY.has(name) && sub === 'format') return null;
  const evidence = `\`${[program, shownArgument(args, subAt)].filter((w) => w !== '').join(' ')}\``;
  if (name === 'pip' || name === 'pip3' || name === 'uv') return pipExecution(evidence, args, cwd);
  // Global installs and package runners fetch and run a registry package, not the project.
  if ((name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun') && (args.includes('-g') || args.includes('--global') || sub === 'dlx' || (name === 'yarn' && sub === 'global'))) {
    // `pnpm dlx eslint .`: as `npx eslint`, the workspace's configuration runs.
    const pkg = sub === 'dlx' ? (args.slice(args.indexOf('dlx') + 1).find((a) => !a.startsWith('-')) ?? '').replace(/(?!^)@[^/]*$/, '') : '';
    if (CONFIG_AS_CODE_PACKAGES.has(pkg)) return { kind: 'project', evidence: `\`${name} dlx ${pkg}\` (which loads its configuration from the working directory as code)`, path: cwd };
    return { kind: 'registry', evidence, path: null };
  }
  if ((name === 'go' || name === 'cargo') && sub === 'install' && !args.some((a) => a === '.' || a.startsWith('./') || a === '--path')) {
    return { kind: 'registry', evidence, path: null };
  }
  if (name === 'go' && sub === 'run' && args.some((a) => /@/.test(a))) return { kind: 'registry', evidence, path: null };
  const recipes = TASK_RUNNERS[name];
  return { kind: 'project', evidence, path: cwd, ...(recipes === undefined ? {} : { recipes }) };
}

/**
 * `uvx ruff check .`, `uv tool run ruff`, `uv tool install ruff`: a tool from the package index, in an environment of
 * its own; uv reads no configuration of the project for tool commands (https://docs.astral.sh/uv/concepts/configuration-files/:
 * "For tool commands, which operate at the user level, local configuration files will be ignored"). The tool itself
 * runs the workspace's code when it loads its configuration or plugins from the working directory as code
 * (`PYTHON_CONFIG_AS_CODE`). Undefined for any other command (`name` is the program, `args` the words after it).
 */
export function uvToolExecution(name: string, args: readonly string[], cwd: string | null): Omit<Execution, 'step'> | null | undefined {
  const tool = uvTool(name, args);
  if (tool === undefined) return name === 'uv' && args[0] === 'tool' ? null : undefined;
  if (tool === null) return null;
  const { bare, shown } = tool;
  if (args[1] === 'install' && name !== 'uvx') return { kind: 'registry', evidence: `\`${shown}\``, path: null };
  if (PYTHON_CONFIG_AS_CODE.has(bare)) return { kind: 'project', evidence: `\`${shown}\` (which loads its configuration or plugins from the working directory as code)`, path: cwd };
  return { kind: 'registry', evidence: `\`${shown}\``, path: null };
}

/**
 * The tool a `uvx` / `uv tool run|install` command line names: its package without version or extras, lower-case
 * (`bare`), and the command in words; null when it names none, undefined when the command is no such command.
 */
export function uvTool(name: string, args: readonly string[]): { bare: string; shown: string } | null | undefined {
  const tool = name === 'uvx' ? args : name === 'uv' && args[0] === 'tool' && (args[1] === 'run' || args[1] === 'install') ? args.slice(2) : null;
  if (tool === null) return undefined;
  const pkg = toolPackage(tool);
  if (pkg === null) return null;
  return { bare: pkg.replace(/\[.*$|[=<>~!@].*$/, '').toLowerCase(), shown: name === 'uvx' ? `uvx ${pkg}` : `uv tool ${args[1] ?? ''} ${pkg}` };
}

/**
 * Python tools that run the code of the directory they work in: its configuration names code to import, or is code
 * (pytest's `conftest.py`, tox's and nox's commands and `noxfile.py`, pre-commit's hooks, Sphinx's `conf.py`, MkDocs'
 * hooks, mypy's and pylint's plugins, invoke's `tasks.py`), or they build the project (hatch, poetry, pdm, maturin,
 * asv). Not ruff, black, isort or codespell, whose configuration is data.
 */
const PYTHON_CONFIG_AS_CODE: ReadonlySet<string> = new Set([
  'pytest', 'tox', 'nox', 'pre-commit', 'prek', 'sphinx-build', 'sphinx', 'mkdocs', 'mypy', 'pylint', 'invoke', 'hatch', 'poetry', 'pdm', 'maturin', 'asv',
]);

/** Options of `uvx` / `uv tool run` that take the next word as their value. */
const UV_TOOL_VALUE_OPTIONS = new Set(['--from', '--with', '--with-editable', '--with-requirements', '-w', '-p', '--python', '--index', '--index-url', '--default-index', '--extra-index-url', '-i', '--find-links', '-f', '--constraints', '-c', '--overrides', '--env-file', '--cache-dir', '--directory', '--project', '--config-file', '--color', '--python-platform', '--index-strategy', '--keyring-provider', '--exclude-newer', '--resolution', '--prerelease', '--link-mode', '--reinstall-package', '--upgrade-package', '-P', '--build-constraints', '-b', '--torch-backend']);

/** The package (or command) a `uvx` / `uv tool run` command line runs: the first word that is no option or option value; null when none. */
function toolPackage(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (word.startsWith('-')) {
      if (UV_TOOL_VALUE_OPTIONS.has(word)) i++;
      continue;
    }
    return word;
  }
  return null;
}

/** Python options that take the next word as their value (`-W error`, `-X dev`). */
const PYTHON_VALUE_OPTIONS = new Set(['-W', '-X', '--check-hash-based-pycs']);

/**
 * The module `python [options] -m <module> [args]` runs, with the words after it; null when the interpreter runs a
 * file or inline code (`-c`) instead: the options before the first operand are read, the operand ends them.
 */
function pythonModule(args: readonly string[]): { name: string; rest: readonly string[] } | null {
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (word === '-m') return args[i + 1] === undefined ? null : { name: args[i + 1] as string, rest: args.slice(i + 2) };
    // `-mpytest`: the module attached to the option.
    if (/^-m[\w.]+$/.test(word)) return { name: word.slice(2), rest: args.slice(i + 1) };
    if (word === '-c' || word === '-' || !word.startsWith('-')) return null;
    if (PYTHON_VALUE_OPTIONS.has(word)) i++;
  }
  return null;
}

/** Longest argument text a command's description shows (a longer one is cut, with `...`). */
const MAX_SHOWN_ARGUMENT = 60;

/**
 * The argument at `at` of a command's words as a description shows it: a GitHub expression the shell's word split cut
 * (`${{`, `matrix.target`, `}}`) whole (`${{ matrix.target }}`), cut at MAX_SHOWN_ARGUMENT characters; empty for none.
 */
function shownArgument(args: readonly string[], at: number): string {
  const word = args[at];
  if (word === undefined) return '';
  let text = word;
  if (word.includes('${{') && !word.slice(word.lastIndexOf('${{')).includes('}}')) {
    let closed = false;
    for (let i = at + 1; i < args.length && text.length <= MAX_SHOWN_ARGUMENT && !closed; i++) {
      text += ` ${args[i] ?? ''}`;
      closed = (args[i] ?? '').includes('}}');
    }
    // The shell's split ended the command inside the expression (`${{ inputs.target || 'all' }}` at `||`).
    if (!closed && text.length <= MAX_SHOWN_ARGUMENT) return `${text} ... }}`;
  }
  return text.length > MAX_SHOWN_ARGUMENT ? `${text.slice(0, MAX_SHOWN_ARGUMENT - 3)}...` : text;
}

/**
 * A direct reference to a directory of the workspace (`"pkg[test] @ ."`, `pkg@./sub`): pip builds the project
 * there, as for `.`.
 */
const LOCAL_DIRECT_REFERENCE = /^[A-Za-z0-9][\w.-]*\s*(?:\[[^\]]*\])?\s*@\s*\.{1,2}(?:\/\S*)?$/;

/** `pip install` of the project (`.`, `.[dev]`, `"pkg @ ."`, `-e`, `-r requirements.txt`) runs its code; of named packages, the registry's. */
function pipExecution(evidence: string, args: readonly string[], cwd: string | null): Omit<Execution, 'step'> | null {
  // `.[dev]`, `./pkg[test]`, `.$EXTRAS` (extras a variable adds): the project with extras.
  const local = args.some((a) => a === '.' || /^\.\.?(\/[^\s]*)?[[$]/.test(a) || LOCAL_DIRECT_REFERENCE.test(a) || a === '-e' || a === '-r' || a === '--requirement' || a === '--editable' || a.startsWith('./') || a === 'sync' || a === 'run' || a === 'build');
  if (local) return { kind: 'project', evidence, path: cwd };
  return args.some((a) => a === 'install' || a === 'add') ? { kind: 'registry', evidence, path: null } : null;
}

/**
 * A path as the workspace sees it: `./a/b/`, `${{ github.workspace }}/a/b` and `$GITHUB_WORKSPACE/a/b` are
 * `a/b`; `''` for the workspace itself; null for anything outside it or not known (absolute paths, `~`,
 * variables, `..` above the workspace).
 */
export function normalizeWorkspacePath(path: string): string | null {
  // Most steps name no directory: the workspace itself.
  if (path === '') return '';
  let text = path.trim().replace(/^(["'])(.*)\1$/, '$2');
  text = text.replace(/^(\$\{\{\s*github\.workspace\s*\}\}|\$\{?GITHUB_WORKSPACE\}?)(\/|$)/, '');
  if (text.startsWith('/') || text.startsWith('~') || /[$*?{}\\]/.test(text)) return null;
  const parts: string[] = [];
  for (const part of text.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

/** `target` seen from directory `cwd` (both workspace-relative); null when either is unknown. */
export function resolvePath(cwd: string | null, target: string): string | null {
  const text = target.trim().replace(/^(["'])(.*)\1$/, '$2');
  if (/^(\$\{\{\s*github\.workspace\s*\}\}|\$\{?GITHUB_WORKSPACE\}?)(\/|$)/.test(text)) return normalizeWorkspacePath(text);
  if (cwd === null || text.startsWith('/') || text.startsWith('~') || text.includes('$')) return null;
  return normalizeWorkspacePath(cwd === '' ? text : `${cwd}/${text}`);
}

/** True when `path` is `dir` or below it (workspace-relative paths). */
export function within(path: string, dir: string): boolean {
  return dir === '' || path === dir || path.startsWith(`${dir}/`);
}

/** A node's text, for callers that pass YAML values around. */
export function textOf(node: YNode | undefined): string | null {
  return node?.kind === 'scalar' && typeof node.value === 'string' ? node.value : null;
}

/** Evidence of the executions `commandBuild` reads: `docker build`, `docker buildx`, `docker compose`, `docker-compose ...`. */
const CONTAINER_BUILD_EVIDENCE = /^`docker (?:build|buildx|compose)`$|^`docker-compose\b/;
/** Inputs of docker/build-push-action and docker/bake-action through which a build is handed values. */
const BUILD_INPUTS = ['build-args', 'secrets', 'secret-files', 'secret-envs', 'ssh', 'set'];
const TOKEN_EXPRESSION = /\$\{\{[^}]*\b(?:github\.token|secrets\.github_token)\b/i;
/** Entitlements that take a build's `RUN` out of its container (`--allow security.insecure`, `network.host`). */
const INSECURE_ENTITLEMENT = /\bsecurity\.insecure\b/;

/**
 * What docker/build-push-action or docker/bake-action hands the build (`ContainerBuild`); null when the build may
 * leave its container (`allow: security.insecure`).
 */
function actionBuild(step: Step): ContainerBuild | null {
  if (INSECURE_ENTITLEMENT.test(getText(step.with, 'allow') ?? '') || INSECURE_ENTITLEMENT.test(getText(step.with, 'set') ?? '')) return null;
  const secrets: string[] = [];
  let token = false;
  for (const input of BUILD_INPUTS) {
    const node = get(step.with, input);
    if (node === undefined) continue;
    for (const name of valueSecrets(step, node)) if (name.toUpperCase() !== 'GITHUB_TOKEN' && !secrets.includes(name)) secrets.push(name);
    if (TOKEN_EXPRESSION.test(getText(step.with, input) ?? '')) token = true;
  }
  // `secret-envs: id=VAR`: the build reads environment variables of the step, which may hold secrets.
  const envs = getText(step.with, 'secret-envs');
  if (envs !== null && addEnvSecrets(step, envs, secrets)) token = true;
  const outputs = getText(step.with, 'outputs') ?? '';
  const push = isTruthy(get(step.with, 'push')) || /\btype=registry\b|\bpush=true\b/.test(outputs);
  const tags = (getText(step.with, 'tags') ?? '').split(/[\n,]/).map((t) => t.trim()).filter((t) => t !== '');
  return { secrets, token, push: push ? { tags } : null };
}

/** What a `docker build` / `docker buildx build` / `docker compose build` command hands its build; null for another command, or one whose build may leave its container. */
function commandBuild(step: Step, command: string): ContainerBuild | null {
  const list = words(command);
  const at = list.findIndex((w) => w === 'docker' || w === 'docker-compose' || w.endsWith('/docker'));
  if (at === -1) return null;
  const rest = list.slice(at + 1).filter((w) => !w.startsWith('-'));
  const sub = list[at] === 'docker-compose' ? ['compose', ...rest] : rest;
  const builds = sub[0] === 'build' || (sub[0] === 'buildx' && (sub[1] === 'build' || sub[1] === 'b')) || (sub[0] === 'compose' && sub[1] === 'build');
  if (!builds || INSECURE_ENTITLEMENT.test(command)) return null;
  const secrets: string[] = [];
  for (const m of command.matchAll(/\$\{\{[^}]*?\bsecrets\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*'([A-Za-z_]\w*)'\s*\])/g)) {
    const name = m[1] ?? m[2] ?? '';
    if (name.toUpperCase() !== 'GITHUB_TOKEN' && !secrets.includes(name)) secrets.push(name);
  }
  const envToken = addEnvSecrets(step, command, secrets);
  const tags: string[] = [];
  for (let i = at + 1; i < list.length && tags.length < 20; i++) {
    const word = list[i] ?? '';
    if (word === '-t' || word === '--tag') tags.push(list[++i] ?? '');
    else if (word.startsWith('--tag=')) tags.push(word.slice(6));
  }
  const push = list.includes('--push') || /(?:^|\s)(?:-o|--output)[=\s]+["']?(?:[^\s"']*,)?type=(?:registry|image,[^\s"']*push=true)/.test(command);
  return { secrets, token: envToken || TOKEN_EXPRESSION.test(command), push: push ? { tags } : null };
}

/**
 * Adds the secrets of the step's environment variables that `text` names (`$VAR`, `${VAR}`, `env=VAR`,
 * `--build-arg VAR`) to `into`; true when one of them holds the job's token.
 */
function addEnvSecrets(step: Step, text: string, into: string[]): boolean {
  let token = false;
  for (const variable of secretEnv(step).values()) {
    const name = variable.name.replace(/[^\w]/g, '');
    if (name === '' || !new RegExp(`(?:^|[^\\w])${name}(?![\\w])`).test(text)) continue;
    for (const secret of variable.secrets) {
      if (secret.toUpperCase() === 'GITHUB_TOKEN') token = true;
      else if (!into.includes(secret)) into.push(secret);
    }
  }
  return token;
}

/** A path rooted at `${{ github.workspace }}`, `$env:GITHUB_WORKSPACE` or `%GITHUB_WORKSPACE%` as `$GITHUB_WORKSPACE/...`. */
function workspaceRooted(word: string): string {
  return word.replace(/^(?:\$\{\{\s*github\.workspace\s*\}\}|\$\{?env:GITHUB_WORKSPACE\}?|%GITHUB_WORKSPACE%)(?=\/)/i, '$GITHUB_WORKSPACE');
}

/** Shells whose scripts write Windows paths, where a backslash separates directories and escapes nothing. */
const WINDOWS_SHELLS = /^(?:pwsh|powershell|cmd)\b/i;

/**
 * A step's script as the command reader should see it: for a PowerShell or cmd step (its `shell:`, or its job's or
 * workflow's `defaults.run.shell`), backslashes as slashes, so `.\\tools\\x.ps1` is the path `./tools/x.ps1` (the
 * same length: offsets stay right); any other script as written.
 */
function scriptText(step: Step, script: string): string {
  if (!script.includes('\\')) return script;
  const job = step.job;
  const shell = getText(step.node, 'shell') ?? (job === null ? null : (getText(get(get(job.node, 'defaults'), 'run'), 'shell') ?? getText(get(get(job.workflow.root, 'defaults'), 'run'), 'shell')));
  return shell !== null && WINDOWS_SHELLS.test(shell.trim()) ? script.replace(/\\/g, '/') : script;
}
