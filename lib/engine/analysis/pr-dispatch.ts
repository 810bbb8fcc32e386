import type { Job, Step, Workflow } from '../model/workflow.js';
import { logicalLines } from '../shell.js';
import { asList, get, getText, keyText, scalarText, type YNode, type YScalar } from '../yaml/model.js';
import { flatMap } from '../model/arrays.js';
import { findExpressions } from '../expressions/extract.js';
import { contextPath, Literal, parseExpression } from '../expressions/parse.js';
import { valueSources } from './expression-values.js';
import { githubScriptOutputValues, githubScriptReturn, outputSources, referencedEnvVars } from './script-outputs.js';
import { OPEN_PERMISSIONS } from './dispatch-gate.js';
import { approvalRaceClosedBefore } from './approval-race.js';

/**
 * A privileged job that hands a pull request's head to another repository's CI: a `repository_dispatch` or
 * `workflow_dispatch` sent (with a token that can write there) to another repository, with the head commit,
 * branch, pull request number or head repository in the payload or the ref. That repository's workflow then
 * checks out and runs the fork's code with its own secrets, on this job's word: the pull request's author
 * reaches that CI without anyone of that repository approving anything.
 */
export interface PrHeadDispatch {
  step: Step;
  /** The node to report: the `uses:` of an action, or the `run:` script. */
  node: YScalar;
  /** Value offset of the dispatching command in a `run:` script. */
  scriptOffset?: number;
  /** The repository dispatched to, as written (`acme/integration-tests`, or `another repository` when computed). */
  target: string;
  /** How: `peter-evans/repository-dispatch`, `gh api .../dispatches`, ... */
  how: string;
  /** The pull request data handed over, as written (`github.event.pull_request.head.sha`). */
  head: string;
  /**
   * The head commit the payload carries, in words (`` `$PR_SHA` (`github.event.pull_request.head.sha`) ``), or
   * null when it carries only the number, branch or repository (that CI then resolves the head when it runs).
   */
  sha: string | null;
  /** The pull request's number the payload carries, in words, or null. */
  number: string | null;
  /**
   * True when the payload carries the commit a maintainer approved: the commit the event names, or the pull
   * request's `.head.sha` read when the job runs after a step that closes the approval race (`approval-race.ts`).
   * A `.head.sha` read at run time otherwise is the head as it is then, not as it was approved: commits pushed
   * between the approval and that read are sent (the same reading as a checkout of that SHA in the job itself).
   */
  pinned: boolean;
  /** True when the commit sent is read from the pull request when the job runs (the API's `.head.sha`), not the event's. */
  shaReadAtRun: boolean;
  /** The credential the dispatch is sent with, as written (`secrets.CI_PAT`, `steps.app.outputs.token`). */
  credential: string;
}

/**
 * Actions that send a dispatch, with the input naming the target repository (absent: this repository) and the
 * input taking the token (their action.yml: absent, it is the job's own `github.token`).
 */
const DISPATCH_ACTIONS: Record<string, { repo: (step: Step) => string | null; token: string }> = {
  'peter-evans/repository-dispatch': { repo: (s) => getText(s.with, 'repository'), token: 'token' },
  'benc-uk/workflow-dispatch': { repo: (s) => getText(s.with, 'repo'), token: 'token' },
  'aurelien-baudet/workflow-dispatch': { repo: (s) => getText(s.with, 'repo'), token: 'token' },
  'convictional/trigger-workflow-and-wait': { repo: (s) => joinRepo(getText(s.with, 'owner'), getText(s.with, 'repo')), token: 'github_token' },
  'the-actions-org/workflow-dispatch': { repo: (s) => getText(s.with, 'repo'), token: 'token' },
  'lasith-kg/dispatch-workflow': { repo: (s) => joinRepo(getText(s.with, 'owner'), getText(s.with, 'repo')), token: 'token' },
  'actions/github-script': { repo: () => null, token: 'github-token' },
};

