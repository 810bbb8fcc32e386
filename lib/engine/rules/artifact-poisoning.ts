import { nothingWorthText } from '../analysis/run-model/holdings.js';
import { downloadEffect, downloadSeverity, isolatedEffect, untracedSteering, untracedText } from '../analysis/artifact-effects.js';
import { downloadContent, foreignDownloads, forkArtifactOrigins, forkOriginText, pickedRunText, runChoice, triggeringRunReads, type ArtifactUse, type ForeignDownload } from '../analysis/artifacts.js';
import { isStoredSecretName, secretOccurrencesIn } from '../analysis/secrets.js';
import { describeStep } from '../analysis/describe.js';
import { holdingFacts, reachFacts, runFact } from '../analysis/run-model/facts.js';
import { describeClaim, holdsText, jobClaim, whoText, type JobRun, type Reach, type RunModel, type TracedExecution, type WorkspaceEntry } from '../analysis/run-model/index.js';
import type { Job } from '../model/workflow.js';
import type { RepositoryModel } from '../model/repository.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import type { Severity } from '../types.js';
import { asList, get, scalarText } from '../yaml/model.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { flatMap } from '../model/arrays.js';

/**
 * Who chooses the files of a workflow_run's triggering run (artifacts.ts `forkOriginText`): `the run of \`CI\` can
 * come from a fork's pull request`, saying how when only a workflow the fork adds gives it that name.
 */
function whoseRun(job: Job, repository: RepositoryModel): string {
  const known = forkOriginText(forkArtifactOrigins(job.workflow, repository));
  if (known !== null) return known;
  const trigger = job.workflow.triggers.find((t) => t.name === 'workflow_run');
  const upstream = flatMap(asList(get(trigger?.config, 'workflows')), (n) => {
    const name = scalarText(n);
    return name === null ? [] : [`\`${name}\``];
  });
  return `${upstream.length > 0 ? `the run of ${upstream.join(', ')}` : 'the run'} can come from a fork's pull request`;
}

/**
 * `step X (line 31) runs \`npm ci\` from \`site/\`` for the first sink, and how many more; with `checkout`, the
 * checkout whose ref a value read from the files names, which the sinks run.
 */
function sinkText(job: Job, sinks: readonly TracedExecution[], entry: WorkspaceEntry, checkout?: WorkspaceEntry): string {
  const first = sinks[0] as TracedExecution;
  const line = job.workflow.file.position(first.step.node.start).line;
  if (checkout !== undefined) {
    const at = job.workflow.file.position(checkout.step.node.start).line;
    const where = checkout.dir === '' || checkout.dir === null ? 'the workspace' : `\`${checkout.dir}/\``;
    const more = sinks.length > 1 ? ` (and ${sinks.length - 1} more)` : '';
    return `${describeStep(checkout.step)} (line ${at}) checks out the commit a value read from them names (${checkout.checkout?.how ?? checkout.how}), and ${describeStep(first.step)} (line ${line}) then runs ${first.execution.evidence} from ${where}, so the fork picks the code that runs${more}`;
  }
  const where = entry.dir === '' || entry.dir === null ? 'the workspace' : `\`${entry.dir}/\``;
  const inside = first.execution.step !== first.step && first.step.usesRef?.kind === 'local' ? ` (inside local action \`${first.step.usesRef.path}\`)` : '';
  const more = sinks.length > 1 ? ` (and ${sinks.length - 1} more)` : '';
  return `${describeStep(first.step)} (line ${line}) then runs ${first.execution.evidence}${inside} from ${where}, which holds those files${more}`;
}

interface Report {
  download: ForeignDownload;
  /** How the files came into the workspace, when not the download's own words (an archive a script extracts there). */
  how?: string;
  /** Where the files land, when not the download's destination (an action that reads them itself). */
  where?: string;
  reach: Reach;
  run: JobRun;
  severity: Severity;
  executes: boolean;
  consequence: string;
}

