/**
 * The fix registry: rule id -> its fixer (`rules/<id>.fix.ts`). A rule with a fixer declares it in its
 * `meta.fix`; a test checks the two agree.
 */
import dependabotMissingCooldown from '../rules/dependabot-missing-cooldown.fix.js';
import excessivePermissions from '../rules/excessive-permissions.fix.js';
import missingConcurrency from '../rules/missing-concurrency.fix.js';
import missingPermissions from '../rules/missing-permissions.fix.js';
import missingTimeout from '../rules/missing-timeout.fix.js';
import persistedCredentials from '../rules/persisted-credentials.fix.js';
import scriptInjection from '../rules/script-injection.fix.js';
import unpinnedAction from '../rules/unpinned-action.fix.js';
import unpinnedImage from '../rules/unpinned-image.fix.js';
import type { Fixer } from './types.js';

export const FIXERS: readonly Fixer[] = [dependabotMissingCooldown, excessivePermissions, missingConcurrency, missingPermissions, missingTimeout, persistedCredentials, scriptInjection, unpinnedAction, unpinnedImage];

const BY_RULE = new Map(FIXERS.map((f) => [f.ruleId, f]));

export function fixerFor(ruleId: string): Fixer | undefined {
  return BY_RULE.get(ruleId);
}

