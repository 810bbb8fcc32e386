/**
 * When a job or step can run: its `if:` folded over every occasion the workflow runs on (event, activity type,
 * kind of ref, whether a pull request comes from a fork) and every matrix leg, with three-valued logic that
 * short-circuits (`false && X` never holds, `true || X` always does). A job or step whose condition is false on
 * every occasion and leg never runs; two steps whose conditions hold on no common occasion and leg never run in
 * the same job run.
 *
 * What is read: `github.event_name`, `github.event.action`, `github.ref` / `github.ref_type` (branch, tag or
 * pull request merge ref, as the event and its filters allow), fork exclusion (`head.repo.full_name ==
 * github.repository`, `head.repo.fork == false`, `head.repo.owner.login == github.repository_owner`, `head.repo.id
 * == github.repository_id`, the same for `workflow_run.head_repository`, each compared with the run's own repository
 * however the payload names it (`pull_request.base.repo.*`, `workflow_run.repository.*`, `github.event.repository.*`),
 * and `workflow_run.event == 'push'`, which a fork's run never is), whether an event
 * payload exists at all (`github.event.pull_request` is null on `push`, `github.event.issue.pull_request` on
 * `issues`), `matrix.*` and `runner.os` per leg, and `needs.<job>.outputs.<name>` when it is one github-script
 * step's output set to literals per event and activity (`neededOutputs`).
 * Anything else is unknown, and unknown never rules a run out.
 */
import { data } from '@actions/expressions';
import { conditionExpression } from '../../expressions/extract.js';
import { Binary, ContextAccess, contextPath, FunctionCall, functionName, Grouping, IndexAccess, Literal, Logical, Unary, type Expr } from '../../expressions/parse.js';
import { findExpressions } from '../../expressions/extract.js';
import { parseExpression } from '../../expressions/parse.js';
import { ScanCache } from '../../model/scan-cache.js';
import type { Job, Step, Workflow } from '../../model/workflow.js';
import { asList, get, isMap, keyText, scalarText, type YMap, type YNode } from '../../yaml/model.js';
import { flatMap } from '../../model/arrays.js';
import { githubScriptOutputSettings, type JsSetting, type JsTest } from '../script-outputs.js';
import { failsOnRetiredLeg, retiredRunner } from '../runners.js';
import { scannedRepository } from '../scanned-repository.js';

/** The kind of `github.ref` a run has: a branch, a tag, a pull request's merge ref; null when not known. */
export type RefKind = 'branch' | 'tag' | 'pr' | null;

/** One way the workflow starts: an event, its activity type, the kind of ref, and whether the pull request (or followed run) comes from a fork. */
export interface Occasion {
  /** Null: not known (a reusable workflow with no caller in the repository, a file without triggers). */
  event: string | null;
  /** The activity type (`opened`, `labeled` ...); null when any default type may be it. */
  action: string | null;
  ref: RefKind;
  /** For pull request events and `workflow_run`: `fork` or `same` repository; null for other events. */
  fork: 'fork' | 'same' | null;
  /**
   * For `workflow_run` from a fork: what `github.event.workflow_run.event` can be (the pull request events the
   * followed workflows run on: Workflow `forkRunEvents`); absent when not known.
   */
  runEvents?: readonly string[];
  /**
   * The names (lower case) the run's branch or tag can have, when the trigger's filter lists them literally: a
   * `push` to `branches: [main, develop]`; for a pull request event (`pull_request`, `pull_request_target`), the
   * base branches its `branches:` filter names. Absent when any name may be it (no filter, a glob, an ignore list).
   */
  names?: readonly string[];
}

/** One leg of a job's matrix: the value of each matrix key (nodes, so `matrix.settings.ref` can be read). */
export type Leg = ReadonlyMap<string, YNode>;

/** At most this many legs are told apart; a bigger matrix is one leg whose values are unknown. */
const MAX_LEGS = 64;
/** At most this many occasions per workflow; beyond, one unknown occasion stands for all. */
const MAX_OCCASIONS = 128;

/**
 * Events whose runs are on the repository's default branch (`github.ref` is `refs/heads/<default branch>`, GitHub's
 * "Events that trigger workflows"): the clock's, the repository's own activity, and a `workflow_run` follow-up.
 */
export const DEFAULT_BRANCH_EVENTS: ReadonlySet<string> = new Set([
  'schedule', 'repository_dispatch', 'issue_comment', 'issues', 'discussion', 'discussion_comment', 'workflow_run', 'watch', 'fork',
  'label', 'milestone', 'gollum', 'page_build', 'check_run', 'check_suite', 'branch_protection_rule', 'status', 'public',
]);

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']);
/** Events about one comment, with the activity types `created`, `edited` and `deleted`. */
export const COMMENT_EVENTS: ReadonlySet<string> = new Set(['issue_comment', 'pull_request_review_comment', 'discussion_comment']);

/** The occasions a workflow runs on, from its triggers and their filters. */
export function occasionsOf(workflow: Workflow): Occasion[] {
  const result: Occasion[] = [];
  for (const trigger of workflow.triggers) {
    const event = trigger.name;
    if (event === 'workflow_call') {
      result.push({ event: null, action: null, ref: null, fork: null });
      continue;
    }
    const types = flatMap(asList(get(trigger.config, 'types')), (n) => {
      const text = scalarText(n);
      return text === null ? [] : [text.toLowerCase()];
    });
    // A comment event without `types:` runs on each of its activity types: an edit or a deletion is caused by
    // whoever edits or deletes the comment, not always its author (reach.ts, `valueReach`).
    const actions: (string | null)[] = types.length > 0 ? types : COMMENT_EVENTS.has(event) ? ['created', 'edited', 'deleted'] : [null];
    const refs = refKinds(event, trigger.config);
    const forks: ('fork' | 'same' | null)[] = PULL_REQUEST_EVENTS.has(event) || event === 'workflow_run' ? ['fork', 'same'] : [null];
    const runEvents = event === 'workflow_run' ? workflow.forkRunEvents : undefined;
    for (const ref of refs) {
      // The repository's own events run on its default branch, when the scan knows it.
      const names = refNames(event, ref, trigger.config) ?? (ref === 'branch' && workflow.defaultBranch !== undefined && DEFAULT_BRANCH_EVENTS.has(event) ? [workflow.defaultBranch.toLowerCase()] : undefined);
      for (const action of actions)
        for (const fork of forks) {
          const occasion: Occasion = runEvents !== undefined && fork === 'fork' ? { event, action, ref, fork, runEvents } : { event, action, ref, fork };
          if (names !== undefined) occasion.names = names;
          result.push(occasion);
        }
    }
  }
  if (result.length === 0 || result.length > MAX_OCCASIONS) return [{ event: null, action: null, ref: null, fork: null }];
  return result;
}

function refKinds(event: string, config: YMap | undefined): RefKind[] {
  if (event === 'pull_request' || event === 'pull_request_review' || event === 'pull_request_review_comment') return ['pr'];
  if (event === 'release' || event === 'registry_package') return ['tag'];
  if (event === 'push') {
    const tags = get(config, 'tags') !== undefined || get(config, 'tags-ignore') !== undefined;
    const branches = get(config, 'branches') !== undefined || get(config, 'branches-ignore') !== undefined;
    if (tags && !branches) return ['tag'];
    if (branches && !tags) return ['branch'];
    return ['branch', 'tag'];
  }
  if (event === 'workflow_dispatch' || event === 'create' || event === 'delete') return ['branch', 'tag'];
  return ['branch'];
}

/** A filter entry that is a name, not a pattern: no glob character (`*`, `?`, `+`, `[`), no negation (`!`). */
const LITERAL_REF = /^[A-Za-z0-9._/-]+$/;

/**
 * The names the ref of a run of `ref` kind can have, from the trigger's filter (`Occasion.names`): a `push`'s
 * `branches` or `tags`, the base `branches` of `pull_request` and `pull_request_target` (whose `github.ref` is the
 * base branch). Undefined when the filter is absent, an ignore list, or has an entry that is a pattern.
 */
function refNames(event: string, ref: RefKind, config: YMap | undefined): readonly string[] | undefined {
  let key: string;
  if (event === 'push' && (ref === 'branch' || ref === 'tag')) key = ref === 'branch' ? 'branches' : 'tags';
  else if (event === 'pull_request' || event === 'pull_request_target') key = 'branches';
  else return undefined;
  const filter = get(config, key);
  if (filter === undefined) return undefined;
  const names: string[] = [];
  for (const item of asList(filter)) {
    const text = scalarText(item);
    if (text === null || !LITERAL_REF.test(text)) return undefined;
    names.push(text.toLowerCase());
  }
  return names.length > 0 ? names : undefined;
}

/**
 * The legs of a job's matrix as GitHub expands it: the product of the axes, minus `exclude` entries, with
 * `include` entries added to the legs they match (or as legs of their own). `[new Map()]` for a job without a
 * matrix; null when the matrix cannot be read (computed with `fromJSON`, or more than `MAX_LEGS` legs).
 */
export function legsOf(job: Job): readonly Leg[] | null {
  let legs = legsMemo.get(job);
  if (legs === undefined) {
    legs = readLegs(job);
    legsMemo.set(job, legs);
  }
  return legs;
}

/** Each job's legs, read once per scan (the run sets, the open runners and the pull request heads ask). */
const legsMemo = new ScanCache<Job, readonly Leg[] | null>();

