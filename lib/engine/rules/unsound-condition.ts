import { conditionOf } from '../analysis/expression-sites.js';
import { outsiderReach, type RunModel } from '../analysis/run-model/index.js';
import { stepWhere } from '../analysis/step-label.js';
import { followsUntrustedRuns } from '../analysis/workflow-run.js';
import { findExpressions } from '../expressions/extract.js';
import { Binary, contextPath, Grouping, Literal, Logical, type Expr } from '../expressions/parse.js';
import type { Job, Workflow } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import type { Severity } from '../types.js';
import { asList, get, scalarText, type YNode } from '../yaml/model.js';

/**
 * Why a condition is a string rather than an expression, or null. GitHub evaluates an `if:` as an
 * expression when it contains no `${{ }}` or is exactly one; otherwise (text around or between the
 * `${{ }}`, even a block scalar's trailing newline) it is a format string, non-empty and so always true.
 */
function unsoundReason(node: YNode | undefined): string | null {
  if (node?.kind !== 'scalar' || typeof node.value !== 'string') return null;
  const text = node.value;
  const spans = findExpressions(text);
  // An unterminated `${{` is a syntax error GitHub rejects, not a condition that runs.
  if (spans.length === 0 || spans.some((s) => !s.terminated)) return null;
  const only = spans[0];
  if (spans.length === 1 && only !== undefined && only.start === 0 && only.end === text.length) return null;
  if (meansAlways(spans.map((s) => s.source))) return null;
  let literal = text.slice(0, spans[0]?.start ?? 0);
  spans.forEach((span, i) => {
    literal += text.slice(span.end, spans[i + 1]?.start ?? text.length);
  });
  if (literal.trim() === '') {
    if (spans.length > 1) return `it concatenates ${spans.length} \`\${{ }}\` blocks into a string`;
    return node.style === 'literal' || node.style === 'folded'
      ? 'the block scalar keeps a trailing newline after the `${{ }}`'
      : 'whitespace surrounds the `${{ }}`';
  }
  return `the text \`${literal.trim().slice(0, 40)}\` sits outside the \`\${{ }}\``;
}

/**
 * `(${{ success() }} || ${{ failure() }})`: only status checks that together mean "always run", which is
 * what the always-true string does too, so nothing is bypassed.
 */
function meansAlways(sources: string[]): boolean {
  const calls = new Set(sources.map((s) => s.replace(/\s+/g, '').toLowerCase()));
  if (![...calls].every((c) => STATUS_CALLS.has(c))) return false;
  return calls.has('always()') || (calls.has('success()') && calls.has('failure()'));
}

const STATUS_CALLS = new Set(['success()', 'failure()', 'always()', 'cancelled()']);

/** Contexts a condition reads when it keeps outsiders out: who acts, where the code comes from, which repository. */
const TRUST_GATE =
  /\b(github\.(actor|triggering_actor|repository|repository_owner)\b|author_association|head\.repo|\.fork\b|\.user\.login|sender\.|\blabels?\b|label\.name|secrets\.|\bpermission\b|\bteam)/i;
/** Contexts that keep a step to a branch, tag or release (a deploy from `main`, a publish on tags). */
const REF_GATE = /\bgithub\.(ref|ref_name|ref_type|base_ref|head_ref)\b|refs\/(heads|tags)\/|event\.release\b|\.merged\b/i;

/**
 * How bad an always-true condition is, from what it was meant to check: bypassing a trust gate lets an
 * outsider in (HIGH); a branch or tag filter lets a deploy or publish run elsewhere (MEDIUM); a path, event,
 * platform or input filter only runs more than intended (LOW).
 */
export function conditionSeverity(node: YNode): { severity: Severity; why: string } {
  const text = node.kind === 'scalar' && typeof node.value === 'string' ? node.value : '';
  // The literal text around the `${{ }}` is part of what the author meant to check (`${{ a }} && github.actor == 'x'`).
  const sources = text;
  if (TRUST_GATE.test(sources)) return { severity: 'HIGH', why: ' The condition checks who triggered the run or where its code comes from, so that check is bypassed.' };
  if (REF_GATE.test(sources)) {
    return { severity: 'MEDIUM', why: ' MEDIUM: the condition filters on a branch, tag or release, so what it guards also runs on other refs; it checks no actor or origin.' };
  }
  return { severity: 'LOW', why: ' LOW: the condition filters on events, paths, platforms or inputs, which is no security gate; it only runs more than intended.' };
}

/**
 * The code or artifacts of the run a `workflow_run` job follows that it uses (a checkout of the run's head, a
 * download of its artifacts), from the run model's workspace: the job trusts that run. Null when it uses none,
 * or when an outsider cannot start it (a fork check, a trusted-author gate).
 */
function trustedRun(runs: RunModel, job: Job): string | null {
  const run = runs.job(job);
  if (!outsiderReach(run.reach)) return null;
  const entry = run.workspace.find((e) => e.content === 'outsider');
  if (entry === undefined) return null;
  const line = entry.step.owner.file.position(entry.offset ?? entry.step.node.start).line;
  return `job \`${job.id}\` then uses that run's ${entry.kind === 'download' ? 'artifacts' : 'code'} (line ${line}: ${entry.how})`;
}