/** A credential other than the job's own token: a stored secret (not `GITHUB_TOKEN`), a step's output (an app's token), an input. */
const OTHER_CREDENTIAL = /\bsecrets\.(?!GITHUB_TOKEN\b)[A-Za-z_][\w-]*|\bsecrets\[|\bsteps\.[\w-]+\.outputs\.[\w-]*(?:token|pat|key)[\w-]*|\b(?:inputs|env|vars)\.[\w-]*(?:token|pat|key)[\w-]*/i;

/**
 * The credential a dispatch step sends with, or null when it is provably the job's own token, which GitHub
 * does not let start workflows in another repository (its scopes are this repository's; the dispatch fails).
 * An action's token input (absent: `github.token`); for a script, what its step, job and workflow `env:` and
 * its own text name. Unknown shapes count as another credential.
 */
function dispatchCredential(step: Step, job: Job, tokenInput: string | null): string | null {
  const file = job.workflow.file.text;
  const slice = (n: YNode | undefined) => (n === undefined ? '' : file.slice(n.start, n.end));
  const candidates = tokenInput !== null ? [getText(step.with, tokenInput) ?? '', slice(step.env), slice(job.env), slice(job.workflow.env)] : [slice(step.env), slice(step.run), slice(job.env), slice(job.workflow.env)];
  // An action reads only its input; a script whatever its environment holds.
  const texts = tokenInput !== null ? [candidates[0]!] : candidates;
  for (const text of texts) {
    const other = OTHER_CREDENTIAL.exec(text);
    if (other !== null) return other[0];
  }
  // A `run:` script that logs in some other way (`gh auth login`, a netrc, a credential helper) may hold one.
  if (tokenInput === null && /\bauth\s+login\b|netrc|credential/i.test(slice(step.run))) return 'a credential the script sets up';
  return null;
}

function joinRepo(owner: string | null, repo: string | null): string | null {
  if (repo === null) return null;
  return owner === null || repo.includes('/') ? repo : `${owner}/${repo}`;
}

/** A pull request's head in the text of a step: its commit, branch, number or repository. */
const HEAD =
  /\b(?:github\.event\.pull_request\.head\.(?:sha|ref|repo\.(?:full_name|clone_url|html_url|name))|github\.head_ref|github\.event\.pull_request\.number|github\.event\.number|github\.event\.issue\.number|github\.event\.workflow_run\.head_(?:sha|branch)|github\.event\.workflow_run\.pull_requests|context\.payload\.pull_request\.head\.(?:sha|ref)|context\.payload\.pull_request\.number|context\.issue\.number|headRefOid|headRefName|GITHUB_HEAD_REF)\b|refs\/pull\//g;
/** This repository, however it is spelt. */
const SELF = /^\s*(?:\$\{\{\s*github\.repository\s*\}\}|\$\{?GITHUB_REPOSITORY\}?|\$\{\{\s*github\.event\.repository\.full_name\s*\}\})\s*$/;
/** A dispatch sent from a script: the REST paths and the CLI. */
const SCRIPT_DISPATCH = /repos\/([^\s'"`/]+\/[^\s'"`/]+)\/(?:actions\/workflows\/[^\s'"`/]+\/)?dispatches\b|\bgh\s+workflow\s+run\b[^\n]*?(?:-R|--repo)[=\s]+["']?([^\s"']+)/g;

/** A script's call of a function or method named for a dispatch (`DispatchWorkflow(`, `dispatch_build(`), not GitHub's own event names. */
const SCRIPT_DISPATCH_CALL = /(?:^|[\s.=(;&|])((?!workflow_dispatch\b|repository_dispatch\b)(?:[A-Za-z_][\w-]*?)?[Dd]ispatch\w*)\s*\(/;

/** Every scalar text of a node (bounded). */
function texts(node: YNode | undefined, into: string[] = []): string[] {
  if (node === undefined || into.length >= 200) return into;
  if (node.kind === 'scalar') {
    if (typeof node.value === 'string') into.push(node.value);
  } else if (node.kind === 'seq') for (const item of node.items) texts(item, into);
  else for (const pair of node.pairs) texts(pair.value, into);
  return into;
}

/** The pull request data a step's text (and the steps whose outputs it reads) carries. */
function headData(step: Step, job: Job): string[] {
  const own = texts(step.node).join('\n');
  const producers = flatMap([...own.matchAll(/\bsteps\.([\w-]+)\.outputs\b/g)], (m) => job.steps.filter((s) => s.id === m[1] && s.index < step.index));
  const all = [own, ...producers.map((p) => texts(p.node).join('\n'))].join('\n');
  return [...new Set([...all.matchAll(HEAD)].map((m) => m[0]))];
}

/** Event data that is the head commit the event names. */
const EVENT_SHA = /^(?:github\.event\.pull_request\.head\.sha|github\.event\.workflow_run\.head_sha)$/;
/** The same in a github-script script's own code. */
const SCRIPT_EVENT_SHA = /\bcontext\.payload\.pull_request\.head\.sha\b/;
/** Event data that is the pull request's number. */
const EVENT_NUMBER = /^(?:github\.event\.pull_request\.number|github\.event\.number|github\.event\.issue\.number)$/;
/** Script text that reads a pull request's head commit: the REST API's `.head.sha`, `gh pr view`'s `headRefOid`, the event's. */
const READS_HEAD_SHA = /\.head\.sha\b|\bheadRefOid\b|github\.event\.pull_request\.head\.sha\b/;
/** Actions whose output of this name is the pull request's head commit, read from the API when the job runs. */
const HEAD_SHA_OUTPUTS: Record<string, string> = {
  'xt0rted/pull-request-comment-branch': 'head_sha',
  'alessbell/pull-request-comment-branch': 'head_sha',
  'gotson/pull-request-comment-branch': 'head_sha',
};
/** Bounds on what a payload is read for (its text is the scanned repository's). */
const MAX_PAYLOAD_EXPRESSIONS = 60;
const MAX_PAYLOAD_VARIABLES = 40;

/** An `env:` value of the step, its job or its workflow. */
function envValue(step: Step, job: Job, name: string): string | null {
  for (const env of [step.env, job.env, job.workflow.env]) {
    const pair = env?.kind === 'map' ? env.pairs.find((p) => keyText(p.key) === name) : undefined;
    if (pair !== undefined) return pair.value.kind === 'scalar' && typeof pair.value.value === 'string' ? pair.value.value : null;
  }
  return null;
}

/**
 * Whether `steps.<id>.outputs.<name>` is the pull request's head commit: an earlier step of the job that writes it
 * from `.head.sha` (a `gh api .../pulls/<n>` answer, `gh pr view --json headRefOid`, the event's), in a `run:`
 * script (the lines that feed the output, and the `env:` values they read) or a github-script `core.setOutput`,
 * or an action whose output of that name is the head commit. A github-script's `result` (what it returns, as
 * JSON) is the commit when it returns `.head.sha` itself, or an object with a field read from `.head.sha`
 * (`return { commit: pr.head.sha, ... }` after `pulls.get`) that the payload reads (`prData.commit`): `field`.
 * Returns the producing step, or null.
 */
function shaOutput(path: string, step: Step, job: Job, payload: string): { producer: Step; field: string | null } | null {
  const m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(path);
  if (m === null) return null;
  const [, id, name] = m as unknown as [string, string, string];
  const producer = job.steps.find((s) => s.index < step.index && s.id?.toLowerCase() === id);
  if (producer === undefined) return null;
  if (producer.usesRef?.kind === 'repository' && producer.usesRef.slug === 'actions/github-script' && name === 'result') {
    const script = getText(producer.with, 'script') ?? '';
    if (githubScriptOutputValues(script, 'result') === null) {
      const returned = githubScriptReturn(script);
      if (returned === null) return null;
      if (returned.values.every((v) => READS_HEAD_SHA.test(v) && !v.startsWith('{'))) return { producer, field: null };
      const field = [...returned.fields].find(([name, values]) => values.some((v) => READS_HEAD_SHA.test(v)) && new RegExp(`\\.${name.replace(/\$/g, '\\$')}\\b|\\[\\s*['"]${name.replace(/\$/g, '\\$')}['"]\\s*\\]`).test(payload))?.[0];
      return field === undefined ? null : { producer, field };
    }
  }
  return writesSha(producer, name, job) ? { producer, field: null } : null;
}

/** True when `producer` writes its output `name` from the pull request's `.head.sha` (see `shaOutput`). */
function writesSha(producer: Step, name: string, job: Job): boolean {
  const script = typeof producer.run?.value === 'string' ? producer.run.value : null;
  if (script !== null) {
    const sources = outputSources(script, name);
    if (sources === null) return false;
    const fed = sources.ranges.map(([from, to]) => script.slice(from, to)).join('\n');
    if (READS_HEAD_SHA.test(fed)) return true;
    return [...sources.variables].slice(0, MAX_PAYLOAD_VARIABLES).some((v) => READS_HEAD_SHA.test(envValue(producer, job, v) ?? ''));
  }
  const slug = producer.usesRef?.kind === 'repository' ? producer.usesRef.slug : null;
  if (slug === 'actions/github-script') {
    const values = githubScriptOutputValues(getText(producer.with, 'script') ?? '', name);
    return values !== null && values.some((v) => READS_HEAD_SHA.test(v));
  }
  return slug !== null && HEAD_SHA_OUTPUTS[slug] === name;
}

/**
 * What a dispatch's payload carries of the pull request's head: the commit and the number, in words. The payload
 * is the step's `run:` script or its `with:` inputs, with the `${{ }}` they hold and the `env:` values (of the
 * step, job or workflow) they read; a value is the commit when every value it can take is one (`a && b || c`
 * over the event's head SHA and a step output read from the pull request's `.head.sha`), so a value that is the
 * SHA on one event and the number on another is not.
 */
function carried(step: Step, job: Job): { sha: string | null; number: string | null; readAtRun: boolean } {
  const payload = step.run !== undefined ? texts(step.run) : texts(step.with);
  const text = payload.join('\n');
  let sha: string | null = null;
  let number: string | null = null;
  let readAtRun = false;
  let read = 0;
  const consider = (source: string, via: string | null): void => {
    if (read++ >= MAX_PAYLOAD_EXPRESSIONS) return;
    const expr = parseExpression(source);
    if (expr === null) return;
    const values = valueSources(expr).filter((v) => !(v instanceof Literal && (v.token.value === '' || v.token.value === null)));
    if (values.length === 0) return;
    const paths = values.map((v) => contextPath(v)?.join('.') ?? null);
    const named = (words: string) => (via === null ? words : `\`$${via}\` (${words})`);
    if (sha === null) {
      const producers = paths.map((p) => (p === null || EVENT_SHA.test(p) ? null : shaOutput(p, step, job, text)));
      if (paths.every((p, i) => p !== null && (EVENT_SHA.test(p) || producers[i] !== null))) {
        const words = paths.map((p, i) => {
          const found = producers[i];
          if (found === null || found === undefined) return `\`${p}\``;
          const { producer, field } = found;
          return `\`${p}\`${field === null ? '' : ` (its \`${field}\`)`}, which step \`${producer.name ?? producer.id ?? producer.index + 1}\` reads from the pull request's \`.head.sha\``;
        });
        sha = named(words.join(' or '));
        readAtRun = producers.some((p) => p !== null);
      }
    }
    if (number === null) {
      const numbers = paths.filter((p): p is string => p !== null && EVENT_NUMBER.test(p));
      if (numbers.length > 0) number = named(numbers.map((p) => `\`${p}\``).join(' or '));
    }
  };
  // The variables the payload reads: `$NAME` in a script, `process.env.NAME`, `${{ env.NAME }}`.
  const variables = referencedEnvVars(text);
  for (const span of findExpressions(text)) {
    if (!span.terminated) continue;
    consider(span.source, null);
    for (const m of span.source.matchAll(/\benv\.([A-Za-z_][\w-]*)/g)) variables.add(m[1]!);
  }
  if (sha === null && SCRIPT_EVENT_SHA.test(text)) sha = '`context.payload.pull_request.head.sha`';
  for (const name of [...variables].slice(0, MAX_PAYLOAD_VARIABLES)) {
    const value = envValue(step, job, name);
    if (value === null) continue;
    for (const span of findExpressions(value)) if (span.terminated) consider(span.source, name);
  }
  return { sha, number, readAtRun };
}

/** What a dispatch sends, in words: the head commit (and the number), or the head data as written. */
export function sentWords(dispatch: PrHeadDispatch): string {
  if (dispatch.sha === null) return `the pull request's head (\`${dispatch.head}\`)`;
  return `the pull request's head commit ${dispatch.sha}${dispatch.number === null ? '' : ` and its number ${dispatch.number}`}`;
}

/**
 * The repository's own names (run-model/ownership.ts `RepositoryIdentity.names`), asked for only when a step names
 * a repository to dispatch to: reading them costs a pass over the repository's files, and most jobs dispatch nothing.
 */
export type OwnNames = () => ReadonlySet<string>;

function isSelf(target: string, names: OwnNames): boolean {
  return SELF.test(target) || names().has(target.trim().toLowerCase());
}

/**
 * The repository a github-script dispatch call names when it is another one, or null when it is this repository.
 * The call is to this repository when its `repo:` is `context.repo.repo`, or `...context.repo` with no `repo:`
 * of its own, or the repository's own name; `owner: context.repo.owner` with another literal `repo:` is a
 * sibling repository of the same owner (`<owner>/ecosystem-ci`, the owner named when the scan knows it). A `repo:` computed at run time next to
 * `context.repo` is not known to be another repository (null); with no `context.repo` at all it is.
 */
function scriptTarget(script: string, names: OwnNames, ownOwner: () => string | null): string | null {
  const repo = /\brepo\s*:\s*['"`]([^'"`$]+)['"`]/.exec(script)?.[1]?.trim();
  const owner = /\bowner\s*:\s*['"`]([^'"`$]+)['"`]/.exec(script)?.[1]?.trim();
  if (/\brepo\s*:\s*context\.repo\.repo\b/.test(script)) return null;
  if (repo === undefined) return /\.\.\.\s*context\.repo\b|\bcontext\.repo\.(?:owner|repo)\b/.test(script) ? null : 'another repository';
  if (repo.includes('/')) return isSelf(repo, names) ? null : repo;
  if (owner !== undefined) return isSelf(`${owner}/${repo}`, names) ? null : `${owner}/${repo}`;
  // The owner is this repository's (`owner: context.repo.owner`, `...context.repo`, or none named): a sibling
  // repository unless the name is this one's.
  const lower = repo.toLowerCase();
  if ([...names()].some((n) => n.slice(n.indexOf('/') + 1) === lower)) return null;
  return `${ownOwner() ?? '<owner>'}/${repo}`;
}

/** The dispatches of a job's steps that hand a pull request's head to another repository. */
export function prHeadDispatches(job: Job, names: OwnNames, owner: () => string | null = () => null): PrHeadDispatch[] {
  const found: PrHeadDispatch[] = [];
  for (const step of job.steps) {
    const ref = step.usesRef;
    const targets: { target: string; how: string; node: YScalar; scriptOffset?: number }[] = [];
    if (ref?.kind === 'repository' && step.uses !== undefined) {
      const known = DISPATCH_ACTIONS[ref.slug];
      if (known !== undefined && ref.slug !== 'actions/github-script') {
        const repo = known.repo(step);
        if (repo !== null && !isSelf(repo, names)) targets.push({ target: repo.trim(), how: ref.slug, node: step.uses });
      } else if (ref.slug === 'actions/github-script') {
        const script = getText(step.with, 'script') ?? '';
        const target = /\b(createDispatchEvent|createWorkflowDispatch)\b|\/dispatches\b/.test(script) ? scriptTarget(script, names, owner) : null;
        if (target !== null) targets.push({ target, how: 'actions/github-script', node: step.uses });
      }
    } else if (typeof step.run?.value === 'string' && /dispatches|gh\s+workflow\s+run|[Dd]ispatch\w*\s*\(/.test(step.run.value)) {
      for (const line of logicalLines(step.run.value)) {
        let sent = false;
        for (const m of line.text.matchAll(SCRIPT_DISPATCH)) {
          const repo = m[1] ?? m[2];
          sent = true;
          if (repo === undefined || isSelf(repo, names) || /github\.repository\b|GITHUB_REPOSITORY/.test(repo)) continue;
          targets.push({ target: repo, how: m[1] !== undefined ? `\`${m[0].slice(0, 80)}\`` : '`gh workflow run`', node: step.run, scriptOffset: line.offset });
        }
        // A helper of the repository's own that sends the dispatch (`$gitHubApi.DispatchWorkflow($type, $payload)` of
        // a PowerShell module, `dispatchBuild(...)`): where it goes is decided when the script runs.
        const helper = sent ? null : SCRIPT_DISPATCH_CALL.exec(line.text);
        if (helper !== null) targets.push({ target: 'a repository the script names when it runs', how: `\`${(helper[1] ?? '').slice(0, 60)}(...)\``, node: step.run, scriptOffset: line.offset });
      }
    }
    if (targets.length === 0) continue;
    const head = headData(step, job);
    if (head.length === 0) continue;
    const tokenInput = ref?.kind === 'repository' ? (DISPATCH_ACTIONS[ref.slug]?.token ?? null) : null;
    const credential = dispatchCredential(step, job, tokenInput);
    if (credential === null) continue;
    const first = targets[0]!;
    const payload = carried(step, job);
    found.push({ step, ...first, head: head[0]!, sha: payload.sha, number: payload.number, pinned: payload.sha !== null && (!payload.readAtRun || approvalRaceClosedBefore(step) !== null), shaReadAtRun: payload.readAtRun, credential });
    if (found.length >= 20) break;
  }
  return found;
}

/**
 * A step that starts another workflow of this same repository: a `workflow_dispatch` (`gh workflow run <file>`,
 * `.../actions/workflows/<id>/dispatches`, github-script's `createWorkflowDispatch`, a workflow-dispatch action)
 * or a `repository_dispatch` to this repository (`repos/<this>/dispatches`, `createDispatchEvent`,
 * `peter-evans/repository-dispatch` without another `repository`), or a slash-command dispatcher that lets any
 * commenter run its commands. Both events start workflow runs even when sent with the job's own `GITHUB_TOKEN`
 * (the documented exception to "events the token triggers start no runs"), given the scope: `actions: write`
 * for a `workflow_dispatch`, `contents: write` for a `repository_dispatch`.
 */
export interface SelfDispatch {
  step: Step;
  node: YScalar;
  scriptOffset?: number;
  kind: 'workflow' | 'repository';
  /**
   * What is dispatched, as written: the workflow file (or name) of a `workflow_dispatch`, the event type of a
   * `repository_dispatch`; null when computed at run time.
   */
  target: string | null;
  /** How, in words: `gh workflow run`, `peter-evans/repository-dispatch`, ... */
  how: string;
  /** The credential, as written, when it is not the job's own token; null: the job's own token. */
  credential: string | null;
  /** Event text an outsider writes that the step's text hands over (the first one, as written), or null. */
  outsiderText: string | null;
  /** For a slash-command dispatcher: the permission its commands run with (`none`, `read`, ...). */
  permission?: string;
}

/** Workflow-dispatch actions (besides the repository-dispatch ones) and the input naming the workflow. */
const WORKFLOW_INPUT: Record<string, string> = {
  'benc-uk/workflow-dispatch': 'workflow',
  'aurelien-baudet/workflow-dispatch': 'workflow',
  'the-actions-org/workflow-dispatch': 'workflow',
  'lasith-kg/dispatch-workflow': 'workflow',
  'convictional/trigger-workflow-and-wait': 'workflow_file_name',
};

/** Text of an issue, comment, discussion, review or pull request that its author writes, in an expression or a script. */
const OUTSIDER_TEXT =
  /\b(?:github\.event|context\.payload)\.(?:comment\.body|issue\.(?:title|body)|discussion\.(?:title|body)|review\.body|pull_request\.(?:title|body|head\.ref|head\.label)|head_commit\.message)\b|\bgithub\.head_ref\b/;


/** `gh workflow run <workflow>` with no other repository, and the REST paths of both dispatches. */
const GH_WORKFLOW_RUN = /\bgh\s+workflow\s+run\b([^\n;&|]*)/;
/** Flags of `gh workflow run` that take a value. */
const GH_VALUE_FLAGS = new Set(['-R', '--repo', '-r', '--ref', '-f', '--raw-field', '-F', '--field', '--json']);
const REST_DISPATCH = /repos\/(\$\{\{\s*github\.(?:repository|event\.repository\.full_name)\s*\}\}|\$\{?GITHUB_REPOSITORY\}?|[^\s'"`/]+\/[^\s'"`/]+)\/(?:actions\/workflows\/([^\s'"`/]+)\/)?dispatches\b/g;
/** This repository, as a REST path's `owner/repo` (`{owner}/{repo}` is the `gh api` placeholder for it). */
const SELF_PATH = /^(?:\{owner\}\/\{repo\}|:owner\/:repo|\$\{\{\s*github\.repository\s*\}\}|\$\{?GITHUB_REPOSITORY\}?|\$\{\{\s*github\.event\.repository\.full_name\s*\}\})$/;

function literal(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const trimmed = text.trim().replace(/^["'`]|["'`]$/g, '');
  return trimmed === '' || /\$\{|\$[A-Za-z_]/.test(trimmed) ? null : trimmed;
}

/** The step and the outsider text it hands over: read only for a step that dispatches (most steps do not). */
function base(step: Step): { step: Step; outsiderText: string | null } {
  return { step, outsiderText: OUTSIDER_TEXT.exec(texts(step.node).join('\n'))?.[0] ?? null };
}

/**
 * The steps of a job that start another workflow of this repository (bounded: at most 20). A slash-command
 * dispatcher counts only when it lets any commenter run a command, unless `everyCommand` (the recall harness, which
 * follows every dispatch a maintainer's command sends too).
 */
export function selfDispatches(job: Job, names: OwnNames, options: { everyCommand?: boolean } = {}): SelfDispatch[] {
  const found: SelfDispatch[] = [];
  const self = (repo: string | null) => repo === null || SELF_PATH.test(repo.trim()) || isSelf(repo, names);
  for (const step of job.steps) {
    if (found.length >= 20) break;
    const ref = step.usesRef;
    if (ref?.kind === 'repository' && step.uses !== undefined) {
      if (ref.slug === 'peter-evans/slash-command-dispatch') {
        const type = (getText(step.with, 'dispatch-type') ?? 'repository').toLowerCase();
        if (type !== 'workflow' && type !== 'repository') continue;
        if (!self(getText(step.with, 'repository'))) continue;
        const permission = (getText(step.with, 'permission') ?? 'write').toLowerCase();
        const commands = getText(step.with, 'commands')?.split(/[\s,]+/).filter((c) => c !== '') ?? [];
        const config = getText(step.with, 'config');
        // A per-command permission in a JSON `config` may open one command: count the most open one.
        const perCommand = config === null ? [] : [...config.matchAll(/"permission"\s*:\s*"(\w+)"|"command"\s*:\s*"([\w-]+)"/g)];
        const configCommands = perCommand.flatMap((m) => (m[2] === undefined ? [] : [m[2]]));
        const open = [permission, ...perCommand.flatMap((m) => (m[1] === undefined ? [] : [m[1].toLowerCase()]))].find((p) => OPEN_PERMISSIONS.has(p)) ?? (options.everyCommand === true ? permission : undefined);
        if (open === undefined) continue;
        const suffix = getText(step.with, 'event-type-suffix') ?? '-command';
        const command = [...commands, ...configCommands][0];
        const given = base(step);
        found.push({
          ...given,
          node: step.uses,
          kind: type,
          target: command === undefined ? null : type === 'workflow' ? `${command}${suffix}.yml` : `${command}${suffix}`,
          how: '`peter-evans/slash-command-dispatch`',
          credential: dispatchCredential(step, job, 'token'),
          outsiderText: given.outsiderText ?? 'the command\'s arguments in the comment',
          permission: open,
        });
        continue;
      }
      if (ref.slug === 'peter-evans/repository-dispatch') {
        if (!self(getText(step.with, 'repository'))) continue;
        found.push({ ...base(step), node: step.uses, kind: 'repository', target: literal(getText(step.with, 'event-type')), how: '`peter-evans/repository-dispatch`', credential: dispatchCredential(step, job, 'token') });
        continue;
      }
      const input = WORKFLOW_INPUT[ref.slug];
      const known = DISPATCH_ACTIONS[ref.slug];
      if (input !== undefined && known !== undefined) {
        if (!self(known.repo(step))) continue;
        found.push({ ...base(step), node: step.uses, kind: 'workflow', target: literal(getText(step.with, input)), how: `\`${ref.slug}\``, credential: dispatchCredential(step, job, known.token) });
        continue;
      }
      if (ref.slug === 'actions/github-script') {
        const script = getText(step.with, 'script') ?? '';
        const workflow = /\bcreateWorkflowDispatch\b/.test(script);
        const repository = /\bcreateDispatchEvent\b/.test(script);
        if (!workflow && !repository) continue;
        // Another repository named in the call: not this one (pr-dispatch's claim, when it carries a head).
        // This repository: `...context.repo`, `repo: context.repo.repo`, or its name as written; a repository
        // computed at run time (`repo,` from a list) is not known to be this one.
        const repo = /\brepo\s*:\s*['"`]([^'"`$]+)['"`]/.exec(script)?.[1];
        const owner = /\bowner\s*:\s*['"`]([^'"`$]+)['"`]/.exec(script)?.[1];
        const own = /\.\.\.\s*context\.repo\b|\brepo\s*:\s*context\.repo\.repo\b/.test(script) || (repo !== undefined && isSelf(joinRepo(owner ?? null, repo) ?? repo, names));
        if (!own) continue;
        const target = workflow ? (/\bworkflow_id\s*:\s*['"`]([^'"`$]+)['"`]/.exec(script)?.[1] ?? null) : (/\bevent_type\s*:\s*['"`]([^'"`$]+)['"`]/.exec(script)?.[1] ?? null);
        found.push({ ...base(step), node: step.uses, kind: workflow ? 'workflow' : 'repository', target, how: `github-script's \`${workflow ? 'createWorkflowDispatch' : 'createDispatchEvent'}\``, credential: dispatchCredential(step, job, 'github-token') });
      }
      continue;
    }
    if (typeof step.run?.value !== 'string' || !/dispatches|gh\s+workflow\s+run/.test(step.run.value)) continue;
    for (const line of logicalLines(step.run.value)) {
      const gh = GH_WORKFLOW_RUN.exec(line.text);
      if (gh !== null) {
        const { repo, workflow } = ghWorkflowRun(gh[1] ?? '');
        if (self(repo)) {
          found.push({ ...base(step), node: step.run, scriptOffset: line.offset, kind: 'workflow', target: literal(workflow), how: '`gh workflow run`', credential: dispatchCredential(step, job, null) });
          break;
        }
      }
      const rest = [...line.text.matchAll(REST_DISPATCH)].find((m) => self(m[1] ?? null));
      if (rest !== undefined) {
        const type = /event_type["']?\s*[=:]\s*["']?([\w.-]+)/.exec(line.text)?.[1] ?? null;
        found.push({
          ...base(step),
          node: step.run,
          scriptOffset: line.offset,
          kind: rest[2] !== undefined ? 'workflow' : 'repository',
          target: rest[2] !== undefined ? literal(rest[2]) : type,
          how: `\`${rest[0].slice(0, 80)}\``,
          credential: dispatchCredential(step, job, null),
        });
        break;
      }
    }
  }
  return found;
}

/** The repository (`-R`) and the workflow (the first operand) of `gh workflow run`'s arguments. */
function ghWorkflowRun(args: string): { repo: string | null; workflow: string | null } {
  // An expression or a quoted value is one word (`--repo ${{ github.repository }}`, `-f note="a b"`).
  const words = [...args.matchAll(/(?:\$\{\{[^}]*\}\}|"[^"]*"|'[^']*'|[^\s"'])+/g)].slice(0, 40).map((m) => m[0]);
  let repo: string | null = null;
  let workflow: string | null = null;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const [flag, value] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined];
    if (GH_VALUE_FLAGS.has(flag)) {
      const given = value ?? words[++i] ?? '';
      if (flag === '-R' || flag === '--repo') repo = given.replace(/^["']|["']$/g, '');
      continue;
    }
    if (word.startsWith('-') || word === '\\') continue;
    workflow ??= word;
  }
  return { repo, workflow };
}

/** The workflows of the repository a dispatch starts: by file name or `name:` (workflow_dispatch), by event type (repository_dispatch). */
export function dispatchedWorkflows(dispatch: SelfDispatch, workflows: readonly Workflow[]): Workflow[] {
  const target = dispatch.target;
  return workflows.filter((w) => {
    if (dispatch.kind === 'workflow') {
      if (target === null || !w.triggers.some((t) => t.name === 'workflow_dispatch')) return false;
      const base = w.file.path.slice(w.file.path.lastIndexOf('/') + 1);
      return base === target || w.name === target;
    }
    const trigger = w.triggers.find((t) => t.name === 'repository_dispatch');
    if (trigger === undefined) return false;
    const types = asList(get(trigger.config, 'types')).flatMap((n) => {
      const text = scalarText(n);
      return text === null || text.trim() === '' ? [] : [text];
    });
    return target === null || types.length === 0 || types.includes(target);
  });
}
