/**
 * What a dispatch to a workflow of this same repository sends, and what that workflow does with it.
 *
 * A step that starts another workflow of the repository (`gh workflow run`, github-script's
 * `createWorkflowDispatch`, a dispatch action, `peter-evans/slash-command-dispatch`: pr-dispatch.ts
 * `selfDispatches`) sends inputs (`workflow_dispatch`) or a `client_payload` (`repository_dispatch`). Some of
 * them the step sets from values an outsider chooses (the comment's text, a slash command's arguments, the number
 * of the pull request they comment on); the others are constants of the workflow (`-f channel=stable`), and an
 * input the dispatch does not send takes its `default:`. The started workflow runs the default branch's own code
 * (a `workflow_dispatch` runs the workflow file of the ref it names, which the API takes only as a branch or tag of
 * the repository, never a pull request's `refs/pull/...`: https://docs.github.com/rest/actions/workflows#create-a-workflow-dispatch-event;
 * a `repository_dispatch` runs the default branch's). So what the outsider's values do there decides whether
 * anything of theirs runs:
 *
 * - they reach a sink: expanded into a `run:` script or a code input (github-script's `script:`) unchecked, run
 *   as code (`eval "$X"`, `bash -c "$X"`), the ref or repository a checkout takes (`actions/checkout`'s `ref:`,
 *   `git checkout`, `gh pr checkout`), handed unchecked to a step that publishes, or to an action, reusable
 *   workflow or container this scan does not follow;
 * - or they only pick: a `type: choice` or `type: boolean` input (the dispatch API refuses any other value:
 *   "Provided value '' for input 'debug' not in the list of allowed values", cli/cli#5246), a `number` or
 *   `environment` input outside a checkout, a value only `if:` conditions compare, one checked against a pattern
 *   or an allow-list first (validation.ts), one a script receives as a value (`"$PR"`) or an action as an issue or
 *   pull request number, a job's environment, name or concurrency group; or nothing reads them.
 */
import { expressionsOf, findExpressions } from '../expressions/extract.js';
import type { Taint, TaintAnalyzer } from '../expressions/taint.js';
import { stepScope, type TaintScope } from '../expressions/taint.js';
import type { RepositoryModel } from '../model/repository.js';
import type { Job, Step, Workflow } from '../model/workflow.js';
import { logicalLines, words } from '../shell.js';
import { asList, get, getMap, getText, keyText, scalarText, stringScalars, type YMap, type YNode, type YScalar } from '../yaml/model.js';
import { calledLocalWorkflow } from './callers.js';
import { codeSinkInputs } from './code-sinks.js';
import { describeStep } from './describe.js';
import { scriptAgents, stepAgent } from './agent-input.js';
import { conditionOf } from './expression-sites.js';
import { publishingStep } from './publishing.js';
import type { SelfDispatch } from './pr-dispatch.js';
import { validatedVariables } from './script-outputs.js';
import { variableUses } from './shell-vars.js';
import { normalizePath, validatedBefore } from './validation.js';
import { isCheckoutAction } from '../model/uses.js';

/** What a dispatch sends that an outsider chooses. */
export interface SentInputs {
  /**
   * The inputs (a `workflow_dispatch`'s names, a `repository_dispatch`'s top-level `client_payload` keys), lower-case,
   * the step sets from values an outsider can choose; null when what it sends is not known (any of them may be).
   */
  fed: readonly string[] | null;
  /** For a `workflow_dispatch`: the ref it names when an outsider can choose it, in words; null for a fixed one. */
  ref: string | null;
  /**
   * The inputs (as in `fed`) whose value names the pull request's code by something that moves with it: its number,
   * `refs/pull/<n>/...` or its head branch, not a commit. The started run resolves it when it checks it out, so it
   * takes whatever the pull request holds then; at most a few.
   */
  pullRequest: readonly string[];
}

/**
 * A value that names a pull request by its number, `refs/pull/...` or its head branch: the event's, the API's or a
 * step's output or variable so named. A commit (`.head.sha`, `headRefOid`, `sha`) is not: it names fixed code.
 */
const PULL_REQUEST_POINTER =
  /refs\/pull\/|\b(?:github\.event|context\.payload)\.(?:issue\.number|number|pull_request\.(?:number|head\.ref))\b|\bgithub\.head_ref\b|\bcontext\.issue\.number\b|\bheadRefName\b|\b(?:pr|pull|pull_request)[-_]?(?:number|num|ref|branch|head[-_]?ref)\b/i;
const COMMIT = /\bsha\b|[-_.]sha\b|\bheadRefOid\b|\bcommit\b/i;

/** True when a dispatched value names the pull request's moving code (see `SentInputs.pullRequest`). */
function pointsAtPullRequest(value: string, step: Step): boolean {
  const text = value.slice(0, 300);
  if (COMMIT.test(text)) return false;
  if (PULL_REQUEST_POINTER.test(text)) return true;
  // A shell variable bound in `env:` to such a value.
  return variableUses(text).slice(0, 4).some((use) => {
    const bound = envText(step, use.name);
    return bound !== null && !COMMIT.test(bound) && PULL_REQUEST_POINTER.test(bound.slice(0, 300));
  });
}

/**
 * Contexts whose value on the dispatching run is the repository's own, whoever starts it: its name and owner, the
 * default branch's ref and commit (an issue or comment event runs there), the run's ids, variables and secrets.
 * Anything else (the event's issue number, its text, a step's output, a shell variable) may be the outsider's.
 */
