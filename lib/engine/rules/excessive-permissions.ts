import { outsiderCode, readPermissions, scopeUse, type OutsiderCode, type WriteScope } from '../analysis/permissions.js';
import { reachFacts } from '../analysis/run-model/facts.js';
import { severityOf, whoText } from '../analysis/run-model/index.js';
import type { Job } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import type { Severity } from '../types.js';

/** Write scopes that let a token change code, releases, packages or workflow runs, or mint OIDC tokens. */
const CRITICAL_SCOPES = new Set(['contents', 'id-token', 'packages', 'actions']);

/** What code holding each critical scope can do. */
const SCOPE_USE: Readonly<Record<string, string>> = {
  contents: 'push commits and tags',
  'id-token': 'mint OIDC tokens for the cloud accounts that trust this repository',
  packages: 'publish packages',
  actions: 'change workflow runs and caches',
};

/** The severity of a grant, from the run model: HIGH needs an outsider's code running with it (policy in docs/severity.md). */
function severity(critical: boolean, code: OutsiderCode | null): Severity {
  if (!critical || code === null) return 'LOW';
  return severityOf({ reach: code.reach, executes: true, holds: ['a write scope'], raceAfterApproval: code.race });
}

/** ` Anyone with a GitHub account can start it through \`issues\`, ...` when an outsider starts one of `jobs`; '' otherwise. */
function startedByAnyone(context: WorkflowRuleContext, jobs: readonly Job[]): string {
  const reach = jobs.map((j) => context.runs.job(j).reach).find((r) => r.level === 'anyone');
  if (reach === undefined) return '';
  const who = whoText(reach);
  return ` ${who[0]?.toUpperCase() ?? ''}${who.slice(1)}, so every step that handles their text does so holding the grant.`;
}

/** `; HIGH: <who>, and <what runs>` or the reason it is not HIGH. */
function why(critical: boolean, code: OutsiderCode | null, what: string, starts = ''): string {
  if (!critical) return ' LOW: the scope does not hand over the repository, its releases or packages, or a cloud account.';
  if (code === null) return `${starts} LOW: no job that holds it runs an outsider's code (a checkout or download of pull request code that a step runs, or event text expanded into a script), so the grant is wider than needed, not armed.`;
  return ` ${severity(critical, code)}: ${code.text}, and ${whoText(code.reach)}, so that code runs with the grant and can ${what}.`;
}

