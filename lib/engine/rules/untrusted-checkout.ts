import { commitDateCheck } from '../analysis/approval-race.js';
import { describeStep } from '../analysis/describe.js';
import { sentWords } from '../analysis/pr-dispatch.js';
import { pinsApprovedCode, pullRequestCheckouts } from '../analysis/pr-head.js';
import { checkoutReach } from '../analysis/outsider-code.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { holdingFacts, reachFacts, runFact } from '../analysis/run-model/facts.js';
import { approvalBindsCode, describeClaim, jobClaim, severityOf, type Claim, type JobRun, type LaterUse, type Reach, type RunModel, type TracedExecution, type WorkspaceEntry } from '../analysis/run-model/index.js';
import type { Job, Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { getText } from '../yaml/model.js';
import { isCheckoutAction } from '../model/uses.js';

/** Head references fixed by the event itself: what a maintainer approved is what gets checked out. */

/** `line 31 runs \`npm ci\` in \`pr/\`` for the first sink (and how many more). */
function sinkText(job: Job, sinks: readonly TracedExecution[], entry: WorkspaceEntry): string {
  const first = sinks[0] as TracedExecution;
  const file = job.workflow.file;
  const at = first.execution.offset !== undefined && first.execution.step.run !== undefined && first.execution.step === first.step ? first.step.run!.start : first.step.node.start;
  const line = file.position(at).line;
  const where = entry.dir === '' || entry.dir === null ? 'the workspace' : `\`${entry.dir}/\``;
  // A step of an action the run model follows: a local one by its path, one of this repository by its `uses:`.
  const inside = first.execution.step === first.step ? '' : first.step.usesRef?.kind === 'local' ? ` (inside local action \`${first.step.usesRef.path}\`)` : ` (inside action \`${String(first.step.uses?.value ?? '')}\`)`;
  const more = sinks.length > 1 ? ` (and ${sinks.length - 1} more)` : '';
  return `${describeStep(first.step)} (line ${line}) then runs ${first.execution.evidence}${inside} from ${where}, which holds that checkout${more}`;
}

/** What the job does with a checkout none of its steps runs code from (the run model's `laterUse`). */
function unusedText(job: Job, later: LaterUse): string {
  if (later.unknown !== null) {
    const line = job.workflow.file.position(later.unknown.step.node.start).line;
    return `; no later step of the job runs code from it as a build tool, script or local action, but ${describeStep(later.unknown.step)} (line ${line}) runs ${later.unknown.what}, which can load configuration from its files and be turned against the job`;
  }
  if (later.does.length === 0) return '; no later step of the job runs code or a tool that loads configuration from it (the steps after it only run shell built-ins and text tools)';
  const shown = later.does.slice(0, 6).map((d) => `\`${d}\``).join(', ');
  const more = later.does.length > 6 ? ` and ${later.does.length - 6} more` : '';
  return `; no later step of the job runs code or a tool that loads configuration from it: after it the job only runs ${shown}${more} (git, text tools, and actions that are GitHub's, the owner's or pinned)`;
}

/**
 * Events whose `github.ref` is the pull request's merge ref (`refs/pull/<n>/merge`), like `pull_request`'s, so an
 * `actions/checkout` without `ref:` checks out the pull request's code; for a fork's pull request their runs get a
 * read-only token and no secrets, as `pull_request` runs do.
 */
const REVIEW_EVENTS: readonly string[] = ['pull_request_review', 'pull_request_review_comment'];

/** A checkout `ref:` that is the event's own ref: none, `github.ref`, `github.sha`. */
const EVENT_REF = /^\s*(?:\$\{\{\s*github\.(?:ref|sha)\s*\}\})?\s*$/;

/**
 * The checkouts of a job that bring the pull request's merge commit on `pull_request_review*` (a checkout of the
 * event's own ref, run model `forkCode`) and that a step then runs code from, with the review event a fork's run
 * reaches the step on (no condition keeps forks out).
 */
function reviewCheckouts(runs: RunModel, run: JobRun): { entry: WorkspaceEntry; event: string; sinks: TracedExecution[] }[] {
  const found: { entry: WorkspaceEntry; event: string; sinks: TracedExecution[] }[] = [];
  // Such an entry is an actions/checkout step of the event's own ref that runs on a review event: most jobs have
  // none, and their workspace is not worked out for this.
  const candidate = (step: Step) =>
    isCheckoutAction(step.usesRef) && EVENT_REF.test(getText(step.with, 'ref') ?? '') && runs.eventsOf(step).some((e) => REVIEW_EVENTS.includes(e));
  if (!run.job.steps.some(candidate)) return found;
  for (const entry of run.workspace) {
    if (entry.kind !== 'checkout' || entry.content !== 'base' || !entry.forkCode || entry.checkout !== undefined) continue;
    if (!EVENT_REF.test(getText(entry.step.with, 'ref') ?? '')) continue;
    const events = runs.eventsOf(entry.step).filter((e) => REVIEW_EVENTS.includes(e));
    const event = events.find((e) => runs.reachOn(run.job, entry.step, e).forkPullRequest);
    if (event === undefined) continue;
    const sinks = runs.sinksOf(run, entry);
    if (sinks.length > 0) found.push({ entry, event, sinks });
  }
  return found;
}

export default defineWorkflowRule({
  meta: {
    id: 'untrusted-checkout',
    category: 'CICD-SEC-4',
    title: 'Untrusted pull request code checked out in a privileged workflow',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'A workflow that runs with the base repository\'s token and secrets (`pull_request_target`, `workflow_run`, `issue_comment` ...) checks out the head of a pull request (`actions/checkout` with the head ref or SHA, `git fetch` of `refs/pull/*` then `git checkout`, `gh pr checkout`), so the contributor\'s code lands in a privileged job. HIGH when anyone can start it, a later step runs code from that checkout (a build tool in its directory, a script or local action from it) and the job holds a write scope, a secret, OIDC or a self-hosted machine; MEDIUM when one of those is missing (without a step that runs the checkout: only when a later step runs a tool or action that may load configuration from it) or a maintainer\'s approval comes first but the code can still change after it (a branch resolved when the job runs); LOW when only branches of this repository reach it (fork exclusion: a same-repository condition or a step that fails for forks; reported only when a later step runs the checkout, naming the gate, what runs and what the job holds, also for the head branch name `github.event.pull_request.head.ref` there), the approved commit is what runs (also behind a label the workflow removes in every run, whose race is a push between the label and its removal, or an environment the workflow\'s own comment says needs an approval, unverified). Not reported when the steps after the checkout only run git, text tools and GitHub\'s, the owner\'s or pinned actions (nothing of the fork\'s runs). Also: on `pull_request_review*`, a checkout without `ref:` is the pull request\'s merge commit; when a step runs it, LOW (a fork\'s run has a read-only token and no secrets), HIGH on a self-hosted runner.',
    recommendation:
      'Build and test pull requests in a `pull_request` workflow, which runs without secrets; if a privileged follow-up is needed, pass results as data through an artifact to a `workflow_run` job that never checks out or runs the pull request\'s code. If the checkout must stay, restrict the job to trusted authors (`github.event.pull_request.head.repo.full_name == github.repository`).',
  },
  create: (context) => ({
    job(job) {
      const run = context.runs.job(job);
      // Only a pull request checkout makes a workspace entry with a `checkout`: most jobs have none, and their
      // workspace is not worked out for this.
      const entries = pullRequestCheckouts(job, context.runs.repository).length === 0 ? [] : run.workspace;
      for (const entry of entries) {
        const checkout = entry.checkout;
        if (checkout === undefined) continue;
        const sinks = context.runs.sinksOf(run, entry);
        // What the code that runs holds: the job's, or only what a container build is handed (`heldBy`).
        const held = context.runs.heldBy(run, sinks);
        // Only trusted authors' pull requests reach it (a same-repository condition, a member author, a step
        // that fails for forks): the code is not an outsider's. Where the run model says the gate is fork
        // exclusion (only branches of this repository reach it) and a step runs the checkout, the job does run the
        // pull request's code: LOW, naming the gate, what runs and what the job holds; otherwise no claim.
        if (checkout.hiddenBy === 'trusted-author') {
          const reach = checkoutReach(context.runs, entry, sinks);
          if (sinks.length === 0 || (reach.sameRepository !== true && checkout.sameRepositoryRef !== true)) continue;
          // The ref itself keeps forks out (their pull requests get the base branch): a same-repository pull request's reach.
          const sameReach: Reach = reach.sameRepository === true ? reach : { ...reach, level: 'trusted-author', sameRepository: true };
          const claim = jobClaim(held, checkout.namedRepositories === undefined ? sameReach : { ...sameReach, alsoFrom: checkout.namedRepositories }, true);
          context.report({
            node: entry.checkout?.node ?? entry.step.node,
            ...(checkout.offset !== undefined ? { offset: checkout.offset } : {}),
            severity: 'LOW',
            message:
              `${describeStep(entry.step)} checks out pull request code (${checkout.how}, from ${checkout.evidence}) in a workflow triggered by \`${checkout.trigger}\`; ${sinkText(job, sinks, entry)}; ${describeClaim(claim)}` +
              '. ' +
              `LOW: what runs is a branch of ${checkout.namedRepositories === undefined ? 'this repository' : 'this repository or of one the condition names'}, not an outsider's code, but whoever pushes such a branch (someone with write access, or a bot of the repository such as Dependabot, whose update brings a dependency's new release) runs it with what the job holds${held.valuables.length > 0 ? ', before anyone reviews the pull request' : ''}.`,
            facts: [...reachFacts(reach), 'exec', ...holdingFacts(held), ...runFact(context.runs, entry.step)],
            key: `same-repository:${job.id}:${entry.step.index}`,
          });
          continue;
        }
        const reach: Reach = checkoutReach(context.runs, entry, sinks);
        const pinned = pinsApprovedCode(checkout);
        const claim = jobClaim(held, reach, sinks.length > 0, !pinned);
        let severity = severityOf(claim);
        // Without a step that runs it, the checkout is still a loaded workspace: a tool that loads configuration
        // from it can be turned against the job. MEDIUM when anyone starts it, the job holds something worth
        // taking and a later step runs such a tool (or one the run model cannot vouch for), never HIGH; no claim
        // when the later steps only run git, text tools and GitHub's, the owner's or pinned actions.
        const outsider = reach.level === 'anyone' || reach.level === 'sticky-label';
        const later = sinks.length === 0 ? context.runs.laterUse(run, entry) : null;
        // Nothing after the checkout runs its code or a tool that may load configuration from it (only git, text
        // tools and GitHub's, the owner's or pinned actions): the claim that the outsider's code runs does not
        // hold, and the policy reports no claim the model contradicts (docs/severity.md).
        if (later !== null && later.unknown === null) continue;
        if (later !== null && later.unknown !== null && outsider && run.valuables.length > 0) severity = 'MEDIUM';
        const consequence = sinks.length > 0 ? `; ${sinkText(job, sinks, entry)}` : unusedText(job, later as LaterUse);
        const dated = reach.level === 'approval' && !pinned ? commitDateCheck(job) : null;
        const approvalText =
          reach.level === 'approval'
            ? reach.labelRace === true
              ? pinned
                ? '; each run checks out the commit its event names, so a push racing the label runs only that pushed commit (to close the race, run only on `labeled` and check the label the event adds, `github.event.label.name == ...`)'
                : '; the code is resolved when the job runs, so a commit pushed after the label runs too; to close the race, run only on `labeled`, check the label the event adds (`github.event.label.name == ...`) and check out `github.event.pull_request.head.sha`, so each run is the commit that was labelled'
              : !approvalBindsCode(reach)
              ? '; check the label the event adds (`github.event.label.name == ...`) and check out `github.event.pull_request.head.sha`, so each run is the commit that was labelled'
              : checkout.raceClosedBy !== undefined
              ? `; ${checkout.raceClosedBy}, so the commits that run are the ones approved`
              : pinned
              ? '; the approval applies to the commit the event names, which is what runs (a commit pushed just before the approval still runs: review the head the approval names)'
              : `; the code is resolved when the job runs, not when the approval was given, so commits pushed after the approval run${dated === null ? '' : `; ${dated}`} (pin the approved commit, such as \`${checkout.trigger === 'repository_dispatch' ? 'github.event.client_payload.pull_request.head.sha' : 'github.event.pull_request.head.sha'}\`)`
            : '';
        context.report({
          node: entry.checkout?.node ?? entry.step.node,
          ...(checkout.offset !== undefined ? { offset: checkout.offset } : {}),
          severity,
          message:
            `${describeStep(entry.step)} checks out pull request code (${checkout.how}, from ${checkout.evidence}) in a workflow triggered by \`${checkout.trigger}\`${consequence}; ` +
            `${describeClaim(claim)}${approvalText}.`,
          facts: [...reachFacts(reach), ...(sinks.length > 0 ? ['exec'] : []), ...holdingFacts(held), ...runFact(context.runs, entry.step)],
        });
      }
      // `pull_request_review*`: a checkout without `ref:` is the pull request's merge commit, as on `pull_request`.
      for (const { entry, event, sinks } of reviewCheckouts(context.runs, run)) {
        const reach: Reach = { level: 'collaborator', event, gates: [], forkPullRequest: true };
        const severity = severityOf({ reach, executes: true, holds: [], forkHolds: run.forkValuables });
        const held = run.forkValuables.length > 0 ? `on a fork's run the job still holds ${run.forkValuables.join(', ')}` : "on a fork's run the job holds nothing worth taking";
        context.report({
          node: entry.step.uses ?? entry.step.node,
          severity,
          message:
            `${describeStep(entry.step)} checks out the event's own ref (actions/checkout without a pull request \`ref:\`), which on \`${event}\` is the pull request's merge ref (\`refs/pull/<number>/merge\`): the pull request's code, as on \`pull_request\`; ${sinkText(job, sinks, entry)}. ` +
            `Anyone can start it through a fork's pull request (\`${event}\` on a review or review comment), whose run has a read-only token and no secrets, as a \`pull_request\` run does; ${held}${severity === 'LOW' ? '. LOW: the pull request\'s author only runs their code with what their own `pull_request` run would have' : ''}.`,
          recommendation:
            "Treat a `pull_request_review*` workflow like a `pull_request` one: it runs the pull request's code. Keep secrets and self-hosted runners out of it, or restrict it to same-repository pull requests (`github.event.pull_request.head.repo.full_name == github.repository`).",
          facts: [...reachFacts(reach), 'exec', ...(run.forkValuables.length > 0 ? ['holds', 'holds:self-hosted'] : []), ...runFact(context.runs, entry.step)],
          key: `review-checkout:${job.id}:${entry.step.index}`,
        });
      }
      // The head handed to another repository's CI: that CI checks it out and runs it with its own secrets.
      for (const dispatch of context.runs.prHeadDispatches(job)) {
        const reach = context.runs.stepReach(dispatch.step);
        if (reach.level === 'trusted-author' || reach.level === 'collaborator') continue;
        const theirs = `a token that starts the CI of \`${dispatch.target}\` (\`${dispatch.credential}\`, with that repository's secrets)`;
        const claim: Claim = { reach, executes: true, holds: [theirs, ...run.valuables], raceAfterApproval: !dispatch.pinned };
        const dated = reach.level === 'approval' && !dispatch.pinned ? commitDateCheck(job) : null;
        // The payload carries the head commit (the event's, or `.head.sha` read when the job runs): that CI is told
        // to run what the approval let through, the approved-commit row of the policy.
        const race = dispatch.shaReadAtRun
          ? 'a commit pushed just before the approval is the one sent: the race of any approval'
          : 'a commit pushed just before the approval is the one the event names and is sent: the race of any approval';
        // The head read when the job runs (`.head.sha` from the API) is the pull request as it is then: the same
        // reading as a checkout of that SHA in this job (the approval row with the race, MEDIUM with holdings).
        const readAfter =
          dispatch.shaReadAtRun && !dispatch.pinned
            ? `; the commit sent is the head as it is when this job reads it, not when the approval was given, so commits pushed between the maintainer's act and that read are the ones sent and run there${dated === null ? '' : `; ${dated}`} (have the approval name the commit it approves and fail unless the head is that commit, or fail when the head repository's \`pushed_at\` is later than the approval)`
            : null;
        const approvalText =
          reach.level !== 'approval'
            ? ''
            : readAfter !== null
              ? readAfter
              : !dispatch.pinned
                ? `; the head is resolved when that CI runs, not when the approval was given, so commits pushed after the approval run there${dated === null ? '' : `; ${dated}`} (send \`github.event.pull_request.head.sha\` and have that CI check out exactly that commit)`
                : `; the payload carries the commit the approval let through, so commits pushed after it run there only if \`${dispatch.target}\`'s CI checks out something else (its branch, or \`refs/pull/<number>/head\`${dispatch.number === null ? '' : ' from the number it is also sent'}); this scan cannot see that CI: it must check out exactly that SHA; ${race}`;
        // What the other repository's workflow does with the head is not in this scan: the claim that it checks
        // it out and runs it is what the dispatch is for, but unseen, so never above MEDIUM.
        const claimed = severityOf(claim);
        const unseen =
          claimed === 'HIGH'
            ? `. MEDIUM, not HIGH: this scan cannot see \`${dispatch.target}\`'s workflows; check whether the one this dispatch starts checks out the ref it is given in a job that holds that repository's secrets or a write token (then the pull request's author runs code there), and have it check out only reviewed code or run without them`
            : '';
        context.report({
          node: dispatch.node,
          ...(dispatch.scriptOffset !== undefined && dispatch.step.run !== undefined ? { offset: valueOffsetToSource(job.workflow.file, dispatch.step.run, dispatch.scriptOffset) } : {}),
          severity: claimed === 'HIGH' ? 'MEDIUM' : claimed,
          message:
            `${describeStep(dispatch.step)} dispatches \`${dispatch.target}\` (${dispatch.how}) with ${sentWords(dispatch)} in a workflow triggered by \`${reach.event ?? job.workflow.triggers[0]?.name ?? 'a privileged event'}\`, so that repository's CI runs the pull request's code on this job's word if it checks out what it is given; ` +
            `${describeClaim(claim)}${approvalText}${unseen}.`,
          facts: [...reachFacts(reach), 'exec', 'holds', 'holds:secrets', ...runFact(context.runs, dispatch.step)],
        });
      }
    },
  }),
});