function readLegs(job: Job): Leg[] | null {
  const matrix = get(job.strategy, 'matrix');
  if (matrix === undefined) return [new Map()];
  if (!isMap(matrix)) return null;
  const axes: [string, readonly YNode[]][] = [];
  let include: readonly YNode[] = [];
  let exclude: readonly YNode[] = [];
  for (const pair of matrix.pairs) {
    const key = keyText(pair.key).toLowerCase();
    if (key === 'include' || key === 'exclude') {
      if (pair.value.kind !== 'seq') return null;
      if (key === 'include') include = pair.value.items;
      else exclude = pair.value.items;
      continue;
    }
    if (pair.value.kind !== 'seq') return null;
    axes.push([key, pair.value.items]);
  }
  let legs: Map<string, YNode>[] = axes.length > 0 ? [new Map()] : [];
  for (const [key, values] of axes) {
    const next: Map<string, YNode>[] = [];
    for (const leg of legs) for (const value of values) next.push(new Map(leg).set(key, value));
    if (next.length > MAX_LEGS * 4) return null;
    legs = next;
  }
  // Each value's comparable text, made once: the same axis values are compared with every entry.
  const texts = new Map<YNode, string>();
  const sameValue = (a: YNode | undefined, b: YNode): boolean => a !== undefined && plainOnce(a, texts) === plainOnce(b, texts);
  for (const entry of exclude) {
    if (!isMap(entry)) return null;
    const pairs = entry.pairs.map((p) => [keyText(p.key).toLowerCase(), p.value] as const);
    legs = legs.filter((leg) => !pairs.every(([key, value]) => sameValue(leg.get(key), value)));
  }
  const axisKeys = new Set(axes.map(([key]) => key));
  for (const entry of include) {
    if (!isMap(entry)) return null;
    const pairs = entry.pairs.map((p) => [keyText(p.key).toLowerCase(), p.value] as const);
    const matching = legs.filter((leg) => pairs.every(([key, value]) => !axisKeys.has(key) || sameValue(leg.get(key), value)));
    if (matching.length === 0 || axes.length === 0) {
      legs.push(new Map(pairs));
      continue;
    }
    for (const leg of matching) for (const [key, value] of pairs) if (!axisKeys.has(key)) leg.set(key, value);
  }
  if (legs.length === 0) return [];
  return legs.length > MAX_LEGS ? null : legs;
}

/** `plain(node)`, kept in `texts`. */
function plainOnce(node: YNode, texts: Map<YNode, string>): string {
  let text = texts.get(node);
  if (text === undefined) {
    text = plain(node);
    texts.set(node, text);
  }
  return text;
}

/** A node as comparable text (scalars by value, case-insensitively as GitHub compares strings). */
function plain(node: YNode): string {
  if (node.kind === 'scalar') return JSON.stringify(typeof node.value === 'string' ? node.value.toLowerCase() : node.value);
  if (node.kind === 'seq') return `[${node.items.map(plain).join(',')}]`;
  return `{${node.pairs.map((p) => `${JSON.stringify(keyText(p.key).toLowerCase())}:${plain(p.value)}`).join(',')}}`;
}

// ---------------------------------------------------------------------------------------------------------
// Three-valued evaluation.

/** What the evaluator knows of a value. */
type Value =
  | { k: 'str'; v: string }
  | { k: 'num'; v: number }
  | { k: 'bool'; v: boolean }
  | { k: 'null' }
  /**
   * A string known to start with `v` (`github.ref` on a tag: `refs/tags/`), otherwise unknown; when `names` is
   * given, one of those (lower case, each starting with `v`); when `shape` is, a string it matches (lower case).
   */
  | { k: 'prefix'; v: string; names?: readonly string[]; shape?: RegExp }
  /** The scanned repository's own name / owner / numeric id, or another repository's (a fork's), whatever they are. */
  | { k: 'repo'; self: boolean }
  | { k: 'owner'; self: boolean }
  | { k: 'repoid'; self: boolean }
  /** Something non-null (an object of the payload), otherwise unknown. */
  | { k: 'object' }
  /** An array whose items are known (each a scalar value, or `object` for a nested one): `fromJSON('["a","b"]')`. */
  | { k: 'array'; v: readonly Value[] }
  /** One of these strings (lower case), not known which: the event of a run a fork's pull request started. */
  | { k: 'among'; v: readonly string[] }
  | { k: 'unknown' };

const UNKNOWN: Value = { k: 'unknown' };
const NULL: Value = { k: 'null' };
/** Three-valued truth: true, false, or null for unknown. */
export type Truth = boolean | null;

interface Env {
  occasion: Occasion;
  /** Null: the leg is not known (no readable matrix) or not asked about. */
  leg: Leg | null;
  /** `runner.os` of the leg, when `runs-on` says it. */
  os: string | null;
  /** What `needs.<job>.outputs.<name>` may be on the occasion (`neededOutputs`); absent: unknown. */
  needs?: NeededOutputs;
  /** What `inputs.<name>` is for one caller of a reusable workflow (`callerRuns`); absent: unknown. */
  inputs?: (name: string) => Value;
  /** True when `env.ACT` is empty on GitHub (`actUnset`); absent: unknown. */
  actUnset?: boolean;
}

/** What a job's `needs.<job>.outputs.<name>` may be on an occasion (`path` as `contextPath` gives it). */
type NeededOutputs = (path: readonly string[], occasion: Occasion) => Value;

function truthy(value: Value): Truth {
  switch (value.k) {
    case 'str':
      return value.v !== '';
    case 'num':
      return value.v !== 0 && !Number.isNaN(value.v);
    case 'bool':
      return value.v;
    case 'null':
      return false;
    case 'prefix':
    case 'repo':
    case 'owner':
    case 'repoid':
    case 'object':
    case 'array':
      return true;
    case 'among':
      // An output that may be left unset may be empty.
      return value.v.includes('') ? null : true;
    default:
      return null;
  }
}

function not(t: Truth): Truth {
  return t === null ? null : !t;
}

/** The truth of `expr` on one occasion and leg. */
function evaluate(expr: Expr, env: Env): Truth {
  return truthOf(expr)(env);
}

/** The truth or the value of a node on one occasion and leg, as `compileTruth` and `compileValue` make them. */
type TruthFn = (env: Env) => Truth;
type ValueFn = (env: Env) => Value;

/**
 * A parsed condition as a function of the occasion and leg, made once per expression for the scan: a condition is
 * evaluated on many occasions and legs, and reading the tree again each time (its node types, its function names,
 * its access paths) was most of the evaluation. Kept for whole expressions (the parser's memo shares those), not
 * for their nodes.
 */
const truthFns = new ScanCache<Expr, TruthFn>();

function truthOf(expr: Expr): TruthFn {
  let fn = truthFns.get(expr);
  if (fn === undefined) {
    fn = compileTruth(expr);
    truthFns.set(expr, fn);
  }
  return fn;
}

const TRUE_VALUE: Value = { k: 'bool', v: true };
const FALSE_VALUE: Value = { k: 'bool', v: false };
const unknownValue: ValueFn = () => UNKNOWN;

/** `truthOf`'s function for a node: three-valued, short-circuiting (`false && X` never holds, `true || X` always does). */
function compileTruth(expr: Expr): TruthFn {
  if (expr instanceof Grouping) return compileTruth(expr.group);
  if (expr instanceof Logical) {
    const and = expr.operator.lexeme === '&&';
    const args = expr.args.map(compileTruth);
    return (env) => {
      let unknown = false;
      for (const arg of args) {
        const t = arg(env);
        if (t === null) unknown = true;
        else if (t !== and) return t;
      }
      return unknown ? null : and;
    };
  }
  if (expr instanceof Unary && expr.operator.lexeme === '!') {
    const inner = compileTruth(expr.expr);
    return (env) => not(inner(env));
  }
  const value = compileValue(expr);
  return (env) => truthy(value(env));
}

/** A node's value, as far as the evaluator knows it, as a function of the occasion and leg. */
function compileValue(expr: Expr): ValueFn {
  if (expr instanceof Grouping) return compileValue(expr.group);
  if (expr instanceof Literal) {
    const value = literal(expr);
    return () => value;
  }
  if (expr instanceof Logical) {
    // `a && b` is `a` when it is falsy, else `b`; `a || b` is `a` when it is truthy, else `b`.
    const and = expr.operator.lexeme === '&&';
    const args = expr.args.map(compileValue);
    return (env) => {
      let last: Value = UNKNOWN;
      for (const arg of args) {
        const value = arg(env);
        const t = truthy(value);
        if (t === null) return UNKNOWN;
        last = value;
        if (t !== and) return value;
      }
      return last;
    };
  }
  if (expr instanceof Unary && expr.operator.lexeme === '!') {
    const inner = compileValue(expr.expr);
    return (env) => {
      const t = not(truthy(inner(env)));
      return t === null ? UNKNOWN : t ? TRUE_VALUE : FALSE_VALUE;
    };
  }
  if (expr instanceof Binary) {
    const op = expr.operator.lexeme;
    if (op !== '==' && op !== '!=') return unknownValue;
    const same = op === '==';
    const left = compileValue(expr.left);
    const right = compileValue(expr.right);
    return (env) => {
      const equal = equals(left(env), right(env));
      if (equal === null) return UNKNOWN;
      return equal === same ? TRUE_VALUE : FALSE_VALUE;
    };
  }
  if (expr instanceof FunctionCall) return compileCall(expr);
  if (expr instanceof ContextAccess || expr instanceof IndexAccess) {
    const path = accessPath(expr);
    return path === null ? unknownValue : (env) => contextValue(path, env);
  }
  return unknownValue;
}

