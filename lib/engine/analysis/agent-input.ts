/**
 * AI coding agents that read text an outsider can write: which steps run one, who can put text in front of it,
 * and what it can do with what its job holds. Shared by `agent-untrusted-input` (the agent itself) and
 * `excessive-permissions` (the grants a steered agent can use).
 */
import { AGENT_CLIS, agentAction, type AgentAction, type AgentCli } from '../data/agent-actions.js';
import { commandName, logicalLines, pipelines, words } from '../shell.js';
import { EXTERNAL_TRIGGERS, outsiderControlled } from '../expressions/controller.js';
import { stepScope, type TaintAnalyzer } from '../expressions/taint.js';
import type { RepositoryModel } from '../model/repository.js';
import { ScanCache } from '../model/scan-cache.js';
import type { Job, Step, Workflow } from '../model/workflow.js';
import { getPair, getText, keyText, stringScalars, type YMap, type YNode } from '../yaml/model.js';
import { secretOccurrences } from './secrets.js';
import type { RunModel } from './run-model/index.js';
import { REACH_ORDER, type ValueReach } from './run-model/reach.js';
import type { TrustGuard } from './trust-guards.js';
import { flatMap } from '../model/arrays.js';

/**
 * Events whose run hands the agent an issue, pull request or discussion thread (title, body, earlier comments,
 * branch names) that anyone with a GitHub account can write into. A fork's `pull_request` run is not listed: its
 * token is read-only and it has no secrets.
 */
export const THREAD_EVENTS: ReadonlySet<string> = new Set([
  'issues',
  'issue_comment',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment',
  'discussion',
  'discussion_comment',
]);

/**
 * Guards that vouch for the thread itself: an event with no thread (`workflow_dispatch`), or a pull request a
 * trusted author opened (same-repository branch, author association). A commenter, actor or label check lets a
 * maintainer start the agent, but the thread it then reads is still whoever wrote it.
 */
export const VOUCHES_FOR_THREAD = (guard: TrustGuard): boolean => guard.kind === 'maintainer-event' || guard.kind === 'same-repository' || guard.kind === 'pr-author';

/** The agent a step runs (an action of the table in data/agent-actions.ts), or undefined. */
export function stepAgent(step: Step): AgentAction | undefined {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository' || step.uses === undefined) return undefined;
  return agentAction(ref.slug, ref.path);
}

/**
 * The events through which an outsider's text reaches the agent of `step`: the thread events, and those that
 * bring outsider text into its inputs or environment (a `workflow_run` head branch, a prompt passed down).
 */
export function agentEvents(step: Step, taint: TaintAnalyzer): Set<string> {
  const events = new Set(THREAD_EVENTS);
  for (const node of [step.with, step.env]) {
    const found = node === undefined ? null : taint.ofNode(node, stepScope(step));
    if (found !== null && outsiderControlled(found.controller)) for (const e of found.events ?? []) events.add(e);
  }
  return events;
}

/** Who can put an outsider's text in front of the agent that `caller` runs (the step itself, or the call of its local action). */
export function agentReach(runs: RunModel, caller: Step, events: ReadonlySet<string>): ValueReach {
  return runs.valueReach(caller, events, VOUCHES_FOR_THREAD);
}

/** The action's own actor check (`AgentAction.checksActor`): made, widened to everyone by an input, or absent. */
export function agentActorCheck(agent: AgentAction, step: Step): 'checks' | 'widened' | 'none' {
  const check = agent.checksActor;
  if (check === undefined) return 'none';
  const pair = getPair(step.with, check.unlessInput);
  if (pair === undefined) return 'checks';
  // The input that must come with it (claude-code-action's `github_token`) is not given: the check stands.
  if (check.withInput !== undefined && getPair(step.with, check.withInput) === undefined) return 'checks';
  if (check.pattern === undefined) return 'widened';
  const text = getText(step.with, check.unlessInput);
  // A value computed by an expression may be anything.
  return text === null || text.includes('${{') || check.pattern.test(text) ? 'widened' : 'checks';
}

/**
 * Who starts the agent, and whether an outsider can. `reach` is the run model's over every event that hands
 * the agent an outsider's text. When the action checks the actor's write access itself (`check: 'checks'`), a
 * start on an event the check covers is a maintainer's act, whatever the trigger lets in: the actor is the one
 * who acted (the issue's author on `issues: opened`, the commenter, the reviewer), and an outsider has no write
 * access. Such a start is `approval` (a maintainer's act that does not vouch for the thread), and a fork's
 * `pull_request_review*` run is checked too. Only the events the check does not cover (a `workflow_run` for
 * claude-code-action) can still let an outsider start it: `outsider` says so, with their reach.
 */
export interface AgentStart {
  reach: ValueReach;
  outsider: boolean;
  check: 'checks' | 'widened' | 'none';
  /** True when `reach` was lowered to a maintainer's act by the action's own check. */
  checked: boolean;
}

const OPEN: ReadonlySet<string> = new Set(['anyone', 'sticky-label']);

