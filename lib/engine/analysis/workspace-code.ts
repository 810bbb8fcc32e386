import type { Step } from '../model/workflow.js';
import { commandName, scriptPipelines, words } from '../shell.js';
import { get, getText, isTruthy } from '../yaml/model.js';
import { uvToolExecution } from './run-model/execution.js';

/**
 * Programs that run code or configuration from the working directory: build tools, package managers (install
 * scripts, lockfile sources), test runners and linters with executable configuration. After a checkout of
 * someone else's code, running any of them runs that code. Sources: BoostSecurity's "Living off the
 * Pipeline" catalogue and CodeQL's poisonable-commands model.
 */
const BUILD_TOOLS = new Set([
  'make', 'gmake', 'cmake', 'ninja', 'meson', 'bazel', 'bazelisk', 'buck', 'buck2', 'just', 'task', 'scons',
  'npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx', 'deno', 'tsx', 'ts-node', 'lerna', 'nx', 'turbo',
  'pip', 'pip3', 'pipx', 'poetry', 'pdm', 'uv', 'hatch', 'tox', 'nox', 'pytest', 'py.test', 'pre-commit', 'mypy', 'pylint',
  'sphinx-build', 'mkdocs', 'asv', 'maturin',
  'cargo', 'cross', 'rustc',
  'go', 'goreleaser', 'golangci-lint', 'mage',
  'mvn', 'mvnw', 'gradle', 'gradlew', 'ant', 'sbt', 'lein', 'clojure', 'kotlinc',
  'dotnet', 'msbuild', 'nuget',
  'bundle', 'bundler', 'rake', 'rails', 'rubocop', 'pod', 'fastlane',
  'composer', 'phpunit', 'phpstan',
  'swift', 'xcodebuild', 'flutter', 'dart', 'mix', 'rebar3', 'cabal', 'stack', 'zig',
  'eslint', 'prettier', 'stylelint', 'tsc', 'jest', 'vitest', 'mocha', 'webpack', 'vite', 'rollup', 'esbuild', 'playwright', 'cypress',
  'terraform', 'tofu', 'terragrunt', 'tflint', 'checkov', 'docker-compose',
]);
/** Commands that only read the package metadata, or print versions. */
const HARMLESS_SUBCOMMANDS = new Set(['view', 'info', 'show', 'whoami', 'config', 'help', 'cache', 'version', 'search', '--version', '-v', '-V', '--help', 'outdated', 'audit', 'login', 'env', 'fmt', 'mod']);
/** Interpreters: running one on a file (not `-c`/`-e` inline code) runs that file. */
const INTERPRETERS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'fish', 'pwsh', 'powershell', 'python', 'python3', 'python2', 'node', 'ruby', 'perl', 'php', 'lua', 'Rscript', 'source', '.']);

/** Actions that build or run the code in the working directory. */
const WORKSPACE_ACTIONS: Record<string, ((step: Step) => boolean) | true> = {
  'docker/build-push-action': true,
  'docker/bake-action': true,
  'pre-commit/action': true,
  'cypress-io/github-action': true,
  'bahmutov/npm-install': true,
  'gradle/gradle-build-action': true,
  'github/super-linter': true,
  'super-linter/super-linter': true,
  'oxsecurity/megalinter': true,
  'sonarsource/sonarcloud-github-action': true,
  'sonarsource/sonarqube-scan-action': true,
  'bridgecrewio/checkov-action': true,
  'actions/jekyll-build-pages': true,
  'golangci/golangci-lint-action': true,
  'goreleaser/goreleaser-action': true,
  'pypa/cibuildwheel': true,
  'pyo3/maturin-action': true,
  'ruby/setup-ruby': (step) => isTruthy(get(step.with, 'bundler-cache')),
  'pnpm/action-setup': (step) => (getText(step.with, 'run_install') ?? 'false') !== 'false',
};

/** How a step runs code from the working directory (a short description), or null when it does not seem to. */
export function workspaceCodeEvidence(step: Step): string | null {
  // `$/path` runs the action from the workflow's own commit, not from the workspace.
  if (step.usesRef?.kind === 'local') return step.usesRef.self === true ? null : `local action \`${step.usesRef.path}\``;
  if (step.usesRef?.kind === 'repository') {
    const slug = step.usesRef.slug;
    const full = step.usesRef.path === '' ? slug : `${slug}/${step.usesRef.path.toLowerCase()}`;
    if (full === 'github/codeql-action/autobuild') return full;
    const known = WORKSPACE_ACTIONS[slug];
    if (known === true || (known !== undefined && known(step))) return slug;
    return null;
  }
  if (step.run === undefined || typeof step.run.value !== 'string') return null;
  for (const pipeline of scriptPipelines(step.run.value)) {
    for (const command of pipeline.commands) {
      const evidence = commandEvidence(command.text);
      if (evidence !== null) return evidence;
    }
  }
  return null;
}

/** `PR=$(cat ./NR)`, PR=`cat ./NR`: a command that only assigns a command substitution runs the substituted command. */
const ASSIGNED_SUBSTITUTION = /^[A-Za-z_][A-Za-z0-9_]*=(?:\$\(([^]*)\)|`([^]*)`)$/;

function commandEvidence(command: string): string | null {
  const substitution = ASSIGNED_SUBSTITUTION.exec(command.trim());
  if (substitution !== null) return commandEvidence((substitution[1] ?? substitution[2] ?? '').trim());
  const program = commandName(command);
  if (program === null) return null;
  const list = words(command);
  const at = list.findIndex((w) => w === program || w.endsWith(`/${program}`));
  // `python3.12`, `pip3.11`: versioned names of the same tools.
  const name = program.replace(/^(python|pip|ruby|node|perl|php)[\d.]+$/, '$1');
  const first = at === -1 ? undefined : list[at];
  const args = at === -1 ? [] : list.slice(at + 1);
  // `./build.sh`, `scripts/test`, `bin/rails`: a program from the checkout itself.
  if (first !== undefined && /^\.{0,2}\/|^[\w.-]+\/[\w./-]+$/.test(first) && !first.startsWith('/')) return `\`${first}\``;
  if (INTERPRETERS.has(name)) {
    const script = args.find((a) => !a.startsWith('-'));
    if (script === undefined || args.some((a) => a === '-c' || a === '-e' || a === '-Command' || a === '-command')) {
      // `python -m <module>` imports from the working directory first.
      return args[0] === '-m' && args[1] !== undefined && !['pip', 'venv', 'json.tool', 'http.server'].includes(args[1]) ? `\`${name} -m ${args[1]}\`` : null;
    }
    return `\`${name} ${script}\``;
  }
  // `uvx ruff`, `uv tool run ruff`: a tool from the package index (the run model's reading, execution.ts).
  const tool = uvToolExecution(name, args, null);
  if (tool !== undefined) return tool?.kind === 'project' ? tool.evidence : null;
  if (!BUILD_TOOLS.has(name)) {
    return name === 'docker' && ['build', 'buildx', 'compose'].includes(args[0] ?? '') ? `\`docker ${args[0]}\`` : null;
  }
  const sub = args.find((a) => !a.startsWith('-')) ?? '';
  if (HARMLESS_SUBCOMMANDS.has(sub) || HARMLESS_SUBCOMMANDS.has(args[0] ?? '')) return null;
  if ((name === 'pip' || name === 'pip3' || name === 'uv') && !args.some((a) => a === '.' || a === '-e' || a === '-r' || a === '--requirement' || a === '--editable' || a.startsWith('./') || a === 'sync' || a === 'run')) {
    return null;
  }
  return `\`${[name, sub].filter((w) => w !== '').join(' ')}\``;
}
