import { agentEvents, agentReach, agentShell, stepAgent } from '../analysis/agent-input.js';
import { describeStep, taintSourceText } from '../analysis/describe.js';
import { scriptInjections } from '../analysis/injections.js';
import { outsiderCode, type OutsiderCode } from '../analysis/outsider-code.js';
import { implicitTokenReaders, otherTokenSteps, readPermissions, scopeUse, type WriteScope } from '../analysis/permissions.js';
import { reachFacts } from '../analysis/run-model/facts.js';
import { severityOf, whoText, type Reach } from '../analysis/run-model/index.js';
import { REACH_ORDER } from '../analysis/run-model/reach.js';
import { jobTokenTaking } from '../analysis/run-model/handed.js';
import type { Job, Step } from '../model/workflow.js';
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
  issues: 'edit, label, close and comment on issues',
  'pull-requests': 'edit, close, comment on and review pull requests',
  checks: 'write check runs',
  statuses: 'set commit statuses',
  discussions: 'edit and comment on discussions',
  deployments: 'create deployments',
  pages: 'publish the Pages site',
  'security-events': 'dismiss code scanning alerts',
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
function why(critical: boolean, code: OutsiderCode | null, what: string, starts = '', unused: readonly Job[] | null = null): string {
  if (!critical) return ' LOW: the scope does not hand over the repository, its releases or packages, or a cloud account.';
  if (code === null && unused !== null) return `${starts} LOW: ${unused.length === 1 ? 'the job that does not need it runs' : 'the jobs that do not need it run'} no outsider's code (a checkout or download of pull request code that a step runs, or event text expanded into a script), so the grant is wider than needed, not armed; a job that needs it keeps it wherever it is granted.`;
  if (code === null) return `${starts} LOW: no job that holds it runs an outsider's code (a checkout or download of pull request code that a step runs, or event text expanded into a script), so the grant is wider than needed, not armed.`;
  return ` ${severity(critical, code)}: ${code.text}, and ${whoText(code.reach)}, so that code runs with the grant and can ${what}.`;
}

/**
 * How outside text can steer a job that holds a grant it never uses, or null: an outsider's code or text runs in
 * it (a pull request's code, event text expanded into a script), or an AI agent with a shell reads a thread an
 * outsider can write (whoever starts it). Every scope the job holds is then what the steered step can use.
 */
interface Steering {
  reach: Reach;
  text: string;
}

function steering(context: WorkflowRuleContext, job: Job): Steering | null {
  const code = outsiderCode(context, [job]);
  if (code !== null) return { reach: code.reach, text: code.text };
  const injected = injectedCode(context, job);
  if (injected !== null) return injected;
  for (const step of job.steps) {
    // The agent's step, or one inside the local composite action the step runs (it runs with this job's token).
    const inner = step.usesRef?.kind === 'local' ? (context.repository.localAction(step)?.steps ?? []) : [];
    for (const candidate of [step, ...inner]) {
      const agent = stepAgent(candidate);
      if (agent === undefined || !agentShell(agent, candidate)) continue;
      const reach = agentReach(context.runs, step, agentEvents(candidate, context.taint));
      if (reach.level === 'collaborator' || reach.level === 'trusted-author') continue;
      const line = job.workflow.file.position(step.node.start).line;
      const via = candidate === step ? '' : ` (inside local action \`${String(step.uses?.value ?? '')}\`)`;
      return { reach, text: `${describeStep(step)} (line ${line}) runs ${agent.name}${via}, an agent with a shell, on \`${reach.event ?? 'the trigger'}\`, where it reads a thread (title, body, comments) an outsider can write` };
    }
  }
  return null;
}

/**
 * Outsider text expanded into code an action runs (the `script` of `actions/github-script` and the other code
 * inputs `script-injection` reads; a `run:` script is `outsiderCode`'s), on a step an outsider can start: the
 * injected code runs in the job, holding every scope the job was granted. The weakest-reached such step, or null.
 */
function injectedCode(context: WorkflowRuleContext, job: Job): Steering | null {
  let best: Steering | null = null;
  for (const step of job.steps) {
    if (step.uses === undefined) continue;
    for (const hit of scriptInjections(step, context.taint, context.runs)) {
      const taint = hit.taint;
      if (taint?.controller !== 'external' || (taint.level !== 'arbitrary' && taint.level !== 'structured')) continue;
      const reach = context.runs.stepReach(step);
      if (!STEERING_REACH.has(reach.level)) continue;
      if (best === null || REACH_ORDER.indexOf(reach.level) < REACH_ORDER.indexOf(best.reach.level)) {
        best = { reach, text: `${describeStep(step)} (line ${job.workflow.file.position(hit.node.start).line}) expands ${taintSourceText(taint)} into the code its action runs` };
      }
      break;
    }
  }
  return best;
}

