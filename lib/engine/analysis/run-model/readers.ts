/**
 * What the steps after a checkout do with it when none of them runs its code (no build tool in its directory, no
 * script or local action from it: execution.ts and `codeOf`). Such a checkout is still a loaded workspace: a tool
 * that loads configuration or plugins from its working directory (a linter or formatter whose configuration is
 * a script, `npx <tool>`, an action that reads its inputs from the repository) runs the pull request's code
 * without the model seeing a build. This module tells those steps apart from the ones that read no executable
 * configuration:
 * - git (`git apply`, `git commit`, `git push`, `git diff` ...): hooks live in `.git/hooks`, which a checkout
 *   does not write, and attribute drivers need configuration only the job sets (a command that sets
 *   `core.hooksPath`, `core.fsmonitor` or a filter, diff or merge driver is not counted as plain git);
 * - `gh`, `curl`, `jq`, the shell's built-ins and text tools;
 * - formatters and linters whose configuration is data, never code (`ruff`, `black`, `isort`, `shellcheck`,
 *   `yamllint`, `actionlint` ...), also run from the package index (`uvx ruff`, `uv tool run black`); tools whose configuration can be code (`eslint`, `prettier`, `pre-commit`,
 *   `mypy` ...) are build tools of execution.ts, and run the checkout's code when they work in its directory;
 * - actions of GitHub, of the repository's owner, or pinned to a commit SHA (what they do is fixed and
 *   reviewable); a local composite action is read step by step.
 * Anything else (an unknown program, an interpreter's inline code, which imports from its working directory,
 * `find -exec`, `sed -f`, a third-party action on a movable ref, a container, a github-script that requires a
 * package by name, which it resolves from its working directory's `node_modules`) may load the checkout's
 * files: the first such step is named.
 */
import type { RepositoryModel } from '../../model/repository.js';
import { isFullSha, type UsesRef } from '../../model/uses.js';
import type { Step } from '../../model/workflow.js';
import { commandName, logicalLines, pipelines, scriptPipelines, words } from '../../shell.js';
import { getText } from '../../yaml/model.js';
import type { Ownership } from './ownership.js';
import type { WorkspaceEntry } from './workspace.js';
import { scriptCommands, uvTool, within, workingDirectory } from './execution.js';

/** A step as it runs in a job (index.ts's `CalledStep`). */
interface CalledStep {
  step: Step;
  caller: Step;
}

export interface LaterUse {
  /**
   * The first step after the checkout that runs a program or action which may load configuration from it, in
   * words (`\`npx eslint\``, `third-party action \`some/action@v2\``); null when every later step reads none.
   */
  unknown: { step: Step; what: string } | null;
  /** What the later steps run, in words, distinct and in order (`git apply`, `git push`, `actions/github-script`). */
  does: string[];
}

