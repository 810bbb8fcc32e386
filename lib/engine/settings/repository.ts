import { readArea } from './areas.js';
import { flag, text } from './json.js';
import type { SettingsSnapshot } from './snapshot.js';

/** 'public', 'private' (private and internal repositories), or null when the repository is unreadable. */
export function visibility(snapshot: SettingsSnapshot): 'public' | 'private' | null {
  const repository = readArea(snapshot, 'repository');
  if (!repository.readable) return null;
  const declared = text(repository.value, 'visibility');
  if (declared !== undefined) return declared === 'public' ? 'public' : 'private';
  const isPrivate = flag(repository.value, 'private');
  return isPrivate === undefined ? null : isPrivate ? 'private' : 'public';
}

/**
 * True only when the Actions permissions say Actions is off for the repository: then no workflow
 * runs, and the Actions settings carry no risk until it is turned back on. Unknown counts as on.
 */
export function actionsDisabled(snapshot: SettingsSnapshot): boolean {
  const actions = readArea(snapshot, 'actions_permissions');
  return actions.readable && flag(actions.value, 'enabled') === false;
}

/** The default branch, quoted for a message: `` `main` ``, or "the default branch" when no area names it. */
export function branchLabel(snapshot: SettingsSnapshot): string {
  const name = defaultBranch(snapshot);
  return name === null ? 'the default branch' : `\`${name}\``;
}

/** A branch name git accepts, bounded (no leading `/`, no `//` or `..`): anything else, a hostile value, is none. */
const BRANCH_NAME = /^(?!\/|.*\/\/|.*\.\.)[A-Za-z0-9._/-]{1,255}$/;

export function isBranchName(name: string): boolean {
  return BRANCH_NAME.test(name);
}

export function defaultBranch(snapshot: SettingsSnapshot): string | null {
  const repository = readArea(snapshot, 'repository');
  const name = repository.readable ? text(repository.value, 'default_branch') : undefined;
  if (name !== undefined && name !== '') return name;
  // The protection body names its branch only in its URL: .../branches/{branch}/protection.
  const protection = readArea(snapshot, 'branch_protection');
  const url = protection.readable ? text(protection.value, 'url') : undefined;
  const match = url === undefined ? null : /\/branches\/([^/]+)\/protection$/.exec(url);
  return match?.[1] === undefined ? null : safeDecode(match[1]);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The default branch as the subject of a sentence: "Default branch `main`" or "The default branch". */
export function branchSubject(snapshot: SettingsSnapshot): string {
  const name = defaultBranch(snapshot);
  return name === null ? 'The default branch' : `Default branch \`${name}\``;
}