/** Each access's `contextPath`, read once per node of a parsed condition (evaluated on many occasions and legs). */
const accessPaths = new ScanCache<Expr, readonly string[] | null>();

function accessPath(expr: Expr): readonly string[] | null {
  let path = accessPaths.get(expr);
  if (path === undefined) {
    path = contextPath(expr);
    accessPaths.set(expr, path);
  }
  return path;
}

function literal(expr: Literal): Value {
  const value = expr.literal;
  if (value instanceof data.StringData) return { k: 'str', v: value.value };
  if (value instanceof data.NumberData) return { k: 'num', v: value.value };
  if (value instanceof data.BooleanData) return { k: 'bool', v: value.value };
  if (value instanceof data.Null) return NULL;
  return UNKNOWN;
}

export { withScannedRepository } from '../scanned-repository.js';

/**
 * `github.repository` (this run's) compared with a literal `owner/name`: true when it is the scanned repository,
 * false when it names another repository of the same owner (a job meant for a sibling, such as a mirror that runs
 * benchmarks, never runs here), unknown otherwise (another owner may be the repository a fork was cloned from).
 */
function ownRepositoryIs(literal: string): Truth {
  const scanned = scannedRepository();
  if (scanned === null) return null;
  const [owner, name, extra] = literal.toLowerCase().split('/');
  if (owner === undefined || name === undefined || name === '' || extra !== undefined || owner !== scanned.owner) return null;
  return name === scanned.name;
}

/** GitHub's loose equality, as far as it is known (strings compare case-insensitively). */
function equals(a: Value, b: Value): Truth {
  if ((a.k === 'repo' && a.self && b.k === 'str') || (b.k === 'repo' && b.self && a.k === 'str')) return ownRepositoryIs((a.k === 'str' ? a : (b as { v: string })).v);
  if (a.k === 'unknown' || b.k === 'unknown' || a.k === 'object' || b.k === 'object' || a.k === 'array' || b.k === 'array') return null;
  if (a.k === 'str' && b.k === 'str') return a.v.toLowerCase() === b.v.toLowerCase();
  if (a.k === 'num' && b.k === 'num') return a.v === b.v;
  if (a.k === 'bool' && b.k === 'bool') return a.v === b.v;
  if (a.k === 'null' && b.k === 'null') return true;
  if (a.k === 'null' || b.k === 'null') {
    const other = a.k === 'null' ? b : a;
    // null coerces to 0 and '' to 0: leave those comparisons unknown; a non-empty string never equals null.
    if (other.k === 'str') return other.v === '' ? null : false;
    if (other.k === 'prefix' || other.k === 'repo' || other.k === 'owner' || other.k === 'repoid') return false;
    // Of different types, both sides become numbers (null 0, true 1, false 0: "GitHub coerces the type to a number",
    // https://docs.github.com/en/actions/reference/workflows-and-actions/expressions#operators): a missing matrix key
    // (`matrix.config.free_disk_space == true`, where every leg's `config` has no such key) never equals `true`.
    if (other.k === 'bool') return !other.v;
    if (other.k === 'num') return other.v === 0;
    return null;
  }
  if (a.k === 'prefix' || b.k === 'prefix') {
    const prefix = (a.k === 'prefix' ? a : b) as { v: string; names?: readonly string[]; shape?: RegExp };
    const other = a.k === 'prefix' ? b : a;
    if (other.k !== 'str') return null;
    const text = other.v.toLowerCase();
    if (!text.startsWith(prefix.v.toLowerCase())) return false;
    if (prefix.names !== undefined) return !prefix.names.includes(text) ? false : prefix.names.length === 1 ? true : null;
    if (prefix.shape !== undefined && !prefix.shape.test(text)) return false;
    return null;
  }
  if (a.k === 'among' || b.k === 'among') {
    const among = (a.k === 'among' ? a : b) as { v: readonly string[] };
    const other = a.k === 'among' ? b : a;
    if (other.k !== 'str') return null;
    if (!among.v.includes(other.v.toLowerCase())) return false;
    return among.v.length === 1 ? true : null;
  }
  if (a.k === 'repo' && b.k === 'repo') return a.self && b.self ? true : a.self !== b.self ? false : null;
  if (a.k === 'owner' && b.k === 'owner') return a.self && b.self ? true : a.self !== b.self ? false : null;
  if (a.k === 'repoid' && b.k === 'repoid') return a.self && b.self ? true : a.self !== b.self ? false : null;
  return null;
}

function compileCall(expr: FunctionCall): ValueFn {
  const name = functionName(expr);
  switch (name) {
    case 'success':
    case 'always':
      return () => TRUE_VALUE;
    case 'failure':
    case 'cancelled':
      return unknownValue;
    case 'startswith':
    case 'endswith':
    case 'contains': {
      if (expr.args.length !== 2) return unknownValue;
      const first = compileValue(expr.args[0] as Expr);
      const second = compileValue(expr.args[1] as Expr);
      return (env) => {
        const a = first(env);
        const b = second(env);
        const result = name === 'contains' && a.k === 'array' ? arrayContains(a.v, b) : textTest(name, a, b);
        return result === null ? UNKNOWN : result ? TRUE_VALUE : FALSE_VALUE;
      };
    }
    case 'fromjson': {
      const arg = expr.args[0];
      if (expr.args.length !== 1 || arg === undefined) return unknownValue;
      const argument = compileValue(arg);
      return (env) => {
        const text = argument(env);
        if (text.k !== 'str' || text.v.length > MAX_JSON_LITERAL) return UNKNOWN;
        try {
          const parsed: unknown = JSON.parse(text.v);
          if (Array.isArray(parsed)) return parsed.length > MAX_JSON_ITEMS ? { k: 'object' } : { k: 'array', v: parsed.map(jsonScalar) };
          return jsonScalar(parsed);
        } catch {
          return UNKNOWN;
        }
      };
    }
    case 'format': {
      // `format('{0}', x)`: x as a string (an action's input is always one). Other patterns are not read.
      const [pattern, arg] = expr.args;
      const written = pattern instanceof Literal ? literal(pattern) : UNKNOWN;
      if (expr.args.length !== 2 || written.k !== 'str' || written.v !== '{0}' || arg === undefined) return unknownValue;
      const argument = compileValue(arg);
      return (env) => {
        const value = argument(env);
        switch (value.k) {
          case 'str':
            return value;
          case 'bool':
            return { k: 'str', v: value.v ? 'true' : 'false' };
          case 'num':
            return { k: 'str', v: String(value.v) };
          case 'null':
            return { k: 'str', v: '' };
          default:
            return UNKNOWN;
        }
      };
    }
    default:
      return unknownValue;
  }
}

/** At most this long a `fromJSON` literal is parsed, and an array of at most this many items is told apart. */
const MAX_JSON_LITERAL = 4096;
const MAX_JSON_ITEMS = 64;

/** A parsed JSON value: a scalar as itself, anything nested (array or object) as a non-null object. */
function jsonScalar(parsed: unknown): Value {
  if (typeof parsed === 'boolean') return { k: 'bool', v: parsed };
  if (typeof parsed === 'number') return { k: 'num', v: parsed };
  if (typeof parsed === 'string') return { k: 'str', v: parsed };
  if (parsed === null) return NULL;
  return { k: 'object' };
}

/** `contains(array, item)`: whether some item equals `item` (GitHub's loose equality, strings case-insensitive). */
function arrayContains(items: readonly Value[], item: Value): Truth {
  let unknown = false;
  for (const element of items) {
    const equal = equals(element, item);
    if (equal === true) return true;
    if (equal === null) unknown = true;
  }
  return unknown ? null : false;
}

function textTest(name: string, a: Value, b: Value): Truth {
  if (a.k === 'null') return b.k === 'str' && b.v !== '' ? false : null;
  if (b.k !== 'str') return null;
  const needle = b.v.toLowerCase();
  if (a.k === 'str') {
    const hay = a.v.toLowerCase();
    return name === 'startswith' ? hay.startsWith(needle) : name === 'endswith' ? hay.endsWith(needle) : hay.includes(needle);
  }
  if (a.k === 'prefix' && a.names !== undefined) {
    // Each name the value may be: the same answer for all of them is the answer.
    let answer: Truth | undefined;
    for (const candidate of a.names) {
      const one = textTest(name, { k: 'str', v: candidate }, b);
      if (answer === undefined) answer = one;
      else if (answer !== one) return null;
    }
    if (answer !== undefined) return answer;
  }
  if (a.k === 'prefix') {
    const prefix = a.v.toLowerCase();
    if (name === 'startswith') return prefix.startsWith(needle) ? true : needle.startsWith(prefix) ? null : false;
    if (name === 'contains') return prefix.includes(needle) ? true : null;
    return null;
  }
  return null;
}

/** The events of the runs a fork's pull request starts (what `github.event.workflow_run.event` is on a fork's run). */
const FORK_RUN_SOURCES: readonly string[] = ['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment'];

