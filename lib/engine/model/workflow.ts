import type { SourceFile } from '../yaml/source.js';
import { constantTruthiness } from '../analysis/constant-expressions.js';
import { conditionExpression } from '../expressions/extract.js';
import {
  asList,
  get,
  getMap,
  getText,
  isMap,
  keyText,
  scalarText,
  type YMap,
  type YNode,
  type YScalar,
} from '../yaml/model.js';
import { parseUses, type UsesRef } from './uses.js';
import { pruneUnreachable, workflowRuns, type WorkflowRuns } from '../analysis/run-model/conditions.js';
import { ScanCache } from './scan-cache.js';
import { flatMap } from './arrays.js';

const runSets = new ScanCache<Workflow, WorkflowRuns>();

/**
 * The occasions and legs on which each job and step of a workflow can run (see run-model/conditions.ts): those
 * `buildWorkflow` made while pruning, or made on the first question (a workflow where nothing could be pruned).
 */
export function workflowRunSets(workflow: Workflow): WorkflowRuns {
  let runs = runSets.get(workflow);
  if (runs === undefined) {
    runs = workflowRuns(workflow);
    runSets.set(workflow, runs);
  }
  return runs;
}

/**
 * Works a workflow's run sets out again, and drops what never runs by them, after the repository model has told it
 * something its occasions depend on (`forkRunEvents`): called before any rule reads them.
 */
export function rereadRunSets(workflow: Workflow): void {
  const runs = pruneUnreachable(workflow) ?? workflowRuns(workflow);
  runSets.set(workflow, runs);
}

/** Triggers that run with the base repository's secrets or a write token on outsider input. */
export const PRIVILEGED_TRIGGERS: ReadonlySet<string> = new Set([
  'pull_request_target',
  'workflow_run',
  'issue_comment',
  'issues',
  'discussion',
  'discussion_comment',
  'pull_request_review',
  'pull_request_review_comment',
  'fork',
  'watch',
]);

export interface Trigger {
  name: string;
  /** The scalar naming the event (a key of `on:` or an item of its list). */
  node: YScalar;
  /** The event's configuration (`types:`, `branches:`, `inputs:` ...), when it is a mapping. */
  config: YMap | undefined;
}

export interface Step {
  /** 0-based position in its job or composite action. */
  index: number;
  node: YMap;
  /** The job the step belongs to; null for steps of composite actions. */
  job: Job | null;
  /** The workflow or composite action the step belongs to. */
  owner: Workflow | Action;
  id: string | null;
  name: string | null;
  uses: YScalar | undefined;
  usesRef: UsesRef | undefined;
  run: YScalar | undefined;
  with: YMap | undefined;
  env: YMap | undefined;
  if: YNode | undefined;
  shell: string | null;
  /**
   * For a `uses: ./path` step of a workflow job: the repository's local action it runs, as the repository model
   * resolves it (`RepositoryModel.localAction`); undefined otherwise, or before a repository model is made.
   */
  calledAction?: Action;
}

export interface Job {
  id: string;
  /** The job's key in `jobs:`. */
  key: YScalar;
  node: YMap;
  workflow: Workflow;
  name: string | null;
  runsOn: YNode | undefined;
  permissions: YNode | undefined;
  env: YMap | undefined;
  if: YNode | undefined;
  needs: string[];
  /** A reusable-workflow call (`jobs.<id>.uses`). */
  uses: YScalar | undefined;
  usesRef: UsesRef | undefined;
  with: YMap | undefined;
  secrets: YNode | undefined;
  container: YNode | undefined;
  services: YMap | undefined;
  outputs: YMap | undefined;
  strategy: YMap | undefined;
  environment: YNode | undefined;
  steps: Step[];
  /** The repository's own workflow a call job (`uses: ./.github/workflows/x.yml`) runs (set by the repository model). */
  called?: Workflow;
}

export interface Workflow {
  kind: 'workflow';
  file: SourceFile;
  root: YMap;
  name: string | null;
  /** The `on:` node itself. */
  on: YNode | undefined;
  triggers: Trigger[];
  permissions: YNode | undefined;
  env: YMap | undefined;
  concurrency: YNode | undefined;
  jobs: Job[];
  /** `owner/name` of the scanned repository in lower case, when the scan knows it (set by the repository model). */
  repository?: string | null;
  /**
   * The repository's default branch, when the scan knows it (the settings snapshot, the service's repository, a
   * checkout's `origin/HEAD`; set by the repository model): the branch the runs of `schedule`, `issue_comment`,
   * `repository_dispatch`, `workflow_run` and the other repository events are on (run-model/conditions.ts).
   */
  defaultBranch?: string;
  /**
   * For a `workflow_run` workflow that follows only workflows of the repository: the pull request events they run
   * on, all that `github.event.workflow_run.event` can be on a run a fork's pull request started (set by the
   * repository model); absent when not known.
   */
  forkRunEvents?: readonly string[];
  /**
   * For a reusable workflow: its secrets (lower-case names) that every local caller fills with its own job token
   * (callers.ts `jobTokenSecrets`, set by the repository model). Such a secret is that token, not a stored credential.
   */
  jobTokenSecrets?: ReadonlySet<string>;
  /** For a reusable workflow: the repository's jobs that call it (`uses: ./.github/workflows/x.yml`; set by the repository model). */
  callerJobs?: Job[];
}

