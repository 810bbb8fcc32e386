import type { Job, Step } from '../model/workflow.js';
import { logicalLines, words } from '../shell.js';
import { get, getText, keyText, type YNode } from '../yaml/model.js';
import { ScanCache } from '../model/scan-cache.js';

/** A step that downloads artifacts of another workflow run (for a `workflow_run` workflow, the triggering one). */
export interface ForeignDownload {
  step: Step;
  /** The node to report: the `uses:` of an action, or the `run:` script. */
  node: YNode;
  /** Offset of the command inside a `run:` script, as a value offset. */
  scriptOffset?: number;
  /** How it downloads: `actions/download-artifact with run-id`, `gh run download` ... */
  how: string;
  /** Where the files land, as written; null for the working directory by default. */
  destination: string | null;
  /** True when the destination is outside the workspace (`${{ runner.temp }}`, `/tmp/...`). */
  isolated: boolean;
}

/** Actions that download artifacts from other runs whatever their inputs. */
const CROSS_RUN_ACTIONS = new Set(['dawidd6/action-download-artifact', 'aochmann/actions-download-artifact', 'bettermarks/action-artifact-download']);
const ISOLATED = /^\s*["']?(\$\{\{\s*runner\.temp\s*\}\}|\$\{?RUNNER_TEMP\b|%RUNNER_TEMP%|\$env:RUNNER_TEMP|\/tmp(\/|$)|\/dev\/shm\/|\$\{\{\s*github\.action_path)/;
const SCRIPT_ISOLATED = /RUNNER_TEMP|runner\.temp|['"`]\/tmp\//;

/** The steps of a job that download artifacts of another run, in order. */
export function foreignDownloads(job: Job): ForeignDownload[] {
  return job.steps.flatMap(stepDownloads);
}

export function stepDownloads(step: Step): ForeignDownload[] {
  const ref = step.usesRef;
  if (ref?.kind === 'repository' && step.uses !== undefined) {
    const slug = ref.slug;
    if (slug === 'actions/download-artifact' && hasInput(step, 'run-id')) {
      return [download(step, step.uses, `actions/download-artifact with \`run-id: ${getText(step.with, 'run-id') ?? ''}\``, getText(step.with, 'path'))];
    }
    if (CROSS_RUN_ACTIONS.has(slug)) return trustedRunsOnly(step) ? [] : [download(step, step.uses, slug, getText(step.with, 'path'))];
    if (slug === 'actions/github-script') {
      const script = getText(step.with, 'script');
      if (script === null || !/\bdownloadArtifact\b/.test(script)) return [];
      const isolated = SCRIPT_ISOLATED.test(script) && !/GITHUB_WORKSPACE/.test(script);
      return [{ step, node: step.uses, how: 'actions/github-script (`downloadArtifact`)', destination: null, isolated }];
    }
    return [];
  }
  const run = step.run;
  if (run === undefined || typeof run.value !== 'string' || !run.value.includes('gh run download')) return [];
  const result: ForeignDownload[] = [];
  for (const line of logicalLines(run.value)) {
    const list = words(line.text);
    const at = list.findIndex((w, i) => w === 'gh' && list[i + 1] === 'run' && list[i + 2] === 'download');
    if (at === -1) continue;
    const args = list.slice(at + 3);
    const flag = args.findIndex((a) => a === '-D' || a === '--dir' || a.startsWith('--dir='));
    const dir = flag === -1 ? null : args[flag]?.startsWith('--dir=') ? (args[flag]?.slice(6) ?? null) : (args[flag + 1] ?? null);
    result.push({ ...download(step, run, '`gh run download`', dir), scriptOffset: line.offset });
  }
  return result;
}

function download(step: Step, node: YNode, how: string, destination: string | null): ForeignDownload {
  return { step, node, how, destination, isolated: destination !== null && ISOLATED.test(destination) };
}

/** Events only collaborators (or GitHub on their behalf) cause: their runs' artifacts are the base repository's. */
const TRUSTED_RUN_EVENTS = /^(push|schedule|workflow_dispatch|release|merge_group)$/;

/**
 * `dawidd6/action-download-artifact` searching runs by `event:` alone (no `run_id`, `run_number`, `commit` or
 * `pr` naming the triggering or a pull request's run): with a collaborator-only event such as `push`, it
 * downloads from the base repository's own runs (vuejs/core's size-report fetches the base branch's `push`
 * size data), whatever branch name a pull request picks.
 */
function trustedRunsOnly(step: Step): boolean {
  const event = getText(step.with, 'event');
  return event !== null && TRUSTED_RUN_EVENTS.test(event.trim()) && !['run_id', 'run_number', 'commit', 'pr'].some((name) => hasInput(step, name));
}

function hasInput(step: Step, name: string): boolean {
  const pair = step.with?.pairs.find((p) => keyText(p.key) === name);
  return pair !== undefined && get(step.with, name)?.kind === 'scalar' && getText(step.with, name) !== null;
}

/** A shell line that reads a file's content (`$(cat x)`, `< x`, `jq ... x`, `read`). */
export const READS_FILE = /\$\(\s*<|\$\(\s*(cat|head|tail|jq|yq|awk|sed|grep|cut|tr|unzip|base64|xargs)\b|`\s*(cat|head|tail|jq)\b|(^|[;&|]\s*)(cat|head|tail|jq|yq|awk|sed|grep|cut)\b|<\s*["']?[\w./$-]|\bread\b|Get-Content/;

const firstDownloads = new ScanCache<Job, Step | null>();

/** An earlier step of the job that downloaded artifacts of another run (`run-id`, `gh run download` ...), or null. */
export function earlierForeignDownload(step: Step): Step | null {
  const job = step.job;
  if (job === null) return null;
  let first = firstDownloads.get(job);
  if (first === undefined) {
    first = job.steps.find((s) => stepDownloads(s).length > 0) ?? null;
    firstDownloads.set(job, first);
  }
  return first !== null && first.index < step.index ? first : null;
}

