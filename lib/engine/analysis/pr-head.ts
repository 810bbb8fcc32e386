import { approvalRaceClosedBefore } from './approval-race.js';
import { expressionsOf, findExpressions } from '../expressions/extract.js';
import { Binary, ContextAccess, contextPath, Grouping, IndexAccess, Literal, Logical, parseExpression, walkExpression, type Expr } from '../expressions/parse.js';
import { earlierForeignDownload, githubScriptNamesDownload, outsiderDownloadBefore, readsDownloadIntoOutputs, readsFile, stepDownloads, type ForeignDownload } from './artifacts.js';
import { referencedEnvVars } from './script-outputs.js';
import type { RepositoryModel } from '../model/repository.js';
import { privilegedTriggers, workflowRunSets, type Job, type Step, type Workflow } from '../model/workflow.js';
import { logicalLines, pipelines, words } from '../shell.js';
import { get, getText, keyText, type YNode, type YScalar } from '../yaml/model.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { feedingLines, githubScriptOutputValues, outputSources, scriptLines } from './script-outputs.js';
import { environmentApproves, everyPathGuarded, holdsOnForks, stepTrust, type TrustGuardKind, type TrustPaths } from './trust-guards.js';
import { followsUntrustedRuns } from './workflow-run.js';
import { dispatchGate } from './dispatch-gate.js';
import { hasAny, scriptOf, wordMask } from './file-scripts.js';
import { ScanCache } from '../model/scan-cache.js';
import { localCallers } from './callers.js';
import { legsOf, occasionsOfSet, overlap } from './run-model/conditions.js';
import { reachOf } from './run-model/reach.js';
import { flatMap } from '../model/arrays.js';
import { isCheckoutAction } from '../model/uses.js';

/** What makes the head of a pull request reachable, and dangerous, in a workflow. */
export interface PrHeadTriggers {
  /** Privileged triggers with a pull request payload: `pull_request_target`, `pull_request_review*`. */
  pullRequest: string | null;
  /** `workflow_run`, when the runs it follows may come from a fork's pull request. */
  workflowRun: boolean;
  /** Any privileged trigger (`refs/pull/<n>/head` can be fetched from all of them), or null. */
  privileged: string | null;
  /** The repository scanned: whose artifacts a download brings (`downloadContent`) depends on its workflows. */
  repository: RepositoryModel;
}

export function prHeadTriggers(workflow: Workflow, repository: RepositoryModel): PrHeadTriggers {
  const privileged = privilegedTriggers(workflow).map((t) => t.name);
  // A reusable workflow runs on its callers' events: their privileged triggers are its own, and through a caller that
  // is itself called, its callers' (`chainTriggers`).
  if (privileged.length === 0 && workflow.triggers.some((t) => t.name === 'workflow_call')) {
    for (const caller of localCallers(workflow)) {
      if (caller.workflow === workflow) continue;
      for (const name of chainTriggers(caller.workflow)) if (!privileged.includes(name)) privileged.push(name);
    }
  }
  return {
    pullRequest: privileged.find((t) => t.startsWith('pull_request')) ?? null,
    workflowRun: privileged.includes('workflow_run') && followsUntrustedRuns(workflow),
    privileged: privileged[0] ?? null,
    repository,
  };
}

const PR_HEAD = /^github\.event\.pull_request\.(head\.(sha|ref|label|repo\.(full_name|clone_url|ssh_url|git_url|html_url|url))|merge_commit_sha)$|^github\.head_ref$/;
/**
 * The same pull request fields carried in a `repository_dispatch` event's payload: `peter-evans/slash-command-dispatch`
 * sends the pull request a command was given on as `client_payload.pull_request` (the API's pull request object), and
 * dispatchers of the `/ok-to-test` pattern send the same shape. Whoever sends the event (dispatch-gate.ts), the code
 * these name is the pull request author's.
 */