export interface ActionInput {
  name: string;
  key: YScalar;
  node: YMap | undefined;
  default: YNode | undefined;
}

export interface Action {
  kind: 'action';
  file: SourceFile;
  root: YMap;
  name: string | null;
  /** Directory of the action relative to the repository root ('' for the root). */
  directory: string;
  inputs: ActionInput[];
  outputs: YMap | undefined;
  runs: YMap | undefined;
  /** `runs.using`, lower-cased (`composite`, `docker`, `node20` ...). */
  using: string | null;
  /** Steps of a composite action. */
  steps: Step[];
}

export interface DependabotUpdate {
  node: YMap;
  ecosystem: string | null;
}

export interface Dependabot {
  kind: 'dependabot';
  file: SourceFile;
  root: YMap;
  updates: DependabotUpdate[];
}

export function buildWorkflow(file: SourceFile, root: YMap): Workflow {
  const on = get(root, 'on');
  const workflow: Workflow = {
    kind: 'workflow',
    file,
    root,
    name: getText(root, 'name'),
    on,
    triggers: parseTriggers(on),
    permissions: get(root, 'permissions'),
    env: getMap(root, 'env'),
    concurrency: get(root, 'concurrency'),
    jobs: [],
  };
  const jobs = getMap(root, 'jobs');
  for (const pair of jobs?.pairs ?? []) {
    if (!isMap(pair.value)) continue;
    workflow.jobs.push(buildJob(workflow, pair.key, pair.value));
  }
  // Jobs and steps that never run (a condition false on every occasion and matrix leg, a job they need that
  // never runs) are dropped here, so no rule reports on them; the run sets stay for the run model.
  const runs = pruneUnreachable(workflow);
  if (runs !== null) runSets.set(workflow, runs);
  return workflow;
}

/** True for `if: false`, `if: ${{ false }}`, `if: 0`: a condition that never holds. */
export function neverRuns(condition: YNode | undefined): boolean {
  if (condition?.kind !== 'scalar') return false;
  if (condition.value === false || condition.value === 0) return true;
  const parsed = conditionExpression(condition);
  return parsed?.expr != null && constantTruthiness(parsed.expr) === false;
}

function parseTriggers(on: YNode | undefined): Trigger[] {
  if (on === undefined) return [];
  if (on.kind === 'scalar') return on.value === null ? [] : [{ name: String(on.value), node: on, config: undefined }];
  if (on.kind === 'seq') {
    return flatMap(on.items, (item) =>
      item.kind === 'scalar' && item.value !== null ? [{ name: String(item.value), node: item, config: undefined }] : [],
    );
  }
  return on.pairs.map((pair) => ({
    name: keyText(pair.key),
    node: pair.key,
    config: isMap(pair.value) ? pair.value : undefined,
  }));
}

/**
 * One job from its mapping, reading its keys in one pass (the first of a repeated key counts, as `get` reads
 * it) rather than one search of the mapping per field.
 */
function buildJob(workflow: Workflow, key: YScalar, node: YMap): Job {
  let name: YNode | undefined;
  let runsOn: YNode | undefined;
  let permissions: YNode | undefined;
  let env: YNode | undefined;
  let condition: YNode | undefined;
  let needs: YNode | undefined;
  let uses: YNode | undefined;
  let withNode: YNode | undefined;
  let secrets: YNode | undefined;
  let container: YNode | undefined;
  let services: YNode | undefined;
  let outputs: YNode | undefined;
  let strategy: YNode | undefined;
  let environment: YNode | undefined;
  let steps: YNode | undefined;
  for (const pair of node.pairs) {
    switch (keyText(pair.key)) {
      case 'name':
        name ??= pair.value;
        break;
      case 'runs-on':
        runsOn ??= pair.value;
        break;
      case 'permissions':
        permissions ??= pair.value;
        break;
      case 'env':
        env ??= pair.value;
        break;
      case 'if':
        condition ??= pair.value;
        break;
      case 'needs':
        needs ??= pair.value;
        break;
      case 'uses':
        uses ??= pair.value;
        break;
      case 'with':
        withNode ??= pair.value;
        break;
      case 'secrets':
        secrets ??= pair.value;
        break;
      case 'container':
        container ??= pair.value;
        break;
      case 'services':
        services ??= pair.value;
        break;
      case 'outputs':
        outputs ??= pair.value;
        break;
      case 'strategy':
        strategy ??= pair.value;
        break;
      case 'environment':
        environment ??= pair.value;
        break;
      case 'steps':
        steps ??= pair.value;
        break;
    }
  }
  const usesScalar = uses?.kind === 'scalar' ? uses : undefined;
  const job: Job = {
    id: keyText(key),
    key,
    node,
    workflow,
    name: scalarText(name),
    runsOn,
    permissions,
    env: mapOrUndefined(env),
    if: condition,
    needs: [],
    uses: usesScalar,
    usesRef: usesScalar !== undefined && typeof usesScalar.value === 'string' ? parseUses(usesScalar.value) : undefined,
    with: mapOrUndefined(withNode),
    secrets,
    container,
    services: mapOrUndefined(services),
    outputs: mapOrUndefined(outputs),
    strategy: mapOrUndefined(strategy),
    environment,
    steps: [],
  };
  for (const item of asList(needs)) {
    const text = scalarText(item);
    if (text !== null) job.needs.push(text);
  }
  job.steps = buildSteps(steps, job, workflow);
  return job;
}