export default defineWorkflowRule({
  meta: {
    id: 'artifact-poisoning',
    category: 'CICD-SEC-4',
    title: 'Artifact from an untrusted run used in a privileged workflow',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      "A privileged workflow (`workflow_run`, `issue_comment`, `pull_request_target` ...) downloads the artifacts of a run a fork's pull request can produce (`actions/download-artifact` with `run-id`, `dawidd6/action-download-artifact`, `gh run download`, `downloadArtifact` in github-script, a script's fetch of the REST API's `archive_download_url`): the fork chose those files. HIGH when a later step runs them (a build tool, script or local action in the directory they land in, a deploy action working there, a script run from an isolated directory or an archive of theirs extracted from there into the workspace, or their content written to `$GITHUB_ENV` with a later step to run with it), anyone can start the run and the job holds a write scope, secret or OIDC; a value read from them expanded with `${{ }}` into a script (script injection) or naming the commit a checkout brings that a step then builds (also in a job that needs the reading one) runs too, at the severity of the job it runs in; MEDIUM when their content only steers what the job does (a value read into a command or an input, an output in a later `if:` of a step or job that holds something worth taking and is given their values) and a job it steers holds something worth taking, or when a value read from them is expanded unquoted, unchecked, into the words of a `gh` or `curl` call made with a token that can write, also one a command substitution runs (argument injection: the fork adds options to that call); LOW when it only decides a comment, a commit status or a label added with the run's own token (its text, the label, its pull request or commit, whether a job that only posts it runs), or only whether a step or job runs that is given none of their values (what it does with the fork's other files is judged at its own download or checkout), or only picks the pull request code a checkout brings that nothing runs, or only picks which run, branch or artifact a later download of another run's artifacts fetches (that download is judged on its own), or the files are uploaded or deployed as they are (a static preview), or their values are only read into outputs no step or job reads, or an action downloads the triggering run's artifact itself and parses it as data (`relative-ci/agent-action`, `dorny/test-reporter` with `artifact:`, `py-cov-action/python-coverage-comment-action` with `GITHUB_PR_RUN_ID`: the fork forges at most that report, comment or check). Not reported when the values are validated numbers, when `dawidd6/action-download-artifact` searches with forks' runs skipped (its default from v4), or when only trusted authors' runs reach the job.",
    recommendation:
      'Download into an isolated directory (`path: ${{ runner.temp }}/artifacts`), treat every file as untrusted data (validate numbers and names before use, never execute or source it), and never extract it over the checkout.',
  },
  create: (context) => ({
    job(job) {
      const runs = context.runs;
      const run = runs.job(job);
      // Only a download of another run's artifacts makes a workspace entry with a `download`: most jobs have
      // none, and their workspace is not worked out for this.
      const downloads = foreignDownloads(job);
      for (const entry of downloads.length === 0 ? [] : run.workspace) {
        if (entry.kind !== 'download' || entry.download === undefined || entry.content !== 'outsider') continue;
        if (!reachable(runs.stepReach(entry.step))) continue;
        // What runs may run in another job (a job that needs this one checks out the commit their values name, or
        // expands a value read from them into its script): the effect's run and reach are that job's.
        const effect = downloadEffect(runs, context.taint, run, entry);
        const { sinks, checkout } = effect;
        // Their own content followed nowhere: what picks the run they come from, and the comment the job posts with
        // values it read after they landed, are named instead of saying their content reaches nothing.
        const untraced = sinks.length === 0 && effect.use === null ? untracedText(untracedSteering(runs, context.taint, run, entry)) : null;
        const found = judge(runs, effect.run, effect.reach, sinks.length > 0, effect.use, effect.steersOnlyBareJobs, effect.others, untraced);
        if (found === null) continue;
        report(context, job, { download: entry.download, how: entry.how, reach: effect.reach, run: effect.run, ...found, consequence: sinks.length > 0 ? `; ${sinkText(job, sinks, entry, checkout)}` : found.consequence });
      }
      // Kept outside the workspace, the files replace nothing of the checkout: reported only when a step runs them,
      // or runs the checkout whose commit a value read from them names (in this job or a later one).
      for (const download of downloads) {
        if (!download.isolated || downloadContent(download, job.workflow, context.repository) !== 'outsider') continue;
        if (!reachable(runs.stepReach(download.step))) continue;
        const effect = isolatedEffect(runs, run, download);
        if (effect === null) continue;
        const found = judge(runs, effect.run, effect.reach, true, null, false);
        if (found === null) continue;
        const first = effect.executions[0];
        const consequence =
          first !== undefined
            ? `; ${describeStep(first.step)} (line ${job.workflow.file.position(first.step.run?.start ?? first.step.node.start).line}) then runs ${first.evidence} from \`${download.destination ?? ''}\`, where they landed`
            : effect.checkout !== undefined
              ? `; ${sinkText(job, effect.sinks, effect.checkout, effect.checkout)}`
              : '';
        report(context, job, { download, reach: effect.reach, run: effect.run, ...found, consequence });
      }
      // An action that downloads the triggering run's artifact itself and reads it as data (artifacts.ts
      // `TRIGGERING_RUN_READERS`): the fork chooses the content, which the action parses and sends or posts with
      // what it is handed; no step gets the files and nothing of them runs. LOW: the fork forges that data.
      for (const download of triggeringRunReads(job)) {
        const reader = download.readBy;
        if (reader === undefined || downloadContent(download, job.workflow, context.repository) !== 'outsider') continue;
        const reach = runs.stepReach(download.step);
        if (!reachable(reach)) continue;
        const handed = [...new Set(secretOccurrencesIn(job.workflow, download.step.with ?? download.step.node).map((o) => o.name).filter((n) => isStoredSecretName(n) && n.toUpperCase() !== 'GITHUB_TOKEN'))];
        const withWhat = handed.length > 0 ? `, with ${handed.slice(0, 3).map((n) => `secret \`${n}\``).join(', ')} it is handed` : '';
        report(context, job, {
          download,
          where: 'the action, which reads them itself',
          reach,
          run,
          severity: 'LOW',
          executes: false,
          consequence: `; the action ${reader.reads}${withWhat}, and no step of the job gets the files (LOW: no code of the fork's runs and the content is parsed as data; at worst ${reader.forged})`,
        });
      }
    },
  }),
});

