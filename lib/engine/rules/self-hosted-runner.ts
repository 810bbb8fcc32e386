import { describeStep } from '../analysis/describe.js';
import { cloneFacts, reachFacts } from '../analysis/run-model/facts.js';
import { severityOf, whoText, type JobRun, type OutsiderWay, type TracedExecution } from '../analysis/run-model/index.js';
import type { RunModel } from '../analysis/run-model/index.js';
import { ephemeralHint, ownCloudRunner, selfHosted, type Selection } from '../analysis/runners.js';
import type { Job } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import type { Severity } from '../types.js';

/** One way an outsider's code runs on the job's machine (the run model's `outsiderWays`), with the severity it gives. */
interface Way extends OutsiderWay {
  severity: Severity;
}

const ORDER: readonly Severity[] = ['INFO', 'LOW', 'MEDIUM', 'HIGH'];
const OUTSIDER: ReadonlySet<string> = new Set(['anyone', 'sticky-label', 'unreviewed-environment', 'approval']);
const HOLDS = ['the self-hosted machine'];

/** `step \`Test\` of job \`t\` (line 12) runs \`make test\` from the workspace` for the first sink. */
function sinkText(job: Job, way: Way): string {
  const first = way.sinks[0] as TracedExecution;
  const line = job.workflow.file.position(first.step.node.start).line;
  const where = way.entry.dir === '' || way.entry.dir === null ? 'the workspace' : `\`${way.entry.dir}/\``;
  const checkoutLine = job.workflow.file.position(way.entry.step.node.start).line;
  const more = way.sinks.length > 1 ? ` (and ${way.sinks.length - 1} more)` : '';
  return `${describeStep(first.step)} (line ${line}) runs ${first.execution.evidence} from ${where}, which holds ${way.fork ? "the pull request's code" : 'pull request code'} (${way.entry.how}, line ${checkoutLine})${more}`;
}

/**
 * The ways an outsider's code runs on the job's machine (the run model's `outsiderWays`), strongest first. The
 * machine is what a fork's run holds; an approval (a label on a `labeled` run) binds to the commit the event names
 * when the checkout takes that commit: the labelled commit runs, but for one pushed just before the label (the
 * race of any approval).
 */
function waysIn(runs: RunModel, run: JobRun): Way[] {
  const ways = runs.outsiderWays(run.job).map((way) => ({ ...way, severity: severityOf({ reach: way.reach, executes: true, holds: HOLDS, raceAfterApproval: way.race }) }));
  return ways.sort((a, b) => ORDER.indexOf(b.severity) - ORDER.indexOf(a.severity));
}

/** Why nothing of a fork's runs on the machine, in words the workflow cannot contradict. */
function nothingRuns(run: JobRun): string {
  // The event's own code is the fork's only on a fork's `pull_request` run; a `workflow_run`, `issue_comment` or
  // `pull_request_target` run without `ref:` checks out the base repository's default branch or merge base.
  const fork = run.workspace.filter((e) => (e.forkCode && run.forkReach !== null) || e.content === 'outsider');
  // A checkout only branches of this repository reach that a step runs (run model: traced executions): say it runs.
  const trusted = fork.find((e) => e.checkout?.hiddenBy === 'trusted-author' && run.executions.some((t) => t.code === e));
  if (trusted !== undefined) {
    const line = run.job.workflow.file.position(trusted.step.node.start).line;
    return `it checks out pull request code (${trusted.how}, line ${line}) and runs it, but only trusted authors' pull requests (a same-repository or author condition) reach that checkout`;
  }
  if (fork.length > 0) {
    const line = run.job.workflow.file.position(fork[0]!.step.node.start).line;
    return `it checks out pull request code (${fork[0]!.how}, line ${line}) but no later step runs code from that checkout (a build tool in its directory, a script or local action from it)`;
  }
  const checkouts = run.workspace.filter((e) => e.kind === 'checkout');
  const own = checkouts.find((e) => e.forkCode && e.content === 'base');
  if (own !== undefined) {
    const line = run.job.workflow.file.position(own.step.node.start).line;
    const events = [...new Set(run.job.workflow.triggers.map((t) => t.name).filter((n) => n !== 'pull_request' && n !== 'workflow_call'))];
    const on = events.length > 0 ? ` on ${events.map((e) => `\`${e}\``).join(', ')}` : '';
    return `its checkout (${own.how} without a pull request ref, line ${line}) brings the base repository's own code${on}, not the pull request's`;
  }
  if (checkouts.length > 0) return 'its checkouts name a fixed ref or another repository, not the pull request';
  return 'it checks out no pull request code';
}

const APPROVAL_RISK =
  "the approval is given to the pull request as the maintainer saw it: commits pushed after their review and before the approval, or a branch that moved since, still run on the runner and can persist in it";

/**
 * ` The job also builds ...`: someone else's repository the job clones at a branch or tag and builds (run model,
 * RunModel.mutableClones), one more input of the machine that changes when that repository's maintainers push.
 */
function clonedText(runs: RunModel, run: JobRun): string {
  const clones = runs.mutableClones(run);
  const first = clones[0];
  if (first === undefined) return '';
  const file = run.job.workflow.file;
  const more = clones.length > 1 ? ` (and ${clones.length - 1} more)` : '';
  return ` The job also builds code it clones from someone else's repository at a branch or tag, which that repository's maintainers can change at any time: ${describeStep(first.sink.step)} (line ${file.position(first.sink.step.node.start).line}) runs ${first.sink.execution.evidence} in \`${first.entry.dir ?? first.entry.clone?.url ?? ''}\`, cloned by ${first.entry.how} (line ${file.position(first.entry.step.node.start).line})${more}.`;
}

