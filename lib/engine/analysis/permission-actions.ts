import type { Step } from '../model/workflow.js';
import { getText } from '../yaml/model.js';

/**
 * Actions that check the permission of whoever triggered the run (`github.actor`: on `issue_comment`, the
 * commenter) and what that check stands in the way of. Each checks for what it does itself; for the job's later
 * steps it is a gate only when it fails its step on the deny path (and no `continue-on-error` swallows the
 * failure), or when a later step's `if:` reads an output set only from the answer. Per entry, from the action's
 * own source or README:
 *
 * - `peter-evans/slash-command-dispatch` (src/main.ts): a commenter below the command's `permission` gets
 *   `core.info("... not configured for the user's permission level ...")` and a `return`: the step succeeds and
 *   dispatches nothing. Its only output, `error-message`, reports configuration errors. No gate for later steps.
 * - `xt0rted/slash-command-action` (src/commandHandler.ts): `core.setFailed("User doesn't have enough access to
 *   the repo")` below `permission-level` (default `write`); `read` or `none` lets every account through. It sets
 *   `command-name` and `command-arguments` before it checks the permission, so an `if:` on them lets anyone
 *   through once `continue-on-error: true` swallows the failure; `steps.<id>.outcome == 'success'` does not.
 *   It checks only when the comment is `created` (`shouldRunForAction`; on `edited` it fails its step either
 *   way): on any other activity (`deleted`) it logs and returns, the step succeeding with no output set and no
 *   permission checked. So the failure (and `outcome == 'success'`) stands in the way only on `created` and
 *   `edited`; an `if:` on its outputs keeps later steps from running on the other activities (they are empty).
 * - `prince-chrismc/check-actor-permissions-action` (src/main.ts): `core.setFailed('Insufficient Permissions!
 *   ...')` below `permission`, and output `permitted` (`'true'` / `'false'`).
 * - `actions-cool/check-user-permission` (README): never fails on the answer; outputs `require-result` (`'true'`
 *   / `'false'` for `require`), `user-permission` (`read` / `write` / `admin`), `result` in v1.
 * - `lidofinance/check-user-permission` (README): a fork that fails the step when the user lacks `require`.
 * - `skjnldsv/check-actor-permission` (src/main.js): another fork, that looks up the actor's permission
 *   (`getCollaboratorPermissionLevel`) and, when `require` is given, sets `result` and `core.setFailed(...)` below it;
 *   without `require` it only records `user-permission`.
 * - `tspascoal/get-user-teams-membership` (README, src/index.js): never fails on the answer; output `isTeamMember`
 *   (`'true'` / `'false'`) says whether `username` is in `team` of the organization. A gate on the actor only when
 *   `username` is the actor (`github.actor`, `github.triggering_actor`, the comment's or sender's login): a team of
 *   the organization is people its maintainers added, as a permission level is.
 */
export interface PermissionAction {
  slug: string;
  /** True when, with the step's inputs, the action fails its step for an account without the permission. */
  failsOnDeny: (step: Step) => boolean;
  /**
   * Outputs whose value is the answer: comparing one with a granting value (`== 'true'`, `== 'admin'`) in a
   * later `if:` is a gate. None is empty on the deny path (`'false'` is a true string), so an `if:` that only
   * tests one for truth is no gate, unless through `fromJSON` (`'false'` decodes to false).
   */
  answers: ReadonlySet<string>;
  /** What the action does for an account without the permission, in words (for one that does not fail). */
  deny: string;
  /** What else a reader of the finding needs to know, in words. */
  note?: string;
  /**
   * The activities (`github.event.action`) on which the action checks at all; on any other it ends its step
   * without failing it. Undefined: it checks on every occasion.
   */
  checksOn?: readonly string[];
  /** Outputs it sets only on the occasions it checks on (before the check): an `if:` on one skips a step on the others. */
  setOnCheck?: ReadonlySet<string>;
  /** When the action checks an account its inputs name: true when, with the step's inputs, that account is the actor. */
  checksActor?: (step: Step) => boolean;
}

/** An input naming whoever triggered the run (on a comment event, the commenter). */
const ACTOR_INPUT = /^\s*\$\{\{\s*github\.(?:actor|triggering_actor|event\.comment\.user\.login|event\.sender\.login)\s*\}\}\s*$/;