export function agentStart(runs: RunModel, agent: AgentAction, step: Step, caller: Step, events: ReadonlySet<string>): AgentStart {
  const reach = agentReach(runs, caller, events);
  const check = agentActorCheck(agent, step);
  if (check !== 'checks') return { reach, outsider: OPEN.has(reach.level), check, checked: false };
  const covered = agent.checksActor?.events;
  const open = covered === undefined ? [] : [...events].filter((e) => !covered.includes(e));
  const unchecked = open.length === 0 ? null : agentReach(runs, caller, new Set(open));
  if (unchecked !== null && OPEN.has(unchecked.level)) return { reach: unchecked, outsider: true, check, checked: false };
  // A fork's `pull_request_review*` run is checked like any other: only an unchecked event's fork run counts.
  const forkPullRequest = unchecked?.forkPullRequest ?? false;
  if (!OPEN.has(reach.level)) return { reach: { ...reach, forkPullRequest }, outsider: false, check, checked: false };
  // Every way an outsider could start it passes the action's check: a maintainer's act.
  const lowered: ValueReach = { ...reach, level: 'approval', forkPullRequest };
  // A weaker way in on an event the check does not cover (an environment of unknown strength) still counts.
  const started = unchecked !== null && REACH_ORDER.indexOf(unchecked.level) < REACH_ORDER.indexOf('approval') ? unchecked : lowered;
  return { reach: started, outsider: false, check, checked: started === lowered };
}

/** True when the agent's tools are restricted to an allowlist (no free shell): an injected prompt steers only its output. */
export function agentRestricted(agent: AgentAction, step: Step): boolean {
  return (agent.toolAllowlist ?? []).some(({ input, pattern }) => {
    const text = getText(step.with, input);
    return text !== null && (pattern === undefined || pattern.test(text));
  });
}

/**
 * True when the agent can run any command: its default tools include a shell, or its inputs grant one, and no
 * allowlist restricts it. Such an agent can take everything its job holds (the token in the runner's memory, the
 * credentials a checkout left, every secret in the environment).
 */
export function agentShell(agent: AgentAction, step: Step): boolean {
  if (agentRestricted(agent, step)) return false;
  return agent.shell === true || agent.shell.some(({ input, pattern }) => pattern.test(getText(step.with, input) ?? ''));
}

/**
 * What the agent of an action with a proxied model key (`AgentAction.proxiedKey`) does not hold, at `caller` (the
 * step itself, or the job step that calls the local composite action it is in). `proxied`: the stored secrets
 * handed to the keeper's input (through the caller's input the step passes on whole, `${{ inputs.key }}`, for a
 * local action) that reach the agent no other way: not in another input of the step or of the caller (the action
 * turns its inputs into its steps' environment), not in their `env:`, nor in the job's or the workflow's `env:`,
 * which every process of the step reads. Null when none is proxied: no key is handed over, the confinement
 * setting lets the agent read the keeper's memory (a value other than those that keep the key, or one set by an
 * expression), or the job runs in a `container:`, where the action's steps, and the agent, run as the
 * container's user (usually root, which no dropped sudo confines). `onlyThere`:
 * those of `proxied` no other step of the job references either (a later step reading one would run what the
 * agent left behind). `strategy`: the confinement in words (`\`safety-strategy\` \`drop-sudo\`, the default`).
 */
export interface AgentKeyCustody {
  proxied: string[];
  onlyThere: string[];
  keeper: string;
  strategy: string;
}

