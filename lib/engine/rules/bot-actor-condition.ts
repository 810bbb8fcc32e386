import { conditionOf } from '../analysis/expression-sites.js';
import type { JobRun, RunModel } from '../analysis/run-model/index.js';
import { occasionsOfSet } from '../analysis/run-model/conditions.js';
import { minorWrites } from '../analysis/run-model/holdings.js';
import { stepWhere } from '../analysis/step-label.js';
import { Binary, contextPath, FunctionCall, functionName, Grouping, Literal, Logical, Unary, type Expr } from '../expressions/parse.js';
import { hasPullRequestTrigger, isPrivileged, type Job, type Step, type Workflow } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { get, getText, type YNode } from '../yaml/model.js';

/** Contexts naming whoever caused the event: a bot can be made to cause an event on an attacker's behalf. */
const ACTOR_NAMES = new Set(['github.actor', 'github.triggering_actor', 'github.event.sender.login']);
const ACTOR_IDS = new Set(['github.actor_id', 'github.event.sender.id']);
/**
 * Ids of bots some workflows compare instead of the login: the user ids of dependabot[bot], dependabot-preview[bot]
 * and renovate[bot], and Dependabot's integration id, which authors confuse with its user id (zizmor's
 * bot-conditions audit lists the same ids).
 */
const BOT_IDS = new Set(['49699333', '27856297', '29139614', '29110']);
const COMPARISONS = new Set(['contains', 'startswith', 'endswith']);
/** In the text of any condition that reads one of those contexts (or the pull request's author, `user.login`). */
const ACTOR_WORD = /actor|sender|user\.login/i;

function actorKind(expr: Expr): 'name' | 'id' | null {
  const path = contextPath(expr)?.join('.');
  if (path === undefined) return null;
  if (ACTOR_NAMES.has(path)) return 'name';
  return ACTOR_IDS.has(path) ? 'id' : null;
}

/** The bot login (or id) a literal names: `'dependabot[bot]'`, or a `fromJSON('["renovate[bot]"]')` list. */
function botLiteral(expr: Expr, kind: 'name' | 'id'): string | null {
  if (expr instanceof FunctionCall && functionName(expr) === 'fromjson' && expr.args.length === 1) {
    const arg = expr.args[0];
    return arg === undefined ? null : botLiteral(arg, kind);
  }
  if (!(expr instanceof Literal)) return null;
  const value = expr.token.value;
  if (value === undefined || typeof value === 'boolean') return null;
  const text = String(value);
  if (kind === 'id') return BOT_IDS.has(text.trim()) ? text.trim() : null;
  const login = /[\w.-]*\[bot\]/i.exec(text);
  return login === null ? null : login[0];
}

const SAME_REPOSITORY_PATHS = new Set(['github.event.pull_request.head.repo.full_name', 'github.event.workflow_run.head_repository.full_name']);
const FORK_FLAGS = new Set(['github.event.pull_request.head.repo.fork', 'github.event.workflow_run.head_repository.fork']);

function pathOf(expr: Expr): string | undefined {
  return contextPath(unwrap(expr))?.join('.');
}

function unwrap(expr: Expr): Expr {
  let current = expr;
  while (current instanceof Grouping) current = current.group;
  return current;
}

/**
 * A check an attacker cannot satisfy from a fork, which makes an actor check beside it (under the same
 * `&&`) safe: the pull request's author is the bot, or its head is the base repository itself.
 */
function isUnspoofableGuard(expr: Expr): boolean {
  const node = unwrap(expr);
  if (node instanceof Unary && node.operator.lexeme === '!') return FORK_FLAGS.has(pathOf(node.expr) ?? '');
  if (!(node instanceof Binary) || node.operator.lexeme !== '==') return false;
  for (const [a, b] of [[node.left, node.right], [node.right, node.left]] as const) {
    const path = pathOf(a);
    if (path === 'github.event.pull_request.user.login' && botLiteral(b, 'name') !== null) return true;
    if (path !== undefined && SAME_REPOSITORY_PATHS.has(path) && (pathOf(b) === 'github.repository' || unwrap(b) instanceof Literal)) return true;
    if (path !== undefined && FORK_FLAGS.has(path) && unwrap(b) instanceof Literal && (unwrap(b) as Literal).token.lexeme === 'false') return true;
  }
  return false;
}

