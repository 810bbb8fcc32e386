import { cacheStep, npmLockfileOnly, restoreClearedBeforeUse, restoreKeyLines, restoresNpmCacheOnly, type CacheUse } from '../analysis/caching.js';
import { cachingRuns, defaultScopeWriters, heldBackWriters, neverRuns, PATH_ENTRY_RULES, prControlled, writersFor, writerSave, type CacheWriter } from '../analysis/cache-scope.js';
import { describeStep } from '../analysis/describe.js';
import { overlap, sharedOccasion, type RunSet } from '../analysis/run-model/conditions.js';
import { runFact } from '../analysis/run-model/facts.js';
import { publishersOf, publishingConsumers, type Publisher } from '../analysis/run-model/feeds.js';
import { shipsBuild } from '../analysis/publishing.js';
import type { CalledStep } from '../analysis/run-model/index.js';
import { isChatWebhookSecret, isGithubToken, isIdentifierSecret, secretEnv, secretOccurrences } from '../analysis/secrets.js';
import { followsUntrustedRuns } from '../analysis/workflow-run.js';
import { outsiderCheckoutWith, reachedAsOpenly, type OutsiderCheckoutRun } from '../analysis/outsider-code.js';
import type { ReachLevel } from '../analysis/run-model/reach.js';
import type { Job, Step } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import { flatMap } from '../model/arrays.js';

/** At most this many writers are named in a finding's facts (`writer:<file>#<job>`). */
const MAX_WRITER_FACTS = 8;

/**
 * A step of a job as it runs: the cache step itself when it is the job's, else `step X of composite action ...` called
 * by the job's step. A step of an action that action calls in turn (a composite inside a composite) is named in its
 * own file, which its number counts: `which calls \`.github/actions/b/action.yml\`, whose step 1 (line 12)`.
 */
function stepText(called: CalledStep, runs: WorkflowRuleContext['runs']): string {
  if (called.step === called.caller) return describeStep(called.step);
  // A local action by its path, or the repository's own action named by its full name (`owner/repo/path@ref`).
  const ref = called.caller.usesRef;
  const named = ref?.kind === 'local' ? `local action \`${ref.path}\`` : `the repository's own action \`${String(called.caller.uses?.value ?? '')}\``;
  const label = called.step.name !== null ? `\`${called.step.name}\`` : called.step.index + 1;
  const file = called.step.owner.file;
  if (runs.repository.ownAction(called.caller) === called.step.owner) return `${describeStep(called.caller)} (${named}, whose step ${label}`;
  return `${describeStep(called.caller)} (${named}, which calls \`${file.path}\`, whose step ${label} (line ${file.position(called.step.node.start).line})`;
}

/** `step X of job Y` or `step X of job Y (local action ./a, whose step Z ...)` followed by the verb: closes the parenthesis. */
function subject(called: CalledStep, verb: string, runs: WorkflowRuleContext['runs']): string {
  return called.step === called.caller ? `${stepText(called, runs)} ${verb}` : `${stepText(called, runs)} ${verb})`;
}

/** A writer with the step of its own job that saves what the restore reads (cache-scope.ts `writerSave`), or null: it writes by hand. */
interface RankedWriter {
  writer: CacheWriter;
  save: CalledStep | null;
}

/**
 * The writers in the order a finding names them: first the jobs that save, in the normal course, an entry the
 * restore reads (`writerSave`), those that run the very cache step restored (a job that calls the same composite
 * action) before the rest; then the jobs whose code can only write the entry by hand through the runner's cache
 * token; otherwise as found.
 */
function ranked(writers: readonly CacheWriter[], called: CalledStep, use: CacheUse, runs: WorkflowRuleContext['runs']): RankedWriter[] {
  const rank = (r: RankedWriter): number => (r.save === null ? 2 : r.save.step === called.step ? 0 : 1);
  const job = called.caller.job as Job;
  return writers.map((writer) => ({ writer, save: writerSave(writer, use, job, called.caller, runs) })).map((r) => ({ r, n: rank(r) })).sort((a, b) => a.n - b.n).map((x) => x.r);
}

/**
 * The first stored secret (not the run's GITHUB_TOKEN, nor a chat webhook, which only posts to a channel, nor a name
 * that only identifies an account or place: the run model's holdings) a step of `job` from `from` on reads, as
 * `name` and step.
 */
