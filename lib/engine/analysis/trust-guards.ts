import { dnf } from '../expressions/dnf.js';
import { conditionExpression } from '../expressions/extract.js';
import { Binary, ContextAccess, contextPath, FunctionCall, functionName, Grouping, IndexAccess, Literal, Logical, parseExpression, Unary, type Expr } from '../expressions/parse.js';
import type { Job, Step, Workflow } from '../model/workflow.js';
import { asList, get, getText, keyText, scalarText, type YNode } from '../yaml/model.js';
import { ScanCache } from '../model/scan-cache.js';
import { labelRemovedEachRun, type LabelRemoval } from './label-removal.js';
import { environmentApprovalComment } from './environment-comment.js';
import { actionFailsJob, actionGatesOnlyItself, knownPermissionAction, permissionAction } from './permission-actions.js';
import { flatMap } from '../model/arrays.js';
import { shellBranches } from './shell-branches.js';
import { githubScriptReturn, outputLines } from './script-outputs.js';
import { refusesForkCheckout, REFUSING_EVENTS } from './checkout-refusal.js';

/**
 * What keeps outsiders out of a job or step:
 * - `same-repository`: the pull request (or the run a `workflow_run` follows) comes from a branch of the
 *   base repository, which only users with write access can push (`head.repo.full_name == github.repository`,
 *   `!head.repo.fork`, or `workflow_run.event == 'push'`: a run only collaborators start);
 * - `pr-author`: the pull request was opened by a named account or a trusted author association (an
 *   author's login cannot be spoofed, unlike `github.actor`);
 * - `actor`: whoever caused the event is a named, non-bot account;
 * - `commenter`: a comment or review by a named account or a trusted association, or a step that checks the
 *   actor's permission and fails otherwise: a maintainer's approval;
 * - `label`: a maintainer applied a given label (`github.event.label.name == 'safe to test'`): an approval of
 *   the pull request as it was at that moment;
 * - `maintainer-event`: the event is one only users with write access cause (`github.event_name ==
 *   'workflow_dispatch'`), so pull request, issue and comment data are absent; or a merged pull request
 *   (`github.event.pull_request.merged == true`, on `closed`): a maintainer merged it, so its code is now the
 *   base repository's and its text what they accepted;
 * - `environment`: the job deploys to an environment, whose required reviewers (where configured, which the
 *   workflow cannot show) approve each run: an approval, like a label. When the settings snapshot shows the
 *   environment has required reviewers (`markReviewedEnvironments`), the guard is `reviewed` and it is a
 *   gate for every value: nothing runs in the job before a reviewer approves the run. When the snapshot
 *   shows it has none (listed without a required-reviewers rule, or absent from a complete list), there is
 *   no guard at all: the environment only scopes secrets, and nobody approves anything;
 * - `bypassable-label`: a check of the pull request's labels in a workflow that also runs on new commits
 *   (`synchronize`, or no `types` filter): the label stays when the attacker pushes again, so it is no gate.
 *   It is kept to be reported, never accepted as a mitigation. A label the workflow removes in every run
 *   (label-removal.ts) does not stay: it is a `label` approval of one run (`removedBy`), with the race of a push
 *   between the label and its removal where the workflow also runs on pushes (`pushRace`).
 */
export type TrustGuardKind = 'same-repository' | 'pr-author' | 'actor' | 'commenter' | 'label' | 'maintainer-event' | 'environment' | 'bypassable-label' | 'unread-check';

export interface TrustGuard {
  kind: TrustGuardKind;
  /** The condition (or step) that gives it, for messages. */
  condition: string;
  /** For `environment`: the settings snapshot shows the environment has required reviewers. */
  reviewed?: boolean;
  /**
   * For `environment` without a settings snapshot that shows reviewers: the workflow's own comment that says the
   * environment needs a manual approval (environment-comment.ts), quoted. The run model takes it as an approval,
   * unverified: the finding says the gate rests on that comment.
   */
  commented?: string;
  /**
   * For `label`: the check reads the labels the pull request has (`contains(...labels.*.name, X)`) on a
   * `labeled`-only workflow. The first run is the maintainer's approval of the code as it was, but any later
   * label event (another label, by a maintainer or a labelling bot) runs whatever was pushed since, under the
   * old label: the approval does not bind to the code.
   */
  laterLabels?: boolean;
  /**
   * For `label`: the workflow removes the label itself in every run it lets through (label-removal.ts), where,
   * in words, and whether it waits for the run to end. The label approves one run: a later push or label event
   * finds it gone (one during the run finds it when the removal waits for the run's end).
   */
  removedBy?: LabelRemoval;
  /**
   * For a `label` the workflow removes each run, checked on a workflow that also runs on new commits: a commit
   * pushed between the label and its removal runs under it (a race, not a standing approval).
   */
  pushRace?: boolean;
  /**
   * For `maintainer-event`: the check that the pull request was merged (`github.event.pull_request.merged`, on
   * `closed`). A maintainer's merge starts the run, so the code is what they accepted; the text its author wrote
   * (title, body, branch name) is still the author's, which the merge approves without reading it as code.
   */
  merged?: true;
  /**
   * For `commenter`: a check of whoever caused the event (`context.actor`, `github.actor`), not of the comment's
   * author. Both are the commenter when a comment is created; when it is edited or deleted the actor is whoever
   * edits or deletes it (a maintainer moderating an outsider's comment), so the check no longer vouches for the
   * comment's text. An `actor` guard is always one.
   */
  actor?: true;
  /**
   * The guard holds only on occasions whose activity (`github.event.action`) is one of these: a permission action
   * that checks only when a comment is `created` or `edited` (permission-actions.ts `checksOn`). On another
   * activity (`deleted`) it is no guard. Undefined: on every occasion.
   */
  onlyOn?: readonly string[];
  /** The guard holds only on occasions whose activity is none of these (an `if:` on outputs set only when checking). */
  notOn?: readonly string[];
  /**
   * For a permission action that fails its step: the action (`owner/repo`) and the step that runs it, for messages.
   * For an `unread-check` on an action's answer: that other repository's action and the step that runs it (a needed
   * call of another repository's reusable workflow has none: its condition names the call).
   */
  check?: { action: string; step: string };
}

/** True when the guard stands in the way on an occasion of activity `action` (null: not known, any). */
export function holdsOnAction(guard: TrustGuard, action: string | null): boolean {
  if (action === null) return true;
  return (guard.onlyOn === undefined || guard.onlyOn.includes(action)) && (guard.notOn === undefined || !guard.notOn.includes(action));
}

/**
 * True when the guard is an environment taken as a maintainer's approval of each run: its required reviewers are
 * known from the settings snapshot, or the workflow's own comment says it needs one (`commented`, unverified).
 */
export function environmentApproves(guard: TrustGuard): boolean {
  return guard.kind === 'environment' && (guard.reviewed === true || guard.commented !== undefined);
}

/** True when the guard checks whoever caused the event rather than the author of what it carries. */
export function checksActor(guard: TrustGuard): boolean {
  return guard.kind === 'actor' || guard.actor === true;
}

/** A script that names the actor (whoever caused the event) and not the comment's author. */
const ACTOR_NAMED = /\bcontext\.actor\b|\bgithub\.(?:actor|triggering_actor)\b|\bGITHUB_ACTOR\b|\bGITHUB_TRIGGERING_ACTOR\b|\bsender\.login\b/;
const AUTHOR_NAMED = /\bcomment\??\.user\b|\bcomment\??\.author|author_association|authorAssociation|\breview\??\.user\b/;
function scriptChecksActor(script: string): boolean {
  return ACTOR_NAMED.test(script) && !AUTHOR_NAMED.test(script);
}

interface EnvironmentFacts {
  reviewed: ReadonlySet<string>;
  isUnreviewed: (name: string) => boolean;
}

const environmentsByWorkflow = new ScanCache<Workflow, EnvironmentFacts>();

/**
 * Records, for the workflows of one scan, the environments (lower-case names) whose protection rules
 * require a reviewer and, optionally, which environments the settings snapshot shows have none. Call
 * before any trust is computed; without a call, environments are approvals of unknown strength (as the
 * workflow alone shows) and never a gate.
 */
export function markReviewedEnvironments(workflows: readonly Workflow[], names: ReadonlySet<string>, isUnreviewed: (name: string) => boolean = () => false): void {
  for (const workflow of workflows) environmentsByWorkflow.set(workflow, { reviewed: names, isUnreviewed });
}

/**
 * Every way a job or step can run, as the guards that hold on that way (a condition in disjunctive form;
 * contradictory ways are dropped). `[[]]` means it runs unguarded.
 */
export type TrustPaths = TrustGuard[][];

const TRUSTED_ASSOCIATIONS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);
const HEAD_REPOSITORY_NAMES = new Set(['github.event.pull_request.head.repo.full_name', 'github.event.workflow_run.head_repository.full_name']);
const HEAD_REPOSITORY_OWNERS = new Set(['github.event.pull_request.head.repo.owner.login', 'github.event.workflow_run.head_repository.owner.login']);
const FORK_FLAGS = new Set(['github.event.pull_request.head.repo.fork', 'github.event.workflow_run.head_repository.fork']);
/** The event of the run a `workflow_run` follows. */
const RUN_EVENT = 'github.event.workflow_run.event';
const ACTORS = new Set(['github.actor', 'github.triggering_actor', 'github.event.sender.login']);
const PR_AUTHORS = new Set(['github.event.pull_request.user.login']);
const COMMENTERS = new Set(['github.event.comment.user.login', 'github.event.review.user.login']);
/** Events only users with write access (or GitHub itself, on their behalf) can cause. */
const MAINTAINER_EVENTS = new Set(['workflow_dispatch', 'repository_dispatch', 'schedule', 'push', 'release', 'merge_group', 'create', 'delete', 'registry_package', 'deployment', 'deployment_status', 'page_build', 'workflow_call']);
const STATUS_FUNCTIONS = /\b(always|failure|cancelled)\s*\(/i;
/**
 * A list of the repository's collaborators filtered by a permission that needs write access or more
 * (`/repos/o/r/collaborators?permission=maintain`): a script that looks the actor up in it (`grep -q "^$ACTOR$"`)
 * and fails otherwise checks the actor's permission as `.../collaborators/<user>/permission` does.
 */
const COLLABORATOR_LIST = /collaborators\?(?:[^\s"'#&]{0,80}&){0,4}permission=(?:admin|maintain|push|write)\b/;
/**
 * A list of the people allowed, looked up by the commenter's or actor's login (`ALLOWED_USERS.includes(login)`,
 * `maintainers.includes(context.actor)`): the maintainers wrote the list, as a permission level is theirs to grant.
 */
const ALLOW_LIST = /\.includes\(\s*(?:[\w$]+\.){0,6}(?:login|actor)\b/;
/**
 * The members of a team of the organization, listed (`GET /orgs/<org>/teams/<team>/members`) to look a login up in,
 * or one login's membership (`GET /orgs/<org>/teams/<team>/memberships/<user>`, 404 for a non-member): the
 * organization's owners chose the team.
 */
const TEAM_MEMBERS = /orgs\/(?:\$\{\{[^}]{0,100}\}\}|[^\s/]+)\/teams\/(?:\$\{\{[^}]{0,100}\}\}|[^\s/]+)\/(?:members\b|memberships\/(?!\s))/;
/**
 * A script that checks the permission or association of whoever triggered the run, or their membership of the
 * organization (`orgs.checkMembershipForUser`, 204 for a member, an error otherwise; `GET /orgs/<org>/members/<user>`)
 * or of one of its teams (`TEAM_MEMBERS`).
 */
const PERMISSION_CHECK = new RegExp(
  `${ALLOW_LIST.source}|${COLLABORATOR_LIST.source}|${TEAM_MEMBERS.source}|getCollaboratorPermissionLevel|collaborators\\/(?:\\$\\{\\{[^}]{0,100}\\}\\}|[^\\s/]+)\\/permission|author_association|authorAssociation|checkUserPermission|\\bcheck(?:Public)?MembershipForUser\\b|\\bgetMembershipForUserInOrg\\b|orgs\\/(?:\\$\\{\\{[^}]{0,100}\\}\\}|[^\\s/]+)\\/(?:public_)?members(?:hips)?\\/(?!\\s)`,
);
/**
 * A login kept in a variable first, then looked up in a list (`const reviewer = context.payload.comment.user.login;
 * if (!authorizedUsers.includes(reviewer)) { ... }`): the same lookup as `ALLOW_LIST`. The offset of the first such
 * lookup, or -1.
 */
const LOGIN_VARIABLE = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]{0,40})\s*=\s*(?:(?:github\.)?context\.(?:actor|triggering_actor|payload\.(?:comment|review|issue|pull_request|discussion)\.user\.login|payload\.sender\.login))\s*[;\n]/g;
function loginVariableLookup(text: string): number {
  if (!text.includes('.includes(')) return -1;
  let first = -1;
  for (const m of text.matchAll(LOGIN_VARIABLE)) {
    const name = (m[1] as string).replace(/\$/g, '\\$');
    const at = text.slice(m.index).search(new RegExp(`\\.includes\\(\\s*${name}\\s*\\)`));
    if (at !== -1 && (first === -1 || m.index + at < first)) first = m.index + at;
  }
  return first;
}