/**
 * A condition anyone with a fork satisfies (the run is for a fork's code): an actor check OR-ed with it
 * grants the attacker nothing the fork clause did not already grant.
 */
function admitsForks(expr: Expr): boolean {
  const node = unwrap(expr);
  if (FORK_FLAGS.has(pathOf(node) ?? '')) return true;
  if (!(node instanceof Binary)) return false;
  const op = node.operator.lexeme;
  for (const [a, b] of [[node.left, node.right], [node.right, node.left]] as const) {
    const path = pathOf(a);
    if (path === undefined) continue;
    if (op === '!=' && SAME_REPOSITORY_PATHS.has(path) && pathOf(b) === 'github.repository') return true;
    if (op === '==' && FORK_FLAGS.has(path) && unwrap(b) instanceof Literal && (unwrap(b) as Literal).token.lexeme === 'true') return true;
  }
  return false;
}

/**
 * A comparison that admits a bot actor (a granting `==`, `contains`, `startsWith`...) as `context op 'login'`, or
 * one that admits every login holding a text (`contains(github.actor, 'dependabot')`: `how` says where); else null.
 */
interface Granted {
  text: string;
  /** The login only has to contain, start or end with the text: anyone can sign up for one. */
  how?: 'contains' | 'starts with' | 'ends with';
}

const HOW = { contains: 'contains', startswith: 'starts with', endswith: 'ends with' } as const;

function grantingComparison(node: Expr, negated: boolean): Granted | null {
  if (node instanceof Binary) {
    const op = node.operator.lexeme;
    // `github.actor != 'dependabot[bot]'` only skips work for the bot: spoofing it denies, it does not grant.
    if ((op !== '==' && op !== '!=') || (op === '==') === negated) return null;
    for (const [actor, other] of [[node.left, node.right], [node.right, node.left]] as const) {
      const kind = actorKind(unwrap(actor));
      const bot = kind === null ? null : botLiteral(unwrap(other), kind);
      if (bot !== null) return { text: `${pathOf(actor)} ${op} '${bot}'` };
    }
    return null;
  }
  if (node instanceof FunctionCall && COMPARISONS.has(functionName(node)) && !negated) {
    // The pull request's author holding a text is no better than the actor holding it: anyone can sign up for it.
    const haystack = node.args[0] === undefined ? undefined : pathOf(node.args[0]);
    if (haystack === 'github.event.pull_request.user.login') {
      const part = loginPart(node.args[1]);
      return part === null ? null : { text: `${node.functionName.lexeme}(${haystack}, '${part}')`, how: HOW[functionName(node) as keyof typeof HOW] };
    }
    const actor = node.args.find((a) => actorKind(unwrap(a)) !== null);
    const kind = actor === undefined ? null : actorKind(unwrap(actor));
    if (actor === undefined || kind === null) return null;
    const bot = node.args.map((a) => (a === actor ? null : botLiteral(unwrap(a), kind))).find((b) => b !== null);
    if (bot !== undefined && bot !== null) return { text: `${node.functionName.lexeme}(…${pathOf(actor)}…'${bot}'…)` };
    const part = kind === 'name' && node.args[0] === actor ? loginPart(node.args[1]) : null;
    return part === null ? null : { text: `${node.functionName.lexeme}(${pathOf(actor)}, '${part}')`, how: HOW[functionName(node) as keyof typeof HOW] };
  }
  return null;
}

/**
 * The text of a literal that can be part of a login (letters, digits and hyphens, at most 39 characters), or null:
 * `contains(github.actor, 'dependabot')`, `startsWith(github.actor, 'renovate')` and `endsWith(github.actor, 'bot')`
 * admit every account whose login holds that text, and anyone can sign up for one
 * (https://docs.github.com/en/account-and-profile/reference/username-reference: alphanumeric characters or single
 * hyphens), no bot needed.
 */
