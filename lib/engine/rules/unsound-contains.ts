import { describeClaim, jobClaim, whoText } from '../analysis/run-model/index.js';
import { expressionSites, type ExpressionSite } from '../analysis/expression-sites.js';
import { CONTROLLER_TEXT, valueChoice, type ValueChoice } from '../expressions/controller.js';
import { contextPath, FunctionCall, functionName, Grouping, Literal, Logical, Unary, walkExpression, type Expr } from '../expressions/parse.js';
import { stepScope, type TaintScope } from '../expressions/taint.js';
import type { Action, Job, Step, Workflow } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import type { Severity } from '../types.js';
import { getMap, keyText, type YNode } from '../yaml/model.js';

/**
 * `contains('<string literal>', <non-literal>)`: the literal is searched for the value as a substring. `negated`: the
 * call is under an odd number of `!` (`!contains('a,b', github.actor)`), so the list keeps values out instead of
 * letting them in.
 */
function substringAllowLists(expr: Expr): { list: string; value: Expr; negated: boolean }[] {
  const found: { list: string; value: Expr; negated: boolean }[] = [];
  const negatedCalls = new Set<Expr>();
  const mark = (node: Expr, negated: boolean): void => {
    if (node instanceof Unary) mark(node.expr, node.operator.lexeme === '!' ? !negated : negated);
    else if (node instanceof Grouping) mark(node.group, negated);
    else if (node instanceof Logical) for (const arg of node.args) mark(arg, negated);
    else if (node instanceof FunctionCall && negated) negatedCalls.add(node);
  };
  mark(expr, false);
  walkExpression(expr, (node) => {
    if (!(node instanceof FunctionCall) || functionName(node) !== 'contains') return;
    const [haystack, needle] = node.args;
    if (!(haystack instanceof Literal) || typeof haystack.token.value !== 'string') return;
    if (needle === undefined || needle instanceof Literal) return;
    if (delimitedLogin(needle)) return;
    found.push({ list: haystack.token.value, value: needle, negated: negatedCalls.has(node) });
  });
  return found;
}

/** A login's context: `github.actor`, `github.triggering_actor`, any `....login` (`github.event.comment.user.login`). */
const LOGIN_PATH = /^(?:github\.(?:actor|triggering_actor)|.*\.login)$/;

/**
 * `format('|{0}|', github.event.comment.user.login)`: the login wrapped in the same delimiter on both sides, one no
 * login can contain (logins are letters, digits and `-`; an app's is `name[bot]`). Found in the literal, the wrapped
 * login is exactly one of its delimited entries (`'|alice|bob|'`), never a piece of one: the check is exact.
 */
function delimitedLogin(needle: Expr): boolean {
  if (!(needle instanceof FunctionCall) || functionName(needle) !== 'format' || needle.args.length !== 2) return false;
  const [pattern, value] = needle.args;
  if (!(pattern instanceof Literal) || typeof pattern.token.value !== 'string' || value === undefined) return false;
  const parts = /^(.+)\{0\}(.+)$/s.exec(pattern.token.value);
  if (parts === null || parts[1] !== parts[2] || /[A-Za-z0-9\-[\]{}]/.test(parts[1]!)) return false;
  const path = contextPath(value);
  return path !== null && LOGIN_PATH.test(path.join('.'));
}

/**
 * For a negated check (`!contains(...)`), an outsider's value that is a piece of the list is kept out, not let in:
 * what they gain is keeping the guarded job or step from running for them, which matters only where it enforces
 * something (a skipped job counts as passed for a required status check). LOW, saying so.
 */
function keptOut(judged: Omit<Judged, 'list' | 'value'>, value: string): Omit<Judged, 'list' | 'value'> {
  if (judged.severity === 'LOW') return judged;
  return {
    rank: 2,
    severity: 'LOW',
    why: `the check is negated: a value of \`${value}\` that is a piece of the list but not one of its entries is kept out, not let in, so an outsider who picks one only keeps what it guards from running for them, which matters only where that enforces something (a skipped job counts as passed for a required status check) (LOW)`,
  };
}

/** Function names are case-insensitive and have no escapes: an expression calls `contains` only if its text says so. */
const CONTAINS = /contains/i;