/** Shell keywords that open or close a compound command: the command, if any, follows. */
const OPENERS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', '(', 'time']);
const CLOSERS = new Set(['fi', 'done', 'esac', '}', ')', ';;', 'case', 'for', 'in', 'select', 'function']);

/** Built-ins and text tools: they read the files they are given, and no configuration of the working directory. */
const QUIET = new Set([
  'echo', 'printf', 'true', 'false', ':', 'exit', 'return', 'export', 'unset', 'set', 'shift', 'local', 'declare', 'readonly',
  'read', 'test', '[', '[[', 'cd', 'pushd', 'popd', 'sleep', 'wait', 'trap', 'break', 'continue',
  'cat', 'head', 'tail', 'wc', 'sort', 'uniq', 'cut', 'tr', 'tee', 'grep', 'egrep', 'fgrep', 'diff', 'cmp', 'comm', 'mkdir',
  'rmdir', 'rm', 'cp', 'mv', 'ln', 'ls', 'touch', 'chmod', 'stat', 'basename', 'dirname', 'realpath', 'readlink', 'pwd',
  'date', 'find', 'base64', 'sha256sum', 'sha1sum', 'sha512sum', 'md5sum', 'shasum', 'gzip', 'gunzip', 'tar', 'zip', 'unzip',
  'printenv', 'whoami', 'uname', 'hostname', 'id', 'column', 'fold', 'nl', 'rev', 'seq', 'expr', 'envsubst', 'file',
]);

/** Programs that read no executable configuration from their working directory; named in the finding. */
const DATA_ONLY = new Set([
  'git', 'gh', 'curl', 'wget', 'jq', 'yq',
  'ruff', 'black', 'isort', 'shellcheck', 'shfmt', 'yamllint', 'codespell', 'typos', 'hadolint', 'actionlint', 'zizmor',
  'gofmt', 'rustfmt', 'clang-format', 'taplo',
  // `tsconfig.json` is data, and the compiler does not run what it compiles.
  'tsc',
]);

/** `sed -f script`, `awk -f program`: the program comes from a file, which may be the checkout's. */
const PROGRAM_FILE = new Set(['sed', 'awk', 'gawk']);

/** Git configuration that makes git run a program: hooks, a file-system monitor, attribute drivers, aliases. */
const GIT_RUNS = /core\.(?:hookspath|fsmonitor|sshcommand|pager|editor)|\b(?:filter|diff|merge)\.[\w.-]+\.(?:clean|smudge|process|command|driver|textconv)|\balias\./i;

/**
 * `$(...)` (one level of parentheses inside) and backquotes: commands the line runs inside its words. An escaped
 * backquote (`\``, in a double-quoted message) is a literal character, not a substitution.
 */
const SUBSTITUTION = /\$\(((?:[^()]|\([^()]*\))*)\)|(?<!\\)`((?:[^`\\]|\\.)*)`/g;

/** What one shell command amounts to: null when it reads no configuration; `unknown` when it may. */
function commandUse(text: string, depth = 0): { unknown: string | null; does: string[] } {
  const does: string[] = [];
  // Commands substituted into this one run first, whatever this one is.
  if (depth < 3 && (text.includes('$(') || text.includes('`'))) {
    for (const m of text.matchAll(SUBSTITUTION)) {
      const inner = (m[1] ?? m[2] ?? '').trim();
      if (inner === '' || inner.startsWith('(')) continue;
      for (const pipeline of scriptPipelines(inner)) {
        for (const command of pipeline.commands) {
          const found = commandUse(command.text, depth + 1);
          if (found.unknown !== null) return found;
          does.push(...found.does);
        }
      }
    }
  }
  // The substitutions read above are one word each of this command (`branch=$(git rev-parse HEAD)` is an assignment).
  const outer = depth < 3 && (text.includes('$(') || text.includes('`')) ? text.replace(SUBSTITUTION, '_') : text;
  // `(cd pr && git diff)`, `{ git add .; }`: the brackets of a group are not part of the words.
  const list = words(outer).map((w, i, all) => (i === 0 ? w.replace(/^[({]+(?=.)/, '') : i === all.length - 1 ? w.replace(/(?<=.)[)}]+$/, '') : w));
  while (list.length > 0 && OPENERS.has(list[0] as string)) list.shift();
  // A `case` pattern (`"default")`) before the command.
  if (list.length > 0 && /^[^=(]*\)$/.test(list[0] as string)) list.shift();
  if (list.length === 0 || CLOSERS.has(list[0] as string)) return { unknown: null, does };
  const program = commandName(list.join(' '));
  // An operand of a test split at its `&&` (`[[ "$A" == x && -n "$B" ]]`): an option or a closing bracket is no program.
  if (program === null || program.startsWith('-') || program === ']]' || program === ']') return { unknown: null, does };
  // `find . -exec {} \;` runs what it finds.
  if (program === 'find' && list.some((w) => w === '-exec' || w === '-execdir' || w === '-ok' || w === '-okdir')) return { unknown: '`find -exec`', does };
  if (QUIET.has(program)) return { unknown: null, does };
  if (PROGRAM_FILE.has(program)) return list.includes('-f') ? { unknown: `\`${program} -f\``, does } : { unknown: null, does };
  // `uvx ruff`, `uv tool run black`: a tool from the package index, whose verdict is the tool's own.
  if (program === 'uvx' || program === 'uv') {
    const tool = uvTool(program, list.slice(list.findIndex((w) => w === program || w.endsWith(`/${program}`)) + 1));
    if (tool !== undefined && tool !== null && DATA_ONLY.has(tool.bare)) {
      does.push(tool.shown);
      return { unknown: null, does };
    }
  }
  if (!DATA_ONLY.has(program)) return { unknown: `\`${[program, list[list.indexOf(program) + 1] ?? ''].join(' ').trim()}\``, does };
  if (program === 'git' && GIT_RUNS.test(text)) return { unknown: '`git` with configuration that runs a program', does };
  const at = list.findIndex((w) => w === program || w.endsWith(`/${program}`));
  const sub = program === 'git' || program === 'gh' ? list.slice(at + 1).find((w) => !w.startsWith('-') && !/^[\w.-]+=/.test(w)) : undefined;
  does.push(sub === undefined ? program : `${program} ${sub}`);
  return { unknown: null, does };
}

/** Node's own modules: `require('fs')` loads nothing of the workspace. */
const NODE_BUILTINS = new Set([
  'assert', 'buffer', 'child_process', 'crypto', 'dns', 'events', 'fs', 'fs/promises', 'http', 'https', 'net', 'os', 'path',
  'process', 'querystring', 'readline', 'stream', 'string_decoder', 'timers', 'tls', 'url', 'util', 'worker_threads', 'zlib',
]);

