import type { Severity } from '../types.js';

/**
 * The attacker model: who can set a value that reaches a workflow.
 * - `external`: anyone with a GitHub account, with no interaction of the repository's people (a fork's pull
 *   request title, body, head branch; issue, comment, review and discussion text; a `workflow_run` that a
 *   pull request triggered);
 * - `external-after-merge`: text an outsider contributed that reaches a `push` run once a maintainer merges
 *   it (commit messages and author names in `github.event.commits` / `head_commit`);
 * - `collaborator`: needs write access (`workflow_dispatch` inputs, `repository_dispatch` payloads, refs
 *   pushed by collaborators, `schedule`);
 * - `unknown`: set by whoever calls a reusable workflow or an action the engine sees no caller of;
 * - `maintainer`: constant or maintainer-defined (never a taint: listed for completeness of the scale).
 */
export type Controller = 'external' | 'external-after-merge' | 'collaborator' | 'unknown' | 'maintainer';

const RANK: Record<Controller, number> = { maintainer: 0, unknown: 1, collaborator: 2, 'external-after-merge': 3, external: 4 };

export function controllerRank(controller: Controller): number {
  return RANK[controller];
}

export function worseController(a: Controller, b: Controller): Controller {
  return RANK[b] > RANK[a] ? b : a;
}

/** Who, in words, for finding descriptions. */
export const CONTROLLER_TEXT: Record<Controller, string> = {
  external: 'anyone with a GitHub account',
  'external-after-merge': 'an outside contributor, once a maintainer merges their commits',
  collaborator: 'only a collaborator with write access',
  unknown: 'whoever calls it (no caller in this repository)',
  maintainer: 'the maintainers',
};

/** True when an outsider can set the value (at once, or after a merge). */
export function outsiderControlled(controller: Controller): boolean {
  return controller === 'external' || controller === 'external-after-merge';
}

/**
 * The highest severity an injection of a value may have: an outsider's free text can be HIGH, text a merge
 * has to carry MEDIUM, and a value only collaborators (or unknown callers) set is hygiene, LOW at most.
 */
export function controllerCeiling(controller: Controller): Severity {
  if (controller === 'external') return 'HIGH';
  if (controller === 'external-after-merge') return 'MEDIUM';
  return 'LOW';
}

/** Events anyone with a GitHub account can cause on a public repository. */
export const EXTERNAL_TRIGGERS: ReadonlySet<string> = new Set([
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment',
  'issues',
  'issue_comment',
  'discussion',
  'discussion_comment',
  'fork',
  'watch',
  'workflow_run',
]);

const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment'];

/**
 * The events whose payload has a `github.event.<field>` (or `github.head_ref`): an expression reading it is
 * empty on every other event. Fields not listed are read on every event. Sources: the webhook payloads of
 * https://docs.github.com/en/actions/reference/workflows-and-actions/events-that-trigger-workflows.
 */
const EVENT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  issue: ['issues', 'issue_comment'],
  comment: ['issue_comment', 'pull_request_review_comment', 'discussion_comment', 'commit_comment'],
  pull_request: PULL_REQUEST_EVENTS,
  review: ['pull_request_review'],
  discussion: ['discussion', 'discussion_comment'],
  answer: ['discussion'],
  workflow_run: ['workflow_run'],
  commits: ['push'],
  // `head_commit` of a `workflow_run` is read as the pull request's head commit (see contextController).
  head_commit: ['push', 'workflow_run'],
  client_payload: ['repository_dispatch'],
  pages: ['gollum'],
  release: ['release'],
  check_run: ['check_run'],
  check_suite: ['check_suite'],
  merge_group: ['merge_group'],
  deployment: ['deployment', 'deployment_status'],
  deployment_status: ['deployment_status'],
  forkee: ['fork'],
  registry_package: ['registry_package'],
  // No event that starts a workflow has a top-level `name` (`github.event.name` is a slip for `github.event_name`,
  // `workflow_run.name`, `label.name` ...): empty on every run, nobody's text.
  name: [],
};

