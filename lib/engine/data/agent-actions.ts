/**
 * AI coding-agent actions: steps that hand a language model with tools (a shell, file edits, the GitHub
 * API) the repository, the job's credentials and a prompt built from event content. Classifiers and plain
 * inference actions (no tools) are not listed. Each entry says where its behaviour is documented.
 */
export interface AgentAction {
  /** `owner/repo` (lower case), optionally `owner/repo/path`. */
  slug: string;
  name: string;
  /**
   * The action refuses to run for an actor (the account whose act fired the event: the author on
   * `issues: opened`, the commenter, the reviewer) without write access to the repository, unless the named
   * input widens it (with `pattern`, only a value matching it; with `withInput`, only when that input is given
   * too): outsiders cannot start it, only feed it text through the thread it reads. `events`: the events on
   * which the action makes the check (absent: every event).
   */
  checksActor?: { unlessInput: string; pattern?: RegExp; withInput?: string; events?: readonly string[] };
  /**
   * Inputs whose presence restricts the agent's tools to an allowlist (no free shell): an injected prompt
   * then steers only the agent's output. A pattern the input's text must match, when only some values do.
   */
  toolAllowlist?: { input: string; pattern?: RegExp }[];
  /**
   * The agent can run any command: `true` when its default tools include a shell (Gemini CLI's
   * `run_shell_command`, Codex's `workspace-write` sandbox, opencode's `bash`), else the inputs whose value
   * grants one (Claude Code runs no Bash unless `allowed_tools` / `--allowedTools` names it).
   */
  shell: true | { input: string; pattern: RegExp }[];
  /**
   * Inputs that name the commands the agent may run when it has no free shell: `tool` (global) matches one
   * allowed command tool, its first group the command (no group: any command); `within` (global), when given,
   * the parts of the input's text that list allowed tools (its first group), so a disallowed list is not read.
   */
  commandTools?: { input: string; tool: RegExp; within?: RegExp }[];
  /**
   * Where it is documented that the agent's allowed commands (`commandTools`) are matched as a prefix of the
   * command string its shell tool hands to `bash -c`: a redirect written after an allowed command is part of that
   * command, so an allowed `echo` writes any file the job can (`agentFileWriter`).
   */
  prefixCommands?: string;
  /**
   * What the action itself does with the job's GITHUB_TOKEN. `given`: it writes with it only when the workflow
   * hands it over (an input or `env:` set to `github.token` / `secrets.GITHUB_TOKEN`); otherwise it reads with it
   * at most and acts through its own app's token, so the job's write scopes are not its need (a steered agent
   * with a shell can still take them). Absent: it may write with the job's token on its own.
   */
  jobToken?: 'given';
  /**
   * The action's own action.yml reads the job's token (`${{ github.token }}`) whatever the workflow passes, so
   * the step holds it even when no input or `env:` hands it over. `write`: the action may write with it (its
   * write scopes are the action's to use); `read`: it only reads with it, in `what` (a check of the actor's
   * access), so the job's write scopes stay unused.
   */
  implicitToken?: { use: 'write' | 'read'; what: string };
  /**
   * The model provider's key the action keeps out of the agent's reach: the secret handed in `input` goes to a
   * process the action starts before the agent (`keeper`), and the agent reaches the model through it, so an
   * injected instruction can spend the key during the run but not take it. Only while `strategy` (the input
   * that sets how the agent is confined) is absent (`default`) or takes a value `keeps` matches: any other value
   * (or one set by an expression) lets the agent read the keeper's memory. `source`: where this is documented.
   */
  proxiedKey?: { input: string; keeper: string; strategy: { input: string; default: string; keeps: RegExp }; source: string };
  /**
   * The action's permission list, when it is all the agent may use: `allowed` names the inputs whose text lists
   * the tools it may use (`within`, global: the parts of the text that list them, its first group), read only
   * when every input of `requires` is given (claude-code-action's agent mode, `prompt`: without it, tag mode
   * adds editing and `git push` tools of its own) and no input of `unless` matches its pattern (a mode, a
   * permission setting or a settings file that grants more). `modelKeys`: the inputs that hand it the model
   * provider's credential. See `agentTalkOnly` (analysis/agent-input.ts) for which tools only read or talk.
   */
  toolList?: {
    allowed: { input: string; within?: RegExp }[];
    requires: string[];
    unless: { input: string; pattern: RegExp }[];
    modelKeys: string[];
    source: string;
  };
  source: string;
}