/** Who starts the way in, and what stands in the way, in words. */
function whoOf(way: Way): string {
  const gates = way.reach.gates.length > 0 ? ` (${way.reach.gates.join(' / ')})` : '';
  if (way.reach.level === 'approval') return `it runs only after a maintainer's approval${gates}; ${APPROVAL_RISK}`;
  if (way.fork && way.reach.level === 'anyone') return `anyone with a GitHub account can start it through a fork's \`${way.reach.event ?? 'pull_request'}\`, whose read-only token and missing secrets do not protect the machine`;
  return whoText(way.reach);
}

/** Where to look, in words, for whether a label names a larger runner or a self-hosted one. */
const CHECK_RUNNERS =
  "check which under Settings > Actions > Runners (the repository's, and its organization's, where larger runners are listed with their labels as GitHub-hosted runners, self-hosted ones under Self-hosted runners)";

/**
 * A single label and no runner group, without `self-hosted` (runners.ts `maybeLarger`): it may name one of the
 * organization's GitHub-hosted larger runners (a fresh machine per job, whose one label is the name its owner gave
 * it) as much as a self-hosted runner, so nothing is asserted above LOW: the finding says what would make it matter
 * and where to look. Reported where an outsider's code runs there, or pull requests or outsiders start the job.
 */
function reportMaybeLarger(
  runs: RunModel,
  run: JobRun,
  hit: Selection,
  way: Way | undefined,
  report: (r: { node: Selection['node']; severity: Severity; message: string; facts: string[] }) => void,
): void {
  const job = run.job;
  const fork = run.forkReach;
  const outsider = (fork !== null && OUTSIDER.has(fork.level)) || OUTSIDER.has(run.reach.level) || run.reach.forkPullRequest;
  if (!outsider && (way === undefined || !OUTSIDER.has(way.reach.level))) return;
  const label = `Job \`${job.id}\` runs on ${hit.how}: it may name a GitHub-hosted larger runner (a fresh machine for each job, which keeps nothing) or a self-hosted runner (which keeps what a job leaves behind and sits in its owner's network), and the workflow cannot tell which`;
  const armed = way !== undefined && way.severity !== 'LOW';
  const what = way === undefined ? `pull requests start it, and ${nothingRuns(run)}` : `${sinkText(job, way)}; ${whoOf(way)}`;
  const matters = armed
    ? `if a self-hosted runner carries the label, an outsider's code stays behind on it and reaches the secrets and tokens of the jobs that run there next (${way.severity} for a self-hosted runner)`
    : 'if a self-hosted runner carries the label, whatever the job runs can persist on it and reach its network';
  report({
    node: hit.node,
    severity: 'LOW',
    message: `${label}. ${what.charAt(0).toUpperCase()}${what.slice(1)}. LOW: ${CHECK_RUNNERS}; ${matters}.${clonedText(runs, run)}`,
    facts: way === undefined ? [...reachFacts(run.reach), 'runner:possible', ...cloneFacts(runs, run)] : [...reachFacts(way.reach), ...(way.fork ? ['reach:fork-pr'] : []), 'exec', 'runner:possible', ...cloneFacts(runs, run)],
  });
}