/** Where a script checks the actor's permission (`PERMISSION_CHECK`, or a login variable looked up in a list), or -1. */
function permissionCheckAt(text: string): number {
  const direct = text.search(PERMISSION_CHECK);
  const variable = loginVariableLookup(text);
  return direct === -1 ? variable : variable === -1 ? direct : Math.min(direct, variable);
}

/**
 * GitHub Agentic Workflows' compiled membership check: an `actions/github-script` step that runs `check_membership.cjs`
 * (put in place by `github/gh-aw/actions/setup`) with the roles it requires in `GH_AW_REQUIRED_ROLES`; it reads the
 * permission of the actor who caused the run (`context.actor`) and sets `is_team_member` to `true` only for one of
 * those roles, an allow-listed bot, or a `schedule` or `merge_group` run (github/gh-aw, `actions/setup/js/
 * check_membership.cjs`). A gate when every role it lists can write (`admin`, `maintainer`, `maintain`, `write`);
 * `read`, `triage` or `all` lets others in.
 */
const GH_AW_MEMBERSHIP = /\brequire\(\s*['"`][^'"`\n]{0,200}\/gh-aw\/actions\/check_membership\.cjs['"`]\s*\)/;
const WRITING_ROLES: ReadonlySet<string> = new Set(['admin', 'maintainer', 'maintain', 'write']);

/** True for a step that is GitHub Agentic Workflows' membership check requiring roles that can write (`GH_AW_MEMBERSHIP`). */
function ghAwMembershipCheck(step: Step): boolean {
  if (step.usesRef?.kind !== 'repository' || step.usesRef.slug !== 'actions/github-script') return false;
  const script = getText(step.with, 'script');
  if (script === null || !GH_AW_MEMBERSHIP.test(script)) return false;
  const roles = getText(step.env, 'GH_AW_REQUIRED_ROLES');
  if (roles === null || roles.includes('${{')) return false;
  const list = roles.split(',').map((r) => r.trim().toLowerCase()).filter((r) => r !== '');
  return list.length > 0 && list.every((r) => WRITING_ROLES.has(r));
}

/** An organization membership check of GitHub's API that throws (404) for a non-member. */
const MEMBERSHIP_CALL = /\bcheck(?:Public)?MembershipForUser\b/;
const MAX_PATHS = 32;

/** Facts an atom of a condition states, for spotting contradictions (`fork == true` and `fork == false`). */
interface Atom {
  guard: TrustGuardKind | null;
  fact: string | null;
  /** A `label` guard that reads the labels the pull request has, not the label the event adds (see TrustGuard). */
  laterLabels?: true;
  /** A `label` guard whose label the workflow removes each run (see TrustGuard). */
  removedBy?: LabelRemoval;
  pushRace?: true;
  /** A `commenter` guard that checks the actor (see TrustGuard). */
  actor?: true;
  onlyOn?: readonly string[];
  notOn?: readonly string[];
  /** For an `unread-check` guard: the action and step whose answer the condition reads (see TrustGuard). */
  check?: { action: string; step: string };
}

const jobCache = new ScanCache<Job, TrustPaths>();

/** The ways a job can run: its own `if:` combined with the jobs it needs (a skipped dependency skips it too). */
export function jobTrust(job: Job): TrustPaths {
  const cached = jobCache.get(job);
  if (cached !== undefined) return cached;
  settleNeeds(job, (j) => jobCache.get(j), (j, paths) => jobCache.set(j, paths), (j) => computeJobTrust(j, undefined));
  return jobCache.get(job) ?? [[]];
}

/** The jobs whose trust a job's own depends on: its `needs:`, unless a status function lets it run whatever they did. */
function followedNeeds(job: Job): Job[] {
  const condition = job.if?.kind === 'scalar' ? String(job.if.value ?? '') : '';
  if (STATUS_FUNCTIONS.test(condition)) return [];
  const found: Job[] = [];
  for (const id of job.needs) {
    const needed = job.workflow.jobs.find((j) => j.id === id);
    if (needed !== undefined) found.push(needed);
  }
  return found;
}

/**
 * Computes a job's trust and that of every job it needs, deepest first, without recursion: a chain of thousands
 * of `needs:` would otherwise take a stack frame pair per level. The order and the placeholders are those of a
 * depth-first recursion: a job in progress reads as unguarded (`[[]]`) to the jobs it needs, so a cycle of
 * `needs` (rejected by GitHub) reads as unguarded, and each job's needs are settled before it is computed.
 */
function settleNeeds(job: Job, get: (job: Job) => TrustPaths | undefined, set: (job: Job, paths: TrustPaths) => void, compute: (job: Job) => TrustPaths): void {
  const stack: { job: Job; needs: Job[]; next: number }[] = [];
  const enter = (j: Job) => {
    set(j, [[]]);
    stack.push({ job: j, needs: followedNeeds(j), next: 0 });
  };
  enter(job);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.needs.length) {
      const needed = top.needs[top.next++]!;
      if (get(needed) === undefined) enter(needed);
      continue;
    }
    stack.pop();
    set(top.job, compute(top.job));
  }
}

const eventJobCache = new ScanCache<Job, Map<string, TrustPaths>>();

/** Events whose `github.ref` is the pull request's merge ref (`refs/pull/<n>/merge`), never a branch or tag. */
const PULL_REQUEST_REF_EVENTS = new Set(['pull_request', 'pull_request_review', 'pull_request_review_comment']);

/**
 * The ways a job can run on one event (`pull_request`): like `jobTrust`, but the ways the event makes impossible
 * are dropped (`github.event_name == 'push'`, or `github.ref == 'refs/heads/main'` on a `pull_request` run, whose
 * ref is `refs/pull/<n>/merge`), and a label check on a workflow that runs this event only on `labeled` is a
 * maintainer's approval. `[]` when the job never runs on it.
 */
export function jobTrustOn(job: Job, event: string): TrustPaths {
  let byEvent = eventJobCache.get(job);
  if (byEvent === undefined) eventJobCache.set(job, (byEvent = new Map()));
  const cached = byEvent.get(event);
  if (cached !== undefined) return cached;
  // A cycle of `needs` (rejected by GitHub) reads as unguarded, as in `jobTrust`.
  const mapOf = (j: Job) => {
    let map = eventJobCache.get(j);
    if (map === undefined) eventJobCache.set(j, (map = new Map()));
    return map;
  };
  settleNeeds(job, (j) => mapOf(j).get(event), (j, paths) => mapOf(j).set(event, paths), (j) => computeJobTrust(j, event));
  return byEvent.get(event) ?? [[]];
}

function computeJobTrust(job: Job, event: string | undefined): TrustPaths {
  let paths = conditionTrust(job.if, job.workflow, job, event);
  const environment = job.environment?.kind === 'map' ? get(job.environment, 'name') : job.environment;
  if (environment?.kind === 'scalar' && environment.value !== null && String(environment.value).trim() !== '') {
    const name = String(environment.value).trim();
    const facts = environmentsByWorkflow.get(job.workflow);
    const reviewed = facts?.reviewed.has(name.toLowerCase()) === true;
    // An environment the snapshot shows without required reviewers approves nothing: no guard.
    if (reviewed || facts?.isUnreviewed(name) !== true) {
      // Without a snapshot that shows its reviewers, the workflow's own comment may say it needs an approval.
      const comment = reviewed ? null : environmentApprovalComment(job);
      const guard: TrustGuard =
        comment === null
          ? { kind: 'environment', condition: `environment \`${name}\``, ...(reviewed ? { reviewed } : {}) }
          : { kind: 'environment', condition: `environment \`${name}\`, whose manual approval rests on the workflow's own comment (\`# ${comment.replace(/`/g, "'")}\`), unverified without a settings snapshot`, commented: comment };
      paths = paths.map((path) => [...path, guard]);
    }
  }
  for (const needed of followedNeeds(job)) {
    const neededPaths = event === undefined ? jobTrust(needed) : jobTrustOn(needed, event);
    paths = product(paths, withAuthorization(neededPaths, needed, Infinity, event));
  }
  // A status function lets the job run whatever its needs' conditions said (a skipped one), but not always after one
  // failed: `!failure()` without `always()`, or a test that a needed job's result is a success (or skipped). Then that
  // job's checks that fail it (a fork check) still stand in the way.
  // A needed job whose result must be a success must also have run: its own ways in (its `if:`, its needs) stand in
  // the way too, not only the checks that fail it (`needs.check.result == 'success'` after a permission check there).
  for (const { needed, ran } of failureStops(job)) {
    const neededPaths = !ran ? [[]] : event === undefined ? jobTrust(needed) : jobTrustOn(needed, event);
    paths = product(paths, withAuthorization(neededPaths, needed, Infinity, event));
  }
  return paths;
}

/**
 * The needed jobs whose failure keeps a job with a status function in its `if:` from running: every one under
 * `!failure()` (with no `always()` or positive `failure()`), and one whose result the condition requires to be a
 * success or a skip (`needs.x.result == 'success'`, `contains(fromJSON('["skipped", "success"]'), needs.x.result)`).
 */