function loginPart(expr: Expr | undefined): string | null {
  const literal = expr === undefined ? null : unwrap(expr);
  if (!(literal instanceof Literal) || typeof literal.token.value !== 'string') return null;
  const text = literal.token.value;
  return /^[A-Za-z0-9-]{1,39}$/.test(text) ? text : null;
}

/** The first bot-actor comparison that grants entry and is not paired (`&&`) with an unspoofable guard. */
function botComparison(expr: Expr, negated = false, guarded = false): Granted | null {
  const node = unwrap(expr);
  if (node instanceof Unary && node.operator.lexeme === '!') return botComparison(node.expr, !negated, guarded);
  if (node instanceof Logical) {
    // Under negation `&&` behaves as `||` (De Morgan), so its operands no longer guard each other.
    const conjunction = (node.operator.lexeme === '&&') !== negated;
    const guardHere = conjunction && !negated && node.args.some(isUnspoofableGuard);
    // `fork clause || actor == bot`: forks get in through the first operand, so the second gates nothing.
    const forksAdmitted = !conjunction && !negated && node.args.some(admitsForks);
    for (const arg of node.args) {
      const found = botComparison(arg, negated, guarded || guardHere || forksAdmitted);
      if (found !== null) return found;
    }
    return null;
  }
  const granted = grantingComparison(node, negated);
  if (granted !== null) return guarded ? null : granted;
  if (node instanceof FunctionCall || node instanceof Binary) {
    // Comparisons nested in other calls or comparisons: their polarity is unknown, so only `==` counts.
    for (const child of node instanceof FunctionCall ? node.args : [node.left, node.right]) {
      const found = botComparison(child, false, guarded);
      if (found !== null) return found;
    }
  }
  return null;
}

/** A step that merges the pull request: `gh pr merge`, the merge API, an auto-merge action. */
const MERGES = /\bgh\s+pr\s+merge\b|\bpulls\.merge\b|enablePullRequestAutoMerge|\/pulls\/[^\s/]+\/merge\b/;
/**
 * An action whose name says it merges pull requests (`pascalgn/automerge-action`, `ridedott/merge-me-action`), not one
 * that only reads or labels merge conflicts or merges files (`eps1lon/actions-label-merge-conflict`, a coverage or
 * JSON merger, `upsidr/merge-gatekeeper`, a status check).
 */
const MERGE_ACTION = /merge/i;
const NOT_A_MERGE = /conflict|json|yaml|coverage|lcov|report|sarif|gatekeeper|freeze|artifact/i;

/**
 * What the steps an actor check lets through do for whoever passes it, in words, or null when they only act on the
 * pull request (approve, label, comment): `line 12 runs the pull request's code` (the run model's executions of a
 * pull request checkout or another run's artifact), or `step X merges the pull request`.
 */
function gatedPayoff(run: JobRun, gated: readonly Step[]): string | null {
  const set = new Set(gated);
  const runsCode = run.executions.find((t) => set.has(t.step) && t.code !== null && (t.code.checkout !== undefined || t.code.download !== undefined));
  if (runsCode !== undefined) return `${stepWhere(runsCode.step)} then runs the pull request's code (${runsCode.code?.how ?? 'its checkout'})`;
  for (const step of gated) {
    const ref = step.usesRef;
    const text = `${typeof step.run?.value === 'string' ? step.run.value : ''}\n${getText(step.with, 'script') ?? ''}`;
    if (MERGES.test(text) || (ref?.kind === 'repository' && MERGE_ACTION.test(ref.slug) && !NOT_A_MERGE.test(ref.slug))) return `${stepWhere(step)} then merges the pull request`;
  }
  return null;
}

/** Steps that may run before a verifying step without acting on the pull request: GitHub's actions, a token minted for later steps. */
function inert(step: Step): boolean {
  const ref = step.usesRef;
  return step.run === undefined && ref?.kind === 'repository' && (ref.slug.startsWith('actions/') && ref.slug !== 'actions/github-script' ? ref.slug !== 'actions/checkout' : ref.slug === 'actions/create-github-app-token');
}