/**
 * Who makes the use: the step (or job); for a use of outputs a step read them into, that step and how it wrote them
 * first (`their content becomes outputs of step \`Read intent\` (\`cat intent >> "$GITHUB_OUTPUT"\`), which step 3 of
 * job \`apply\` (line 25)`), so the text follows the content from the files to where it goes.
 */
function who(use: ArtifactUse): string {
  if (use.via === undefined) return use.subject ?? describeStep(use.step);
  const line = use.step.owner.file.position(use.step.node.start).line;
  const user = use.subject ?? `${describeStep(use.step)} (line ${line})`;
  // `cat intent >> "$GITHUB_OUTPUT"` writes the file's lines as they are: the file names the outputs too.
  const names = /GITHUB_OUTPUT/.test(use.via.evidence) && !use.via.evidence.includes('=') ? ', which lets the file name the outputs too' : '';
  return `their content becomes outputs of ${describeStep(use.via.step)} (\`${use.via.evidence}\`${names}), and ${user}`;
}

/** A job only trusted authors or collaborators reach (a same-repository condition on the followed run): no claim. */
function reachable(reach: Reach): boolean {
  return reach.level !== 'trusted-author' && reach.level !== 'collaborator';
}

/** Severity and wording of a download, from the model's facts and what later steps do with the files; null: no claim. */
/**
 * `, and nothing else uses their content` (`alone`) when no other use steers anything; else the other uses, which go
 * no further than the one the text leads with (a comment's target, a status, which run a later download fetches):
 * named, never denied.
 */
function besides(others: readonly ArtifactUse[], alone: string): string {
  const [first] = others;
  if (first === undefined) return alone;
  const more = others.length > 1 ? ` (and ${others.length - 1} more such use${others.length > 2 ? 's' : ''})` : '';
  return `, and their other uses go no further: ${first.subject ?? describeStep(first.step)} ${first.detail}${more}`;
}