/**
 * True for a top-level field of `github.event` that no event's payload has: one `EVENT_FIELDS` lists with no event
 * (`name`), or one no webhook payload schema knows (`issue_number`, a slip for `issue.number`; `input`, for `inputs`),
 * as `known` (the payload schemas: contexts/index.ts) says. Such an expression is empty on every run: nobody's text.
 */
export function noEventHasField(field: string, known: (field: string) => boolean): boolean {
  if (Object.hasOwn(EVENT_FIELDS, field)) return (EVENT_FIELDS[field] as readonly string[]).length === 0;
  return field !== 'inputs' && !known(field);
}

/** The events a `github.*` path is read from; null when every event has it (or the path is not event data). */
export function eventsWithField(path: readonly string[]): readonly string[] | null {
  if (path[0] !== 'github') return null;
  if (path[1] === 'head_ref') return PULL_REQUEST_EVENTS;
  if (path[1] !== 'event' || path[2] === undefined) return null;
  return Object.hasOwn(EVENT_FIELDS, path[2]) ? (EVENT_FIELDS[path[2]] as readonly string[]) : null;
}

/**
 * The workflow's triggers on which a `github.*` path has a value (`workflow_run:trusted`, the analyser's name
 * for a `workflow_run` after trusted runs only, counts as `workflow_run`); `triggers` itself when the path is
 * on every event, null when the triggers are not known.
 */
export function triggersWithField(path: readonly string[], triggers: ReadonlySet<string> | null): ReadonlySet<string> | null {
  if (triggers === null) return null;
  const events = eventsWithField(path);
  if (events === null) return triggers;
  return new Set([...triggers].filter((t) => events.includes(t.replace(/:.*$/, ''))));
}

/** The triggers among `triggers` that anyone with a GitHub account can cause (not `workflow_run:trusted`). */
export function outsiderEvents(triggers: Iterable<string>): string[] {
  return [...triggers].filter((t) => EXTERNAL_TRIGGERS.has(t));
}

/**
 * The text of a pull request a dispatch payload carries (`client_payload.pull_request.title`, `.body`, `.head.ref`,
 * `.head.label`): `peter-evans/slash-command-dispatch` sends the pull request a command was given on, written by its
 * author, whoever sends the event. Any other payload field is the sender's own (a collaborator's).
 */
function dispatchedPullRequestText(path: readonly string[]): boolean {
  if (path[3] !== 'pull_request') return false;
  const field = path.slice(4).join('.');
  return field === 'title' || field === 'body' || field === 'head.ref' || field === 'head.label';
}

/** Commit text of a push (`github.event.commits.*`, `head_commit`): contributed, but merged by a maintainer first. */
function commitText(path: readonly string[]): boolean {
  return path[0] === 'github' && path[1] === 'event' && (path[2] === 'commits' || path[2] === 'head_commit');
}

/**
 * Who controls a `github.*` value read in a workflow whose triggers are `triggers` (`null`: not known, as in a
 * composite action or a reusable workflow without local callers), given the triggers that let pull requests
 * in (`workflow_run` only when one of its source workflows runs on pull requests, see `untrustedWorkflowRun`).
 */
export function contextController(path: readonly string[], triggers: ReadonlySet<string> | null): Controller {
  if (path[0] === 'github' && path[1] === 'event' && path[2] === 'client_payload') return dispatchedPullRequestText(path) ? 'external' : 'collaborator';
  if (triggers === null) return commitText(path) ? 'external-after-merge' : 'external';
  const external = [...triggers].some((t) => EXTERNAL_TRIGGERS.has(t));
  if (commitText(path)) {
    // `github.event.head_commit` of a `workflow_run` is the pull request's head commit.
    if (path[2] === 'head_commit' && triggers.has('workflow_run')) return 'external';
    return 'external-after-merge';
  }
  if (path[1] === 'event' && path[2] === 'workflow_run' && path[3] === 'head_commit') {
    return triggers.has('workflow_run') ? 'external' : 'collaborator';
  }
  // Outsider data on events only collaborators cause is absent (or a collaborator's).
  return external ? 'external' : 'collaborator';
}

/** Who controls the event data of a workflow with these triggers (for action outputs such as changed file names). */
export function eventController(triggers: ReadonlySet<string> | null): Controller {
  if (triggers === null) return 'external';
  if ([...triggers].some((t) => EXTERNAL_TRIGGERS.has(t))) return 'external';
  return triggers.has('push') || triggers.has('merge_group') ? 'external-after-merge' : 'collaborator';
}

