import { outsiderAgentGiven } from '../analysis/agent-input.js';
import { describeStep } from '../analysis/describe.js';
import { outsiderCode } from '../analysis/outsider-code.js';
import { severityOf, whoText } from '../analysis/run-model/severity.js';
import type { Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { get, getText, isTruthy, keyText, type YNode } from '../yaml/model.js';

/** A literal `false` (YAML or string), as GitHub's action inputs read it. */
function isFalse(node: YNode | undefined): boolean {
  if (node?.kind !== 'scalar') return false;
  return node.value === false || (typeof node.value === 'string' && /^false$/i.test(node.value.trim()));
}

/** A non-empty input value. */
function present(node: YNode | undefined): boolean {
  const text = node?.kind === 'scalar' && node.value !== null ? String(node.value).trim() : '';
  return text !== '';
}

/** `permission-*` inputs of create-github-app-token that grant organisation permissions, not repository ones. */
function isOrganizationPermission(input: string): boolean {
  return input.startsWith('permission-organization-') || input === 'permission-members' || input === 'permission-team-discussions';
}

export default defineWorkflowRule({
  meta: {
    id: 'github-app-token-misuse',
    category: 'CICD-SEC-2',
    title: 'GitHub App installation token minted too broadly',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      '`actions/create-github-app-token` (or `tibdex/github-app-token`) mints an installation token that is not revoked at the end of the job (`skip-token-revoke: true`), covers every repository of an owner (`owner` without `repositories`, unless it only requests organisation permissions), or carries all of the app\'s permissions (no `permission-*` input).',
    recommendation:
      'Name the `repositories` the job works on, request only the `permission-<scope>` inputs it needs, and leave token revocation on.',
  },
  create: (context) => ({
    step(step: Step) {
      // The severity policy (docs/severity.md): a token wider than the job needs is hygiene (LOW) until
      // something an outsider controls runs in the job that holds it (MEDIUM, naming it).
      let code: ReturnType<typeof outsiderCode> | undefined;
      // Behind a maintainer's approval of the commit that runs (a label event's head SHA, a `/ok-to-test` pinned to the
      // commented commit), the outsider's code runs only as approved: LOW, naming the approval (severityOf).
      const rated = (message: string): { severity: 'MEDIUM' | 'LOW'; message: string } => {
        code ??= step.job === null ? null : outsiderCode(context, [step.job]);
        if (code === null) {
          // The token handed to an AI agent that anyone can start on a thread it reads: an instruction hidden in an
          // issue or comment acts with every permission the token carries (agent-untrusted-input reports the agent).
          const agent = step.job === null ? null : outsiderAgentGiven(context.runs, context.taint, step.job, step, 'token');
          if (agent !== null) return { severity: 'MEDIUM', message: `${message} The token is handed to ${describeStep(agent.step)}, ${agent.name}, which anyone with a GitHub account can start on a thread they write: an instruction hidden there acts with what the token carries.` };
          return { severity: 'LOW', message: `${message} LOW: nothing an outsider controls runs in the job that holds it.` };
        }
        const severity = severityOf({ reach: code.reach, executes: true, holds: ['the token'], raceAfterApproval: code.race }) === 'LOW' ? 'LOW' : 'MEDIUM';
        return { severity, message: `${message} An outsider's code or text runs in the job: ${code.text}; ${whoText(code.reach)}.${severity === 'LOW' ? ' LOW: what runs is what a maintainer approved.' : ''}` };
      };
      if (step.usesRef?.kind !== 'repository' || step.uses === undefined) return;
      // `with: ${{ ... }}` cannot be read statically.
      const withNode = get(step.node, 'with');
      if (withNode !== undefined && withNode.kind !== 'map' && !(withNode.kind === 'scalar' && withNode.value === null)) return;
      const slug = step.usesRef.slug;
      const inputs = step.with?.pairs ?? [];

      if (slug === 'actions/create-github-app-token') {
        const revoke = get(step.with, 'skip-token-revoke');
        if (revoke !== undefined && isTruthy(revoke)) {
          context.report({ node: revoke, ...rated('`skip-token-revoke: true` keeps the installation token valid for up to an hour after the job, for whoever copied it.') });
        }
        const owner = get(step.with, 'owner');
        const permissions = inputs.map((p) => keyText(p.key)).filter((k) => k.startsWith('permission-'));
        // A token with only organisation permissions (members, org projects ...) reaches no repository, however many the app can see.
        const organizationOnly = permissions.length > 0 && permissions.every(isOrganizationPermission);
        if (owner !== undefined && present(owner) && !present(get(step.with, 'repositories')) && !organizationOnly) {
          context.report({
            node: owner,
            ...rated(`\`owner: ${getText(step.with, 'owner') ?? ''}\` without \`repositories\` mints a token for every repository the app can reach in that account.`),
          });
        }
        if (!inputs.some((p) => keyText(p.key).startsWith('permission-'))) {
          context.report({
            node: step.uses,
            ...rated('The app token is minted without any `permission-*` input, so it carries every permission granted to the app installation.'),
          });
        }
        return;
      }

      if (slug === 'tibdex/github-app-token') {
        const revoke = get(step.with, 'revoke');
        if (revoke !== undefined && isFalse(revoke)) {
          context.report({ node: revoke, ...rated('`revoke: false` keeps the installation token valid for up to an hour after the job, for whoever copied it.') });
        }
        const missing = [
          present(get(step.with, 'repositories')) ? null : 'every repository of the installation (no `repositories`)',
          present(get(step.with, 'permissions')) ? null : "all of the app's permissions (no `permissions`)",
        ].filter((m): m is string => m !== null);
        if (missing.length > 0) {
          context.report({ node: step.uses, ...rated(`\`tibdex/github-app-token\` mints a token for ${missing.join(' and ')}.`) });
        }
      }
    },
  }),
});