function judge(runs: RunModel, run: JobRun, reach: Reach, runsThem: boolean, use: ArtifactUse | null, steersOnlyBareJobs: boolean, others: readonly ArtifactUse[] = [], untraced: { text: string; worst: string } | null = null): { severity: Severity; executes: boolean; consequence: string } | null {
  const verdict = downloadSeverity(runs, { run, reach, runsThem, use, steersOnlyBareJobs });
  if (verdict === null) return null;
  const { severity, executes, act } = verdict;
  if (use !== null && act === 'unread-env') {
    return { severity, executes, consequence: `; ${who(use)} ${use.detail}, but no later step of the job runs with it, and no earlier action has a post step to run with it (LOW)` };
  }
  if (executes) {
    const consequence =
      use !== null && act === 'env'
        ? `; ${who(use)} ${use.detail}, which every later step of the job runs with`
        : use !== null && act === 'spliced'
          ? `; ${who(use)} ${use.detail}, so the fork's text runs in that job (also reported by \`script-injection\` where it is expanded)`
          : use !== null && act === 'published'
            ? `; ${who(use)} ${use.detail}, and that step publishes: the fork's files become what the project publishes (a package, a release asset), which runs wherever it is installed`
            : '';
    return { severity, executes, consequence };
  }
  if (use !== null && act === 'bare') {
    return {
      severity,
      executes,
      consequence: `; ${who(use)} ${use.detail}, so their content steers the job, but every job it steers holds ${nothingWorthText(run.holdings)} (LOW: no later step runs them, so the fork decides at most what such a job does and the comments or statuses posted)`,
    };
  }
  if (use !== null && act === 'argv') {
    return { severity, executes, consequence: `; ${who(use)} ${use.detail}, so word splitting lets the fork add options and arguments (\`1 --method DELETE\`, \`--input\`) to that call, made with a token that can write (${severity}: argument injection; no later step runs them)` };
  }
  if (use !== null && act === 'unread-output') {
    return { severity, executes, consequence: `; ${who(use)} ${use.detail}, and no later step or job reads those outputs (LOW: their content reaches only outputs no step reads; no later step runs them)` };
  }
  if (use !== null && act === 'steers') return { severity, executes, consequence: `; ${who(use)} ${use.detail}, so their content steers the job (${severity}: no later step runs them)` };
  const consequence =
    use === null
      ? untraced === null
        ? '; no later step of the job runs them, and their content reaches no command, output or condition the analysis follows (LOW)'
        : `; no later step of the job runs them, and none the analysis follows takes a value from them, but ${untraced.text} (LOW: at worst ${untraced.worst}; nothing of these files runs)`
      : use.kind === 'comment' && use.fixedBody === true
        ? `; ${who(use)} ${use.detail}${besides(others, ', and nothing else uses their content')} (LOW: at worst a fixed comment on an issue or pull request the fork picks; nothing that runs)`
        : use.kind === 'comment'
        ? `; ${who(use)} ${use.detail}${besides(others, ', and nothing else uses their content')} (LOW: at worst a comment of the fork's wording, or on a pull request it picks; nothing that runs)`
        : use.kind === 'gate'
          ? use.runsOutsider === true
            ? `; ${who(use)} ${use.detail}${besides(others, ', and no other use of their content goes further')} (LOW: at worst that step or job runs, or is skipped, when the fork says; none of these values reaches a command unchecked, and nothing of these files runs)`
            : `; ${who(use)} ${use.detail}${besides(others, ', and no other use of their content goes further')} (LOW: at worst the base repository's own step runs, or is skipped, when the fork says; nothing of theirs runs, and none of their values reaches a command unchecked)`
        : use.kind === 'checkout'
          ? `; ${who(use)} ${use.detail}${besides(others, ', and no other use of their content goes further')} (LOW: the pull request's code lands in the workspace, which is what the job checks out by design, and nothing of it runs; the fork picks at most which code sits there)`
        : use.kind === 'pick'
          ? `; ${who(use)} ${use.detail}${besides(others, ', and nothing else uses their content')} (LOW: the fork picks at most which run's artifacts that step fetches, and what those files then do is judged at that download; nothing of these files runs)`
        : use.kind === 'status'
          ? `; ${who(use)} ${use.detail}${besides(others, ', and nothing else uses their content')} (LOW: at worst a spoofed status or check on a commit of the fork's choosing; nothing that runs)`
          : use.kind === 'label'
          ? `; ${who(use)} ${use.detail}${besides(others, ', and nothing else uses their content')} (LOW: at worst a label of the fork's choosing added to or removed from an issue or pull request it picks, with the run's own token, whose events start no workflow; nothing that runs)`
          : `; ${who(use)} ${use.detail}, and no later step runs them${others.length === 0 ? ' or puts their content into a command' : besides(others, '')} (LOW: the fork chooses only the files that upload publishes, such as a preview of its own pull request; nothing runs them)`;
  return { severity, executes, consequence };
}

function report(context: WorkflowRuleContext, job: Job, r: Report): void {
  const { download, reach, run } = r;
  const where = r.where ?? (download.archive === true ? `the archive \`${download.destination ?? ''}\`` : download.isolated ? `\`${download.destination ?? ''}\`, outside the workspace` : download.destination === null ? 'the workspace' : `\`${download.destination}\`, inside the workspace`);
  const claim = jobClaim(run, reach, r.executes);
  const picked = runChoice(download) === 'triggering' ? null : pickedRunText(download, context.repository);
  const who = runChoice(download) === 'triggering' ? whoseRun(job, context.repository) : (picked ?? "the job picks the run (by branch, pull request or a computed id), and a fork's pull request run can be the one picked");
  // A run of this repository's own workflows, into which a fork's data gets only through a run that takes in a pull
  // request: the step's gate is no approval of each run when it also runs on an event nobody approves; say both.
  const unapproved = picked !== null && reach.level === 'approval' ? context.runs.pickerReach(download.step).pickedOn : undefined;
  const starts = unapproved === undefined ? whoText(reach) : `${whoText(reach)} on \`${reach.event ?? 'its privileged event'}\`; its \`${unapproved}\` runs start with no approval, and a fork's data reaches the runs it picks only through a run that takes in a pull request`;
  context.report({
    node: download.node,
    ...(download.scriptOffset !== undefined && download.step.run !== undefined ? { offset: valueOffsetToSource(job.workflow.file, download.step.run, download.scriptOffset) } : {}),
    severity: r.severity,
    message: `${describeStep(download.step)} downloads another run's artifacts (${r.how ?? download.how}) into ${where}; ${who}, which then chooses those files${r.consequence}; ${r.executes ? (unapproved === undefined ? describeClaim(claim) : `${starts}; ${holdsText(claim)}`) : starts}.`,
    facts: [...reachFacts(reach), ...(r.executes ? ['exec'] : []), ...holdingFacts(run), ...runFact(context.runs, download.step)],
  });
}