/**
 * A machine the owner's cloud account starts for this job alone (a RunsOn label: runners.ts `ownCloudRunner`):
 * nothing stays behind for the next job, so no persistence is claimed, but an outsider's code that runs there runs
 * inside that account, with the machine's IAM role and network. Reported only where such code runs, one step below
 * the run's own severity (MEDIUM where it runs with no approval); nothing otherwise, as for managed services.
 */
function reportOwnCloud(
  runs: RunModel,
  run: JobRun,
  label: Selection['node'],
  report: (r: { node: Selection['node']; severity: Severity; message: string; facts: string[] }) => void,
): void {
  const way = waysIn(runs, run)[0];
  if (way === undefined || way.severity === 'LOW') return;
  const job = run.job;
  const text = String(label.value).trim();
  report({
    node: label,
    severity: way.severity === 'HIGH' ? 'MEDIUM' : 'LOW',
    message:
      `Job \`${job.id}\` runs on a RunsOn runner (label \`${text.length > 80 ? `${text.slice(0, 77)}...` : text}\`), a fresh AWS machine that the repository owner's own account starts for each job, and runs an outsider's code there: ${sinkText(job, way)}; ${whoOf(way)}. ` +
      "Nothing stays behind for the next job, but that code runs inside the owner's AWS account: with the machine's IAM role (its instance profile, which any process on it can ask the metadata endpoint for) and the account's network. " +
      `${way.severity === 'HIGH' ? 'MEDIUM' : 'LOW'}: one step below a persistent self-hosted runner; what the role can do decides the rest (give pull request jobs a runner whose role can reach nothing, or run them on GitHub-hosted runners).`,
    facts: [...reachFacts(way.reach), ...(way.fork ? ['reach:fork-pr'] : []), 'exec', 'runner:per-job-cloud'],
  });
}

/** One step down for a runner the workflow cannot tell from a GitHub-hosted larger runner (null: the LOW form). */
function lower(severity: Severity): Severity | null {
  return severity === 'HIGH' ? 'MEDIUM' : null;
}