function laterSecret(job: Job, from: number): { name: string; step: Step } | null {
  for (const step of job.steps) {
    if (step.index < from) continue;
    const direct = secretOccurrences(step.owner.file, step.node).map((s) => s.name);
    const inherited = flatMap([...secretEnv(step).values()], (v) => v.secrets);
    const name = [...direct, ...inherited].find((n) => !isGithubToken(n) && !isChatWebhookSecret(job.workflow, n) && !isIdentifierSecret(job.workflow, n));
    if (name !== undefined) return { name, step };
  }
  return null;
}

/**
 * The `writer:<file>#<job>` facts of the writers no approval holds back (at most `MAX_WRITER_FACTS`), which the
 * `cache-poisoning-release` path takes its entry from. When some of them save the restored cache in the normal
 * course and start a path (`PATH_ENTRY_RULES`), only those are named, so the path names a job that writes the entry
 * itself; otherwise every one, and `cache:by-hand` says the path's writer saves no such cache and its code must
 * write the entry through the runner's cache token.
 */
function writerFacts(writers: readonly RankedWriter[]): string[] {
  const open = writers.filter((r) => r.writer.gate === null);
  const natural = open.filter((r) => r.save !== null && PATH_ENTRY_RULES.has(r.writer.rule));
  const named = natural.length > 0 ? natural : open;
  const facts = [...new Set(named.map((r) => `writer:${r.writer.job.workflow.file.path}#${r.writer.job.id}`))].slice(0, MAX_WRITER_FACTS);
  return natural.length === 0 && open.length > 0 ? [...facts, 'cache:by-hand'] : facts;
}

