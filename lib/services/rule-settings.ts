import type { User } from '../auth.js';
import { database } from '../db/connection.js';
import * as db from '../db/operations.js';
import type { RuleSetting } from '../db/types.js';
import { didYouMean } from '../cli/suggest.js';
import { CATALOG, isKnownRule } from '../engine/catalog.js';
import { checkRuleOptions } from '../engine/rule-options.js';
import type { Severity } from '../engine/types.js';
import { invalidRequest, notFound } from '../http/errors.js';

/**
 * Global rule preferences and per-repository overrides. Rows are sparse: a rule without a row is enabled,
 * an override wins over the global preference. A global preference may carry the rule's options
 * (lib/engine/rule-options.ts), which every scan of the user's repositories applies; a global preference or an
 * override may carry a severity (the override's wins), which re-rates the rule's findings in every later scan. Every call is scoped by the user; the database functions
 * check repository ownership (an unowned or unknown repository is a 404).
 */

function knownRule(ruleId: string): string {
  if (!isKnownRule(ruleId)) {
    throw invalidRequest('Unknown rule id; see GET /api/rules for the catalog.', [
      { location: 'path', path: ['rule_id'], message: `not a rule of the catalog${didYouMean(ruleId.slice(0, 100), CATALOG.map((rule) => rule.id))}` },
    ]);
  }
  return ruleId;
}

export async function listRuleSettings(user: User): Promise<RuleSetting[]> {
  return db.listRuleSettings(await database(), user.id);
}

/**
 * Upserts the global preference. `options` undefined keeps the stored options; `{}` clears them; another
 * object, checked against the rule's schema (a 400 naming the option otherwise), replaces them. What is
 * stored is what the client sent, not the defaults filled in, so a later default change reaches it.
 */
export async function setRuleSetting(user: User, ruleId: string, enabled: boolean, options?: Readonly<Record<string, unknown>>, severity?: Severity | null): Promise<void> {
  const id = knownRule(ruleId);
  if (options !== undefined) {
    const checked = checkRuleOptions(id, options);
    if (!checked.ok) {
      throw invalidRequest(`Invalid options for ${id}: ${checked.message}.`, [{ location: 'body', path: ['options', ...checked.path], message: checked.problem }]);
    }
  }
  await db.setRuleSetting(await database(), user.id, id, enabled, options, severity);
}

export async function clearRuleSetting(user: User, ruleId: string): Promise<void> {
  await db.clearRuleSetting(await database(), user.id, knownRule(ruleId));
}

export async function listRuleOverrides(user: User, repositoryId: string): Promise<RuleSetting[]> {
  const overrides = await db.listRuleOverrides(await database(), user.id, repositoryId);
  if (overrides === null) throw notFound();
  return overrides;
}

export async function setRuleOverride(user: User, repositoryId: string, ruleId: string, enabled: boolean, severity?: Severity | null): Promise<void> {
  await db.setRuleOverride(await database(), user.id, repositoryId, knownRule(ruleId), enabled, severity);
}

export async function clearRuleOverride(user: User, repositoryId: string, ruleId: string): Promise<void> {
  await db.clearRuleOverride(await database(), user.id, repositoryId, knownRule(ruleId));
}