function failureStops(job: Job): { needed: Job; ran: boolean }[] {
  const condition = job.if?.kind === 'scalar' ? String(job.if.value ?? '') : '';
  if (!STATUS_FUNCTIONS.test(condition) || condition.length > 2_000) return [];
  const all = /!\s*failure\s*\(\s*\)/.test(condition) && !/\balways\s*\(/i.test(condition) && !/(?:^|[^!\s])\s*\bfailure\s*\(/.test(condition.replace(/!\s*failure\s*\(/g, ''));
  const found: { needed: Job; ran: boolean }[] = [];
  for (const id of job.needs) {
    const needed = job.workflow.jobs.find((j) => j.id === id);
    if (needed === undefined) continue;
    const name = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const success = new RegExp(`needs\\.${name}\\.result\\s*==\\s*'success'|contains\\(\\s*fromJSON\\(\\s*'\\[([^\\]]*)\\]'\\s*\\)\\s*,\\s*needs\\.${name}\\.result\\s*\\)`, 'i').exec(condition);
    const only = success !== null && (success[1] === undefined || !/failure|cancelled/i.test(success[1]));
    // `== 'success'` (or a list without `skipped`) as a condition of its own (no `||` anywhere): the needed job must
    // have run; `skipped` in the list, or another way round it, and a skip may pass.
    const ran = only && !condition.includes('||') && (success[1] === undefined || !/skipped/i.test(success[1]));
    if (all || only) found.push({ needed, ran });
  }
  return found;
}

/** The ways a step can run: its job's, its own `if:`, and permission checks by earlier steps that fail the job. */
export function stepTrust(step: Step): TrustPaths {
  const own = step.owner.kind === 'workflow' ? conditionTrust(step.if, step.owner, step.job) : conditionTrust(step.if, null, null);
  if (step.job === null) return own;
  const condition = step.if?.kind === 'scalar' ? String(step.if.value ?? '') : '';
  const job = STATUS_FUNCTIONS.test(condition) ? jobTrust(step.job) : withAuthorization(jobTrust(step.job), step.job, step.index);
  return product(job, own);
}

/** The ways a step can run on one event (`jobTrustOn` narrowed by the step's own `if:` and earlier permission checks). */
export function stepTrustOn(step: Step, event: string): TrustPaths {
  if (step.job === null || step.owner.kind !== 'workflow') return stepTrust(step);
  const own = conditionTrust(step.if, step.owner, step.job, event);
  const condition = step.if?.kind === 'scalar' ? String(step.if.value ?? '') : '';
  const job = STATUS_FUNCTIONS.test(condition) ? jobTrustOn(step.job, event) : withAuthorization(jobTrustOn(step.job, event), step.job, step.index, event);
  return product(job, own);
}

/** True when every way to run has a guard accepted by `accept`. */
export function everyPathGuarded(paths: TrustPaths, accept: (guard: TrustGuard) => boolean): boolean {
  return paths.every((path) => path.some(accept));
}

/** True when the guard vouches for data from `source` (a context path such as `github.event.pull_request.title`). */
export function guardCovers(guard: TrustGuard, source: string, issueComment: boolean): boolean {
  // The pull request's data as the event carries it, or its head branch looked up when the job runs (the comment-branch
  // actions' `head_ref`, `gh pr view --json headRefName`): a fork check keeps both to branches of this repository.
  // Also what a step looks up of it or reads from its checkout (`the pull request head branch name looked up by ...`,
  // `the pull request's changed file names ...`, `the pull request head's files ...`): the same author's.
  const pullRequest = source.startsWith('github.event.pull_request.') || source === 'github.head_ref' || source.startsWith('github.event.workflow_run.') || source.startsWith('the pull request');
  const comment = source.startsWith('github.event.comment.') || source.startsWith('github.event.review.');
  if (guard.kind === 'maintainer-event') return pullRequest || comment || /^github\.event\.(issue|discussion)\./.test(source);
  if (guard.kind === 'actor') return !(issueComment && source.startsWith('github.event.issue.'));
  if (guard.kind === 'same-repository' || guard.kind === 'pr-author') return pullRequest;
  if (guard.kind === 'commenter') return comment;
  // A maintainer labelled the pull request as it was (a workflow that runs only on `labeled`).
  if (guard.kind === 'label') return pullRequest;
  // A required reviewer approves each run before the job starts, whatever value it carries.
  if (guard.kind === 'environment') return guard.reviewed === true;
  return false;
}

/** What stands between an outsider and a sink for one value. */
export interface Gate {
  /** True when every way to run passes a guard that vouches for the value. */
  holds: boolean;
  /** The conditions that do (when `holds`). */
  conditions: string[];
  /** Label checks that look like gates but do not hold (see `bypassable-label`). */
  bypassable: string[];
}

/** The gate for a value from `source` in a step or job that runs on `paths` (gates apply per value). */
export function gateOf(paths: TrustPaths, source: string, issueComment: boolean): Gate {
  const holds = paths.every((path) => path.some((g) => guardCovers(g, source, issueComment)));
  const conditions = holds ? unique(flatMap(paths, (path) => path.filter((g) => guardCovers(g, source, issueComment)).slice(0, 1).map(gateText))) : [];
  const bypassable = unique(flatMap(paths, (path) => path.filter((g) => g.kind === 'bypassable-label').map((g) => g.condition)));
  return { holds, conditions, bypassable };
}

/** The gate of environments with required reviewers alone (for findings no condition vouches for, such as artifact contents). */
export function reviewedEnvironmentGate(paths: TrustPaths): Gate {
  const reviewed = (g: TrustGuard) => g.kind === 'environment' && g.reviewed === true;
  const holds = paths.every((path) => path.some(reviewed));
  return { holds, conditions: holds ? unique(flatMap(paths, (path) => path.filter(reviewed).slice(0, 1).map(gateText))) : [], bypassable: [] };
}

/** A guard as a gate's description names it. */
function gateText(guard: TrustGuard): string {
  if (guard.kind === 'environment' && guard.reviewed === true) return `the ${guard.condition}, whose required reviewers (per the settings snapshot) approve each run,`;
  return `the condition \`${guard.condition}\``;
}

/** `; gated by ...` / `; the label check ... is no gate ...` for a finding's description, or ''. */
export function describeGate(gate: Gate): string {
  if (gate.holds) return `; ${gate.conditions.join(' / ')} keeps outsiders' values out, so this is hygiene, not an exploit`;
  if (gate.bypassable.length > 0) {
    return `; the label check ${gate.bypassable.map((c) => `\`${c}\``).join(' / ')} is no gate: the workflow also runs when new commits are pushed, and the label stays`;
  }
  return '';
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** A step that fails the job for some runs, and what it leaves standing for the steps after it. */
interface FailingCheck {
  /** The step that fails the job; undefined for a job that calls another repository's reusable workflow. */
  step?: Step;
  guard: TrustGuard;
  /** The events the check stands on (its step's `if:` names them: `github.event_name == 'pull_request'`); all when absent. */
  events?: ReadonlySet<string>;
  /** The check holds for its own step as well (a checkout that refuses a fork's pull request brings nothing of it). */
  itself?: true;
}

const checks = new ScanCache<Job, FailingCheck[]>();
/** Triggers that bring a pull request's head (a fork's included). */
const PULL_REQUEST_TRIGGERS: ReadonlySet<string> = new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']);
/** A script that fails the run: `exit 1`, `core.setFailed`, `throw`. */
const FAILS = /exit\s+1|setFailed|throw\b|exit\s+\$/;
/**
 * A script that rejects pull requests from forks: a test of the head repository (`head.repo.full_name !==
 * ...`, `isCrossRepository`) with the failure close after it.
 */
const FORK_CHECK = /(head\.repo\.full_name|head\.repo\.fork\b|headRepository|isCrossRepository|head_repository\.full_name)[^]{0,400}?(exit\s+1|setFailed|throw\b)/;

/**
 * A test joined to the one before it by `&&` (`-a`, `and`): a bracket test, a `test`, a quoted or expanded value, a
 * negation or group, or a comparison (`github.head_ref == 'main'`, `pr.head.ref === 'main'`). Not a command run
 * after a test (`&& echo "no forks" && exit 1`).
 */
const JOINED_TEST = /(?:&&|\s-a\s|\band\b)\s*(?:\[|test\b|[("'$!]|[\w.]+\s*(?:[!=]==?|=~|<|>))/;

/**
 * True when a script fails for pull requests from forks (`FORK_CHECK`) on that test alone: the condition the head
 * repository's test sits in (its line, up to `then`, `{` or the failure) joins no other test to it. A check that
 * fails only a fork's pull request from its `main` branch (`[ "$HEAD_REPO" != "$REPO" ] && [ "$HEAD_REF" = main ]`,
 * `head.repo.fork && head_ref == 'main'`) lets every other fork's pull request through: it is no fork gate.
 */
function forkCheck(script: string): boolean {
  const match = FORK_CHECK.exec(script);
  if (match === null) return false;
  const start = script.lastIndexOf('\n', match.index) + 1;
  // `${{ ... }}` marks dropped: their braces open no block.
  const plain = (text: string) => text.replace(/\$\{\{|\}\}/g, ' ');
  const rest = plain(script.slice(match.index, match.index + match[0].length));
  const cut = rest.search(/\bthen\b|\{|\n|exit\s+1|setFailed|throw\b/);
  if (JOINED_TEST.test(plain(script.slice(start, match.index)) + rest.slice(0, cut === -1 ? rest.length : cut))) return false;
  // The test kept in a name first (`const isFork = pr.head.repo.full_name !== pr.base.repo.full_name;`, `IS_FORK=...`):
  // the condition that reads the name before the failure is the gate, and it must join no other test to it either
  // (`if (isFork && !pr.maintainer_can_modify)` fails only a fork that does not let maintainers edit it).
  const line = script.slice(start, match.index);
  const name = /^\s*(?:(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=|(?:export\s+|local\s+)?([A-Za-z_]\w*)=)/.exec(line);
  const variable = name?.[1] ?? name?.[2];
  if (variable === undefined) return true;
  const failure = match.index + match[0].length;
  const next = script.indexOf('\n', match.index);
  const between = next === -1 || next > failure ? '' : plain(script.slice(next, failure));
  const read = new RegExp(`(?:\\bif\\b|&&|\\|\\|)[^\\n{]*?(?:\\$\\{?|\\b)${variable.replace(/\$/g, '\\$')}\\b[^\\n]*`).exec(between);
  if (read === null) return true;
  const end = read[0].search(/\bthen\b|\{|exit\s+1|setFailed|throw\b/);
  // Any other test joined by `&&` narrows it (an `||` only widens what fails).
  return !/&&|\s-a\s|\band\b/.test(end === -1 ? read[0] : read[0].slice(0, end));
}

/** A JavaScript `catch` block (one level of braces inside): what fails there fails on an error, not on a check. */
const CATCH_BLOCK = /\bcatch\s*(?:\([^)]*\))?\s*\{(?:[^{}]|\{[^{}]*\})*\}/g;
/** `|| exit 1` (or `|| { echo ...; exit 1; }`) right after a command: it fails when the command fails. */
const ON_COMMAND_ERROR = /\|\|\s*(?:\{[^}]*\}|exit\s+\S+)/g;

/** JavaScript `if (...) { ... }` or `if (...) statement;` (one level of nesting in the condition and the block). */
const JS_IF = /\bif\s*(\((?:[^()]|\([^()]*\))*\))\s*(\{(?:[^{}]|\{[^{}]*\})*\}|[^;\n{]*;?)/g;
/** A branch's condition that tests the permission or association answer (not, say, which command was given). */
const ON_PERMISSION = /permission|allowed|authori[sz]ed|association|\bperm\b|\$\{?perm|\badmin\b|\bwrite\b|\bmaintain\b|\bmember\b|\bcollaborator\b|\bowner\b/i;
/** Ends the step without failing it: `return` (github-script runs the script as a function), `exit 0`, a bare `exit`. */
const QUIET_END = /\breturn\b|\bprocess\.exit\s*\(\s*0?\s*\)|\bexit(?:\s+0)?\s*(?:;|$|\n|\})/;
/** A statement that fails the step unconditionally, at the start of a line. */
const FAILS_NEXT = /^\s*(?:core\.setFailed\b|throw\b|exit\s+[1-9]|process\.exit\s*\(\s*[1-9])/;

/**
 * True when, after a permission check, the first branch that leaves the script is a quiet one: `if (!allowed) {
 * core.info(...); return; }` or `if [ "$PERM" != admin ]; then echo no; exit 0; fi` ends the step with success,
 * and the job's later steps run anyway. Not when the script fails right after that branch (an allowed actor's
 * early return, everyone else failing).
 */
function quietDeny(after: string): boolean {
  const failAt = after.search(FAILS);
  const branches = [...after.matchAll(JS_IF)].map((m) => ({ at: m.index, end: m.index + m[0].length, condition: m[1] ?? '', body: m[2] ?? '' }));
  // A shell `if ...; then ... fi`, or a command run on a test's outcome (`[ ... ] || exit 0`, `&& { echo; exit 0; }`).
  for (const b of shellBranches(after)) branches.push(b);
  const first = branches.filter((b) => QUIET_END.test(`${b.body}\n`) && !FAILS.test(b.body) && ON_PERMISSION.test(b.condition)).sort((a, b) => a.at - b.at)[0];
  if (first === undefined) return false;
  if (failAt !== -1 && failAt < first.at) return false;
  const next = after.slice(first.end).split('\n').find((line) => line.trim() !== '' && line.trim() !== '}' && !/^\s*(?:else\b|\}\s*else\b)/.test(line));
  return next === undefined || !FAILS_NEXT.test(next);
}

/**
 * True when a permission-checking script fails the job on the check's answer: a failure (`exit 1`,
 * `core.setFailed`, `throw`) after the check, not only in a `catch` block or as `|| exit 1` of the API call
 * itself (those fail when the call fails, and let every commenter through when it answers `read`). A script
 * that only records the answer (`core.setOutput`, `$GITHUB_OUTPUT`) gates nothing unless a later step's `if:`
 * reads it (conditions.ts reads those). Nor does a check whose deny path ends the step with success (`return`
 * without `core.setFailed`, `exit 0`): the job's later steps run for everyone.
 */
function failsOnPermission(script: string): boolean {
  // Only a line that is the call (`gh api ...`, `curl ...`, `perm=$(gh api ...)`) fails on the call's error; a
  // test of the answer on one line (`[[ "$(gh api ...)" =~ ^(admin|write)$ ]] || exit 1`) fails on the answer.
  const call = /^\s*(?:(?:export\s+|local\s+)?[A-Za-z_]\w*=["']?\$\(\s*)?(?:gh\s+api|curl)\b/;
  const text = script.replace(CATCH_BLOCK, '').split('\n').map((line) => (call.test(line) ? line.replace(ON_COMMAND_ERROR, '') : line)).join('\n');
  const at = permissionCheckAt(text);
  // A deny path that ends the step quietly (`return`, `exit 0`) before anything fails it fails nothing.
  if (at !== -1 && FAILS.test(text.slice(at)) && !quietDeny(text.slice(at))) return true;
  // The membership check answers a non-member with an error (404), so a `catch` after it that fails the step
  // is its deny path (and fails closed on any other error).
  const member = script.search(MEMBERSHIP_CALL);
  return member !== -1 && [...script.slice(member).matchAll(CATCH_BLOCK)].some((m) => FAILS.test(m[0]) && !QUIET_END.test(m[0].slice(0, m[0].search(FAILS))));
}

/**
 * The steps of a job before step `before` that check the actor's permission or association but end only their own
 * step on the deny path (`return` without `core.setFailed`, `exit 0`): no gate, though they look like one. For
 * messages that say why such a job is open to anyone.
 */
export function quietPermissionChecks(job: Job, before: number): Step[] {
  return job.steps.filter((s) => {
    if (s.index >= before) return false;
    const script = scriptOf(s);
    if (script === null) return false;
    const text = script.replace(CATCH_BLOCK, '');
    const at = permissionCheckAt(text);
    return at !== -1 && quietDeny(text.slice(at));
  });
}

/**
 * A collaborator list (`collaborators?permission=maintain`, COLLABORATOR_LIST) piped into `grep` with the login as an
 * unanchored pattern (`... --jq '.[].login' | grep -q ${{ github.event.comment.user.login }}`): the grep, in words, or
 * null. Such a lookup matches any login contained in a listed one (`bob` in `bobsmith`), and GitHub lets anyone
 * register a free login, so it checks nothing; `-x`, `-w` or `^...$` match the whole login.
 */
function substringListLookup(script: string): string | null {
  if (!COLLABORATOR_LIST.test(script) && !TEAM_MEMBERS.test(script)) return null;
  const grep = /\|\s*(grep\s+((?:-[A-Za-z]+\s+|--[a-z-]+\s+)*)(["']?)(\$\{\{[^}\n]{0,100}\}\}|[^\s"';|]+))/.exec(script);
  if (grep === null) return null;
  const flags = grep[2] ?? '';
  const pattern = grep[4] ?? '';
  if (/(?:^|\s)-[A-Za-z]*[xw]|--line-regexp|--word-regexp/.test(flags) || pattern.startsWith('^')) return null;
  return (grep[1] ?? '').slice(0, 120);
}

/** The login of the pull request's or issue's author, as a workflow or script writes it. */
const AUTHOR_LOGIN = /\b(?:pull_request|issue|pr|pull|pullRequest)\.user\.login\b|\bpull_request\.author\.login\b/;
/** A test of equality in a shell (`[ "$a" = "$b" ]`, `[[ $a == $b ]]`) or a script (`a === b`, `a == b`). */
const EQUALITY = /(?:^|[^!=<>])(?:===?|\s=\s)(?!=)/;

/**
 * The test, in words, by which a permission-checking script lets the pull request's (or issue's) own author through,
 * or null: an equality between the actor and the author's login whose branch allows (`if [ "$ACTOR" = "$PR_AUTHOR" ];
 * then authorized=true`), the author read inline (`pr.user.login`) or through a variable the step's `env:` sets from
 * it (`PR_AUTHOR: ${{ github.event.pull_request.user.login }}`). Anyone can open a pull request and comment on it, so
 * such a check approves nothing of that pull request's code: its author passes it.
 */
function authorAllowed(step: Step, script: string): string | null {
  const names: string[] = [];
  for (const pair of step.env?.pairs ?? []) {
    const value = pair.value?.kind === 'scalar' && typeof pair.value.value === 'string' ? pair.value.value : '';
    if (AUTHOR_LOGIN.test(value)) names.push(keyText(pair.key).replace(/[^\w]/g, ''));
  }
  const author = names.length === 0 ? AUTHOR_LOGIN : new RegExp(`${AUTHOR_LOGIN.source}|\\$\\{?(?:${names.join('|')})\\b|\\benv\\.(?:${names.join('|')})\\b`);
  const lines = script.split('\n');
  for (let i = 0; i < lines.length && i < 400; i++) {
    const line = lines[i] as string;
    if (!/\bif\b|\[\s|\[\[/.test(line) || !EQUALITY.test(line) || !author.test(line)) continue;
    // The branch the test opens: up to the next `else`, `elif`, `fi` or closing brace, a few lines at most.
    const rest = [line.replace(/^.*?\bthen\b|^.*?\{/, ''), ...lines.slice(i + 1, i + 5)];
    const end = rest.findIndex((l, k) => k > 0 && /^\s*(?:else\b|elif\b|fi\b|\}|case\b)/.test(l));
    const body = rest.slice(0, end === -1 ? rest.length : end).join('\n');
    if (!FAILS.test(body) && /\btrue\b|authori[sz]ed|allowed|approved/i.test(body)) return line.trim().slice(0, 100);
  }
  return null;
}

/**
 * The steps of a job before step `before` that check the actor's permission but stand in the way of no later
 * step, with why: a script whose deny path ends only its own step (`quietPermissionChecks`), or a permission
 * action that gates only what it does itself (permission-actions.ts: it does not fail its step on the deny
 * path, or `continue-on-error` swallows the failure). A later step whose `if:` reads the answer is gated
 * (conditions read it); these are for messages that say why a step is open to anyone.
 */
export function openPermissionChecks(job: Job, before: number): { step: Step; why: string }[] {
  let all = openChecks.get(job);
  if (all === undefined) {
    const quiet = new Set(quietPermissionChecks(job, Infinity));
    all = job.steps.flatMap((s) => {
      if (quiet.has(s)) return [{ step: s, why: 'its deny path only ends that step (it returns or exits 0 without failing it)' }];
      const script = scriptOf(s);
      const author = script === null || permissionCheckAt(script) === -1 ? null : authorAllowed(s, script);
      if (author !== null) return [{ step: s, why: `it also lets the pull request's own author through (\`${author}\`), and anyone can open a pull request and comment on it` }];
      const lookup = script === null ? null : substringListLookup(withCheckEnv(s, script));
      if (lookup !== null) return [{ step: s, why: `it looks the login up in the list of collaborators with \`${lookup}\`, an unanchored match that also passes any login that is part of a listed one, which anyone can register` }];
      const why = actionGatesOnlyItself(s);
      return why === null ? [] : [{ step: s, why }];
    });
    openChecks.set(job, all);
  }
  return all.filter((c) => c.step.index < before);
}

const openChecks = new ScanCache<Job, { step: Step; why: string }[]>();

/**
 * A step's script with, before it, the values of its `env:` that name a permission check's endpoint
 * (`API_ENDPOINT: /repos/o/r/collaborators?permission=maintain`) and the actor the script compares (`COMMENTER: ${{
 * github.triggering_actor }}`), when the script reads the variable: the check is the script's, wherever its parts
 * are written. Other values are left out (a value is not a check because it names one).
 */
function withCheckEnv(step: Step, script: string): string {
  if (step.env === undefined) return script;
  const parts: string[] = [];
  for (const pair of step.env.pairs) {
    const value = pair.value?.kind === 'scalar' && typeof pair.value.value === 'string' ? pair.value.value.slice(0, 500) : '';
    const name = keyText(pair.key).replace(/[^\w]/g, '');
    if (value === '' || name === '' || !new RegExp(`\\$\\{?${name}\\b`).test(script)) continue;
    if (COLLABORATOR_LIST.test(value) || ACTOR_NAMED.test(value)) parts.push(`${name}=${value}`);
  }
  return parts.length === 0 ? script : `${parts.join('\n')}\n${script}`;
}

function scriptOf(step: Step): string | null {
  const script = step.run ?? get(step.with, 'script');
  return script?.kind === 'scalar' && typeof script.value === 'string' ? script.value : null;
}

/**
 * The steps of a job that fail it for untrusted runs, in order: a script that checks the actor's permission
 * (or association) and fails otherwise, also when the failing step is a separate one conditioned on the
 * check's output (`if: steps.auth.outputs.authorized != 'true'` then `exit 1`); a script that fails for a
 * pull request from a fork.
 */
function failingChecks(job: Job): FailingCheck[] {
  let found = checks.get(job);
  if (found !== undefined) return found;
  found = [];
  // A check whose answer a later step reads: a script that checks, or an action that records the answer.
  const permission = (s: Step) => !s.node.pairs.some((p) => p.key.value === 'continue-on-error') && (permissionCheckAt(scriptOf(s) ?? '') !== -1 || (permissionAction(s)?.answers.size ?? 0) > 0);
  let refusing = false;
  for (const s of job.steps) {
    // `actions/checkout` that refuses a fork's pull request on `pull_request_target` and `workflow_run`
    // (checkout-refusal.ts): the step fails for a fork's run, so nothing after it runs there; a run of a pull request
    // from a branch of this repository gets past it. A step with an `if:` may not run, and one that continues on error
    // lets the job go on: neither counts. The first such step holds back every later one (a later one covers only
    // itself and what follows it), so only the first is kept: one guard per job, however many checkouts it has.
    if (!refusing && s.if === undefined && !s.node.pairs.some((p) => p.key.value === 'continue-on-error') && refusesForkCheckout(s)) {
      refusing = true;
      const name = s.name ?? s.id ?? String(s.index + 1);
      found.push({ step: s, guard: { kind: 'same-repository', condition: `\`actions/checkout\` in step \`${name}\`, which refuses a fork's pull request on this event (v4.4.0, v5.1.0, v6.1.0, v7 and later, without \`allow-unsafe-pr-checkout\`)` }, events: REFUSING_EVENTS, itself: true });
      continue;
    }
    // An action that fails its step for an account without the permission (permission-actions.ts).
    if (actionFailsJob(s)) {
      const checksOn = permissionAction(s)?.checksOn;
      const check = { action: permissionAction(s)?.slug ?? '', step: s.name ?? s.id ?? String(s.index + 1) };
      found.push({ step: s, guard: { kind: 'commenter', condition: `permission check by \`${check.action}\` in step \`${check.step}\``, actor: true, check, ...(checksOn !== undefined ? { onlyOn: checksOn } : {}) } });
      continue;
    }
    if (s.node.pairs.some((p) => p.key.value === 'continue-on-error')) continue;
    const own0 = scriptOf(s);
    if (own0 === null || !FAILS.test(own0)) continue;
    const script = withCheckEnv(s, own0);
    const name = s.name ?? s.id ?? String(s.index + 1);
    const condition = s.if?.kind === 'scalar' ? String(s.if.value ?? '') : '';
    const producers = [...condition.matchAll(/\bsteps\.([\w-]+)\.outputs\b/gi)].flatMap((m) => job.steps.filter((p) => p.index < s.index && p.id?.toLowerCase() === m[1]?.toLowerCase() && permission(p)));
    const checked = producers.length > 0;
    const own = permissionCheckAt(script) !== -1 && failsOnPermission(script) && substringListLookup(script) === null && authorAllowed(s, own0) === null;
    // A check that lets the pull request's author through approves nothing of their code (`authorAllowed`).
    const checkedAnswer = checked && !producers.some((p) => permissionAction(p) === null && authorAllowed(p, scriptOf(p) ?? '') !== null);
    if (own || checkedAnswer) {
      const actor = own ? scriptChecksActor(script) : producers.every((p) => permissionAction(p) !== null || scriptChecksActor(scriptOf(p) ?? ''));
      found.push({ step: s, guard: { kind: 'commenter', condition: `permission check in step \`${name}\``, ...(actor ? { actor: true as const } : {}) } });
    }
    // A script may check both: the commenter's permission, then that the pull request is not a fork's (each fails the step).
    if (forkCheck(script) || failsOnForeignHead(job, s, condition)) found.push({ step: s, guard: { kind: 'same-repository', condition: `fork check in step \`${name}\`` } });
  }
  // A local composite action a step runs fails that step, and so the job, when one of its own steps fails: a step of
  // it with no `if:` whose script rejects a fork's pull request (`headRepositoryOwner` compared with the owner it is
  // given, then `exit 1`) is a fork check of the calling step.
  for (const s of job.steps) {
    const action = s.calledAction;
    if (action === undefined || action.using !== 'composite' || s.node.pairs.some((p) => p.key.value === 'continue-on-error')) continue;
    for (const inner of action.steps) {
      if (inner.if !== undefined || inner.node.pairs.some((p) => p.key.value === 'continue-on-error')) continue;
      const script = scriptOf(inner);
      if (script === null || !forkCheck(script)) continue;
      const name = s.name ?? s.id ?? String(s.index + 1);
      found.push({ step: s, guard: { kind: 'same-repository', condition: `fork check in step \`${name}\` (local action \`${action.directory}\`)` } });
      break;
    }
  }
  // A call of a local reusable workflow fails when a job of it fails: a job of it with no `if:` and no `needs:` that
  // fails every fork's pull request (its step's `if:` may read the call's `with:`, `inputs.event: ${{ github.event_name }}`).
  const called = job.called;
  if (called !== undefined && called !== job.workflow) {
    for (const inner of called.jobs) {
      if (inner.if !== undefined || inner.needs.length > 0 || inner.uses !== undefined) continue;
      for (const s of inner.steps) {
        if (s.node.pairs.some((p) => p.key.value === 'continue-on-error')) continue;
        const script = scriptOf(s);
        if (script === null || s.if === undefined) continue;
        const events = forkOnlyCondition(s.if, job.with);
        if (events === null || !failsWhenRun(script)) continue;
        const name = s.name ?? s.id ?? String(s.index + 1);
        found.push({ step: s, guard: { kind: 'same-repository', condition: `fork check in step \`${name}\` of \`${called.file.path}\`` }, ...(events.size > 0 ? { events } : {}) });
      }
    }
  }
  const unread = unreadCallCheck(job);
  if (unread !== null) found.push({ guard: unread });
  checks.set(job, found);
  return found;
}

/**
 * Words in a job's id or name, or in a called workflow's file name, that say the job decides who may go on
 * (`check-run`, `verify-actor`, `authorize`, `permission-check`, `membership`, `gate` ...).
 */
const CHECKING_NAME = /(?:^|[^a-z])(?:check|verify|validate|permissions?|authori[sz]|auth|access|approv|gate|guard|trust|allow|member|collaborator|maintainer)/i;

/**
 * A job that calls a reusable workflow of another repository, which the scan does not read, and whose name says it
 * checks who may go on (bitwarden's `check-run: uses: bitwarden/gh-actions/.github/workflows/check-run.yml@main`,
 * which fails for users without write access): the jobs that need it run only if it succeeds, so it may keep
 * outsiders out, and nothing here can show whether it does. An `unread-check` guard: an approval of unknown
 * strength, named, never a hidden finding. Null for any other job.
 */
function unreadCallCheck(job: Job): TrustGuard | null {
  const ref = job.usesRef;
  if (ref?.kind !== 'repository' || !ref.isWorkflow || job.called !== undefined) return null;
  const file = ref.path.split('/').pop() ?? '';
  const name = typeof job.name === 'string' ? job.name : '';
  if (!CHECKING_NAME.test(job.id) && !CHECKING_NAME.test(name) && !CHECKING_NAME.test(file)) return null;
  const uses = `${ref.owner}/${ref.repo}/${ref.path}@${ref.ref}`;
  return { kind: 'unread-check', condition: `needed job \`${job.id}\`, which calls \`${uses}\`, another repository's reusable workflow that the scan does not read` };
}

/**
 * An expression that is the login of whoever caused the run, or of the comment's or review's author
 * (`${{ github.triggering_actor }}`): an answer about another account (the issue's author under a comment) vouches
 * for nobody who starts the run, as with the permission actions.
 */
const LOGIN_VALUE = /^\s*\$\{\{\s*github\.(?:actor|triggering_actor|event\.sender\.login|event\.(?:comment|review)\.user\.login)\s*\}\}\s*$/i;

/** Actions that run a script the step writes: their answer is the script's, read as such (`PERMISSION_CHECK`). */
const SCRIPT_ACTIONS: ReadonlySet<string> = new Set(['actions/github-script']);

/**
 * A step that runs another repository's action (one permission-actions.ts does not know, not a script action) and
 * hands it the login of whoever caused the run (`member-name: ${{ github.triggering_actor }}`): its answer is one
 * about that account (a membership, a permission) that the scan cannot read.
 */
function unreadAccountCheck(step: Step): boolean {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository' || ref.isWorkflow || SCRIPT_ACTIONS.has(ref.slug) || knownPermissionAction(step)) return false;
  return step.with?.kind === 'map' && step.with.pairs.some((p) => p.value?.kind === 'scalar' && typeof p.value.value === 'string' && LOGIN_VALUE.test(p.value.value));
}

/** A github-script expression that is the pull request head's repository name (`pull.data.head?.repo?.full_name`). */
const HEAD_REPOSITORY_VALUE = /\bhead\??\.repo\??\.full_name\b/;

/**
 * True when a step fails the job (its script always fails: `exit 1`) and its `if:` holds exactly when the pull request
 * comes from another repository: `<head repository> != github.repository`, the head repository being the value a
 * github-script step of the job returns (`fromJSON(steps.<id>.outputs.result)`, the script returning
 * `pull.data.head.repo.full_name`, directly or through a `const` it assigns on one line). Nextcloud's comment commands
 * refuse forks so.
 */
function failsOnForeignHead(job: Job, step: Step, condition: string): boolean {
  if (condition === '' || condition.length > 500 || !condition.includes('github.repository')) return false;
  const script = scriptOf(step);
  if (script === null || !failsWhenRun(script)) return false;
  const parsed = conditionExpression(step.if);
  const expr = parsed?.expr;
  if (!(expr instanceof Binary) || expr.operator.lexeme !== '!=') return false;
  const sides = [expr.left, expr.right];
  const repo = sides.findIndex((e) => contextPath(e)?.join('.') === 'github.repository');
  if (repo === -1) return false;
  let other = sides[1 - repo] as Expr;
  if (other instanceof FunctionCall && functionName(other) === 'fromjson' && other.args.length === 1) other = other.args[0] as Expr;
  const path = contextPath(other);
  if (path === null || path.length !== 4 || path[0] !== 'steps' || path[2] !== 'outputs' || path[3] !== 'result') return false;
  const producer = job.steps.find((p) => p.index < step.index && p.id?.toLowerCase() === path[1]?.toLowerCase());
  if (producer?.usesRef?.kind !== 'repository' || producer.usesRef.slug !== 'actions/github-script') return false;
  const source = getText(producer.with, 'script') ?? '';
  const returned = githubScriptReturn(source);
  if (returned === null || returned.values.length === 0) return false;
  return returned.values.every((v) => {
    if (HEAD_REPOSITORY_VALUE.test(v)) return true;
    const name = /^\s*([A-Za-z_$][\w$]*)\s*$/.exec(v)?.[1];
    return name !== undefined && new RegExp(`(?:const|let|var)\\s+${name.replace(/\$/g, '\\$')}\\s*=\\s*[^\\n;]*\\bhead\\??\\.repo\\??\\.full_name\\b`).test(source);
  });
}

/**
 * True when one term of a condition checks where the run came from as the trust paths read it (a `same-repository`
 * guard): `workflow_run.event == 'push'`, `head_repository.full_name == github.repository`, `head.repo.fork == false`.
 */
export function checksSource(expr: Expr): boolean {
  return atomOf(expr, { labeledOnly: false, workflow: null, job: null }).guard === 'same-repository';
}

/** A `with:` value that is the event's name: an input the call sets so is `github.event_name` in the called workflow. */
const EVENT_NAME_VALUE = /^\s*\$\{\{\s*github\.event_name\s*\}\}\s*$/;

/**
 * The events on which a step's `if:` holds for every fork's pull request, when it is one conjunction of a fork
 * selector (`github.event.pull_request.head.repo.full_name != github.repository`, `...head.repo.fork`) and tests of
 * the event's name (`github.event_name == 'pull_request'`, or `inputs.<x> == 'pull_request'` where the call's `with:`
 * sets `x` to `${{ github.event_name }}`), read with the atoms of the trust paths: empty for any event, null when it
 * is no such condition.
 */
function forkOnlyCondition(node: YNode | undefined, callWith: YNode | undefined): ReadonlySet<string> | null {
  const parsed = conditionExpression(node);
  if (parsed === null || parsed.expr === null || parsed.source.length > 1_000) return null;
  const source = parsed.source.replace(/\binputs\.([\w-]+)/g, (whole, name: string) => (EVENT_NAME_VALUE.test(scalarText(get(callWith, name)) ?? '') ? 'github.event_name' : whole));
  const expr = source === parsed.source ? parsed.expr : parseExpression(source);
  const disjuncts = expr === null ? null : dnfOf(expr);
  if (disjuncts === null || disjuncts.length !== 1) return null;
  let fork = false;
  const events = new Set<string>();
  for (const conjunct of disjuncts[0]!) {
    const path = dotted(conjunct);
    const fact = path !== null && FORK_FLAGS.has(path) ? 'fork' : atomOf(conjunct, { labeledOnly: false, workflow: null, job: null }).fact;
    if (fact === '!same-repository' || fact === 'fork') fork = true;
    else if (fact?.startsWith('event:') === true) events.add(fact.slice('event:'.length));
    else return null;
  }
  return fork ? events : null;
}

/**
 * Whether one condition holds on a fork's pull request, as the trust paths read it (`atomOf`): true for
 * `head.repo.fork` and a test that the head is not this repository, false for a same-repository test
 * (`head.repo.full_name == github.repository`, `!head.repo.fork`, `head.repo.fork == false`), null otherwise.
 */
export function holdsOnForks(expr: Expr): boolean | null {
  const path = dotted(expr);
  if (path !== null && FORK_FLAGS.has(path)) return true;
  const fact = atomOf(expr, { labeledOnly: false, workflow: null, job: null }).fact;
  if (fact === 'fork' || fact === '!same-repository') return true;
  if (fact === '!fork' || fact === 'same-repository') return false;
  return null;
}

/**
 * A script that fails whenever it runs: its last command is `exit <non-zero>` (or `false`, `core.setFailed`,
 * `throw` in a github-script) and nothing before it ends the step quietly (`exit 0`, a bare `exit`, `return`).
 */
export function failsWhenRun(script: string): boolean {
  if (script.length > 20_000) return false;
  const lines = script.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith('//'));
  const last = lines.at(-1) ?? '';
  if (!/^(?:exit\s+[1-9]\d*|false|core\.setFailed\s*\(.*\)|throw\b.*);?$/.test(last)) return false;
  return !lines.slice(0, -1).some((l) => QUIET_END.test(l));
}

/** Adds, to every path, the checks made by steps of `job` before step `before` (each fails the job for anyone else). */
function withAuthorization(paths: TrustPaths, job: Job, before: number, event?: string): TrustPaths {
  // A check that stands only on some events counts on those, and, for the ways to run on any event, when the
  // workflow brings pull requests only through those events.
  const on = (c: FailingCheck): boolean =>
    c.events === undefined ||
    (event !== undefined
      ? c.events.has(event)
      : // A checkout that refuses only on some events: for every way to run, only when the workflow runs on no other.
        c.itself === true
        ? job.workflow.triggers.every((t) => c.events!.has(t.name))
        : job.workflow.triggers.every((t) => !PULL_REQUEST_TRIGGERS.has(t.name) || c.events!.has(t.name)));
  // A checkout that refuses a fork's pull request holds back the step itself too: for a fork, it brings nothing.
  const guards = failingChecks(job).filter((c) => c.step === undefined || c.step.job !== job || c.step.index < before || (c.itself === true && c.step.index === before)).filter(on).map((c) => c.guard);
  if (guards.length === 0) return paths;
  return paths.map((path) => [...path, ...guards]);
}

function product(a: TrustPaths, b: TrustPaths): TrustPaths {
  if (a.length * b.length > MAX_PATHS) return [[]];
  return flatMap(a, (x) => b.map((y) => [...x, ...y]));
}

/** The ways a condition can be true, with the trust guards of each. */
export function conditionTrust(node: YNode | undefined, workflow: Workflow | null, job: Job | null, event?: string): TrustPaths {
  const parsed = conditionExpression(node);
  if (parsed === null || parsed.expr === null) return [[]];
  const disjuncts = dnfOf(parsed.expr);
  if (disjuncts === null) return [[]];
  const labeledOnly = workflow !== null && onlyLabeledPullRequests(workflow, event);
  const paths: TrustPaths = [];
  for (const conjuncts of disjuncts) {
    const atoms = conjuncts.map((c) => atomOf(c, { labeledOnly, workflow, job, event }));
    if (contradictory(atoms)) continue;
    paths.push(flatMap(atoms, (a) => (a.guard === null ? [] : [guardOf(a, a.guard, parsed.source)])));
  }
  return paths;
}

function guardOf(atom: Atom, kind: TrustGuardKind, condition: string): TrustGuard {
  const guard: TrustGuard = { kind, condition };
  if (atom.laterLabels === true) guard.laterLabels = true;
  if (atom.removedBy !== undefined) guard.removedBy = atom.removedBy;
  if (atom.pushRace === true) guard.pushRace = true;
  if (atom.fact === 'merged') guard.merged = true;
  if (atom.actor === true) guard.actor = true;
  if (atom.onlyOn !== undefined) guard.onlyOn = atom.onlyOn;
  if (atom.notOn !== undefined) guard.notOn = atom.notOn;
  if (atom.check !== undefined) guard.check = atom.check;
  return guard;
}

/**
 * `dnf` of a parsed condition, once per tree: a condition is read per event and per step of the job (the trees
 * are shared through the parse memo), and callers only read the result.
 */
const dnfs = new WeakMap<Expr, readonly (readonly Expr[])[] | null>();
function dnfOf(expr: Expr): readonly (readonly Expr[])[] | null {
  let found = dnfs.get(expr);
  if (found === undefined) dnfs.set(expr, (found = dnf(expr, MAX_PATHS)));
  return found;
}

function contradictory(atoms: readonly Atom[]): boolean {
  const facts = new Set(flatMap(atoms, (a) => (a.fact === null ? [] : [a.fact])));
  if (facts.has(IMPOSSIBLE)) return true;
  if ([...facts].filter((f) => f.startsWith('event:')).length > 1) return true;
  for (const fact of facts) if (facts.has(fact.startsWith('!') ? fact.slice(1) : `!${fact}`)) return true;
  return false;
}

/** A merged pull request (on `closed`): a maintainer merged it, so its code and text are what they accepted. */
const MERGED = 'github.event.pull_request.merged';

/** The fact of an atom that cannot hold on the event the trust is computed for (`jobTrustOn`). */
const IMPOSSIBLE = 'impossible';

interface AtomContext {
  labeledOnly: boolean;
  /** The one event the condition is evaluated for, when known (`jobTrustOn`). */
  event?: string | undefined;
  workflow: Workflow | null;
  job: Job | null;
}

function atomOf(expr: Expr, context: AtomContext): Atom {
  const labeledOnly = context.labeledOnly;
  const none: Atom = { guard: null, fact: null };
  if (expr instanceof Grouping) return atomOf(expr.group, context);
  // `if: needs.check.outputs.allowed` / `fromJSON(needs.check.outputs.allowed)`: the output of a permission check, tested for truth.
  const decodedTest = expr instanceof FunctionCall && functionName(expr) === 'fromjson' && expr.args.length === 1;
  const tested = decodedTest ? dotted(expr.args[0] as Expr) : dotted(expr);
  const truth: OutputTest = decodedTest ? { decoded: true } : {};
  if (tested !== null && permissionOutput(tested, context, truth)) return permissionAtom(tested, context, truth);
  const unreadTested = tested === null ? null : unreadAtom(tested, context, truth);
  if (unreadTested !== null) return unreadTested;
  // `if: github.event.pull_request.merged`: only someone with write access merges, and what runs is what they merged.
  if (dotted(expr) === MERGED) return { guard: 'maintainer-event', fact: 'merged' };
  if (expr instanceof Unary && expr.operator.lexeme === '!') {
    const path = dotted(expr.expr);
    return path !== null && FORK_FLAGS.has(path) ? { guard: 'same-repository', fact: '!fork' } : none;
  }
  if (expr instanceof Binary && (expr.operator.lexeme === '==' || expr.operator.lexeme === '!=')) {
    const atom = comparison(expr.left, expr.right, context) ?? comparison(expr.right, expr.left, context);
    if (atom === null) return none;
    if (expr.operator.lexeme === '==') return atom;
    // `github.event_name != 'pull_request_target'` never holds on that event (and always holds on another, where the
    // `==` was impossible): the way through it is not a way to run on this occasion.
    if (context.event !== undefined && atom.fact === `event:${context.event}`) return { guard: null, fact: IMPOSSIBLE };
    if (atom.fact === IMPOSSIBLE) return none;
    // `!=` negates the fact and keeps no guard (`full_name != github.repository` selects forks).
    return { guard: null, fact: atom.fact === null ? null : atom.fact.startsWith('!') ? atom.fact.slice(1) : `!${atom.fact}` };
  }
  if (expr instanceof FunctionCall && functionName(expr) === 'startswith' && expr.args.length === 2 && branchRefOnPullRequest(expr.args[0] as Expr, expr.args[1] as Expr, context)) {
    return { guard: null, fact: IMPOSSIBLE };
  }
  if (expr instanceof FunctionCall && functionName(expr) === 'contains' && expr.args.length === 2) {
    const [haystack, needle] = expr.args as [Expr, Expr];
    const labels = dotted(haystack) ?? (labelsOutput(haystack, context) ? 'github.event.pull_request.labels.*.name' : null);
    if (labels === 'github.event.pull_request.labels.*.name') {
      // A label the workflow removes in every run approves one run: a later label event or push finds it gone,
      // except a push that races the run (between the label and its removal) on a workflow that runs on pushes.
      const label = needle instanceof Literal ? needle.literal.coerceString() : null;
      const removedBy = label === null || context.job === null ? null : labelRemovedEachRun(context.job, label);
      if (removedBy !== null) return labeledOnly ? { guard: 'label', fact: null, removedBy } : { guard: 'label', fact: null, removedBy, pushRace: true };
      return labeledOnly ? { guard: 'label', fact: null, laterLabels: true } : { guard: 'bypassable-label', fact: null };
    }
    const path = dotted(needle);
    const values = literalList(haystack);
    if (values !== null && values.length > 0 && path === null) return { guard: associationFallback(needle, values), fact: null };
    if (path === null || values === null || values.length === 0) return none;
    if (path === 'github.event_name' && context.event !== undefined && !values.includes(context.event)) return { guard: null, fact: IMPOSSIBLE };
    if (path === 'github.event_name') return { guard: values.every((v) => MAINTAINER_EVENTS.has(v)) ? 'maintainer-event' : null, fact: null };
    if (path === RUN_EVENT) return { guard: values.every((v) => MAINTAINER_EVENTS.has(v)) ? 'same-repository' : null, fact: null };
    // `contains('alice bob', github.actor)` searches the string: any login that is a piece of it (`ali`) passes,
    // and anyone can register one. A real list (`fromJSON('[...]')`) names the accounts.
    if (haystack instanceof Literal && (ACTORS.has(path) || PR_AUTHORS.has(path) || COMMENTERS.has(path))) return none;
    return { guard: subjectKind(path, values), fact: null };
  }
  return none;
}

/**
 * `contains(fromJSON('["OWNER","MEMBER"]'), comment.author_association || review.author_association ||
 * issue.author_association)`: the first association the event carries must be a trusted one. Every alternative an
 * association check: the weakest of their guards (a commenter's, an approval, before an author's); null otherwise.
 */
function associationFallback(needle: Expr, values: readonly string[]): TrustGuardKind | null {
  let node = needle;
  while (node instanceof Grouping) node = node.group;
  if (!(node instanceof Logical) || node.operator.lexeme !== '||') return null;
  const kinds = node.args.map((arg) => {
    const path = dotted(arg);
    return path !== null && path.endsWith('.author_association') ? subjectKind(path, values) : null;
  });
  if (kinds.some((k) => k === null)) return null;
  return kinds.includes('commenter') ? 'commenter' : (kinds[0] ?? null);
}

/** `<subject> == <other>` read as an atom. */
function comparison(subject: Expr, other: Expr, context: AtomContext): Atom | null {
  const decoded = subject instanceof FunctionCall && functionName(subject) === 'fromjson' && subject.args.length === 1 ? dotted(subject.args[0] as Expr) : null;
  const decodedTest: OutputTest | null = other instanceof Literal ? { decoded: true, value: other.literal.coerceString() } : null;
  if (decoded !== null && decodedTest !== null && permissionOutput(decoded, context, decodedTest)) return permissionAtom(decoded, context, decodedTest);
  const unreadDecoded = decoded !== null && decodedTest !== null ? unreadAtom(decoded, context, decodedTest) : null;
  if (unreadDecoded !== null) return unreadDecoded;
  const path = dotted(subject);
  if (path === null) return null;
  const otherPath = dotted(other);
  const literal = other instanceof Literal ? other.literal.coerceString() : undefined;
  if (literal !== undefined && permissionOutput(path, context, { value: literal })) return permissionAtom(path, context, { value: literal });
  const unread = literal === undefined ? null : unreadAtom(path, context, { value: literal });
  if (unread !== null) return unread;
  if (path === MERGED && (literal === 'true' || literal === 'false')) return literal === 'true' ? { guard: 'maintainer-event', fact: 'merged' } : { guard: null, fact: '!merged' };
  if (literal !== undefined && branchRefOnPullRequest(subject, other, context)) return { guard: null, fact: IMPOSSIBLE };
  if (path === 'github.event_name' && literal !== undefined && context.event !== undefined && literal !== context.event) return { guard: null, fact: IMPOSSIBLE };
  if (path === 'github.event_name' && literal !== undefined) return { guard: MAINTAINER_EVENTS.has(literal) ? 'maintainer-event' : null, fact: `event:${literal}` };
  if (HEAD_REPOSITORY_NAMES.has(path) && (otherPath === 'github.repository' || (literal !== undefined && literal.includes('/')))) {
    return { guard: 'same-repository', fact: 'same-repository' };
  }
  if (HEAD_REPOSITORY_OWNERS.has(path) && otherPath === 'github.repository_owner') return { guard: 'same-repository', fact: 'same-owner' };
  // The run a `workflow_run` follows was a `push` (or another event only collaborators cause): its head is a
  // branch of the base repository, never a fork's.
  if (path === RUN_EVENT && literal !== undefined && MAINTAINER_EVENTS.has(literal)) return { guard: 'same-repository', fact: `run-event:${literal}` };
  if ((FORK_FLAGS.has(path) || forkFlagOutput(path, context)) && (literal === 'false' || literal === 'true')) {
    return literal === 'false' ? { guard: 'same-repository', fact: '!fork' } : { guard: null, fact: 'fork' };
  }
  if (literal === undefined) return null;
  const guard = subjectKind(path, [literal]);
  return guard === null ? null : { guard, fact: null };
}

/**
 * True when `ref` is `github.ref` compared with (or starting with) a branch or tag ref (`refs/heads/main`,
 * `refs/tags/`) on an event whose ref is always a pull request's merge ref: the comparison is false there.
 */
function branchRefOnPullRequest(ref: Expr, value: Expr, context: AtomContext): boolean {
  if (context.event === undefined || !PULL_REQUEST_REF_EVENTS.has(context.event) || dotted(ref) !== 'github.ref' || !(value instanceof Literal)) return false;
  return /^refs\/(heads|tags)\//.test(value.literal.coerceString());
}

/** A guard that requires `path` to be one of `values`. */
function subjectKind(path: string, values: readonly string[]): TrustGuardKind | null {
  if (path.endsWith('.author_association')) {
    if (!values.every((v) => TRUSTED_ASSOCIATIONS.has(v.toUpperCase()))) return null;
    if (path === 'github.event.pull_request.author_association' || path === 'github.event.issue.author_association') return 'pr-author';
    if (path === 'github.event.comment.author_association' || path === 'github.event.review.author_association') return 'commenter';
    return null;
  }
  if (path === 'github.event.label.name') return 'label';
  if (PR_AUTHORS.has(path)) return 'pr-author';
  if (COMMENTERS.has(path)) return 'commenter';
  // `github.actor == 'dependabot[bot]'` is spoofable (an outsider can make the bot act on their pull request).
  if (ACTORS.has(path)) return values.every((v) => !/\[bot\]$/i.test(v)) ? 'actor' : null;
  return null;
}

/** How a condition tests a check's output: for truth, or compared with a literal; `decoded` through `fromJSON`. */
interface OutputTest {
  decoded?: true;
  value?: string;
}

/** Values of a permission action's answer that do not grant anything (`require-result`, `permitted`, `user-permission`). */
const DENYING_ANSWERS = new Set(['', 'false', 'none', 'read', 'triage']);

/**
 * Values a check script writes for the people it does not trust (`parallel=false`, `trusted=no`): a condition that
 * compares its output with one of them selects those people, the opposite of a gate.
 */
const DENYING_VALUES = new Set([...DENYING_ANSWERS, 'no', '0', 'off', 'deny', 'denied', 'untrusted', 'unauthorized']);

/**
 * True for `steps.<id>.outputs.<x>` / `needs.<job>.outputs.<x>` produced by a step that checks the permission
 * of whoever triggered the run (`gh api .../collaborators/$ACTOR/permission`): comparing it is an authorisation.
 * For a permission action (permission-actions.ts), only an output that is the answer counts, compared with a
 * value that grants (`== 'true'`, `== 'admin'`) or decoded with `fromJSON`: its answers are never empty, so a
 * test for truth passes for everyone. A script's output compared with a value that denies (`== 'false'`, `== 'no'`,
 * `DENYING_VALUES`) is none: it is the way in for everyone the script does not trust. `steps.<id>.outcome == 'success'` of an action that fails its step on the
 * deny path is one too (with `continue-on-error`, the step's outcome is still its failure).
 */
function permissionOutput(path: string, context: AtomContext, test: OutputTest): boolean {
  return permissionSteps(path, context, test).length > 0;
}

/**
 * The `commenter` atom of a permission check's output, marked when every check producing it checks the actor
 * (the permission actions all check `github.actor`).
 */
function permissionAtom(path: string, context: AtomContext, test: OutputTest): Atom {
  const steps = permissionSteps(path, context, test);
  const actor = steps.every((s) => permissionAction(s) !== null || ghAwMembershipCheck(s) || scriptChecksActor(scriptOf(s) ?? ''));
  const atom: Atom = actor ? { guard: 'commenter', fact: null, actor: true } : { guard: 'commenter', fact: null };
  // An action that checks only on some activities: its outcome stands in the way only on those; an output it sets
  // only when it checks (before the check, so no gate there) keeps the step from running only on the others.
  const actions = steps.map(permissionAction);
  const checksOn = actions.every((a) => a?.checksOn !== undefined) ? actions[0]?.checksOn : undefined;
  if (checksOn !== undefined) {
    const [, , outputs] = path.split('.');
    if (outputs === 'outputs') atom.notOn = checksOn;
    else atom.onlyOn = checksOn;
  }
  return atom;
}

/**
 * The steps whose outputs `steps.<id>.outputs.<name>` / `needs.<id>.outputs.<name>` carries: the step of that id, or,
 * for a job output, the steps its value reads (`allowed: ${{ steps.perm.outputs.ok }}`: that step must be the check),
 * all the needed job's steps when the value names none (`read` then empty). `read` is null for a step's own output.
 */
function outputProducers(head: string | undefined, id: string, name: string | undefined, context: AtomContext): { steps: readonly Step[]; read: { id: string; name: string }[] | null } {
  if (head === 'steps') return { steps: (context.job?.steps ?? []).filter((s) => s.id?.toLowerCase() === id), read: null };
  if (head !== 'needs') return { steps: [], read: null };
  const needed = context.workflow?.jobs.find((j) => j.id.toLowerCase() === id);
  const text = name === undefined ? null : jobOutputText(needed, name);
  const read = text === null ? [] : [...text.matchAll(/\bsteps\.([\w-]+)\.outputs\.([\w-]+)/gi)].map((m) => ({ id: (m[1] as string).toLowerCase(), name: (m[2] as string).toLowerCase() }));
  const all = needed?.steps ?? [];
  return { steps: read.length > 0 ? all.filter((s) => typeof s.id === 'string' && read.some((r) => r.id === s.id?.toLowerCase())) : all, read };
}

/**
 * The `unread-check` atom of `steps.<id>.outputs.<x>` / `needs.<job>.outputs.<x>` when every step that produces it
 * runs another repository's action handed the login of whoever caused the run (`unreadAccountCheck`), and the
 * condition requires an answer that grants (`== 'true'`, `fromJSON(...)`): hazelcast's `needs.check_for_membership
 * .outputs.check-result == 'true'` after `hazelcast/hazelcast-tpm/membership@main`. A test for truth alone is none:
 * an answer of `false` is a non-empty string, which passes it. Null otherwise.
 */
function unreadAtom(path: string, context: AtomContext, test: OutputTest): Atom | null {
  const [head, id, outputs, name] = path.split('.');
  if (id === undefined || outputs !== 'outputs' || name === undefined) return null;
  const granting = test.decoded === true ? test.value === undefined || test.value.toLowerCase() === 'true' : test.value !== undefined && !DENYING_VALUES.has(test.value.trim().toLowerCase());
  if (!granting) return null;
  const { steps, read } = outputProducers(head, id, name, context);
  // A job output that names no step's output (a literal) is nobody's answer.
  if (read !== null && read.length === 0) return null;
  const first = steps[0];
  if (first === undefined || !steps.every(unreadAccountCheck) || first.usesRef?.kind !== 'repository') return null;
  const ref = first.usesRef;
  const action = `${ref.owner}/${ref.repo}${ref.path === '' ? '' : `/${ref.path}`}@${ref.ref}`;
  return { guard: 'unread-check', fact: null, check: { action, step: first.name ?? first.id ?? String(first.index + 1) } };
}

/** A `gh` read of one pull request's fork flag: `gh pr view --json isCrossRepository --jq .isCrossRepository`, `gh api .../pulls/N --jq .head.repo.fork`. */
const FORK_FLAG_LOOKUP = /\bgh\s+(?:pr\s+view\b[^\n]*--jq[=\s]+["']?\.isCrossRepository\b|api\s+[^\n]*\/pulls\/[^\n]*--jq[=\s]+["']?\.head\.repo\.fork\b)/;
/** The run's own pull request's number, as the event gives it. */
const EVENT_NUMBER = /\bgithub\.event\.(?:issue|pull_request)\.number\b|\bcontext\.issue\.number\b/;

/**
 * True for `steps.<id>.outputs.<x>` / `needs.<job>.outputs.<x>` that a `run:` step writes from a read of the run's
 * own pull request's fork flag (`echo "IS_FORK=$(gh pr view --json isCrossRepository --jq '.isCrossRepository'
 * "$PR_NUMBER")" >> "$GITHUB_OUTPUT"`, the number from `github.event.issue.number`): GitHub's answer, `true` or
 * `false`, as `github.event.pull_request.head.repo.fork` gives it on a pull request event. Compared with `'false'`,
 * it keeps forks out; the head can move between the read and the checkout, but only within the same repository.
 */
function forkFlagOutput(path: string, context: AtomContext): boolean {
  const [head, id, outputs, name] = path.split('.');
  if (id === undefined || outputs !== 'outputs' || name === undefined) return false;
  const { steps, read } = outputProducers(head, id, name, context);
  if (steps.length === 0 || (read !== null && read.length === 0)) return false;
  return steps.every((step) => {
    const script = step.run?.value;
    if (typeof script !== 'string') return false;
    const outputName = head === 'steps' ? name : (read ?? []).find((r) => r.id === step.id?.toLowerCase())?.name;
    const lines = outputName === undefined ? null : outputLines(script, outputName);
    if (lines === null || lines.length === 0 || !lines.every((l) => FORK_FLAG_LOOKUP.test(l.text))) return false;
    const env = (step.env?.pairs ?? []).map((p) => (p.value.kind === 'scalar' ? String(p.value.value) : '')).join('\n');
    return EVENT_NUMBER.test(`${script}\n${env}`);
  });
}

/** The value of a job's output `name` (lower-cased) as written (`${{ steps.check.outputs.ok }}`), or null. */
function jobOutputText(job: Job | undefined, name: string): string | null {
  const value = job?.outputs?.pairs.find((p) => String(p.key.value).toLowerCase() === name)?.value;
  return value?.kind === 'scalar' && typeof value.value === 'string' ? value.value : null;
}

/**
 * A github-script step that reads the labels of the run's issue or pull request through the API and returns their
 * names (`(await github.rest.issues.get({ issue_number: context.issue.number, ... })).data.labels.map(l => l.name)`).
 */
const LABEL_NAMES_SCRIPT = /\.labels\.map\(\s*\(?\s*(\w+)\s*\)?\s*=>\s*\1\.name\s*\)/;
const ISSUE_LOOKUP = /\b(?:issues\.(?:get|listLabelsOnIssue)|pulls\.get)\s*\(/;

/**
 * `fromJSON(needs.<job>.outputs.<x> || '[]')` or `fromJSON(steps.<id>.outputs.result)` whose value is the `result`
 * of such a github-script step: the labels the pull request has when that step runs, as
 * `github.event.pull_request.labels.*.name` gives them when the run starts.
 */
function labelsOutput(haystack: Expr, context: AtomContext): boolean {
  if (!(haystack instanceof FunctionCall) || functionName(haystack) !== 'fromjson' || haystack.args.length !== 1) return false;
  let inner = haystack.args[0] as Expr;
  while (inner instanceof Grouping) inner = inner.group;
  // `x || '[]'`: an empty list when the output is empty.
  if (inner instanceof Logical && inner.operator.lexeme === '||' && inner.args.length === 2 && inner.args[1] instanceof Literal) inner = inner.args[0] as Expr;
  const path = dotted(inner);
  if (path === null) return false;
  const [head, id, outputs, name] = path.split('.');
  if (outputs !== 'outputs' || id === undefined || name === undefined) return false;
  let step: Step | undefined;
  if (head === 'steps') {
    if (name !== 'result') return false;
    step = context.job?.steps.find((s) => s.id?.toLowerCase() === id);
  } else if (head === 'needs') {
    const needed = context.workflow?.jobs.find((j) => j.id.toLowerCase() === id);
    const read = /^\s*\$\{\{\s*steps\.([\w-]+)\.outputs\.result\s*\}\}\s*$/i.exec(jobOutputText(needed, name) ?? '');
    if (read === null) return false;
    step = needed?.steps.find((s) => s.id?.toLowerCase() === (read[1] as string).toLowerCase());
  }
  if (step?.usesRef?.kind !== 'repository' || step.usesRef.slug !== 'actions/github-script') return false;
  const script = getText(step.with, 'script') ?? '';
  return ISSUE_LOOKUP.test(script) && LABEL_NAMES_SCRIPT.test(script);
}

/** The steps that produce `path` (`steps.<id>.outputs.<x>`, `needs.<job>.outputs.<x>`, `steps.<id>.outcome`) and check a permission. */
function permissionSteps(path: string, context: AtomContext, test: OutputTest): Step[] {
  const [head, id, outputs, name] = path.split('.');
  if (id === undefined) return [];
  if (head === 'steps' && outputs === 'outcome' && name === undefined) {
    if (test.value?.toLowerCase() !== 'success') return [];
    return (context.job?.steps ?? []).filter((s) => s.id?.toLowerCase() === id && permissionAction(s)?.failsOnDeny(s) === true);
  }
  if (outputs !== 'outputs') return [];
  const { steps, read } = outputProducers(head, id, name, context);
  const granting = test.decoded === true ? test.value === undefined || test.value.toLowerCase() === 'true' : test.value !== undefined && !DENYING_ANSWERS.has(test.value.trim().toLowerCase());
  return steps.filter((s) => {
    const action = permissionAction(s);
    if (action !== null) {
      const names = head === 'steps' ? [name] : (read ?? []).filter((r) => r.id === s.id?.toLowerCase()).map((r) => r.name);
      // An output set only on the activities it checks on, tested for truth or compared with a non-empty value.
      const setOnCheck = action.setOnCheck;
      if (setOnCheck !== undefined && test.decoded !== true && (test.value === undefined || test.value.trim() !== '') && names.some((n) => n !== undefined && setOnCheck.has(n))) return true;
      return granting && names.some((n) => n !== undefined && action.answers.has(n));
    }
    // A script's own check (an author association, a membership, a permission read): its output is a gate only
    // tested for truth or compared with a value that grants; `== 'false'` selects whoever the script does not trust.
    if (test.value !== undefined && DENYING_VALUES.has(test.value.trim().toLowerCase())) return false;
    if (ghAwMembershipCheck(s)) return true;
    const script = s.run ?? get(s.with, 'script');
    // A login looked up anywhere in a listed one (an unanchored `grep`) passes any login that contains it.
    return script?.kind === 'scalar' && typeof script.value === 'string' && permissionCheckAt(script.value) !== -1 && substringListLookup(script.value) === null;
  });
}

/**
 * Activity types of a pull request that its author cannot fire again with new code under a label a maintainer
 * gave earlier: label, assignment, milestone, lock and merge-queue acts are a maintainer's, and `opened` happens
 * once, before anyone could label the pull request (an outsider cannot label their own). Not here: `synchronize`,
 * `reopened`, `edited`, `closed`, `ready_for_review`, `converted_to_draft` and review requests, which the author fires.
 */
const NO_AUTHOR_RERUN_TYPES: ReadonlySet<string> = new Set(['labeled', 'unlabeled', 'opened', 'assigned', 'unassigned', 'milestoned', 'demilestoned', 'locked', 'unlocked', 'enqueued', 'dequeued', 'auto_merge_enabled', 'auto_merge_disabled']);

/**
 * True when the workflow's pull request triggers fire only on `labeled`/`unlabeled` (and other types the author
 * cannot fire again with new code: `NO_AUTHOR_RERUN_TYPES`, `opened` included), with `labeled` among them: then a
 * label the condition requires was applied by a maintainer to the code as it is, and a new push does not re-run it.
 */
function onlyLabeledPullRequests(workflow: Workflow, event?: string): boolean {
  // Without an event, only `pull_request_target` counts (the event the label checks of the rules guard).
  const pr = workflow.triggers.filter((t) => t.name === (event === 'pull_request' ? 'pull_request' : 'pull_request_target'));
  return pr.length > 0 && pr.every((t) => {
    const types = asList(get(t.config, 'types')).map(scalarText);
    return types.some((type) => type === 'labeled' || type === 'unlabeled') && types.every((type) => type !== null && NO_AUTHOR_RERUN_TYPES.has(type));
  });
}

/** `github.event.x` for an access chain (lower-case), or null. */
function dotted(expr: Expr): string | null {
  if (!(expr instanceof ContextAccess || expr instanceof IndexAccess)) return null;
  const path = contextPath(expr);
  return path === null ? null : path.join('.');
}

/** The strings of `'A'`, `'A,B'`, `fromJSON('["A","B"]')`; null for anything else. */
function literalList(expr: Expr): string[] | null {
  if (expr instanceof Literal) return expr.literal.coerceString().split(/[\s,]+/).filter((v) => v !== '');
  if (expr instanceof FunctionCall && functionName(expr) === 'fromjson' && expr.args.length === 1) {
    const arg = expr.args[0];
    if (!(arg instanceof Literal)) return null;
    try {
      const value: unknown = JSON.parse(arg.literal.coerceString());
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
    } catch {
      return null;
    }
  }
  return null;
}