export function agentKeyCustody(agent: AgentAction, step: Step, caller: Step): AgentKeyCustody | null {
  const custody = agent.proxiedKey;
  const job = caller.job;
  if (custody === undefined || job === null || job.container !== undefined) return null;
  const { strategy } = custody;
  const chosen = getText(step.with, strategy.input);
  if (chosen !== null && (chosen.includes('${{') || !strategy.keeps.test(chosen))) return null;
  const keyPair = getPair(step.with, custody.input);
  if (keyPair === undefined) return null;
  // Inside a local action: the caller's input the step's key input passes on as it is.
  let handed: YNode | undefined = keyPair.value;
  let callerInput: string | null = null;
  if (caller !== step) {
    const text = keyPair.value.kind === 'scalar' && typeof keyPair.value.value === 'string' ? keyPair.value.value : '';
    const m = WHOLE_INPUT.exec(text);
    callerInput = m === null ? null : (m[1] ?? '').toLowerCase();
    handed = callerInput === null ? undefined : getPair(caller.with, callerInput)?.value;
  }
  if (handed === undefined) return null;
  const file = caller.owner.file;
  const upper = (list: readonly { name: string }[]): string[] => list.map((s) => s.name.toUpperCase());
  const keys = [...new Set(upper(secretOccurrences(file, handed)))];
  if (keys.length === 0) return null;
  // Every other way into the agent's process: the step's other inputs and `env:`, and the caller's, the job's and the workflow's `env:`.
  const exposed = new Set<string>();
  const stepOthers = [...otherValues(step.with, custody.input), ...(step.env !== undefined ? [step.env] : [])];
  for (const node of stepOthers) for (const name of upper(secretOccurrences(step.owner.file, node))) exposed.add(name);
  if (callerInput !== null) {
    for (const node of [...otherValues(caller.with, callerInput), ...(caller.env !== undefined ? [caller.env] : [])]) {
      for (const name of upper(secretOccurrences(file, node))) exposed.add(name);
    }
    // The local action's step passes the same input on another way (`env: { OPENAI_API_KEY: ${{ inputs.key }} }`).
    const passed = new RegExp(`\\binputs\\s*(?:\\.\\s*${escapeRegExp(callerInput)}(?![\\w-])|\\[\\s*['"]${escapeRegExp(callerInput)}['"]\\s*\\])`, 'i');
    if (stepOthers.some((node) => stringScalars(node).some((s) => passed.test(String(s.value))))) return null;
  }
  for (const node of [job.env, job.workflow.env]) if (node !== undefined) for (const name of upper(secretOccurrences(file, node))) exposed.add(name);
  const proxied = keys.filter((k) => !exposed.has(k));
  if (proxied.length === 0) return null;
  // Each of them referenced by the job only where the key is handed over.
  const inJob = upper(secretOccurrences(file, job.node));
  const there = upper(secretOccurrences(file, handed));
  const onlyThere = proxied.filter((k) => inJob.filter((n) => n === k).length === there.filter((n) => n === k).length);
  const shown = chosen === null ? `\`${strategy.input}\` \`${strategy.default}\`, the default` : `\`${strategy.input}: ${chosen.trim()}\``;
  return { proxied, onlyThere, keeper: custody.keeper, strategy: shown };
}

