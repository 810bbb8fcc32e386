import type { Step } from '../model/workflow.js';
import { keyText, type YScalar } from '../yaml/model.js';

/** How an action runs an input: the language an injected `${{ }}` ends up in. */
export type CodeLanguage = 'shell' | 'JavaScript' | 'Python' | 'PowerShell';

interface CodeSinkAction {
  /** Input names, lower-case (GitHub compares input names case-insensitively). */
  inputs: readonly string[];
  language: CodeLanguage;
}

/**
 * Actions that execute an input as code. Keys are `owner/repo` (or `owner/repo/path` for actions in a
 * sub-directory), lower-case. Sources: each action's `action.yml` and README; CodeQL's and zizmor's
 * injection-sink models list most of them.
 */
export const CODE_SINK_ACTIONS: Readonly<Record<string, CodeSinkAction>> = {
  'actions/github-script': { inputs: ['script'], language: 'JavaScript' },
  'satackey/action-js-inline': { inputs: ['script'], language: 'JavaScript' },
  'cardinalby/js-eval-action': { inputs: ['expression'], language: 'JavaScript' },
  'jannekem/run-python-script-action': { inputs: ['script'], language: 'Python' },
  'azure/powershell': { inputs: ['inlinescript'], language: 'PowerShell' },
  'amadevus/pwsh-script': { inputs: ['script'], language: 'PowerShell' },
  'azure/cli': { inputs: ['inlinescript'], language: 'shell' },
  // Remote shells: the script runs on the deployment host, with whatever the action connects with.
  'appleboy/ssh-action': { inputs: ['script'], language: 'shell' },
  'garygrossgarten/github-action-ssh': { inputs: ['command'], language: 'shell' },
  'jimcronqvist/action-ssh': { inputs: ['command'], language: 'shell' },
  'easingthemes/ssh-deploy': { inputs: ['script_before', 'script_after'], language: 'shell' },
  // Containers and virtual machines.
  'uraimo/run-on-arch-action': { inputs: ['run', 'install', 'setup'], language: 'shell' },
  // `options` are `docker run` options (`--entrypoint`, `-v`, `--privileged`): zizmor's template-injection sinks list both.
  'addnab/docker-run-action': { inputs: ['run', 'options'], language: 'shell' },
  'kohlerdominik/docker-run-action': { inputs: ['run'], language: 'shell' },
  'cross-platform-actions/action': { inputs: ['run'], language: 'shell' },
  'vmactions/freebsd-vm': { inputs: ['run', 'prepare'], language: 'shell' },
  'vmactions/openbsd-vm': { inputs: ['run', 'prepare'], language: 'shell' },
  'vmactions/netbsd-vm': { inputs: ['run', 'prepare'], language: 'shell' },
  'vmactions/dragonflybsd-vm': { inputs: ['run', 'prepare'], language: 'shell' },
  'vmactions/solaris-vm': { inputs: ['run', 'prepare'], language: 'shell' },
  'vmactions/omnios-vm': { inputs: ['run', 'prepare'], language: 'shell' },
  'devcontainers/ci': { inputs: ['runcmd'], language: 'shell' },
  'pyo3/maturin-action': { inputs: ['before-script-linux'], language: 'shell' },
  // Command wrappers (retries, virtual displays, emulators, post steps).
  'nick-fields/retry': { inputs: ['command', 'on_retry_command', 'new_command_on_retry'], language: 'shell' },
  'nick-invision/retry': { inputs: ['command', 'on_retry_command', 'new_command_on_retry'], language: 'shell' },
  'wandalen/wretry.action': { inputs: ['command'], language: 'shell' },
  'gabrielbb/xvfb-action': { inputs: ['run'], language: 'shell' },
  'coactions/setup-xvfb': { inputs: ['run'], language: 'shell' },
  'reactivecircus/android-emulator-runner': { inputs: ['script', 'pre-emulator-launch-script'], language: 'shell' },
  'gacts/run-and-post-run': { inputs: ['run', 'post'], language: 'shell' },
  'mathiasvr/command-output': { inputs: ['run'], language: 'shell' },
  'cypress-io/github-action': { inputs: ['build', 'start', 'command', 'install-command'], language: 'shell' },
  'bahmutov/npm-install': { inputs: ['install-command'], language: 'shell' },
  // Its `preCommands` and `postCommands` run through `child_process.exec` (a shell: src/exec.ts `execShell`); its
  // `command` is split into the arguments of `wrangler` by @actions/exec, with no shell (src/wranglerAction.ts).
  'cloudflare/wrangler-action': { inputs: ['precommands', 'postcommands'], language: 'shell' },
  // Templates compiled to code. tibdex/backport: its action.yml calls each of these a "Lodash template", and
  // lodash's `_.template` runs `<% %>` as JavaScript in the action's process, which holds its token.
  'tibdex/backport': { inputs: ['title_template', 'body_template', 'head_template', 'labels_template'], language: 'JavaScript' },
  // CodeQL's actions model (actions/ql/lib/ext/manual/imjohnbo_issue-bot.model.yml): code-injection sinks.
  'imjohnbo/issue-bot': { inputs: ['body', 'linked-comments-previous-issue-text', 'linked-comments-new-issue-text'], language: 'JavaScript' },
  // CodeQL's actions model (actions/ql/lib/ext/manual/andresz1_size-limit-action.model.yml): the scripts it runs.
  'andresz1/size-limit-action': { inputs: ['script', 'build_script', 'clean_script'], language: 'shell' },
  // Query tools whose action runs the whole input as a command line in a shell.
  'mikefarah/yq': { inputs: ['cmd'], language: 'shell' },
  'sergeysova/jq-action': { inputs: ['cmd'], language: 'shell' },
};