export const AGENT_ACTIONS: readonly AgentAction[] = [
  {
    slug: 'anthropics/claude-code-action',
    name: 'Claude Code',
    // The check runs on the events whose thread it reads (src/github/context.ts `ENTITY_EVENT_NAMES`, with
    // `pull_request_target` read as `pull_request`; src/entrypoints/prepare.ts). It runs on `workflow_run` only
    // since August 2026 (#1590), so a `workflow_run` start is not counted as checked. `allowed_non_write_users`
    // lifts it only when `github_token` is given (src/github/validation/permissions.ts), and only `*` lets
    // everyone in; a list names the users the maintainers chose. A `[bot]` actor passes: an app acts on the
    // repository only where its maintainers installed it.
    checksActor: {
      unlessInput: 'allowed_non_write_users',
      pattern: /\*/,
      withInput: 'github_token',
      events: ['issues', 'issue_comment', 'pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment'],
    },
    // `github_token`: "optional if using GitHub App" (action.yml): without it the action writes with the Claude
    // app's token from an OIDC exchange. Its action.yml hands the job's token to its prepare step whatever the
    // inputs (`DEFAULT_WORKFLOW_TOKEN: ${{ github.token }}`), which reads CI results with it and, in some modes and
    // versions, writes reviews and comments with it: the step holds the job's token and may use its scopes.
    implicitToken: { use: 'write', what: 'its prepare step (`DEFAULT_WORKFLOW_TOKEN`)' },
    // Claude Code runs no Bash commands unless they are allowed; `Bash` alone or `Bash(*)` allows every command.
    shell: [
      { input: 'allowed_tools', pattern: /(?:^|[\s,"'])Bash(?:\(\*\)|(?!\())/ },
      { input: 'claude_args', pattern: /--dangerously-skip-permissions|--allowed-?tools\b[^\n]*?(?:^|[\s,"'=])Bash(?:\(\*\)|(?!\())/i },
    ],
    // `Bash(bun install)`, `Bash(npm run test:*)`: the commands Claude Code may run without asking.
    commandTools: [
      { input: 'allowed_tools', tool: /\bBash(?:\(([^)]*)\))?/g },
      { input: 'claude_args', tool: /\bBash(?:\(([^)]*)\))?/g, within: /--allowed-?tools(?:=|\s+)((?:(?!\s--)[^\n])*)/gi },
    ],
    // src/modes/detector.ts: a `prompt` input runs agent mode (src/modes/agent/index.ts), whose agent gets only the
    // tools of `--allowedTools` (with Claude Code's read-only tools); `track_progress: true` forces tag mode
    // (src/modes/tag/index.ts), which adds `acceptEdits` and `git add` / `commit` / push tools. Claude Code runs
    // headless: a tool outside the list is denied. `--permission-mode`, `--dangerously-skip-permissions` or a
    // `settings` input with its own `allow` / `defaultMode` grant more.
    toolList: {
      allowed: [{ input: 'allowed_tools' }, { input: 'claude_args', within: /--allowed-?tools(?:=|\s+)((?:(?!\s--)[^\n])*)/gi }],
      requires: ['prompt'],
      unless: [
        { input: 'track_progress', pattern: /^(?!\s*false\s*$)/i },
        { input: 'claude_args', pattern: /--dangerously-skip-permissions|--permission-mode|--allow-dangerously/i },
        { input: 'settings', pattern: /"(?:allow|defaultMode)"|bypassPermissions|acceptEdits/ },
      ],
      modelKeys: ['anthropic_api_key', 'claude_code_oauth_token'],
      source: 'https://github.com/anthropics/claude-code-action/blob/main/src/modes/agent/index.ts',
    },
    source: 'https://github.com/anthropics/claude-code-action/blob/main/docs/security.md',
  },
  {
    slug: 'anthropics/claude-code-base-action',
    name: 'Claude Code (base action)',
    // No GitHub token input: Claude Code gets one only through the step's `env:`.
    jobToken: 'given',
    // Claude Code runs no Bash commands unless they are allowed; `Bash` alone or `Bash(*)` allows every command.
    shell: [
      { input: 'allowed_tools', pattern: /(?:^|[\s,"'])Bash(?:\(\*\)|(?!\())/ },
      { input: 'claude_args', pattern: /--dangerously-skip-permissions|--allowed-?tools\b[^\n]*?(?:^|[\s,"'=])Bash(?:\(\*\)|(?!\())/i },
    ],
    // `Bash(bun install)`, `Bash(npm run test:*)`: the commands Claude Code may run without asking.
    commandTools: [
      { input: 'allowed_tools', tool: /\bBash(?:\(([^)]*)\))?/g },
      { input: 'claude_args', tool: /\bBash(?:\(([^)]*)\))?/g, within: /--allowed-?tools(?:=|\s+)((?:(?!\s--)[^\n])*)/gi },
    ],
    // It always runs its prompt with only the tools it is allowed (no mode of its own adds any).
    toolList: {
      allowed: [{ input: 'allowed_tools' }, { input: 'claude_args', within: /--allowed-?tools(?:=|\s+)((?:(?!\s--)[^\n])*)/gi }],
      requires: [],
      unless: [
        { input: 'claude_args', pattern: /--dangerously-skip-permissions|--permission-mode|--allow-dangerously/i },
        { input: 'settings', pattern: /"(?:allow|defaultMode)"|bypassPermissions|acceptEdits/ },
      ],
      modelKeys: ['anthropic_api_key', 'claude_code_oauth_token'],
      source: 'https://github.com/anthropics/claude-code-base-action',
    },
    source: 'https://github.com/anthropics/claude-code-base-action',
  },
  {
    slug: 'google-github-actions/run-gemini-cli',
    name: 'Gemini CLI',
    // No GitHub token input (action.yml): its GitHub tools read `GITHUB_TOKEN` from the step's `env:`.
    jobToken: 'given',
    // `settings: {"tools": {"core": ["read_file", "run_shell_command(echo)"]}}` limits the built-in tools.
    toolAllowlist: [{ input: 'settings', pattern: /"core"\s*:/ }],
    shell: true,
    // `"core": ["run_shell_command(npm test)"]`: the commands an allowlist still lets it run.
    commandTools: [{ input: 'settings', tool: /\brun_shell_command(?:\(([^)]*)\))?/g }],
    // The action runs `gemini --yolo --prompt` (action.yml), and in YOLO mode a redirect after an allowed command is
    // not sent back for approval (google-gemini/gemini-cli#16183, 0.25.0), as it is in other modes since 0.24.0 (#15683).
    prefixCommands: 'https://www.geminicli.com/docs/tools/shell (commands run with `bash -c`; `commandPrefix` matches the start of the command string)',
    source: 'https://github.com/google-github-actions/run-gemini-cli',
  },
  {
    // The action's first home, before it moved to google-github-actions/run-gemini-cli.
    slug: 'google-gemini/gemini-cli-action',
    name: 'Gemini CLI',
    jobToken: 'given',
    toolAllowlist: [{ input: 'settings', pattern: /"core"\s*:/ }],
    shell: true,
    // `"core": ["run_shell_command(npm test)"]`: the commands an allowlist still lets it run.
    commandTools: [{ input: 'settings', tool: /\brun_shell_command(?:\(([^)]*)\))?/g }],
    prefixCommands: 'https://www.geminicli.com/docs/tools/shell (commands run with `bash -c`; `commandPrefix` matches the start of the command string)',
    source: 'https://github.com/google-github-actions/run-gemini-cli#readme',
  },
  {
    slug: 'openai/codex-action',
    name: 'Codex',
    // "users who have write access to the GitHub repo have access by default"; `allow-users: '*'` opens it to all.
    checksActor: { unlessInput: 'allow-users', pattern: /\*/ },
    // The job's token is used only for the write-access check (a read); Codex itself gets none (action.yml).
    jobToken: 'given',
    implicitToken: { use: 'read', what: 'its write-access check (`GITHUB_TOKEN: ${{ github.token }}` in action.yml)' },
    toolAllowlist: [
      { input: 'sandbox', pattern: /^\s*read-only\s*$/ },
      { input: 'safety-strategy', pattern: /^\s*read-only\s*$/ },
      { input: 'permission-profile', pattern: /^\s*:?read-only\s*$/ },
    ],
    shell: true,
    // The README's "Safety Strategy" and action.yml's `safety-strategy`: the step "Start Responses API proxy" pipes
    // `openai-api-key` into `codex-responses-api-proxy` (which reads it from stdin, with the variable unset) and
    // Codex talks to the model through it. `drop-sudo` (the default) revokes the runner user's sudo before Codex
    // runs, `unprivileged-user` runs Codex as another user: either way it cannot read the proxy's memory. With
    // `read-only` Codex "still run[s] as the default user ..., which likely has sudo privileges, so it could read
    // `openai-api-key` from memory"; `unsafe` restricts nothing (and is the only choice on Windows runners).
    proxiedKey: {
      input: 'openai-api-key',
      keeper: 'the Responses API proxy the action starts',
      strategy: { input: 'safety-strategy', default: 'drop-sudo', keeps: /^\s*(?:drop-sudo|unprivileged-user)\s*$/ },
      source: 'https://github.com/openai/codex-action#safety-strategy',
    },
    source: 'https://github.com/openai/codex-action/blob/main/action.yml',
  },
  {
    slug: 'sst/opencode',
    name: 'opencode',
    shell: true,
    source: 'https://opencode.ai/docs/github/',
  },
  {
    // opencode's repository under its later owner (the same `github` action).
    slug: 'anomalyco/opencode',
    name: 'opencode',
    shell: true,
    source: 'https://opencode.ai/docs/github/',
  },
  {
    // Bonk wraps opencode (`opencode github run`) and fails for actors below `permissions` (default `write`).
    slug: 'ask-bonk/ask-bonk',
    name: 'Bonk (opencode)',
    checksActor: { unlessInput: 'permissions', pattern: /^\s*any\s*$/i },
    shell: true,
    source: 'https://github.com/ask-bonk/ask-bonk/blob/main/github/action.yml',
  },
];

/** The `owner/repo` of every entry: a reference to any other repository is no agent (one lookup for most steps). */
const AGENT_REPOSITORIES: ReadonlySet<string> = new Set(AGENT_ACTIONS.map((a) => a.slug.split('/').slice(0, 2).join('/')));

/**
 * Repository names of the table distinctive enough that a repository of that name under another owner is a copy of
 * the same action (a fork kept to pin or patch it): `acme/claude-code-action`. Not `opencode`, a name other
 * projects use too.
 */
const COPIED_NAMES: ReadonlyMap<string, AgentAction> = new Map(
  AGENT_ACTIONS.filter((a) => a.slug.split('/').length === 2 && a.slug.split('/')[1] !== 'opencode').map((a) => [a.slug.split('/')[1] as string, a]),
);
const copies = new Map<string, AgentAction>();

/** The agent a `owner/repo[/path]` reference runs, or undefined. `slug` is the reference's `owner/repo`. */
export function agentAction(slug: string, path: string): AgentAction | undefined {
  if (!AGENT_REPOSITORIES.has(slug)) {
    const original = path === '' ? COPIED_NAMES.get(slug.slice(slug.indexOf('/') + 1)) : undefined;
    if (original === undefined) return undefined;
    let copy = copies.get(slug);
    if (copy === undefined) {
      // Named as a copy: its code may differ from the original's, whose documented behaviour is assumed.
      copy = { ...original, name: `${original.name} (a copy at \`${slug}\`)` };
      if (copies.size < 64) copies.set(slug, copy);
    }
    return copy;
  }
  const full = path === '' ? slug : `${slug}/${path.toLowerCase()}`;
  return AGENT_ACTIONS.find((a) => a.slug === slug || full === a.slug || full.startsWith(`${a.slug}/`));
}

/**
 * AI coding agents' command-line tools, run headless by a `run:` script (`claude -p`, `codex exec`, `gemini -p`,
 * `opencode run`, `copilot -p`), directly or through a package runner (`npx @openai/codex exec`). Like the
 * actions, they act with what the job holds; unlike them, none checks who started the run. Each entry says where
 * its flags are documented.
 */
export interface AgentCli {
  /** A stable key for findings (`cli:codex`). */
  key: string;
  name: string;
  /** Program names, and the npm packages a package runner (`npx`, `bunx`, `pnpx`, `npm exec`) runs it from. */
  programs: readonly string[];
  packages: readonly string[];
  /** The arguments run it headless on a prompt (not `--version`, not an interactive session). */
  headless: (args: readonly string[]) => boolean;
  /** The arguments give it a shell that runs any command (`true`: its defaults do). */
  shell: true | ((args: readonly string[]) => boolean);
  /** The arguments restrict its tools so that it runs nothing that changes anything (read-only). */
  restricted?: (args: readonly string[]) => boolean;
  /** With `restricted` or no shell: the commands the arguments still allow (`--allowedTools "Bash(npm test)"`). */
  commandTools?: { option: RegExp; tool: RegExp };
  /**
   * Its permission list: the option whose values (every argument up to the next option) list the tools it may
   * use, read as all it gets unless an argument matches `unless` (a permission mode or settings that grant more).
   */
  toolList?: { option: RegExp; unless: RegExp };
  source: string;
}

/** The value of option `name` (`--name value` or `--name=value`), every occurrence. */
function optionValues(args: readonly string[], names: readonly string[]): string[] {
  const found: string[] = [];
  args.forEach((arg, i) => {
    for (const name of names) {
      if (arg === name && args[i + 1] !== undefined) found.push(args[i + 1] as string);
      else if (arg.startsWith(`${name}=`)) found.push(arg.slice(name.length + 1));
    }
  });
  return found;
}

const CLAUDE_BASH = /(?:^|[\s,"'])Bash(?:\(\*\)|(?!\())/;

export const AGENT_CLIS: readonly AgentCli[] = [
  {
    key: 'cli:claude',
    name: 'Claude Code (CLI)',
    programs: ['claude'],
    packages: ['@anthropic-ai/claude-code'],
    headless: (args) => args.includes('-p') || args.includes('--print'),
    shell: (args) =>
      args.includes('--dangerously-skip-permissions') ||
      optionValues(args, ['--permission-mode']).some((v) => v === 'bypassPermissions') ||
      optionValues(args, ['--allowedTools', '--allowed-tools']).some((v) => CLAUDE_BASH.test(v)),
    commandTools: { option: /^--allowed-?tools$/i, tool: /\bBash(?:\(([^)]*)\))?/g },
    toolList: { option: /^--allowed-?tools(?:=|$)/i, unless: /^--(?:dangerously-skip-permissions|allow-dangerously-skip-permissions|permission-mode|settings)(?:=|$)/ },
    source: 'https://docs.anthropic.com/en/docs/claude-code/cli-reference',
  },
  {
    key: 'cli:codex',
    name: 'Codex (CLI)',
    programs: ['codex'],
    packages: ['@openai/codex'],
    headless: (args) => {
      const sub = args.find((a) => !a.startsWith('-'));
      return sub === 'exec' || sub === 'e';
    },
    // `codex exec` runs in a read-only sandbox unless told otherwise.
    shell: (args) =>
      args.includes('--full-auto') ||
      args.includes('--dangerously-bypass-approvals-and-sandbox') ||
      args.includes('--yolo') ||
      optionValues(args, ['--sandbox', '-s']).some((v) => v === 'workspace-write' || v === 'danger-full-access'),
    restricted: (args) => !args.includes('--full-auto') && !args.includes('--dangerously-bypass-approvals-and-sandbox') && !args.includes('--yolo') && !optionValues(args, ['--sandbox', '-s']).some((v) => v !== 'read-only'),
    source: 'https://github.com/openai/codex/blob/main/docs/exec.md',
  },
  {
    key: 'cli:gemini',
    name: 'Gemini CLI',
    programs: ['gemini'],
    packages: ['@google/gemini-cli'],
    headless: (args) => args.some((a) => a === '-p' || a === '--prompt' || a.startsWith('--prompt=') || a === '-y' || a === '--yolo'),
    // Headless, it runs shell commands only when every tool call is approved in advance.
    shell: (args) => args.includes('-y') || args.includes('--yolo') || optionValues(args, ['--approval-mode']).some((v) => v === 'yolo'),
    source: 'https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/headless.md',
  },
  {
    key: 'cli:opencode',
    name: 'opencode (CLI)',
    programs: ['opencode'],
    packages: ['opencode-ai'],
    headless: (args) => args.find((a) => !a.startsWith('-')) === 'run',
    shell: true,
    source: 'https://opencode.ai/docs/cli/',
  },
  {
    key: 'cli:copilot',
    name: 'GitHub Copilot CLI',
    programs: ['copilot'],
    packages: ['@github/copilot'],
    headless: (args) => args.includes('-p') || args.includes('--prompt'),
    shell: (args) => args.includes('--allow-all-tools') || optionValues(args, ['--allow-tool']).some((v) => /^'?shell'?$/.test(v)),
    source: 'https://docs.github.com/en/copilot/how-tos/use-copilot-agents/use-copilot-cli',
  },
];
