import { stepWhere } from '../analysis/step-label.js';
import { findExpressions } from '../expressions/extract.js';
import { defineWorkflowRule } from '../rule.js';
import type { YNode } from '../yaml/model.js';

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

export default defineWorkflowRule({
  meta: {
    id: 'unsound-condition',
    category: 'CICD-SEC-1',
    title: 'Condition that always evaluates to true',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'An `if:` mixes literal text with `${{ }}` (for example `${{ a }} && ${{ b }}`, quoted text with a trailing space, or a `|` block scalar with its trailing newline), so GitHub evaluates it as a non-empty string, which is always true: the job or step always runs.',
    recommendation:
      'Write the whole condition as one expression: either bare (`if: a && b`) or one `${{ a && b }}` with nothing around it; use `|-` or `>-` if the condition must be a block scalar.',
  },
  create: (context) => ({
    job(job) {
      const reason = unsoundReason(job.if);
      if (reason === null || job.if === undefined) return;
      context.report({ node: job.if, message: `The \`if:\` of job \`${job.id}\` is always true: ${reason}, so the job runs regardless of the condition.` });
    },
    step(step) {
      const reason = unsoundReason(step.if);
      if (reason === null || step.if === undefined) return;
      context.report({ node: step.if, message: `The \`if:\` of ${stepWhere(step)} is always true: ${reason}, so the step runs regardless of the condition.` });
    },
  }),
});