/**
 * The step of `job` that runs `dependabot/fetch-metadata` with its verification on (no `skip-verification` or
 * `skip-commit-verification: true`, no `continue-on-error`, no `if:`), before `before` (a step index; every step
 * when null), with only inert steps ahead of it; null when there is none. The action fails the job unless the pull
 * request was opened by `dependabot[bot]` and holds only Dependabot's verified commits
 * (https://github.com/dependabot/fetch-metadata/blob/main/src/main.ts: `PR is not from Dependabot, nothing to
 * do.`), so whatever runs after it runs only for Dependabot's own pull requests.
 */
function dependabotVerifier(job: Job, before: number | null, workflow: Workflow): Step | null {
  for (const step of job.steps) {
    if (before !== null && step.index > before) return null;
    const ref = step.usesRef;
    if (ref?.kind === 'repository' && ref.slug === 'dependabot/fetch-metadata') {
      const off = (name: string) => getText(step.with, name)?.trim().toLowerCase() === 'true';
      if (off('skip-verification') || off('skip-commit-verification') || !onDependabotRuns(step, workflow) || get(step.node, 'continue-on-error') !== undefined) return null;
      return step;
    }
    // The checked step itself (`before`), when it is not the verifier, runs before any verifier could.
    if (before !== null && step.index === before) return null;
    if (!inert(step)) return null;
  }
  return null;
}

/**
 * True when a step runs whenever the actor is Dependabot: no `if:`, or an `if:` that is only that check
 * (`github.actor == 'dependabot[bot]'`), which the spoofed actor passes as well: the verifier then runs and fails the
 * job for any pull request Dependabot did not open.
 */
function onDependabotRuns(step: Step, workflow: Workflow): boolean {
  if (step.if === undefined) return true;
  const condition = conditionOf(workflow, step.if);
  if (condition === null) return false;
  const node = unwrap(condition.expr);
  return !(node instanceof Logical) && /dependabot/i.test(botComparison(node)?.text ?? '');
}

/**
 * The pull request activities a job (or step) runs on when they are all ones Dependabot causes only on its own pull
 * requests (`opened`, `reopened`, `closed`, `labeled` ...): the way to make it the actor of an outsider's pull
 * request is to have it push to the fork's branch, `synchronize` (or any activity, when `types:` is not listed).
 * Null when some occasion is not such an activity (another event, `synchronize`, no `types:`).
 */
function ownPullRequestActivities(runs: RunModel, job: Job, step: Step | null): string[] | null {
  const set = step === null ? runs.jobRunSet(job) : runs.runSet(step);
  if (set === undefined) return null;
  const occasions = occasionsOfSet(set);
  if (occasions.length === 0) return null;
  const actions = new Set<string>();
  for (const occasion of occasions) {
    if (occasion.event !== 'pull_request_target' && occasion.event !== 'pull_request') return null;
    if (occasion.action === null || occasion.action === 'synchronize') return null;
    actions.add(occasion.action);
  }
  return [...actions];
}