/** Reaches at which an outsider's text can steer a step: with no approval, or behind one of some strength (as `outsiderCode`). */
const STEERING_REACH: ReadonlySet<string> = new Set(['anyone', 'sticky-label', 'unreviewed-environment', 'approval']);

/** `MEDIUM: <how it is steered>; <who>, ...` for a grant a steered job holds but never uses. */
function steeredText(steer: Steering, what: string): string {
  return ` MEDIUM: ${steer.text}; ${whoText(steer.reach)}, so injected instructions or code can ${what} with it although no step needs it.`;
}

/** `\`steps.app.outputs.token\` in steps \`Review\`, 3`: the other tokens a job's steps act with, and where. */
function otherText(others: readonly { step: Step; token: string }[]): string {
  const tokens = [...new Set(others.map((o) => `\`${o.token}\``))];
  const labels = others.slice(0, 4).map((o) => (o.step.name ?? o.step.id) !== null ? `\`${(o.step.name ?? o.step.id ?? '').replace(/\s+/g, ' ').slice(0, 60)}\`` : String(o.step.index + 1));
  const more = others.length > 4 ? ` and ${others.length - 4} more` : '';
  return `${tokens.slice(0, 2).join(', ')}${tokens.length > 2 ? ' and others' : ''} in step${others.length === 1 ? '' : 's'} ${labels.join(', ')}${more}`;
}

/**
 * The steps of a job that take its token (run-model/handed.ts `jobTokenTaking`: handed it in their `with:` or
 * environment, or an action whose token input defaults to it), in words: `\`actions/labeler\``, `the script of step
 * \`Comment\``. Each once, in file order.
 */
function tokenTakers(job: Job): string[] {
  const found: string[] = [];
  for (const step of job.steps) {
    if (jobTokenTaking(step) === null) continue;
    const label = step.name ?? step.id;
    const words =
      step.usesRef?.kind === 'repository'
        ? `\`${step.usesRef.slug}${step.usesRef.path === '' ? '' : `/${step.usesRef.path}`}\``
        : step.run !== undefined
          ? `the script of ${label !== null ? `step \`${label.replace(/\s+/g, ' ').slice(0, 60)}\`` : `step ${step.index + 1}`}`
          : `\`${String(step.uses?.value ?? '')}\``;
    if (!found.includes(words)) found.push(words);
  }
  return found;
}