/** The values of a map's pairs but the one keyed `skip` (compared in lower case). */
function otherValues(map: YMap | undefined, skip: string): YNode[] {
  return (map?.pairs ?? []).filter((pair) => keyText(pair.key).toLowerCase() !== skip.toLowerCase()).map((pair) => pair.value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The action's own write-access check, in words, when it stands for every start of the step an outsider could
 * cause: it is made (`agentActorCheck`) on each event of the step's workflow that anyone can cause (a reusable
 * workflow's: its local callers'); null otherwise (no check, widened, or an event it does not check, such as
 * `workflow_run` for claude-code-action).
 */
export function agentGate(agent: AgentAction, step: Step, events: readonly string[]): string | null {
  if (agentActorCheck(agent, step) !== 'checks') return null;
  const covered = agent.checksActor?.events;
  if (covered !== undefined && events.some((e) => EXTERNAL_TRIGGERS.has(e) && !covered.includes(e))) return null;
  return `${agent.name}'s own check that the actor has write access`;
}

/** At most this many allowed commands are read from an agent's inputs. */
const MAX_AGENT_COMMANDS = 20;

/**
 * The commands the agent of `step` may run in its workspace: `any` when it has a free shell (`agentShell`, or an
 * allowed command tool without a command, such as `Bash` or `run_shell_command`), else each command its allowed
 * tools name (`Bash(bun install)` gives `bun install`; a trailing `:*` or ` *` wildcard is dropped), in order.
 * Empty: it runs no command (its tools only read, edit or talk to the API).
 */
export function agentCommands(agent: AgentAction, step: Step): 'any' | string[] {
  if (agentShell(agent, step)) return 'any';
  const found: string[] = [];
  for (const { input, tool, within } of agent.commandTools ?? []) {
    const text = getText(step.with, input);
    if (text === null) continue;
    const parts = within === undefined ? [text] : [...text.matchAll(within)].map((m) => m[1] ?? '');
    for (const part of parts) {
      for (const m of part.matchAll(tool)) {
        const command = m[1];
        if (command === undefined) return 'any';
        const trimmed = command.trim().replace(/(?::\*|\s+\*|\*)$/, '').trim();
        if (trimmed === '' || trimmed === '*') return 'any';
        if (found.length < MAX_AGENT_COMMANDS && !found.includes(trimmed)) found.push(trimmed.slice(0, 200));
      }
    }
  }
  return found;
}

/**
 * True when the agent of `step` has no free shell, but its allowed tools let it change files and push them: an
 * allowed `git push` (or all of `git`) command and an edit tool (`Edit`, `Write`, `MultiEdit`, `NotebookEdit`) in
 * its permission list (read as written, also where an expression picks the list by mode: some mode has them). With a
 * token that can write code, an injected instruction commits the outsider's changes to a branch of the repository.
 */
export function agentPushesCode(agent: AgentAction, step: Step): boolean {
  const commands = agentCommands(agent, step);
  if (commands === 'any' || !commands.some((command) => /^git(?:\s+push\b|$)/.test(command))) return false;
  const lists = (agent.toolList?.allowed ?? []).map(({ input }) => getText(step.with, input) ?? '').join(' ');
  return /(?:^|[\s,"'(])(?:Edit|Write|MultiEdit|NotebookEdit)(?=$|[\s,"')])/.test(lists);
}

/**
 * The first AI agent action of `job`, after step `from`, that is handed `from`'s output `output` (in its `with:` or
 * `env:`: `GITHUB_TOKEN: ${{ steps.app.outputs.token }}`) and that anyone can start on an event whose thread it reads
 * (`agentStart`: no maintainer's act, no action check in the way), with the agent's name; null when none.
 */
export function outsiderAgentGiven(runs: RunModel, taint: TaintAnalyzer, job: Job, from: Step, output: string): { step: Step; name: string } | null {
  if (from.id === null) return null;
  const reference = new RegExp(String.raw`\bsteps\.${from.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\.outputs\.${output}\b`);
  for (const step of job.steps) {
    if (step.index <= from.index) continue;
    const agent = stepAgent(step);
    if (agent === undefined || ![step.with, step.env].some((node) => node !== undefined && stringScalars(node).some((scalar) => reference.test(String(scalar.value))))) continue;
    if (agentStart(runs, agent, step, step, agentEvents(step, taint)).outsider) return { step, name: agent.name };
  }
  return null;
}

/** Commands whose output the caller chooses word for word: with a redirect after them, they write any file. */
const FILE_WRITERS = /^(?:echo|printf|cat|tee)(?:\s|$)/;

/**
 * The allowed command through which the agent of `step` writes a file of its choosing, or null: for an agent whose
 * allowed commands are matched as a prefix of the string its shell runs (`AgentAction.prefixCommands`), an
 * allowed `echo`, `printf`, `cat` or `tee` followed by a redirect (`echo "X=y" >> "$GITHUB_ENV"`) is still that
 * command. A steered agent then writes `$GITHUB_ENV` or `$GITHUB_PATH`, where `BASH_ENV`, `LD_PRELOAD` or a
 * directory put first on `PATH` runs code of its choosing in the job's later steps (the runner refuses only
 * `NODE_OPTIONS` there), or the downloaded code of an action whose post step runs later, holding what they hold.
 */
export function agentFileWriter(agent: AgentAction, step: Step): string | null {
  if (agent.prefixCommands === undefined) return null;
  const commands = agentCommands(agent, step);
  if (commands === 'any') return null;
  return commands.find((command) => FILE_WRITERS.test(command)) ?? null;
}

/** At most this many entries are read from an agent's permission list. */
const MAX_TOOL_ENTRIES = 50;

/**
 * `gh` commands that only read or talk on a thread (label, comment, edit an issue's or pull request's text): the
 * allowed prefix of a `Bash(<command>)` / `Bash(<command>:*)` entry, whole words, nothing a shell reads
 * specially in it. Not `gh api` (any call the token allows), `gh pr create` / `merge` / `checkout`, `gh release`,
 * `gh workflow run`. `gh search` only reads.
 */
const TALK_COMMAND = /^gh\s+(?:issue\s+(?:view|list|edit|comment|status)|label\s+list|pr\s+(?:view|list|comment|diff|status|checks)|search(?:\s+(?:issues|prs|code|repos|commits))?)(?:\s+[^\s;&|`$<>()*]+)*$/;

/** Claude Code's tools that only read the workspace (no edit, no fetch). */
const READ_TOOLS = /^(?:Read|Grep|Glob|LS|TodoWrite)(?:\([^()]*\))?$/;

/**
 * GitHub MCP tools (`mcp__github__<tool>`: GitHub's MCP server; `mcp__github_comment__`, `mcp__github_ci__`,
 * `mcp__github_inline_comment__`: claude-code-action's own servers) that read, or label, comment and edit issues
 * and pull request threads. Not its file, branch, pull-request-creating or merging tools.
 */
const TALK_MCP = /^mcp__github__(?:(?:get|list|search)_\w+|issue_read|pull_request_read|add_issue_comment|update_issue|create_issue|issue_write|add_sub_issue|add_comment_to_pending_review|create_pending_pull_request_review|submit_pending_pull_request_review|create_and_submit_pull_request_review|pull_request_review_write)$|^mcp__github_comment__update_claude_comment$|^mcp__github_inline_comment__create_inline_comment$|^mcp__github_ci__(?:get_ci_status|get_workflow_run_details|download_job_log)$/;

/** The entries of a permission list (`"Read,Bash(gh issue edit:*) Glob"`): split at commas and spaces outside parentheses, quotes dropped. */
function toolEntries(text: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text.slice(0, 10_000)) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (current !== '') found.push(current);
      current = '';
      if (found.length >= MAX_TOOL_ENTRIES) return found;
      continue;
    }
    if (ch !== '"' && ch !== "'") current += ch;
  }
  if (current !== '' && found.length < MAX_TOOL_ENTRIES) found.push(current);
  return found;
}

/** True when a permission-list entry only reads, or labels, comments on and edits issues and pull request threads. */
export function talkTool(entry: string): boolean {
  if (READ_TOOLS.test(entry) || TALK_MCP.test(entry)) return true;
  const bash = /^Bash\((.*)\)$/.exec(entry);
  if (bash === null) return false;
  const command = (bash[1] ?? '').replace(/:\*$/, '').trim();
  return TALK_COMMAND.test(command);
}

/**
 * The entries of the agent's permission list (`AgentAction.toolList`) when it is all the agent may use and each
 * of them only reads or talks (`talkTool`): a `prompt` run of claude-code-action (agent mode) or its base action,
 * with `--allowedTools "Bash(gh issue view:*),Bash(gh issue edit:*)"` in `claude_args` or the older
 * `allowed_tools`, and nothing that grants more (`--permission-mode`, `--dangerously-skip-permissions`, a
 * `settings` input with its own permissions, `track_progress`). Such an agent runs no code and pushes nothing: an
 * injected instruction steers only the labels, comments and issue edits it makes, with the token scopes those
 * commands use. Null otherwise: no list, a free shell, an entry that runs, edits, fetches or calls anything
 * else (`Bash`, `Bash(*)`, `Edit`, `Write`, `WebFetch`, `gh api`, `gh pr create`, `git push`, `mcp__github__*`),
 * or an input set by an expression.
 */
export function agentTalkOnly(agent: AgentAction, step: Step): string[] | null {
  const list = agent.toolList;
  if (list === undefined || agentShell(agent, step)) return null;
  if (list.requires.some((input) => getPair(step.with, input) === undefined)) return null;
  for (const { input, pattern } of list.unless) {
    const text = getText(step.with, input);
    if (getPair(step.with, input) !== undefined && (text === null || text.includes('${{') || pattern.test(text))) return null;
  }
  const entries: string[] = [];
  for (const { input, within } of list.allowed) {
    if (getPair(step.with, input) === undefined) continue;
    const text = getText(step.with, input);
    if (text === null || text.includes('${{')) return null;
    const parts = within === undefined ? [text] : [...text.matchAll(within)].map((m) => m[1] ?? '');
    for (const part of parts) for (const entry of toolEntries(part)) if (!entries.includes(entry)) entries.push(entry);
  }
  if (entries.length === 0 || !entries.every(talkTool)) return null;
  return entries;
}

/** True when a stored secret reaches the agent of `step` only as its model credential (`AgentAction.toolList.modelKeys`), or is named as a model provider's key. */
export function agentModelKey(agent: AgentAction, step: Step, name: string): boolean {
  if (isLlmKey(name)) return true;
  const upper = name.toUpperCase();
  return (agent.toolList?.modelKeys ?? []).some((input) => {
    const node = getPair(step.with, input)?.value;
    return node !== undefined && secretOccurrences(step.owner.file, node).some((s) => s.name.toUpperCase() === upper);
  });
}

/** Package runners whose first non-option word is the package they run (`npx -y @openai/codex exec`). */
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'pnpx']);

/** An AI agent's command-line tool a `run:` script runs headless: the tool, its arguments, and where (value offset). */
export interface ScriptAgent {
  cli: AgentCli;
  args: readonly string[];
  offset: number;
}

/** At most this many agent commands are read from one script. */
const MAX_SCRIPT_AGENTS = 5;

/**
 * The program names a command must run for `scriptAgents` to read it: the agents' own, and the package runners
 * (`npx`, `npm exec`, `pnpm dlx`, `yarn dlx`) that fetch them.
 */
const AGENT_PROGRAMS: readonly string[] = [...PACKAGE_RUNNERS, 'npm', 'pnpm', 'yarn', ...AGENT_CLIS.flatMap((c) => c.programs)];

/**
 * False when no command of `text` (a logical line) can run one of `AGENT_PROGRAMS`: with no quote or backslash
 * in it, its commands' shell words are pieces of it as written, so the program's name would be too.
 */
function mayRunAgent(text: string): boolean {
  return AGENT_PROGRAMS.some((name) => text.includes(name)) || /["'\\]/.test(text);
}

/** Per step, once per scan: the rule and the run model's executions both ask. */
const scriptAgentCache = new ScanCache<Step, readonly ScriptAgent[]>();

/** The agent tools a step's `run:` script runs headless (`claude -p`, `codex exec`, `npx @google/gemini-cli -p`), in order. */
export function scriptAgents(step: Step): readonly ScriptAgent[] {
  let found = scriptAgentCache.get(step);
  if (found === undefined) scriptAgentCache.set(step, (found = readScriptAgents(step)));
  return found;
}

function readScriptAgents(step: Step): ScriptAgent[] {
  const run = step.run;
  if (run === undefined || typeof run.value !== 'string') return [];
  const script = run.value;
  if (!/\b(?:claude|codex|gemini|opencode|copilot)\b/.test(script)) return [];
  const found: ScriptAgent[] = [];
  for (const line of logicalLines(script)) {
    // Most lines of a script that names an agent run something else: not split into commands and words.
    if (!mayRunAgent(line.text)) continue;
    for (const pipeline of pipelines(line)) {
      for (const command of pipeline.commands) {
        if (found.length >= MAX_SCRIPT_AGENTS) return found;
        const program = commandName(command.text);
        if (program === null) continue;
        const list = words(command.text);
        const at = list.findIndex((w) => w === program || w.endsWith(`/${program}`));
        if (at === -1) continue;
        const name = program.split('/').pop() ?? program;
        let args = list.slice(at + 1);
        const runner = PACKAGE_RUNNERS.has(name) || (name === 'npm' && args[0] === 'exec') || (name === 'pnpm' && args[0] === 'dlx') || (name === 'yarn' && args[0] === 'dlx');
        let cli: AgentCli | undefined;
        if (runner) {
          const rest = PACKAGE_RUNNERS.has(name) ? args : args.slice(1);
          const index = rest.findIndex((w) => !w.startsWith('-'));
          const pkg = (rest[index] ?? '').replace(/(?!^)@[^/]*$/, '');
          cli = AGENT_CLIS.find((c) => c.packages.includes(pkg));
          args = rest.slice(index + 1);
        } else cli = AGENT_CLIS.find((c) => c.programs.includes(name));
        if (cli === undefined || !cli.headless(args)) continue;
        found.push({ cli, args, offset: command.offset });
      }
    }
  }
  return found;
}

/** True when the script agent can run any command. */
export function scriptAgentShell(agent: ScriptAgent): boolean {
  if (agent.cli.restricted?.(agent.args) === true) return false;
  return agent.cli.shell === true || agent.cli.shell(agent.args);
}

/**
 * The entries of a script agent's permission list (`AgentCli.toolList`: `claude -p --allowedTools "Bash(gh issue
 * edit:*)" Read`) when each of them only reads or talks (`talkTool`) and no argument grants more; null otherwise.
 * The list's values run to the next option: a word after it that is no such tool (the prompt) makes it null.
 */
export function scriptAgentTalkOnly(agent: ScriptAgent): string[] | null {
  const list = agent.cli.toolList;
  if (list === undefined || scriptAgentShell(agent) || agent.args.some((a) => list.unless.test(a))) return null;
  const entries: string[] = [];
  let reading = false;
  for (const arg of agent.args) {
    if (arg.startsWith('-')) {
      reading = list.option.test(arg);
      const inline = reading && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : '';
      if (inline !== '') entries.push(...toolEntries(inline));
      continue;
    }
    if (reading) entries.push(...toolEntries(arg));
    if (entries.length > MAX_TOOL_ENTRIES) return null;
  }
  if (entries.length === 0 || entries.some((e) => e.includes('${{') || !talkTool(e))) return null;
  return [...new Set(entries)];
}

/** The commands a script agent may run (see `agentCommands`). */
export function scriptAgentCommands(agent: ScriptAgent): 'any' | string[] {
  if (scriptAgentShell(agent)) return 'any';
  const tools = agent.cli.commandTools;
  if (tools === undefined) return [];
  const found: string[] = [];
  agent.args.forEach((arg, i) => {
    const value = tools.option.test(arg) ? agent.args[i + 1] : undefined;
    if (value === undefined) return;
    for (const m of value.matchAll(tools.tool)) {
      const command = m[1]?.trim().replace(/(?::\*|\s+\*|\*)$/, '').trim();
      if (command !== undefined && command !== '' && found.length < MAX_AGENT_COMMANDS && !found.includes(command)) found.push(command.slice(0, 200));
    }
  });
  return found;
}

/**
 * Secrets that are a language-model provider's API key (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GEMINI_API_KEY`,
 * `GOOGLE_API_KEY`, the name the Gemini SDKs read, `AZURE_OPENAI_KEY`, `OPENROUTER_API_KEY` ...): the provider's
 * name, then `KEY` or `TOKEN`, with at most a word between (Google's only as its SDKs name it, not `GOOGLE_MAPS_API_KEY`).
 */
const LLM_KEY = /^(?:[A-Z0-9]+_)?(?:OPENAI|ANTHROPIC|CLAUDE|GEMINI|MISTRAL|GROQ|COHERE|DEEPSEEK|OPENROUTER|PERPLEXITY|XAI|GROK|LLM)_(?:[A-Z0-9]+_)?(?:API_?)?(?:KEY|TOKEN)$|^GOOGLE_(?:GENAI_|AI_|GENERATIVE_AI_)?API_KEY$/i;

/** True when a secret's name is a language-model provider's API key. */
export function isLlmKey(name: string): boolean {
  return LLM_KEY.test(name);
}

/** Actions that send a prompt to a language model and return its answer, with no tools of their own (no shell). */
const LLM_ACTIONS: ReadonlySet<string> = new Set([
  // GitHub's own: `prompt` / `system-prompt` to GitHub Models with the run's token (its README).
  'actions/ai-inference',
]);

/** A script reads the event payload itself: `$GITHUB_EVENT_PATH`, github-script's `context.payload`. */
const READS_EVENT = /\bGITHUB_EVENT_PATH\b|\bcontext\.payload\b|\bgithub\.context\.payload\b/;

/**
 * A step that calls a language model with no shell of its own: an LLM action (`actions/ai-inference`), or a step
 * given a model provider's API key (a repository's own script or action, a script calling the API). Its answer
 * is what the step then acts on (a label, a comment), with what the job holds.
 */
export interface LlmStep {
  /** The provider keys it is given (secret names); empty for an action that uses the run's token. */
  keys: string[];
  /**
   * How the outsider's text reaches it: `inputs` (its `with:`, `env:` or script expand the event's text), or
   * `event-payload` (a repository's own script or action, which reads the event from `GITHUB_EVENT_PATH`).
   */
  via: 'inputs' | 'event-payload';
  /** The events whose text reaches it. */
  events: Set<string>;
  /** In words: `actions/ai-inference`, `its script \`python .github/scripts/triage.py\``, `local action \`./x\``. */
  what: string;
}

/**
 * The language-model step a job step is, or undefined. Not for known agents (`stepAgent`, `scriptAgents`), which
 * have tools. The outsider's text reaches it when its inputs carry the event's text, or, for the repository's own
 * code given a provider key (a local action, a script file, a `run:` or github-script that reads the payload),
 * through the event payload any step can read.
 */
export function llmStep(step: Step, taint: TaintAnalyzer, executes: (step: Step) => readonly { kind: string; evidence: string }[]): LlmStep | undefined {
  const job = step.job;
  if (job === null) return undefined;
  const ref = step.usesRef;
  const slug = ref?.kind === 'repository' ? ref.slug : undefined;
  const action = slug !== undefined && LLM_ACTIONS.has(slug) && ref?.kind === 'repository' && ref.path === '';
  // Any other step needs a provider key somewhere in its workflow: asked once per workflow, not per step.
  if (!action && !workflowHasLlmKey(job.workflow)) return undefined;
  if (stepAgent(step) !== undefined || scriptAgents(step).length > 0) return undefined;
  const file = job.workflow.file;
  const namesIn = (list: (YNode | undefined)[]): string[] => flatMap(list, (node) => (node === undefined ? [] : secretOccurrences(file, node).map((s) => s.name))).filter(isLlmKey);
  // The step's own inputs and environment; a script or a local action also sees the job's and workflow's `env:`.
  const own = namesIn([step.with, step.env]);
  const inherited = namesIn([job.env, job.workflow.env]);
  // A build (`npm ci`, `make`) counts only when the step is handed the key itself, not through the job's `env:`.
  const what = action ? `\`${slug ?? ''}\`` : describeLlmCode(step, executes, own.length > 0);
  // Another action (a checkout, an upload) is an LLM step only when it is handed the key itself.
  if (!action && own.length === 0 && (what === null || inherited.length === 0)) return undefined;
  const keys = [...new Set([...own, ...(what !== null ? inherited : [])])];
  const events = new Set<string>();
  for (const node of [step.with, step.env, step.run]) {
    const found = node === undefined ? null : taint.ofNode(node, stepScope(step));
    if (found !== null && outsiderControlled(found.controller)) for (const e of found.events ?? []) events.add(e);
  }
  if (events.size > 0) return { keys, via: 'inputs', events, what: what ?? (slug !== undefined ? `action \`${slug}\`` : 'its script') };
  if (what === null || action) return undefined;
  return { keys, via: 'event-payload', events: new Set(THREAD_EVENTS), what };
}

const llmKeyWorkflows = new ScanCache<Workflow, boolean>();

/** True when a secret anywhere in the workflow is a language-model provider's key (`isLlmKey`). */
function workflowHasLlmKey(workflow: Workflow): boolean {
  let known = llmKeyWorkflows.get(workflow);
  if (known === undefined) {
    known = secretOccurrences(workflow.file, workflow.root).some((s) => isLlmKey(s.name));
    llmKeyWorkflows.set(workflow, known);
  }
  return known;
}

/** The repository's own code a step runs, in words (a local action, a script file, a script that reads the payload); null for none. */
function describeLlmCode(step: Step, executes: (step: Step) => readonly { kind: string; evidence: string }[], builds: boolean): string | null {
  const ref = step.usesRef;
  if (ref?.kind === 'local') return `local action \`${ref.path}\``;
  if (ref?.kind === 'repository') {
    const script = ref.slug === 'actions/github-script' ? getText(step.with, 'script') : null;
    if (script !== null && READS_EVENT.test(script)) return 'its github-script, which reads `context.payload`';
  }
  const own = executes(step).find((e) => e.kind === 'file' || e.kind === 'local-action' || (builds && e.kind === 'project' && step.run !== undefined));
  if (own !== undefined) return `the repository's own code (${own.evidence})`;
  const run = step.run;
  if (run !== undefined && typeof run.value === 'string' && READS_EVENT.test(run.value)) return 'its script, which reads `$GITHUB_EVENT_PATH`';
  return null;
}

/**
 * Programs that call no language model: the shell's builtins, text tools, git and `gh`, package installers (an
 * action installs its tool with `pip install x`, then runs it). A command run by any other program, with a
 * provider's key in its environment, is taken to be what uses the key.
 */
const NON_LLM_PROGRAMS: ReadonlySet<string> = new Set([
  'echo', 'printf', 'cat', 'cd', 'ls', 'mkdir', 'cp', 'mv', 'rm', 'touch', 'chmod', 'export', 'set', 'unset', 'test', '[', '[[', 'true',
  '{', '}', '(', ')', 'false', 'exit', 'return', 'local', 'function', 'source', '.', 'if', 'elif', 'case', 'esac', 'then', 'else', 'fi', 'for', 'do', 'done', 'while', 'jq', 'yq', 'sed', 'awk', 'grep', 'tee', 'head',
  'tail', 'sort', 'uniq', 'wc', 'tr', 'cut', 'xargs', 'sleep', 'date', 'git', 'gh', 'pip', 'pip3', 'pipx', 'npm', 'yarn', 'pnpm', 'apt-get',
  'apt', 'brew', 'gem',
]);

/** A value that is one of the action's inputs as it is (`${{ inputs.openai_api_key }}`), not a test of it (`inputs.key != ''`). */
const WHOLE_INPUT = /^\s*\$\{\{\s*inputs\.([A-Za-z_][\w-]*)\s*\}\}\s*$/;

/** At most this many commands are read from a composite action's step. */
const MAX_INNER_COMMANDS = 50;

/** The first command of a script whose program is not in `NON_LLM_PROGRAMS`, or null. */
function llmCommand(script: string): string | null {
  let seen = 0;
  for (const line of logicalLines(script)) {
    for (const pipeline of pipelines(line)) {
      for (const command of pipeline.commands) {
        if (++seen > MAX_INNER_COMMANDS) return null;
        const program = commandName(command.text);
        if (program === null) continue;
        const name = program.split('/').pop() ?? program;
        // A shell function's definition (`warn() {`) runs nothing.
        if (name.endsWith('()') || /^\w[\w-]*\(\)/.test(command.text.trim())) continue;
        if (!NON_LLM_PROGRAMS.has(name)) return command.text.trim().slice(0, 80);
      }
    }
  }
  return null;
}

/**
 * A `run:` step of the repository's own composite action (a local `./path`, or one a workflow names by the
 * repository's full name, `owner/repo/path@ref`: RepositoryModel `ownAction`) whose environment takes a
 * model provider's key from the action's inputs as it is (`OPENAI_API_KEY: ${{ inputs.openai_api_key }}` in its
 * `env:`) and whose
 * script runs a program that is not a known non-LLM tool: at each job step that calls the action and hands it a
 * provider key in that input, an LLM step of the caller's job (`llmStep`). The action runs in the caller's job,
 * with its event payload in `GITHUB_EVENT_PATH`, which a tool can read whole: `via: 'event-payload'`. Only
 * direct calls from a job's steps; a call `llmStep` already counts (a local action given the key) is left to it.
 */
export function ownActionLlmCalls(step: Step, repository: RepositoryModel): { caller: Step; llm: LlmStep }[] {
  const action = step.owner;
  if (step.job !== null || action.kind !== 'action' || action.using !== 'composite') return [];
  const run = step.run;
  if (run === undefined || typeof run.value !== 'string') return [];
  // The inputs its environment takes as they are: the key handed to the tool.
  const inputs = new Set<string>();
  for (const pair of step.env?.kind === 'map' ? step.env.pairs : []) {
    const m = pair.value.kind === 'scalar' && typeof pair.value.value === 'string' ? WHOLE_INPUT.exec(pair.value.value) : null;
    if (m !== null) inputs.add((m[1] ?? '').toLowerCase());
  }
  if (inputs.size === 0) return [];
  // A call that runs an agent of the table is reported as that agent; one `llmStep` counts is left to it.
  const callers = repository.callersOf(action).filter((c) => c.job !== null && c.with?.kind === 'map' && stepAgent(c) === undefined);
  if (callers.length === 0) return [];
  const command = llmCommand(run.value);
  if (command === null) return [];
  const found: { caller: Step; llm: LlmStep }[] = [];
  for (const caller of callers) {
    const keys = new Set<string>();
    for (const pair of caller.with?.kind === 'map' ? caller.with.pairs : []) {
      if (!inputs.has(keyText(pair.key).toLowerCase())) continue;
      for (const use of secretOccurrences(caller.owner.file, pair.value)) if (isLlmKey(use.name)) keys.add(use.name);
    }
    if (keys.size === 0) continue;
    const name = step.name !== null ? `\`${step.name}\`` : `${step.index + 1}`;
    found.push({
      caller,
      llm: { keys: [...keys], via: 'event-payload', events: new Set(THREAD_EVENTS), what: `the repository's own action \`${String(caller.uses?.value ?? '')}\`, whose step ${name} runs \`${command.replace(/`/g, "'")}\`` },
    });
  }
  return found;
}