export default defineWorkflowRule({
  meta: {
    id: 'cache-poisoning',
    category: 'CICD-SEC-9',
    title: 'Cache restored in a release or publishing workflow',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'A job that publishes (package upload, `gh release`, image push) or feeds one restores a GitHub Actions cache (`actions/cache`, `actions/cache/restore`, or a `setup-*` action with caching), on a run on which it publishes, steps of local composite actions included. Cache entries of the default branch are written by every run there. HIGH when a workflow of the repository runs an outsider\'s code or text in the default branch\'s cache scope (a checkout or artifact of a pull request that a step runs, or an injection, under `pull_request_target`, `workflow_run`, `issue_comment` ...) with no approval in the way, or saves the same cache from a pull request\'s files: the finding names that job. MEDIUM when that writer needs a maintainer\'s approval or command first (a checked `/test` comment, a `repository_dispatch` only a maintainer\'s command sends) and runs the pull request\'s code as it is when the job runs; LOW when only collaborators\' runs write the scope. Not reported: a restore whose every path lies in the `dist` directory a later `goreleaser release --clean` of the job deletes before it builds. Also MEDIUM: a `pull_request_target` cache save whose key or content the pull request picks. HIGH (MEDIUM behind an approval): a `workflow_run` job following pull request runs that restores a cache an outsider can write and then uses stored secrets. LOW when the job already runs the pull request\'s checkout (reported by untrusted-checkout): the cache adds no way in. One level lower when the restore is npm\'s own cache alone and only `npm ci` reads it back (archives checked against the lockfile\'s hashes).',
    recommendation:
      'Do not restore caches in release and publishing jobs: build them from a clean state (`cache: false`, `lookup-only: true`, no `actions/cache`). Under `pull_request_target`, do not run pull request code, and do not save caches from pull request data.',
  },
  create: (context) => ({
    workflow(workflow) {
      const runs = context.runs;
      const fed = publishingConsumers(workflow, runs);
      const prTarget = workflow.triggers.some((t) => t.name === 'pull_request_target');
      const followsPullRequests = followsUntrustedRuns(workflow);
      // Computed once per scan, and only when a job restores a cache that matters.
      const writers = () => defaultScopeWriters(runs, context.taint);
      for (const job of workflow.jobs) {
        const run = runs.job(job);
        const own = publishersOf(run);
        for (const called of run.steps) {
          const use = cacheStep(called.step);
          if (use === null) continue;
          const { caller } = called;
          const node = called.step === caller ? use.node : (caller.uses ?? caller.node);
          // A restore whose every path a goreleaser release deletes before anything reads it changes nothing shipped.
          if (use.restores && !restoreClearedBeforeUse(job, called.step, use)) {
            const set = cachingRuns(runs, use, caller);
            if (neverRuns(set)) continue;
            const publisher = publisherFor(own, fed.get(job) ?? [], caller, set, context);
            if (publisher !== null) {
              const theirs = writersFor(writers(), use, job, caller, runs);
              // Keyed by the run's own id: no other run's entry is restored, so nothing written elsewhere ships.
              if (use.ownRunOnly && theirs.length === 0) continue;
              reportRelease(context, job, called, use, node, publisher, theirs, () => writersFor(heldBackWriters(runs, context.taint), use, job, caller, runs));
              continue;
            }
            if (followsPullRequests) {
              // A privileged follow-up of pull request runs restores the default branch's cache: an entry an
              // outsider's base-scope run planted there now runs next to the stored secrets.
              const secret = laterSecret(job, caller.index);
              const theirs = writersFor(writers(), use, job, caller, runs).filter((w) => w.job !== job);
              if (secret !== null && theirs.length > 0) {
                const order = ranked(theirs, called, use, runs);
                const writer = (order[0] as RankedWriter).writer;
                const already = redundant(context, caller, runs.stepReach(caller).level);
                const checked = already === null ? npmChecked(called, use, runs) : null;
                // The release ladder (reportRelease): an open writer HIGH, one behind an approval MEDIUM, each one
                // level lower when npm checks every archive against the lockfile; LOW when the job is theirs already.
                const severity = already !== null ? 'LOW' : writer.gate === null ? (checked === null ? 'HIGH' : 'MEDIUM') : checked === null ? 'MEDIUM' : 'LOW';
                context.report({
                  node,
                  job,
                  severity,
                  message: `${subject(called, `restores a cache (${use.how})`, runs)} in a \`workflow_run\` job that follows runs a pull request can start, and ${secret.step === caller ? 'the same step' : describeStep(secret.step)} then uses \`secrets.${secret.name}\`; ${writer.text}${writer.gate === null ? '' : ` ${writer.gate}`}${howWritten(order[0] as RankedWriter, use, `job \`${job.id}\``)}, so an entry an outsider plants in the default branch's cache scope runs with that secret${already !== null ? alreadyText(already) : `${writer.gate === null ? '' : writer.act === undefined ? " (MEDIUM: it takes a maintainer's approval first if that environment requires reviewers)" : " (MEDIUM: it takes a maintainer's approval first)"}${checked !== null ? ` (one level lower: ${checked})` : ''}`}.`,
                  facts: [...runFact(runs, caller), ...writerFacts(order)],
                });
                continue;
              }
            }
          }
          // Under pull_request_target a save writes the base branch's scope, which its runs and releases read.
          if (!prTarget || !use.saves) continue;
          const controlled = prControlled(use, caller, run.workspace, context.taint, (e) => runs.sinksOf(run, e).length > 0);
          if (controlled === null) continue;
          const reach = runs.stepReach(caller);
          if (reach.event !== 'pull_request_target') continue;
          const open = reach.level === 'anyone' || reach.level === 'sticky-label';
          const gated = reach.level === 'approval' || reach.level === 'unreviewed-environment';
          if (!open && !gated) continue;
          const already = redundant(context, caller, reach.level);
          context.report({
            node,
            job,
            severity: open && already === null ? 'MEDIUM' : 'LOW',
            message: `${subject(called, `saves a cache (${use.how})`, runs)} under \`pull_request_target\`, in the base branch's cache scope, and ${controlled.text}; runs on the default branch, releases included, restore it${already !== null ? alreadyText(already) : open ? '' : ` (LOW: ${reach.gates.join(' / ') || 'an approval'} comes first)`}.`,
            facts: runFact(runs, caller),
          });
        }
      }
    },
  }),
});

/**
 * The pull request checkout whose code the job of `step` already runs on the same job run, reached at least as
 * openly as the cache finding's `reach` (outsider-code.ts): the job is the outsider's already, with the same token
 * and secrets, so a way to slip code into it through the cache adds nothing (LOW, naming the checkout, which
 * `untrusted-checkout` reports and whose fix is the fix). Null when the job runs nothing of theirs.
 */
function redundant(context: WorkflowRuleContext, step: Step, level: ReachLevel): OutsiderCheckoutRun | null {
  const theirs = outsiderCheckoutWith(context.runs, step);
  return theirs !== null && reachedAsOpenly(theirs.reach, level) ? theirs : null;
}

function alreadyText(theirs: OutsiderCheckoutRun): string {
  return ` (LOW: the job already runs the outsider's code, ${theirs.text}, which untrusted-checkout reports: with their code running in the job, the cache adds no way in, and the fix is that checkout)`;
}

/**
 * The publishing step a restore feeds on a run where both happen: a later step of its own job whose runs
 * overlap the restore's, or a job it hands artifacts to that publishes on a common occasion. Null when none
 * does: a release or tag trigger alone publishes nothing, and neither does a GitHub release of the tagged
 * source without assets (`shipsBuild`): nothing a cache entry changes reaches it.
 */