/** `github.event.workflow_run.head_branch == 'main'`, granting (not under `!`), when a condition has one. */
function headBranchCheck(expr: Expr): string | null {
  let node = expr;
  while (node instanceof Grouping) node = node.group;
  if (node instanceof Logical) {
    for (const arg of node.args) {
      const found = headBranchCheck(arg);
      if (found !== null) return found;
    }
    return null;
  }
  if (!(node instanceof Binary) || node.operator.lexeme !== '==') return null;
  for (const [a, b] of [[node.left, node.right], [node.right, node.left]] as const) {
    if (contextPath(a)?.join('.') === 'github.event.workflow_run.head_branch' && b instanceof Literal && typeof b.token.value === 'string') return `github.event.workflow_run.head_branch == '${b.token.value}'`;
  }
  return null;
}

const BRANCH_FILTER_WHY =
  "the branch a `workflow_run` filter (or condition) compares is the head branch of the run it follows, and a fork's pull request can come from a branch of the fork with that very name, so the run still carries the fork's code";

export default defineWorkflowRule({
  meta: {
    id: 'unsound-condition',
    category: 'CICD-SEC-1',
    title: 'Condition that always evaluates to true',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'An `if:` mixes literal text with `${{ }}` (for example `${{ a }} && ${{ b }}`, quoted text with a trailing space, or a `|` block scalar with its trailing newline), so GitHub evaluates it as a non-empty string, which is always true: the job or step always runs. HIGH when the condition was a trust gate (actor, author association, fork or repository check, label), MEDIUM for branch or tag filters, LOW for event, path, platform or input filters. Also LOW: a `workflow_run` `branches:` filter or `head_branch ==` check taken for a safety check in a job that then uses the run\'s code or artifacts, although a fork\'s branch with that name matches it.',
    recommendation:
      'Write the whole condition as one expression: either bare (`if: a && b`) or one `${{ a && b }}` with nothing around it; use `|-` or `>-` if the condition must be a block scalar.',
  },
  create: (context) => ({
    workflow(workflow: Workflow) {
      // `on: workflow_run: branches: [main]` read as "only runs of main": it filters by the head branch's name.
      const trigger = workflow.triggers.find((t) => t.name === 'workflow_run');
      const branches = get(trigger?.config, 'branches');
      const names = asList(branches).map(scalarText).filter((n): n is string => n !== null);
      if (trigger === undefined || branches === undefined || names.length === 0 || !followsUntrustedRuns(workflow, context.runs.repository)) return;
      const trusting = workflow.jobs.map((job) => ({ job, uses: trustedRun(context.runs, job) })).filter((t) => t.uses !== null);
      const first = trusting[0];
      if (first === undefined) return;
      context.report({
        node: branches,
        job: trusting.length === 1 ? first.job : null,
        severity: 'LOW',
        message: `The \`workflow_run\` trigger's \`branches: [${names.slice(0, 5).join(', ')}]\` filter is no safety check: ${BRANCH_FILTER_WHY}; ${trusting.map((t) => t.uses).join('; ')}. LOW: the filter only narrows which runs start it; what the job does with the run is reported by the rules about it.`,
        recommendation:
          'Check where the run came from instead: `github.event.workflow_run.head_repository.full_name == github.repository` (or `github.event.workflow_run.event == \'push\'`) in the job\'s `if:`, and treat its artifacts as untrusted data.',
      });
    },
    job(job) {
      const text = job.if?.kind === 'scalar' ? String(job.if.value) : '';
      const check = job.if === undefined || !text.includes('head_branch') ? null : conditionOf(job.workflow, job.if);
      const compared = check === null ? null : headBranchCheck(check.expr);
      if (compared !== null && job.if !== undefined && check !== null && job.workflow.triggers.some((t) => t.name === 'workflow_run') && followsUntrustedRuns(job.workflow, context.runs.repository)) {
        const uses = trustedRun(context.runs, job);
        if (uses !== null) {
          context.report({
            node: job.if,
            offset: check.offset,
            severity: 'LOW',
            message: `The \`if:\` of job \`${job.id}\` trusts \`${compared}\` as a safety check, but ${BRANCH_FILTER_WHY}; ${uses}. LOW: the condition only narrows which runs start it.`,
            recommendation:
              'Check where the run came from instead: `github.event.workflow_run.head_repository.full_name == github.repository` (or `github.event.workflow_run.event == \'push\'`), and treat its artifacts as untrusted data.',
            key: `head-branch:${job.id}`,
          });
        }
      }
      const reason = unsoundReason(job.if);
      if (reason === null || job.if === undefined) return;
      const { severity, why } = conditionSeverity(job.if);
      context.report({ node: job.if, severity, message: `The \`if:\` of job \`${job.id}\` is always true: ${reason}, so the job runs regardless of the condition.${why}` });
    },
    step(step) {
      const reason = unsoundReason(step.if);
      if (reason === null || step.if === undefined) return;
      const { severity, why } = conditionSeverity(step.if);
      context.report({ node: step.if, severity, message: `The \`if:\` of ${stepWhere(step)} is always true: ${reason}, so the step runs regardless of the condition.${why}` });
    },
  }),
});