const DISPATCHED_PR_HEAD = /^github\.event\.client_payload\.pull_request\.(head\.(sha|ref|label|repo\.(full_name|clone_url|ssh_url|git_url|html_url|url))|merge_commit_sha)$/;
const RUN_HEAD = /^github\.event\.workflow_run\.(head_sha|head_branch|head_commit\.id|head_repository\.(full_name|clone_url|ssh_url|git_url|html_url|url)|pull_requests\.\*\.head\.(sha|ref))$/;
const PULL_REFSPEC = /\brefs\/pull\/|(^|[\s:'"])\+?pull\/[^\s/]+\/(head|merge)\b/;
/** Scripts that look up a pull request's head (`gh pr view --json headRefOid`, `github.rest.pulls.get`). */
const PR_LOOKUP = /\bpulls\.get\b|\/pulls\/|\bgh\s+pr\s+view\b|headRefName|headRefOid|headRepository|head\.sha\b|head\.ref\b|head\.repo\b|head_sha\b|head_ref\b|\brefs\/pull\//;
/** Actions whose outputs name a pull request's head branch or commit. */
const PR_REF_ACTIONS = new Set([
  'xt0rted/pull-request-comment-branch',
  'alessbell/pull-request-comment-branch',
  'gotson/pull-request-comment-branch',
  'eficode/resolve-pr-refs',
]);
/** An output value (JavaScript) that names the head of a pull request: `pr.data.head.sha`, `headRefName`. */
const PR_HEAD_VALUE = /\bhead\b|head_?(sha|ref)|headRef/i;
const MAX_DEPTH = 8;
/** Lookups of the head's branch name (`gh pr view --json headRefName`, `pull.head.ref`). */
const BRANCH_LOOKUP = /headRefName|head\.ref\b|head_ref\b|head_branch\b/;
/** Lookups that name the head's commit or repository, or fetch its code: fork code, whatever else is looked up. */
const CODE_LOOKUP = /headRefOid|head\.sha\b|head_sha\b|merge_commit_sha|headRepository|head\.repo\b|head_repository|refs\/pull\/|\bpull\/|gh\s+pr\s+checkout/;

/** True when a script that looks up a pull request's head names only its branch, never its commit or repository. */
function branchOnlyLookup(text: string): boolean {
  return BRANCH_LOOKUP.test(text) && !CODE_LOOKUP.test(text);
}

function lookupText(branchOnly: boolean): string {
  return branchOnly ? 'pull request head branch name looked up' : 'pull request head looked up';
}

/**
 * Head references that are a branch name: `github.head_ref`, `...pull_request.head.ref`, `...workflow_run.head_branch`,
 * or a looked-up `headRefName`, at the end of an evidence chain (`a <- b <- github.head_ref`).
 */
const BRANCH_NAME_EVIDENCE = /(?:^|<- )(?:github\.head_ref|github\.event\.(?:client_payload\.)?pull_request\.head\.ref|github\.event\.workflow_run\.head_branch|github\.event\.workflow_run\.pull_requests\.\*\.head\.ref|pull request head branch name looked up by step .*)$/;

/** True when an evidence chain of `prHeadReference` ends at a value read from another run's artifacts. */
export function namedByArtifact(evidence: string): boolean {
  return /<- artifact content read by step /.test(evidence);
}

/** True when an evidence chain of `prHeadReference` ends at a branch name, not a commit or a repository. */
export function isBranchNameEvidence(evidence: string): boolean {
  return BRANCH_NAME_EVIDENCE.test(evidence);
}

interface Scope {
  workflow: Workflow;
  job: Job;
  step: Step | null;
  /** For steps of a local composite action: the step that runs the action (its `with:` sets `inputs.*`). */
  actionCaller?: Step;
  /** Nodes are not the workflow file's (a composite action's): parse their text rather than look them up. */
  textOnly?: boolean;
}

/**
 * Local callers of a reusable workflow (the repository model's `callerJobs`), per scan: read on demand, so a value
 * followed through two calls (`inputs.commit-hash` of a workflow that `ci.yml` calls with its own
 * `inputs.commit-hash`) reaches the outer callers whichever workflow was analysed first.
 */
const callersByWorkflow = new ScanCache<Workflow, readonly Job[]>();

function callersOf(workflow: Workflow): readonly Job[] {
  let found = callersByWorkflow.get(workflow);
  if (found === undefined) {
    found = localCallers(workflow);
    callersByWorkflow.set(workflow, found);
  }
  return found;
}

/** How many calls deep a reusable workflow's callers are followed (GitHub allows ten levels; repositories rarely use three). */
const MAX_CALL_DEPTH = 4;

/**
 * The privileged triggers a workflow runs on: its own, or, for a reusable workflow with none, those of the workflows
 * that call it, a few calls deep. A value a caller passes counts only through a caller that has some
 * (`fromNode`'s inputs): a push-only workflow's call of the same reusable workflow brings no pull request's code.
 */
const chainTriggersCache = new ScanCache<Workflow, readonly string[]>();

function chainTriggers(workflow: Workflow): readonly string[] {
  let found = chainTriggersCache.get(workflow);
  if (found === undefined) {
    found = callChainTriggers(workflow);
    chainTriggersCache.set(workflow, found);
  }
  return found;
}

function callChainTriggers(workflow: Workflow, depth = 0, seen: Set<Workflow> = new Set()): string[] {
  const own = privilegedTriggers(workflow).map((t) => t.name);
  if (own.length > 0 || depth >= MAX_CALL_DEPTH || seen.has(workflow) || !workflow.triggers.some((t) => t.name === 'workflow_call')) return own;
  seen.add(workflow);
  const names: string[] = [];
  for (const caller of localCallers(workflow)) {
    for (const name of callChainTriggers(caller.workflow, depth + 1, seen)) if (!names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * The first reference in a value (a checkout's `ref:`, a command) to the code of a pull request's head,
 * directly or through `env:`, step outputs and job outputs: `github.event.pull_request.head.sha`,
 * `refs/pull/<n>/head`, an output of a step that looked the head up. Null when there is none, or when the
 * workflow's triggers make the reference harmless (no pull request payload, a trusted `workflow_run`).
 */
export function prHeadReference(node: YScalar, scope: Scope, triggers: PrHeadTriggers): string | null {
  if (typeof node.value !== 'string') return null;
  return fromText(node.value, exprsOf(scope, node), scope, triggers, 0);
}

/** `prHeadReference` for one command of a `run:` script (its `${{ }}` already resolved by `exprs`). */
function prHeadInCommand(text: string, exprs: readonly Expr[], scope: Scope, triggers: PrHeadTriggers): string | null {
  return fromText(text, exprs, scope, triggers, 0);
}

function exprsOf(scope: Scope, node: YScalar): Expr[] {
  // A node of a local composite action is not in the workflow's file: parse its text rather than look it up there.
  if (scope.actionCaller !== undefined || scope.textOnly === true) return textExprs(String(node.value));
  return flatMap(expressionsOf(scope.workflow.file, node), (o) => (o.expr === null ? [] : [o.expr]));
}

/** The parsed `${{ }}` expressions of a text that is not looked up in a file. */
function textExprs(text: string): Expr[] {
  return flatMap(findExpressions(text), (span) => {
    const expr = span.terminated ? parseExpression(span.source) : null;
    return expr === null ? [] : [expr];
  });
}

function fromText(text: string, exprs: readonly Expr[], scope: Scope, triggers: PrHeadTriggers, depth: number): string | null {
  if (depth > MAX_DEPTH) return null;
  if (triggers.privileged !== null && PULL_REFSPEC.test(text.replace(/\$\{\{[^}]*\}\}/g, 'N'))) return 'refs/pull/<number>';
  for (const expr of exprs) {
    const found = fromExpr(expr, scope, triggers, depth);
    if (found !== null) return found;
  }
  for (const name of referencedEnvVars(text)) {
    const value = envValue(scope, name);
    if (value !== undefined) {
      const found = fromNode(value, { ...scope }, triggers, depth + 1);
      if (found !== null) return found;
      continue;
    }
    // A variable an earlier step wrote to `$GITHUB_ENV`.
    const written = envFileWrite(scope, name);
    const found = written === null ? null : fromProducerScript(written.step, written.text, written.ranges, scope, triggers, depth + 1);
    if (found !== null) return `$${name} <- ${found}`;
  }
  return null;
}

function fromNode(node: YNode, scope: Scope, triggers: PrHeadTriggers, depth: number): string | null {
  if (node.kind !== 'scalar' || typeof node.value !== 'string') return null;
  return fromText(node.value, exprsOf(scope, node), scope, triggers, depth);
}

function fromExpr(expr: Expr, scope: Scope, triggers: PrHeadTriggers, depth: number): string | null {
  let found: string | null = null;
  walkExpression(expr, (node) => {
    if (found !== null || !(node instanceof ContextAccess || node instanceof IndexAccess)) return;
    const path = contextPath(node);
    if (path !== null) found = fromPath(path, scope, triggers, depth);
  });
  return found;
}

function fromPath(path: string[], scope: Scope, triggers: PrHeadTriggers, depth: number): string | null {
  const dotted = path.join('.');
  if (triggers.pullRequest !== null && PR_HEAD.test(dotted)) return dotted;
  if (triggers.workflowRun && RUN_HEAD.test(dotted)) return dotted;
  if (triggers.privileged !== null && DISPATCHED_PR_HEAD.test(dotted) && scope.workflow.triggers.some((t) => t.name === 'repository_dispatch')) return dotted;
  const [head, a, b, c] = path;
  if (head === 'env' && a !== undefined) {
    const value = envValue(scope, a);
    if (value !== undefined) return fromNode(value, scope, triggers, depth + 1);
    // Not set by an `env:` map: an earlier step may have written it to `$GITHUB_ENV`.
    const written = envFileWrite(scope, a);
    if (written === null) return null;
    const found = fromProducerScript(written.step, written.text, written.ranges, scope, triggers, depth);
    return found === null ? null : `${dotted} <- ${found}`;
  }
  if (head === 'matrix' && a !== undefined) {
    // A matrix value (an axis item or an `include` entry) that names the head: `ref: ${{ matrix.settings.ref }}`.
    for (const leg of legsOf(scope.job) ?? []) {
      let node: YNode | undefined = leg.get(a);
      for (const segment of path.slice(2)) node = node?.kind === 'map' ? node.pairs.find((p) => keyText(p.key).toLowerCase() === segment)?.value : undefined;
      if (node === undefined) continue;
      const found = fromNode(node, scope, triggers, depth + 1);
      if (found !== null) return `${dotted} <- ${found}`;
    }
    return null;
  }
  if (head === 'inputs' && a !== undefined && scope.actionCaller !== undefined) {
    const caller = scope.actionCaller;
    const value = caller.with?.pairs.find((p) => keyText(p.key).toLowerCase() === a)?.value;
    if (value === undefined) return null;
    // A caller inside another composite action: its `with:` is that action's text (its own `inputs.*` are not followed).
    const found = fromNode(value, { workflow: scope.workflow, job: scope.job, step: caller, ...(caller.owner.kind === 'action' ? { textOnly: true } : {}) }, triggers, depth + 1);
    return found === null ? null : `${dotted} <- ${found}`;
  }
  if (head === 'inputs' && a !== undefined && scope.textOnly !== true && scope.workflow.triggers.some((t) => t.name === 'workflow_call')) {
    // An input of a reusable workflow is what its callers pass in `with:`, read in the caller's scope; only a caller
    // that runs on a privileged trigger (itself or through its own callers) brings a pull request's head.
    for (const caller of callersOf(scope.workflow)) {
      if (chainTriggers(caller.workflow).length === 0) continue;
      const value = caller.with?.pairs.find((p) => keyText(p.key).toLowerCase() === a)?.value;
      if (value === undefined) continue;
      const found = fromNode(value, { workflow: caller.workflow, job: caller, step: null }, triggers, depth + 1);
      if (found !== null) return `${dotted} <- ${found}`;
    }
    return null;
  }
  if (head === 'steps' && a !== undefined && b === 'outputs' && c !== undefined) {
    const producer = scope.job.steps.find((s) => s.id?.toLowerCase() === a);
    if (producer === undefined || triggers.privileged === null) return null;
    // Its head outputs (`head_ref`, `head_sha`); `base_ref` and `base_sha` name the base repository's own branch.
    if (producer.usesRef?.kind === 'repository' && PR_REF_ACTIONS.has(producer.usesRef.slug)) return /^base[_-]/i.test(c) ? null : `${dotted} <- ${producer.usesRef.slug}`;
    // An action that reads a downloaded file of a fork's run into its outputs (`json-to-output` with `path:`).
    if (producer.usesRef?.kind === 'repository' && producer.usesRef.slug !== 'actions/github-script') {
      const download = artifactBefore(producer, triggers);
      return download !== null && readsDownloadIntoOutputs(producer, download) ? `${dotted} <- artifact content read by step ${producer.name ?? producer.id ?? a}` : null;
    }
    if (producer.run !== undefined && typeof producer.run.value === 'string') {
      const script = producer.run.value;
      const sources = outputSources(script, c);
      const text = sources === null ? script : sources.ranges.map(([from, to]) => script.slice(from, to)).join('\n');
      const found = fromProducerScript(producer, text, sources === null ? null : sources.ranges, scope, triggers, depth);
      return found === null ? null : `${dotted} <- ${found}`;
    }
    const script = producer.usesRef?.kind === 'repository' && producer.usesRef.slug === 'actions/github-script' ? get(producer.with, 'script') : undefined;
    if (script?.kind !== 'scalar' || typeof script.value !== 'string') return null;
    // A script that reads a file an earlier step downloaded from a fork's run and asks the API for no pull request:
    // the fork wrote the value, whatever the script calls it (`headSha`) or the file (`head_sha`).
    const readsDownload = JS_READS_FILE.test(script.value) && artifactBefore(producer, triggers) !== null && githubScriptNamesDownload(producer, script.value);
    if (readsDownload && !JS_PR_API.test(script.value)) return `${dotted} <- artifact content read by step ${producer.name ?? producer.id ?? a}`;
    const values = githubScriptOutputValues(script.value, c);
    // A commit picked from the pull request's own commits (`pulls.listCommits`, say the last one dated before
    // the comment) is the contributor's code as much as the head is.
    const listed = PR_COMMITS.test(script.value) && values !== null && values.some((v) => COMMIT_VALUE.test(v));
    // A value named for a head (`headSha`) is a lookup's only when the script can look anything up: it calls the API
    // (`github.*`), reads the event or runs a command; one that only reads a file of its own names nothing (`head_sha`).
    const asks = listed || JS_ASKS.test(script.value);
    if (asks && (listed || (values === null ? PR_LOOKUP.test(script.value) : values.some((v) => PR_HEAD_VALUE.test(v))))) {
      const branch = !listed && (values === null ? branchOnlyLookup(script.value) : values.every((v) => !PR_HEAD_VALUE.test(v) || branchOnlyLookup(v)));
      return `${dotted} <- ${lookupText(branch)} by step ${producer.name ?? producer.id ?? a}`;
    }
    // A script that reads a file an earlier step downloaded from a fork's run: the fork wrote the value.
    // It names the directory the files landed in (or they landed in the working directory): `path.join(temp, 'sha')`
    // after `const temp = '${{ runner.temp }}/artifacts'` reads them; a file elsewhere is not theirs.
    if (readsDownload) return `${dotted} <- artifact content read by step ${producer.name ?? producer.id ?? a}`;
    return null;
  }
  if (head === 'needs' && a !== undefined && b === 'outputs' && c !== undefined) {
    const job = scope.workflow.jobs.find((j) => j.id.toLowerCase() === a);
    const value = job?.outputs?.pairs.find((p) => keyText(p.key).toLowerCase() === c)?.value;
    if (job === undefined || value === undefined) return null;
    const found = fromNode(value, { workflow: scope.workflow, job, step: null }, triggers, depth + 1);
    return found === null ? null : `${dotted} <- ${found}`;
  }
  return null;
}

/** A command that prints the commit the workspace's checkout holds (`git rev-parse --verify HEAD`, `git log -1 --format=%H`). */
const HEAD_COMMIT = /\bgit\s+rev-parse\s+(?:--verify\s+)?(?:HEAD|@)(?![\w~^:@{-])|\bgit\s+log\s+-(?:1|n\s*1)\s+--(?:format|pretty)=(?:format:)?['"]?%H\b/;

/**
 * The last `actions/checkout` of the workspace root before a `run:` step of a job that runs in the workspace root
 * itself (no `working-directory:`, no checkout `path:`), or undefined: the checkout whose commit `git rev-parse HEAD`
 * prints there.
 */
function workspaceCheckoutBefore(producer: Step): Step | undefined {
  const job = producer.job;
  if (job === null || get(producer.node, 'working-directory') !== undefined) return undefined;
  for (let i = producer.index - 1; i >= 0; i--) {
    const step = job.steps[i];
    if (step === undefined || !isCheckoutAction(step.usesRef)) continue;
    const path = getText(step.with, 'path');
    return path === null || path.trim() === '' || path.trim() === '.' ? step : undefined;
  }
  return undefined;
}

/** `gh pr view ... --json <fields>`, with the fields it asks for. */
const GH_PR_VIEW_JSON = /\bgh\s+pr\s+view\b[^\n|;&]{0,300}?--json[=\s]+["']?([\w,]+)/g;
/** JSON fields of `gh pr view` that name the head's code: its branch, commit, repository, commits or files. */
const HEAD_FIELD = /^(?:head|commits$|files$|mergeCommit$|potentialMergeCommit$)/i;

/**
 * `text` without its `gh pr view` calls whose `--json` fields name nothing of the head (`number,baseRefName`): they
 * look up the pull request's number or base branch, not its code.
 */
function withoutBaseOnlyViews(text: string): string {
  if (!text.includes('--json')) return text;
  return text.replace(GH_PR_VIEW_JSON, (match, fields: string) => (fields.split(',').some((f) => HEAD_FIELD.test(f.trim())) ? match : ''));
}

/** A field a `jq` filter selects from a looked-up pull request's JSON (`jq -r '.baseRefName'`, `--jq '.state'`). */
const JQ_FIELD = /(?:\bjq\s+(?:-[A-Za-z]+\s+)*|--jq[=\s]+)["']?\.([A-Za-z_]\w*)/g;

/**
 * True when the lines that feed a value select fields of the pull request's JSON with `jq`, and none of them names
 * the head's code (`BASE_BRANCH=$(echo "$PR_JSON" | jq -r '.baseRefName')` after a `gh pr view --json
 * state,mergeCommit,baseRefName`): the value is that field (the base branch, a state), not the head, whatever else
 * the lookup asked for.
 */
function selectsOnlyBaseFields(text: string): boolean {
  let any = false;
  for (const m of text.matchAll(JQ_FIELD)) {
    any = true;
    if (HEAD_FIELD.test(m[1] ?? '')) return false;
  }
  return any;
}

/** A script that lists a pull request's commits. */
const PR_COMMITS = /\bpulls\.listCommits\b|\/pulls\/[^\s'"`]*\/commits\b/;
/** A commit's SHA in an output value (`commit.sha`, `commits[n - 1].sha`). */
const COMMIT_VALUE = /\.sha\b|\.oid\b/;

/** Shell commands that may look a pull request up (`gh pr view`, `gh api .../pulls/1`, `curl .../pulls/1`). */
const SHELL_PR_API = /\bgh\s+(?:pr|api)\b|\/pulls\b|\bpulls\.get\b/;

/** What a github-script can look a pull request up with: the API client or an expression (`github`), the event, a request or a command. */
const JS_ASKS = /\bgithub\b|\bcontext\.payload\b|\bfetch\s*\(|\boctokit\b|\bexec(?:Sync)?\s*\(|\bspawn(?:Sync)?\s*\(/i;

/** A github-script call that may look a pull request up (`pulls.get`, `/pulls/`, GraphQL, a raw request). */
const JS_PR_API = /\bpulls\.\w+\s*\(|\/pulls\b|\bgraphql\b|\brequest\s*\(/;

/** A github-script that reads a file (`fs.readFileSync`, `fs.promises.readFile`, `require('./x.json')`). */
const JS_READS_FILE = /\breadFile(?:Sync)?\s*\(|\brequire\s*\(\s*[^)]{0,200}\.json\b/;

/**
 * The first download of another run's artifacts that a fork's pull request can make, by an earlier step of the
 * producer's job or by its own script: any run whose artifacts are an outsider's (`downloadContent`, the run
 * model's `content` of the download), or, on a `workflow_run` that follows pull request runs, an earlier step's
 * download of any other run; null when there is none.
 */
function artifactBefore(producer: Step, triggers: PrHeadTriggers): ForeignDownload | null {
  const download = outsiderDownloadBefore(producer, triggers.repository);
  if (download !== null || !triggers.workflowRun) return download;
  const earlier = earlierForeignDownload(producer);
  return earlier === null ? null : (stepDownloads(earlier)[0] ?? null);
}

/**
 * What the lines of a producer's script that feed a value (`text`; `ranges` in its script, null: all of it)
 * name: a pull request head it looks up, the content of a fork's artifacts it reads, or a head reference in
 * its expressions and variables.
 */
function fromProducerScript(producer: Step, text: string, ranges: readonly (readonly [number, number])[] | null, scope: Scope, triggers: PrHeadTriggers, depth: number): string | null {
  const label = producer.name ?? producer.id ?? String(producer.index + 1);
  // A job that downloaded a fork's run's artifacts and reads a file into the value: the pull request's build
  // wrote that file (a head SHA, a branch, a repository name of its choosing). Read without asking the API for a
  // pull request, it is that content, whatever the file is called (`head_sha`).
  const readsDownload = readsFile(text) && artifactBefore(producer, triggers) !== null;
  if (readsDownload && !SHELL_PR_API.test(text)) return `artifact content read by step ${label}`;
  // The script's own text looks a pull request up; a `${{ github.event.pull_request.head.sha }}` it writes is the
  // event's value, read below through its expression (the commit the event names, not one read when the job runs).
  const own = text.includes('${{') ? text.replace(/\$\{\{[^}]{0,400}\}\}/g, '') : text;
  if (PR_LOOKUP.test(withoutBaseOnlyViews(own)) && !selectsOnlyBaseFields(own)) return `${lookupText(branchOnlyLookup(own))} by step ${label}`;
  if (readsDownload) return `artifact content read by step ${label}`;
  // `sha=$(git rev-parse HEAD)` after a checkout of the pull request's code, in the same directory: the commit that
  // checkout holds, which is the pull request's, whatever the output is called.
  if (HEAD_COMMIT.test(own)) {
    const checkout = workspaceCheckoutBefore(producer);
    const ref = checkout === undefined ? undefined : get(checkout.with, 'ref');
    const found = checkout === undefined || ref === undefined || checkout.job === null ? null : fromNode(ref, { workflow: scope.workflow, job: checkout.job, step: checkout }, triggers, depth + 1);
    if (found !== null) return `the commit of the checkout at step ${checkout?.name ?? checkout?.id ?? String((checkout?.index ?? 0) + 1)} (${found}), read by step ${label}`;
  }
  if (producer.run === undefined) return null;
  const exprs = flatMap(expressionsOf(scope.workflow.file, producer.run), (o) => (o.expr !== null && (ranges === null || ranges.some(([from, to]) => o.span.start >= from && o.span.start < to)) ? [o.expr] : []));
  return fromText(text, exprs, { ...scope, step: producer }, triggers, depth + 1);
}

/** `NAME=...` written to `$GITHUB_ENV` (`echo "NAME=$(cat f)" >> "$GITHUB_ENV"`). */
function envWriteLine(name: string): RegExp {
  return new RegExp(`(?:^|[\\s"'(])${name.replace(/[^\w]/g, '')}=[^\\n]*>>\\s*["']?\\$\\{?GITHUB_ENV\\b`, 'i');
}

/**
 * The last step before `scope.step` (any step of the job when null) whose `run:` script writes `name` to
 * `$GITHUB_ENV`, with the lines that feed the write; null when none does.
 */
function envFileWrite(scope: Scope, name: string): { step: Step; text: string; ranges: [number, number][] } | null {
  if (scope.textOnly === true || scope.actionCaller !== undefined) return null;
  const limit = scope.step !== null && scope.step.job === scope.job ? scope.step.index : Infinity;
  const line = envWriteLine(name);
  const reader = scope.step !== null && scope.step.job === scope.job ? workflowRunSets(scope.job.workflow).steps.get(scope.step) : undefined;
  for (const step of [...scope.job.steps].reverse()) {
    if (step.index >= limit) continue;
    const script = step.run?.value;
    if (typeof script !== 'string' || !script.includes('GITHUB_ENV')) continue;
    // A write of a step that never runs in the same job run as the reader (`if: github.event_name != 'issue_comment'`
    // before a step of `if: github.event_name == 'issue_comment'`) is not what the reader sees.
    const writer = reader === undefined ? undefined : workflowRunSets(scope.job.workflow).steps.get(step);
    if (reader !== undefined && writer !== undefined && !overlap(reader, writer)) continue;
    const writes = scriptLines(script).filter((l) => line.test(l.text));
    if (writes.length === 0) continue;
    const sources = feedingLines(script, writes);
    return { step, text: sources.ranges.map(([from, to]) => script.slice(from, to)).join('\n'), ranges: sources.ranges };
  }
  return null;
}

function envValue(scope: Scope, name: string): YNode | undefined {
  const lower = name.toLowerCase();
  for (const env of [scope.step?.env, scope.job.env, scope.workflow.env]) {
    const pair = env?.pairs.find((p) => keyText(p.key).toLowerCase() === lower);
    if (pair !== undefined) return pair.value;
  }
  return undefined;
}

/** A command of a `run:` script that brings pull request code into the working tree. */
export interface ScriptCheckout {
  step: Step;
  /** Offset of the command in the step's script. */
  offset: number;
  command: string;
  /** What it checks out: `gh pr checkout`, or the reference it found. */
  evidence: string;
}

/** Git commands that put a commit's files in the working tree (a bare `git fetch` does not). */
const WORKING_TREE = new Set(['checkout', 'switch', 'reset', 'restore', 'worktree', 'merge', 'rebase', 'cherry-pick', 'pull', 'clone']);
/** A command with each `${{ }}` replaced by one word, `N`: an expression names one value, whatever its spaces. */
function maskExpressions(text: string): string {
  return text.includes('${{') ? text.replace(/\$\{\{[^}]*\}\}/g, 'N') : text;
}
const FETCH_DESTINATION = /(?:refs\/)?pull\/[^\s:'"/]+\/(?:head|merge):(?:refs\/heads\/)?([^\s'"]+)/g;

/**
 * Commands of a job's `run:` scripts that check out pull request code: `gh pr checkout`, `git
 * checkout/pull/clone/...` of a pull request head reference, and `git checkout` of what an earlier `git fetch`
 * of `refs/pull/*` (or of a head reference) brought in (`FETCH_HEAD`, or the fetch's local branch). A fetch
 * alone, used for `git diff`, is not a checkout.
 */
const GIT_OR_GH = wordMask('git', 'gh');

/** A necessary condition for a line to hold the word `git` or `gh` (see scriptCheckouts). */
const GIT_OR_GH_TEXT = /g["'\\]*[ih]/;

export function scriptCheckouts(job: Job, workflow: Workflow, triggers: PrHeadTriggers): ScriptCheckout[] {
  if (triggers.privileged === null) return [];
  const result: ScriptCheckout[] = [];
  let fetched: { evidence: string; refs: Set<string> } | null = null;
  /** Remotes a script pointed at the head repository. */
  const forkRemotes = new Set<string>();
  for (const step of job.steps) {
    const run = step.run;
    if (run === undefined || typeof run.value !== 'string') continue;
    // Every command below is `git ...` or `gh pr checkout`: a script naming neither (the mask is looser than
    // `words`, so this skips nothing they would find) is not read line by line.
    const mask = scriptOf(step)?.words;
    if (mask !== undefined && !hasAny(mask, GIT_OR_GH)) continue;
    const script = run.value;
    const occurrences = expressionsOf(workflow.file, run);
    const lines = logicalLines(script);
    lines.forEach((logical, i) => {
      // Both `git` and `gh` start with a `g` followed by an `i` or `h`, quotes aside (`g"it"` is a word `git`):
      // a line without one names neither, and most lines of a long script are skipped before being split.
      if (!GIT_OR_GH_TEXT.test(logical.text)) return;
      // The line's raw text ends where the next logical line starts (continuations included).
      const lineEnd = lines[i + 1]?.offset ?? script.length;
      // Each command of the line in turn: `git fetch origin pull/N/head && git checkout FETCH_HEAD` is a fetch,
      // then a checkout of what it fetched.
      const commands = flatMap(pipelines(logical), (p) => p.commands);
      commands.forEach((line, c) => {
        if (!GIT_OR_GH_TEXT.test(line.text)) return;
        // `${{ }}` masked, so an expression's spaces do not split a word (`pull/${{ github.event.issue.number }}/head:pr`).
        const list = words(maskExpressions(line.text));
        const report = (evidence: string) => result.push({ step, offset: line.offset, command: line.text.trim(), evidence });
        if (list.some((w, j) => w === 'gh' && list[j + 1] === 'pr' && list[j + 2] === 'checkout')) {
          report('`gh pr checkout`');
          return;
        }
        const git = list.findIndex((w) => w === 'git' || w.endsWith('/git'));
        const sub = git === -1 ? undefined : list.slice(git + 1).find((w) => !w.startsWith('-'));
        if (sub === undefined || (sub !== 'fetch' && sub !== 'remote' && !WORKING_TREE.has(sub))) return;
        // The command's raw text ends where the next command (or logical line) starts.
        const end = commands[c + 1]?.offset ?? lineEnd;
        const exprs = flatMap(occurrences, (o) => (o.expr !== null && o.span.start >= line.offset && o.span.start < end ? [o.expr] : []));
        if (sub === 'remote') {
          // `git remote add fork <head repository URL>` (or `set-url`): later commands naming `fork` fetch the fork.
          const name = list.slice(git + 2).filter((w) => !w.startsWith('-'))[1];
          const url = prHeadInCommand(line.text, exprs, { workflow, job, step }, triggers);
          if (name !== undefined && url !== null && !isBranchNameEvidence(url)) forkRemotes.add(name);
          return;
        }
        let found = prHeadInCommand(line.text, exprs, { workflow, job, step }, triggers);
        // A branch name alone, on the base repository's remote, is the base repository's branch (as for `ref:`):
        // fork code only when the command also names the head repository (its URL, a remote added for it).
        if (found !== null && isBranchNameEvidence(found)) {
          const args = list.slice(git + 2);
          const parts = [...exprs.map((e) => prHeadInCommand('', [e], { workflow, job, step }, triggers)), ...[...referencedEnvVars(line.text)].map((name) => prHeadInCommand(`$${name}`, [], { workflow, job, step }, triggers))];
          const fork = parts.find((e) => e !== null && !isBranchNameEvidence(e));
          if (fork !== undefined && fork !== null) found = fork;
          else if (!args.some((w) => forkRemotes.has(w) || forkRemotes.has(w.split('/')[0] ?? ''))) found = null;
        }
        if (sub === 'fetch') {
          if (found === null) return;
          const refs = new Set(['FETCH_HEAD']);
          for (const match of maskExpressions(line.text).matchAll(FETCH_DESTINATION)) if (match[1] !== undefined) refs.add(match[1]);
          fetched = { evidence: found, refs };
          return;
        }
        if (found !== null) report(`\`${found}\``);
        else if (fetched !== null) {
          const refs = fetched.refs;
          if (list.slice(git + 2).some((w) => refs.has(w.replace(/^(refs\/heads\/|origin\/)/, '')))) report(`\`${fetched.evidence}\`, fetched earlier`);
        }
      });
    });
  }
  return result;
}

/** The `with:` inputs of an `actions/checkout` step that may point at pull request code. */
export function checkoutInputs(step: Step): { name: string; node: YScalar }[] {
  if (!isCheckoutAction(step.usesRef)) return [];
  const result: { name: string; node: YScalar }[] = [];
  for (const name of ['ref', 'repository']) {
    const node = step.with?.pairs.find((p) => keyText(p.key) === name)?.value;
    if (node?.kind === 'scalar' && getText(step.with, name) !== null) result.push({ name, node });
  }
  return result;
}

/** A step that brings pull request code into a privileged job, and that outsiders can reach. */
export interface UntrustedCheckout {
  step: Step;
  /** The checkout's `ref:`/`repository:` value, or the `run:` script. */
  node: YScalar;
  /** File offset of the command inside a script. */
  offset?: number;
  /** `ref: ${{ github.event.pull_request.head.sha }}`, `git fetch origin pull/.../head` */
  how: string;
  /** The pull request reference it found, in backticks. */
  evidence: string;
  /** The trigger that makes it privileged, for messages. */
  trigger: string;
  /** For a checkout inside a local composite action: its `path:` input as written (null: the workspace). */
  path?: string | null;
  /** Only a maintainer's approval (comment, label, environment) lets it run, but the checked-out code can change after it. */
  approved: boolean;
  /** For a `repository_dispatch` workflow whose dispatch is an approval: who sends the event, in words. */
  dispatcher?: string;
  /**
   * A maintainer must act before the job runs (a member's comment or permission check, a label on a
   * `labeled`-only workflow, a collaborator's dispatch): no outsider can start it. An `environment:` alone is
   * an approval of unknown strength (the workflow cannot show whether it has required reviewers): not this.
   */
  gated: boolean;
  /**
   * The checkout pins the approved commit and only a deployment environment approves the run, whose required
   * reviewers could not be checked (no settings snapshot): `environment \`name\``. With reviewers nothing is
   * wrong; without, anyone's pull request runs.
   */
  uncheckedEnvironment?: string;
  /**
   * An earlier step (or a job this one needs) fails the job when the head was pushed after the approval, in words:
   * the approved commits are what runs though the checkout names a branch (`approval-race.ts`).
   */
  raceClosedBy?: string;
  /**
   * The ref names a pull request's head only for a same-repository pull request (`head.repo.fork &&
   * github.event.repository.default_branch || github.event.pull_request.head.sha`): a fork's gets the base branch.
   */
  sameRepositoryRef?: true;
  /** With `sameRepositoryRef`: other head repositories its condition lets through by name (a named member's fork). */
  namedRepositories?: string[];
}

/** True when what the checkout runs is the commit a maintainer approved: pinned by the event, or the race closed by a check. */
export function pinsApprovedCode(checkout: Pick<UntrustedCheckout, 'evidence' | 'raceClosedBy'>): boolean {
  if (IMMUTABLE.has(checkout.evidence) || checkout.raceClosedBy !== undefined) return true;
  // Through outputs that carry it as it is (`commit-ref=${{ github.event.client_payload.pull_request.head.sha }}`): the
  // chain ends at the event's commit.
  const last = checkout.evidence.lastIndexOf(' <- ');
  return last !== -1 && IMMUTABLE.has(`\`${checkout.evidence.slice(last + 4).replace(/`/g, '').trim()}\``);
}

/** Guards that stand for a maintainer's approval of the pull request as it was at that moment. */
const APPROVALS: ReadonlySet<TrustGuardKind> = new Set(['commenter', 'label', 'environment', 'unread-check']);
/** Head references fixed by the event itself: what a maintainer approved is what gets checked out. */
const IMMUTABLE = new Set(['`github.event.pull_request.head.sha`', '`github.event.workflow_run.head_sha`', '`github.event.client_payload.pull_request.head.sha`']);

/**
 * The checkouts of pull request code in a job that an outsider can reach: under a privileged trigger, not
 * restricted to trusted authors (same-repository pull requests, named or member authors, maintainer-only
 * events), and, when a maintainer's approval gates the job, not pinned to the approved commit.
 */
export function untrustedCheckouts(job: Job, repository: RepositoryModel): readonly UntrustedCheckout[] {
  return pullRequestCheckouts(job, repository).filter((c) => c.hiddenBy === undefined);
}

/**
 * Every checkout of pull request code in a job under a privileged trigger, with what keeps outsiders away
 * where something does (`hiddenBy`): `trusted-author` when every way to run it is restricted to trusted authors
 * (a same-repository condition, a member author, a maintainer-only event), `approved-commit` when a maintainer's
 * approval gates it and the checkout pins the approved commit. `untrustedCheckouts` is those with neither.
 */
export function pullRequestCheckouts(job: Job, repository: RepositoryModel): readonly (UntrustedCheckout & { hiddenBy?: 'trusted-author' | 'approved-commit' })[] {
  // Six rules and analyses ask for the same job; the answer depends only on the job and the repository.
  const cached = checkoutsByJob.get(job);
  if (cached !== undefined && cached.repository === repository) return cached.result;
  const result = findPullRequestCheckouts(job, repository);
  checkoutsByJob.set(job, { repository, result });
  return result;
}

const checkoutsByJob = new ScanCache<Job, { repository: RepositoryModel; result: readonly (UntrustedCheckout & { hiddenBy?: 'trusted-author' | 'approved-commit' })[] }>();

function findPullRequestCheckouts(job: Job, repository: RepositoryModel): (UntrustedCheckout & { hiddenBy?: 'trusted-author' | 'approved-commit' })[] {
  const workflow = job.workflow;
  if (!callersByWorkflow.has(workflow)) callersByWorkflow.set(workflow, localCallers(workflow));
  const triggers = prHeadTriggers(workflow, repository);
  if (triggers.privileged === null) return [];
  const scripted = scriptCheckouts(job, workflow, triggers);
  // A workflow that only `repository_dispatch` makes privileged runs when a collaborator (or a dispatcher
  // acting for one, as with `/ok-to-test`) sends the event: that is an approval, unless the repository
  // sends it for anyone.
  const own = privilegedTriggers(workflow);
  const dispatched = own.length > 0 && own.every((t) => t.name === 'repository_dispatch') ? dispatchGate(workflow, repository) : null;
  const result: (UntrustedCheckout & { hiddenBy?: 'trusted-author' | 'approved-commit' })[] = [];
  for (const step of job.steps) {
    const found: Omit<UntrustedCheckout, 'approved' | 'trigger' | 'gated'>[] = [];
    // Inputs whose pull request head only a same-repository pull request gets (`forkOperand`).
    let sameRepositoryOnly = false;
    let named: string[] = [];
    for (const input of checkoutInputs(step)) {
      const evidence = prHeadReference(input.node, { workflow, job, step }, triggers);
      // A branch name names a branch of the checked-out repository: the base one, whose branches only
      // collaborators create, unless `repository:` names the head's (then that input is the evidence). On a step
      // only pull requests from branches of this repository reach (the run model's `sameRepository`), that branch
      // is the pull request's head: its code, pushed by someone with write access or a bot of the repository.
      if (evidence !== null && input.name === 'ref' && isBranchNameEvidence(evidence) && reachOf(job, step, repository).sameRepository !== true) continue;
      // A value read only from one event's payload is empty on the step's other events: when that event never
      // reaches the step (its conditions rule it out), the checkout takes the run's own commit there.
      if (evidence !== null && payloadEventUnreached(String(input.node.value), step)) continue;
      if (evidence !== null) {
        found.push({ step, node: input.node, how: `\`${input.name}: ${String(input.node.value).trim()}\``, evidence: `\`${evidence}\`` });
        sameRepositoryOnly = headOnlyForSameRepository(input.node, { workflow, job, step }, triggers);
        if (sameRepositoryOnly) named = namedOtherRepositories(input.node, { workflow, job, step }, repository.fullName);
        break;
      }
    }
    // A local composite action runs at its caller, with the caller's event: its checkouts count here.
    const inner = step.uses === undefined ? null : actionCheckout(step, repository, { workflow, job, step }, triggers, 0);
    if (inner !== null && step.uses !== undefined) found.push({ step, node: step.uses, how: inner.how, evidence: inner.evidence, path: inner.path });
    for (const command of scripted) {
      if (command.step !== step || step.run === undefined) continue;
      const text = command.command.length > 80 ? `${command.command.slice(0, 77)}...` : command.command;
      found.push({ step, node: step.run, offset: valueOffsetToSource(workflow.file, step.run, command.offset), how: `\`${text}\``, evidence: command.evidence });
    }
    if (found.length === 0) continue;
    const trust = stepTrust(step);
    // The run model's reach of the step, folded over its own `if:` and its job's: a step that runs only for
    // same-repository pull requests (`head.repo.fork != true`, `!(head.repo.full_name != github.repository)`,
    // `head.repo.id == github.repository_id` ...) is a trusted author's, whatever form the condition takes.
    const folded = reachOf(job, step, repository).level;
    const trusted = (sameRepositoryOnly && found.length === 1) || everyPathGuarded(trust, (g) => g.kind !== 'bypassable-label' && !APPROVALS.has(g.kind)) || folded === 'trusted-author' || (folded === 'collaborator' && dispatched === null);
    const approved = dispatched?.holds === true || everyPathGuarded(trust, (g) => g.kind !== 'bypassable-label');
    // An environment counts as an approval of the commit it pins only when its reviewers are known (settings);
    // offline it may hold the run or not, so the checkout is reported, saying the reviewers were not checked.
    const knownApproval = dispatched?.holds === true || everyPathGuarded(trust, (g) => g.kind !== 'bypassable-label' && g.kind !== 'unread-check' && (g.kind !== 'environment' || environmentApproves(g)));
    const closed = approved ? approvalRaceClosedBefore(step) : null;
    const raceClosed = closed === null ? {} : { raceClosedBy: closed };
    // A label the workflow removes each run, on a workflow that also runs on pushes: a push racing the run runs
    // its own head (the event's head SHA is the pushed commit), the race of any approval between the maintainer's
    // act and the code the run takes (the run model's `labelRace`, named in the description); pinning the event's
    // head still binds each run to the commit its event names.
    const pinned = closed !== null || found.every((c) => pinsApprovedCode(c));
    const hidden: { hiddenBy?: 'trusted-author' | 'approved-commit' } = trusted ? { hiddenBy: 'trusted-author' } : knownApproval && pinned ? { hiddenBy: 'approved-commit' } : {};
    const unchecked = approved && pinned && !knownApproval ? { uncheckedEnvironment: environmentOf(trust) } : {};
    const dispatcher = dispatched?.holds === true ? { dispatcher: dispatched.by } : {};
    // Every way to run passes a maintainer's act or a trust condition (not an environment of unknown strength).
    const gated = dispatched?.holds === true || everyPathGuarded(trust, (g) => g.kind !== 'bypassable-label' && g.kind !== 'environment' && g.kind !== 'unread-check');
    const byRef: { sameRepositoryRef?: true; namedRepositories?: string[] } = sameRepositoryOnly && found.length === 1 ? { sameRepositoryRef: true, ...(named.length > 0 ? { namedRepositories: named } : {}) } : {};
    for (const checkout of found) result.push({ ...checkout, approved, gated, ...dispatcher, ...unchecked, ...hidden, ...raceClosed, ...byRef, trigger: triggerOf(checkout.evidence, triggers) });
  }
  return result;
}

function ungrouped(expr: Expr): Expr {
  let current = expr;
  while (current instanceof Grouping) current = current.group;
  return current;
}

/** Context values GitHub always sets on a pull request event (never empty, so `c && x || y` takes `x` when `c` holds). */
const NEVER_EMPTY = new Set(['github.event.repository.default_branch', 'github.event.pull_request.base.ref', 'github.event.pull_request.base.sha', 'github.base_ref', 'github.sha', 'github.ref']);

/**
 * The operand a fork's pull request takes in `cond && a || b` when `cond` says whether the head is a fork's: `a` when
 * it holds on forks (and `a` is never empty), `b` when it never does; null for any other form. `head.repo.fork &&
 * github.event.repository.default_branch || github.event.pull_request.head.sha` checks a fork's pull request out at the
 * default branch and only a same-repository one at its head.
 */
function forkOperand(expr: Expr): Expr | null {
  const node = ungrouped(expr);
  if (!(node instanceof Logical) || node.operator.lexeme !== '||' || node.args.length !== 2) return null;
  const first = ungrouped(node.args[0] as Expr);
  if (!(first instanceof Logical) || first.operator.lexeme !== '&&' || first.args.length !== 2) return null;
  const cond = ungrouped(first.args[0] as Expr);
  const onForks = holdsOnForks(cond) ?? namedHeadRepositories(cond);
  if (onForks === null) return null;
  if (!onForks) return node.args[1] as Expr;
  const value = ungrouped(first.args[1] as Expr);
  const nonEmpty = value instanceof Literal ? typeof value.token.value === 'string' && value.token.value !== '' : NEVER_EMPTY.has(contextPath(value)?.join('.').toLowerCase() ?? '');
  return nonEmpty ? value : null;
}

/** The head repository's full name in a pull request or `workflow_run` payload. */
const HEAD_REPOSITORY_NAME = new Set(['github.event.pull_request.head.repo.full_name', 'github.event.workflow_run.head_repository.full_name']);

/** `lit` when `expr` compares the head repository's full name with `op` against a string literal, else null. */
function headNameComparison(expr: Expr, op: '==' | '!='): string | null {
  const node = ungrouped(expr);
  if (!(node instanceof Binary) || node.operator.lexeme !== op) return null;
  for (const [a, b] of [[node.left, node.right], [node.right, node.left]] as const) {
    const path = contextPath(ungrouped(a))?.join('.').toLowerCase();
    const literal = ungrouped(b);
    if (path !== undefined && HEAD_REPOSITORY_NAME.has(path) && literal instanceof Literal && typeof literal.token.value === 'string' && literal.token.value.includes('/')) return literal.token.value;
  }
  return null;
}

/**
 * Whether a condition that names head repositories holds on a fork's pull request: true for `name != 'a/b' && name
 * != 'c/d'` (every fork but those named), false for `name == 'a/b' || name == 'c/d'` (only those named), null for any
 * other form. The repositories named are chosen by the maintainers (this one, a named member's fork): their pushers
 * are trusted authors, as a same-repository head's are.
 */
function namedHeadRepositories(expr: Expr): boolean | null {
  const node = ungrouped(expr);
  const single = (op: '==' | '!=') => headNameComparison(node, op) !== null;
  if (single('!=')) return true;
  if (single('==')) return false;
  if (!(node instanceof Logical)) return null;
  const op = node.operator.lexeme === '&&' ? '!=' : node.operator.lexeme === '||' ? '==' : null;
  if (op === null || !node.args.every((a) => headNameComparison(a as Expr, op) !== null)) return null;
  return op === '!=';
}

/**
 * True when a checkout input is one expression whose value on a fork's pull request names no pull request head
 * (`forkOperand`): the head it may name is a same-repository pull request's, pushed by someone with write access.
 */
function headOnlyForSameRepository(node: YScalar, scope: Scope, triggers: PrHeadTriggers): boolean {
  if (typeof node.value !== 'string' || !/^\s*\$\{\{[\s\S]*\}\}\s*$/.test(node.value)) return false;
  const exprs = exprsOf(scope, node);
  if (exprs.length !== 1) return false;
  const operand = forkOperand(exprs[0] as Expr);
  return operand !== null && fromExpr(operand, scope, triggers, 0) === null;
}

/**
 * The head repositories other than this one that a checkout input's fork condition lets through by name
 * (`namedHeadRepositories`: `full_name != 'rust-lang/team' && full_name != 'someone/team'` names `someone/team` in
 * `rust-lang/team`), in the condition's spelling; empty when it names none.
 */
function namedOtherRepositories(node: YScalar, scope: Scope, repository: string | null): string[] {
  const expr = exprsOf(scope, node)[0];
  const top = expr === undefined ? null : ungrouped(expr);
  if (!(top instanceof Logical) || top.args.length !== 2) return [];
  const first = ungrouped(top.args[0] as Expr);
  if (!(first instanceof Logical) || first.operator.lexeme !== '&&') return [];
  const cond = ungrouped(first.args[0] as Expr);
  const parts = cond instanceof Logical ? cond.args.map((a) => a as Expr) : [cond];
  const names = parts.map((p) => headNameComparison(p, '!=') ?? headNameComparison(p, '==')).filter((n): n is string => n !== null);
  return names.filter((n) => n.toLowerCase() !== repository);
}

/** At most this many levels of local composite actions are read for checkouts. */
const MAX_ACTION_DEPTH = 4;

/**
 * A checkout of pull request code inside the local composite action a step runs (or one it runs in turn), read
 * with the caller's event and the caller's `with:` for the action's `inputs.*`; null when there is none.
 */
function actionCheckout(caller: Step, repository: RepositoryModel, scope: Scope, triggers: PrHeadTriggers, depth: number): { how: string; evidence: string; path: string | null } | null {
  const action = depth < MAX_ACTION_DEPTH ? repository.localAction(caller) : undefined;
  if (action === undefined || action.using !== 'composite') return null;
  for (const inner of action.steps) {
    for (const input of checkoutInputs(inner)) {
      const evidence = prHeadReference(input.node, { ...scope, step: inner, actionCaller: caller }, triggers);
      if (evidence === null || (input.name === 'ref' && isBranchNameEvidence(evidence))) continue;
      return {
        how: `local action \`${action.file.path}\` with \`${input.name}: ${String(input.node.value).trim()}\``,
        evidence: `\`${evidence}\``,
        path: getText(inner.with, 'path'),
      };
    }
    const deeper = actionCheckout(inner, repository, { ...scope, actionCaller: caller }, triggers, depth + 1);
    if (deeper !== null) return deeper;
  }
  return null;
}

/** Payload fields that exist on one event only, and that event: a dispatch's `client_payload`, a `workflow_run`'s run. */
const ONE_EVENT_PAYLOADS: readonly [RegExp, string][] = [
  [/\bgithub\.event\.client_payload\./, 'repository_dispatch'],
  [/\bgithub\.event\.workflow_run\./, 'workflow_run'],
];

/**
 * True when every `github.event.` field a checkout input reads is a payload of one event (`client_payload`, a
 * `workflow_run`'s) whose occasions never reach the step (run-model/conditions.ts: a job whose `if:` needs a ref
 * other than the default branch, which a `repository_dispatch` always runs on): there the value is empty. False
 * when the step's occasions are not known (a reusable workflow's, run by its callers' events).
 */
function payloadEventUnreached(text: string, step: Step): boolean {
  if (step.job === null || !text.includes('github.event.')) return false;
  const fields = text.match(/\bgithub\.event\.[\w.]+/g) ?? [];
  const events = new Set<string>();
  for (const field of fields) {
    const one = ONE_EVENT_PAYLOADS.find(([pattern]) => pattern.test(field));
    if (one === undefined) return false;
    events.add(one[1]);
  }
  const runs = workflowRunSets(step.job.workflow);
  const set = runs.steps.get(step) ?? runs.jobs.get(step.job);
  const occasions = set === undefined ? runs.occasions : occasionsOfSet(set);
  if (occasions.some((o) => o.event === null)) return false;
  return ![...events].some((event) => occasions.some((o) => o.event === event));
}

/** The environment guard (or unread check) of a job's ways to run, as `environment \`name\``. */
function environmentOf(trust: TrustPaths): string {
  return trust.flat().find((g) => g.kind === 'environment' || g.kind === 'unread-check')?.condition ?? 'an environment';
}

function triggerOf(evidence: string, triggers: PrHeadTriggers): string {
  if (evidence.includes('github.event.workflow_run.')) return 'workflow_run';
  if (evidence.includes('github.event.client_payload.')) return 'repository_dispatch';
  if (evidence.includes('github.event.pull_request.') || evidence.includes('github.head_ref')) return triggers.pullRequest ?? 'pull_request_target';
  return triggers.privileged ?? 'privileged';
}


/** The end of a `prHeadReference` chain that names a pull request's head commit (not its branch, which its author names). */
const HEAD_COMMIT_SOURCE = /(?:\.head\.sha|\bhead_sha|\bhead_commit\.id|\bmerge_commit_sha)$/;

/**
 * Whether `text`, a value of `step` (an image tag), names the pull request itself: its number
 * (`github.event.pull_request.number`, `github.event.number`) or its head commit, directly or through `env:`, step and
 * job outputs (`prHeadReference`'s reading). A value that names its branch does not: the pull request's author
 * picks the branch's name (`main`, `latest`).
 */
export function namesPullRequest(text: string, step: Step, repository: RepositoryModel): boolean {
  if (/\bgithub\.event\.(?:pull_request\.number|number)\b/.test(text)) return true;
  const job = step.job;
  if (job === null || !text.includes('$')) return false;
  const found = fromText(text, textExprs(text), { workflow: job.workflow, job, step, textOnly: true }, prHeadTriggers(job.workflow, repository), 0);
  return found !== null && HEAD_COMMIT_SOURCE.test(found);
}