/** Payload objects and the events that carry them. */
const PAYLOADS: Record<string, ReadonlySet<string>> = {
  pull_request: PULL_REQUEST_EVENTS,
  workflow_run: new Set(['workflow_run']),
  issue: new Set(['issues', 'issue_comment']),
  comment: new Set(['issue_comment', 'pull_request_review_comment', 'discussion_comment', 'commit_comment']),
  review: new Set(['pull_request_review']),
  release: new Set(['release']),
  discussion: new Set(['discussion', 'discussion_comment']),
  client_payload: new Set(['repository_dispatch']),
  inputs: new Set(['workflow_dispatch']),
  head_commit: new Set(['push']),
  commits: new Set(['push']),
};

/** `github.ref` and `github.ref_name` of a pull request event's run: its merge ref, `refs/pull/<number>/merge`. */
const PR_REF: Value = { k: 'prefix', v: 'refs/pull/' };
const PR_REF_NAME: Value = { k: 'prefix', v: '', shape: /^\d+\/merge$/ };

/** `github.ref` (`start` `refs/heads/` or `refs/tags/`) or `github.ref_name` (`start` empty) of a branch or tag run. */
function refValue(start: string, occasion: Occasion): Value {
  // `pull_request_target` runs on the base branch, which its filter names; the repository's own events on its default branch.
  const names = occasion.names;
  if (names === undefined || (occasion.event !== 'push' && occasion.event !== 'pull_request_target' && !DEFAULT_BRANCH_EVENTS.has(occasion.event ?? ''))) return start === '' ? UNKNOWN : { k: 'prefix', v: start };
  return { k: 'prefix', v: start, names: names.map((n) => start + n) };
}

function contextValue(path: readonly string[], env: Env): Value {
  const [head, a, b] = path;
  const { occasion } = env;
  if (head === 'matrix') return env.leg === null || a === undefined ? UNKNOWN : nodeValue(env.leg.get(a), path.slice(2));
  if (head === 'runner' && a === 'os' && path.length === 2) return env.os === null ? UNKNOWN : { k: 'str', v: env.os };
  if (head === 'needs') return env.needs === undefined ? UNKNOWN : env.needs(path, occasion);
  if (head === 'inputs') return env.inputs === undefined || a === undefined || path.length !== 2 ? UNKNOWN : env.inputs(a);
  // nektos/act, which runs workflows on a developer's machine, sets `ACT`; GitHub's runner does not, and the `env`
  // context holds only what the workflow sets: a step behind `if: env.ACT` runs only under the emulator.
  if (head === 'env' && path.length === 2 && env.actUnset === true && a?.toLowerCase() === 'act') return NULL;
  if (head !== 'github') return UNKNOWN;
  const event = occasion.event;
  if (a === 'event_name' && path.length === 2) return event === null ? UNKNOWN : { k: 'str', v: event };
  if (a === 'ref' && path.length === 2) {
    if (occasion.ref === 'tag' || occasion.ref === 'branch') return refValue(occasion.ref === 'tag' ? 'refs/tags/' : 'refs/heads/', occasion);
    if (occasion.ref === 'pr') return PR_REF;
    return UNKNOWN;
  }
  if (a === 'ref_name' && path.length === 2) {
    if (occasion.ref === 'tag' || occasion.ref === 'branch') return refValue('', occasion);
    if (occasion.ref === 'pr') return PR_REF_NAME;
    return UNKNOWN;
  }
  // The base branch: set on pull request events only (the `branches:` filter of `pull_request` names it).
  if (a === 'base_ref' && path.length === 2) {
    if (event === null) return UNKNOWN;
    if (!PULL_REQUEST_EVENTS.has(event)) return { k: 'str', v: '' };
    return occasion.names === undefined ? UNKNOWN : { k: 'prefix', v: '', names: occasion.names };
  }
  if (a === 'ref_type' && path.length === 2) return occasion.ref === 'tag' ? { k: 'str', v: 'tag' } : occasion.ref === 'branch' ? { k: 'str', v: 'branch' } : UNKNOWN;
  if (a === 'repository' && path.length === 2) return { k: 'repo', self: true };
  if (a === 'repository_owner' && path.length === 2) return { k: 'owner', self: true };
  if (a === 'repository_id' && path.length === 2) return { k: 'repoid', self: true };
  if (a === 'head_ref' && path.length === 2) return event !== null && !PULL_REQUEST_EVENTS.has(event) ? { k: 'str', v: '' } : UNKNOWN;
  if (a !== 'event' || b === undefined) return UNKNOWN;
  if (b === 'action' && path.length === 3) return occasion.action === null ? UNKNOWN : { k: 'str', v: occasion.action };
  // The repository the run belongs to, as the payload of a pull request event or `workflow_run` names it.
  if (b === 'repository' && event !== null && (PULL_REQUEST_EVENTS.has(event) || event === 'workflow_run')) return ownRepository(path.slice(3).join('.'));
  const carriers = PAYLOADS[b];
  if (carriers !== undefined && event !== null && !carriers.has(event)) return NULL;
  // A label object exists only on `labeled` / `unlabeled` activity.
  if (b === 'label' && occasion.action !== null) return occasion.action === 'labeled' || occasion.action === 'unlabeled' ? UNKNOWN : NULL;
  if (b === 'pull_request' || b === 'workflow_run') {
    const rest = path.slice(3).join('.');
    const fork = occasion.fork;
    if (rest === '') return { k: 'object' };
    // The base repository (`pull_request.base.repo`, `workflow_run.repository`) is the run's own, fork or not.
    if (b === 'pull_request' && rest.startsWith('base.repo.')) return ownRepository(rest.slice('base.repo.'.length));
    if (b === 'workflow_run' && rest.startsWith('repository.')) return ownRepository(rest.slice('repository.'.length));
    if (fork === null) return UNKNOWN;
    if (rest === 'head.repo.full_name' || rest === 'head_repository.full_name') return { k: 'repo', self: fork === 'same' };
    if (rest === 'head.repo.owner.login' || rest === 'head_repository.owner.login') return { k: 'owner', self: fork === 'same' };
    if (rest === 'head.repo.id' || rest === 'head_repository.id') return { k: 'repoid', self: fork === 'same' };
    if (rest === 'head.repo.fork' || rest === 'head_repository.fork') return { k: 'bool', v: fork === 'fork' };
    // The run a fork's pull request started ran on a pull request event, never on `push`, `schedule` or a dispatch.
    if (b === 'workflow_run' && rest === 'event' && fork === 'fork') return { k: 'among', v: occasion.runEvents ?? FORK_RUN_SOURCES };
    return UNKNOWN;
  }
  if (path.length === 3 && carriers !== undefined) return { k: 'object' };
  // An `issues` event is never about a pull request (a pull request's activity is a `pull_request` event): its
  // issue has no `pull_request` link. On `issue_comment` it has one when the comment is on a pull request.
  if (b === 'issue' && path[3] === 'pull_request' && event === 'issues') return NULL;
  return UNKNOWN;
}

/** A field of the run's own repository object (`full_name`, `id`, `owner.login`); unknown for any other field. */
function ownRepository(field: string): Value {
  if (field === 'full_name') return { k: 'repo', self: true };
  if (field === 'id') return { k: 'repoid', self: true };
  if (field === 'owner.login') return { k: 'owner', self: true };
  return UNKNOWN;
}

function nodeValue(node: YNode | undefined, rest: readonly string[]): Value {
  let current = node;
  for (const segment of rest) {
    if (current === undefined || current.kind !== 'map') return current === undefined ? NULL : UNKNOWN;
    current = current.pairs.find((p) => keyText(p.key).toLowerCase() === segment)?.value;
  }
  if (current === undefined) return NULL;
  if (current.kind !== 'scalar') return { k: 'object' };
  const value = current.value;
  if (typeof value === 'string') return value.includes('${{') ? UNKNOWN : { k: 'str', v: value };
  if (typeof value === 'number') return { k: 'num', v: value };
  if (typeof value === 'boolean') return { k: 'bool', v: value };
  return NULL;
}

// ---------------------------------------------------------------------------------------------------------
// Feasible runs of jobs and steps.

/**
 * Where a job (or step) can run: for each occasion of its workflow (by index) and each leg of its job, whether
 * its condition may hold. `legs` null: the job's matrix is unknown (one unknown leg).
 */
export interface RunSet {
  occasions: readonly Occasion[];
  legs: readonly Leg[] | null;
  /** `bits[o * legCount + l]`, legCount = max(1, legs.length). */
  bits: Uint8Array;
}

export function legCount(set: RunSet): number {
  return set.legs === null ? 1 : Math.max(1, set.legs.length);
}

export function isEmpty(set: RunSet): boolean {
  return !set.bits.some((b) => b === 1);
}

/** The occasions (indexes) on which some leg can run. */
export function occasionIndexes(set: RunSet): number[] {
  const legsPer = legCount(set);
  const result: number[] = [];
  for (let o = 0; o < set.occasions.length; o++) {
    for (let l = 0; l < legsPer; l++) {
      if (set.bits[o * legsPer + l] === 1) {
        result.push(o);
        break;
      }
    }
  }
  return result;
}