const FIXED_CONTEXT = /^(?:github\.(?:repository|repository_owner|repository_id|sha|ref|ref_name|ref_type|run_id|run_number|run_attempt|server_url|api_url|graphql_url|workflow|job|event_name|token|event\.repository(?:\.[\w-]+)*)|vars\.[\w-]+|secrets\.[\w-]+|runner\.[\w-]+)$/i;
/** The same in a github-script script. */
const FIXED_JS = /^(?:context\.(?:repo(?:\.(?:owner|repo))?|sha|ref|runId|runNumber|workflow|eventName|serverUrl|apiUrl|payload\.repository(?:\.\w+)*)|process\.env\.GITHUB_(?:REF|REF_NAME|SHA|REPOSITORY)\b)$/;

/** True when every `${{ }}` of a text reads only fixed contexts (and literals, functions and operators). */
function fixedExpressions(text: string): boolean {
  for (const span of findExpressions(text)) {
    if (!span.terminated) return false;
    // Quoted literals aside, every dotted name must be a fixed context.
    const bare = span.source.replace(/'(?:[^']|'')*'/g, "''");
    for (const m of bare.matchAll(/[A-Za-z_][\w-]*(?:\s*(?:\.[\w*-]+|\[[^\]]*\]))+/g)) if (!FIXED_CONTEXT.test(m[0].replace(/\s+/g, ''))) return false;
  }
  return true;
}

