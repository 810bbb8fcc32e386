import { readPermissions } from '../analysis/permissions.js';
import { isGithubToken, secretOccurrences } from '../analysis/secrets.js';
import { everyPathGuarded, stepTrust } from '../analysis/trust-guards.js';
import { agentAction } from '../data/agent-actions.js';
import type { Job, Step, Workflow } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { getPair, getText, type YNode } from '../yaml/model.js';

/** Events whose content (titles, bodies, comments, branch names) anyone with a GitHub account writes. */
const OUTSIDER_EVENTS = new Set([
  'issues',
  'issue_comment',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment',
  'discussion',
  'discussion_comment',
]);

/** Write scopes that reach beyond the conversation: code, releases, packages, workflow runs, deployments. */
const STRONG_SCOPES = new Set(['contents', 'actions', 'packages', 'workflows', 'deployments']);

/** The write scopes the job's token has, from the job's `permissions:` or else the workflow's; null when undeclared. */
function writeScopes(job: Job): string[] | null {
  const node = job.permissions ?? job.workflow.permissions;
  if (node === undefined) return null;
  const permissions = readPermissions(node);
  if (permissions.kind === 'write-all') return ['all scopes'];
  if (permissions.kind === 'scopes') return permissions.writes.map((w) => w.scope);
  return [];
}

/** Stored secrets (not the run's GITHUB_TOKEN) the step's inputs and environments carry. */
function stepSecrets(step: Step, job: Job): string[] {
  const file = job.workflow.file;
  const nodes: (YNode | undefined)[] = [step.with, step.env, job.env, job.workflow.env];
  const names = nodes.flatMap((node) => (node === undefined ? [] : secretOccurrences(file, node).map((s) => s.name)));
  return [...new Set(names.filter((name) => !isGithubToken(name)))];
}

function outsiderEvents(workflow: Workflow): string[] {
  return [...new Set(workflow.triggers.map((t) => t.name).filter((name) => OUTSIDER_EVENTS.has(name)))];
}

export default defineWorkflowRule({
  meta: {
    id: 'agent-untrusted-input',
    category: 'CICD-SEC-4',
    title: 'AI coding agent runs on events anyone can cause',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'An AI coding-agent action (Claude Code, Gemini CLI, Codex, opencode) runs on `issues`, comments, reviews, discussions or `pull_request_target` without a guard on who triggered it, while its job holds a write token or stored secrets: text anyone can write becomes instructions to an agent holding those credentials. HIGH when the token can write code, releases, packages or cloud credentials (`id-token`).',
    recommendation:
      'Run the agent only for trusted actors (check `author_association` or the actor\'s permission in the job\'s `if:`), give its job read-only permissions and only the secrets it needs, and let a separate job with write access act on its reviewed output.',
  },
  create: (context) => ({
    step(step) {
      const job = step.job;
      const ref = step.usesRef;
      if (job === null || ref?.kind !== 'repository' || step.uses === undefined) return;
      const agent = agentAction(ref.slug, ref.path);
      if (agent === undefined) return;
      const events = outsiderEvents(job.workflow);
      if (events.length === 0) return;
      // Every way the step can run is guarded by who triggered it (an association check, an actor, a
      // label, a maintainer-only event, an environment's reviewers): outsiders cannot start it.
      if (everyPathGuarded(stepTrust(step), () => true)) return;
      const widened = agent.checksActor !== undefined && getPair(step.with, agent.checksActor.unlessInput) !== undefined;
      if (agent.checksActor !== undefined && !widened) return;
      const writes = writeScopes(job);
      const secrets = stepSecrets(step, job);
      if ((writes === null || writes.length === 0) && secrets.length === 0) return;
      const restricted = (agent.toolAllowlist ?? []).some(({ input, pattern }) => {
        const text = getText(step.with, input);
        return text !== null && (pattern === undefined || pattern.test(text));
      });
      const strong = !restricted && writes !== null && writes.some((scope) => scope === 'all scopes' || STRONG_SCOPES.has(scope));
      const holds = [
        ...(writes !== null && writes.length > 0 ? [`a token with write access (${writes.join(', ')})`] : []),
        ...(secrets.length > 0 ? [`secrets (${secrets.slice(0, 5).join(', ')}${secrets.length > 5 ? ', ...' : ''})`] : []),
      ].join(' and ');
      const how = widened ? ` (\`${agent.checksActor?.unlessInput ?? ''}\` lets actors without write access start it)` : '';
      context.report({
        node: step.uses,
        ...(strong ? { severity: 'HIGH' as const } : restricted ? { severity: 'LOW' as const } : {}),
        message: `${agent.name} runs on \`${events.join('`, `')}\` events that anyone can cause${how}, while its job holds ${holds}: instructions hidden in an issue, comment or pull request reach an agent holding them${restricted ? ' (its tools are restricted to an allowlist, which limits what an injected prompt can make it do)' : ''}.`,
        key: `${job.id}:${agent.slug}`,
      });
    },
  }),
});
