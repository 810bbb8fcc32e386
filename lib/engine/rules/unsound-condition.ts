import { describeStep } from '../analysis/describe.js';
import { conditionOf } from '../analysis/expression-sites.js';
import { reachFacts } from '../analysis/run-model/facts.js';
import { minorWrites } from '../analysis/run-model/holdings.js';
import { outsiderReach, type Reach, type RunModel, type TracedExecution } from '../analysis/run-model/index.js';
import { stepWhere } from '../analysis/step-label.js';
import { checksSource } from '../analysis/trust-guards.js';
import { followsUntrustedRuns } from '../analysis/workflow-run.js';
import { findExpressions } from '../expressions/extract.js';
import { Binary, contextPath, FunctionCall, functionName, Grouping, Literal, Logical, type Expr } from '../expressions/parse.js';
import { isPrivileged, type Job, type Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import type { Severity } from '../types.js';
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
 * A bypassed trust gate (`conditionSeverity` HIGH) by what getting past it gives (docs/severity.md, (c)): on a
 * workflow no privileged trigger starts (`pull_request`, `push`), a fork's run has a read-only token and no
 * secrets, so it gives an outsider nothing but the machine of a self-hosted runner (LOW otherwise); on a
 * privileged one, what the job holds (HIGH), a token that writes only comments, labels or checks (MEDIUM), or
 * nothing (LOW).
 */
function gateBypass(runs: RunModel, job: Job, judged: { severity: Severity; why: string }): { severity: Severity; why: string } {
  if (judged.severity !== 'HIGH') return judged;
  const run = runs.job(job);
  if (!isPrivileged(job.workflow)) {
    if (run.forkValuables.length > 0) return { severity: 'HIGH', why: `${judged.why} A fork's run reaches ${run.forkValuables.join(', ')}.` };
    return { severity: 'LOW', why: `${judged.why} LOW: no privileged trigger starts the workflow, so a fork's run has a read-only token and no secrets, and getting past the check gives an outsider nothing.` };
  }
  if (run.valuables.length > 0) return { severity: 'HIGH', why: `${judged.why} The job holds ${run.valuables.join(', ')}.` };
  const writes = minorWrites(run.holdings).length > 0;
  return { severity: writes ? 'MEDIUM' : 'LOW', why: `${judged.why} ${writes ? 'MEDIUM' : 'LOW'}: ${run.nothingHeld}.` };
}

const HEAD_BRANCH = 'github.event.workflow_run.head_branch';

/** A literal from the scanned file, bounded and made safe inside a code span of a description. */
function shown(text: string): string {
  return text.replace(/[`\r\n]/g, ' ').slice(0, 60);
}

/** A string literal's text, or `github.event.repository.default_branch` as written; null for anything else. */
function branchName(expr: Expr): string | null {
  if (expr instanceof Literal && typeof expr.token.value === 'string') return `'${shown(expr.token.value)}'`;
  const path = contextPath(expr)?.join('.');
  return path === 'github.event.repository.default_branch' ? path : null;
}

/** The branch names of `'a'`, `fromJSON('["a","b"]')`, as written (bounded); null for anything else. */
function branchList(expr: Expr): string | null {
  if (expr instanceof Literal && typeof expr.token.value === 'string') return `'${shown(expr.token.value)}'`;
  if (expr instanceof FunctionCall && functionName(expr) === 'fromjson' && expr.args.length === 1) {
    const arg = expr.args[0];
    if (arg instanceof Literal && typeof arg.token.value === 'string') return `fromJSON('${shown(arg.token.value)}')`;
  }
  return null;
}

/**
 * A check of the followed run's head branch by name that grants (not under `!`): `head_branch == 'main'`,
 * `startsWith(head_branch, 'releases/')`, `contains(fromJSON('["main","next"]'), head_branch)`, as text; null
 * when the condition has none.
 */
export function headBranchCheck(expr: Expr): string | null {
  let node = expr;
  while (node instanceof Grouping) node = node.group;
  if (node instanceof Logical) {
    // `workflow_run.event == 'push' && head_branch == 'main'`: the branch is the base repository's (a push run follows
    // only pushes to it), or the conjunction checks where the run came from itself.
    if (node.operator.lexeme === '&&' && node.args.some(checksSource)) return null;
    for (const arg of node.args) {
      const found = headBranchCheck(arg);
      if (found !== null) return found;
    }
    return null;
  }
  if (node instanceof Binary && node.operator.lexeme === '==') {
    for (const [a, b] of [[node.left, node.right], [node.right, node.left]] as const) {
      const name = contextPath(a)?.join('.') === HEAD_BRANCH ? branchName(b) : null;
      if (name !== null) return `${HEAD_BRANCH} == ${name}`;
    }
    return null;
  }
  if (node instanceof FunctionCall && node.args.length === 2) {
    const fn = functionName(node);
    const [first, second] = node.args as [Expr, Expr];
    if ((fn === 'startswith' || fn === 'endswith' || fn === 'contains') && contextPath(first)?.join('.') === HEAD_BRANCH) {
      const name = branchName(second);
      if (name !== null) return `${fn === 'startswith' ? 'startsWith' : fn === 'endswith' ? 'endsWith' : 'contains'}(${HEAD_BRANCH}, ${name})`;
    }
    if (fn === 'contains' && contextPath(second)?.join('.') === HEAD_BRANCH) {
      const list = branchList(first);
      if (list !== null) return `contains(${list}, ${HEAD_BRANCH})`;
    }
  }
  return null;
}

/**
 * What a job whose `if:` trusts the followed run's branch name does on a fork's run, from the run model: the
 * run's code or artifacts (its workspace), and whether a step runs them (MEDIUM) or not (LOW); otherwise only the
 * base repository's code, with what the job holds (LOW: an extra run of it).
 */
function onForkRun(runs: RunModel, job: Job): { severity: Severity; text: string } {
  const run = runs.job(job);
  const entries = run.workspace.filter((e) => e.content === 'outsider' && e.checkout?.hiddenBy !== 'trusted-author');
  const executed = entries.find((e) => runs.sinksOf(run, e).length > 0);
  const entry = executed ?? entries[0];
  if (entry !== undefined) {
    const line = entry.step.owner.file.position(entry.offset ?? entry.step.node.start).line;
    const uses = `job \`${job.id}\` then uses that run's ${entry.kind === 'download' ? 'artifacts' : 'code'} (line ${line}: ${entry.how})`;
    if (executed === undefined) return { severity: 'LOW', text: `${uses}, though no step runs code from them. LOW: the condition only narrows which runs start it` };
    const sink = runs.sinksOf(run, executed)[0] as TracedExecution;
    const at = job.workflow.file.position(sink.step.node.start).line;
    return {
      severity: 'MEDIUM',
      text: `${uses}, and ${describeStep(sink.step)} (line ${at}) runs ${sink.execution.evidence} from them. MEDIUM: the check meant to keep such runs out lets a fork's run through to code it chose; the rules about that code say what it reaches`,
    };
  }
  const holds = run.valuables.length > 0 ? `with ${run.valuables.join(', ')}` : `and ${run.nothingHeld.replace(/^the job /, 'it ')}`;
  return {
    severity: 'LOW',
    text: `job \`${job.id}\` then runs only the base repository's own code ${holds}. LOW: a fork's branch of that name only starts an extra run of it (a build, test or canary publish of the base repository's code the fork did not choose)`,
  };
}

const BRANCH_CHECK_WHY =
  "the branch a `workflow_run` condition compares is the head branch of the run it follows, which for a fork's pull request is the fork's branch name, and a fork names its branches as it likes, `main` included";

const BRANCH_CHECK_FIX =
  "Check where the run came from as well: `github.event.workflow_run.event == 'push'` (a run only collaborators start) or `github.event.workflow_run.head_repository.full_name == github.repository`, and treat the run's artifacts as untrusted data.";

/**
 * A head-branch check in the `if:` of a job (or step) of a `workflow_run` workflow that an outsider's fork run
 * still gets through (run model: the job's reach on `workflow_run`, where a fork check or `workflow_run.event
 * == 'push'` rules the fork's runs out); null otherwise.
 */
function headBranchTrust(runs: RunModel, job: Job, step: Step | null, node: YNode | undefined): { compared: string; offset: number; reach: Reach } | null {
  if (node?.kind !== 'scalar' || !String(node.value).includes('head_branch')) return null;
  if (!followsUntrustedRuns(job.workflow)) return null;
  const check = conditionOf(job.workflow, node);
  const compared = check === null ? null : headBranchCheck(check.expr);
  if (check === null || compared === null) return null;
  const reach = runs.reachOn(job, step, 'workflow_run');
  if (!outsiderReach(reach)) return null;
  return { compared, offset: check.offset, reach };
}

export default defineWorkflowRule({
  meta: {
    id: 'unsound-condition',
    category: 'CICD-SEC-1',
    title: 'Condition that always evaluates to true',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'An `if:` mixes literal text with `${{ }}` (for example `${{ a }} && ${{ b }}`, quoted text with a trailing space, or a `|` block scalar with its trailing newline), so GitHub evaluates it as a non-empty string, which is always true: the job or step always runs. HIGH when the condition was a trust gate (actor, author association, fork or repository check, label), MEDIUM for branch or tag filters, LOW for event, path, platform or input filters. Also: a `workflow_run` job or step `if:` that checks the followed run\'s head branch by name (`head_branch == \'main\'`, `startsWith(head_branch, \'releases/\')`) with no check of where the run came from, which a fork\'s branch of that name passes: LOW when the job then runs only the base repository\'s code (an extra run), MEDIUM when a step runs the run\'s code or artifacts.',
    recommendation:
      'Write the whole condition as one expression: either bare (`if: a && b`) or one `${{ a && b }}` with nothing around it; use `|-` or `>-` if the condition must be a block scalar.',
  },
  create: (context) => ({
    job(job) {
      const branchCheck = headBranchTrust(context.runs, job, null, job.if);
      if (branchCheck !== null && job.if !== undefined) {
        const effect = onForkRun(context.runs, job);
        context.report({
          node: job.if,
          offset: branchCheck.offset,
          severity: effect.severity,
          message: `The \`if:\` of job \`${job.id}\` trusts \`${branchCheck.compared}\` to mean a run of the base repository's branch, but ${BRANCH_CHECK_WHY}, and nothing in the condition checks where the run came from; ${effect.text}.`,
          recommendation: BRANCH_CHECK_FIX,
          facts: [...reachFacts(branchCheck.reach)],
          key: `head-branch:${job.id}`,
        });
      }
      const reason = unsoundReason(job.if);
      if (reason === null || job.if === undefined) return;
      const { severity, why } = gateBypass(context.runs, job, conditionSeverity(job.if));
      context.report({ node: job.if, severity, message: `The \`if:\` of job \`${job.id}\` is always true: ${reason}, so the job runs regardless of the condition.${why}` });
    },
    step(step) {
      const branchCheck = step.job === null ? null : headBranchTrust(context.runs, step.job, step, step.if);
      if (branchCheck !== null && step.if !== undefined && step.job !== null) {
        const run = context.runs.job(step.job);
        // The step itself brings or runs the run's code: what the job's finding would say, for this step.
        const entry = run.workspace.find((e) => e.step === step && e.content === 'outsider' && context.runs.sinksOf(run, e).length > 0);
        const sink = run.executions.find((t) => t.step === step && t.code !== null && t.code.content === 'outsider');
        const severity: Severity = entry !== undefined || sink !== undefined ? 'MEDIUM' : 'LOW';
        const text =
          severity === 'MEDIUM'
            ? `the step ${entry !== undefined ? `brings that run's ${entry.kind === 'download' ? 'artifacts' : 'code'} (${entry.how}), which a later step runs` : `runs ${sink?.execution.evidence ?? 'code'} from that run's code or artifacts`}. MEDIUM: the check meant to keep such runs out lets a fork's run through to code it chose`
            : 'LOW: the condition only narrows which runs start the step';
        context.report({
          node: step.if,
          offset: branchCheck.offset,
          severity,
          message: `The \`if:\` of ${stepWhere(step)} trusts \`${branchCheck.compared}\` to mean a run of the base repository's branch, but ${BRANCH_CHECK_WHY}, and nothing in the condition checks where the run came from; ${text}.`,
          recommendation: BRANCH_CHECK_FIX,
          facts: [...reachFacts(branchCheck.reach)],
          key: `head-branch:${step.job.id}:${step.index}`,
        });
      }
      const reason = unsoundReason(step.if);
      if (reason === null || step.if === undefined) return;
      const { severity, why } = step.job === null ? conditionSeverity(step.if) : gateBypass(context.runs, step.job, conditionSeverity(step.if));
      context.report({ node: step.if, severity, message: `The \`if:\` of ${stepWhere(step)} is always true: ${reason}, so the step runs regardless of the condition.${why}` });
    },
  }),
});