export interface CodeSinkInput {
  /** The input's name as written in `with:`. */
  name: string;
  node: YScalar;
  language: CodeLanguage;
}

/** The `with:` inputs of a step that its action executes as code (string values only). */
export function codeSinkInputs(step: Step): CodeSinkInput[] {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository' || step.with === undefined) return [];
  const slug = ref.slug;
  const sink = CODE_SINK_ACTIONS[ref.path === '' ? slug : `${slug}/${ref.path.toLowerCase()}`];
  if (sink === undefined) return [];
  const result: CodeSinkInput[] = [];
  for (const pair of step.with.pairs) {
    const name = keyText(pair.key);
    if (pair.value.kind !== 'scalar' || typeof pair.value.value !== 'string') continue;
    if (sink.inputs.includes(name.toLowerCase())) result.push({ name, node: pair.value, language: sink.language });
  }
  return result;
}

/**
 * True when `offset` of a JavaScript source is in code, not inside a string, template literal or comment.
 * `${{ }}` spans (`skip`, value offsets) are stepped over, since GitHub replaces them before the script runs.
 * A forgiving scan (regular expression literals are not recognised), linear in the script's length.
 */
export function inJavaScriptCode(script: string, offset: number, skip: readonly { start: number; end: number }[]): boolean {
  let state: 'code' | "'" | '"' | '`' | 'line' | 'block' = 'code';
  // Template literals nest through `${ ... }`: the brace depth at which each open template resumes.
  const templates: number[] = [];
  let depth = 0;
  let next = 0;
  for (let i = 0; i < offset && i < script.length; i++) {
    while (next < skip.length && (skip[next]?.end ?? 0) <= i) next++;
    const span = skip[next];
    if (span !== undefined && span.start <= i && i < span.end) {
      i = span.end - 1;
      continue;
    }
    const c = script[i];
    const d = script[i + 1];
    switch (state) {
      case 'code':
        if (c === '/' && d === '/') state = 'line';
        else if (c === '/' && d === '*') state = 'block';
        else if (c === "'" || c === '"' || c === '`') state = c;
        else if (c === '{') depth++;
        else if (c === '}') {
          if (templates.length > 0 && templates[templates.length - 1] === depth) {
            templates.pop();
            state = '`';
          } else depth = Math.max(0, depth - 1);
        }
        break;
      case 'line':
        if (c === '\n') state = 'code';
        break;
      case 'block':
        if (c === '*' && d === '/') {
          state = 'code';
          i++;
        }
        break;
      case '`':
        if (c === '\\') i++;
        else if (c === '`') state = 'code';
        else if (c === '$' && d === '{') {
          templates.push(depth);
          state = 'code';
          i++;
        }
        break;
      default:
        if (c === '\\') i++;
        else if (c === state || c === '\n') state = 'code';
    }
  }
  return state === 'code';
}
