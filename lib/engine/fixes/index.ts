/**
 * The fix registry: rule id -> its fixer (`fixes/by-rule/<id>.ts`). A rule with a fixer declares it in its
 * `meta.fix`; a test checks the two agree.
 */
import dependabotMissingCooldown from './by-rule/dependabot-missing-cooldown.js';
import excessivePermissions from './by-rule/excessive-permissions.js';
import missingConcurrency from './by-rule/missing-concurrency.js';
import missingPermissions from './by-rule/missing-permissions.js';
import missingTimeout from './by-rule/missing-timeout.js';
import persistedCredentials from './by-rule/persisted-credentials.js';
import scriptInjection from './by-rule/script-injection.js';
import unpinnedAction from './by-rule/unpinned-action.js';
import unpinnedImage from './by-rule/unpinned-image.js';
import type { Fixer } from './types.js';

export const FIXERS: readonly Fixer[] = [dependabotMissingCooldown, excessivePermissions, missingConcurrency, missingPermissions, missingTimeout, persistedCredentials, scriptInjection, unpinnedAction, unpinnedImage];

const BY_RULE = new Map(FIXERS.map((f) => [f.ruleId, f]));

export function fixerFor(ruleId: string): Fixer | undefined {
  return BY_RULE.get(ruleId);
}

