import type { RepositoryModel } from '../model/repository.js';
import { privilegedTriggers, type Action, type Job, type Step, type Workflow } from '../model/workflow.js';
import { followedWorkflows, runsOnPullRequests } from './workflow-run.js';
import { commandName, logicalLines, pipelines, words, type ScriptSpan } from '../shell.js';
import { substitutionBodies, unquotedExpansions } from './shell-vars.js';
import { fetchesArtifactArchive, fetchOf } from './remote-fetch.js';
import { checkedLine, feedingLines, githubScriptChecks, JS_NUMBER, outputLines, outputSources, plainCopy, validatedVariables } from './script-outputs.js';
import { usesOnlyValidated } from './validation.js';
import { forwardedInput, inputAtCaller } from './action-inputs.js';
import { get, getText, keyText, scalarText, type YMap, type YNode, type YPair } from '../yaml/model.js';
import { ScanCache, ScanMemo } from '../model/scan-cache.js';
import { commentSink, fixedCommentBody, jobNotices, labelCommand, labelSink, runToken, scriptDoesMore, stepNotice, type Notice } from './notices.js';
import { isCheckoutAction, isFullSha } from '../model/uses.js';
import { compareVersions, parseRefVersion, versionComment, type RefVersion } from './action-version.js';
import { flatMap } from '../model/arrays.js';
import { calledLocalWorkflow } from './callers.js';
import { Binary, contextPath, FunctionCall, functionName, Grouping, Literal, Logical, parseExpression, Unary, type Expr } from '../expressions/parse.js';
import { constantTruthiness } from './constant-expressions.js';
import { conditionTruth, occasionsOf } from './run-model/conditions.js';

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
  /**
   * True when the destination is outside the workspace (`${{ runner.temp }}`, `/tmp/...`), or is an archive the
   * download leaves whole (`archive`): either way, its files are in the workspace only where a script extracts them.
   */
  isolated: boolean;
  /** The download is one archive file in the workspace (`destination`), not its files (`writtenArchive`). */
  archive?: true;
  /**
   * For a download made by a step of the repository's own composite action (`uses: ./dir`, `step` the workflow step
   * that calls it): that action's download step as the call gives it its inputs (`calledDownloads`), from which
   * the run it fetches and the artifact's name are read.
   */
  as?: Step;
  /**
   * A third-party action that downloads the triggering run's artifact itself and reads it as data
   * (`TRIGGERING_RUN_READERS`): nothing of it lands where a later step runs it (`triggeringRunReads`).
   */
  readBy?: TriggeringRunReader & { slug: string; artifact: string };
}

/**
 * An action that, run on `workflow_run`, downloads an artifact of the run that triggered it by itself (through the
 * API, with the token it is given) and reads its content as data, which it sends to its service or posts: no
 * step of the job gets the files, and the action runs none of their content.
 */
export interface TriggeringRunReader {
  /** The input that names the artifact; `defaultName` when it is not set. */
  artifactInput: string;
  defaultName: string | null;
  /** An input without which the action downloads nothing (it reads a file of the workspace instead); null: it always does on `workflow_run`. */
  requires: string | null;
  /** What it does with the content, in words (`reads the bundle stats in it and sends them to RelativeCI`). */
  reads: string;
  /** What a fork that forges the content gets, in words. */
  forged: string;
  /** The action's documentation of its `workflow_run` mode. */
  source: string;
}

/** Actions that download the triggering run's artifact themselves on `workflow_run` (`TriggeringRunReader`). */
export const TRIGGERING_RUN_READERS: Readonly<Record<string, TriggeringRunReader>> = {
  // On `workflow_run` it lists the triggering run's artifacts (`github.event.workflow_run.id`), downloads the one
  // `artifactName` names (default `relative-ci-artifacts`) with `token`, parses its bundle stats JSON in memory,
  // validates it and sends it to RelativeCI's ingest API with `key`.
  'relative-ci/agent-action': {
    artifactInput: 'artifactName',
    defaultName: 'relative-ci-artifacts',
    requires: null,
    reads: 'parses the bundle stats in it as JSON and sends them to RelativeCI',
    forged: "a bundle-size report of the fork's making on RelativeCI, and in what it posts on the pull request",
    source: 'https://github.com/relative-ci/agent-action#workflow_run-events',
  },
  // With `artifact:` on `workflow_run` it downloads the matching artifacts of the triggering run as zip files,
  // parses the test results in them and creates a check run with the token.
  'dorny/test-reporter': {
    artifactInput: 'artifact',
    defaultName: null,
    requires: 'artifact',
    reads: 'parses the test results in it and creates a check run with them',
    forged: "a test report (a check run) of the fork's making on its own commit",
    source: 'https://github.com/dorny/test-reporter#recommended-setup-for-public-repositories',
  },
  // With `GITHUB_PR_RUN_ID` (the triggering run's id) it downloads the comment artifact (`COMMENT_ARTIFACT_NAME`,
  // default `python-coverage-comment-action`) of that run and posts the comment it holds on the pull request.
  'py-cov-action/python-coverage-comment-action': {
    artifactInput: 'COMMENT_ARTIFACT_NAME',
    defaultName: 'python-coverage-comment-action',
    requires: 'GITHUB_PR_RUN_ID',
    reads: 'posts the coverage comment it holds on the pull request',
    forged: "a coverage comment of the fork's wording on its pull request",
    source: 'https://github.com/py-cov-action/python-coverage-comment-action#setup',
  },
};

/**
 * The steps of a job that run an action of `TRIGGERING_RUN_READERS` on `workflow_run` (the step's and its job's
 * `if:` folded over the workflow's occasions), with the input it needs: each a download of the triggering run's
 * artifact that the action reads itself. Kept apart from `foreignDownloads`: no file of it lands where a step reads
 * or runs it.
 */
export function triggeringRunReads(job: Job): ForeignDownload[] {
  const found: ForeignDownload[] = [];
  for (const step of job.steps) {
    const ref = step.usesRef;
    if (ref?.kind !== 'repository' || step.uses === undefined) continue;
    const reader = TRIGGERING_RUN_READERS[ref.slug];
    if (reader === undefined) continue;
    if (reader.requires !== null && (getText(step.with, reader.requires) ?? '').trim() === '') continue;
    const onWorkflowRun = occasionsOf(job.workflow).some((o) => o.event === 'workflow_run' && conditionTruth(job.if, o) !== false && conditionTruth(step.if, o) !== false);
    if (!onWorkflowRun) continue;
    const named = (getText(step.with, reader.artifactInput) ?? '').trim();
    const artifact = named !== '' ? named : (reader.defaultName ?? '');
    const how = `\`${ref.slug}\`, which on \`workflow_run\` downloads ${artifact === '' ? 'an artifact' : `artifact \`${artifact.slice(0, 80)}\``} of the triggering run itself`;
    found.push({ step, node: step.uses, how, destination: null, isolated: true, readBy: { ...reader, slug: ref.slug, artifact } });
  }
  return found;
}

/** Actions that download artifacts from other runs whatever their inputs. */
const CROSS_RUN_ACTIONS = new Set(['dawidd6/action-download-artifact', 'aochmann/actions-download-artifact', 'bettermarks/action-artifact-download']);
/**
 * Destinations outside the workspace: the runner's temporary directory, `/tmp`, an action's own directory, and the
 * home directory but for `~/work/`, under which GitHub-hosted runners keep the workspace (`~/.gradle/build-scan-data`).
 */
const ISOLATED = /^\s*["']?(\$\{\{\s*runner\.temp\s*\}\}|\$\{?RUNNER_TEMP\b|%RUNNER_TEMP%|\$env:RUNNER_TEMP|\/tmp(\/|$)|\/dev\/shm\/|\$\{\{\s*github\.action_path|(?:~|\$\{?HOME\}?)\/(?!work(?:\/|$)))/;
const SCRIPT_ISOLATED = /RUNNER_TEMP|runner\.temp|['"`]\/tmp\//;

/**
 * The archive a github-script download writes and leaves as it is: the API's `downloadArtifact` returns the artifact
 * as a zip, and a script that only writes it to one file of a fixed name (`fs.writeFileSync('pr.zip',
 * Buffer.from(download.data))`, also under `${{ github.workspace }}/` or `process.env.GITHUB_WORKSPACE`) puts no file
 * of the artifact in the workspace: a later `unzip pr.zip` does (`isolatedExtractions`), and until then only the
 * archive is there, which nothing runs. Null when the script may extract it itself (a process, an unzip library) or
 * writes anything else, or the name is computed.
 */