function publisherFor(own: readonly Publisher[], consumers: readonly Job[], caller: Step, set: RunSet | undefined, context: WorkflowRuleContext): Publisher | null {
  const runs = context.runs;
  const same = own.find((p) => {
    if (p.caller.index < caller.index || !shipsBuild(p.publishing)) return false;
    const theirs = runs.runSet(p.caller);
    return set === undefined || theirs === undefined || overlap(set, theirs);
  });
  if (same !== undefined) return same;
  for (const job of consumers) {
    for (const p of publishersOf(runs.job(job))) {
      if (!shipsBuild(p.publishing)) continue;
      const theirs = runs.runSet(p.caller);
      if (set === undefined || theirs === undefined || sharedOccasion(set, theirs)) return p;
    }
  }
  return null;
}

/**
 * When the restore brings back only npm's own cache and the job installs from it only with `npm ci`
 * (caching.ts `npmLockfileOnly`): the clause that says what stands in the way, else null. npm takes each package
 * archive from the cache by the lockfile's integrity hash and refuses bytes that do not match it, so a planted
 * archive does not run; what else the directory holds (prebuilt binaries some packages' install scripts keep in
 * it, packages npx installed) reaches the build only through those scripts or through npx, which the job does
 * not run. One level lower than the same writer would make it otherwise.
 */
function npmChecked(called: CalledStep, use: CacheUse, runs: WorkflowRuleContext['runs']): string | null {
  if (!restoresNpmCacheOnly(use)) return null;
  const steps = runs.job(called.caller.job as Job).steps;
  const from = steps.findIndex((s) => s.step === called.step);
  const found = npmLockfileOnly(steps.slice(from + 1));
  if (found === null) return null;
  return `\`${found.command}\` (${describeStep(found.step)}) installs every package archive by the lockfile's integrity hash, and npm refuses one whose bytes do not match, so a planted archive does not run; what else npm's cache directory holds (prebuilt binaries that some packages' install scripts keep there, packages npx installed) reaches the build only through those scripts or npx, which the job does not run`;
}

/** Whose code or text a writer's run executes, in words. */
function writerCode(writer: CacheWriter): string {
  switch (writer.rule) {
    case 'untrusted-checkout':
      return "the pull request's code";
    case 'artifact-poisoning':
      return "code from another run's artifacts";
    case 'cache-poisoning':
      return 'a cache save whose key or content the pull request picks';
    default:
      return "the outsider's text, run as code";
  }
}

/**
 * How the writer's job puts the entry where the restore finds it, as a clause after the writer's text: the step of
 * its own that saves the cache the restore reads, or, when it saves none, the by-hand way through the runner's cache
 * token and when `who` (the release, the job) takes such an entry: entries are immutable per key and scope, so only
 * while its key has no entry yet, then also under one of its restore keys, or once the legitimate entry is evicted.
 */
function howWritten(r: RankedWriter, use: CacheUse, who: string, several = false): string {
  const { writer, save } = r;
  if (save !== null) {
    const how = writer.save?.how ?? cacheStep(save.step)?.how ?? '';
    if (writer.save !== undefined) return ` (the same cache: ${how})`;
    const inside = save.step === save.caller ? '' : ` (inside \`${save.step.owner.file.path}\`)`;
    return `, and ${describeStep(save.caller)}${inside} there saves the cache this restore reads (${how})`;
  }
  const prefixes = restoreKeyLines(use);
  const prefix = prefixes.length === 0 ? '' : `, then also as the newest entry under its restore key${prefixes.length > 1 ? 's' : ''} ${prefixes.map((p) => `\`${p}\``).join(', ')}`;
  const jobs = several ? 'none of these jobs saves a cache' : `job \`${writer.job.id}\` saves no cache`;
  return `; ${jobs} this restore reads, but code running there can save an entry under any key through the runner's cache token, which ${who} takes only while its own key has no entry yet (a new lockfile or cache key)${prefix}, or once the legitimate entry is evicted (unused for 7 days, or the oldest past the repository's cache limit, 10 GB by default, which writing enough entries forces)`;
}

