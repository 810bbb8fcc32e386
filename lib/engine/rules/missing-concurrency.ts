import { literalValues } from '../analysis/expression-values.js';
import { publishesForReal, publishingSteps } from '../analysis/publishing.js';
import { expressionsOf } from '../expressions/extract.js';
import { defineWorkflowRule } from '../rule.js';
import type { Job } from '../model/workflow.js';
import { get, scalarText, type YNode } from '../yaml/model.js';
import { flatMap } from '../model/arrays.js';
import { localCallers } from '../analysis/callers.js';

/** A `concurrency:` that is present and not empty. */
function hasConcurrency(node: YNode | undefined): boolean {
  if (node === undefined) return false;
  if (node.kind === 'scalar') return (scalarText(node) ?? '').trim() !== '';
  return true;
}

/**
 * Environments that gate secrets for automation rather than a deployment target (`automations`, `ci`,
 * `integration-test`, `comment_pr`, `release-gate` ...): runs of these jobs do not race for a target.
 */
const NON_DEPLOY_ENVIRONMENT = /automation|\bci\b|test|comment|status|gate|approv|review|triage|bot\b|eval|flak/i;

/** The environment a job deploys to, as written (`production`, `${{ inputs.env }}`), or null. */
function deployEnvironment(job: Job): string | null {
  const node = job.environment;
  const name = node?.kind === 'map' ? get(node, 'name') : node;
  const text = scalarText(name)?.trim() ?? '';
  if (text === '') return node?.kind === 'map' ? 'an environment' : null;
  // For `${{ cond && 'release' || '' }}` the literals are the candidate names; an expression without any
  // (`${{ inputs.environment }}`) is taken as a deployment target.
  const occurrences = name?.kind === 'scalar' ? expressionsOf(job.workflow.file, name) : [];
  const candidates =
    occurrences.length === 0 ? [text] : flatMap(occurrences, (o) => (o.expr === null ? [] : literalValues(o.expr))).filter((c) => c !== '');
  if (candidates.length > 0 && candidates.every((c) => NON_DEPLOY_ENVIRONMENT.test(c))) return null;
  return text;
}

/**
 * The first step of a job that publishes for real (publishing.ts `publishesForReal`): a rehearsal (`--dry-run`,
 * goreleaser `--snapshot`) or a push to a registry the job itself started or a throwaway one races for nothing.
 */
function publishingEvidence(job: Job): string | null {
  return publishingSteps(job).find(publishesForReal)?.evidence ?? null;
}

export default defineWorkflowRule({
  meta: {
    id: 'missing-concurrency',
    category: 'BEST-PRAC-1',
    title: 'Deploying or publishing workflow without concurrency control',
    severity: 'INFO',
    surface: 'workflow',
    fix: { safe: true },
    description:
      'A job deploys (it has an `environment:`) or publishes (a package, image or release) and neither the workflow nor the job sets `concurrency:`, so two runs can deploy or publish at the same time and an older run can finish last.',
    recommendation:
      'Add `concurrency: { group: <workflow>-${{ github.ref }}, cancel-in-progress: false }` at workflow level, or on the deploying job, so runs of the same target queue instead of racing.',
  },
  create: (context) => ({
    workflow(workflow) {
      if (hasConcurrency(workflow.concurrency)) return;
      // A reusable workflow that only `workflow_call` starts runs as a job of its caller: a caller's job-level or
      // workflow-level `concurrency:` queues its runs. When the repository's own callers all set one, the runs of
      // this workflow cannot overlap through them (callers elsewhere are unknown: without a local caller, report).
      if (workflow.triggers.length > 0 && workflow.triggers.every((t) => t.name === 'workflow_call')) {
        const callers = localCallers(workflow);
        if (callers.length > 0 && callers.every((c) => hasConcurrency(get(c.node, 'concurrency')) || hasConcurrency(c.workflow.concurrency))) return;
      }
      const unguarded = flatMap(workflow.jobs, (job) => {
        if (hasConcurrency(get(job.node, 'concurrency'))) return [];
        const environment = deployEnvironment(job);
        if (environment !== null) return [{ job, what: `deploys to environment \`${environment.slice(0, 60)}\`` }];
        const publishing = publishingEvidence(job);
        return publishing === null ? [] : [{ job, what: `publishes (${publishing})` }];
      });
      const [first, ...others] = unguarded;
      if (first === undefined) return;
      // One finding per workflow, at the first such job: the usual fix is one workflow-level `concurrency:`.
      const more = others.length === 0 ? '' : ` (as do ${others.length} more job${others.length === 1 ? '' : 's'}: ${others.slice(0, 3).map((o) => `\`${o.job.id}\``).join(', ')}${others.length > 3 ? ', …' : ''})`;
      context.report({
        node: first.job.key,
        job: first.job,
        message: `Job \`${first.job.id}\` ${first.what}${more} with no \`concurrency:\` on the job or the workflow: overlapping runs can deploy or publish out of order.`,
      });
    },
  }),
});