function writtenArchive(script: string): string | null {
  if (/\b(?:exec|execSync|execFile|spawn|spawnSync|AdmZip|unzip|extract|decompress|tar|zlib)\b|@actions\/exec|child_process/i.test(script)) return null;
  const writes = [...script.matchAll(/\bwriteFile(?:Sync)?\s*\(\s*(['"`])([^'"`\n]*)\1/g)];
  const other = (script.match(/\bwriteFile(?:Sync)?\s*\(|\bcreateWriteStream\s*\(|\bappendFile/g) ?? []).length;
  if (writes.length !== 1 || other !== 1) return null;
  const name = (writes[0]?.[2] ?? '')
    .replace(/^\$\{\{\s*github\.workspace\s*\}\}\/|^\$\{process\.env\.GITHUB_WORKSPACE\}\//, '')
    .replace(/^\.\//, '');
  if (!/^[\w.-]+\.(?:zip|tgz|tar\.gz|tar)$/.test(name)) return null;
  return name;
}

/** The steps of a job that download artifacts of another run, in order. */
export function foreignDownloads(job: Job): ForeignDownload[] {
  return flatMap(job.steps, stepDownloads);
}

export function stepDownloads(step: Step): ForeignDownload[] {
  const ref = step.usesRef;
  if (ref?.kind === 'local') return calledDownloads(step);
  if (ref?.kind === 'repository' && step.uses !== undefined) {
    const slug = ref.slug;
    // `run-id` that is only the run's own id (`${{ github.run_id }}`, also through `env:`, or on every event the step
    // runs on once its `&&`/`||` choices are folded): its own artifacts.
    if (slug === 'actions/download-artifact' && hasInput(step, 'run-id') && !namesOwnRun(step)) {
      return [download(step, step.uses, `actions/download-artifact with \`run-id: ${getText(step.with, 'run-id') ?? ''}\``, getText(step.with, 'path'))];
    }
    if (CROSS_RUN_ACTIONS.has(slug)) return trustedRunsOnly(step) ? [] : [download(step, step.uses, slug, getText(step.with, 'path'))];
    if (slug === 'actions/github-script') {
      const script = getText(step.with, 'script');
      if (script === null || !/\bdownloadArtifact\b/.test(script)) return [];
      const archive = writtenArchive(script);
      if (archive !== null) return [{ step, node: step.uses, how: 'actions/github-script (`downloadArtifact`)', destination: archive, isolated: true, archive: true }];
      const isolated = SCRIPT_ISOLATED.test(script) && !/GITHUB_WORKSPACE/.test(script);
      return [{ step, node: step.uses, how: 'actions/github-script (`downloadArtifact`)', destination: null, isolated }];
    }
    return [];
  }
  const run = step.run;
  if (run === undefined || typeof run.value !== 'string') return [];
  const result: ForeignDownload[] = [];
  if (run.value.includes('archive_download_url') || run.value.includes('/actions/artifacts/')) result.push(...apiDownloads(step, run, run.value));
  if (!run.value.includes('gh run download')) return result;
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

/**
 * The downloads of another run's artifacts that the repository's own composite action called by `caller` makes in
 * a step of its own (`actions/download-artifact` with `run-id`, a cross-run download action; github-script's
 * `downloadArtifact` is not read: its script, and the action's later steps, decide where the files land), as the
 * call gives them their inputs: a wrapper that adds retries (`run-id: ${{
 * inputs.run-id }}`, `path: ${{ inputs.path }}`) downloads what its caller's `with:` names, into the caller's
 * workspace. Each is reported at the calling step; downloads the action repeats with the same inputs (retry attempts)
 * count once. A script of the action is not read here, nor a composite inside the composite.
 */
function calledDownloads(caller: Step): ForeignDownload[] {
  const action = caller.calledAction;
  if (action === undefined || action.using !== 'composite' || caller.uses === undefined) return [];
  const found: ForeignDownload[] = [];
  const seen = new Set<string>();
  for (const inner of action.steps) {
    // Downloads whose destination the step's inputs say; a github-script of the action writes where its script
    // says, which its later steps may move (not followed).
    if (inner.usesRef?.kind !== 'repository' || inner.usesRef.slug === 'actions/github-script') continue;
    const as: Step = { ...caller, uses: inner.uses, usesRef: inner.usesRef, with: forwardedWith(inner, caller, action) };
    for (const d of stepDownloads(as)) {
      const key = `${d.how}\u0000${d.destination ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push({ ...d, step: caller, node: caller.uses, how: `local action \`${String(caller.uses.value)}\`, whose step runs ${d.how}`, as });
    }
  }
  return found;
}

/**
 * The `with:` of a step of a composite action as `caller` gives the action its inputs: a value that is one input
 * handed on as it is (`${{ inputs.path }}`) becomes what the caller's `with:` gives that input, else the input's
 * `default:`, else it is left out (GitHub hands the action '' for it, as for an input not given); any other value
 * stays as written.
 */
function forwardedWith(inner: Step, caller: Step, action: Action): YMap | undefined {
  const own = inner.with;
  if (own === undefined) return undefined;
  const pairs: YPair[] = [];
  for (const pair of own.pairs) {
    const name = pair.value.kind === 'scalar' && typeof pair.value.value === 'string' ? forwardedInput(pair.value.value) : undefined;
    if (name === undefined) {
      pairs.push(pair);
      continue;
    }
    const given = inputAtCaller(caller, action, name);
    if (given === undefined || (given.kind === 'scalar' && (given.value === null || given.value === ''))) continue;
    pairs.push({ key: pair.key, value: given });
  }
  return { ...own, pairs };
}

/**
 * A script's fetch of a run artifact's archive through the REST API (`remote-fetch.ts` `fetchesArtifactArchive`: `curl
 * -o artifact.zip "$URL"` where `URL` is the `archive_download_url` a listing of `/actions/runs/<id>/artifacts`
 * answers with), as `gh run download` is read: the archive lands as one file (`-o`/`--output`, wget's `-O`, or a `>`
 * redirect), and its files are in the workspace only where a later command extracts it (`isolatedExtractions`, also
 * on the script's later lines). A fetch whose file the scan cannot name is left out.
 */
function apiDownloads(step: Step, run: YNode, script: string): ForeignDownload[] {
  const found: ForeignDownload[] = [];
  for (const line of logicalLines(script)) {
    for (const pipeline of pipelines(line)) {
      for (const command of pipeline.commands) {
        const fetch = fetchOf(command.text);
        if (fetch === null || (fetch.program !== 'curl' && fetch.program !== 'wget') || !fetchesArtifactArchive(command.text, script)) continue;
        const list = fetch.words;
        const flag = list.findIndex((w) => w === '-o' || w === '--output' || w === '--output-document' || (fetch.program === 'wget' && w === '-O'));
        const file = flag !== -1 ? list[flag + 1] : /(?:^|\s)>\s*("?)([^\s"|;&]+)\1\s*$/.exec(command.text)?.[2];
        if (file === undefined || file === '' || file === '-' || file.includes('$')) continue;
        found.push({ step, node: run, how: "the REST API's artifact archive (`archive_download_url`)", destination: file, isolated: true, archive: true, scriptOffset: line.offset });
      }
    }
  }
  return found;
}

/** A `run-id` that names the running workflow's own run and nothing else. */
const OWN_RUN_ID = /^\s*\$\{\{\s*(?:\(\s*)*github\.run_id(?:\s*\))*\s*\}\}\s*$/;

/** Whose run a `run-id` names on one occasion: the running workflow's own, the followed one (`github.event.workflow_run.id`), or another. */
type RunIdTarget = 'own' | 'triggering' | 'other';

/** True when `run-id` names the step's own workflow run whenever the step runs (see `runIdTargets`). */
function namesOwnRun(step: Step): boolean {
  const targets = runIdTargets(step);
  return targets === null ? OWN_RUN_ID.test(downloadInput(step, 'run-id') ?? '') : targets.every((t) => t === 'own');
}

const runIdCache = new ScanCache<Step, RunIdTarget[] | null>();

/**
 * Whose run the `run-id` of an `actions/download-artifact` step names on each occasion the step may run on (its
 * job's and its own `if:` folded over the workflow's events, run-model conditions), its `env.X` replaced
 * (`downloadInput`) and its `&&` / `||` choices folded on that event: `github.event_name == 'workflow_run' &&
 * github.event.workflow_run.id || github.run_id` is the followed run's id on `workflow_run`, whatever the job
 * uploaded before, and the run's own elsewhere, where the event has no `workflow_run` payload (an empty or null
 * `run-id` is the run's own too). A step that never runs names no run (an empty list). Null when the value is not
 * one expression (then its text decides, as before).
 */
function runIdTargets(step: Step): RunIdTarget[] | null {
  let found = runIdCache.get(step);
  if (found !== undefined) return found;
  const targets = new Set<RunIdTarget>();
  let parsed = true;
  // In a reusable workflow, each caller's value of an input it reads (`run-id: ${{ inputs.run_id }}`) in turn.
  for (const text of callerVariants(step, downloadInput(step, 'run-id') ?? '')) {
    const inner = /^\s*\$\{\{([^}]*(?:\}(?!\})[^}]*)*)\}\}\s*$/.exec(text)?.[1];
    const expr = inner === undefined ? null : parseExpression(inner.trim());
    if (expr === null) {
      parsed = false;
      break;
    }
    const job = step.job;
    const events = job === null ? [null] : occasionsOf(job.workflow).filter((o) => conditionTruth(job.if, o) !== false && conditionTruth(step.if, o) !== false).map((o) => o.event);
    for (const event of events) targets.add(runIdTarget(expr, event));
  }
  found = parsed ? [...targets] : null;
  runIdCache.set(step, found);
  return found;
}

/** Whose run an expression's value names on `event` (null: not known). */
function runIdTarget(expr: Expr, event: string | null): RunIdTarget {
  const sources = foldedSources(expr, event);
  const path = (e: Expr) => contextPath(e)?.join('.') ?? '';
  if ((event === null || event === 'workflow_run') && sources.some((e) => path(e) === 'github.event.workflow_run.id')) return 'triggering';
  return sources.every((e) => path(e) === 'github.run_id' || truthOn(e, event) === false) ? 'own' : 'other';
}

/**
 * The sub-expressions an expression's value can come from on `event` (as `valueSources`, with the `&&` / `||`
 * operands whose truth the event decides folded): a comparison is a boolean, no run's id, and gives none.
 */
function foldedSources(expr: Expr, event: string | null): Expr[] {
  if (expr instanceof Grouping) return foldedSources(expr.group, event);
  if (expr instanceof Logical) {
    const and = expr.operator.lexeme === '&&';
    const out: Expr[] = [];
    for (const [i, arg] of expr.args.entries()) {
      const truth = i === expr.args.length - 1 ? !and : truthOn(arg, event);
      // `a && b` is `a` when it is falsy, `a || b` is `a` when it is truthy; an unknown operand may be the value.
      if (truth === null || truth !== and) out.push(...foldedSources(arg, event));
      if (truth !== null && truth !== and) break;
    }
    return out;
  }
  if (expr instanceof FunctionCall && functionName(expr) === 'fromjson') return flatMap(expr.args, (a) => foldedSources(a, event));
  if (expr instanceof Binary || expr instanceof Unary) return [];
  return [expr];
}

/**
 * The truth of an expression on `event`, as far as the event decides it: `github.event_name` compared with a
 * literal, `!`, `&&`, `||`, a literal, `github.run_id` (never empty), and `github.event.workflow_run.*` (null on any
 * other event; the followed run's id is never empty). Null when not known.
 */
function truthOn(expr: Expr, event: string | null): boolean | null {
  if (expr instanceof Grouping) return truthOn(expr.group, event);
  if (expr instanceof Logical) {
    const and = expr.operator.lexeme === '&&';
    let unknown = false;
    for (const arg of expr.args) {
      const t = truthOn(arg, event);
      if (t === null) unknown = true;
      else if (t !== and) return t;
    }
    return unknown ? null : and;
  }
  if (expr instanceof Unary && expr.operator.lexeme === '!') {
    const t = truthOn(expr.expr, event);
    return t === null ? null : !t;
  }
  if (expr instanceof Binary && (expr.operator.lexeme === '==' || expr.operator.lexeme === '!=')) {
    const named = (e: Expr) => contextPath(e)?.join('.') === 'github.event_name';
    const other = named(expr.left) ? expr.right : named(expr.right) ? expr.left : null;
    const value = other instanceof Literal ? other.token.value : undefined;
    if (event === null || typeof value !== 'string') return null;
    return (value.toLowerCase() === event.toLowerCase()) === (expr.operator.lexeme === '==');
  }
  if (expr instanceof Literal) return constantTruthiness(expr);
  const path = contextPath(expr)?.join('.');
  if (path === 'github.run_id') return true;
  if (path === 'github.event.workflow_run' || path?.startsWith('github.event.workflow_run.') === true) {
    if (event === null) return null;
    return event !== 'workflow_run' ? false : path === 'github.event.workflow_run.id' ? true : null;
  }
  return null;
}

/** `env.NAME` in an expression (the `env` context: names match whatever their case). */
const ENV_REFERENCE = /(?<![\w.-])env\.([A-Za-z_][\w-]{0,99})\b/g;

/** The value of `name` in the `env:` a step sees (its own, its job's, its workflow's), as written; null when none sets it. */
function envText(step: Step, name: string): string | null {
  const lower = name.toLowerCase();
  for (const env of [step.env, step.job?.env, step.job?.workflow.env]) {
    const pair = env?.pairs.find((p) => keyText(p.key).toLowerCase() === lower);
    if (pair !== undefined) return scalarText(pair.value);
  }
  return null;
}

/**
 * A download input as the runner gives it to the action, with `env.NAME` inside its `${{ }}` replaced by the value
 * the step's, job's or workflow's `env:` sets (`run-id: ${{ env.RUN_ID }}` with `RUN_ID: ${{ github.event_name ==
 * 'workflow_run' && github.event.workflow_run.id || github.run_id }}`): an expression value goes in parenthesized,
 * a literal quoted. A few rounds, on bounded text; a name no `env:` sets is left as written.
 */
export function downloadInput(step: Step, name: string): string | null {
  let text = getText(step.with, name);
  if (text === null) return null;
  for (let round = 0; round < 3 && text.length < 2_000; round++) {
    let changed = false;
    text = text.replace(/\$\{\{([^}]*(?:\}(?!\})[^}]*)*)\}\}/g, (whole, inner: string) => {
      const replaced = inner
        .replace(ENV_REFERENCE, (ref, variable: string) => {
          const value = envText(step, variable);
          if (value === null) return ref;
          changed = true;
          return inlineValue(value);
        });
      return `\${{${replaced}}}`;
    });
    if (!changed) break;
  }
  return text;
}

/** A value as written in `env:` or `with:`, put inside an expression: an expression parenthesized, a literal quoted. */
function inlineValue(value: string): string {
  const expression = /^\s*\$\{\{([^}]*(?:\}(?!\})[^}]*)*)\}\}\s*$/.exec(value);
  return expression !== null ? `(${(expression[1] ?? '').trim()})` : `'${value.replace(/'/g, "''")}'`;
}

/**
 * `text` once for each value the repository's callers give the inputs its expressions read (`callerInputTexts`), at
 * most 8, and `text` itself too when the workflow also runs on another event (a dispatch's inputs are its own);
 * `[text]` when it reads none, or one whose callers are not known.
 */
function callerVariants(step: Step, text: string): string[] {
  let variants = [text];
  const alone = step.job?.workflow.triggers.every((t) => t.name === 'workflow_call') ?? true;
  const names = new Set<string>();
  for (const body of text.matchAll(/\$\{\{([^}]*(?:\}(?!\})[^}]*)*)\}\}/g)) for (const m of (body[1] ?? '').matchAll(INPUT_REFERENCE)) names.add(m[1] as string);
  for (const name of names) {
    const values = callerInputTexts(step, name);
    if (values === null) continue;
    const pattern = new RegExp(`(?<![\\w.-])inputs\\.${name.replace(/[-]/g, '\\-')}\\b`, 'g');
    const next: string[] = [];
    for (const variant of variants)
      for (const value of values)
        next.push(variant.replace(/\$\{\{([^}]*(?:\}(?!\})[^}]*)*)\}\}/g, (_whole, inner: string) => `\${{${inner.replace(pattern, () => inlineValue(value))}}}`));
    if (next.length > 8) break;
    variants = next;
  }
  return alone || variants[0] === text ? variants : [text, ...variants];
}

/** `inputs.NAME` in an expression. */
const INPUT_REFERENCE = /(?<![\w.-])inputs\.([A-Za-z_][\w-]{0,99})\b/g;

/**
 * What the repository's callers give a reusable workflow's input `name`, as written (distinct texts; the input's
 * `default`, else empty, for a caller that gives none): `run-id: ${{ inputs.run_id }}` in a deploy workflow that a
 * `workflow_run` job calls `with: { run_id: ${{ github.event.workflow_run.id }} }` names the followed run. Null when
 * no job here calls it, or a caller's value reads its own `env` or `inputs`, which mean something else here.
 */
