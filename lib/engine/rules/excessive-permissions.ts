import { jobUsesScope, outsiderInput, readPermissions } from '../analysis/permissions.js';
import { untrustedCheckouts } from '../analysis/pr-head.js';
import { privilegedTriggers } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';

/** Write scopes that let a token change code, releases, packages or workflow runs, or mint OIDC tokens. */
const CRITICAL_SCOPES = new Set(['contents', 'id-token', 'packages', 'actions']);

/** What pull request code does with each critical scope. */
const SCOPE_USE: Readonly<Record<string, string>> = {
  contents: 'push commits and tags',
  'id-token': 'mint OIDC tokens for the cloud accounts that trust this repository',
  packages: 'publish packages',
  actions: 'change workflow runs and caches',
};

/** Why a `write-all` grant is or is not HIGH: it arms whatever hostile input a privileged trigger brings. */
function writeAllWhy(privileged: readonly string[]): string {
  return privileged.length > 0
    ? ` HIGH: the workflow runs on \`${privileged[0] ?? ''}\`, where outside input reaches the job.`
    : ' MEDIUM: no trigger of the workflow brings outside input, so only a compromised step could misuse it.';
}

export default defineWorkflowRule({
  meta: {
    id: 'excessive-permissions',
    category: 'CICD-SEC-5',
    title: 'Workflow token granted broader permissions than needed',
    severity: 'MEDIUM',
    surface: 'workflow',
    fix: { safe: true },
    description:
      '`permissions: write-all` on a workflow or job, or write scopes granted at workflow level, where they apply to every job. HIGH for `write-all` on a privileged trigger, and for `contents`, `id-token`, `packages` or `actions` write on a privileged trigger when more than one job inherits it; a single job that uses its grant is not reported, unless it also checks out pull request code under a privileged trigger (HIGH).',
    recommendation:
      'Set `permissions: {}` or `contents: read` at workflow level and grant each write scope only in the `permissions:` of the job that needs it.',
  },
  create: (context) => ({
    workflow(workflow) {
      if (workflow.permissions === undefined) return;
      // Workflow-level permissions only matter for jobs that do not set their own.
      const inheriting = workflow.jobs.filter((j) => j.permissions === undefined);
      if (workflow.jobs.length > 0 && inheriting.length === 0) return;
      const permissions = readPermissions(workflow.permissions);
      const privileged = privilegedTriggers(workflow).map((t) => t.name);
      if (permissions.kind === 'write-all') {
        context.report({
          node: permissions.node,
          job: null,
          severity: privileged.length > 0 ? 'HIGH' : 'MEDIUM',
          message: `The workflow grants \`write-all\`: every job gets a token that can write to every scope of the repository.${writeAllWhy(privileged)}`,
        });
        return;
      }
      if (permissions.kind !== 'scopes') return;
      // When a single job inherits them, workflow-level grants are that job's own: narrow grants are
      // the recommended pattern there, so only the grants that arm a privileged trigger are reported.
      // A reusable workflow's grants are capped by its caller's job, which is where they are decided.
      // A call job passes the grant on as the ceiling of the reusable workflow's jobs, which may need it:
      // only jobs that run steps themselves show whether the grant is wider than needed.
      const stepJobs = inheriting.filter((j) => j.uses === undefined);
      if (inheriting.length > 0 && stepJobs.length === 0) return;
      const singleJob = stepJobs.length === 1;
      const reusableOnly = workflow.triggers.length > 0 && workflow.triggers.every((t) => t.name === 'workflow_call');
      const only = singleJob ? stepJobs[0] : undefined;
      // The only job checks out pull request code with no maintainer's approval: its grant arms that code (as a
      // job's own grant does, below), whether or not the job uses it.
      const forkCheckout = only !== undefined ? untrustedCheckouts(only, context.repository).find((c) => !c.approved) : undefined;
      let outsiderControl: string | undefined;
      for (const write of permissions.writes) {
        const critical = privileged.length > 0 && CRITICAL_SCOPES.has(write.scope);
        if ((singleJob || reusableOnly) && !critical) continue;
        if (critical && only !== undefined && forkCheckout !== undefined) {
          context.report({
            node: write.key,
            job: null,
            severity: 'HIGH',
            message: `\`${write.scope}: write\` is granted at workflow level to job \`${only.id}\`, which checks out pull request code (${forkCheckout.how} at line ${only.workflow.file.position(forkCheckout.node.start).line}, on \`${forkCheckout.trigger}\`), so that code runs with the grant and can ${SCOPE_USE[write.scope] ?? write.scope}.`,
          });
          continue;
        }
        // The only job's grant at workflow level is that job's own grant: when the job uses it, nothing is excessive.
        if (only !== undefined && jobUsesScope(only, write.scope)) continue;
        // HIGH when outside input meets the grant in one of the jobs (as for missing-permissions): a checkout of
        // pull request code, the triggering run's artifacts or outsider text in a script, where no gate holds.
        const steered = critical && only === undefined ? (outsiderControl ??= outsiderInput(context, stepJobs, privileged, true) ?? '') : '';
        const high = steered !== '';
        context.report({
          node: write.key,
          job: null,
          severity: high ? 'HIGH' : 'MEDIUM',
          message:
            (only !== undefined
              ? `\`${write.scope}: write\` is granted at workflow level to job \`${only.id}\`, which shows no use of it`
              : `\`${write.scope}: write\` is granted at workflow level, so every job of the workflow gets it`) +
            (critical
              ? only !== undefined
                ? `, on the privileged trigger \`${privileged[0]}\`.`
                : high
                  ? `, on the privileged trigger \`${privileged[0]}\`, and ${steered}.`
                  : `, on the privileged trigger \`${privileged[0]}\`. Not HIGH: no job checks out pull request code, downloads its artifacts or puts outsider text into a script, so no outsider's input meets the grant.`
              : '.') +
            (only !== undefined ? ' Not HIGH: it is the only job, so moving the grant to the job changes nothing; remove it if the job does not need it.' : ''),
        });
      }
    },
    job(job) {
      if (job.permissions === undefined) return;
      const permissions = readPermissions(job.permissions);
      if (permissions.kind === 'scopes') {
        // A job's own grant is normally the right place for it, unless the job also runs a pull request's code:
        // that code reads the token (or the OIDC request token, which is in every step's environment) too.
        const critical = permissions.writes.filter((w) => CRITICAL_SCOPES.has(w.scope));
        // A checkout behind a maintainer's approval (a label, an `/ok-to-test` comment) is the checkout's own
        // finding to tell (the approved commit can still change); the grant joins no attack path before a maintainer acts.
        const checkout = critical.length > 0 ? untrustedCheckouts(job, context.repository).find((c) => !c.approved) : undefined;
        if (checkout === undefined || critical[0] === undefined) return;
        const scopes = critical.map((w) => `\`${w.scope}: write\``).join(', ');
        context.report({
          node: critical[0].key,
          severity: 'HIGH',
          message: `Job \`${job.id}\` grants ${scopes} and checks out pull request code (${checkout.how} at line ${job.workflow.file.position(checkout.node.start).line}, on \`${checkout.trigger}\`), so that code runs with the grant and can ${critical.map((w) => SCOPE_USE[w.scope] ?? w.scope).join(', ')}. HIGH even though the job may use it: the grant belongs in a job that never runs the pull request's code.`,
        });
        return;
      }
      if (permissions.kind !== 'write-all') return;
      const privileged = privilegedTriggers(job.workflow).map((t) => t.name);
      context.report({
        node: permissions.node,
        severity: privileged.length > 0 ? 'HIGH' : 'MEDIUM',
        message: `Job \`${job.id}\` grants \`write-all\`: its token can write to every scope of the repository.${writeAllWhy(privileged)}`,
      });
    },
  }),
});