/** `a, b, c and 2 more`. */
function listed(items: readonly string[]): string {
  return items.length > 3 ? `${items.slice(0, 3).join(', ')} and ${items.length - 3} more` : items.join(', ');
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
      '`permissions: write-all` on a workflow or job; a write scope at workflow level that some job inheriting it provably does not use (it runs only scripts and actions that never write with the token, and hands the token to no code that may); a write scope in a job\'s own `permissions:` that its steps never use (a test job, a comment bot granted `contents: write`). HIGH when the scope is `contents`, `id-token`, `packages`, `actions` (or `write-all`) and an outsider\'s code runs with it with no approval (run model: a checkout or download of pull request code that a step runs, or event text expanded into a script, on a trigger anyone can fire); MEDIUM behind an approval the code can change after, or an environment of unknown strength, and for a grant the job never uses while an outsider\'s text can steer it (an AI agent with a shell reading a thread an outsider writes, whoever starts it; their text expanded into a script; a pull request\'s code); LOW otherwise (wider than needed, not armed). For a workflow-level grant, what arms the excess is what runs in the jobs that do not need the scope: a job that needs it keeps it wherever it is granted, and the finding about the outsider\'s code there (untrusted-checkout, script-injection) holds it. A job\'s own grant that it uses is reported only when an outsider\'s code runs with it.',
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
        const unused = inheriting.filter((j) => scopeUse(j, write.scope, context.repository) === null);
        const critical = CRITICAL_SCOPES.has(write.scope);
        // What the excess arms is what runs in the jobs that do not need the scope; a job that needs it keeps it
        // whatever the grant's level, and the finding about its outsider's code (untrusted-checkout ...) holds it.
        const code = critical ? outsiderCode(context, unused.length > 0 ? unused : inheriting) : null;
        // Outsider text in a script that the jobs' own use of the scope runs with is script-injection's claim (which
        // names the grant among what the step holds): the fix is the script, not the grant.
        if (unused.length === 0 && (code === null || code.kind === 'script')) continue;
        // A job that does not need the grant but can be steered by an outsider's text (an agent with a shell
        // reading their thread, their text in a script): MEDIUM, unless outsider code already makes it worse.
        const steered = code === null ? unused.map((j) => steering(context, j)).find((x) => x !== null) ?? null : null;
        const what =
          unused.length === 0
            ? `\`${write.scope}: write\` is granted at workflow level to ${jobsText(inheriting)}, which may use it`
            : single
            ? `\`${write.scope}: write\` is granted at workflow level to its only job \`${unused[0]!.id}\`, which does not need it (its steps run only scripts and actions that never write with the token)`
            : `\`${write.scope}: write\` is granted at workflow level, so every job without its own \`permissions:\` gets it, and ${jobsText(unused)} ${unused.length === 1 ? 'does' : 'do'} not need it (only scripts and actions that never write with the token)`;
        context.report({
          node: write.key,
          job: null,
          severity: steered !== null ? 'MEDIUM' : severity(critical, code),
          message: `${what}.${steered !== null ? steeredText(steered, SCOPE_USE[write.scope] ?? `write \`${write.scope}\``) : why(critical, code, SCOPE_USE[write.scope] ?? write.scope, startedByAnyone(context, unused), unused.length > 0 && unused.length < inheriting.length ? unused : null)}`,
          facts: code !== null ? [...reachFacts(code.reach), 'exec', 'holds:token'] : steered !== null ? [...reachFacts(steered.reach), 'holds:token'] : [],
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
      if (code !== null && critical[0] !== undefined && (code.kind !== 'script' || critical.some((w) => scopeUse(job, w.scope, context.repository) === null))) {
        const scopes = critical.map((w) => `\`${w.scope}: write\``).join(', ');
        context.report({
          node: critical[0].key,
          severity: severity(true, code),
          message: `Job \`${job.id}\` grants ${scopes} and runs an outsider's code: ${code.text}; ${whoText(code.reach)}, so that code runs with the grant and can ${critical.map((w) => SCOPE_USE[w.scope] ?? w.scope).join(', ')}. Even if the job uses it, the grant belongs in a job that never runs the pull request's code.`,
          facts: [...reachFacts(code.reach), 'exec', 'holds:token'],
        });
        return;
      }
      const unused: WriteScope[] = permissions.writes.filter((w) => scopeUse(job, w.scope, context.repository) === null);
      const first = unused[0];
      if (first === undefined) return;
      // An action that takes the token itself to read with it (an agent's access check) holds it, but writes nothing;
      // the steps handed the token, or whose token input defaults to it, are named from the run model's fact.
      const readers = implicitTokenReaders(job);
      const takers = tokenTakers(job);
      const scopes = unused.map((w) => `\`${w.scope}: write\``).join(', ');
      const recipients = [...readers, ...takers];
      const handed =
        recipients.length === 0
          ? 'and hand the token to nothing'
          : takers.length === 0
            ? `and hand the token only to ${readers.join(', ')}, which reads with it`
            : `and hand the token only to ${listed(recipients)}, which ${recipients.length === 1 ? 'does' : 'do'} not need ${scopes}`;
      // Steps that act on GitHub with another token (an app's, a PAT) leave the job's grant unused.
      const others = otherTokenSteps(job);
      const other = others.length === 0 ? '' : ` act on GitHub only with another token (${otherText(others)}),`;
      const grants = `Job \`${job.id}\` grants ${unused.map((w) => `\`${w.scope}: write\``).join(', ')} that its steps never use: they run only scripts and actions that never write with the token,${other} ${handed}.`;
      const steered = steering(context, job);
      if (steered !== null) {
        context.report({
          node: first.key,
          severity: 'MEDIUM',
          message: `${grants}${steeredText(steered, unused.map((w) => SCOPE_USE[w.scope] ?? `write \`${w.scope}\``).join(', '))} Drop ${unused.length === 1 ? 'it' : 'them'}.`,
          facts: [...reachFacts(steered.reach), 'holds:token'],
        });
        return;
      }
      // Started by anyone (a comment, an issue): their text is in the job, and any step's bug runs with the grant.
      const outsiders = startedByAnyone(context, [job]);
      context.report({
        node: first.key,
        severity: 'LOW',
        message: `${grants}${outsiders} LOW: wider than needed, not armed; drop ${unused.length === 1 ? 'it' : 'them'}.`,
      });
    },
  }),
});