function reportRelease(context: WorkflowRuleContext, job: Job, called: CalledStep, use: CacheUse, node: CacheUse['node'], publisher: Publisher, writers: readonly CacheWriter[], heldBack: () => readonly CacheWriter[]): void {
  const publishingJob = publisher.caller.job as Job;
  const why =
    publishingJob === job
      ? `job \`${job.id}\` publishes (${publisher.publishing.evidence}, ${describeStep(publisher.caller)}) on the same runs`
      : `job \`${job.id}\` feeds a publishing job (${publisher.publishing.evidence} in \`${publishingJob.id}\`)`;
  const order = ranked(writers, called, use, context.runs);
  const open = order.filter((r) => r.writer.gate === null);
  const gated = order.find((r) => r.writer.gate !== null)?.writer;
  const first = open[0]?.writer;
  let severity: 'HIGH' | 'MEDIUM' | 'LOW';
  let tail: string;
  // The outsider who writes the cache runs their code in this very job already (at least as openly as they write it).
  const writerLevel: ReachLevel | null = first !== undefined ? 'anyone' : gated !== undefined ? 'approval' : null;
  const already = writerLevel === null ? null : redundant(context, called.caller, writerLevel);
  if (already !== null) {
    severity = 'LOW';
    tail = `, and ${(first ?? gated)?.text ?? ''}, so an outsider can write them${alreadyText(already)}.`;
  } else if (first !== undefined) {
    const checked = npmChecked(called, use, context.runs);
    severity = checked === null ? 'HIGH' : 'MEDIUM';
    const more = open.length > 1 ? ` (and ${open.length - 1} more)` : '';
    // Ranked: when the first writer saves no such cache, none of the others does either.
    const way = (open[0] as RankedWriter).save === null ? `${more}${howWritten(open[0] as RankedWriter, use, 'the release', new Set(open.map((r) => r.writer.job)).size > 1)}` : `${howWritten(open[0] as RankedWriter, use, 'the release')}${more}`;
    tail = `, and ${first.text}${way}, so anyone with a GitHub account can write them${checked === null ? ', and the release ships what they planted.' : ` (MEDIUM: ${checked}).`}`;
  } else if (gated !== undefined) {
    const checked = npmChecked(called, use, context.runs);
    severity = checked === null ? 'MEDIUM' : 'LOW';
    const held = context.runs.job(publishingJob).valuables;
    const holds = held.length === 0 ? '' : `, with what job \`${publishingJob.id}\` holds (${held.join(', ')})`;
    const act = gated.act;
    // Behind an approval: who starts the run; behind an environment nobody could check: whether it stops anyone.
    const text = gated.rule === 'script-injection' || gated.rule === 'github-env-injection';
    const who = act === undefined ? 'unless that environment\'s reviewers stop the run' : `by ${text ? 'changing that text' : 'pushing'} after ${act}`;
    const why = act === undefined ? 'the environment may require a reviewer' : `not without ${act}`;
    const way = howWritten(order.find((r) => r.writer === gated) as RankedWriter, use, 'the release');
    const outcome = checked === null ? `, and the release ships what they planted${holds} (MEDIUM: ${why}).` : ` (LOW: ${why}, and ${checked}).`;
    tail = `, and ${gated.text} ${gated.gate ?? ''}${way}; what runs there is ${writerCode(gated)}, so an outsider can write those entries ${who}${outcome}`;
  } else {
    severity = 'LOW';
    tail = lowTail(ranked(heldBack(), called, use, context.runs)[0], use);
  }
  context.report({
    node,
    job,
    severity,
    message: `${subject(called, `restores a cache (${use.how})`, context.runs)} and ${why}; cache entries written by runs in the default branch's cache scope end up in what it ships${tail}`,
    facts: ['holds:publish', ...runFact(context.runs, called.caller), ...writerFacts(order)],
  });
}

/**
 * The end of a release finding no outsider's writer reaches (LOW). With no job running pull request code in the
 * default branch's scope at all: no workflow does. With one behind a collaborator's act (`heldBackWriters`: a
 * comment command from someone the condition trusts, an approval of the very commit that runs), that job, its gate
 * and the cache step it saves the restored cache with, first: it does run pull request code in that scope, but no
 * outsider starts it.
 */
function lowTail(held: RankedWriter | undefined, use: CacheUse): string {
  const hygiene = 'restoring no cache in releases is still the safer build';
  if (held === undefined) {
    return `. No workflow of the repository runs an outsider's code or text in the default branch's cache scope, so writing those entries takes a collaborator's merged code, or a compromised dependency or action of a default-branch run (LOW: nobody outside the repository can start it; ${hygiene}).`;
  }
  const { writer } = held;
  const saves = held.save === null ? '' : howWritten(held, use, 'the release');
  return `. ${writer.text}, in the default branch's cache scope, ${writer.gate ?? ''}${saves}; no workflow of the repository runs an outsider's code or text there without such an act, so writing those entries takes ${writer.act ?? "a collaborator's act"}, a collaborator's merged code, or a compromised dependency or action of a default-branch run (LOW: nobody outside the repository starts such a run by themselves; ${hygiene}).`;
}