export default defineWorkflowRule({
  meta: {
    id: 'bot-actor-condition',
    category: 'CICD-SEC-1',
    title: 'Authorization based on a spoofable bot actor',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'An `if:` in a privileged or `pull_request*`-triggered workflow compares `github.actor` / `github.triggering_actor` with a bot login such as `dependabot[bot]`. The actor is whoever caused the latest event, not who wrote the code: an attacker can get a bot to trigger the event for a pull request carrying their code (for example by letting Dependabot update a branch of their fork), and the check lets that code through.',
    recommendation:
      'Check who authored the change instead: `github.event.pull_request.user.login == \'dependabot[bot]\'` (and the head repository), or use the bot\'s own metadata action (`dependabot/fetch-metadata`) before granting anything.',
  },
  create: (context) => {
    const check = (workflow: Workflow, job: Job, node: YNode | undefined, where: () => string, step: Step | null = null) => {
      // Every actor context has `actor` or `sender` in its path, the author's `user.login`, which conditions write out (in any case).
      if (node?.kind !== 'scalar' || typeof node.value !== 'string' || !ACTOR_WORD.test(node.value)) return;
      const condition = conditionOf(workflow, node);
      if (condition === null || node === undefined) return;
      const granted = botComparison(condition.expr);
      if (granted === null) return;
      const comparison = granted.text;
      // A step's check under a job only maintainers' pull requests reach (the job's `if:` checks the author, or a
      // same-repository head): spoofing the actor there gets an outsider nothing, as the same guard beside it would.
      const jobLevel = step === null ? null : context.runs.job(job).reach.level;
      if (jobLevel === 'collaborator' || jobLevel === 'trusted-author') return;
      // Under plain `pull_request` a fork's run gets a read-only token and no secrets: passing the check
      // grants the attacker nothing they did not have. Privileged triggers keep the default severity.
      const privileged = isPrivileged(workflow);
      // What passing the check hands over is what the job holds (docs/severity.md, (c)): nothing worth taking
      // makes it MEDIUM when the token can still write something (comments, labels, reviews), LOW otherwise.
      const run = context.runs.job(job);
      // (A chat webhook the job holds is not that: it posts to one channel, outside the repository.)
      const writesSomething = minorWrites(run.holdings).length > 0;
      const verifier = /dependabot/i.test(comparison) ? dependabotVerifier(job, step === null ? null : step.index, workflow) : null;
      // Only activities Dependabot causes on its own pull requests start it (no `synchronize`): passing the check
      // means the pull request is Dependabot's own.
      const ownOnly = verifier === null && granted.how === undefined && /dependabot/i.test(comparison) ? ownPullRequestActivities(context.runs, job, step) : null;
      // The holdings are the attacker's only through what the gated steps do for them: run their pull request's
      // code (a checkout or artifact of it that a gated step executes), or merge it. Otherwise they get the job's
      // act on their pull request (an approval, a label, a comment) with those holdings: MEDIUM.
      const gated = step === null ? job.steps : [step];
      const acting = run.valuables.length > 0 ? gatedPayoff(run, gated) : null;
      const severity = !privileged || verifier !== null || ownOnly !== null ? 'LOW' : run.valuables.length > 0 ? (acting === null ? 'MEDIUM' : undefined) : writesSomething ? 'MEDIUM' : 'LOW';
      const holds = ownOnly !== null
        ? `; but it runs only on ${ownOnly.map((a) => `\`${a}\``).join(', ')}, where the actor is whoever opened or acted on the pull request: Dependabot does that only to its own pull requests, and a push to an outsider's branch (\`synchronize\`), the way to make it the actor of someone else's pull request, does not start it (LOW).`
        : verifier !== null
        ? `; but ${stepWhere(verifier)} runs \`dependabot/fetch-metadata\`, which fails the job unless the pull request was opened by Dependabot and holds only its verified commits, so what follows runs only for Dependabot's own pull requests (LOW: the check alone would not hold).`
        : !privileged
        ? '; under `pull_request` a fork\'s run has no secrets and a read-only token, so this is hygiene.'
        : run.valuables.length > 0
          ? acting !== null
            ? `; ${acting}, while the job holds ${run.valuables.join(', ')}.`
            : `; the job holds ${run.valuables.join(', ')}, but what the check lets through runs none of the pull request's code and merges nothing: the attacker gets the job's act on their pull request (an approval, a label, a comment), not what it holds (MEDIUM).`
          : `; ${run.nothingHeld}, so passing the check gains little (${severity ?? 'HIGH'}).`;
      context.report({
        node,
        offset: condition.offset,
        ...(severity !== undefined ? { severity } : {}),
        job,
        message: granted.how !== undefined
          ? `The \`if:\` of ${where()} trusts \`${comparison}\`: every account whose login ${granted.how} that text passes, and anyone can sign up for such a login (GitHub's logins are letters, digits and hyphens), so an outsider gets through without a bot${holds}`
          : `The \`if:\` of ${where()} trusts \`${comparison}\`: the actor is whoever triggered the latest event, which an attacker can arrange to be the bot for a pull request carrying their code${holds}`,
      });
    };
    let relevant = false;
    return {
      workflow(workflow) {
        relevant = isPrivileged(workflow) || hasPullRequestTrigger(workflow);
      },
      job(job) {
        if (relevant) check(job.workflow, job, job.if, () => `job \`${job.id}\``);
      },
      step(step) {
        if (relevant && step.owner.kind === 'workflow' && step.job !== null) check(step.owner, step.job, step.if, () => stepWhere(step), step);
      },
    };
  },
});
