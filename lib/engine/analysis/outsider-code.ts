/**
 * Whether an outsider steers code that runs in a job, for rules that ask more than who can start it (a
 * long-lived token is theirs only if something they write runs beside it): code of theirs that a step runs (a
 * pull request's checkout or another run's artifacts, traced by the run model to the step that executes it), or
 * their text expanded into a script or written to `$GITHUB_ENV` / `$GITHUB_PATH` (injections.ts, at the
 * severities an outsider reaches: anyone, a sticky label, an environment nobody could check).
 */
import { describeStep } from './describe.js';
import { envInjections, scriptInjections, type InjectionHit } from './injections.js';
import type { RunModel } from './run-model/index.js';
import type { TaintAnalyzer } from '../expressions/taint.js';
import type { Job } from '../model/workflow.js';
import { ScanCache } from '../model/scan-cache.js';

const cache = new ScanCache<Job, string | null>();

const strong = (hit: InjectionHit) => hit.severity === undefined || hit.severity === 'HIGH' || hit.severity === 'MEDIUM';

/** How an outsider steers code in `job`, in words naming the step (`step \`Test\` of job \`ci\` runs …`); null when nothing they write runs there. */
export function outsiderSteering(job: Job, runs: RunModel, taint: TaintAnalyzer): string | null {
  let found = cache.get(job);
  if (found === undefined) {
    found = readSteering(job, runs, taint);
    cache.set(job, found);
  }
  return found;
}

function readSteering(job: Job, runs: RunModel, taint: TaintAnalyzer): string | null {
  const run = runs.job(job);
  for (const entry of run.workspace) {
    if (entry.content !== 'outsider' || entry.checkout?.hiddenBy === 'trusted-author') continue;
    const sink = runs.sinksOf(run, entry)[0];
    if (sink !== undefined) return `${describeStep(sink.step)} runs ${sink.execution.evidence} from ${entry.kind === 'checkout' ? 'their checkout' : 'their artifacts'} (${entry.how})`;
  }
  for (const { step } of run.steps) {
    if (scriptInjections(step, taint, runs).some(strong)) return `${describeStep(step)} expands their text into code it runs`;
    if (step.job !== null && envInjections(step, taint).some(strong)) return `${describeStep(step)} writes their text to \`$GITHUB_ENV\` or \`$GITHUB_PATH\``;
  }
  return null;
}