/** The legs (indexes) of a run set on which it can run on some occasion that `keep` accepts (any, when not given). */
export function legIndexes(set: RunSet, keep?: (occasion: Occasion) => boolean): number[] {
  const legsPer = legCount(set);
  const result: number[] = [];
  for (let l = 0; l < legsPer; l++) {
    for (let o = 0; o < set.occasions.length; o++) {
      if (set.bits[o * legsPer + l] === 1 && (keep === undefined || keep(set.occasions[o] as Occasion))) {
        result.push(l);
        break;
      }
    }
  }
  return result;
}

/** True when both can run in one job run (same occasion and leg). Sets of one job only. */
export function overlap(a: RunSet, b: RunSet): boolean {
  if (a.bits.length !== b.bits.length) return sharedOccasion(a, b);
  for (let i = 0; i < a.bits.length; i++) if (a.bits[i] === 1 && b.bits[i] === 1) return true;
  return false;
}

/** True when both can run on one occasion (for sets of different jobs of one workflow). */
export function sharedOccasion(a: RunSet, b: RunSet): boolean {
  if (a.occasions !== b.occasions) return true;
  const theirs = new Set(occasionIndexes(b));
  return occasionIndexes(a).some((o) => theirs.has(o));
}

const STATUS_FUNCTIONS = /\b(always|failure|cancelled)\s*\(/i;

/**
 * The occasions and legs on which a condition may hold, within `within` (or everywhere). `os`: `runner.os` of each
 * leg, asked only when the condition reads `matrix` or `runner`. The answer is `within` itself when the condition
 * rules out none of its runs (bits are never changed once a set is made, so sets share them), a new array otherwise.
 */
function conditionSet(condition: YNode | undefined, occasions: readonly Occasion[], legs: readonly Leg[] | null, os: () => readonly (string | null)[], within?: Uint8Array, needs?: NeededOutputs, memo?: TruthMemo): Uint8Array {
  const legsPer = legs === null ? 1 : Math.max(1, legs.length);
  const bits = within ?? new Uint8Array(occasions.length * legsPer).fill(1);
  if (condition?.kind === 'scalar' && (condition.value === false || condition.value === 0)) return new Uint8Array(bits.length);
  // `${{ x }}` with any text around it, a block scalar's trailing newline included, is a template: a non-empty
  // string, always true, whatever `x` is (unsound-condition reports it).
  if (condition?.kind === 'scalar' && typeof condition.value === 'string' && condition.value.includes('${{')) {
    const spans = findExpressions(condition.value);
    const only = spans[0];
    if (spans.length !== 1 || only === undefined || only.start !== 0 || only.end !== condition.value.length) return bits;
  }
  const parsed = conditionExpression(condition);
  if (parsed === null || parsed.expr === null) {
    // A condition written as text around `${{ }}` (`${{ a }} && x`): GitHub evaluates the text, which is
    // always truthy when non-empty. Unknown here: keep every run.
    return bits;
  }
  return evaluateOver(parsed.expr, occasions, legs, os, bits, true, needs, memo);
}

/**
 * The truths an expression already has on one job's occasions and legs (`evaluateOver`'s table, by class of
 * occasions and leg), kept while a workflow's run sets are made: a generated workflow repeats a few conditions
 * on hundreds of steps. `shared` holds the expressions whose truth depends on the occasion alone (they read no
 * leg and no `needs` output), alike for every job of the workflow; `own` the others, for one job.
 */
interface TruthMemo {
  shared: Map<Expr, Uint8Array>;
  /** Made on the first expression that needs it (most jobs have none). */
  own: Map<Expr, Uint8Array> | null;
  /** The workflow never sets a variable named `ACT` (`actUnset`): on GitHub's runners `env.ACT` is empty. */
  actUnset?: boolean;
}

/**
 * `bits` (occasion by leg, as a `RunSet`'s) without the bits on which `expr` evaluates to `!want` (false for a
 * condition): `bits` itself when there are none, else a copy (`bits` is not changed). The expression is evaluated
 * once per class of alike occasions (`occasionClasses`) and, when it reads `matrix` or `runner` (`READS_LEG`), per
 * class of legs alike in what it reads of them (`legClasses`); a bit already clear is not evaluated.
 */
function evaluateOver(expr: Expr, occasions: readonly Occasion[], legs: readonly Leg[] | null, os: () => readonly (string | null)[], bits: Uint8Array, want: boolean, needs?: NeededOutputs, memo?: TruthMemo): Uint8Array {
  const legsPer = legs === null ? 1 : Math.max(1, legs.length);
  const reads = occasionReads(expr);
  const usesLeg = (reads & READS_LEG) !== 0;
  const classes = occasionClasses(occasions, reads & OCCASION_FIELDS);
  const legClass = usesLeg ? legClasses(expr, legs, legsPer, os) : null;
  const width = legClass === null ? 1 : legClass.count;
  // Per class (and leg): 0 not yet evaluated, else the truth as TRUTH_CODE gives it.
  let truths: Uint8Array;
  if (memo === undefined) truths = new Uint8Array(classes.count * width);
  else {
    const table = usesLeg || (reads & READS_NEEDS) !== 0 ? (memo.own ??= new Map()) : memo.shared;
    const known = table.get(expr);
    // The same expression is always read with the same width (`usesLeg` comes from its tree); checked, not assumed.
    if (known !== undefined && known.length === classes.count * width) truths = known;
    else {
      truths = new Uint8Array(classes.count * width);
      table.set(expr, truths);
    }
  }
  const clear = want ? FALSE_CODE : TRUE_CODE;
  const truth = truthOf(expr);
  // Copied on the first bit cleared: most conditions rule out no run of their job (unknown, or true on each).
  let out = bits;
  for (let o = 0; o < occasions.length; o++) {
    const occasion = occasions[o] as Occasion;
    const row = (classes.of[o] as number) * width;
    for (let l = 0; l < legsPer; l++) {
      const i = o * legsPer + l;
      if (bits[i] === 0) continue;
      const slot = legClass === null ? row : row + (legClass.of[l] as number);
      let t = truths[slot] as number;
      if (t === 0) {
        const env: Env = usesLeg ? { occasion, leg: legs?.[l] ?? null, os: os()[l] ?? null } : { occasion, leg: null, os: null };
        if (needs !== undefined) env.needs = needs;
        if (memo?.actUnset === true) env.actUnset = true;
        t = truthCode(truth(env));
        truths[slot] = t;
      }
      if (t === clear) {
        if (out === bits) out = bits.slice();
        out[i] = 0;
      }
    }
  }
  return out;
}

const FALSE_CODE = 1;
const TRUE_CODE = 2;
const UNKNOWN_CODE = 3;

function truthCode(t: Truth): number {
  return t === false ? FALSE_CODE : t === true ? TRUE_CODE : UNKNOWN_CODE;
}

/** Occasions grouped by the fields an expression reads: `of[o]` is occasion `o`'s class, `count` the number of classes. */
interface OccasionClasses {
  of: Int32Array;
  count: number;
}

/** Per occasion list (one per workflow), the classes for each `READS_*` mask, made when first asked. */
const classesMemo = new ScanCache<readonly Occasion[], (OccasionClasses | undefined)[]>();

/** The occasions grouped by their `occasionKey` for `reads`: those with the same key evaluate every expression with those reads alike. */
function occasionClasses(occasions: readonly Occasion[], reads: number): OccasionClasses {
  let byReads = classesMemo.get(occasions);
  if (byReads === undefined) {
    byReads = [];
    classesMemo.set(occasions, byReads);
  }
  let classes = byReads[reads];
  if (classes === undefined) {
    const ids = new Map<string, number>();
    const of = new Int32Array(occasions.length);
    for (let o = 0; o < occasions.length; o++) {
      const key = occasionKey(occasions[o] as Occasion, reads);
      let id = ids.get(key);
      if (id === undefined) {
        id = ids.size;
        ids.set(key, id);
      }
      of[o] = id;
    }
    classes = { of, count: ids.size };
    byReads[reads] = classes;
  }
  return classes;
}

/** A job's legs grouped by what an expression reads of them: `of[l]` is leg `l`'s class, `count` the number of classes. */
interface LegClasses {
  of: Int32Array;
  count: number;
}

/** What an expression reads of a leg: the matrix keys (lower case, sorted), and whether it reads `runner.os`. */
interface LegReads {
  keys: readonly string[];
  os: boolean;
}

function legReads(expr: Expr): LegReads {
  return exprReads(expr).leg;
}

/** Per legs list (one per job), the classes for each `LegReads` (by its text), made when first asked. */
const legClassesMemo = new ScanCache<readonly Leg[], Map<string, LegClasses>>();

/**
 * The legs grouped by the values an expression reads of them (`legReads`): legs whose values of those matrix keys
 * are written alike (`exactText`) and that have the same `runner.os` give it the same truth on every occasion.
 */
function legClasses(expr: Expr, legs: readonly Leg[] | null, legsPer: number, os: () => readonly (string | null)[]): LegClasses {
  const read = legReads(expr);
  if (legs === null || legs.length <= 1) return { of: new Int32Array(legsPer), count: 1 };
  const signature = `${read.os ? '\u0001' : ''}${read.keys.join('\u0000')}`;
  let bySignature = legClassesMemo.get(legs);
  if (bySignature === undefined) {
    bySignature = new Map();
    legClassesMemo.set(legs, bySignature);
  }
  let found = bySignature.get(signature);
  if (found === undefined) {
    const ids = new Map<string, number>();
    const texts = new Map<YNode, string>();
    const of = new Int32Array(legsPer);
    const systems = read.os ? os() : null;
    for (let l = 0; l < legs.length; l++) {
      const leg = legs[l] as Leg;
      let key = systems === null ? '' : `${systems[l] ?? '\u0002'}\u0001`;
      for (const k of read.keys) {
        const value = leg.get(k);
        key += `${value === undefined ? '\u0002' : exactText(value, texts)}\u0000`;
      }
      let id = ids.get(key);
      if (id === undefined) {
        id = ids.size;
        ids.set(key, id);
      }
      of[l] = id;
    }
    found = { of, count: ids.size };
    bySignature.set(signature, found);
  }
  return found;
}

/**
 * A node as text that tells apart whatever `nodeValue` can read of it: scalars by type and value as written (no
 * case folding), mappings by their keys as written and in order, sequences by their items.
 */
function exactText(node: YNode, texts: Map<YNode, string>): string {
  let text = texts.get(node);
  if (text === undefined) {
    if (node.kind === 'scalar') text = `${typeof node.value}:${typeof node.value === 'string' ? JSON.stringify(node.value) : String(node.value)}`;
    else if (node.kind === 'seq') text = `[${node.items.map((item) => exactText(item, texts)).join(',')}]`;
    else text = `{${node.pairs.map((p) => `${JSON.stringify(keyText(p.key))}:${exactText(p.value, texts)}`).join(',')}}`;
    texts.set(node, text);
  }
  return text;
}

/** `runner.os` of each leg (`legSystems`), computed on the first call and kept. */
function lazyLegSystems(job: Job, legs: readonly Leg[] | null): () => readonly (string | null)[] {
  let os: (string | null)[] | null = null;
  return () => (os ??= legSystems(job, legs));
}

// What an expression reads of an occasion, so that occasions alike in those fields are evaluated once.
const READS_EVENT = 1;
const READS_ACTION = 2;
const READS_REF = 4;
const READS_FORK = 8;
/** The fields of the occasion itself (what `occasionClasses` groups by). */
const OCCASION_FIELDS = READS_EVENT | READS_ACTION | READS_REF | READS_FORK;
/** Reads a `needs` output (what `env.needs` gives, per job); not a field of the occasion. */
const READS_NEEDS = 16;
/**
 * Reads the leg: a `matrix` value, or `runner.os` (`contextValue` reads nothing else of `Env.leg` and `Env.os`). An
 * expression without it has the same truth on every leg, so it is evaluated once for all.
 */
const READS_LEG = 32;

/** What an expression reads: its `READS_*` bits (`occasionReads`) and what it reads of a leg (`legReads`). */
interface ExprReads {
  mask: number;
  leg: LegReads;
}

const readsMemo = new ScanCache<Expr, ExprReads>();
const NO_LEG_READS: LegReads = { keys: [], os: false };

/**
 * The occasion fields (`READS_*` bits) that `contextValue` may read for some context path of `expr`: an over-
 * approximation (every path of the tree counts, evaluated or not). `github.repository*` and paths outside
 * `github` read none; `matrix` and `runner` read the leg (`READS_LEG`); a `needs` output reads the event and
 * activity, and `READS_NEEDS` (what it is depends on the job).
 */
function occasionReads(expr: Expr): number {
  return exprReads(expr).mask;
}

/** `occasionReads` and `legReads` of an expression, found in one walk of its tree and kept for the scan. */
function exprReads(expr: Expr): ExprReads {
  let found = readsMemo.get(expr);
  if (found === undefined) {
    const into: ReadsFound = { mask: 0, keys: null, os: false };
    collectReads(expr, into);
    found = { mask: into.mask, leg: into.keys === null && !into.os ? NO_LEG_READS : { keys: into.keys === null ? [] : [...into.keys].sort(), os: into.os } };
    readsMemo.set(expr, found);
  }
  return found;
}

interface ReadsFound {
  mask: number;
  /** Matrix keys read (null: none yet). */
  keys: Set<string> | null;
  os: boolean;
}

/**
 * Adds what the context paths under `node` read to `into`. Each chain of accesses (`github.event.action`) is read
 * by its whole path: the accesses inside it have paths that begin the same way and add nothing to what the whole
 * path reads (a `runner.os` inside `runner.os.x` is counted as `runner.os`). `contextValue` reads `matrix.<key>...`
 * through the leg's value of `<key>`, and `runner.os`; nothing else of a leg.
 */
function collectReads(node: Expr, into: ReadsFound): void {
  if (node instanceof ContextAccess || node instanceof IndexAccess) {
    const path = accessPath(node);
    if (path !== null) {
      const [head, a] = path;
      if (head === 'needs') into.mask |= READS_EVENT | READS_ACTION | READS_NEEDS;
      else if (head === 'matrix' || head === 'runner') {
        into.mask |= READS_LEG;
        if (head === 'matrix' && a !== undefined) (into.keys ??= new Set()).add(a);
        else if (head === 'runner' && a === 'os') into.os = true;
      } else if (head === 'github') {
        if (a === 'event_name' || a === 'head_ref') into.mask |= READS_EVENT;
        else if (a === 'ref' || a === 'ref_type' || a === 'ref_name') into.mask |= READS_REF;
        else if (a === 'base_ref') into.mask |= READS_EVENT | READS_REF;
        else if (a === 'event') into.mask |= READS_EVENT | READS_ACTION | READS_FORK;
      }
    }
    // What the chain's index expressions read, and what its base reads when it is not a context (`fromJSON(x).y`).
    let current: Expr = node;
    while (current instanceof IndexAccess) {
      collectReads(current.index, into);
      current = current.expr;
    }
    if (!(current instanceof ContextAccess)) collectReads(current, into);
    return;
  }
  if (node instanceof FunctionCall || node instanceof Logical) for (const arg of node.args) collectReads(arg, into);
  else if (node instanceof Binary) {
    collectReads(node.left, into);
    collectReads(node.right, into);
  } else if (node instanceof Unary) collectReads(node.expr, into);
  else if (node instanceof Grouping) collectReads(node.group, into);
}

/** The fields of `occasion` in `reads`, as one string (a field left out, or null, has a code of its own). */
function occasionKey(occasion: Occasion, reads: number): string {
  if (reads === 0) return '';
  const field = (bit: number, value: string | null) => ((reads & bit) === 0 ? '\u0001' : value === null ? '\u0002' : value);
  return `${field(READS_EVENT, occasion.event)}\u0000${field(READS_ACTION, occasion.action)}\u0000${field(READS_REF, occasion.ref === null ? null : occasion.names === undefined ? occasion.ref : `${occasion.ref}:${occasion.names.join(',')}`)}\u0000${field(READS_FORK, occasion.fork)}`;
}

/**
 * `runner.os` of each leg (`Linux`, `Windows`, `macOS`), when `runs-on` (resolved through the leg's matrix values)
 * names a hosted image family; null for a leg whose labels name none (a self-hosted label, a value not known).
 * `byName`: also when a label names a system as one of its words (`gemini-windows-16-core`, `linux-arm64-large`: a
 * larger runner's or a self-hosted group's name), which is what its owner named it for but not what GitHub
 * guarantees: for a claim that two jobs share a system, never for folding a condition.
 */
export function legSystems(job: Job, legs: readonly Leg[] | null, byName = false): (string | null)[] {
  const runsOn = job.runsOn;
  const count = legs === null ? 1 : Math.max(1, legs.length);
  const result: (string | null)[] = [];
  for (let l = 0; l < count; l++) {
    const leg = legs?.[l] ?? null;
    const labels = runsOn === undefined ? [] : asList(runsOn.kind === 'map' ? get(runsOn, 'labels') : runsOn);
    let os: string | null = null;
    for (const label of labels) {
      const text = scalarText(label);
      if (text === null) continue;
      const resolved = leg === null ? (text.includes('${{') ? null : text) : substitute(text, leg);
      const found = resolved === null ? null : (systemOf(resolved) ?? (byName ? namedSystem(resolved) : null));
      if (found !== null) {
        os = found;
        break;
      }
    }
    result.push(os);
  }
  return result;
}

/** The system a custom label names as one of its words (split at `-`, `_`, `.`, spaces), or null. */
function namedSystem(label: string): string | null {
  const words = new Set(label.toLowerCase().split(/[-_.\s]+/));
  const named = (...names: string[]) => names.some((n) => words.has(n));
  const found = [named('windows', 'win') ? 'Windows' : null, named('macos', 'osx', 'mac') ? 'macOS' : null, named('linux', 'ubuntu') ? 'Linux' : null].filter((s) => s !== null);
  return found.length === 1 ? found[0]! : null;
}

function systemOf(label: string): string | null {
  const text = label.trim().toLowerCase();
  if (/^ubuntu\b|^linux$/.test(text)) return 'Linux';
  if (/^windows\b/.test(text)) return 'Windows';
  if (/^macos\b/.test(text)) return 'macOS';
  return null;
}

/**
 * The labels one item of a `runs-on` list becomes in a leg: the item's text with the leg's matrix values
 * substituted, or, when the item is one matrix expression whose value in the leg is a list
 * (`${{ matrix.runner }}` with `runner: [self-hosted, gpu]`), that list's items. Null when a value is not known.
 */
export function legLabels(text: string, leg: Leg): string[] | null {
  const spans = findExpressions(text);
  const only = spans.length === 1 ? spans[0] : undefined;
  if (only !== undefined && only.terminated && text.slice(0, only.start).trim() === '' && text.slice(only.end).trim() === '') {
    const expr = parseExpression(only.source);
    const path = expr === null ? null : contextPath(expr);
    if (path !== null && path[0] === 'matrix' && path[1] !== undefined) {
      let node = leg.get(path[1]);
      for (const segment of path.slice(2)) node = node?.kind === 'map' ? node.pairs.find((p) => keyText(p.key).toLowerCase() === segment)?.value : undefined;
      if (node?.kind === 'seq') {
        const labels: string[] = [];
        for (const item of node.items) {
          const label = item.kind === 'scalar' ? scalarText(item) : null;
          if (label === null || label.includes('${{')) return null;
          labels.push(label);
        }
        return labels;
      }
    }
  }
  const resolved = substitute(text, leg);
  return resolved === null ? null : [resolved];
}

/** `text` with its `${{ matrix.x }}` expressions replaced by the leg's values; null when one cannot be. */
function substitute(text: string, leg: Leg): string | null {
  const spans = findExpressions(text);
  let out = '';
  let from = 0;
  for (const span of spans) {
    const expr = span.terminated ? parseExpression(span.source) : null;
    const path = expr === null ? null : contextPath(expr);
    if (path === null || path[0] !== 'matrix' || path[1] === undefined) return null;
    const value = nodeValue(leg.get(path[1]), path.slice(2));
    if (value.k !== 'str' && value.k !== 'num') return null;
    out += text.slice(from, span.start) + String(value.v);
    from = span.end;
  }
  return out + text.slice(from);
}

/**
 * The run sets of a workflow's jobs and steps. A job's set is its own condition's, on the occasions on which
 * the jobs it needs can run too (unless its condition calls a status function, `always()` and the like);
 * a step's is its job's narrowed by its own condition.
 */
export interface WorkflowRuns {
  occasions: readonly Occasion[];
  jobs: Map<Job, RunSet>;
  steps: Map<Step, RunSet>;
}

/**
 * A variable named `ACT` that the workflow itself may set: an `env:` key, or a `$GITHUB_ENV` line (`ACT=...`). Over-
 * approximated on the whole file's text (a word `ACT`, not `env.ACT`, before `:` or `=` but not `==`), so a workflow that may set it keeps
 * `env.ACT` unknown.
 */
const SETS_ACT = /(?<![.\w-])ACT["']?\s*(?::|=(?!=))/i;

export function workflowRuns(workflow: Workflow): WorkflowRuns {
  const occasions = occasionsOf(workflow);
  const jobs = new Map<Job, RunSet>();
  const steps = new Map<Step, RunSet>();
  const byId = new Map(workflow.jobs.map((j) => [j.id, j]));
  // The workflow's job ids, lower-cased once (`neededOutputs`: a job it does not need reads null).
  const jobIds = new Set(workflow.jobs.map((j) => j.id.toLowerCase()));
  // Whether a job runs only where the jobs it needs can run (its condition calls no status function), read once per job.
  const needsKept = new Map<Job, boolean>();
  const dependsOnNeeds = (job: Job): boolean => {
    let depends = needsKept.get(job);
    if (depends === undefined) {
      depends = job.if === undefined || !STATUS_FUNCTIONS.test(job.if.kind === 'scalar' ? String(job.if.value ?? '') : '');
      needsKept.set(job, depends);
    }
    return depends;
  };
  const shared = new Map<Expr, Uint8Array>();
  const actUnset = !SETS_ACT.test(workflow.file.text);
  // What each job's outputs may be (`neededOutputs`), read once per workflow however many jobs need them.
  const outputs = new Map<string, OutputSettings | null>();
  const compute = (job: Job): void => {
    const memo: TruthMemo = { shared, own: null, actUnset };
    const legs = legsOf(job);
    const legsPer = legs === null ? 1 : Math.max(1, legs.length);
    const os = lazyLegSystems(job, legs);
    let bits: Uint8Array = new Uint8Array(occasions.length * legsPer);
    // A job on a runner image GitHub has retired gets no machine: it never runs (runners.ts `retiredRunner`).
    if ((legs === null || legs.length > 0) && !retiredRunner(job)) bits.fill(1);
    const needs = neededOutputs(job, byId, jobIds, outputs);
    if (job.if !== undefined) bits = conditionSet(job.if, occasions, legs, os, bits, needs, memo);
    if (dependsOnNeeds(job)) {
      for (const id of job.needs) {
        const needed = byId.get(id);
        const theirs = needed === undefined ? undefined : jobs.get(needed);
        // A job of a cycle (which GitHub rejects) reads its needs as unconstrained.
        if (theirs === undefined) continue;
        // A needed job with a matrix leg on a retired runner image never succeeds (runners.ts `failsOnRetiredLeg`).
        if (needed !== undefined && failsOnRetiredLeg(needed)) {
          bits.fill(0);
          continue;
        }
        const allowed = new Set(occasionIndexes(theirs));
        for (let o = 0; o < occasions.length; o++) if (!allowed.has(o)) bits.fill(0, o * legsPer, (o + 1) * legsPer);
      }
    }
    const own: RunSet = { occasions, legs, bits };
    jobs.set(job, own);
    // A step runs wherever its job does unless its `if:` rules runs out: it then shares the job's set (no set's bits
    // change once made; `conditionSet` gives back the job's bits when the condition rules out none).
    for (const step of job.steps) {
      const stepBits = step.if === undefined ? bits : conditionSet(step.if, occasions, legs, os, bits, needs, memo);
      steps.set(step, stepBits === bits ? own : { occasions, legs, bits: stepBits });
    }
  };
  // Jobs after the jobs they need, without recursion (a chain of thousands of `needs` must not exhaust the stack).
  const state = new Map<Job, 'open' | 'done'>();
  for (const root of workflow.jobs) {
    if (state.has(root)) continue;
    const stack: { job: Job; next: number }[] = [{ job: root, next: 0 }];
    state.set(root, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { job: Job; next: number };
      const needs = dependsOnNeeds(top.job) ? top.job.needs : [];
      if (top.next < needs.length) {
        const needed = byId.get(needs[top.next++] as string);
        if (needed !== undefined && !state.has(needed)) {
          state.set(needed, 'open');
          stack.push({ job: needed, next: 0 });
        }
        continue;
      }
      stack.pop();
      compute(top.job);
      state.set(top.job, 'done');
    }
  }
  return { occasions, jobs, steps };
}

/**
 * Drops the jobs and steps of a workflow that never run (their condition is false on every occasion and leg,
 * or a job they need never runs), so no rule reports on them. Returns the run sets of what remains, or null when
 * nothing can be dropped (`maySkip`): then the run sets are left for the first question that needs them.
 */
export function pruneUnreachable(workflow: Workflow): WorkflowRuns | null {
  // For speed: this runs for every workflow when it is parsed, and 43% of the corpus's workflows have no `if:`.
  if (!maySkip(workflow)) return null;
  const runs = workflowRuns(workflow);
  const never = new Set(workflow.jobs.filter((job) => isEmpty(runs.jobs.get(job) as RunSet)));
  if (never.size > 0) workflow.jobs = workflow.jobs.filter((job) => !never.has(job));
  for (const job of workflow.jobs) {
    if (job.steps.some((s) => isEmpty(runs.steps.get(s) as RunSet))) job.steps = job.steps.filter((s) => !isEmpty(runs.steps.get(s) as RunSet));
  }
  return runs;
}

/**
 * Whether some job or step of the workflow may never run: one has an `if:`, a job's matrix has no leg, or a job asks
 * for a retired runner image. Without
 * either, every run set is full (every bit set; a job that needs others needs jobs that run on every occasion),
 * so `pruneUnreachable` would drop nothing.
 */
function maySkip(workflow: Workflow): boolean {
  for (const job of workflow.jobs) {
    if (job.if !== undefined || (job.strategy !== undefined && legsOf(job)?.length === 0) || retiredRunner(job) || failsOnRetiredLeg(job)) return true;
    for (const step of job.steps) if (step.if !== undefined) return true;
  }
  return false;
}

/**
 * Where a `${{ }}` value given to an input (not an `if:`) may be truthy (`want` true) or falsy (`want` false):
 * the occasions and legs of `within` (a run set of one of `job`'s steps) on which it may evaluate so. Used for
 * inputs that switch a feature by the run (`cache: ${{ !startsWith(github.ref, 'refs/tags/') }}`). A value that
 * is not one whole expression leaves `within` as it is (the caller reads plain values itself); unknown never
 * rules a run out.
 */
export function valueRunSet(value: YNode | undefined, job: Job, within: RunSet, want: boolean): RunSet {
  if (value?.kind !== 'scalar' || typeof value.value !== 'string') return within;
  const text = value.value.trim();
  const spans = findExpressions(text);
  const only = spans[0];
  if (spans.length !== 1 || only === undefined || only.start !== 0 || only.end !== text.length) return within;
  const expr = parseExpression(only.source);
  if (expr === null) return within;
  const bits = evaluateOver(expr, within.occasions, within.legs, lazyLegSystems(job, within.legs), within.bits, want);
  return { occasions: within.occasions, legs: within.legs, bits };
}

/**
 * `within` (a run set of one of `job`'s steps) narrowed by an `if:` that is not the job's or one of its own steps'
 * (a step of a local composite action, run at that step's place): the occasions and legs on which it may hold.
 */
export function conditionRunSet(condition: YNode | undefined, job: Job, within: RunSet): RunSet {
  if (condition === undefined) return within;
  return { occasions: within.occasions, legs: within.legs, bits: conditionSet(condition, within.occasions, within.legs, lazyLegSystems(job, within.legs), within.bits) };
}

/** The runs two sets of one job have in common (same occasion and leg); `a` when the sets are not of one job. */
export function intersect(a: RunSet, b: RunSet): RunSet {
  if (a.bits.length !== b.bits.length || a.occasions !== b.occasions) return a;
  const bits = a.bits.slice();
  for (let i = 0; i < bits.length; i++) if (b.bits[i] !== 1) bits[i] = 0;
  return { occasions: a.occasions, legs: a.legs, bits };
}

/** The occasions (as `Occasion`s) of a run set on which some leg can run. */
export function occasionsOfSet(set: RunSet): Occasion[] {
  return occasionIndexes(set).map((o) => set.occasions[o] as Occasion);
}

/** The occasion of a reusable workflow's run as its caller starts it, with nothing known of the event. */
const CALLED: Occasion = { event: null, action: null, ref: null, fork: null };

/**
 * False when a job of a reusable workflow (or a step of it) never runs for one local caller: its `if:` cannot hold
 * with `inputs.<name>` as that caller passes it (a literal in the calling job's `with:`) or, when it passes
 * nothing, as the input's `default:` (GitHub's empty value of the input's type, `false`, `''` or `0`, when it has
 * none). A value passed as an expression, and every other context, stay unknown, so only a condition that fails
 * on the caller's fixed inputs (`if: inputs.enable-coverage` for a caller that never sets it) drops that caller.
 */
export function callerRuns(job: Job, step: Step | null, caller: Job): boolean {
  const declared = get(job.workflow.triggers.find((t) => t.name === 'workflow_call')?.config, 'inputs');
  if (!isMap(declared)) return true;
  const inputs = (name: string): Value => {
    const passed = isMap(caller.with) ? caller.with.pairs.find((p) => keyText(p.key).toLowerCase() === name)?.value : undefined;
    if (passed !== undefined) return literalValue(passed);
    const spec = declared.pairs.find((p) => keyText(p.key).toLowerCase() === name)?.value;
    if (!isMap(spec)) return UNKNOWN;
    const given = get(spec, 'default');
    if (given !== undefined) return literalValue(given);
    const type = scalarText(get(spec, 'type') as YNode) ?? '';
    return type === 'boolean' ? { k: 'bool', v: false } : type === 'string' ? { k: 'str', v: '' } : type === 'number' ? { k: 'num', v: 0 } : UNKNOWN;
  };
  for (const condition of [job.if, step?.if]) {
    if (condition === undefined) continue;
    const parsed = conditionExpression(condition);
    if (parsed === null || parsed.expr === null) continue;
    if (evaluate(parsed.expr, { occasion: CALLED, leg: null, os: null, inputs }) === false) return false;
  }
  return true;
}

/** A literal of a `with:` value or an input's `default:` (a string holding `${{` is unknown). */
function literalValue(node: YNode): Value {
  if (node.kind !== 'scalar') return UNKNOWN;
  const value = node.value;
  if (typeof value === 'string') return value.includes('${{') ? UNKNOWN : { k: 'str', v: value };
  if (typeof value === 'number') return { k: 'num', v: value };
  if (typeof value === 'boolean') return { k: 'bool', v: value };
  return NULL;
}

/** Exposed for tests: the truth of a condition on one occasion and leg. */
export function conditionTruth(condition: YNode | undefined, occasion: Occasion, leg: Leg | null = null, os: string | null = null): Truth {
  const parsed = conditionExpression(condition);
  if (parsed === null || parsed.expr === null) return null;
  return evaluate(parsed.expr, { occasion, leg, os });
}


/**
 * What the outputs of the jobs `job` needs may be, per occasion: an output that is exactly one github-script
 * step's output, which the script sets to literals in `if` / `else if` / `else` branches whose conditions compare
 * the event and activity (an environment variable of the step bound to `github.event_name`,
 * `github.event.action`, or both joined with text) with literals (`githubScriptOutputSettings`), is among the
 * literals of the branches that may be taken on the occasion, or empty (the step may not run or set it).
 * Anything else is unknown. `found`: each job output's settings by `<id>\0<name>`, kept for the workflow.
 */
function neededOutputs(job: Job, byId: ReadonlyMap<string, Job>, jobIds: ReadonlySet<string>, found: Map<string, OutputSettings | null>): NeededOutputs | undefined {
  const needed = new Set(job.needs.map((id) => id.toLowerCase()));
  return (path, occasion) => {
    const [, id, outputs, name] = path;
    // The `needs` context holds only the jobs the job needs: another job of the workflow (`needs.changed_files...`
    // where `changed_files` is not in `needs:`) is null there, whatever that job does. Only a job id of this
    // workflow: a name the model does not know stays unknown.
    if (id !== undefined && path.length >= 2 && !needed.has(id)) return jobIds.has(id) ? NULL : UNKNOWN;
    if (path.length !== 4 || outputs !== 'outputs' || id === undefined || name === undefined || !needed.has(id)) return UNKNOWN;
    const key = `${id}\u0000${name}`;
    let settings = found.get(key);
    if (settings === undefined) {
      const source = [...byId.values()].find((j) => j.id.toLowerCase() === id);
      settings = source === undefined ? null : outputSettings(source, name);
      found.set(key, settings);
    }
    if (settings === null) return UNKNOWN;
    const values = new Set<string>(['']);
    for (const setting of settings.settings) {
      if (setting.when.every((test) => jsTruth(test, settings.env, occasion) !== false)) values.add(setting.value.toLowerCase());
    }
    return { k: 'among', v: [...values] };
  };
}

interface OutputSettings {
  settings: readonly JsSetting[];
  /** The step's environment variables made of `github.event_name` and `github.event.action` only: literal text and `event` / `action` parts. */
  env: ReadonlyMap<string, readonly (string | { part: 'event' | 'action' })[]>;
}

function outputSettings(source: Job, name: string): OutputSettings | null {
  if (source.uses !== undefined) return null;
  const value = source.outputs?.pairs.find((p) => keyText(p.key).toLowerCase() === name)?.value;
  const text = value === undefined ? null : scalarText(value);
  if (text === null) return null;
  const spans = findExpressions(text.trim());
  const only = spans[0];
  if (spans.length !== 1 || only === undefined || !only.terminated || only.start !== 0 || only.end !== text.trim().length) return null;
  const expr = parseExpression(only.source);
  const path = expr === null ? null : contextPath(expr);
  if (path?.length !== 4 || path[0] !== 'steps' || path[2] !== 'outputs') return null;
  const step = source.steps.find((s) => s.id?.toLowerCase() === path[1]);
  if (step?.usesRef?.kind !== 'repository' || step.usesRef.slug !== 'actions/github-script') return null;
  const script = get(step.with, 'script');
  const scriptText = script === undefined ? null : scalarText(script);
  if (scriptText === null) return null;
  const settings = githubScriptOutputSettings(scriptText, path[3] as string);
  if (settings === null) return null;
  const env = new Map<string, (string | { part: 'event' | 'action' })[]>();
  for (const pair of step.env?.pairs ?? []) {
    const envText = scalarText(pair.value);
    if (envText === null) continue;
    const parts: (string | { part: 'event' | 'action' })[] = [];
    let from = 0;
    let readable = true;
    for (const span of findExpressions(envText)) {
      const part = span.terminated ? parseExpression(span.source) : null;
      const partPath = part === null ? null : contextPath(part)?.join('.');
      if (partPath !== 'github.event_name' && partPath !== 'github.event.action') {
        readable = false;
        break;
      }
      parts.push(envText.slice(from, span.start), { part: partPath === 'github.event_name' ? 'event' : 'action' });
      from = span.end;
    }
    if (!readable) continue;
    parts.push(envText.slice(from));
    env.set(keyText(pair.key), parts);
  }
  return { settings, env };
}

/** The truth of a script's test on an occasion; null when it reads something other than the event and activity. */
function jsTruth(test: JsTest, env: OutputSettings['env'], occasion: Occasion): Truth {
  switch (test.k) {
    case 'unknown':
      return null;
    case 'not':
      return not(jsTruth(test.arg, env, occasion));
    case 'and':
    case 'or': {
      const and = test.k === 'and';
      let unknown = false;
      for (const arg of test.args) {
        const t = jsTruth(arg, env, occasion);
        if (t === null) unknown = true;
        else if (t !== and) return t;
      }
      return unknown ? null : and;
    }
    case 'in': {
      const parts = env.get(test.env);
      if (parts === undefined) return null;
      let value = '';
      for (const part of parts) {
        const piece = typeof part === 'string' ? part : part.part === 'event' ? occasion.event : occasion.action;
        if (piece === null) return null;
        value += piece;
      }
      // JavaScript compares strings exactly.
      const equal = test.values.includes(value);
      return test.negated ? !equal : equal;
    }
  }
}