const OPEN_LEVELS = new Set(['none', 'read']);

const ACTIONS: readonly PermissionAction[] = [
  {
    slug: 'peter-evans/slash-command-dispatch',
    failsOnDeny: () => false,
    answers: new Set(),
    deny: 'logs that the command is not configured for their permission level and ends its step without failing it, dispatching nothing',
  },
  {
    slug: 'xt0rted/slash-command-action',
    failsOnDeny: (step) => !OPEN_LEVELS.has((getText(step.with, 'permission-level') ?? 'write').trim().toLowerCase()),
    answers: new Set(),
    deny: 'fails its step',
    note: 'it sets `command-name` before it checks the permission, so an `if:` on that output lets anyone through',
    checksOn: ['created', 'edited'],
    setOnCheck: new Set(['command-name', 'command-arguments']),
  },
  {
    slug: 'prince-chrismc/check-actor-permissions-action',
    failsOnDeny: () => true,
    answers: new Set(['permitted']),
    deny: 'fails its step and sets `permitted` to `false`',
  },
  {
    slug: 'actions-cool/check-user-permission',
    failsOnDeny: () => false,
    answers: new Set(['require-result', 'result', 'user-permission']),
    deny: 'records the answer in its outputs `require-result` and `user-permission` and succeeds',
  },
  {
    slug: 'lidofinance/check-user-permission',
    failsOnDeny: () => true,
    answers: new Set(),
    deny: 'fails its step',
  },
  {
    slug: 'skjnldsv/check-actor-permission',
    failsOnDeny: (step) => {
      const level = (getText(step.with, 'require') ?? '').trim().toLowerCase();
      return level !== '' && !OPEN_LEVELS.has(level);
    },
    answers: new Set(['result', 'user-permission']),
    deny: 'fails its step when `require` is set (and records the answer in `result`), else only records `user-permission`',
  },
  {
    slug: 'tspascoal/get-user-teams-membership',
    failsOnDeny: () => false,
    answers: new Set(['isteammember']),
    deny: 'records the answer in its output `isTeamMember` and succeeds',
    checksActor: (step) => getText(step.with, 'team') !== null && ACTOR_INPUT.test(getText(step.with, 'username') ?? ''),
  },
];

const BY_SLUG = new Map(ACTIONS.map((a) => [a.slug, a]));

/** The permission-checking action a step uses, or null. */
export function permissionAction(step: Step): PermissionAction | null {
  const found = step.usesRef?.kind === 'repository' ? (BY_SLUG.get(step.usesRef.slug.toLowerCase()) ?? null) : null;
  return found === null || found.checksActor === undefined || found.checksActor(step) ? found : null;
}

/** True when the step runs one of the permission actions this module knows, whatever account it is given to check. */
export function knownPermissionAction(step: Step): boolean {
  return step.usesRef?.kind === 'repository' && BY_SLUG.has(step.usesRef.slug.toLowerCase());
}

/** True when the step has `continue-on-error` set to anything but a literal false. */
export function continuesOnError(step: Step): boolean {
  const pair = step.node.pairs.find((p) => p.key.value === 'continue-on-error');
  if (pair === undefined) return false;
  const value = pair.value;
  return !(value?.kind === 'scalar' && (value.value === false || String(value.value).trim().toLowerCase() === 'false'));
}

/** True when the step is a permission action that fails the job for accounts without the permission. */
export function actionFailsJob(step: Step): boolean {
  const action = permissionAction(step);
  return action !== null && action.failsOnDeny(step) && !continuesOnError(step);
}

/**
 * Why a permission action before a later step does not stand in its way (for messages), or null when it
 * does (it fails the job) or the step is no such action.
 */
export function actionGatesOnlyItself(step: Step): string | null {
  const action = permissionAction(step);
  if (action === null) return null;
  if (action.failsOnDeny(step)) {
    if (!continuesOnError(step)) return null;
    return `\`${action.slug}\` fails its step for an account without the permission, but \`continue-on-error\` lets the job go on${action.note === undefined ? '' : `; ${action.note}`}`;
  }
  if (action.slug === 'xt0rted/slash-command-action') return `\`${action.slug}\` lets every account through at \`permission-level: ${getText(step.with, 'permission-level') ?? ''}\``;
  return `\`${action.slug}\` gates only what it does itself: for an account without the permission it ${action.deny}`;
}