export default defineWorkflowRule({
  meta: {
    id: 'self-hosted-runner',
    category: 'CICD-SEC-7',
    title: 'Job runs on a self-hosted runner',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'A job\'s `runs-on` selects the `self-hosted` label (as a string, a list item, the `labels:` of a runner group, or a matrix value a leg runs with). Self-hosted runners keep state between jobs and sit inside your network. HIGH when an outsider\'s code runs on the machine with no approval: a fork\'s `pull_request` run (or a privileged run) checks out the pull request\'s code and a later step runs it (a build tool in its directory, a script or local action from it); MEDIUM when a maintainer\'s approval comes first (a label, a member\'s comment, an environment), LOW when that approval binds the commit that runs or the same runners already run forks\' pull requests with no approval in another job; LOW when nothing of an outsider\'s runs there (the job checks nothing out, checks out a fixed ref, runs only registry tools), when only trusted authors reach it, and off pull requests. A runner group or label named after another cloud\'s machine (`aws`, `ec2`, `gcp`, `gce` as a word, an EC2 instance type such as `g4dn-2xlarge`, a GCE machine type such as `n2-standard-8`, or a cloud\'s managed Kubernetes service, `aks`, `eks`, `gke`, where actions-runner-controller runs runners in the owner\'s own cluster) is a self-hosted runner, since GitHub-hosted runners run only on GitHub\'s own Azure machines. Another runner group or a list of labels no GitHub-hosted runner has is one step lower (it may be a GitHub-hosted larger runner); a single such label with no group (`runs-on: windows`) is LOW, saying it may name a larger runner or a self-hosted one and where to check (Settings > Actions > Runners); both are reported only where pull requests or outsiders reach them. Labels that name the VM image a fresh machine is made from for each job (`ghcr.io/org/image:tag`) and managed ephemeral services are not reported, but for a RunsOn runner (`runs-on=...`), a fresh machine in the owner\'s own AWS account: where an outsider\'s code runs there, MEDIUM (LOW behind an approval), for the account\'s IAM role and network.',
    recommendation:
      'Run untrusted or pull-request jobs on GitHub-hosted runners; keep self-hosted runners for trusted branches, make them ephemeral (one job per runner, e.g. actions-runner-controller), and isolate their network and credentials.',
  },
  create: (context) => ({
    job(job) {
      const hit = selfHosted(job);
      if (hit === null) {
        const cloud = ownCloudRunner(job);
        if (cloud !== null) reportOwnCloud(context.runs, context.runs.job(job), cloud, (report) => context.report(report));
        return;
      }
      const run = context.runs.job(job);
      const ways = waysIn(context.runs, run);
      const way = ways[0];
      const runner = hit.certain ? `a self-hosted runner (${hit.how})` : `a ${hit.how}`;
      if (hit.maybeLarger) {
        reportMaybeLarger(context.runs, run, hit, way, (report) => context.report(report));
        return;
      }
      const maybe = hit.certain ? '' : ' If it is a GitHub-hosted larger runner, nothing persists; the workflow cannot tell, so the finding is one step lower.';
      // The same runners already run forks' pull requests with no approval in another job (run model, holdings
      // `runnerOpenToForks`): an approval in the way here adds no way onto the machine that forks lack.
      const opened = hit.certain && way !== undefined && way.reach.level !== 'anyone' && way.reach.level !== 'sticky-label' ? run.holdings.runnerOpenToForks : undefined;
      const severity = way === undefined || way.severity === 'LOW' || opened !== undefined ? null : hit.certain ? way.severity : lower(way.severity);
      if (way !== undefined && severity !== null) {
        context.report({
          node: hit.node,
          severity,
          message:
            `Job \`${job.id}\` runs on ${runner} and runs an outsider's code there: ${sinkText(job, way)}; ${whoOf(way)}. ` +
            `Code that runs on a persistent runner can stay behind, read the secrets and tokens of the jobs that run there next, and reach the machine's network.${maybe}${clonedText(context.runs, run)}`,
          facts: [...reachFacts(way.reach), ...(way.fork ? ['reach:fork-pr'] : []), 'exec', hit.certain ? 'holds:self-hosted' : 'runner:possible', ...cloneFacts(context.runs, run), ...(ephemeralHint(job) ? ['runner:ephemeral-hint'] : [])],
        });
        return;
      }
      // Nothing of an outsider's runs there (or only trusted authors' and approved code): persistence between trusted jobs.
      const fork = run.forkReach;
      const outsider = (fork !== null && OUTSIDER.has(fork.level)) || OUTSIDER.has(run.reach.level) || run.reach.forkPullRequest;
      // A runner group or custom label off pull requests may be a GitHub-hosted larger runner that only collaborators use.
      if (!hit.certain && !outsider && (way === undefined || !OUTSIDER.has(way.reach.level))) return;
      const pinned = way !== undefined && way.reach.level === 'approval' && way.severity === 'LOW';
      const gates = way !== undefined && way.reach.gates.length > 0 ? ` (${way.reach.gates.join(' / ')})` : '';
      const gated = way === undefined ? '' : `; ${sinkText(job, way)}, but ${pinned ? `only after a maintainer's approval of the commit that runs${gates} (a commit pushed just before the approval still runs: the race of any approval, so review the head the approval names)` : whoOf(way)}${hit.certain ? '' : '.' + maybe.replace(/^ /, ' ').replace(/\.$/, '')}`;
      // Said only where it lowers the finding (a gate that would leave it MEDIUM); a trusted-authors-only job is LOW anyway.
      const openNote = opened === undefined || (way !== undefined && way.severity === 'LOW') ? '' : `; LOW, not ${way?.severity ?? 'MEDIUM'}: ${opened}, and waiting for an approval here gives an outsider nothing there that a fork's pull request does not`;
      const reason = way === undefined && outsider ? `; pull requests start it, and ${nothingRuns(run)}` : `${gated}${openNote}`;
      context.report({
        node: hit.node,
        message: `Job \`${job.id}\` runs on ${runner}${reason}; whatever the job runs can persist in the runner and reach its network.${clonedText(context.runs, run)}`,
        facts: [...reachFacts(run.reach), hit.certain ? 'holds:self-hosted' : 'runner:possible', ...cloneFacts(context.runs, run), ...(ephemeralHint(job) ? ['runner:ephemeral-hint'] : [])],
      });
    },
  }),
});
