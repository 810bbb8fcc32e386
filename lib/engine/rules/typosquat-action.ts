import { holdingFacts, runFact } from '../analysis/run-model/facts.js';
import { POPULAR_ACTIONS } from '../data/popular-actions.js';
import type { Job, Step } from '../model/workflow.js';
import type { UsesRef } from '../model/uses.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import type { YScalar } from '../yaml/model.js';

const POPULAR = new Set(POPULAR_ACTIONS);
/** Owners that publish a popular action: an account an attacker cannot register. */
const TRUSTED_OWNERS = new Set(POPULAR_ACTIONS.map((slug) => slug.slice(0, slug.indexOf('/'))));
const BY_LENGTH = new Map<number, string[]>();
for (const slug of POPULAR_ACTIONS) {
  const list = BY_LENGTH.get(slug.length) ?? [];
  list.push(slug);
  BY_LENGTH.set(slug.length, list);
}

/**
 * True when `a` and `b` are exactly one edit apart (optimal string alignment: an insertion, a deletion, a
 * substitution or a transposition of adjacent characters). Linear time, no allocation.
 */
export function isOneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  const [shorter, longer] = a.length < b.length ? [a, b] : [b, a];
  return shorter.slice(i) === longer.slice(i + 1);
}

/** The popular action `slug` imitates, or null. */
export function imitatedAction(slug: string): string | null {
  if (POPULAR.has(slug)) return null;
  const owner = slug.slice(0, slug.indexOf('/'));
  if (TRUSTED_OWNERS.has(owner)) return null;
  for (const length of [slug.length - 1, slug.length, slug.length + 1]) {
    for (const popular of BY_LENGTH.get(length) ?? []) {
      // Another repository of the same owner cannot be registered by an attacker: only owners are squatted.
      if (popular.startsWith(`${owner}/`)) continue;
      if (isOneEditApart(slug, popular)) return popular;
    }
  }
  return null;
}

export default defineWorkflowRule({
  meta: {
    id: 'typosquat-action',
    category: 'CICD-SEC-3',
    title: 'Action name one edit away from a popular action',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'A `uses:` names an `owner/repo` one edit (an inserted, missing, changed or swapped character) away from a popular action but published by a different owner, the shape of a typosquatting attack.',
    recommendation:
      'Check the owner and repository name character by character; if it is a typo, point `uses:` at the intended action (pinned by full commit SHA) and review the runs that used the look-alike, rotating the secrets they could read.',
  },
  create: (context) => ({
    job(job) {
      if (job.uses !== undefined && job.usesRef !== undefined) check(context, job.uses, job.usesRef, job, null);
    },
    step(step) {
      if (step.uses !== undefined && step.usesRef !== undefined) check(context, step.uses, step.usesRef, step.job, step);
    },
  }),
});

function check(context: WorkflowRuleContext, node: YScalar, ref: UsesRef, job: Job | null, step: Step | null): void {
  if (ref.kind !== 'repository') return;
  const slug = `${ref.owner}/${ref.repo}`.toLowerCase();
  const popular = imitatedAction(slug);
  if (popular === null) return;
  context.report({
    node,
    message: `\`${ref.owner}/${ref.repo}\` is one character away from the popular action \`${popular}\` but belongs to another owner; a look-alike action runs with this job's token and secrets.`,
    // For the attack paths: what the job holds, and when the step runs (a step that never runs starts no path).
    facts: [...(job === null ? [] : holdingFacts(context.runs.job(job))), ...(step === null ? [] : runFact(context.runs, step))],
  });
}
