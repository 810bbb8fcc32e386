import type { Step } from '../model/workflow.js';
import { isFullSha } from '../model/uses.js';
import { parseRefVersion, versionComment } from './action-version.js';

/**
 * The major version of the action a step runs: from its ref (`v4`, `v4.1.0`), or for a SHA pin from the
 * version comment beside it (`@<sha> # v4.2.0`). Null for branches, bare SHAs and anything else.
 */
export function actionMajorVersion(step: Step): number | null {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository') return null;
  const version = parseRefVersion(ref.ref) ?? (isFullSha(ref.ref) && step.uses !== undefined ? versionComment(step.owner.file, step.uses) : null);
  return version?.parts[0] ?? null;
}