/**
 * The first package an `actions/github-script` script requires by name that is not one of Node's own modules, or
 * null: github-script resolves such a name from its working directory (`require.resolve(id, { paths: [cwd] })`),
 * so a checkout there that brings a `node_modules/<name>` decides what it loads. Relative paths are execution.ts's.
 */
function packageRequire(script: string): string | null {
  for (const m of script.matchAll(/\b(?:require|import)\s*\(\s*(['"`])([^'"`\n]{1,200})\1/g)) {
    const id = m[2] as string;
    if (id.startsWith('.') || id.startsWith('/') || id.startsWith('node:') || NODE_BUILTINS.has(id)) continue;
    return id;
  }
  return null;
}

/**
 * Actions that read settings from the checkout which send the job's credential elsewhere: SonarQube's scanner reads
 * `sonar-project.properties` from its base directory, and `sonar.host.url` there names the server it authenticates
 * to with `SONAR_TOKEN` (https://docs.sonarsource.com/sonarqube-server/analyzing-source-code/scanners/sonarscanner/,
 * "Configuring your project"; the action passes no host unless `SONAR_HOST_URL` is set).
 */
const CONFIG_READERS: ReadonlyMap<string, string> = new Map([
  ['sonarsource/sonarqube-scan-action', '(it reads `sonar-project.properties` from the workspace, where `sonar.host.url` can send its token to another server)'],
  ['sonarsource/sonarcloud-github-action', '(it reads `sonar-project.properties` from the workspace, where `sonar.host.url` can send its token to another server)'],
]);

/** What one step amounts to (a local composite action's own steps are read separately, as called steps). */
function stepUse(step: Step, ownership: (ref: UsesRef) => Ownership, repository: RepositoryModel): { unknown: string | null; does: string[] } {
  const ref = step.usesRef;
  if (ref?.kind === 'local') {
    if (ref.self === true || repository.localAction(step)?.using === 'composite') return { unknown: null, does: [] };
    return { unknown: `local action \`${ref.path}\``, does: [] };
  }
  if (ref?.kind === 'repository') {
    const name = ref.path === '' ? ref.slug : `${ref.slug}/${ref.path}`;
    if (ref.slug === 'actions/github-script') {
      const outside = packageRequire(getText(step.with, 'script') ?? '');
      if (outside !== null) return { unknown: `\`require('${outside}')\` in actions/github-script, which resolves packages from its working directory's \`node_modules\``, does: [] };
    }
    // A scanner that takes its server from the checkout's configuration hands that server the job's token, whoever
    // wrote the action and however it is pinned.
    const reader = CONFIG_READERS.get(ref.slug);
    if (reader !== undefined) return { unknown: `\`${name}\` ${reader}`, does: [] };
    if (ownership(ref) !== 'third-party' || isFullSha(ref.ref)) return { unknown: null, does: [name] };
    return { unknown: `third-party action \`${name}@${ref.ref}\``, does: [] };
  }
  if (ref !== undefined) return { unknown: ref.kind === 'docker' ? `container \`docker://${ref.image}\`` : 'an action it cannot read', does: [] };
  const run = step.run;
  if (run === undefined || typeof run.value !== 'string') return { unknown: null, does: [] };
  const does: string[] = [];
  for (const line of logicalLines(run.value)) {
    for (const pipeline of pipelines(line)) {
      for (const command of pipeline.commands) {
        const found = commandUse(command.text);
        if (found.unknown !== null) return found;
        does.push(...found.does);
      }
    }
  }
  return { unknown: null, does };
}

/**
 * What the steps from the checkout's own step on do with it (`steps`: the job's called steps, in order): the first
 * that may load configuration from it, and what the others run. A step that can never run in the same job run as
 * the checkout (`sameRun`: their conditions hold on no common occasion, such as one for forks' pull requests and
 * one for same-repository ones) does nothing with it.
 */
export function laterUse(steps: readonly CalledStep[], entry: WorkspaceEntry, ownership: (ref: UsesRef) => Ownership, repository: RepositoryModel, sameRun: (a: Step, b: Step) => boolean = () => true): LaterUse {
  const does: string[] = [];
  for (const { step, caller } of steps) {
    if (caller.index < entry.step.index) continue;
    if (caller !== entry.step && !sameRun(entry.step, caller)) continue;
    // The checkout step itself (actions/checkout); a script or composite action that checks out is read on.
    if (step === entry.step && step.run === undefined && step.usesRef?.kind !== 'local') continue;
    const found = stepUse(step, ownership, repository);
    // A command that may load configuration from its working directory, run outside the checkout's own
    // subdirectory (`path: pr`), never cd-ing into it nor naming it, does not read its files there.
    if (found.unknown !== null && step.run !== undefined && outsideDirectory(step, entry.dir)) {
      does.push(...found.does);
      continue;
    }
    // Read command by command, each in the directory it runs in (after the script's `cd`s): a tool run in another
    // directory (`cd upstream && npx tool`) reads its configuration there, not from the checkout's `path:`.
    const inside = found.unknown !== null && step.run !== undefined && entry.dir !== null && entry.dir !== '' ? unknownInDirectory(step, entry.dir) : undefined;
    if (inside === null) {
      does.push(...found.does);
      continue;
    }
    if (inside !== undefined) return { unknown: { step, what: inside }, does: [...new Set(does)] };
    if (found.unknown !== null) return { unknown: { step, what: found.unknown }, does: [...new Set(does)] };
    does.push(...found.does);
  }
  return { unknown: null, does: [...new Set(does)] };
}

/**
 * The first command of a `run:` step that may load configuration from its working directory and runs in `dir` (or
 * in a directory not known, or names `dir` as a path), in words; null when every such command runs elsewhere.
 */
function unknownInDirectory(step: Step, dir: string): string | null {
  const script = typeof step.run?.value === 'string' ? step.run.value : '';
  const named = new RegExp(`(?:^|[\\s"'=/])${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|[\\s"']|$)`);
  for (const command of scriptCommands(script, workingDirectory(step))) {
    const found = commandUse(command.text);
    if (found.unknown === null) continue;
    if (command.cwd === null || within(command.cwd, dir) || named.test(command.text)) return found.unknown;
  }
  return null;
}

/**
 * True when a `run:` step starts outside `dir` (a subdirectory the checkout went to) and its script never names it:
 * a tool it runs reads configuration from its own directory, not from the checkout's.
 */
function outsideDirectory(step: Step, dir: string | null): boolean {
  if (dir === null || dir === '') return false;
  const cwd = workingDirectory(step) ?? '';
  if (cwd === dir || cwd.startsWith(`${dir}/`)) return false;
  const script = typeof step.run?.value === 'string' ? step.run.value : '';
  const name = dir.split('/')[0] ?? dir;
  return !script.includes(name);
}

/**
 * Actions whose `action.yml` declares a `post:` step (a cleanup, a cache save, a logout), which the runner starts
 * after the job's last step with the environment `$GITHUB_ENV` defines. Source: each action's `action.yml`.
 */
const POST_STEP_ACTIONS: ReadonlySet<string> = new Set([
  'actions/checkout',
  'actions/cache',
  'actions/setup-node',
  'actions/setup-python',
  'actions/setup-go',
  'actions/setup-java',
  'actions/setup-dotnet',
  'actions/create-github-app-token',
  'astral-sh/setup-uv',
  'aws-actions/configure-aws-credentials',
  'azure/login',
  'docker/login-action',
  'docker/setup-buildx-action',
  'google-github-actions/auth',
  'gradle/actions/setup-gradle',
  'pnpm/action-setup',
  'swatinem/rust-cache',
  'webfactory/ssh-agent',
]);

/** The steps that run with what a step writes to `$GITHUB_ENV` / `$GITHUB_PATH`. */
export interface EnvReaders {
  /** The later steps of the job (in the same job run). */
  later: Step[];
  /** Earlier actions whose post step runs after the job's last step, with that environment. */
  posts: Step[];
}

/**
 * Who reads what `step` writes to `$GITHUB_ENV` / `$GITHUB_PATH`: the later steps of its job that can run in the
 * same job run (`sameRun`), and the post steps of actions that ran before it (`actions/checkout`'s cleanup, a
 * cache save). Both empty for a job's last step after no such action: the variables it defines reach nothing.
 */
export function envReaders(step: Step, sameRun: (a: Step, b: Step) => boolean): EnvReaders {
  const job = step.job;
  if (job === null) return { later: [], posts: [] };
  const later = job.steps.filter((s) => s.index > step.index && sameRun(step, s));
  const posts = job.steps.filter((s) => s.index < step.index && s.usesRef?.kind === 'repository' && POST_STEP_ACTIONS.has(s.usesRef.path === '' ? s.usesRef.slug : `${s.usesRef.slug}/${s.usesRef.path}`) && sameRun(step, s));
  return { later, posts };
}

/** True when nothing runs with what the step wrote (a job's last step, after no action with a post step). */
export function nothingReads(readers: EnvReaders): boolean {
  return readers.later.length === 0 && readers.posts.length === 0;
}
