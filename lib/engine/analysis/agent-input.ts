/**
 * AI coding agents that read text an outsider can write: which steps run one, who can put text in front of it,
 * and what it can do with what its job holds. Shared by `agent-untrusted-input` (the agent itself) and
 * `excessive-permissions` (the grants a steered agent can use).
 */
import { agentAction, type AgentAction } from '../data/agent-actions.js';
import { outsiderControlled } from '../expressions/controller.js';
import { stepScope, type TaintAnalyzer } from '../expressions/taint.js';
import type { Step } from '../model/workflow.js';
import { getText } from '../yaml/model.js';
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
