import { readPermissions } from '../analysis/permissions.js';
import { holdingFacts, reachFacts } from '../analysis/run-model/facts.js';
import { isGithubToken, secretOccurrences } from '../analysis/secrets.js';
import { describeStep } from '../analysis/describe.js';
import { agentEvents, agentRestricted, agentShell, agentStart, stepAgent } from '../analysis/agent-input.js';
import type { Job, Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import type { YNode } from '../yaml/model.js';

/** Write scopes that hand over code, releases, packages, workflow runs, deployments or cloud credentials (OIDC). */
const STRONG_SCOPES = new Set(['contents', 'actions', 'packages', 'workflows', 'deployments', 'id-token']);

/** The write scopes the job's token has, from the job's `permissions:` or else the workflow's; null when undeclared. */
function writeScopes(job: Job): string[] | null {
  const node = job.permissions ?? job.workflow.permissions;
  if (node === undefined) return null;
  const permissions = readPermissions(node);
  if (permissions.kind === 'write-all') return ['all scopes'];
  if (permissions.kind === 'scopes') return permissions.writes.map((w) => w.scope);
  return [];
}

/** Stored secrets (not the run's GITHUB_TOKEN) the calling step's inputs and environments carry. */
function stepSecrets(step: Step, job: Job): string[] {
  const file = job.workflow.file;
  const nodes: (YNode | undefined)[] = [step.with, step.env, job.env, job.workflow.env];
  const names = nodes.flatMap((node) => (node === undefined ? [] : secretOccurrences(file, node).map((s) => s.name)));
  return [...new Set(names.filter((name) => !isGithubToken(name)))];
}

export default defineWorkflowRule({
  meta: {
    id: 'agent-untrusted-input',
    category: 'CICD-SEC-4',
    title: 'AI coding agent reads text anyone can write',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'An AI coding-agent action (Claude Code, Gemini CLI, Codex, opencode, Bonk) runs on an issue, comment, review, discussion or `pull_request_target` event, directly, through a reusable workflow or inside a local composite action, while its job holds a write token or stored secrets: the thread it reads (title, body, earlier comments) is text anyone can write, so hidden instructions reach an agent holding those credentials, whether an outsider starts it or a maintainer does (a member\'s comment, a label, an assignment). MEDIUM; HIGH when the agent has a free shell and the token can write code, releases, packages or deployments, or mint cloud credentials (`id-token`); LOW when its tools are restricted to an allowlist. Not reported when only trusted authors\' threads reach it.',
    recommendation:
      'Give the agent\'s job read-only permissions and only the secrets it needs, restrict its tools to an allowlist, and let a separate job with write access act on its reviewed output; run it only for trusted actors (check `author_association` or the actor\'s permission in the job\'s `if:`), and remember that a maintainer starting it does not vouch for the thread it reads.',
  },
  create: (context) => ({
    step(step) {
      const agent = stepAgent(step);
      if (agent === undefined || step.uses === undefined) return;
      // An agent inside a local composite action runs at each job step that calls it, with that job's trigger,
      // permissions and secrets: the finding is at the call.
      const callers = step.job !== null ? [step] : context.runs.jobSteps(step);
      const events = agentEvents(step, context.taint);
      for (const caller of callers) {
        const job = caller.job as Job;
        const { reach, outsider, check: actorCheck, checked } = agentStart(context.runs, agent, step, caller, events);
        if (reach.level === 'collaborator' || reach.level === 'trusted-author') continue;
        const writes = writeScopes(job);
        const secrets = stepSecrets(caller, job);
        if ((writes === null || writes.length === 0) && secrets.length === 0) continue;
        const restricted = agentRestricted(agent, step);
        const shell = agentShell(agent, step);
        const strong = shell && writes !== null && writes.some((scope) => scope === 'all scopes' || STRONG_SCOPES.has(scope));
        const holds = [
          ...(writes !== null && writes.length > 0 ? [`a token with write access (${writes.join(', ')})`] : []),
          ...(secrets.length > 0 ? [`secrets (${secrets.slice(0, 5).join(', ')}${secrets.length > 5 ? ', ...' : ''})`] : []),
        ].join(' and ');
        const event = `\`${reach.event ?? 'the trigger'}\``;
        const through = caller === step ? '' : ` (inside local action \`${String(caller.uses?.value ?? '')}\`, called by ${describeStep(caller)})`;
        const tools = restricted ? ' (its tools are restricted to an allowlist, which limits what an injected prompt can make it do)' : '';
        let who: string;
        if (outsider) {
          const widened =
            actorCheck === 'widened'
              ? ` (\`${agent.checksActor?.unlessInput ?? ''}\` lets actors without write access start it)`
              : actorCheck === 'checks'
                ? ` (the action checks the actor's write access, but not on ${event})`
                : '';
          const label = reach.level === 'sticky-label' ? ` once a maintainer has labelled the pull request (${reach.gates.join(' / ')}), a label that stays when new commits are pushed` : '';
          who = `runs on ${event} events that anyone can cause${widened}${label}`;
        } else {
          const gates = checked ? [`the action's own check that the actor has write access`] : reach.gates;
          who = `is started by a maintainer on ${event} (${gates.join(' / ') || 'a maintainer\'s act'}), but it reads the thread it is started on, whose title, body and earlier comments an outsider can write`;
        }
        const run = context.runs.job(job);
        context.report({
          node: caller.uses ?? step.uses,
          file: caller.owner.file,
          job,
          ...(strong ? { severity: 'HIGH' as const } : restricted ? { severity: 'LOW' as const } : {}),
          message: `${agent.name}${through} ${who}, while its job holds ${holds}: instructions hidden in an issue, comment or pull request reach an agent holding them${tools}.`,
          key: `${job.id}:${agent.slug}`,
          // Behind the action's own write-access check, `reach` is already a maintainer's act (`reach:approval`, one that
          // does not vouch for the thread), whatever the trigger lets in (agent-input.ts `agentStart`).
          facts: [...reachFacts(reach), ...holdingFacts(run)],
        });
      }
    },
  }),
});