/**
 * Who picks the whole value a check compares with a list (`contains('alice,bob', github.actor)`), for the
 * allow-list checks: whether someone outside the repository can choose a value that passes.
 * - `anyone`: any GitHub account picks it (a login they register, a fork's branch name, text they write);
 * - `collaborator`: a branch or tag name, which only users with write access create (a fork's pull request
 *   runs on `refs/pull/<n>/merge`, `<n>/merge` as `ref_name`);
 * - `runner`: the runner's name, OS, architecture or environment, set by whoever registers or provides it;
 * - `owner`: the repository (or its owner) the run belongs to: fixed in this repository's runs, and a fork's
 *   name only in the fork's own runs, with the fork's own secrets;
 * - `enum`: GitHub picks it among fixed values (`values`), of which those in `outsiders` an outsider can have;
 * - `empty`: always empty (a default variable read through the `env` context, which does not hold them).
 * Null for any other value (the caller reads the taint analysis).
 */
export interface ValueChoice {
  who: 'anyone' | 'collaborator' | 'runner' | 'owner' | 'enum' | 'empty';
  /** For `enum`: every value it can take, and those an outsider can bring. */
  values?: readonly string[];
  outsiders?: readonly string[];
}

/** Author associations, and those any GitHub account can have. Source: the webhook payloads' `author_association`. */
const ASSOCIATIONS = ['OWNER', 'MEMBER', 'COLLABORATOR', 'CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', 'FIRST_TIMER', 'NONE', 'MANNEQUIN'];
const OUTSIDER_ASSOCIATIONS = ['CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', 'FIRST_TIMER', 'NONE', 'MANNEQUIN'];
/** Logins: of whoever caused the event, or of an author the payload names. */
const LOGINS = new Set(['github.actor', 'github.triggering_actor', 'github.event.sender.login']);
const OWN = new Set(['github.repository', 'github.repository_owner', 'github.event.repository.full_name', 'github.event.repository.owner.login']);
const REFS = new Set(['github.ref', 'github.ref_name', 'github.base_ref', 'github.event.ref', 'github.event.base_ref']);
/** Variables the runner sets for every step: read through `env.` they are empty (the `env` context holds only `env:` keys). */
const DEFAULT_VARIABLE = /^(?:github_\w+|runner_\w+|ci)$/i;

/**
 * The choice of a context path (lower-case segments). `triggers`: the workflow's (null: not known);
 * `definedEnv`: true when an `env:` map in scope defines the variable.
 */
export function valueChoice(path: readonly string[], triggers: ReadonlySet<string> | null, definedEnv: (name: string) => boolean): ValueChoice | null {
  const dotted = path.join('.');
  if (path[0] === 'runner') return { who: 'runner' };
  if (path[0] === 'env' && path.length === 2 && DEFAULT_VARIABLE.test(path[1] as string) && !definedEnv(path[1] as string)) return { who: 'empty' };
  if (REFS.has(dotted)) return { who: 'collaborator' };
  if (OWN.has(dotted)) return { who: 'owner' };
  if (dotted.endsWith('.author_association')) return { who: 'enum', values: ASSOCIATIONS, outsiders: OUTSIDER_ASSOCIATIONS };
  if (dotted === 'github.event_name' && triggers !== null) {
    const events = [...triggers].map((t) => t.replace(/:.*$/, ''));
    return { who: 'enum', values: events, outsiders: events.filter((e) => EXTERNAL_TRIGGERS.has(e)) };
  }
  const login = LOGINS.has(dotted) || (path[0] === 'github' && path[1] === 'event' && (dotted.endsWith('.user.login') || dotted.endsWith('.head.repo.owner.login') || dotted.endsWith('.head_repository.owner.login')));
  if (login) {
    // Logins on events only collaborators cause are theirs (a pusher's, a dispatcher's).
    const outside = triggers === null || [...triggers].some((t) => EXTERNAL_TRIGGERS.has(t));
    return { who: outside ? 'anyone' : 'collaborator' };
  }
  return null;
}