function callerInputTexts(step: Step, name: string): string[] | null {
  const workflow = step.job?.workflow;
  const callers = workflow?.callerJobs;
  if (workflow === undefined || callers === undefined || callers.length === 0) return null;
  const lower = name.toLowerCase();
  const declared = get(workflow.triggers[0]?.config, 'inputs');
  const spec = declared?.kind === 'map' ? declared.pairs.find((p) => keyText(p.key).toLowerCase() === lower)?.value : undefined;
  const fallback = scalarText(get(spec, 'default')) ?? '';
  const texts = new Set<string>();
  for (const caller of callers) {
    const given = caller.with?.pairs.find((p) => keyText(p.key).toLowerCase() === lower);
    const text = given === undefined ? fallback : scalarText(given.value);
    if (text === null || /(?<![\w.-])(?:env|inputs)\./.test(text)) return null;
    texts.add(text);
  }
  return [...texts];
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

/**
 * `dawidd6/action-download-artifact` searching for a run (no `run_id`: by commit, pull request, branch, event ...)
 * skips runs whose head repository is not the repository searched, a fork's pull request runs among them, unless
 * `allow_forks` is true. The input came in v2.28.0 with `true` as its default, which v4 (2024-06) turned to
 * `false` for every later major; older versions have no such input and take any run. A run named by `run_id` is
 * fetched as given, a fork's too. True when the step skips forks' runs: `allow_forks: false` on v2.28.0 or later
 * (or a version not known), or no `allow_forks` on v4 and later or a branch (which has today's default).
 */
export function skipsForkRuns(step: Step): boolean {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository' || ref.slug !== 'dawidd6/action-download-artifact' || hasInput(step, 'run_id')) return false;
  const version = actionVersion(step);
  const allow = getText(step.with, 'allow_forks')?.trim().toLowerCase();
  if (allow !== undefined && allow !== '') {
    // An expression may be true; `false` counts from the version that reads it.
    if (allow !== 'false') return false;
    return version === null || version === 'branch' || compareVersions(newest(version), [2, 28, 0]) >= 0;
  }
  if (version === 'branch') return true;
  return version !== null && compareVersions(oldest(version), [4, 0, 0]) >= 0;
}

/** The version of the action a step runs (from its ref, or a SHA pin's comment), `branch` for a branch name, or null. */
function actionVersion(step: Step): RefVersion | 'branch' | null {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository') return null;
  const parsed = parseRefVersion(ref.ref);
  if (parsed !== null) return parsed;
  if (isFullSha(ref.ref)) return step.uses === undefined ? null : versionComment(step.owner.file, step.uses);
  return /^[0-9a-f]{7,39}$/i.test(ref.ref) ? null : 'branch';
}

/** A floating tag (`v2`) as the newest release it can name, or as its first one. */
function newest(version: RefVersion): number[] {
  return [0, 1, 2].map((i) => version.parts[i] ?? Number.MAX_SAFE_INTEGER);
}
function oldest(version: RefVersion): number[] {
  return [0, 1, 2].map((i) => version.parts[i] ?? 0);
}

function hasInput(step: Step, name: string): boolean {
  const pair = step.with?.pairs.find((p) => keyText(p.key) === name);
  return pair !== undefined && get(step.with, name)?.kind === 'scalar' && getText(step.with, name) !== null;
}

/**
 * A shell line that reads a file's content (`$(cat x)`, `< x`, `jq ... x`, `read`). A command that reads stands
 * first on its line (indented inside an `if` block too), after `;`, `&&`, `||`, `{` or `(`, or after `then`, `do`
 * or `else` (`if [ -f x ]; then cat x >> "$GITHUB_OUTPUT"; fi`). A stage after a pipe (`echo "$V" | sed ...`)
 * reads the stage before it, not a file: what that one reads counts where it is written.
 */
export const READS_FILE = /\$\(\s*<|\$\(\s*(cat|head|tail|jq|yq|awk|sed|grep|cut|tr|unzip|base64|xargs)\b|`\s*(cat|head|tail|jq)\b|(^\s*|(?:[;&{(]|\|\|)\s*|\b(?:then|do|else)\s+)(cat|head|tail|jq|yq|awk|sed|grep|cut)\b|(^\s*|(?:[;&{(]|\|\|)\s*|\b(?:then|do|else)\s+)unzip\s+-[a-zA-Z]*[pc]\b|<\s*["']?[\w./$-]|\bread\b|Get-Content/;

const readsFileMemo = new ScanMemo<string, boolean>(50_000);

/**
 * `READS_FILE.test(text)`, read once per text a scan: an alternation tried at every position, which the artifact
 * analyses (and injections, pr-head) ask of the same logical lines of a script from several places.
 */
export function readsFile(text: string): boolean {
  const known = readsFileMemo.get(text);
  if (known !== undefined) return known;
  const reads = READS_FILE.test(text);
  readsFileMemo.set(text, reads);
  return reads;
}

/**
 * The first download of an outsider's artifacts (a fork's run, `downloadContent` `outsider`) in the job of
 * `step`, by an earlier step or by the step's own script: what a file read of the step may be reading.
 */
export function outsiderDownloadBefore(step: Step, repository: RepositoryModel): ForeignDownload | null {
  const job = step.job;
  if (job === null) return null;
  for (const s of job.steps) {
    if (s.index > step.index) break;
    for (const d of stepDownloads(s)) if (downloadContent(d, job.workflow, repository) === 'outsider') return d;
  }
  return null;
}

/**
 * A pattern for the directory a download's files land in, as text names it: the last name of its destination
 * (`pr` for `path: ./out/pr/`), quotes and trailing slashes off. Null when any text may name them: a download
 * into the working directory, or one whose directory the scan cannot read (an expression, a glob).
 */
function downloadDirName(download: ForeignDownload): RegExp | null {
  const last = (download.destination ?? '').trim().replace(/^(["'])(.*)\1$/, '$2').replace(/\/+$/, '').split('/').at(-1) ?? '';
  return last === '' || last === '.' || /[$*?{}\\]/.test(last) ? null : directoryPattern(last);
}

/**
 * True when a line of a script reads a file the download may hold: it reads a file (not a here-document, not
 * the event payload), after the download when the download is the same script's, and names the directory the
 * files landed in when the download gives one.
 */
export function readsDownloadedFile(step: Step, line: { text: string; offset: number }, download: ForeignDownload): boolean {
  const text = line.text.replace(/<<-?\s*['"]?\w+/g, '');
  if (!readsFile(text) || /GITHUB_EVENT_PATH|github\.event_path/.test(text)) return false;
  if (download.step === step && (download.scriptOffset === undefined || line.offset <= download.scriptOffset)) return false;
  const named = downloadDirName(download);
  return named === null || named.test(text);
}

/**
 * True when a github-script of the job may read what a download of the job before it (or in it) brought: a
 * download into the working directory, one whose directory the scan cannot read (an expression, a glob), or one
 * whose directory's last name the script names anywhere (`const temp = '${{ runner.temp }}/artifacts';
 * fs.readFileSync(path.join(temp, 'sha'))`). A script that names none of them reads other files
 * (`${{ github.workspace }}/meta/sha`); a step with no download before it reads none.
 */
export function githubScriptNamesDownload(step: Step, script: string): boolean {
  const job = step.job;
  if (job === null) return false;
  for (const s of job.steps) {
    if (s.index > step.index) break;
    for (const download of stepDownloads(s)) {
      const named = downloadDirName(download);
      if (named === null || named.test(script)) return true;
    }
  }
  return false;
}

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


// ---------------------------------------------------------------------------------------------------------
// Whose run a download fetches.

/**
 * How the run whose artifacts a step downloads is chosen: `triggering` (the run a `workflow_run` event names:
 * `github.event.workflow_run.id`, or its head commit), `trusted` (picked among runs only collaborators cause:
 * an event filter of `push`, `schedule`, `workflow_dispatch`, `release` or `merge_group`), or `chosen` (any
 * other way: a branch name, a pull request, a run id the job computes). A branch name alone picks a fork's
 * runs too: a fork's pull request run carries its own branch name, `main` included. A search of
 * `dawidd6/action-download-artifact` that skips forks' runs (`skipsForkRuns`) is `trusted` too, whatever it
 * searches by: the run it finds is one of a branch of the repository.
 */
export type RunChoice = 'triggering' | 'trusted' | 'chosen';

const TRIGGERING_RUN = /github\.event\.workflow_run\.(id|head_sha)\b|context\.payload\.workflow_run\.(id|head_sha)\b|GITHUB_EVENT_PATH[^\n]{0,100}workflow_run/;
const TRUSTED_EVENTS = String.raw`(push|schedule|workflow_dispatch|release|merge_group)\b`;
/** An event filter naming a collaborator-only event: `--event push`, `-e push`, `?event=push`, `event: 'push'`, `.event == "push"`. */
const TRUSTED_EVENT_FILTER = new RegExp(
  String.raw`(?:--event|\s-e)[=\s]+["']?${TRUSTED_EVENTS}|[?&]event=${TRUSTED_EVENTS}|\bevent\s*:\s*["']${TRUSTED_EVENTS}|\.event\s*==\s*["']${TRUSTED_EVENTS}`,
);

/** The text of a step that could pick a run: its script, or the script of a github-script step. */
function choosingText(step: Step): string {
  if (typeof step.run?.value === 'string') return step.run.value;
  return getText(step.with, 'script') ?? '';
}

/** What names the run of a download (`run-id:`, the `gh run download` line ...), and the steps that computed it. */
function runValue(download: ForeignDownload): { value: string; producers: Step[] } {
  const step = download.as ?? download.step;
  const ref = step.usesRef;
  let value: string;
  // Through `env:` too: an `&&`/`||` choice one of whose branches is the triggering run's id may be that run.
  if (ref?.kind === 'repository' && ref.slug === 'actions/download-artifact') value = downloadInput(step, 'run-id') ?? '';
  else if (ref?.kind === 'repository' && CROSS_RUN_ACTIONS.has(ref.slug)) value = ['run_id', 'run_number', 'commit', 'workflow_conclusion'].map((n) => downloadInput(step, n) ?? '').join(' ');
  else if (download.scriptOffset !== undefined && typeof step.run?.value === 'string') {
    const line = logicalLines(step.run.value).find((l) => l.offset === download.scriptOffset);
    value = line?.text ?? '';
  } else value = choosingText(step);
  // The run id computed by an earlier step (`run-id: ${{ steps.find.outputs.id }}`) or the same script.
  const producers = !value.includes('steps.') ? [] : flatMap([...value.matchAll(/steps\.([\w-]+)\.outputs/g)], (m) => step.job?.steps.filter((s) => s.id === m[1] && s.index < step.index) ?? []);
  return { value, producers };
}

/** The lines of a script download's step that feed its line, and the `env:` values of the variables they read that the script does not set. */
function scriptFeeds(download: ForeignDownload): string[] {
  const step = download.step;
  const script = step.run?.value;
  if (typeof script !== 'string') return [];
  const line = logicalLines(script).find((l) => l.offset === download.scriptOffset);
  if (line === undefined) return [];
  const sources = feedingLines(script, [line]);
  const texts = [linesText(script, sources.ranges)];
  for (const name of sources.variables) {
    const bound = boundEnv(step, name);
    if (bound?.kind === 'scalar') texts.push(String(bound.value ?? ''));
  }
  return texts;
}

/** The value the nearest `env:` (the step's, its job's, its workflow's) binds to `name`, or undefined. */
function boundEnv(step: Step, name: string): YNode | undefined {
  return [step.env, step.job?.env, step.job?.workflow.env].map((m) => m?.pairs.find((p) => keyText(p.key) === name)?.value).find((v) => v !== undefined);
}

/** How the run of a download is chosen (see `RunChoice`). */
export function runChoice(download: ForeignDownload): RunChoice {
  const step = download.as ?? download.step;
  const ref = step.usesRef;
  // An action that reads the triggering run's artifact itself (on `workflow_run`, by `github.event.workflow_run.id`).
  if (download.readBy !== undefined) return 'triggering';
  // Searching with forks skipped, whatever names the run: a run of a branch of the repository, a collaborator's.
  if (skipsForkRuns(step)) return 'trusted';
  const { value, producers } = runValue(download);
  // A `run-id` folded on each event: the followed run's id on `workflow_run`; text that names it only on an event
  // that has no such payload (`github.event_name == 'push' && github.event.workflow_run.id || ...`) does not.
  const targets = ref?.kind === 'repository' && ref.slug === 'actions/download-artifact' ? runIdTargets(step) : null;
  if (targets?.includes('triggering') === true) return 'triggering';
  if (targets === null && TRIGGERING_RUN.test(value)) return 'triggering';
  // A script's download: the run id its line reads through the lines and `env:` that feed it (`gh run download
  // "$RUN_ID"`, `RUN_ID: ${{ github.event.workflow_run.id }}`).
  if (targets === null && download.scriptOffset !== undefined && scriptFeeds(download).some((t) => TRIGGERING_RUN.test(t))) return 'triggering';
  const texts = [choosingText(step), ...producers.map(choosingText), ...(ref?.kind === 'repository' && CROSS_RUN_ACTIONS.has(ref.slug) ? [`event: '${getText(step.with, 'event') ?? ''}'`] : [])];
  if (texts.some((t) => TRUSTED_EVENT_FILTER.test(t))) return 'trusted';
  if (producers.some((p) => TRIGGERING_RUN.test(choosingText(p)))) return 'triggering';
  return 'chosen';
}

/**
 * Commands and calls that list one workflow's runs: `gh run list --workflow <file or name>` (`-w`),
 * `gh api .../actions/workflows/<file>/runs`, github-script's `listWorkflowRuns({ workflow_id: '<file>' })`.
 */
const RUN_LISTING = /\bgh\s+run\s+list\b[^\n|;&)`]*|\/actions\/workflows\/[^\s/"'`?]+\/runs\b|\blistWorkflowRuns\s*\(\s*\{[^}]{0,400}\}|\bgh\s+run\s+download\b/g;
/** This repository, as a `gh -R` value or the start of an API path: `${{ github.repository }}`, `$GITHUB_REPOSITORY`, `{owner}/{repo}`. */
const THIS_REPOSITORY = /^["']?(?:\$\{\{\s*github\.repository\s*\}\}|\$\{?GITHUB_REPOSITORY\}?|\{owner\}\/\{repo\}|:owner\/:repo)["']?$/;

/**
 * The workflows whose runs `text` lists, as written (a file name, a path or a `name:`), or null when a listing
 * names no workflow, a computed one, or another repository's. `gh run download` with a run id of its own (not a
 * variable) counts as a listing that names none.
 */
function listedWorkflows(raw: string): string[] | null {
  const names: string[] = [];
  const text = raw.replace(/\$\{\{\s*github\.repository\s*\}\}/g, '$GITHUB_REPOSITORY').replace(/\$\{\{\s*github\.workflow\s*\}\}/g, '$GITHUB_WORKFLOW');
  for (const match of text.matchAll(RUN_LISTING)) {
    const found = match[0];
    if (/^gh\s+run\s+download/.test(found)) continue;
    if (found.startsWith('gh')) {
      const list = words(found);
      let workflow: string | null = null;
      for (let i = 3; i < list.length; i++) {
        const word = list[i] as string;
        const [flag, inline] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined];
        const value = inline ?? list[i + 1];
        if (flag === '-w' || flag === '--workflow') workflow = value ?? null;
        else if ((flag === '-R' || flag === '--repo') && (value === undefined || !THIS_REPOSITORY.test(value))) return null;
      }
      if (workflow === null) return null;
      names.push(workflow);
    } else if (found.startsWith('/actions')) {
      const start = match.index ?? 0;
      const repository = /repos\/([^\s"'`]+?)$/.exec(text.slice(Math.max(0, start - 120), start))?.[1];
      if (repository === undefined || !THIS_REPOSITORY.test(repository)) return null;
      names.push(found.slice('/actions/workflows/'.length, -'/runs'.length));
    } else {
      const workflow = /\bworkflow_id\s*:\s*(['"`])([^'"`$\n]+)\1/.exec(found)?.[2];
      if (workflow === undefined || !/\.\.\.\s*context\.repo\b|\bowner\s*:\s*context\.repo\.owner\b/.test(found)) return null;
      names.push(workflow);
    }
  }
  return names;
}

/**
 * True when the run a download fetches is picked among the runs of workflows of this repository whose runs never
 * carry a fork's code or files (`carriesNoForkData`: every trigger `push`, `schedule`, `workflow_dispatch`,
 * `release`, `merge_group` or `workflow_call`; or none that runs a fork's pull request's workflow, and no job that
 * uploads after bringing in a pull request's code or a fork-chosen artifact): `RUN=$(gh run list --workflow
 * release.yml ...)`, `run-id` computed so by an earlier step, or `dawidd6/action-download-artifact` searching
 * `workflow: release.yml` of this repository. Their artifacts are the repository's own, whichever run is picked.
 * False when a listing names a workflow not found here (or one that can carry a fork's data), a computed name,
 * another repository, or none.
 */
export function picksOwnWorkflowRuns(download: ForeignDownload, repository: RepositoryModel): boolean {
  const listed = listedRepositoryWorkflows(download, repository);
  return listed !== null && listed.every((workflow) => carriesNoForkData(workflow, repository));
}

/**
 * True when the run a download picks can be a fork's own pull request run, which no maintainer approves: the
 * listing names no workflow of this repository it can resolve (a branch, a computed id, another repository), or
 * one of those it names runs on `pull_request` or `pull_request_review*`. False when every workflow listed is one
 * of this repository whose runs run its own file (a fork's data gets in only through what such a run does, behind
 * whatever gates that run has).
 */
export function picksForkRuns(download: ForeignDownload, repository: RepositoryModel): boolean {
  const listed = listedRepositoryWorkflows(download, repository);
  return listed === null || listed.some((workflow) => workflow.triggers.some((t) => FORK_WORKFLOW_EVENTS.test(t.name)));
}

/**
 * Who chooses the files of a run the job picks itself, in words, when it picks among runs of this repository's
 * workflows that no fork's pull request starts (`picksForkRuns` false) but that can still hold a fork's data: `the job
 * picks a run of \`Brain\` (this workflow), whose job \`update\` uploads after it checks out a pull request's code
 * or downloads a fork's artifacts`. Null otherwise (the run can be a fork's own).
 */
export function pickedRunText(download: ForeignDownload, repository: RepositoryModel): string | null {
  const listed = listedRepositoryWorkflows(download, repository);
  if (listed === null || listed.some((workflow) => workflow.triggers.some((t) => FORK_WORKFLOW_EVENTS.test(t.name)))) return null;
  const parts: string[] = [];
  for (const workflow of new Set(listed)) {
    if (carriesNoForkData(workflow, repository)) continue;
    const job = workflow.jobs.find((j) => uploadsOutsiderFiles(j, workflow, repository));
    const name = `\`${workflow.name ?? workflow.file.path}\`${workflow === download.step.owner ? ' (this workflow)' : ''}`;
    parts.push(`a run of ${name}, whose ${job === undefined ? 'runs' : `job \`${job.id}\``} ${job?.uses !== undefined ? 'calls a reusable workflow that may upload' : "uploads after it checks out a pull request's code or downloads a fork's artifacts"}`);
  }
  return parts.length === 0 ? null : `the job picks ${parts.join(', or ')}, so a fork's pull request that run takes in`;
}

/** The workflows of this repository whose runs a download picks among (see `picksOwnWorkflowRuns`), or null when not known. */
function listedRepositoryWorkflows(download: ForeignDownload, repository: RepositoryModel): Workflow[] | null {
  const step = download.as ?? download.step;
  const ref = step.usesRef;
  let names: string[];
  if (ref?.kind === 'repository' && CROSS_RUN_ACTIONS.has(ref.slug)) {
    const workflow = getText(step.with, 'workflow');
    const repo = getText(step.with, 'repo');
    if (hasInput(step, 'run_id') || workflow === null || (repo !== null && !THIS_REPOSITORY.test(repo.trim()))) return null;
    names = [workflow];
  } else {
    names = [];
    for (const text of runSources(download)) {
      const found = listedWorkflows(text);
      if (found === null) return null;
      names.push(...found);
    }
  }
  if (names.length === 0) return null;
  const workflows: Workflow[] = [];
  for (const name of names) {
    const workflow = OWN_WORKFLOW.test(name.trim()) ? runningWorkflow(step) : workflowNamed(name.trim(), repository);
    if (workflow === undefined) return null;
    workflows.push(workflow);
  }
  return workflows;
}

/** Events whose runs for a fork's pull request run the fork's own workflow file: it uploads what it likes. */
const FORK_WORKFLOW_EVENTS = /^(pull_request|pull_request_review|pull_request_review_comment)$/;

/**
 * A memo of a fact of a workflow that is read from the workflows it reads in turn (a chain of them, or a cycle): one
 * met again while it is being read gives `onCycle`, one met `depth` workflows deep gives `onLimit`, and either is a
 * cut. Only a complete answer is kept: one whose trace was cut may lack what the cut skipped, until the trace is back
 * at its start. A complete one is kept also in the middle of a trace, so a chain's workflows are each read once.
 */
class WorkflowTrace<V> {
  readonly #cache = new ScanCache<Workflow, V>();
  /** The workflows being read. */
  readonly #tracing = new Set<Workflow>();
  /** How many times a trace was cut: an answer computed while the count moved is partial. */
  #cuts = 0;
  readonly #depth: number;
  readonly #onCycle: V;
  readonly #onLimit: V;

  constructor(depth: number, onCycle: V, onLimit: V) {
    this.#depth = depth;
    this.#onCycle = onCycle;
    this.#onLimit = onLimit;
  }

  read(workflow: Workflow, compute: () => V): V {
    const cached = this.#cache.get(workflow);
    if (cached !== undefined) return cached;
    if (this.#tracing.has(workflow)) {
      this.#cuts++;
      return this.#onCycle;
    }
    if (this.#tracing.size >= this.#depth) {
      this.#cuts++;
      return this.#onLimit;
    }
    this.#tracing.add(workflow);
    const before = this.#cuts;
    let found: V;
    try {
      found = compute();
    } finally {
      this.#tracing.delete(workflow);
    }
    if (this.#tracing.size === 0 || this.#cuts === before) this.#cache.set(workflow, found);
    return found;
  }
}

/**
 * `carriesNoForkData` of the workflows being read: a cycle adds no fork's data on its way round (true); past 8
 * workflows deep, one may (false).
 */
const forkFree = new WorkflowTrace<boolean>(8, true, false);

/**
 * True when no run of a workflow of this repository can hold a fork's code or files in its artifacts: every trigger
 * is one only collaborators cause (`OWN_RUN_EVENTS`); or, with other triggers (`issue_comment`, `issues`,
 * `pull_request_target`, `workflow_run` ...), none runs a fork's pull request's own workflow (`pull_request`,
 * `pull_request_review*`: a fork's copy of the file runs and uploads what it likes), and no job uploads an artifact
 * after it brings in code a pull request or an outsider can name (`bringsOutsiderFiles`). Those runs run the base
 * repository's workflow on its own code. A download of this workflow's own earlier runs (`gh run list --workflow
 * "${{ github.workflow }}"`) adds nothing of a fork's: by induction from its first run, which had none.
 */
export function carriesNoForkData(workflow: Workflow, repository: RepositoryModel): boolean {
  if (workflow.triggers.length === 0) return false;
  if (workflow.triggers.every((t) => OWN_RUN_EVENTS.test(t.name))) return true;
  if (workflow.triggers.some((t) => FORK_WORKFLOW_EVENTS.test(t.name))) return false;
  // An answer that assumed a workflow still being read carried nothing is kept only once that one is known.
  return forkFree.read(workflow, () => workflow.jobs.every((job) => !uploadsOutsiderFiles(job, workflow, repository)));
}

/** `actions/upload-artifact` (and its `merge` sub-action) or `actions/upload-pages-artifact`. */
function uploadsArtifact(step: Step): boolean {
  const ref = step.usesRef;
  return ref?.kind === 'repository' && (ref.slug === 'actions/upload-artifact' || ref.slug === 'actions/upload-pages-artifact');
}

/**
 * A job that uploads an artifact after a step that brings in a pull request's code or a fork-chosen artifact; a job
 * calling a reusable workflow, when one of its jobs does (one not in the scan, or past `depth` 3 calls, may).
 */
function uploadsOutsiderFiles(job: Job, workflow: Workflow, repository: RepositoryModel, depth = 0): boolean {
  if (job.uses !== undefined) {
    const called = calledLocalWorkflow(repository, job);
    return called === undefined || depth >= 3 || called.jobs.some((inner) => uploadsOutsiderFiles(inner, called, repository, depth + 1));
  }
  let last = -1;
  for (const step of job.steps) if (uploadsArtifact(step)) last = step.index;
  if (last === -1) return false;
  const calls = job.workflow.triggers.some((t) => t.name === 'workflow_call');
  return job.steps.some((step) => step.index < last && (bringsOutsiderCode(step, calls) || stepDownloads(step).some((d) => downloadContent(d, workflow, repository) === 'outsider')));
}

/** What a checkout's `ref:` or `repository:` may name and still be the base repository's own code. */
const BASE_REF = /^(?:github\.(?:sha|ref|ref_name|base_ref|repository|repository_owner|event\.repository\.(?:default_branch|full_name|name))|github\.event\.pull_request\.base\.(?:ref|sha)|(?:github\.event\.)?inputs\.[\w-]+)$/;
/** A script line that checks out or fetches a pull request by its number or ref. */
const SCRIPT_PULL_FETCH = /\bgh\s+pr\s+checkout\b|\brefs\/pull\/|(?:^|[\s:'"])\+?pull\/[^\s/]+\/(?:head|merge)\b/;
/** A git command that brings in another commit or repository. */
const SCRIPT_GIT_FETCH = /\bgit\s+(?:fetch|checkout|switch|reset|pull|clone|worktree)\b/;
/** What names a pull request's head (or a run's), in a script or the `env:` it is given: a git command with it in reach may bring its code. */
const HEAD_WORDS = /head_ref|head\.(?:sha|ref|repo)|head_sha|head_branch|head_repository|headRefOid|headRefName|headRepository|pull_request\.head|workflow_run\.head|pull_requests|\bgh\s+pr\s+view\b|\/pulls\/|\bpulls\.get\b/;

/**
 * A step that may bring in code a pull request or an outsider names: `actions/checkout` with a `ref:` or
 * `repository:` other than the base repository's own refs (`github.sha`, `github.ref`, the default branch; a
 * dispatch input, not in a reusable workflow, whose callers pass it), or a script that checks out or fetches a pull
 * request (`gh pr checkout`, `refs/pull/...`), or runs a git command that fetches or checks out where the script or
 * its `env:` names a pull request's head (`HEAD_WORDS`).
 */
function bringsOutsiderCode(step: Step, reusable: boolean): boolean {
  if (isCheckoutAction(step.usesRef)) {
    for (const input of ['ref', 'repository']) {
      const value = getText(step.with, input);
      if (value === null) continue;
      if (/\bpull\//.test(value)) return true;
      for (const match of value.matchAll(/\$\{\{([^}]*)\}\}/g)) {
        const path = (match[1] ?? '').trim();
        if (!BASE_REF.test(path) || (reusable && /inputs\./.test(path))) return true;
      }
    }
    return false;
  }
  const script = typeof step.run?.value === 'string' ? step.run.value : '';
  if (script === '') return false;
  const lines = logicalLines(script);
  if (lines.some((l) => SCRIPT_PULL_FETCH.test(l.text))) return true;
  // `git fetch origin "$SHA"` where the script or its `env:` looks up a pull request's head; not `git pull origin "$GITHUB_REF_NAME"`.
  if (!lines.some((l) => SCRIPT_GIT_FETCH.test(l.text))) return false;
  const env = [step.env, step.job?.env, step.job?.workflow.env].flatMap((m) => (m?.pairs ?? []).map((p) => (p.value.kind === 'scalar' ? String(p.value.value ?? '') : '')));
  return HEAD_WORDS.test(script) || env.some((v) => HEAD_WORDS.test(v));
}

/**
 * The script text that computes the run a download fetches: for `gh run download "$RUN_ID"`, the line and the
 * lines that assign what it reads, transitively; for `run-id: ${{ steps.find.outputs.id }}`, the lines of step
 * `find` that write `id` (a github-script producer: its whole script). Empty when nothing here computes it.
 */
function runSources(download: ForeignDownload): string[] {
  const step = download.step;
  const script = step.run?.value;
  if (download.scriptOffset !== undefined && typeof script === 'string') {
    const line = logicalLines(script).find((l) => l.offset === download.scriptOffset);
    if (line === undefined) return [];
    const sources = feedingLines(script, [line]);
    const own = linesText(script, sources.ranges);
    // What the script is handed: `${{ steps.find.outputs.id }}` pasted into those lines, a variable its `env:` binds to
    // such an output, or one an earlier step of the job wrote to `$GITHUB_ENV` (`echo "RUN_ID=$(gh run list ...)"`).
    const texts = [own, ...producedTexts(step, own)];
    for (const name of sources.variables) {
      const bound = boundEnv(step, name);
      if (bound !== undefined) {
        texts.push(...producedTexts(step, bound.kind === 'scalar' ? String(bound.value ?? '') : ''));
        continue;
      }
      for (const earlier of step.job?.steps ?? []) {
        const text = earlier.index < step.index && typeof earlier.run?.value === 'string' && earlier.run.value.includes('GITHUB_ENV') ? earlier.run.value : null;
        const written = text === null ? null : outputSources(text, name);
        if (text !== null && written !== null) texts.push(linesText(text, written.ranges));
      }
    }
    return texts;
  }
  return producedTexts(step, runValue(download).value);
}

/** The lines of earlier steps that write each `steps.<id>.outputs.<name>` a value reads (a github-script producer: its whole script). */
function producedTexts(step: Step, value: string): string[] {
  const texts: string[] = [];
  for (const match of value.matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
    const producer = step.job?.steps.find((s) => s.id === match[1] && s.index < step.index);
    if (producer === undefined) continue;
    const own = producer.run?.value;
    const sources = typeof own === 'string' ? outputSources(own, match[2] ?? '') : null;
    texts.push(typeof own === 'string' && sources !== null ? linesText(own, sources.ranges) : choosingText(producer));
    if (texts.length >= 16) break;
  }
  return texts;
}

function linesText(script: string, ranges: readonly [number, number][]): string {
  return [...ranges].sort((a, b) => a[0] - b[0]).map(([from, to]) => script.slice(from, to)).join('\n');
}

/** Events whose runs only the repository's collaborators (or GitHub for them) start, or that add no runs of their own. */
const OWN_RUN_EVENTS = /^(push|schedule|workflow_dispatch|release|merge_group|workflow_call)$/;

/** The running workflow's own name: `${{ github.workflow }}` (rewritten above) or `$GITHUB_WORKFLOW`. */
const OWN_WORKFLOW = /^["']?\$\{?GITHUB_WORKFLOW\}?["']?$/;

/**
 * The workflow `${{ github.workflow }}` names for a step: its own, so a listing of it finds only runs of its own
 * triggers. Undefined in a composite action or a reusable workflow, where it is the caller's, not known here.
 */
function runningWorkflow(step: Step): Workflow | undefined {
  const owner = step.owner;
  if (owner.kind !== 'workflow' || owner.triggers.some((t) => t.name === 'workflow_call')) return undefined;
  return owner;
}

/** The workflow of this repository a `--workflow` value names: its file name, its path, or its `name:`. */
function workflowNamed(name: string, repository: RepositoryModel): Workflow | undefined {
  if (name === '' || /[$*{}]/.test(name)) return undefined;
  const byFile = repository.workflows.filter((w) => w.file.path === name || w.file.path.split('/').at(-1) === name);
  if (byFile.length > 0) return byFile.length === 1 ? byFile[0] : undefined;
  const byName = repository.workflows.filter((w) => w.name === name);
  return byName.length === 1 ? byName[0] : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// What a job does with what it downloaded.

/**
 * What later steps do with downloaded files, from most to least telling:
 * - `env`: their content is written to `$GITHUB_ENV` / `$GITHUB_PATH` (every later step's environment);
 * - `data`: their content becomes a value the job acts on: read into a command, an output a later step or job
 *   uses in a script, an input or an `if:` (a condition that decides whether a step holding secrets runs);
 * - `content`: the files are uploaded, deployed or published as they are (a preview, a coverage report);
 * - `status`: their content only decides a commit status or check run: the commit marked, or whether the step
 *   or job that sets it runs (notices.ts);
 * - `label`: their content only picks a label, or the issue or pull request a label is added to or removed from
 *   with the run's own token (which starts no workflow), or decides whether a step or job that only does that runs;
 * - `comment`: their content only becomes a comment's body or the number of the pull request commented on, or
 *   decides whether a step or job that only comments runs;
 * - `gate`: their content only decides, in an `if:`, whether a step or job runs that is given none of their values
 *   (LOW: the fork starts or skips it, and what it does with the fork's other files, its own download or checkout
 *   of the pull request's code, is judged there; a step or job that holds nothing is `data` for bare jobs, as before);
 * - `checkout`: their content only picks the repository or ref a checkout brings, and no step runs that checkout
 *   (the pull request's code by design, for an action given prebuilt files, such as a visual-testing upload);
 * - `pick`: their content only picks which run, branch, pull request or artifact a later download of another run's
 *   artifacts fetches (`run-id: ${{ steps.meta.outputs.run }}`): what that download's files then do is judged at it;
 * - `validated`: the values read are checked against an anchored pattern (a number) before any use;
 * - `read`: they are read into step outputs, which count where they are used.
 */
export type ArtifactUseKind = 'env' | 'data' | 'gate' | 'checkout' | 'pick' | 'content' | 'status' | 'label' | 'comment' | 'validated' | 'read';

export interface ArtifactUse {
  kind: ArtifactUseKind;
  step: Step;
  /** `reads it into a command`, `uses an output read from it in \`if:\` of job \`deploy\``, ... */
  detail: string;
  /** Who does it when it is not `step` (`job \`deploy\``): the detail then reads after it. */
  subject?: string;
  /** A `comment` use whose step posts a fixed text (notices.ts `fixedCommentBody`): the files choose only where it goes. */
  fixedBody?: boolean;
  /**
   * A `comment` or `status` use whose step expands a value read from them, unchecked, outside quotes as words of a
   * `gh` or `curl` command that acts with a token that can write (`gh pr comment $PR --body ...`): word splitting lets
   * the fork add options and arguments to that call (`1 --method DELETE`, `--input`), argument injection. The
   * command, as written.
   */
  splitsArgs?: string;
  /**
   * A `data` use whose step expands a value read from them with `${{ }}` into its `run:` script (or a github-script's
   * code): their text runs as code there (script injection), in the job of `step`.
   */
  spliced?: boolean;
  /**
   * A `gate` use whose step or job (the one its `if:` starts or skips) runs an outsider's content of its own (a pull
   * request checkout or a fork's download a step runs, judged there): the fork decides whether that runs.
   */
  runsOutsider?: boolean;
  /** A `read` use: what writes their content to the step's outputs, as written (`cat pr/intent >> "$GITHUB_OUTPUT"`). */
  evidence?: string;
  /**
   * A use of step outputs that carry their content (`steps.intent.outputs.number`, or a job output built from them):
   * the step that read them into those outputs and how (its `read` use's `evidence`), so the text says where the
   * content went before it reached `step`.
   */
  via?: { step: Step; evidence: string };
  /** A `pick` use: the output that picks what the later download fetches, and the inputs given it (`branch`, `run_id`). */
  picks?: { ref: string; inputs: readonly string[] };
}

const USE_ORDER: readonly ArtifactUseKind[] = ['env', 'data', 'checkout', 'gate', 'pick', 'content', 'status', 'label', 'comment', 'validated', 'read'];

/**
 * Inputs of a download of another run's artifacts that only choose what it fetches: the run, its number, branch,
 * pull request, commit, workflow, conclusion or event, the artifact's name, the repository. Not `path` (where the
 * files land) nor a token.
 */
const PICK_INPUTS = /^(run-id|run_id|run-number|run_number|branch|pr|commit|workflow|workflow_conclusion|workflow-conclusion|event|name|pattern|name_is_regexp|repo|repository|search_artifacts|if_no_artifact_found)$/i;

/**
 * The inputs (as written) through which `refs` only pick what a later download of another run's artifacts fetches
 * (`actions/download-artifact` with `run-id`, `dawidd6/action-download-artifact` ...), or null when the step is no
 * such download or is given the values anywhere else (its `env:`, its `path`, its `if:`).
 */
function pickedDownload(step: Step, refs: readonly string[]): string[] | null {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository' || (ref.slug !== 'actions/download-artifact' && !CROSS_RUN_ACTIONS.has(ref.slug))) return null;
  const named = (node: YNode | undefined) => texts(node).some((t) => refs.some((r) => t.includes(r)));
  if (named(step.env) || named(step.if)) return null;
  const given = (step.with?.kind === 'map' ? step.with.pairs : []).filter((p) => named(p.value));
  if (given.length === 0 || !given.every((p) => PICK_INPUTS.test(keyText(p.key)))) return null;
  return given.map((p) => keyText(p.key));
}

/**
 * The most telling use first: `$GITHUB_ENV`, a value spliced into a script, a value split into the words of a `gh`
 * or `curl` call with a write token (`splitsArgs`, whatever the use's kind), then by kind.
 */
export function strongestUse(uses: readonly ArtifactUse[]): ArtifactUse | null {
  const rank = (use: ArtifactUse) => (use.kind === 'env' ? 0 : use.spliced === true ? 1 : use.splitsArgs !== undefined ? 2 : 3 + USE_ORDER.indexOf(use.kind));
  let best: ArtifactUse | null = null;
  for (const use of uses) {
    if (best === null || rank(use) < rank(best)) best = use;
  }
  return best;
}

/** github-script calls that add or remove an issue's or pull request's labels. */
const LABEL_CALLS = /^(addLabels|removeLabel|setLabels|removeAllLabels)$/;
/** Commands that only print or set shell state, next to a label command on its line. */
const INERT_WORDS = new Set(['echo', 'printf', 'true', ':']);
/** JavaScript API calls that only post, edit or list comments and reviews. */
const COMMENT_CALLS = /^(createComment|updateComment|deleteComment|listComments|createReview|createReviewComment|updateReview|getComment)$/;
/** Any call to the GitHub API from github-script. */
const API_CALLS = /\bgithub\.(?:rest\.)?\w+\.(\w+)\s*\(|\bgithub\.(graphql|request)\s*\(/g;
/** Shell commands that post comments. */
const COMMENT_COMMAND = /\bgh\s+(pr|issue)\s+(comment|review)\b|\bgh\s+api\b[^\n]{0,300}\/comments\b/;
/** Commands that only move, unpack, list or print files. */
const FILE_SHUFFLING = new Set(['cat', 'unzip', 'tee', 'ls', 'head', 'tail', 'sort', 'mv', 'cp', 'mkdir', 'rm', 'echo', 'printf', 'find', 'tar', 'gunzip', 'zcat', 'wc', 'tree', 'du', 'stat', 'file', 'test', '[', 'true', 'cd']);
/** Commands that upload, deploy or sync files as they are (`surge`, `ghp-import` and `gh-pages` publish a directory). */
const CONTENT_COMMANDS = /\b(upload|deploy|sync|publish|push|cp|release|surge|ghp-import|gh-pages)\b/;
/** Inputs that name a file or directory to read. */
const PATH_INPUTS = /^(path|paths|packages-dir|packages_dir|file|files|file-path|filepath|file_path|body-path|body-file|bodyfile|message-path|json-file|json_file|input|source|dir|directory|folder|publish_dir|publish-dir|working-directory|workingdirectory|project|projectdir|entrypoint|command|args)$/i;

/**
 * The pattern of a download's directory, widened to the directories a later step moves or copies its files into
 * (`mv dl/* dist/`, `cp -r dl/. dist`, `find dl -name '*.whl' -exec mv {} dist/ \;`): what reads those reads the
 * same files. Relative directories only, at most 4.
 */
function withMoves(pattern: RegExp, dir: string, later: readonly Step[]): RegExp {
  const source = dir.replace(/^\.\//, '').replace(/[.+^$()|[\]{}*?\\]/g, '\\$&');
  // A relative directory: it starts with a letter, digit or `_` (not `/`, `$`, `~` or `.`).
  const dest = String.raw`["']?(\w[\w./-]{0,100}?)/?["']?`;
  const move = new RegExp(String.raw`(?:^|[;&|]\s*)(?:mv|cp)\s+(?:-[A-Za-z]+\s+)*["']?(?:\./)?${source}(?:/[^\s"';&|]*)?["']?\s+${dest}\s*(?:$|[;&|])`);
  const found = new RegExp(String.raw`\bfind\s+["']?(?:\./)?${source}/?["']?\s[^\n]*?-exec\s+(?:mv|cp)\s+(?:-[A-Za-z]+\s+)*\{\}\s+${dest}\s*\\?;`);
  const aliases = new Set<string>();
  for (const step of later) {
    if (aliases.size >= 4 || typeof step.run?.value !== 'string') continue;
    for (const line of logicalLines(step.run.value.slice(0, 20_000))) {
      const m = move.exec(line.text) ?? found.exec(line.text);
      if (m?.[1] !== undefined && m[1] !== source) aliases.add(m[1].replace(/\/+$/, ''));
      if (aliases.size >= 4) break;
    }
  }
  return aliases.size === 0 ? pattern : new RegExp([pattern.source, ...[...aliases].map((a) => directoryPattern(a).source)].join('|'));
}

/** A pattern for a workspace subdirectory as a path or word in text (`site` in `./site/`, `cd site`, `--dir=site`, `$(<site/n)`). */
function directoryPattern(dir: string): RegExp {
  // `gh pr comment`, `gh release view`: a subcommand of the GitHub CLI, not a directory named `pr` or `release`.
  return new RegExp(`(^|[\\s'"=:/.(<])(?<!\\bgh\\s+)${dir.replace(/[.+^$()|[\]{}*?\\]/g, '\\$&')}(/|$|[\\s'";)&|])`);
}

/** Every scalar text below a node (bounded: a node's strings, at most 200 of them). */
function texts(node: YNode | undefined, into: string[] = []): string[] {
  if (node === undefined || into.length >= 200) return into;
  if (node.kind === 'scalar') {
    if (typeof node.value === 'string') into.push(node.value);
  } else if (node.kind === 'seq') for (const item of node.items) texts(item, into);
  else for (const pair of node.pairs) texts(pair.value, into);
  return into;
}

/** Names of variables a script assigns from a file's content (`N=$(cat NR)`, `read N < NR`). */
function readVariables(script: string): string[] {
  const names: string[] = [];
  const lines = logicalLines(script);
  for (const line of lines) {
    if (!readsFile(line.text)) continue;
    const assigned = /^\s*(?:export\s+|local\s+)?([A-Za-z_]\w*)=/.exec(line.text)?.[1] ?? /\bread\s+(?:-\w+\s+)*([A-Za-z_]\w*)/.exec(line.text)?.[1];
    if (assigned !== undefined) names.push(assigned);
  }
  // Their plain copies (`SHA="$RAW"`), but for a copy made where the source is checked (inside the branch of `if [[
  // "$RAW" =~ ^[0-9a-f]{40}$ ]]`): that copy holds only the checked shape. A chain of copies is followed a few links.
  for (let round = 0, grew = names.length > 0; grew && round < 4; round++) {
    grew = false;
    for (const line of lines) {
      const copy = plainCopy(line.text);
      if (copy === null || names.includes(copy.to) || !names.includes(copy.from) || checkedLine(script, copy.from, line)) continue;
      names.push(copy.to);
      grew = true;
    }
  }
  return names;
}

interface Tainted {
  /** `steps.<id>.outputs` of the job that carry the files' content. */
  steps: Set<string>;
}

/** What `artifactUses` asks of the run model and the injection analyses (artifact-effects.ts gives it). */
export interface UseContext {
  repository: RepositoryModel;
  /** True when two steps run in the same job run (run model). */
  sameRun: (a: Step, b: Step) => boolean;
  /** True when a step writes the files' content to `$GITHUB_ENV` / `$GITHUB_PATH` (injections.ts). */
  envWrites: (step: Step) => boolean;
  /** What a job holds that is worth taking (run model `valuables`): named when a value decides whether it runs. */
  valuables: (job: Job) => readonly string[];
  /** Whether an output a later step reads carries outsider text there (taint analysis; see `OutputCarries`). */
  carries?: OutputCarries;
  /**
   * True when a job (`step` null) or one of its steps runs an outsider's content (run model: an execution traced
   * to a pull request checkout or a fork's download): a step or job an `if:` unlocks is steered by the fork then.
   */
  runsOutsider?: (job: Job, step: Step | null) => boolean;
  /** True when a later step runs what a checkout step brings (run model sinks); false when nothing runs it. */
  checkoutRuns?: (checkout: Step) => boolean;
  /** True when a step's commands act with a token that can write (run model holdings; notices.ts `givenToken`). */
  tokenWrites?: (step: Step) => boolean;
}

/**
 * Whether an output a step uses still carries outsider text where it is used (`steps.read.outputs.sha` in step
 * `user`): the taint analysis's answer, which follows the script that writes it (and the checks it makes).
 */
export type OutputCarries = (user: Step, path: string) => boolean;

/**
 * What the steps after a download (in the same job run, and the jobs that read the job's outputs) do with the
 * downloaded files. `dir`: where the files landed in the workspace (`''`: the workspace itself, null: not known).
 * `context.carries`: asked about each output of a `run:` step that visibly writes it; an output it says carries
 * nothing (every value written to it is checked first) is not a use of the files' content.
 */
export function artifactUses(download: Step, dir: string | null, context: UseContext): ArtifactUse[] {
  const { repository, sameRun, envWrites, carries } = context;
  const job = download.job;
  if (job === null) return [];
  const uses: ArtifactUse[] = [];
  const named = dir === null || dir === '' ? null : withMoves(directoryPattern(dir), dir, job.steps.filter((s) => s.index > download.index));
  const tainted: Tainted = { steps: new Set() };
  // The step (by id) whose outputs carry their content, and how it wrote them: named at each use of those outputs.
  const readers = new Map<string, { step: Step; evidence: string }>();
  // Job outputs (`needs.<job>.outputs.<name>`) built from those steps' outputs, by the step that read them.
  const passed = new Map<string, { step: Step; evidence: string }>();
  const via = (refs: readonly string[], own: readonly string[] = []) => {
    for (const ref of refs) {
      const reader = readers.get(/^steps\.([\w-]+)\.outputs/.exec(ref)?.[1] ?? '') ?? passed.get(ref);
      if (reader !== undefined) return { via: { step: reader.step, evidence: settingLine(reader.step, outputPath(own, [ref])) ?? reader.evidence } };
    }
    return {};
  };
  for (const step of job.steps) {
    if (step.index < download.index || !sameRun(download, step)) continue;
    const later = step.index > download.index;
    // The script that extracts or downloads the files may write what it reads of them to `$GITHUB_ENV` itself
    // (`unzip pr.zip; n=$(cat pr.txt); echo "PR=$n" >> "$GITHUB_ENV"`).
    if ((later || step.run !== undefined) && envWrites(step)) {
      uses.push({ kind: 'env', step, detail: 'writes their content to `$GITHUB_ENV` or `$GITHUB_PATH`' });
      continue;
    }
    // Outputs of earlier artifact-reading steps, used here.
    // An `if:` true whatever the values (`… || github.event_name == 'workflow_run'` where only `workflow_run` starts it) decides nothing.
    const own = withoutIdleCondition(texts(step.node), step.if, job);
    const refs = [...tainted.steps].filter((id) => own.some((t) => t.includes(`steps.${id}.outputs`)));
    if (later && refs.length > 0) {
      const prefixes = refs.map((id) => `steps.${id}.outputs`);
      uses.push({ ...(checkedOutputs(job, step, own, prefixes, carries) ?? outputUse(step, prefixes, context)), ...via(prefixes, own) });
    }
    const found = later || step.run !== undefined ? stepUse(step, named, later, context) : null;
    if (found === null) continue;
    uses.push(found.use);
    if (found.outputs && step.id !== null) {
      tainted.steps.add(step.id);
      if (!readers.has(step.id)) readers.set(step.id, { step, evidence: found.use.evidence ?? readerEvidence(step) });
    }
  }
  // Job outputs built from those steps' outputs, read by the jobs that need this one.
  const outputs = (job.outputs?.pairs ?? []).filter((p) => [...tainted.steps].some((id) => texts(p.value).some((t) => t.includes(`steps.${id}.outputs`))));
  if (outputs.length > 0) {
    const names = outputs.map((p) => `needs.${job.id}.outputs.${keyText(p.key)}`);
    outputs.forEach((p, i) => {
      const id = [...tainted.steps].find((s) => texts(p.value).some((t) => t.includes(`steps.${s}.outputs`)));
      const reader = id === undefined ? undefined : readers.get(id);
      if (reader !== undefined) passed.set(names[i] as string, reader);
    });
    for (const other of job.workflow.jobs) {
      if (!other.needs.includes(job.id)) continue;
      // A job that only comments or sets statuses: what steers it decides a comment or a status, nothing more.
      const notices = jobNotices(other, repository);
      const notice = notices === null ? null : notices.includes('status') ? 'status' : notices.includes('comment') ? 'comment' : 'label';
      const held = other.uses === undefined ? context.valuables(other) : [];
      const posts =
        notices !== null
          ? `, a job that only ${noticeText(notices)}${other.uses === undefined ? '' : ` (\`${getText(other.node, 'uses') ?? ''}\`)`}`
          : held.length > 0
            ? `, a job that holds ${held.join(', ')}`
            : '';
      const condition = alwaysTrue(other.if, other) ? undefined : texts(other.if).find((t) => names.some((n) => t.includes(n)));
      if (condition !== undefined) {
        const name = names.find((n) => condition.includes(n)) ?? names[0] ?? '';
        // The `if:` only starts or skips the job; values it is given are uses of their own (below). What the job does
        // with the fork's other files (its own download of the run's artifacts, a checkout of the pull request's
        // code) is judged at that download or checkout, with the job's own reach: the gate adds only when it runs.
        const kind: ArtifactUseKind = notice ?? (other.uses !== undefined || held.length === 0 ? 'data' : 'gate');
        const theirs = kind === 'gate' && context.runsOutsider !== undefined && context.runsOutsider(other, null);
        const unsteered =
          kind !== 'gate'
            ? ''
            : theirs
              ? ", and is given none of their values: the fork decides only whether it runs, and what it does with the fork's other files (its own download or checkout) is reported there"
              : ", but runs none of their content: the fork decides only whether the base repository's own steps run";
        uses.push({ kind, step: other.steps[0] ?? download, subject: `job \`${other.id}\``, detail: `runs only when \`${name}\`, read from them, says so (its \`if:\`)${posts}${unsteered}`, ...(theirs ? { runsOutsider: true } : {}), ...via([name]) });
      }
      for (const step of other.steps) {
        const own = withoutIdleCondition(texts(step.node), step.if, other);
        const hit = names.filter((n) => own.some((t) => t.includes(n)));
        if (hit.length > 0) uses.push({ ...outputUse(step, hit, context), ...via(hit, own) });
      }
      if (other.uses !== undefined && texts(other.with).some((t) => names.some((n) => t.includes(n)))) {
        uses.push({ kind: notice ?? 'data', step: download, subject: `job \`${other.id}\``, detail: `passes a value read from them to its reusable workflow${posts}` });
      }
    }
  }
  return uses;
}

/**
 * True when an `if:` (of a step of `job`, or of `job` itself) is true on every occasion the workflow runs the job,
 * whatever the values it reads: `steps.meta.outputs.ok == 'true' || github.event_name == 'workflow_run'` in a
 * workflow only `workflow_run` starts. Such a condition decides nothing, so an output in it is no use of the files.
 */
function alwaysTrue(condition: YNode | undefined, job: Job): boolean {
  if (condition === undefined) return false;
  const occasions = occasionsOf(job.workflow).filter((o) => condition === job.if || conditionTruth(job.if, o) !== false);
  return occasions.length > 0 && occasions.every((o) => conditionTruth(condition, o) === true);
}

/** A step's texts without its `if:` when that condition is true whatever the values (`alwaysTrue`). */
function withoutIdleCondition(own: string[], condition: YNode | undefined, job: Job): string[] {
  if (!alwaysTrue(condition, job)) return own;
  const idle = new Set(texts(condition));
  return own.filter((t) => !idle.has(t));
}

/**
 * The line of a `run:` step that writes output `path` names (`steps.meta.outputs.pr` → the line that writes `pr` to
 * `$GITHUB_OUTPUT`), as written and bounded; null when the path names no output or the script writes it nowhere visible.
 */
function settingLine(step: Step, path: string): string | null {
  const name = /\.outputs\.([\w-]+)$/.exec(path)?.[1];
  const script = step.run?.value;
  if (name === undefined || typeof script !== 'string') return null;
  const line = outputLines(script, name)?.[0];
  return line === undefined ? null : oneLine(line.text.trim()).slice(0, 80);
}

/**
 * A `validated` use when every output of `prefixes` the step reads is written by a `run:` step of `job` that
 * visibly writes it, and `carries` says none carries outsider text here; null otherwise.
 */
function checkedOutputs(job: Job, step: Step, own: readonly string[], prefixes: readonly string[], carries: OutputCarries | undefined, exceptIf = false): ArtifactUse | null {
  if (carries === undefined) return null;
  const paths = new Set<string>();
  for (const text of own) {
    if (!text.includes('.outputs.')) continue;
    for (const match of text.matchAll(/\bsteps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
      if (prefixes.includes(`steps.${match[1] ?? ''}.outputs`)) paths.add(`steps.${match[1] ?? ''}.outputs.${match[2] ?? ''}`);
    }
  }
  // `steps.x.outputs[...]`, `toJSON(steps.x.outputs)`: outputs the analysis cannot name.
  const mentions = own.reduce((n, t) => n + prefixes.reduce((m, p) => m + (t.split(p).length - 1), 0), 0);
  const listed = own.reduce((n, t) => n + (t.match(/\bsteps\.[\w-]+\.outputs\.[\w-]+/g) ?? []).filter((m) => prefixes.some((p) => m.startsWith(`${p}.`))).length, 0);
  if (paths.size === 0 || mentions !== listed) return null;
  // A use in the step's `if:` decides whether it runs, which no check changes (as in `usesOnlyValidated`).
  // With `exceptIf` the caller has taken the `if:` out of `own` and asks only what the step is given once it runs.
  if (!exceptIf && texts(step.if).some((t) => prefixes.some((p) => t.includes(p)))) return null;
  for (const path of paths) {
    const [, id = '', , name = ''] = path.split('.');
    const writer = job.steps.find((s) => s.id === id);
    const script = writer?.run?.value;
    if (typeof script !== 'string' || outputLines(script, name) === null || carries(step, path)) return null;
  }
  return { kind: 'validated', step, detail: `uses \`${[...paths][0] ?? ''}\`, which the step that writes it checks against a pattern first` };
}

/**
 * How a step that reads the files into its outputs wrote them, for the text of a use of those outputs when its own
 * use names no line: a github-script's `core.setOutput(...)` line, an action's name.
 */
function readerEvidence(step: Step): string {
  const ref = step.usesRef;
  if (ref?.kind === 'repository' && ref.slug === 'actions/github-script') {
    const script = getText(step.with, 'script') ?? '';
    const line = script.split('\n').find((l) => /\bcore\.setOutput\s*\(/.test(l)) ?? script.split('\n').find((l) => /^\s*return\b/.test(l));
    return line === undefined ? 'actions/github-script' : oneLine(line.trim()).slice(0, 80);
  }
  if (ref?.kind === 'repository') return ref.path === '' ? ref.slug : `${ref.slug}/${ref.path}`;
  return 'its script';
}

/** A step that uses an output carrying the files' content. */
function outputUse(step: Step, refs: readonly string[], context?: UseContext): ArtifactUse {
  const ref = step.usesRef;
  // Every use checks the value against a pattern or an allow-list first (validation.ts): it has that shape.
  if (usesOnlyValidated(step, refs)) return { kind: 'validated', step, detail: `checks \`${refs[0] ?? ''}\` against a pattern before use` };
  // A step that only comments or sets a status: the value decides its target, or whether it runs.
  const notice = stepNotice(step);
  const gate = step.job !== null && alwaysTrue(step.if, step.job) ? undefined : texts(step.if).find((t) => refs.some((r) => t.includes(r)));
  const ref0 = outputPath(gate === undefined ? texts(step.node) : [gate], refs);
  // The inputs given an output (`number: ${{ steps.intent.outputs.pr_number }}`), named beside the `if:` it decides.
  const inputs = (step.with?.pairs ?? []).filter((p) => texts(p.value).some((t) => refs.some((r) => t.includes(r))));
  const inputText = inputs.length === 0 ? '' : ` (its \`${inputs.map((p) => keyText(p.key)).join('`, `')}\`)`;
  const to = ref?.kind === 'repository' ? ref.slug + (ref.path === '' ? '' : `/${ref.path}`) : 'a script';
  // A step that comments or sets a status with the value expanded with `${{ }}` into its script
  // (`gh pr comment ${{ needs.changes.outputs.pr }} --body "..."`): the value is shell code there before anything posts.
  if (notice === 'comment' || notice === 'status') {
    const inScript = splicedUse(step, refs, context);
    if (inScript !== null) return inScript;
  }
  // Given to its script through `env:` and expanded there unquoted as words of a `gh` or `curl` command with a write token.
  const splits = (notice === 'comment' || notice === 'status') && gate === undefined ? splitEnvArguments(step, refs, context) : undefined;
  const split = splits === undefined ? {} : { splitsArgs: splits };
  const splitText = splits === undefined ? '' : `, and its script expands it unquoted in \`${splits}\``;
  if (notice === 'comment' && gate === undefined && fixedCommentBody(step)) {
    return { kind: 'comment', step, fixedBody: true, detail: `gives \`${ref0}\` to ${commentSink(step)}, which only posts a fixed comment: the value picks the issue or pull request it goes to, not what it says${splitText}`, ...split };
  }
  // A label step given the value through its environment or inputs: spliced into its script, the value is code.
  // Expanded into its script, the value runs as code there (script injection), as in any other step.
  const labelSplice = notice === 'label' ? splicedUse(step, refs, context) : null;
  if (labelSplice !== null) return gate !== undefined ? { kind: 'data', step, detail: `decides in its \`if:\` whether it runs (\`${ref0}\`)` } : labelSplice;
  if (notice !== null) {
    const posts = noticeText([notice]);
    const sink = notice === 'label' ? labelSink(step) : to;
    const given = inputs.length === 0 ? '' : ` and gets \`${outputPath(flatMap(inputs, (p) => texts(p.value)), refs)}\` in its \`${inputs.map((p) => keyText(p.key)).join('`, `')}\``;
    return gate !== undefined
      ? { kind: notice, step, detail: `decides in its \`if:\` whether it runs (\`${ref0}\`)${given}, and it only ${posts} (${sink})` }
      : { kind: notice, step, detail: `gives \`${ref0}\`${inputText} to ${sink}, which only ${posts}${splitText}`, ...split };
  }
  if (gate !== undefined) {
    // Deciding whether a step runs matters when the step holds something and the fork steers what it does: it is
    // given their values (anywhere but its `if:`) or runs their content. Otherwise the fork only starts or skips
    // the base repository's own step: LOW, naming it.
    // A value checked against a pattern before the step gets it (validation.ts; its `if:` aside) has a shape that
    // steers nothing: a number or a commit SHA picks only what the base repository's own code works on.
    const others = texts(step.node).filter((t) => t !== gate);
    const mentioned = others.some((t) => refs.some((r) => t.includes(r)));
    // Checked where it is used, or before the writing step wrote it (`if [[ "$RAW" =~ ^[0-9a-f]{40}$ ]]; then SHA="$RAW"`,
    // then `echo "sha=$SHA" >> "$GITHUB_OUTPUT"`: the taint analysis says the output carries no outsider text).
    const checked =
      mentioned &&
      (usesOnlyValidated(step, refs, true) || (step.job !== null && checkedOutputs(step.job, step, others, refs, context?.carries, true) !== null));
    const given = mentioned && !checked;
    const job = step.job;
    const held = job === null || context === undefined ? [] : context.valuables(job);
    // Given only checked values, the step is the base repository's own whatever it holds.
    if (!given && (held.length > 0 || checked)) {
      const values = checked ? 'is given only values checked against a pattern first' : 'is given none of their values';
      // What the step does with the fork's other files is judged at that download or checkout.
      const runsTheirs = job === null || context?.runsOutsider === undefined || context.runsOutsider(job, step);
      return runsTheirs
        ? { kind: 'gate', step, detail: `decides in its \`if:\` whether it runs (\`${ref0}\`), and that step (${to}) ${values}: the fork decides only whether it runs, and what it does with the fork's other files (its own download or checkout) is reported there`, runsOutsider: true }
        : { kind: 'gate', step, detail: `decides in its \`if:\` whether it runs (\`${ref0}\`), and that step (${to}) runs none of their content and ${values}: the fork decides only whether the base repository's own step runs` };
    }
    const inScript = splicedUse(step, refs, context);
    if (inScript !== null) return inScript;
    return { kind: 'data', step, detail: `decides in its \`if:\` whether it runs (\`${ref0}\`)` };
  }
  // A later download whose run, branch or artifact the value picks: the fork chooses which run's artifacts it fetches,
  // and what those files then do is judged at that download (it is reported on its own, as a run the job picks).
  const picks = pickedDownload(step, refs);
  if (picks !== null) {
    const line = step.owner.file.position(step.node.start).line;
    return { kind: 'pick', step, detail: `gives \`${ref0}\` (its \`${picks.join('`, `')}\`) to ${to}, which only picks the run, branch or artifact it downloads (line ${line})`, picks: { ref: ref0, inputs: picks } };
  }
  // A checkout whose repository or ref the value picks, which no later step runs: the pull request's code lands
  // in the workspace by design (for an action given prebuilt files), and nothing of it runs.
  if (checkoutOnly(step, refs) && context?.checkoutRuns !== undefined && !context.checkoutRuns(step)) {
    return { kind: 'checkout', step, detail: `picks the repository or ref it checks out (\`${outputPath(texts(step.with), refs)}\`), read from them, and no later step runs that checkout` };
  }
  const inScript = splicedUse(step, refs, context);
  if (inScript !== null) return inScript;
  const splitsData = splitEnvArguments(step, refs, context);
  return { kind: 'data', step, detail: `uses \`${refs[0] ?? ''}\`, read from them${splitsData === undefined ? '' : `, and its script expands it unquoted in \`${splitsData}\``}`, ...(splitsData === undefined ? {} : { splitsArgs: splitsData }) };
}

/**
 * The first output path of `refs` (`steps.intent.outputs` or `needs.meta.outputs.number`) a text names in full
 * (`steps.intent.outputs.pr_number`); the ref itself when none is named so (`steps.intent.outputs[...]`).
 */
function outputPath(own: readonly string[], refs: readonly string[]): string {
  for (const text of own) {
    for (const match of text.matchAll(/\b(?:steps|needs)\.[\w-]+\.outputs\.[\w-]+/g)) {
      if (refs.some((r) => match[0] === r || match[0].startsWith(`${r}.`))) return match[0];
    }
  }
  return own.map((t) => refs.find((r) => t.includes(r))).find((r) => r !== undefined) ?? refs[0] ?? '';
}

/** `splitArguments` for a `run:` step given an output of `refs` through its `env:` (`PR: ${{ steps.pr.outputs.number }}`). */
function splitEnvArguments(step: Step, refs: readonly string[], context: UseContext | undefined): string | undefined {
  const script = step.run?.value;
  if (typeof script !== 'string') return undefined;
  const names = (step.env?.kind === 'map' ? step.env.pairs : []).filter((p) => texts(p.value).some((t) => refs.some((r) => t.includes(r)))).map((p) => keyText(p.key));
  if (names.length === 0) return undefined;
  const lines = logicalLines(script);
  return splitArguments(step, lines, (name, line) => names.includes(name) && !checkedLine(script, name, line), context);
}

/** `actions/checkout` given the value only in `repository:` or `ref:` (not in its `if:` or another input). */
function checkoutOnly(step: Step, refs: readonly string[]): boolean {
  if (!isCheckoutAction(step.usesRef)) return false;
  const mentions = (node: YNode | undefined) => texts(node).some((t) => refs.some((r) => t.includes(r)));
  if (mentions(step.if)) return false;
  return (step.with?.pairs ?? []).every((p) => ['repository', 'ref'].includes(keyText(p.key).toLowerCase()) || !mentions(p.value));
}

/**
 * The `data` use of a step that expands an output of `refs` with `${{ }}` into its script (`run:` or a
 * github-script's code) where (when the taint analysis is given) it still carries outsider text: the value runs as
 * code (script injection). Null when it expands none.
 */
function splicedUse(step: Step, refs: readonly string[], context: UseContext | undefined): ArtifactUse | null {
  const script = step.run ?? (step.usesRef?.kind === 'repository' && step.usesRef.slug === 'actions/github-script' ? get(step.with, 'script') : undefined);
  const text = script?.kind === 'scalar' && typeof script.value === 'string' ? script.value : '';
  for (const match of text.matchAll(/\$\{\{([^}]*)\}\}/g)) {
    for (const path of (match[1] ?? '').match(/\b(?:steps|needs)\.[\w-]+\.outputs\.[\w-]+/g) ?? []) {
      if (!refs.some((r) => path === r || path.startsWith(`${r}.`))) continue;
      if (context?.carries !== undefined && !context.carries(step, path)) continue;
      const where = step.run !== undefined ? '`run:` script, where their text runs as shell code' : 'github-script, where their text runs as JavaScript';
      return { kind: 'data', step, detail: `expands \`${path}\`, read from them, with \`\${{ }}\` into its ${where} (script injection)`, spliced: true };
    }
  }
  return null;
}

/** What one step does with the files (null: nothing the engine sees), and whether its outputs carry their content. */
function stepUse(step: Step, named: RegExp | null, later: boolean, context?: UseContext): { use: ArtifactUse; outputs: boolean } | null {
  const ref = step.usesRef;
  if (typeof step.run?.value === 'string') {
    if (later) return scriptUse(step, step.run.value, named, context);
    // The download's own script: what it does with the files after the command that downloads them.
    const lines = logicalLines(step.run.value);
    const at = lines.findIndex((l) => /\bgh\s+run\s+download\b/.test(l.text));
    const rest = at === -1 ? '' : lines.slice(at + 1).map((l) => l.text).join('\n');
    return rest.trim() === '' ? null : scriptUse(step, rest, named, context);
  }
  if (ref?.kind !== 'repository') return null;
  if (ref.slug === 'actions/github-script') {
    const script = getText(step.with, 'script') ?? '';
    if (!/\breadFileSync\b|\breadFile\s*\(|\bfs\.promises\b|\brequire\(\s*['"]fs/.test(script)) return null;
    const calls = [...script.matchAll(API_CALLS)].map((m) => m[1] ?? m[2] ?? '');
    const comments = calls.filter((c) => COMMENT_CALLS.test(c) || /^list\w*Artifacts$|^downloadArtifact$|^get$/.test(c));
    const labels = calls.filter((c) => LABEL_CALLS.test(c));
    if (labels.length > 0 && comments.length + labels.length === calls.length && !calls.some((c) => COMMENT_CALLS.test(c)) && runToken(step)) {
      return { use: { kind: 'label', step, detail: 'reads them only to pick a label, or the issue or pull request that actions/github-script adds it to or removes it from' }, outputs: true };
    }
    if (calls.length > 0 && comments.length === calls.length) {
      if (fixedCommentBody(step)) {
        return { use: { kind: 'comment', step, fixedBody: true, detail: 'reads them only to pick the issue or pull request that actions/github-script posts a fixed comment on' }, outputs: true };
      }
      return { use: { kind: 'comment', step, detail: 'reads them into a comment (github-script)' }, outputs: true };
    }
    if (scriptChecksWhatItReads(script)) return { use: { kind: 'validated', step, detail: 'checks the values it reads against a pattern (github-script)' }, outputs: false };
    // A script that only reads them into its outputs (`core.setOutput('pr', fs.readFileSync('pr/number', 'utf8'))`,
    // or its return value), calling no API but to read: where the outputs are used decides, as for a `run:` step
    // that writes them to `$GITHUB_OUTPUT` (a pull request number given to a comment is LOW there, spliced into a
    // script it is an injection).
    if (readsIntoOutputsOnly(script, calls)) return { use: { kind: 'read', step, detail: 'reads them into step outputs (github-script)' }, outputs: true };
    return { use: { kind: 'data', step, detail: 'reads them in a github-script' }, outputs: true };
  }
  // An action given a path in (or, for a download into the workspace itself, any relative path).
  if (!givenPathIn(step, named)) return null;
  const notice = stepNotice(step);
  if (notice === 'comment') return { use: { kind: 'comment', step, detail: `posts them as a comment (${ref.slug})` }, outputs: false };
  if (notice === 'status') return { use: { kind: 'status', step, detail: `gives them to ${ref.slug}, which only sets a commit status or check` }, outputs: false };
  if (notice === 'label') return { use: { kind: 'label', step, detail: `gives them to ${ref.slug}, which only adds or removes labels` }, outputs: false };
  // An action that reads a file into outputs (json-to-output, read-file): what the outputs feed decides.
  const full = ref.path === '' ? ref.slug : `${ref.slug}/${ref.path}`;
  if (step.id !== null && FILE_READING_ACTION.test(full)) return { use: { kind: 'read', step, detail: `reads them into outputs (${full})` }, outputs: true };
  return { use: { kind: 'content', step, detail: `hands them to ${full}` }, outputs: false };
}

/** Actions named for reading a file into step outputs (`json-to-output`, `read-file`, `jq-action`, `yq`, `dotenv`). */
const FILE_READING_ACTION = /json|read|file|jq|yq|output|var/i;

/**
 * True when a step reads files of the workspace into what it does or outputs: a `run:` script that reads a file
 * (`READS_FILE`: `cat`, `$(<f)`, `jq`), a github-script that reads one, or an action named for reading a file
 * (`FILE_READING_ACTION`) given a relative path. What it read can be another run's files that landed there.
 */
export function readsWorkspaceFile(step: Step): boolean {
  if (typeof step.run?.value === 'string') return logicalLines(step.run.value).some((l) => readsFile(l.text));
  const ref = step.usesRef;
  if (ref?.kind !== 'repository') return false;
  if (ref.slug === 'actions/github-script') return /\breadFileSync\b|\breadFile\s*\(|\bfs\.promises\b/.test(getText(step.with, 'script') ?? '');
  return FILE_READING_ACTION.test(ref.path === '' ? ref.slug : `${ref.slug}/${ref.path}`) && givenPathIn(step, null);
}

/** True when one of the step's path inputs names the directory `named` (null: any relative path, for a download into the workspace). */
function givenPathIn(step: Step, named: RegExp | null): boolean {
  const inputs = (step.with?.pairs ?? []).filter((p) => PATH_INPUTS.test(keyText(p.key)));
  return inputs.some((p) => texts(p.value).some((t) => (named !== null ? named.test(t) : !t.includes('${{') && /^[\w./-]+$/.test(t.trim()) && !t.trim().startsWith('/'))));
}

/**
 * True when `step` is an action of another repository named for reading a file into its outputs (`json-to-output`,
 * `read-file` ...; not github-script, whose script says what it reads) and given a path where `download` put its
 * files, after it: its outputs carry the files' content (the taint analysis and pr-head.ts read them so).
 */
export function readsDownloadIntoOutputs(step: Step, download: ForeignDownload): boolean {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository' || ref.slug === 'actions/github-script' || download.step.index >= step.index || download.step.job !== step.job) return false;
  if (!FILE_READING_ACTION.test(ref.path === '' ? ref.slug : `${ref.slug}/${ref.path}`) || stepNotice(step) !== null) return false;
  if (download.isolated) {
    const outside = normalizeOutside(download.destination ?? '');
    return (step.with?.pairs ?? []).some((p) => PATH_INPUTS.test(keyText(p.key)) && texts(p.value).some((t) => normalizeOutside(t).startsWith(outside)));
  }
  return givenPathIn(step, downloadDirName(download));
}

/** A github-script script that sets outputs (or returns a value) and does nothing else: no call but a read, no process, write or `eval`. */
function readsIntoOutputsOnly(script: string, calls: readonly string[]): boolean {
  if (!/\bcore\.setOutput\s*\(|^\s*return\b[^;\n]*\S/m.test(script) || scriptDoesMore(script)) return false;
  return calls.every((call) => /^(?:get|list|download)/.test(call));
}

/**
 * True when a github-script reads files only into names it checks before any other use, stopping otherwise, or
 * turns into numbers: `const pr = fs.readFileSync('pr/number', 'utf8').trim(); if (!/^\d+$/.test(pr)) {
 * core.setFailed('bad'); return; }`, `const n = Number(fs.readFileSync(...))` (`githubScriptChecks`). A read
 * into anything else (`JSON.parse(...)`, an argument) is not.
 */
function scriptChecksWhatItReads(script: string): boolean {
  const reads = script.match(/\breadFile(?:Sync)?\s*\(/g)?.length ?? 0;
  if (reads === 0 || script.length > 50_000) return false;
  const checks = githubScriptChecks(script);
  let checked = 0;
  for (const match of script.matchAll(/^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]{0,60})\s*=\s*([^\n;]*\breadFile(?:Sync)?\s*\([^\n;]*)\s*;?\s*$/gm)) {
    const name = match[1] as string;
    const check = checks.get(name);
    if (check === undefined || (match[2]?.match(/\breadFile(?:Sync)?\s*\(/g)?.length ?? 0) !== 1) return false;
    const assigned = (match.index ?? 0) + match[0].length;
    // A number made from the file (`Number(...)`) carries no text; a pattern check must come before any other use.
    if (!JS_NUMBER.test(match[2] ?? '')) {
      const first = new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`).exec(script.slice(assigned));
      if (first === null || assigned + first.index < check.from || assigned + first.index > check.at) return false;
    }
    checked++;
  }
  return checked === reads;
}

/** `[ -f dir/x ]`, `test -d dir`: whether a path exists, not what it holds. */
const FILE_TEST = /\[\[?\s+(?:!\s+)?-[efdsLh]\s+(?:"[^"\n]*"|'[^'\n]*'|[^\s\]]+)\s+\]\]?|\btest\s+(?:!\s+)?-[efdsLh]\s+(?:"[^"\n]*"|'[^'\n]*'|\S+)/g;

function scriptUse(step: Step, script: string, directory: RegExp | null, context?: UseContext): { use: ArtifactUse; outputs: boolean } | null {
  // A line that names the download's directory outside a test of whether a file exists there.
  const named = directory === null ? null : { test: (text: string) => directory.test(text.includes('-') ? text.replace(FILE_TEST, ' ') : text) };
  const lines = logicalLines(script);
  const validated = validatedVariables(script);
  const variables = readVariables(script);
  const grouped = groupedIntoOutputs(lines);
  const staged = stagedOutputs(lines);
  for (const line of staged.writes) grouped.add(line);
  const relevant = lines.filter((l) => readsFile(l.text) || (named !== null && named.test(l.text)));
  if (relevant.length === 0 && variables.length === 0) return null;
  // Lines that use what was read: they read (and do not only assign), or expand a variable assigned from a read.
  // Each variable's expansion (`$N`, `${N}`), one pattern per variable for every line.
  const expansions = variables.map((v) => new RegExp(`\\$\\{?${v}\\b`));
  let consumers = lines.filter((l) => {
    const uses = expansions.some((e) => e.test(l.text));
    // `X=$(jq -r .n f || true)`: the separators inside the command substitution are its own. `read -r X < f` only assigns too.
    const assignsOnly = (/^\s*(?:export\s+|local\s+)?[A-Za-z_]\w*=/.test(l.text) || READ_INTO.test(l.text)) && !/;|&&|\|\|/.test(l.text.replace(/\$\((?:[^()]|\([^()]*\))*\)/g, ''));
    return (uses && !/^\s*(if\b|\[\[|\[\s|test\b)/.test(l.text)) || (readsFile(l.text) && !assignsOnly) || (named !== null && named.test(l.text) && !readsFile(l.text));
  });
  // A value read here (a variable not checked on that line, or a file read in a substitution) split into the words of
  // a `gh` or `curl` command with a write token, on any line (a test, a condition or an assignment too) and whatever
  // else the step does with it.
  const splitCall = splitArguments(step, lines, (name, line) => variables.includes(name) && !checkedLine(script, name, line), context);
  if (consumers.length === 0) {
    // Used only in tests and conditions (`if [[ $(gh api .../pulls/$PR/files) ]]`), which still run that call.
    if (splitCall !== undefined) return { use: { kind: 'data', step, detail: `expands what it reads unquoted in \`${splitCall}\``, splitsArgs: splitCall }, outputs: false };
    return variables.length > 0 && variables.every((v) => validated.has(v)) ? { use: { kind: 'validated', step, detail: 'checks the values it reads against a pattern' }, outputs: false } : null;
  }
  const all = consumers.map((l): ArtifactUseKind | null => {
    // The copy of the script's own staging file into the outputs: the lines that wrote it are judged instead.
    if (staged.copies.has(l)) return null;
    // A plain copy into another variable (`SHA="$RAW"`) is no use of its own: the copy's uses are judged (`readVariables`).
    const copy = plainCopy(l.text);
    if (copy !== null && variables.includes(copy.to)) return null;
    const firstWords = flatMap(pipelines(l), (p) => p.commands.map((c) => commandName(c.text) ?? ''));
    // Only validated values (a number checked against `^[0-9]+$`), and no file read on the line itself.
    const expanded = variables.filter((_, i) => (expansions[i] as RegExp).test(l.text));
    if (!readsFile(l.text) && expanded.length > 0 && expanded.every((v) => checkedLine(script, v, l)) && (named === null || !named.test(l.text))) return 'validated';
    if (COMMENT_COMMAND.test(l.text)) return 'comment';
    // An output carries the value on: where it is used decides.
    if (/GITHUB_OUTPUT/.test(l.text) || grouped.has(l)) return variables.every((v) => !l.text.includes(v) || checkedLine(script, v, l)) && !readsFile(l.text) ? 'validated' : 'read';
    // Moving, unpacking or printing files (and values) decides nothing; a moved value read into another command does.
    // A line that only prints or moves the files (`cat pr/intent` to the log), expanding no value read from them and
    // writing no output (`::set-output`), is no use at all: their content reaches no output there.
    if (firstWords.every((w) => FILE_SHUFFLING.has(w)) && !/\$\(/.test(l.text)) {
      if (expanded.length === 0 && !/::set-output\b/.test(l.text)) return null;
      return firstWords.every((w) => w === 'echo' || w === 'printf') || expanded.length === 0 ? 'read' : 'data';
    }
    if (!readsFile(l.text) && !variables.some((v) => l.text.includes(v)) && CONTENT_COMMANDS.test(l.text)) return 'content';
    if (variables.length > 0 && variables.every((v) => validated.has(v)) && !readsFile(l.text)) return 'validated';
    // A line that only adds or removes labels with the run's own token: the value picks a label or its target.
    const commands = flatMap(pipelines(l), (p) => p.commands.map((c) => c.text.trim()));
    if (commands.some(labelCommand) && commands.every((c) => labelCommand(c) || INERT_WORDS.has(commandName(c) ?? '')) && runToken(step)) return 'label';
    return 'data';
  });
  const kept = consumers.filter((_, i) => all[i] !== null);
  if (kept.length === 0) {
    if (splitCall !== undefined) return { use: { kind: 'data', step, detail: `expands what it reads unquoted in \`${splitCall}\``, splitsArgs: splitCall }, outputs: false };
    return null;
  }
  const kinds = all.filter((k): k is ArtifactUseKind => k !== null);
  consumers = kept;
  const outputs = kinds.includes('read');
  const kind = USE_ORDER.find((k) => kinds.includes(k)) ?? 'data';
  // The line quoted: of those of that kind, the one that names the download's own directory (a script that reads two
  // downloads, `aws s3 cp ./a/ ...` then `aws s3 cp ./b/ ...`, is quoted at the command that reads each).
  // For outputs, a line that writes them (`>> "$GITHUB_OUTPUT"`, `::set-output`, a group redirected there) before one
  // that only prints a value (`echo "::warning::bad number $PR"`).
  const writes = (l: ScriptSpan) => /GITHUB_OUTPUT|::set-output\b/.test(l.text) || grouped.has(l);
  const writer = (k: ArtifactUseKind) => consumers.find((l, i) => kinds[i] === k && writes(l));
  const at = (kind === 'read' ? writer('read') : undefined) ?? (named === null ? undefined : consumers.find((l, i) => kinds[i] === kind && named.test(l.text))) ?? consumers[kinds.indexOf(kind)];
  const fixed = kind === 'comment' && fixedCommentBody(step) && consumers.every((l, i) => kinds[i] !== 'comment' || !/--body-file|\s-F\b/.test(l.text));
  const splits = kind === 'validated' ? undefined : splitCall;
  const detail =
    kind === 'comment'
      ? fixed
        ? `reads them only to pick the issue or pull request that ${commentSink(step)} posts a fixed comment on`
        : 'posts them as a comment'
      : kind === 'label'
        ? `reads them only to pick a label, or the issue or pull request that ${labelSink(step)} adds it to or removes it from`
      : kind === 'content'
        ? `uploads or deploys them as they are (\`${oneLine((at?.text ?? '').trim()).slice(0, 80)}\`)`
        : kind === 'validated'
          ? 'checks the values it reads against a pattern'
          : kind === 'read'
            ? `reads them into step outputs (\`${oneLine((at?.text ?? '').trim()).slice(0, 80)}\`)`
            : `uses their content in \`${oneLine((at?.text ?? '').trim()).slice(0, 80)}\``;
  const evidence = kind === 'read' || outputs ? oneLine(((kind === 'read' ? at : (writer('read') ?? consumers[kinds.indexOf('read')]))?.text ?? '').trim()).slice(0, 80) : undefined;
  return { use: { kind, step, detail: splits === undefined ? detail : `${detail}, and expands what it reads unquoted in \`${splits}\``, ...(fixed ? { fixedBody: true } : {}), ...(splits !== undefined ? { splitsArgs: splits } : {}), ...(evidence !== undefined ? { evidence } : {}) }, outputs };
}

/** `read -r X < f`, `read X Y <f`: a line that only assigns variables from a file. */
const READ_INTO = /^\s*read\s+(?:-[a-zA-Z]+\s+)*[A-Za-z_]\w*(?:\s+[A-Za-z_]\w*)*\s*<(?!<)/;

/**
 * The lines of a command group whose output goes to `$GITHUB_OUTPUT` (`{`, `echo "pr=$(cat NR)"`, `} >>
 * "$GITHUB_OUTPUT"`): each writes an output, as a line that redirects there itself.
 */
function groupedIntoOutputs(lines: readonly ScriptSpan[]): Set<ScriptSpan> {
  const grouped = new Set<ScriptSpan>();
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\{\s*$/.test((lines[i] as ScriptSpan).text)) continue;
    const end = lines.findIndex((l, j) => j > i && /^\s*\}/.test(l.text));
    if (end === -1) break;
    if (/^\s*\}\s*>>?\s*["']?\$\{?GITHUB_OUTPUT\b/.test((lines[end] as ScriptSpan).text)) for (let j = i + 1; j < end; j++) grouped.add(lines[j] as ScriptSpan);
    i = end;
  }
  return grouped;
}

/**
 * A staging file of the script's own (`F=$(mktemp)`, its only assignments) copied whole into `$GITHUB_OUTPUT`
 * (`cat "$F" >> "$GITHUB_OUTPUT"`): the lines that write to it (`echo "sha=$SHA" >> "$F"`) write outputs, as lines
 * that redirect to `$GITHUB_OUTPUT` do, and the copy reads that file, not the download (`copies`).
 */
function stagedOutputs(lines: readonly ScriptSpan[]): { writes: Set<ScriptSpan>; copies: Set<ScriptSpan> } {
  const writes = new Set<ScriptSpan>();
  const copies = new Set<ScriptSpan>();
  for (const line of lines) {
    const name = /^\s*cat\s+["']?\$\{?([A-Za-z_]\w*)\}?["']?\s*>>?\s*["']?\$\{?GITHUB_OUTPUT\}?["']?\s*$/.exec(line.text)?.[1];
    if (name === undefined) continue;
    const assigned = new RegExp(`^\\s*(?:(?:export|local|readonly)\\s+)?${name}=`);
    const assignments = lines.filter((l) => assigned.test(l.text));
    const temporary = new RegExp(`^\\s*(?:(?:export|local|readonly)\\s+)?${name}=["']?\\$\\(\\s*mktemp\\b[^)\\n]*\\)["']?\\s*$`);
    if (assignments.length === 0 || !assignments.every((l) => temporary.test(l.text))) continue;
    copies.add(line);
    const redirect = new RegExp(`>>?\\s*["']?\\$\\{?${name}\\b`);
    for (const l of lines) if (l !== line && redirect.test(l.text)) writes.add(l);
  }
  return { writes, copies };
}

/** Programs whose options a word added by splitting can change: the GitHub CLI and curl, given the token. */
const TOKEN_COMMANDS = new Set(['gh', 'curl']);

/**
 * The first `gh` or `curl` command of `lines` that expands a value read from the files outside quotes (a variable
 * `carried(name, line)` says carries it unchecked, or a substitution that reads a file), when the step acts with a
 * token that can write (`context.tokenWrites`): word splitting adds the fork's words to that call. Commands run by a
 * command substitution count wherever it stands (`SHA=$(gh api repos/$R/pulls/$PR --jq .head.sha)`,
 * ``if [[ `gh api .../pulls/$PR/files --jq length` -gt 0 ]]``, `echo "$(curl ... $PR)" | jq`): the shell splits an
 * unquoted expansion of the inner command whatever surrounds the substitution; `"$PR"` there is quoted. Undefined otherwise.
 */
function splitArguments(step: Step, lines: readonly ScriptSpan[], carried: (name: string, line: ScriptSpan) => boolean, context: UseContext | undefined): string | undefined {
  if (context?.tokenWrites === undefined || !context.tokenWrites(step)) return undefined;
  for (const line of lines) {
    for (const command of tokenCommands(line, 0)) {
      const { variables, substitutions } = unquotedExpansions(command);
      if (variables.some((v) => carried(v, line)) || substitutions.some((s) => readsFile(s))) return oneLine(command.trim()).slice(0, 80);
    }
  }
  return undefined;
}

/** The `gh` and `curl` commands of a line, and of the command substitutions in its commands, nested (at most 4 deep). */
function tokenCommands(line: ScriptSpan, depth: number): string[] {
  const found: string[] = [];
  for (const pipeline of pipelines(line)) {
    for (const command of pipeline.commands) {
      // `if gh api ...; then`, `! curl ...`: the reserved word starts a compound command, the program follows it.
      const text = command.text.replace(/^(?:(?:if|then|elif|else|while|until|do|!)\s+)+/, '');
      if (TOKEN_COMMANDS.has(commandName(text) ?? '')) found.push(text);
      if (depth >= 4 || !/\$\(|`/.test(command.text)) continue;
      for (const body of substitutionBodies(command.text)) {
        for (const inner of logicalLines(body.text)) found.push(...tokenCommands(inner, depth + 1));
      }
    }
  }
  return found;
}

/** `posts, edits or hides a comment`, `sets a commit status or check`, or both. */
function noticeText(notices: readonly Notice[]): string {
  return notices
    .map((n) => (n === 'comment' ? 'posts, edits or hides a comment' : n === 'label' ? 'adds or removes a label' : 'sets a commit status or check'))
    .sort()
    .join(' and ');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/** `${{ runner.temp }}`, `${RUNNER_TEMP}`, `%RUNNER_TEMP%`, `$env:RUNNER_TEMP` as `$RUNNER_TEMP`; quotes and trailing slashes off. */
function normalizeOutside(path: string): string {
  return path
    .trim()
    .replace(/^(["'])(.*)\1$/, '$2')
    .replace(/\$\{\{\s*runner\.temp\s*\}\}|\$\{RUNNER_TEMP\}|%RUNNER_TEMP%|\$env:RUNNER_TEMP/g, '$RUNNER_TEMP')
    .replace(/["']/g, '')
    .replace(/\/+$/, '');
}

/** A command that runs a file from where a download outside the workspace put it: its step, the command, its line's offset. */
export interface IsolatedExecution {
  step: Step;
  evidence: string;
  offset: number;
}

/** `tar` and `unzip` commands that extract an archive, and the option naming where (`-C dir`, `--directory=dir`, `-d dir`). */
const EXTRACTORS: Record<string, { extracts: (args: readonly string[]) => boolean; target: readonly string[] }> = {
  tar: { extracts: (args) => args.some((a, i) => a === '--extract' || a === '--get' || (/^-?[a-zA-Z]*x[a-zA-Z]*$/.test(a) && (i === 0 || a.startsWith('-')))), target: ['-C', '--directory'] },
  unzip: { extracts: () => true, target: ['-d'] },
};

/**
 * Calls `visit` with each command of the `run:` steps after a download outside the workspace (in its own step, the
 * commands after its own) in the steps `sameRun` keeps (every step of the job when it is not given): the step, the
 * command's words (`${{ runner.temp }}` written as `$RUNNER_TEMP`), its text, its line's offset, and `inside`,
 * whether a word names where the download put the files or a path below it. Nothing when the destination is not a
 * fixed path.
 */
function forCommandsAfter(
  download: ForeignDownload,
  sameRun: ((a: Step, b: Step) => boolean) | undefined,
  visit: (step: Step, list: readonly string[], text: string, offset: number, inside: (word: string) => boolean) => void,
): void {
  const job = download.step.job;
  if (job === null || download.destination === null) return;
  const dest = normalizeOutside(download.destination);
  if (dest === '' || dest.includes('${{')) return;
  const inside = (word: string) => {
    const w = normalizeOutside(word);
    return w === dest || w.startsWith(`${dest}/`);
  };
  for (const step of job.steps) {
    if (step.index < download.step.index || (sameRun !== undefined && !sameRun(download.step, step)) || typeof step.run?.value !== 'string') continue;
    if (!mayName(step.run.value, dest)) continue;
    for (const line of logicalLines(step.run.value)) {
      if (step === download.step && line.offset <= (download.scriptOffset ?? -1)) continue;
      for (const pipeline of pipelines(line)) {
        for (const command of pipeline.commands) {
          visit(step, words(command.text.replace(/\$\{\{\s*runner\.temp\s*\}\}/g, '$RUNNER_TEMP')), command.text, line.offset, inside);
        }
      }
    }
  }
}

/**
 * Whether a script can hold a word that `inside` takes for `dest` (normalized) or a path below it: a cheap test
 * that skips the scripts that cannot, and only those. A word is a stretch of one line of the script less some
 * quotes and backslashes (`words`), and `normalizeOutside` only takes quotes, blanks and trailing slashes off it,
 * but for the forms of the runner's temporary directory it (and `forCommandsAfter`, for `${{ runner.temp }}`)
 * writes as `$RUNNER_TEMP`; a match that does not name that directory cannot overlap one. So, with quotes and
 * backslashes taken out of both: a `dest` that does not name `RUNNER_TEMP` is in the script, and for one that
 * does, the script names `RUNNER_TEMP` or `runner.temp`. (A test on the script as written misses
 * `bash /tmp/"build"/run.sh` for `/tmp/build`.)
 */
function mayName(script: string, dest: string): boolean {
  const bare = script.replace(/["'\\]/g, '');
  return dest.includes('RUNNER_TEMP') ? bare.includes('RUNNER_TEMP') || bare.includes('runner.temp') : bare.includes(dest.replace(/\\/g, ''));
}

/**
 * For a download outside the workspace: the later commands of the same job that extract an archive from there
 * into the workspace (`tar -xzf "$RUNNER_TEMP/a/build.tgz" -C .`, `unzip /tmp/a/dist.zip -d dist`), each with
 * the directory it extracts into as written (null: the command's own directory) and its line's offset. The files
 * leave the isolated directory there: what runs in that directory runs them. Every later step counts (the
 * workspace is the job's, whichever of its runs).
 */
export function isolatedExtractions(download: ForeignDownload): { step: Step; target: string | null; evidence: string; offset: number }[] {
  if (!download.isolated) return [];
  const found: { step: Step; target: string | null; evidence: string; offset: number }[] = [];
  forCommandsAfter(download, undefined, (step, list, text, offset, inside) => {
    const name = list[0];
    const extractor = name === undefined ? undefined : EXTRACTORS[name];
    if (extractor === undefined) return;
    const args = list.slice(1);
    if (!extractor.extracts(args) || !args.some(inside)) return;
    const at = args.findIndex((a) => extractor.target.includes(a) || extractor.target.some((t) => t.startsWith('--') && a.startsWith(`${t}=`)));
    const option = args[at];
    const target = at === -1 || option === undefined ? null : option.includes('=') ? option.slice(option.indexOf('=') + 1) : (args[at + 1] ?? null);
    // Extracted into another directory outside the workspace: still kept aside.
    if (target !== null && (ISOLATED.test(target) || normalizeOutside(target).startsWith('$RUNNER_TEMP'))) return;
    found.push({ step, target, evidence: `\`${oneLine(text.trim()).slice(0, 80)}\``, offset });
  });
  return found;
}

const RUNS_FILE = new Set(['bash', 'sh', 'zsh', 'dash', 'source', '.', 'python', 'python3', 'node', 'ruby', 'perl', 'pwsh', 'php']);

/**
 * For a download outside the workspace (`path: ${{ runner.temp }}/a`, `gh run download -D /tmp/a`): the later
 * commands of the same job run that run a file from there (`bash /tmp/a/run.sh`, `source "$RUNNER_TEMP/a/env"`,
 * `/tmp/a/tool --x`). Keeping the files out of the workspace protects the checkout; running them is running them.
 */
export function isolatedExecutions(download: ForeignDownload, sameRun: (a: Step, b: Step) => boolean): IsolatedExecution[] {
  const found: IsolatedExecution[] = [];
  forCommandsAfter(download, sameRun, (step, list, text, offset, inside) => {
    const first = list[0];
    if (first === undefined) return;
    const script = RUNS_FILE.has(first) ? list.slice(1).find((w) => !w.startsWith('-')) : undefined;
    if (inside(first) || (script !== undefined && inside(script))) found.push({ step, evidence: `\`${oneLine(text.trim()).slice(0, 80)}\``, offset });
  });
  return found;
}

/**
 * Who decides what a download holds: `outsider` when the run it fetches can be a fork's (the triggering run of
 * a `workflow_run` that follows pull request runs, or a run any privileged trigger lets the job pick by branch,
 * pull request or computed id), `base` when it is one only collaborators cause, `other` otherwise.
 */
export function downloadContent(download: ForeignDownload, workflow: Workflow, repository: RepositoryModel): 'outsider' | 'base' | 'other' {
  const choice = runChoice(download);
  if (choice === 'trusted') return 'base';
  if (choice === 'chosen' && picksOwnWorkflowRuns(download, repository)) return 'base';
  if (choice === 'triggering') {
    const following = followingWorkflows(workflow);
    if (following.length === 0) return 'other';
    return following.some((w) => forkArtifactOrigins(w, repository).length > 0) ? 'outsider' : 'base';
  }
  return privilegedTriggers(workflow).length > 0 ? 'outsider' : 'other';
}

/**
 * The `workflow_run` workflows whose followed run is the run `github.event.workflow_run.id` names in `workflow`: itself
 * when it runs on `workflow_run`; for a reusable workflow, those of the repository's jobs that call it (a caller's
 * `github.event` is the callee's), through at most 3 calls.
 */
function followingWorkflows(workflow: Workflow, depth = 0): Workflow[] {
  if (workflow.triggers.some((t) => t.name === 'workflow_run')) return [workflow];
  const callers = workflow.callerJobs;
  if (callers === undefined || depth >= 3) return [];
  return [...new Set(flatMap(callers, (job) => followingWorkflows(job.workflow, depth + 1)))];
}

/**
 * How a fork's data reaches the artifacts of a run a `workflow_run` workflow follows, one per name its `workflows:`
 * follows (a single unnamed one when it names none or a computed one): a fork's pull request can start a run of any
 * followed name (workflow-run.ts `followsUntrustedRuns`), so each run it follows can be the fork's. `added` when the
 * repository's workflows of that name do not run on pull requests (none on `pull_request*`): the fork's own workflow
 * of that name does, and the descriptions say so.
 */
export interface ForkArtifactOrigin {
  /** The followed workflow, as `workflows:` names it (empty when `workflows:` names none). */
  name: string;
  /** The repository's workflows of that name do not run on pull requests; a workflow the fork adds does. */
  added?: true;
}

/**
 * `forkArtifactOrigins` of the workflows being read, kept per workflow for the scan (every download of a job asks).
 */
const originsCache = new ScanCache<Workflow, readonly ForkArtifactOrigin[]>();

export function forkArtifactOrigins(workflow: Workflow, repository: RepositoryModel): readonly ForkArtifactOrigin[] {
  let found = originsCache.get(workflow);
  if (found === undefined) {
    found = (followedWorkflows(workflow, repository) ?? []).map(({ name, upstream, unknown }) => (unknown || upstream.some(runsOnPullRequests) ? { name } : { name, added: true as const }));
    originsCache.set(workflow, found);
  }
  return found;
}

/**
 * The words for who chooses the files of a followed run's artifacts (`forkArtifactOrigins`): `the run of \`build\`
 * can come from a fork's pull request`, saying how when only a workflow the fork adds gives it that name. Null when
 * no origin is known (the caller's own words apply).
 */
export function forkOriginText(all: readonly ForkArtifactOrigin[]): string | null {
  if (all.length === 0) return null;
  const named = all.filter((o) => o.name !== '').map((o) => `\`${o.name}\``);
  // Names only a workflow the fork adds gives it: say how, since the repository's own workflow of the name does not run on pull requests.
  const added = all.every((o) => o.added === true) ? `, which can add a workflow of ${named.length > 1 ? 'such a name' : 'that name'} that runs on \`pull_request\` (the repository's own does not)` : '';
  return `${named.length > 0 ? `the run of ${named.join(', ')}` : 'the run'} can come from a fork's pull request${added}`;
}
