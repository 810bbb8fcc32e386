/**
 * Self-hosted runners this repository already opens to forks, computed once per scan: a job on a definite
 * self-hosted runner (runners.ts `selfHosted`, certain) that runs a pull request's code with no approval (a fork's
 * `pull_request` run that checks out the event's code, or a privileged run that checks out pull request code,
 * that anyone reaches, followed by a step that runs it). Any other job that can only land on those same runners
 * (its `runs-on` names the same group, or no group, and every label of the fork-running job: a runner that takes
 * it also takes the fork-running job) gives an outsider nothing on the machine that a fork's pull request does not
 * already give them: an approval race or a third party's mutable action or image there adds no way in. Such a
 * job's self-hosted machine is held but not worth taking (holdings.ts `runnerOpenToForks`; facts.ts gives it no
 * `holds:self-hosted`, so no foothold path runs through it). A reusable workflow's labels named by its inputs
 * (`${{ inputs.runner_arch }}`) are read per local caller, from what it passes or the input's default; a fork-running
 * job whose labels cannot be read still opens its own runners.
 */
import type { Job } from '../../model/workflow.js';
import { asList, get, getMap, getScalar, keyText, scalarText } from '../../yaml/model.js';
import { localCallers } from '../callers.js';
import { selfHosted } from '../runners.js';
import { legLabels, legsOf } from './conditions.js';

/** One way a job's `runs-on` selects runners: its group (lower case, or null) and its labels (lower case). */
interface RunnerKey {
  group: string | null;
  labels: ReadonlySet<string>;
}

/** At most this many label sets per job (matrix legs), beyond which the job's runners are not compared. */
const MAX_KEYS = 16;

/**
 * The label sets (one per matrix leg, the same set once) a job's `runs-on` selects, or null when they cannot be
 * read. Each set is one leg's (conditions.ts `legsOf`): two include entries `{os: self-hosted, arch: x64}` and
 * `{os: ubuntu-latest, arch: arm64}` select `self-hosted x64` and `ubuntu-latest arm64`, never `self-hosted arm64`.
 */
export function runnerKeys(job: Job): RunnerKey[] | null {
  const runsOn = job.runsOn;
  if (runsOn === undefined) return null;
  const groupNode = runsOn.kind === 'map' ? getScalar(runsOn, 'group') : undefined;
  const group = groupNode === undefined ? null : scalarText(groupNode);
  if (group !== null && group.includes('${{')) return null;
  const labelsNode = runsOn.kind === 'map' ? get(runsOn, 'labels') : runsOn;
  const written: string[] = [];
  for (const item of asList(labelsNode)) {
    const text = item.kind === 'scalar' ? scalarText(item) : null;
    if (text === null) return null;
    written.push(text);
  }
  // A reusable workflow's `${{ inputs.x }}` labels: one set of labels per local caller, from what it passes.
  const variants = inputVariants(job, written);
  if (variants === null) return null;
  const keys = new Map<string, RunnerKey>();
  for (const variant of variants) {
    const texts: string[] = [];
    for (const text of written) {
      const resolved = substituteInputs(text, variant);
      if (resolved === null) return null;
      texts.push(resolved);
    }
    if (!addLegKeys(job, group, texts, keys)) return null;
  }
  return [...keys.values()];
}

/** `${{ inputs.name }}` in a label, the whole expression one input. */
const INPUT_LABEL = /\$\{\{\s*inputs\.([A-Za-z_][\w-]*)\s*\}\}/g;

/**
 * The values of the inputs a reusable workflow's labels name, one map (input name, lower case, to its value) per
 * local caller: what it passes in `with:`, else the input's `default:`; [empty] when the labels name no input, null
 * when a value is not known (no local caller, an expression passed, no default).
 */
function inputVariants(job: Job, texts: readonly string[]): ReadonlyMap<string, string>[] | null {
  const names = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(INPUT_LABEL)) names.add((match[1] ?? '').toLowerCase());
  if (names.size === 0) return [new Map()];
  const callers = localCallers(job.workflow);
  if (callers.length === 0) return null;
  const declared = getMap(job.workflow.triggers.find((t) => t.name === 'workflow_call')?.config, 'inputs');
  const seen = new Map<string, ReadonlyMap<string, string>>();
  for (const caller of callers) {
    const values = new Map<string, string>();
    for (const name of names) {
      const passed = caller.with?.pairs.find((p) => keyText(p.key).toLowerCase() === name)?.value;
      const fallback = declared?.pairs.find((p) => keyText(p.key).toLowerCase() === name)?.value;
      const node = passed ?? (fallback === undefined ? undefined : get(fallback, 'default'));
      const value = node?.kind === 'scalar' ? scalarText(node) : null;
      if (value === null || value.includes('${{')) return null;
      values.set(name, value);
    }
    seen.set([...values.entries()].map(([k, v]) => `${k}=${v}`).join('\u0000'), values);
    if (seen.size > MAX_KEYS) return null;
  }
  return [...seen.values()];
}

