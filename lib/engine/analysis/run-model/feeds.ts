/**
 * Which jobs publish what a job builds: the jobs that need it, directly or through other jobs, when every job on
 * the way hands files over as an artifact the next one downloads (by name or pattern; test reports another job
 * never downloads feed nothing). A job that feeds a publish ships what runs in it, as much as one that publishes
 * itself: a tampered tool or cache entry in the build job ends up in the release.
 */
import type { Job, Workflow } from '../../model/workflow.js';
import { ScanCache } from '../../model/scan-cache.js';
import { getText } from '../../yaml/model.js';
import { publishesForRealIn, publishingStep, type PublishingStep } from '../publishing.js';
import type { CalledStep, JobRun, RunModel } from './index.js';
import { flatMap } from '../../model/arrays.js';

export interface Publisher {
  publishing: PublishingStep;
  /** The job's own step that runs it (the step itself, or the step calling the local action that holds it). */
  caller: CalledStep['caller'];
}

/** The real publishing steps of a job, steps of local composite actions included at their call. */
export function publishersOf(run: JobRun): Publisher[] {
  return flatMap(run.steps, ({ step, caller }) => {
    const publishing = publishingStep(step);
    return publishing !== null && publishesForRealIn(publishing, caller.job) ? [{ publishing, caller }] : [];
  });
}

/** The literal beginning of an artifact name or pattern: up to its first `${{` or glob character. */
function namePrefix(text: string): string {
  const cut = text.search(/\$\{\{|[*?[]/);
  return (cut === -1 ? text : text.slice(0, cut)).trim();
}

/** Names (their literal beginnings) of the artifacts a job uploads; empty when it uploads none. */
function uploads(run: JobRun): string[] {
  return flatMap(run.steps, ({ step }) => {
    if (step.usesRef?.kind !== 'repository' || !/^actions\/upload(-pages)?-artifact$/.test(step.usesRef.slug)) return [];
    return [namePrefix(getText(step.with, 'name') ?? (step.usesRef.slug === 'actions/upload-pages-artifact' ? 'github-pages' : 'artifact'))];
  });
}

/** What a job downloads of its run's artifacts: the literal beginnings of the names or patterns it asks for, or `all`. */
function downloads(run: JobRun): string[] | 'all' {
  const names: string[] = [];
  for (const { step } of run.steps) {
    if (step.usesRef?.kind !== 'repository' || step.usesRef.slug !== 'actions/download-artifact' || getText(step.with, 'run-id') !== null) continue;
    const name = getText(step.with, 'name') ?? getText(step.with, 'pattern');
    if (name === null) return 'all';
    names.push(namePrefix(name));
  }
  return names;
}

/** True when a job that downloads `wanted` can receive one of the artifacts named `offered`. */
function receives(wanted: string[] | 'all', offered: readonly string[]): boolean {
  if (offered.length === 0) return false;
  if (wanted === 'all') return true;
  return wanted.some((w) => offered.some((o) => w.startsWith(o) || o.startsWith(w)));
}

const cache = new ScanCache<Workflow, Map<Job, Job[]>>();

/** For each job of the workflow, the publishing jobs it feeds through artifacts (read once per workflow). */
export function publishingConsumers(workflow: Workflow, runs: RunModel): ReadonlyMap<Job, readonly Job[]> {
  let found = cache.get(workflow);
  if (found === undefined) {
    found = readConsumers(workflow, runs);
    cache.set(workflow, found);
  }
  return found;
}

/** The publishing jobs a job feeds through artifacts (not counting its own publishing steps). */
export function feedsPublish(job: Job, runs: RunModel): readonly Job[] {
  return publishingConsumers(job.workflow, runs).get(job) ?? [];
}

function readConsumers(workflow: Workflow, runs: RunModel): Map<Job, Job[]> {
  const byId = new Map(workflow.jobs.map((j) => [j.id, j]));
  const result = new Map<Job, Job[]>();
  for (const publisher of workflow.jobs) {
    if (publishersOf(runs.job(publisher)).length === 0) continue;
    const seen = new Set<Job>([publisher]);
    const queue = [publisher];
    while (queue.length > 0) {
      const job = queue.pop() as Job;
      const wanted = downloads(runs.job(job));
      for (const id of job.needs) {
        const needed = byId.get(id);
        if (needed === undefined || seen.has(needed) || !receives(wanted, uploads(runs.job(needed)))) continue;
        seen.add(needed);
        queue.push(needed);
        const list = result.get(needed) ?? [];
        list.push(publisher);
        result.set(needed, list);
      }
    }
  }
  return result;
}
