/**
 * AI coding agents that read text an outsider can write: which steps run one, who can put text in front of it,
 * and what it can do with what its job holds. Shared by `agent-untrusted-input` (the agent itself) and
 * `excessive-permissions` (the grants a steered agent can use).
 */
import { agentAction, type AgentAction } from '../data/agent-actions.js';
import { outsiderControlled } from '../expressions/controller.js';
import { stepScope, type TaintAnalyzer } from '../expressions/taint.js';
import type { Step } from '../model/workflow.js';
import { getPair, getText } from '../yaml/model.js';
import type { RunModel } from './run-model/index.js';
import type { ValueReach } from './run-model/reach.js';
import type { TrustGuard } from './trust-guards.js';

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
 * The action's own check that the actor has write access (`checks`), unless an input widens it to everyone
 * (`widened`: set to a value that lets anyone in, or to an expression, which may be anything); `none` when the
 * action checks nobody.
 */
export function agentActorCheck(agent: AgentAction, step: Step): 'checks' | 'widened' | 'none' {
  const check = agent.checksActor;
  if (check === undefined) return 'none';
  const pair = getPair(step.with, check.unlessInput);
  if (pair === undefined) return 'checks';
  if (check.pattern === undefined) return 'widened';
  const text = getText(step.with, check.unlessInput);
  return text === null || text.includes('${{') || check.pattern.test(text) ? 'widened' : 'checks';
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