function jobsText(jobs: readonly Job[]): string {
  const names = jobs.slice(0, 3).map((j) => `\`${j.id}\``);
  const more = jobs.length > 3 ? ` and ${jobs.length - 3} more` : '';
  return jobs.length === 1 ? `job ${names[0] ?? ''}` : `jobs ${names.join(', ')}${more}`;
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
      '`permissions: write-all` on a workflow or job; a write scope at workflow level that some job inheriting it provably does not use (it runs only scripts and actions that never write with the token, and hands the token to nothing); a write scope in a job\'s own `permissions:` that its steps never use (a test job, a comment bot granted `contents: write`). HIGH when the scope is `contents`, `id-token`, `packages`, `actions` (or `write-all`) and an outsider\'s code runs with it with no approval (run model: a checkout or download of pull request code that a step runs, or event text expanded into a script, on a trigger anyone can fire); MEDIUM behind an approval the code can change after, or an environment of unknown strength; LOW otherwise (wider than needed, not armed). A job\'s own grant that it uses is reported only when an outsider\'s code runs with it.',
    recommendation:
      'Set `permissions: {}` or `contents: read` at workflow level and grant each write scope only in the `permissions:` of the job that needs it; drop grants no step uses, and never grant a write scope to a job that runs a pull request\'s code.',
  },
  create: (context) => ({
    workflow(workflow) {
      if (workflow.permissions === undefined) return;
      // Workflow-level permissions only matter for jobs that do not set their own.
      const inheriting = workflow.jobs.filter((j) => j.permissions === undefined);
      if (workflow.jobs.length > 0 && inheriting.length === 0) return;
      const permissions = readPermissions(workflow.permissions);
      const single = inheriting.length === 1 && workflow.jobs.length === 1;
      if (permissions.kind === 'write-all') {
        const code = outsiderCode(context, inheriting);
        context.report({
          node: permissions.node,
          job: null,
          severity: severity(true, code),
          message: `The workflow grants \`write-all\`: ${single ? 'its job gets' : 'every job gets'} a token that can write to every scope of the repository.${why(true, code, 'write to every scope', startedByAnyone(context, inheriting))}`,
          facts: code === null ? [] : [...reachFacts(code.reach), 'exec', 'holds:token'],
        });
        return;
      }
      if (permissions.kind !== 'scopes') return;
      // A reusable workflow's grants are capped by its caller's job, which is where they are decided.
      if (workflow.triggers.length > 0 && workflow.triggers.every((t) => t.name === 'workflow_call')) return;
      for (const write of permissions.writes) {
        // Only a job that provably does not use the scope makes the workflow-level grant wider than needed; an
        // outsider's code that runs with a critical scope arms it either way (as a job's own grant, below).
        const unused = inheriting.filter((j) => scopeUse(j, write.scope) === null);
        const critical = CRITICAL_SCOPES.has(write.scope);
        const code = critical ? outsiderCode(context, inheriting) : null;
        if (unused.length === 0 && code === null) continue;
        const what =
          unused.length === 0
            ? `\`${write.scope}: write\` is granted at workflow level to ${jobsText(inheriting)}, which may use it`
            : single
            ? `\`${write.scope}: write\` is granted at workflow level to its only job \`${unused[0]!.id}\`, which does not need it (its steps run only scripts and actions that never write with the token)`
            : `\`${write.scope}: write\` is granted at workflow level, so every job without its own \`permissions:\` gets it, and ${jobsText(unused)} ${unused.length === 1 ? 'does' : 'do'} not need it (only scripts and actions that never write with the token)`;
        context.report({
          node: write.key,
          job: null,
          severity: severity(critical, code),
          message: `${what}.${why(critical, code, SCOPE_USE[write.scope] ?? write.scope)}`,
          facts: code === null ? [] : [...reachFacts(code.reach), 'exec', 'holds:token'],
        });
      }
    },
    job(job) {
      if (job.permissions === undefined) return;
      const permissions = readPermissions(job.permissions);
      if (permissions.kind === 'write-all') {
        const code = outsiderCode(context, [job]);
        context.report({
          node: permissions.node,
          severity: severity(true, code),
          message: `Job \`${job.id}\` grants \`write-all\`: its token can write to every scope of the repository.${why(true, code, 'write to every scope', startedByAnyone(context, [job]))}`,
          facts: code === null ? [] : [...reachFacts(code.reach), 'exec', 'holds:token'],
        });
        return;
      }
      if (permissions.kind !== 'scopes' || permissions.writes.length === 0) return;
      // A job's own grant is normally the right place for it, unless the job also runs an outsider's code (that
      // code reads the token, or the OIDC request token in every step's environment) or never uses it.
      const critical = permissions.writes.filter((w) => CRITICAL_SCOPES.has(w.scope));
      const code = critical.length > 0 ? outsiderCode(context, [job]) : null;
      if (code !== null && critical[0] !== undefined) {
        const scopes = critical.map((w) => `\`${w.scope}: write\``).join(', ');
        context.report({
          node: critical[0].key,
          severity: severity(true, code),
          message: `Job \`${job.id}\` grants ${scopes} and runs an outsider's code: ${code.text}; ${whoText(code.reach)}, so that code runs with the grant and can ${critical.map((w) => SCOPE_USE[w.scope] ?? w.scope).join(', ')}. Even if the job uses it, the grant belongs in a job that never runs the pull request's code.`,
          facts: [...reachFacts(code.reach), 'exec', 'holds:token'],
        });
        return;
      }
      const unused: WriteScope[] = permissions.writes.filter((w) => scopeUse(job, w.scope) === null);
      const first = unused[0];
      if (first === undefined) return;
      // Started by anyone (a comment, an issue): their text is in the job, and any step's bug runs with the grant.
      const outsiders = startedByAnyone(context, [job]);
      context.report({
        node: first.key,
        severity: 'LOW',
        message: `Job \`${job.id}\` grants ${unused.map((w) => `\`${w.scope}: write\``).join(', ')} that its steps never use: they run only scripts and actions that never write with the token, and hand the token to nothing.${outsiders} LOW: wider than needed, not armed; drop ${unused.length === 1 ? 'it' : 'them'}.`,
      });
    },
  }),
});