function mapOrUndefined(node: YNode | undefined): YMap | undefined {
  return node?.kind === 'map' ? node : undefined;
}

export function buildSteps(stepsNode: YNode | undefined, job: Job | null, owner: Workflow | Action): Step[] {
  const steps: Step[] = [];
  if (stepsNode?.kind !== 'seq') return steps;
  const items = stepsNode.items;
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    if (!isMap(item)) continue;
    const step = buildStep(item, index, job, owner);
    if (step !== null) steps.push(step);
  }
  return steps;
}

/**
 * One step from its mapping, reading its keys in one pass (the first of a repeated key counts, as `get`
 * reads it); null when its `if:` never holds.
 */
function buildStep(item: YMap, index: number, job: Job | null, owner: Workflow | Action): Step | null {
  let id: YNode | undefined;
  let name: YNode | undefined;
  let uses: YNode | undefined;
  let run: YNode | undefined;
  let withNode: YNode | undefined;
  let env: YNode | undefined;
  let condition: YNode | undefined;
  let shell: YNode | undefined;
  for (const pair of item.pairs) {
    switch (keyText(pair.key)) {
      case 'id':
        id ??= pair.value;
        break;
      case 'name':
        name ??= pair.value;
        break;
      case 'uses':
        uses ??= pair.value;
        break;
      case 'run':
        run ??= pair.value;
        break;
      case 'with':
        withNode ??= pair.value;
        break;
      case 'env':
        env ??= pair.value;
        break;
      case 'if':
        condition ??= pair.value;
        break;
      case 'shell':
        shell ??= pair.value;
        break;
    }
  }
  if (neverRuns(condition)) return null;
  const usesScalar = uses?.kind === 'scalar' ? uses : undefined;
  return {
    index,
    node: item,
    job,
    owner,
    id: scalarText(id),
    name: scalarText(name),
    uses: usesScalar,
    usesRef: usesScalar !== undefined && typeof usesScalar.value === 'string' ? parseUses(usesScalar.value) : undefined,
    run: run?.kind === 'scalar' ? run : undefined,
    with: withNode?.kind === 'map' ? withNode : undefined,
    env: env?.kind === 'map' ? env : undefined,
    if: condition,
    shell: scalarText(shell),
  };
}

export function buildAction(file: SourceFile, root: YMap): Action {
  const runs = getMap(root, 'runs');
  const using = getText(runs, 'using');
  const inputsNode = getMap(root, 'inputs');
  const action: Action = {
    kind: 'action',
    file,
    root,
    name: getText(root, 'name'),
    directory: file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '',
    inputs: (inputsNode?.pairs ?? []).map((pair) => ({
      name: keyText(pair.key),
      key: pair.key,
      node: isMap(pair.value) ? pair.value : undefined,
      default: get(pair.value, 'default'),
    })),
    outputs: getMap(root, 'outputs'),
    runs,
    using: using === null ? null : using.toLowerCase(),
    steps: [],
  };
  action.steps = buildSteps(get(runs, 'steps'), null, action);
  return action;
}

export function buildDependabot(file: SourceFile, root: YMap): Dependabot {
  return {
    kind: 'dependabot',
    file,
    root,
    updates: flatMap(asList(get(root, 'updates')), (node) =>
      isMap(node) ? [{ node, ecosystem: getText(node, 'package-ecosystem') }] : [],
    ),
  };
}

/** Names of the workflow's triggers. */
export function triggerNames(workflow: Workflow): Set<string> {
  return new Set(workflow.triggers.map((t) => t.name));
}

/** The workflow's privileged triggers (see rules.md); `repository_dispatch` counts when its payload is used. */
export function privilegedTriggers(workflow: Workflow): Trigger[] {
  return workflow.triggers.filter(
    (t) =>
      PRIVILEGED_TRIGGERS.has(t.name) ||
      (t.name === 'repository_dispatch' && workflow.file.text.includes('client_payload')),
  );
}

export function isPrivileged(workflow: Workflow): boolean {
  return privilegedTriggers(workflow).length > 0;
}

/** True when the workflow runs on `pull_request` or `pull_request_target` (or `pull_request_review*`). */
export function hasPullRequestTrigger(workflow: Workflow): boolean {
  return workflow.triggers.some((t) => t.name.startsWith('pull_request'));
}