/** `text` with its `${{ inputs.x }}` replaced by the variant's values; null when one is missing. */
function substituteInputs(text: string, variant: ReadonlyMap<string, string>): string | null {
  if (variant.size === 0 || !text.includes('inputs.')) return text;
  let missing = false;
  const out = text.replace(INPUT_LABEL, (_, name: string) => {
    const value = variant.get(name.toLowerCase());
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? null : out;
}

/** Adds the label sets of each matrix leg of `texts` to `keys`; false when they cannot be read or are too many. */
function addLegKeys(job: Job, group: string | null, texts: readonly string[], keys: Map<string, RunnerKey>): boolean {
  // Without matrix values in `runs-on`, every leg selects the same runners, however many legs there are.
  const legs = texts.some((t) => t.includes('${{')) ? legsOf(job) : [new Map()];
  if (legs === null || legs.length === 0) return false;
  for (const leg of legs) {
    const labels: string[] = [];
    for (const text of texts) {
      const values = text.includes('${{') ? legLabels(text, leg) : [text];
      if (values === null) return false;
      for (const value of values) {
        // A matrix value may itself be a list of labels written as text (`'["self-hosted", "gpu"]'`).
        const trimmed = value.trim();
        const parts = trimmed.startsWith('[') ? listOf(trimmed) : [trimmed];
        if (parts === null) return false;
        labels.push(...parts);
      }
    }
    const set = new Set(labels.map((l) => l.trim().toLowerCase()).filter((l) => l !== ''));
    keys.set([...set].sort().join('\u0000'), { group: group?.trim().toLowerCase() ?? null, labels: set });
    if (keys.size > MAX_KEYS) return false;
  }
  return true;
}

function listOf(text: string): string[] | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((v) => typeof v === 'string') ? (parsed as string[]) : null;
  } catch {
    return null;
  }
}

/** True when every runner `target` can get can also take a job that `open` selects. */
function covers(open: RunnerKey, target: RunnerKey): boolean {
  if (open.group !== target.group) return false;
  if (open.labels.size === 0 && open.group === null) return false;
  for (const label of open.labels) if (!target.labels.has(label)) return false;
  return true;
}

/** A job that runs forks' code on its self-hosted runners with no approval, and the runners it selects. */
export interface OpenRunner {
  job: Job;
  keys: readonly RunnerKey[];
}

/**
 * The fork-running job whose runners every runner of `job` is one of (itself first, when it is one), or null.
 * `open`: the repository's fork-running jobs (`openRunners`).
 */
export function openedBy(job: Job, open: readonly OpenRunner[]): Job | null {
  if (open.length === 0 || selfHosted(job)?.certain !== true) return null;
  // The job itself runs forks' code there, whichever runners its labels select.
  if (open.some((o) => o.job === job)) return job;
  const keys = runnerKeys(job);
  if (keys === null || keys.length === 0) return null;
  // Every leg of the job lands on runners some fork-running job's leg also lands on.
  for (const candidate of open) {
    if (keys.every((k) => candidate.keys.some((o) => covers(o, k)))) return candidate.job;
  }
  return null;
}

/**
 * The repository's jobs on definite self-hosted runners that run forks' pull request code with no approval
 * (`runsForksCode`, the run model's test), with their runner keys.
 */
export function openRunners(jobs: Iterable<Job>, runsForksCode: (job: Job) => boolean): OpenRunner[] {
  const found: OpenRunner[] = [];
  for (const job of jobs) {
    if (selfHosted(job)?.certain !== true) continue;
    // Labels that cannot be read still open the job's own runners (`openedBy`), none of another job's.
    if (runsForksCode(job)) found.push({ job, keys: runnerKeys(job) ?? [] });
  }
  return found;
}

/** `job \`unit-tests\` of \`.github/workflows/ci.yml\``, or `this job` for the job itself. */
export function openRunnerWords(by: Job, job: Job): string {
  const where = by === job ? 'this job itself' : by.workflow === job.workflow ? `job \`${by.id}\` of this workflow` : `job \`${by.id}\` of \`${by.workflow.file.path}\``;
  return `the same self-hosted runners already run forks' pull requests with no approval in ${where}`;
}