/** The entries the literal seems to list (a JSON-looking array's too: `'["OWNER", "MEMBER"]'`). */
function entries(list: string): string[] {
  return list.split(/[\s,;|[\]"']+/).filter((e) => e !== '');
}

/** The step whose definition holds the expression, if any. */
function stepAt(model: Workflow | Action, job: Job | null, offset: number): Step | null {
  const steps = job !== null ? job.steps : model.kind === 'action' ? model.steps : [];
  return steps.find((s) => s.node.start <= offset && offset < s.node.end) ?? null;
}

/** True when an `env:` map around the expression (workflow, job, step) defines `name` (case-insensitive). */
function envDefines(nodes: readonly (YNode | undefined)[], name: string): boolean {
  return nodes.some((node) => (getMap(node, 'env')?.pairs ?? []).some((p) => keyText(p.key)?.toLowerCase() === name.toLowerCase()));
}

interface Judged {
  list: string;
  value: string;
  /** Rank: the hit an expression is reported for is the one an outsider passes most easily. */
  rank: number;
  severity: Severity;
  why: string;
}

function judge(context: WorkflowRuleContext, model: Workflow | Action, site: ExpressionSite, hit: { list: string; value: Expr; negated: boolean }): Judged | null {
  const path = contextPath(hit.value);
  const value = path?.join('.') ?? '…';
  const step = stepAt(model, site.job, site.offset);
  const scope: TaintScope = step !== null ? stepScope(step) : model.kind === 'workflow' ? { workflow: model, job: site.job } : { action: model };
  const triggers = context.taint.triggersOf(scope);
  const around = [model.root, site.job?.node, step?.node];
  const choice: ValueChoice | null = path === null ? null : valueChoice(path, triggers, (name) => envDefines(around, name));
  const base = { list: hit.list, value };
  const passing = (values: readonly string[]) => values.filter((v) => hit.list.toLowerCase().includes(v.toLowerCase()) && !entries(hit.list).some((e) => e.toLowerCase() === v.toLowerCase()));
  if (choice?.who === 'empty') {
    return { ...base, rank: 3, severity: 'LOW', why: `\`${value}\` is always empty (GitHub's default variables are not in the \`env\` context, only \`env:\` keys are), and an empty string is a piece of every string: the check is always true and filters nothing, whatever it guards runs on every run of the job (LOW: no outsider chooses the value; read \`github.ref_name\` or \`$GITHUB_REF_NAME\` instead)` };
  }
  if (choice?.who === 'runner') return { ...base, rank: 1, severity: 'LOW', why: `\`${value}\` is set by whoever registers or provides the runner, not by an outsider (LOW: hygiene)` };
  if (choice?.who === 'owner') return { ...base, rank: 1, severity: 'LOW', why: `\`${value}\` is this repository's in its own runs; a fork named like a piece of the list passes only in the fork's own runs, with the fork's own secrets (LOW: hygiene)` };
  if (choice?.who === 'collaborator') {
    return { ...base, rank: 2, severity: 'LOW', why: `\`${value}\` is ${value.includes('ref') ? 'a branch or tag name, which only users with write access create (a fork\'s pull request runs on `refs/pull/<n>/merge`)' : 'the login of a user with write access on the events this workflow runs on'}, so only they can pick a value that passes (LOW: hygiene)` };
  }
  if (choice?.who === 'enum') {
    const outsiders = passing(choice.outsiders ?? []);
    if (outsiders.length > 0) return { ...base, ...anyone(context, site, step, 3, `\`${value}\` can be \`${outsiders[0]}\`, which an outsider can bring and which is a piece of the list but not one of its entries`) };
    const others = passing(choice.values ?? []);
    // Every value it can take that passes is an entry: the check is exact, whatever its form.
    if (others.length === 0) return null;
    return { ...base, rank: 1, severity: 'LOW', why: `\`${value}\` takes fixed values, and the one that passes without being an entry (\`${others[0]}\`) is not an outsider's (LOW: hygiene)` };
  }
  if (choice?.who === 'anyone') {
    const first = entries(hit.list).find((e) => e.replace(/-+$/, '').length >= 2);
    const example = first === undefined ? 'a login that is a piece of it' : `a login such as \`${first.slice(0, -1).replace(/-+$/, '')}\``;
    return { ...base, ...anyone(context, site, step, 5, `\`${value}\` is a GitHub login, and anyone can register ${example}, which passes`) };
  }
  const taint = path === null ? null : context.taint.ofExpression(hit.value, scope);
  if (taint !== null && taint.controller === 'external' && (taint.events === undefined || taint.events.length > 0)) {
    return { ...base, ...anyone(context, site, step, 5, `\`${value}\` is set by ${CONTROLLER_TEXT.external}${taint.source === value ? '' : ` (from \`${taint.source}\`)`}, who can write a piece of the list`) };
  }
  if (taint !== null && (taint.controller === 'collaborator' || taint.controller === 'maintainer')) {
    return { ...base, rank: 2, severity: 'LOW', why: `\`${value}\` is set by ${CONTROLLER_TEXT[taint.controller]} (LOW: hygiene)` };
  }
  return { ...base, rank: 4, severity: 'MEDIUM', why: 'a shorter or partial value passes the check' };
}

/**
 * An outsider picks a value that passes: MEDIUM when they reach the guarded job or step on a run that holds
 * something or runs with the base repository's privileges; LOW when they only reach it on a fork's
 * `pull_request` run (read-only token, no secrets) and the machine holds nothing either.
 */
function anyone(context: WorkflowRuleContext, site: ExpressionSite, step: Step | null, rank: number, what: string): { rank: number; severity: Severity; why: string } {
  if (site.job === null) return { rank, severity: 'MEDIUM', why: `${what}, and the check lets it through` };
  const run = context.runs.job(site.job);
  const reach = step !== null ? context.runs.stepReach(step) : run.reach;
  const outsider = reach.level === 'anyone' || reach.level === 'sticky-label' || reach.level === 'unreviewed-environment';
  if (outsider) return { rank, severity: 'MEDIUM', why: `${what}; ${describeClaim(jobClaim(run, reach, false))}` };
  if (reach.forkPullRequest && run.forkValuables.length > 0) return { rank, severity: 'MEDIUM', why: `${what}; ${whoText({ ...reach, level: 'collaborator' })}, on a machine that holds ${run.forkValuables.join(', ')}` };
  if (reach.forkPullRequest) return { rank, severity: 'LOW', why: `${what}, but an outsider reaches this check only on a fork's \`pull_request\` run, whose read-only token and missing secrets leave nothing to take (LOW)` };
  return { rank, severity: 'LOW', why: `${what}, but ${whoText(reach)} (LOW)` };
}

function check(context: WorkflowRuleContext, model: Workflow | Action, site: ExpressionSite) {
  if (!CONTAINS.test(site.source)) return;
  const hits = substringAllowLists(site.expr).flatMap((hit) => {
    const judged = judge(context, model, site, hit);
    if (judged === null) return [];
    // Only an `if:` gates anything: elsewhere the value is data, whichever way it is negated.
    return [hit.negated && site.condition ? { ...judged, ...keptOut(judged, judged.value) } : judged];
  });
  if (hits.length === 0) return;
  const worst = hits.reduce((a, b) => (b.rank > a.rank ? b : a));
  const others = hits.length > 1 ? ` (and ${hits.length - 1} more \`contains\` on a string in this expression)` : '';
  context.report({
    node: site.scalar,
    offset: site.offset,
    job: site.job,
    severity: worst.severity,
    message: `\`contains('${worst.list.slice(0, 60)}', ${worst.value})\` matches any piece of the string literal, not just its entries${others}: ${worst.why}.`,
  });
}

export default defineWorkflowRule({
  meta: {
    id: 'unsound-contains',
    category: 'CICD-SEC-1',
    title: 'Substring check used as an allow-list',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      '`contains(\'<string>\', <context>)` with a string literal as the first argument tests whether the value is a substring of that string, so a shorter or crafted value passes: `contains(\'alice bob\', github.actor)` accepts the login `ali`. MEDIUM when an outsider chooses the value (a login, a fork\'s branch name, text they write, an author association or event name that is a piece of the list) and reaches the check on a run with the base repository\'s privileges, or when who chooses it is not known; LOW when only collaborators choose it (`github.ref`, `github.ref_name`: branch and tag names only they create), the runner\'s administrators (`runner.name`), the repository itself, when the value is always empty (`env.GITHUB_REF_NAME`: default variables are not in the `env` context, so the check is always true), or when an outsider reaches it only on a fork\'s read-only `pull_request` run.',
    recommendation:
      'Compare exactly (`github.ref == \'refs/heads/main\' || github.ref == \'refs/heads/dev\'`) or search a real list: `contains(fromJSON(\'["refs/heads/main", "refs/heads/dev"]\'), github.ref)`.',
  },
  create: (context) => ({
    workflow(workflow) {
      for (const site of expressionSites(workflow)) check(context, workflow, site);
    },
    action(action) {
      for (const site of expressionSites(action)) check(context, action, site);
    },
  }),
});

