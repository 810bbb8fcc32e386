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
   * The action refuses to run for actors without write access to the repository unless the named input
   * widens it (claude-code-action's `allowed_non_write_users`): outsiders cannot start it, only feed it
   * text through the thread it reads.
   */
  checksActor?: { unlessInput: string };
  /**
   * Inputs whose presence restricts the agent's tools to an allowlist (no free shell): an injected prompt
   * then steers only the agent's output. A pattern the input's text must match, when only some values do.
   */
  toolAllowlist?: { input: string; pattern?: RegExp }[];
  source: string;
}

export const AGENT_ACTIONS: readonly AgentAction[] = [
  {
    slug: 'anthropics/claude-code-action',
    name: 'Claude Code',
    checksActor: { unlessInput: 'allowed_non_write_users' },
    toolAllowlist: [{ input: 'allowed_tools' }, { input: 'claude_args', pattern: /--allowed-?tools\b/i }],
    source: 'https://github.com/anthropics/claude-code-action/blob/main/docs/security.md',
  },
  {
    slug: 'anthropics/claude-code-base-action',
    name: 'Claude Code (base action)',
    source: 'https://github.com/anthropics/claude-code-base-action',
  },
  {
    slug: 'google-github-actions/run-gemini-cli',
    name: 'Gemini CLI',
    // `settings: {"tools": {"core": ["read_file", "run_shell_command(echo)"]}}` limits the built-in tools.
    toolAllowlist: [{ input: 'settings', pattern: /"core"\s*:/ }],
    source: 'https://github.com/google-github-actions/run-gemini-cli',
  },
  {
    slug: 'openai/codex-action',
    name: 'Codex',
    toolAllowlist: [{ input: 'sandbox', pattern: /^\s*read-only\s*$/ }],
    source: 'https://github.com/openai/codex-action',
  },
  {
    slug: 'sst/opencode',
    name: 'opencode',
    source: 'https://opencode.ai/docs/github/',
  },
];

/** The agent a `owner/repo[/path]` reference runs, or undefined. */
export function agentAction(slug: string, path: string): AgentAction | undefined {
  const full = path === '' ? slug : `${slug}/${path.toLowerCase()}`;
  return AGENT_ACTIONS.find((a) => a.slug === slug || full === a.slug || full.startsWith(`${a.slug}/`));
}