/** True when a value a dispatch sends is a constant of the workflow or a fixed context: no outsider chooses it. */
function fixedValue(value: string, step: Step): boolean {
  const text = value.trim().replace(/^(["'])([\s\S]*)\1$/, '$2');
  if (!fixedExpressions(text)) return false;
  const plain = text.replace(/\$\{\{[\s\S]*?\}\}/g, '');
  if (/[`]|\$\(/.test(plain)) return false;
  // Shell variables: fixed when the step, job or workflow binds them to a fixed value.
  for (const use of variableUses(plain)) {
    const bound = envText(step, use.name);
    if (bound === null || !fixedValue(bound, step)) return false;
  }
  return true;
}

/** The `env:` value of a step, its job or its workflow, as written. */
function envText(step: Step, name: string): string | null {
  for (const env of [step.env, step.job?.env, step.job?.workflow.env]) {
    const pair = env?.pairs.find((p) => keyText(p.key) === name);
    if (pair !== undefined) return pair.value.kind === 'scalar' ? String(pair.value.value ?? '') : null;
  }
  return null;
}

/** True when a JavaScript value (github-script) is a literal or a fixed context. */
function fixedJs(value: string, step: Step): boolean {
  const text = value.trim();
  if (/^(?:'[^'\\]*'|"[^"\\]*"|`[^`\\$]*`|-?\d+(?:\.\d+)?|true|false|null)$/.test(text)) return fixedValue(text, step);
  return FIXED_JS.test(text);
}

/** The top-level `key: value` entries of a JavaScript object literal's body, or null when one is not plain. */
function objectEntries(body: string): [string, string][] | null {
  const entries: [string, string][] = [];
  let depth = 0;
  let start = 0;
  const parts: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  for (const part of parts) {
    const text = part.trim();
    if (text === '') continue;
    if (text.startsWith('...')) return null;
    const m = /^(?:(['"])([\w-]+)\1|([A-Za-z_$][\w$]*))\s*(?::([\s\S]*))?$/.exec(text);
    if (m === null) return null;
    const key = (m[2] ?? m[3])!;
    entries.push([key, m[4] ?? key]);
  }
  return entries;
}

/** The body of the object literal after `key:` in a script, or undefined when the key is absent, null when its value is not a literal. */
function objectAfter(script: string, key: string): string | null | undefined {
  const m = new RegExp(`\\b${key}\\s*:\\s*`).exec(script);
  if (m === null) return undefined;
  const open = m.index + m[0].length;
  if (script[open] !== '{') return null;
  let depth = 0;
  for (let i = open; i < script.length && i < open + 20_000; i++) {
    if (script[i] === '{') depth++;
    else if (script[i] === '}' && --depth === 0) return script.slice(open + 1, i);
  }
  return null;
}

/** The keys of a JSON object given as an action input whose values an outsider may choose, with those values, or null when it is not plain JSON. */
function jsonFed(text: string, step: Step): [string, string][] | null {
  const expressions: string[] = [];
  const masked = text.replace(/\$\{\{[\s\S]*?\}\}/g, (m) => `__expr${expressions.push(m) - 1}__`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(masked);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const unmask = (s: string) => s.replace(/__expr(\d+)__/g, (_, i: string) => expressions[Number(i)] ?? '');
  return Object.entries(parsed as Record<string, unknown>).flatMap(([key, value]) => {
    const shown = typeof value === 'string' ? unmask(value) : JSON.stringify(value);
    return typeof value === 'object' && value !== null ? (/__expr/.test(JSON.stringify(value)) ? [[key.toLowerCase(), unmask(shown)] as [string, string]] : []) : fixedValue(shown, step) ? [] : [[key.toLowerCase(), shown] as [string, string]];
  });
}

/** Dispatch actions: the input holding what they send (JSON) and the one naming the ref. */
const ACTION_PAYLOAD: Record<string, { payload: string; ref?: string }> = {
  'peter-evans/repository-dispatch': { payload: 'client-payload' },
  'benc-uk/workflow-dispatch': { payload: 'inputs', ref: 'ref' },
  'aurelien-baudet/workflow-dispatch': { payload: 'inputs', ref: 'ref' },
  'the-actions-org/workflow-dispatch': { payload: 'inputs', ref: 'ref' },
  'lasith-kg/dispatch-workflow': { payload: 'workflow-inputs', ref: 'ref' },
  'convictional/trigger-workflow-and-wait': { payload: 'client_payload', ref: 'ref' },
};

/** Flags of `gh workflow run` and `gh api` that set a field. */
const FIELD_FLAGS = new Set(['-f', '-F', '--field', '--raw-field']);

/** What a self-dispatch sends that an outsider chooses (see `SentInputs`). */
export function sentInputs(dispatch: SelfDispatch): SentInputs {
  const step = dispatch.step;
  const slug = step.usesRef?.kind === 'repository' ? step.usesRef.slug : null;
  if (slug === 'peter-evans/slash-command-dispatch') {
    // A workflow dispatch passes the command's named arguments as the inputs of the same names, and the reserved
    // `ref=` argument as the ref; a repository dispatch sends the whole comment event and its arguments.
    return { fed: null, ref: dispatch.kind === 'workflow' ? 'the `ref=` argument of the command' : null, pullRequest: [] };
  }
  if (slug === 'actions/github-script') {
    const script = getText(step.with, 'script') ?? '';
    const call = /\b(?:createWorkflowDispatch|createDispatchEvent)\s*\(/.exec(script);
    const text = call === null ? script : script.slice(call.index, call.index + 4_000);
    const field = dispatch.kind === 'workflow' ? 'inputs' : 'client_payload';
    const body = objectAfter(text, field);
    // Absent: nothing sent. A shorthand property (`{ ...context.repo, inputs }`) or a variable: not known.
    const entries = body === undefined ? (new RegExp(`\\b${field}\\b`).test(text) ? null : []) : body === null ? null : objectEntries(body);
    const ref = dispatch.kind === 'workflow' ? /\bref\s*:\s*([^,}\n]+)/.exec(text)?.[1]?.trim() ?? null : null;
    const fed = entries === null ? null : entries.filter(([, value]) => !fixedJs(value, step));
    return {
      fed: fed === null ? null : fed.map(([key]) => key.toLowerCase()),
      ref: ref !== null && !fixedJs(ref, step) ? `\`${ref.slice(0, 60)}\`` : null,
      pullRequest: pointers(fed ?? [], step),
    };
  }
  if (slug !== null) {
    const known = ACTION_PAYLOAD[slug];
    if (known === undefined) return { fed: null, ref: null, pullRequest: [] };
    const payload = getText(step.with, known.payload);
    const ref = known.ref === undefined ? null : getText(step.with, known.ref);
    const fed = payload === null ? [] : jsonFed(payload, step);
    return { fed: fed === null ? null : fed.map(([key]) => key), ref: ref !== null && !fixedValue(ref, step) ? `\`${ref.trim().slice(0, 60)}\`` : null, pullRequest: pointers(fed ?? [], step) };
  }
  // A script: the `gh` command line the dispatch is on.
  const script = typeof step.run?.value === 'string' ? step.run.value : '';
  const line = logicalLines(script).find((l) => l.offset === dispatch.scriptOffset);
  if (line === undefined || !/\bgh\s+(?:workflow\s+run|api)\b/.test(line.text)) return { fed: null, ref: null, pullRequest: [] };
  const all = words(line.text.slice(/\bgh\s+(?:workflow\s+run|api)\b/.exec(line.text)!.index)).slice(0, 80);
  const fed: string[] = [];
  const sent: [string, string][] = [];
  let ref: string | null = null;
  const api = all[1] === 'api';
  for (let i = 0; i < all.length; i++) {
    const word = all[i]!;
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const flag = eq > 0 ? word.slice(0, eq) : word;
    if (flag === '--json' || flag === '--input') return { fed: null, ref, pullRequest: [] };
    const value = (): string => (eq > 0 ? word.slice(eq + 1) : (all[++i] ?? ''));
    if (flag === '-r' || flag === '--ref') {
      const given = value();
      if (!fixedValue(given, step)) ref = `\`${given.slice(0, 60)}\``;
      continue;
    }
    if (!FIELD_FLAGS.has(flag)) continue;
    const field = value().replace(/^["']|["']$/g, '');
    const at = field.indexOf('=');
    if (at <= 0) continue;
    const key = field.slice(0, at);
    const given = field.slice(at + 1);
    // `-F key=@file` sends the file's content, which this scan cannot read.
    const fixed = !((flag === '-F' || flag === '--field') && given.replace(/^["']/, '').startsWith('@')) && fixedValue(given, step);
    if (api) {
      // `-f ref=main -f inputs[pr]=...`, `-F client_payload[pr]=...`; a whole `inputs` object is not read here.
      if (key === 'ref') {
        if (!fixed) ref = `\`${given.slice(0, 60)}\``;
        continue;
      }
      if (key === 'event_type') continue;
      const inner = /^(?:inputs|client_payload)\[([\w-]+)\]/.exec(key)?.[1];
      if (inner === undefined) return { fed: null, ref, pullRequest: [] };
      if (!fixed) {
        fed.push(inner.toLowerCase());
        sent.push([inner.toLowerCase(), given]);
      }
      continue;
    }
    if (!fixed) {
      fed.push(key.toLowerCase());
      sent.push([key.toLowerCase(), given]);
    }
  }
  return { fed: [...new Set(fed)], ref, pullRequest: pointers(sent, step) };
}

/** The inputs of `sent` (name, value as written) whose value names the pull request's moving code. */
function pointers(sent: readonly (readonly [string, string])[], step: Step): string[] {
  return [...new Set(sent.filter(([, value]) => pointsAtPullRequest(value, step)).map(([key]) => key.toLowerCase()))].slice(0, 4);
}

/** One use the dispatched workflow makes of an input an outsider sets. */
export interface DispatchedUse {
  /** The input, as the dispatched workflow names it: `pr`, a `client_payload` key, or '' for all of them at once (`toJSON(inputs)`). */
  input: string;
  /**
   * How far the use carries the value: 0 into code, a script or a checkout; 1 into a publish or `$GITHUB_ENV`; 2 to an
   * action, reusable workflow or container this scan does not follow; null when it only picks (no sink).
   */
  sink: 0 | 1 | 2 | null;
  /** Where and how, in words: "is expanded into the script of step `Publish` of job `p` (line 14)". */
  text: string;
  /** The step that checks out or fetches what the value names (`actions/checkout`'s `ref:` or `repository:`, `git checkout`, `gh pr checkout` ...). */
  checkout?: Step;
}

/** What a dispatched workflow does with the inputs an outsider sets. */
export interface DispatchedReading {
  /** Uses that reach a sink, the strongest first (at most a few). */
  sinks: DispatchedUse[];
  /** Per input the outsider sets, what it picks or that no step names it, in words; at most a few. */
  picks: string[];
  /** Uses that check out or fetch what an input names (`DispatchedUse.checkout`); at most a few. */
  checkouts: DispatchedUse[];
}

/** How a `workflow_dispatch` input is declared. */
interface Declared {
  type: string;
  options: string[];
}

function declaredInputs(workflow: Workflow): Map<string, Declared> {
  const found = new Map<string, Declared>();
  for (const trigger of workflow.triggers) {
    if (trigger.name !== 'workflow_dispatch' && trigger.name !== 'workflow_call') continue;
    for (const pair of getMap(trigger.config, 'inputs')?.pairs ?? []) {
      const name = keyText(pair.key).toLowerCase();
      const type = (getText(pair.value, 'type') ?? 'string').toLowerCase();
      const options = asList(get(pair.value, 'options')).flatMap((n) => {
        const text = scalarText(n);
        return text === null ? [] : [text];
      });
      // Declared by both triggers: the looser of the two.
      const known = found.get(name);
      if (known === undefined || known.type === 'choice' || known.type === 'boolean') found.set(name, { type, options });
    }
  }
  return found;
}

/**
 * Script commands that check out, fetch, clone or install from git what they are given (`git+https://...@<ref>`,
 * `repo.git#<ref>`): a commit of any fork is reachable through its parent repository, so a ref an outsider names can be theirs.
 */
const CHECKOUT = /\b(?:git\s+(?:-C\s+\S+\s+)?(?:checkout|switch|fetch|pull|reset|clone|worktree\s+add|merge|cherry-pick|am|apply)|gh\s+(?:pr\s+checkout|repo\s+clone|pr\s+diff)|hub\s+checkout)\b|\bgit\+[a-z]+:\/\/|\.git[@#]/;
/** A shell told to run what follows as code. */
const RUNS_AS_CODE = /(?:\b(?:ba|z|k|da)?sh\s+(?:-[a-zA-Z]+\s+)*-c|\beval|\bsource|\bpython3?\s+-c|\bnode\s+-e|\bperl\s+-e)\s+["']?$/;
/** A line that writes to the files GitHub reads between steps: a value with a line break sets other variables there. */
const STEP_FILES = /\$\{?GITHUB_(?:ENV|PATH)\b/;
/** JavaScript that runs a string as code or a process. */
const JS_RUNS = /\b(?:eval|Function|exec|execSync|spawn|spawnSync|execFile|execFileSync|getExecOutput)\s*\(/;
/** `with:` keys that name an issue, pull request, comment or run by its number or id: an API argument. */
const NUMBER_KEY = /(?:^|[-_])(?:number|num|id|issue|pr|pull|pull[-_]request)$/i;
/** Keys of a job or step whose value only names, times or groups it, or picks one of the repository's environments or runners. */
const PICKING_KEYS: Record<string, string> = {
  name: 'its name',
  'run-name': "the run's name",
  concurrency: 'a concurrency group',
  environment: "the deployment environment it runs in, one of the repository's",
  'runs-on': "the runners it runs on, among the repository's",
  'timeout-minutes': 'a timeout',
  'continue-on-error': 'whether a failure stops it',
  'working-directory': "the directory of the repository's code it works in",
};
/** Keys whose values are handed on (read again where they are used): not a use of their own. */
const PASSING_KEYS = new Set(['env', 'outputs', 'strategy', 'id', 'uses', 'steps', 'needs', 'permissions']);

/**
 * GitHub's own actions that publish what they are given, besides those publishing.ts knows: `actions/publish-action`
 * moves an action's major tag (`v4`) to the tag it is given, which is what every `uses: owner/action@v4` then runs.
 */
const PUBLISHING_ACTIONS = new Set(['actions/publish-action', 'actions/publish-immutable-action']);

const MAX_USES = 200;
const MAX_DEPTH = 2;

interface Carrier {
  input: string;
  typed: boolean;
}

/** A variable bound to a fed input, where, and whether anything was seen reading it. */
interface Binding {
  name: string;
  carrier: Carrier;
  where: string;
  read: boolean;
  /** The agent the step it is bound on runs, if any. */
  agent: { name: string; label: string } | null;
}

class Reader {
  readonly uses: DispatchedUse[] = [];
  readonly bindings: Binding[] = [];
  /** While a step that runs an AI agent is read: the agent and the step. */
  agent: { name: string; label: string } | null = null;
  constructor(
    readonly kind: 'workflow' | 'repository',
    readonly fed: readonly string[] | null,
    readonly declared: Map<string, Declared>,
    readonly taint: TaintAnalyzer,
    readonly repository: RepositoryModel,
    readonly depth: number,
  ) {}

  /** True when the outsider sets an input ('' for all of them at once: when they set any). */
  isFed(input: string): boolean {
    if (this.fed === null) return true;
    return input === '' ? this.fed.length > 0 : this.fed.includes(input);
  }

  /** True when the dispatch API accepts only the input's declared values. */
  fixedByType(input: string): boolean {
    const type = this.declared.get(input)?.type;
    return this.kind === 'workflow' && (type === 'choice' || type === 'boolean');
  }

  /** True for a `number` or `environment` input: a value of that form, not free text (as the taint analysis reads it). */
  typed(input: string): boolean {
    const type = this.declared.get(input)?.type;
    return this.kind === 'workflow' && (type === 'number' || type === 'environment');
  }

  /** The context path of an input. */
  pathOf(input: string): string {
    return this.kind === 'workflow' ? `inputs.${input}` : `github.event.client_payload.${input}`;
  }

  /**
   * The input a path names (`inputs.pr`, `github.event.inputs.pr`, `github.event.client_payload.pr`; '' for all of
   * them: `inputs`, `github.event.inputs`, `github.event.client_payload`, `github.event`), or null.
   */
  inputOfPath(path: string): string | null {
    const lower = normalizePath(path.replace(/\s+/g, '').replace(/\[\s*'([\w-]+)'\s*\]/g, '.$1'));
    if (lower === 'github.event') return '';
    if (this.kind === 'workflow') {
      if (lower === 'inputs' || lower === 'github.event.inputs') return '';
      return lower.startsWith('inputs.') ? (lower.slice(7).split(/[.[]/)[0] ?? '') : null;
    }
    if (!lower.startsWith('github.event.client_payload')) return null;
    return lower.slice('github.event.client_payload'.length).replace(/^\./, '').split(/[.[]/)[0] ?? '';
  }

  carrier(input: string): Carrier | null {
    return this.isFed(input) && !this.fixedByType(input) ? { input, typed: this.typed(input) } : null;
  }

  /**
   * The fed input an expression carries (through `env`, step and job outputs, as the taint analysis follows it,
   * or named directly: an input whose type clears it in that analysis, the inputs as a whole), or null.
   */
  carried(source: string, taint: Taint | null, carriers: ReadonlyMap<string, Carrier>): Carrier | null {
    if (taint !== null) {
      // Outermost first: in a called workflow, its own `inputs.x` before its caller's.
      for (const hop of [...taint.via, taint.source]) {
        const input = this.inputOfPath(hop);
        if (input !== null) return this.carrier(input);
      }
    }
    const bare = source.replace(/'(?:[^']|'')*'/g, "''");
    for (const m of bare.matchAll(/\b(?:github\.event\.inputs|inputs|github\.event\.client_payload|github\.event)\b(?:\s*(?:\.[\w-]+|\[[^\]]*\]))*/gi)) {
      const input = this.inputOfPath(m[0]);
      const carrier = input === null ? null : this.carrier(input);
      if (carrier !== null) return carrier;
    }
    for (const m of bare.matchAll(/\benv\.([A-Za-z_][\w-]*)/g)) {
      const carrier = carriers.get(m[1]!);
      if (carrier !== undefined) return carrier;
    }
    return null;
  }

  add(input: string, sink: DispatchedUse['sink'], text: string, prompt = true, checkout: Step | null = null): void {
    // In a step that runs an agent, a value it is given (not one its `if:` compares) is text the agent reads.
    const [strength, words] = sink === null && prompt && this.agent !== null ? [0 as const, `${text}, and ${this.agent.label} runs ${this.agent.name}, whose prompt or tools it reaches`] : [sink, text];
    if (this.uses.length < MAX_USES && !this.uses.some((u) => u.input === input && u.text === words)) this.uses.push({ input, sink: strength, text: words, ...(checkout !== null ? { checkout } : {}) });
  }

  at(workflow: Workflow, offset: number): string {
    return `(line ${workflow.file.position(offset).line})`;
  }

  /** Every fed input an expression of a node carries, with the occurrence. */
  *occurrences(workflow: Workflow, node: YNode | undefined, scope: TaintScope, carriers: ReadonlyMap<string, Carrier>): Generator<{ carrier: Carrier; scalar: YScalar; start: number; offset: number; paths: string[] }> {
    if (node === undefined) return;
    for (const scalar of stringScalars(node)) {
      for (const occurrence of expressionsOf(workflow.file, scalar)) {
        if (occurrence.expr === null) continue;
        const taint = this.taint.ofExpression(occurrence.expr, scope);
        const carrier = this.carried(occurrence.span.source, taint, carriers);
        if (carrier === null) continue;
        yield { carrier, scalar, start: occurrence.span.start, offset: occurrence.offset, paths: [occurrence.span.source, ...(taint === null ? [] : [taint.source, ...taint.via])] };
      }
    }
  }

  /** The fed inputs an `if:` carries: one expression, bare or in one `${{ }}`, or the `${{ }}` of a format string. */
  *condition(workflow: Workflow, node: YNode, scope: TaintScope, carriers: ReadonlyMap<string, Carrier>): Generator<{ carrier: Carrier; offset: number }> {
    const whole = conditionOf(workflow, node);
    if (whole === null) {
      yield* this.occurrences(workflow, node, scope, carriers);
      return;
    }
    const carrier = this.carried(whole.source, this.taint.ofExpression(whole.expr, scope), carriers);
    if (carrier !== null) yield { carrier, offset: whole.offset };
  }

  /** The variables an `env:` map binds to fed inputs, added to `into` (where they are bound: `where`). */
  bind(workflow: Workflow, env: YMap | undefined, scope: TaintScope, into: Map<string, Carrier>, where: string): void {
    const outer = new Map(into);
    for (const pair of env?.pairs ?? []) {
      const name = keyText(pair.key);
      into.delete(name);
      for (const { carrier } of this.occurrences(workflow, pair.value, scope, outer)) {
        into.set(name, carrier);
        this.bindings.push({ name, carrier, where, read: false, agent: this.agent });
        break;
      }
    }
  }

  /** Marks a variable as read. */
  read(name: string): void {
    for (const binding of this.bindings) if (binding.name === name) binding.read = true;
  }

  readWorkflow(workflow: Workflow): void {
    const top = new Map<string, Carrier>();
    this.bind(workflow, workflow.env, { workflow }, top, 'every job');
    for (const pair of workflow.root.pairs) {
      const key = keyText(pair.key);
      if (key !== 'run-name' && key !== 'concurrency') continue;
      for (const { carrier, offset } of this.occurrences(workflow, pair.value, { workflow }, top)) this.add(carrier.input, null, `names ${PICKING_KEYS[key]} ${this.at(workflow, offset)}`);
    }
    for (const job of workflow.jobs) this.readJob(workflow, job, top);
    // A variable no script names is still in the environment of the programs the steps run (the repository's own
    // scripts and tools, which read it as a value).
    for (const binding of this.bindings) {
      if (binding.read) continue;
      this.agent = binding.agent;
      this.add(binding.carrier.input, null, `is in the environment (\`${binding.name}\`) of ${binding.where}, for the programs it runs`);
      this.agent = null;
    }
  }

  readJob(workflow: Workflow, job: Job, outer: ReadonlyMap<string, Carrier>): void {
    const scope: TaintScope = { workflow, job };
    const carriers = new Map(outer);
    const where = `job \`${job.id}\``;
    this.bind(workflow, job.env, scope, carriers, where);
    for (const pair of job.node.pairs) {
      const key = keyText(pair.key);
      if (PASSING_KEYS.has(key)) continue;
      if (key === 'if') {
        for (const { carrier, offset } of this.condition(workflow, pair.value, scope, carriers)) this.add(carrier.input, null, `is compared in the \`if:\` of ${where} ${this.at(workflow, offset)}`);
        continue;
      }
      for (const { carrier, offset } of this.occurrences(workflow, pair.value, scope, carriers)) {
        const at = this.at(workflow, offset);
        if (key === 'with') this.readCall(workflow, job, pair.value, carrier, at);
        else if (PICKING_KEYS[key] !== undefined) this.add(carrier.input, null, `picks ${PICKING_KEYS[key]} for ${where} ${at}`);
        else if (key === 'container' || key === 'services') this.add(carrier.input, 2, `names the image ${where} runs in ${at}`);
        else this.add(carrier.input, 2, `is given to \`${key}:\` of ${where} ${at}, which this scan does not follow`);
      }
    }
    for (const step of job.steps) this.readStep(workflow, step, carriers);
  }

  /** A job that calls a reusable workflow with a fed input: what that workflow does with it, when it is this repository's. */
  readCall(workflow: Workflow, job: Job, withNode: YNode, carrier: Carrier, at: string): void {
    const called = calledLocalWorkflow(this.repository, job);
    const names = (withNode.kind === 'map' ? withNode.pairs : []).filter((p) => [...this.occurrences(workflow, p.value, { workflow, job }, new Map())].some((o) => o.carrier.input === carrier.input)).map((p) => keyText(p.key).toLowerCase());
    if (called === undefined || this.depth >= MAX_DEPTH || names.length === 0) {
      this.add(carrier.input, 2, `is passed to the reusable workflow job \`${job.id}\` calls ${at}, which this scan does not follow`);
      return;
    }
    const inner = new Reader('workflow', names, declaredInputs(called), this.taint, this.repository, this.depth + 1);
    inner.readWorkflow(called);
    // Of the strongest uses there, a checkout first: what the race of a maintainer's dispatch needs.
    const strong = strongest(inner.uses);
    const sink = strong.find((u) => u.checkout !== undefined) ?? strong[0];
    const path = `\`${called.file.path}\``;
    if (sink !== undefined) this.add(carrier.input, sink.sink, `is passed as input \`${sink.input}\` to ${path} ${at}, where it ${sink.text}`, true, sink.checkout ?? null);
    else this.add(carrier.input, null, `is passed to ${path} ${at}, where it ${inner.uses.find((u) => names.includes(u.input))?.text ?? 'is not named'}`);
  }

  readStep(workflow: Workflow, step: Step, outer: ReadonlyMap<string, Carrier>): void {
    const scope = stepScope(step);
    const carriers = new Map(outer);
    const label = describeStep(step);
    // A step that runs an AI agent (an agent action, or an agent's CLI in its script): what it is given is its prompt.
    const agent = stepAgent(step)?.name ?? scriptAgents(step)[0]?.cli.name ?? null;
    this.agent = agent === null ? null : { name: agent, label };
    try {
      this.bind(workflow, step.env, scope, carriers, label);
      this.readStepNodes(workflow, step, scope, carriers, label);
    } finally {
      this.agent = null;
    }
  }

  readStepNodes(workflow: Workflow, step: Step, scope: TaintScope, carriers: ReadonlyMap<string, Carrier>, label: string): void {
    const slug = step.usesRef?.kind === 'repository' ? step.usesRef.slug : null;
    const action = slug !== null ? `\`${slug}\`` : step.uses !== undefined ? `\`${scalarText(step.uses) ?? 'the action'}\`` : 'the action';
    const code = new Set(codeSinkInputs(step).map((c) => c.node));
    const publishes = publishingStep(step) !== null || (slug !== null && PUBLISHING_ACTIONS.has(slug));
    for (const pair of step.node.pairs) {
      const key = keyText(pair.key);
      if (PASSING_KEYS.has(key)) continue;
      if (key === 'if') {
        for (const { carrier, offset } of this.condition(workflow, pair.value, scope, carriers)) this.add(carrier.input, null, `is compared in the \`if:\` of ${label} ${this.at(workflow, offset)}`, false);
        continue;
      }
      for (const { carrier, scalar, start, offset, paths } of this.occurrences(workflow, pair.value, scope, carriers)) {
        const at = this.at(workflow, offset);
        const withKey = key === 'with' ? step.with?.pairs.find((p) => stringScalars(p.value).includes(scalar)) : undefined;
        const name = withKey === undefined ? '?' : keyText(withKey.key);
        if (key === 'run' || code.has(scalar)) {
          const line = lineAround(String(scalar.value), start);
          const checked = validatedBefore(step, paths, key === 'run' ? start : undefined);
          if (key === 'run' && CHECKOUT.test(line)) this.add(carrier.input, 0, `names what ${label} checks out or fetches ${at}`, true, step);
          else if (carrier.typed) this.add(carrier.input, null, `is expanded into the script of ${label} ${at} as a \`${this.declared.get(carrier.input)?.type ?? 'typed'}\` value`);
          else if (checked !== null) this.add(carrier.input, null, `is expanded into the script of ${label} ${at}, but ${checked}`);
          else this.add(carrier.input, 0, `is expanded into the ${key === 'run' ? 'script' : `\`${name}\` code`} of ${label} ${at}`);
        } else if (key === 'with') {
          if (isCheckoutAction(step.usesRef) && /^(?:ref|repository)$/i.test(name)) this.add(carrier.input, 0, `is the \`${name}\` ${label} checks out ${at}`, true, step);
          else if (publishes && !carrier.typed && validatedBefore(step, paths) === null) this.add(carrier.input, 1, `is input \`${name}\` of the publish of ${label} ${at}`);
          else if (slug !== null && /^(?:actions|github)\//.test(slug)) this.add(carrier.input, null, `is input \`${name}\` of GitHub's own \`${slug}\` in ${label} ${at}`);
          else if (NUMBER_KEY.test(name)) this.add(carrier.input, null, `is the \`${name}\` ${label} hands to the API ${at}`);
          else this.add(carrier.input, 2, `is input \`${name}\` of ${action} in ${label} ${at}, which this scan does not follow`);
        } else if (PICKING_KEYS[key] !== undefined) {
          this.add(carrier.input, null, `picks ${PICKING_KEYS[key]} for ${label} ${at}`, false);
        } else {
          this.add(carrier.input, 2, `is given to \`${key}:\` of ${label} ${at}, which this scan does not follow`);
        }
      }
    }
    this.readVariables(workflow, step, carriers, label, slug, action);
  }

  /** Reads of variables bound to fed inputs: in a `run:` script, a github-script script, or an action's own environment. */
  readVariables(workflow: Workflow, step: Step, carriers: ReadonlyMap<string, Carrier>, label: string, slug: string | null, action: string): void {
    const at = this.at(workflow, step.node.start);
    if (typeof step.run?.value === 'string') {
      if (carriers.size === 0) return;
      const script = step.run.value;
      const checked = validatedVariables(script);
      const publishes = publishingStep(step) !== null;
      for (const line of logicalLines(script)) {
        const found = variableUses(line.text).map((u) => ({ name: u.name, offset: u.offset }));
        // Reads `variableUses` leaves out (`${HINT:+hint: $HINT}` puts the value in when it is set).
        for (const [name] of carriers) {
          if (found.some((u) => u.name === name)) continue;
          const at = new RegExp(`\\$\\{?${name.replace(/[^\w]/g, '\\$&')}\\b`).exec(line.text);
          if (at !== null) found.push({ name, offset: at.index });
        }
        for (const use of found) {
          const carrier = carriers.get(use.name);
          if (carrier === undefined) continue;
          this.read(use.name);
          const before = line.text.slice(0, use.offset);
          const valid = checked.has(use.name) || validatedBefore(step, [this.pathOf(carrier.input)]) !== null;
          const shown = `(\`$${use.name}\`)`;
          if (CHECKOUT.test(line.text)) this.add(carrier.input, 0, `names what ${label} checks out or fetches ${shown} ${at}`, true, step);
          else if (RUNS_AS_CODE.test(before) && !valid) this.add(carrier.input, 0, `is run as code by ${label} ${shown} ${at}`);
          else if (STEP_FILES.test(line.text) && !valid && !carrier.typed) this.add(carrier.input, 1, `is written to \`$GITHUB_ENV\` or \`$GITHUB_PATH\` by ${label} ${shown} ${at}, where a line break in it sets what later steps run with`);
          else if (publishes && !valid && !carrier.typed) this.add(carrier.input, 1, `is handed to the publish of ${label} ${shown} ${at}`);
          else this.add(carrier.input, null, `is a value ${shown} the script of ${label} acts on ${at}${valid ? ', checked against a pattern or an allow-list first' : ''}`);
        }
      }
      return;
    }
    if (slug === 'actions/github-script') {
      const script = getText(step.with, 'script') ?? '';
      const runs = JS_RUNS.test(script);
      const reads: { input: string; shown: string }[] = [];
      for (const [name, carrier] of carriers) {
        const quoted = name.replace(/[^\w]/g, '\\$&');
        if (!new RegExp(`process\\.env\\.${quoted}\\b|process\\.env\\[\\s*['"]${quoted}['"]\\s*\\]`).test(script)) continue;
        this.read(name);
        reads.push({ input: carrier.input, shown: `process.env.${name}` });
      }
      // The event payload itself: `context.payload.inputs.pr`, `context.payload.client_payload.pr`.
      for (const m of script.matchAll(/\bcontext\.payload\.(inputs|client_payload)\b(?:\.([\w$]+)|\[\s*['"]([\w-]+)['"]\s*\])?/g)) {
        if ((m[1] === 'inputs') !== (this.kind === 'workflow')) continue;
        const carrier = this.carrier((m[2] ?? m[3] ?? '').toLowerCase());
        if (carrier !== null) reads.push({ input: carrier.input, shown: m[0] });
      }
      for (const { input, shown } of reads) this.add(input, runs ? 0 : null, runs ? `is read (\`${shown}\`) by the script of ${label} ${at}, which runs code or processes` : `is a value (\`${shown}\`) the script of ${label} acts on ${at}`);
      return;
    }
    // An action given the variable in its own `env:` reads it as it likes.
    for (const [name, carrier] of carriers) {
      if (!(step.env?.pairs.some((p) => keyText(p.key) === name) ?? false)) continue;
      this.read(name);
      const own = slug !== null && /^(?:actions|github)\//.test(slug);
      if (own) this.add(carrier.input, null, `is in the environment (\`${name}\`) of GitHub's own ${action} in ${label} ${at}`);
      else this.add(carrier.input, 2, `is in the environment (\`${name}\`) of ${action} in ${label} ${at}, which this scan does not follow`);
    }
  }
}

/** The uses that reach a sink, the strongest first (file order among equals). */
function strongest(uses: readonly DispatchedUse[]): DispatchedUse[] {
  return uses.filter((u) => u.sink !== null).sort((a, b) => (a.sink ?? 3) - (b.sink ?? 3));
}

/** The line of a text around an offset. */
function lineAround(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return text.slice(start, end === -1 ? text.length : end);
}

/** What an input the outsider sets picks, in words, from its declaration. */
function declaredWords(name: string, declared: Declared | undefined): string | null {
  if (declared?.type === 'choice') return `\`${name}\` (\`type: choice\`: one of ${declared.options.slice(0, 4).map((o) => `\`${o.slice(0, 30)}\``).join(', ')}${declared.options.length > 4 ? ', ...' : ''})`;
  if (declared?.type === 'boolean') return `\`${name}\` (\`type: boolean\`)`;
  return null;
}

/**
 * What a workflow of the repository that a dispatch starts does with the inputs an outsider sets (`fed`: their
 * names, lower-case; null: any of them). `kind`: `workflow` for `workflow_dispatch` inputs, `repository` for a
 * `repository_dispatch`'s `client_payload`.
 */
export function readDispatched(workflow: Workflow, kind: 'workflow' | 'repository', fed: readonly string[] | null, taint: TaintAnalyzer, repository: RepositoryModel): DispatchedReading {
  const declared = kind === 'workflow' ? declaredInputs(workflow) : new Map<string, Declared>();
  const reader = new Reader(kind, fed, declared, taint, repository, 0);
  reader.readWorkflow(workflow);
  const sinks = strongest(reader.uses).slice(0, 3);
  const picks: string[] = [];
  const named = [...new Set(reader.uses.map((u) => u.input))].filter((n) => n !== '');
  const names = fed ?? (kind === 'workflow' ? [...new Set([...declared.keys(), ...named])] : named);
  for (const name of names.slice(0, 4)) {
    const shown = kind === 'workflow' ? `input \`${name}\`` : `\`client_payload.${name}\``;
    const typed = kind === 'workflow' ? declaredWords(name, declared.get(name)) : null;
    if (typed !== null) {
      picks.push(`input ${typed}`);
      continue;
    }
    const uses = reader.uses.filter((u) => u.input === name || u.input === '');
    if (uses.length === 0) picks.push(`${shown}, which no step names`);
    else picks.push(`${shown}, which ${uses.slice(0, 2).map((u) => u.text).join(' and ')}${uses.length > 2 ? ` (${uses.length - 2} more such use${uses.length === 3 ? '' : 's'})` : ''}`);
  }
  if (names.length === 0) {
    const whole = reader.uses.find((u) => u.input === '');
    picks.push(`its ${kind === 'workflow' ? 'inputs' : '`client_payload`'}, which ${whole?.text ?? 'no step names'}`);
  }
  return { sinks, picks, checkouts: reader.uses.filter((u) => u.checkout !== undefined).slice(0, 3) };
}
