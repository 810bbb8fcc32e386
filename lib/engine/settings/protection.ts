import { readArea, type AreaRead, type SettingsArea } from './areas.js';
import { field, flag, integer, isObject, listing, objects, text, type JsonObject } from './json.js';
import type { SettingsSnapshot } from './snapshot.js';

/**
 * What one protection mechanism (classic branch protection, or the rulesets' rules together) enforces
 * on the default branch.
 */
export interface ProtectionFacts {
  pullRequest: boolean;
  approvals: number;
  dismissStale: boolean;
  /** "Require approval of the most recent reviewable push": a push after an approval needs a new one. */
  lastPushApproval: boolean;
  codeOwners: boolean;
  statusChecks: string[];
  signatures: boolean;
  blocksForcePush: boolean;
  blocksDeletion: boolean;
}

/**
 * The answer to "does the default branch enforce X?" where classic protection and rulesets each
 * suffice: `satisfied` when a readable mechanism enforces it; otherwise `undecided` when a mechanism
 * could not be read (it might enforce X), `unprotected` when neither exists, else `violated`.
 */
export type Outcome = 'satisfied' | 'violated' | 'unprotected' | 'undecided';

/**
 * The requirement each branch rule checks (its finding needs the outcome `violated`, or `unprotected`
 * for branch-protection-missing); settings-unreadable lists those an unreadable area leaves undecided.
 */
export const REQUIREMENTS = {
  'branch-protection-missing': () => true,
  'force-push-allowed': (f) => f.blocksForcePush,
  'branch-deletion-allowed': (f) => f.blocksDeletion,
  'review-not-required': (f) => f.approvals >= 1,
  'review-count-low': (f) => f.approvals >= 2,
  'stale-reviews-kept': (f) => f.dismissStale || f.lastPushApproval,
  'codeowners-review-not-required': (f) => f.codeOwners,
  'status-checks-not-required': (f) => f.statusChecks.length > 0,
  'signed-commits-not-required': (f) => f.signatures,
} satisfies Record<string, (facts: ProtectionFacts) => boolean>;

/** A ruleset whose rules apply to the default branch, with its body when the snapshot has it. */
export interface AppliedRuleset {
  id: number;
  body: JsonObject | undefined;
  label: string;
}

export interface ProtectionAssessment {
  check(holds: (facts: ProtectionFacts) => boolean): Outcome;
  /** The readable mechanisms' facts combined: the highest approval count, every status check, any flag. */
  readonly combined: ProtectionFacts;
  /** The mechanisms that exist, for messages: "classic branch protection and ruleset `main` (id 42)". */
  readonly sources: string;
  /** "classic branch protection does not <what>" / "classic branch protection and ruleset 42 do not <what>". */
  lacks(what: string): string;
  /** The protection areas that could not be read. */
  readonly unreadable: SettingsArea[];
}

const UNNAMED_RULESETS = 'the active rulesets';

export function assessProtection(snapshot: SettingsSnapshot): ProtectionAssessment {
  const classic = readArea(snapshot, 'branch_protection');
  const rules = readArea(snapshot, 'branch_rules');
  const classicFacts = classic.readable && classic.value !== null ? factsOfClassic(classic.value) : null;
  const ruleFacts = rules.readable && rules.value.length > 0 ? factsOfRules(rules.value) : null;
  const present = [classicFacts, ruleFacts].filter((f): f is ProtectionFacts => f !== null);
  const unreadable: SettingsArea[] = [];
  if (!classic.readable) unreadable.push('branch_protection');
  if (!rules.readable) unreadable.push('branch_rules');

  const sourceNames: string[] = [];
  if (classicFacts !== null) sourceNames.push('classic branch protection');
  const applied = appliedRulesets(snapshot) ?? [];
  for (const ruleset of applied) sourceNames.push(ruleset.label);
  // Rules saved without their ruleset_id still protect the branch.
  if (ruleFacts !== null && applied.length === 0) sourceNames.push(UNNAMED_RULESETS);

  return {
    check(holds) {
      if (present.some(holds)) return 'satisfied';
      if (unreadable.length > 0) return 'undecided';
      return present.length === 0 ? 'unprotected' : 'violated';
    },
    combined: combine(present),
    sources: listing(sourceNames),
    lacks: (what) => `${listing(sourceNames)} ${sourceNames.length === 1 && sourceNames[0] !== UNNAMED_RULESETS ? 'does' : 'do'} not ${what}`,
    unreadable,
  };
}

function factsOfClassic(body: JsonObject): ProtectionFacts {
  const reviews = field(body, 'required_pull_request_reviews');
  const pullRequest = isObject(reviews);
  const checks = field(body, 'required_status_checks');
  const contexts = [
    ...(Array.isArray(field(checks, 'contexts')) ? (field(checks, 'contexts') as unknown[]).filter((c): c is string => typeof c === 'string') : []),
    ...(objects(checks, 'checks') ?? []).map((c) => text(c, 'context')).filter((c): c is string => c !== undefined),
  ];
  return {
    pullRequest,
    // Bodies from before configurable counts (old Enterprise Server) mean one approval.
    approvals: pullRequest ? Math.max(0, integer(reviews, 'required_approving_review_count') ?? 1) : 0,
    dismissStale: flag(reviews, 'dismiss_stale_reviews') === true,
    lastPushApproval: flag(reviews, 'require_last_push_approval') === true,
    codeOwners: flag(reviews, 'require_code_owner_reviews') === true,
    statusChecks: [...new Set(contexts)],
    signatures: flag(body, 'required_signatures', 'enabled') === true,
    // Classic protection blocks force pushes and deletion unless explicitly allowed.
    blocksForcePush: flag(body, 'allow_force_pushes', 'enabled') !== true,
    blocksDeletion: flag(body, 'allow_deletions', 'enabled') !== true,
  };
}

function factsOfRules(rules: JsonObject[]): ProtectionFacts {
  const facts = emptyFacts();
  for (const rule of rules) {
    const parameters = field(rule, 'parameters');
    switch (text(rule, 'type')) {
      case 'pull_request':
        facts.pullRequest = true;
        facts.approvals = Math.max(facts.approvals, integer(parameters, 'required_approving_review_count') ?? 0);
        facts.dismissStale ||= flag(parameters, 'dismiss_stale_reviews_on_push') === true;
        facts.lastPushApproval ||= flag(parameters, 'require_last_push_approval') === true;
        facts.codeOwners ||= flag(parameters, 'require_code_owner_review') === true;
        break;
      case 'required_status_checks':
        for (const c of objects(parameters, 'required_status_checks') ?? []) {
          const context = text(c, 'context');
          if (context !== undefined) facts.statusChecks.push(context);
        }
        break;
      case 'workflows':
        // Required workflows gate merges the way required status checks do.
        for (const w of objects(parameters, 'workflows') ?? []) {
          const path = text(w, 'path');
          if (path !== undefined) facts.statusChecks.push(`workflow ${path}`);
        }
        break;
      case 'required_signatures':
        facts.signatures = true;
        break;
      case 'non_fast_forward':
        facts.blocksForcePush = true;
        break;
      case 'deletion':
        facts.blocksDeletion = true;
        break;
      default:
        break;
    }
  }
  facts.statusChecks = [...new Set(facts.statusChecks)];
  return facts;
}

function emptyFacts(): ProtectionFacts {
  return {
    pullRequest: false,
    approvals: 0,
    dismissStale: false,
    lastPushApproval: false,
    codeOwners: false,
    statusChecks: [],
    signatures: false,
    blocksForcePush: false,
    blocksDeletion: false,
  };
}

function combine(all: readonly ProtectionFacts[]): ProtectionFacts {
  const facts = emptyFacts();
  for (const f of all) {
    facts.pullRequest ||= f.pullRequest;
    facts.approvals = Math.max(facts.approvals, f.approvals);
    facts.dismissStale ||= f.dismissStale;
    facts.lastPushApproval ||= f.lastPushApproval;
    facts.codeOwners ||= f.codeOwners;
    facts.statusChecks = [...new Set([...facts.statusChecks, ...f.statusChecks])];
    facts.signatures ||= f.signatures;
    facts.blocksForcePush ||= f.blocksForcePush;
    facts.blocksDeletion ||= f.blocksDeletion;
  }
  return facts;
}

/**
 * The rulesets whose rules `branch_rules` lists for the default branch, in order of first appearance,
 * each with its body from `rulesets` when that area has it; null when `branch_rules` is unreadable.
 */
export function appliedRulesets(snapshot: SettingsSnapshot): AppliedRuleset[] | null {
  const rules = readArea(snapshot, 'branch_rules');
  if (!rules.readable) return null;
  const bodies = readArea(snapshot, 'rulesets');
  const out: AppliedRuleset[] = [];
  for (const rule of rules.value) {
    const id = integer(rule, 'ruleset_id');
    if (id === undefined || out.some((r) => r.id === id)) continue;
    const body = bodies.readable ? bodies.value.find((b) => integer(b, 'id') === id) : undefined;
    const name = text(body, 'name');
    const organization = (text(rule, 'ruleset_source_type') ?? text(body, 'source_type')) === 'Organization';
    const kind = organization ? 'organization ruleset' : 'ruleset';
    out.push({ id, body, label: name === undefined ? `${kind} ${id}` : `${kind} \`${name}\` (id ${id})` });
  }
  return out;
}

export interface BypassAssessment {
  /** Who may bypass which mechanism, one sentence fragment each. */
  bypasses: string[];
  /** Classic protection could not be read, so whether it binds administrators is unknown. */
  classicUnknown: boolean;
  /** Applied rulesets whose bypass list the snapshot lacks. */
  rulesetsUnknown: AppliedRuleset[];
  /** Why those bypass lists are missing. */
  rulesetsReason: string;
}

/**
 * Who can bypass the default branch's protection: classic protection that does not bind administrators
 * (`enforce_admins` off), and rulesets whose bypass list holds a repository role or an organization or
 * enterprise owner. Teams, apps and deploy keys in a bypass list are deliberate, narrow exceptions and
 * are not reported.
 */
export function assessBypass(snapshot: SettingsSnapshot): BypassAssessment {
  const bypasses: string[] = [];
  const classic = readArea(snapshot, 'branch_protection');
  if (classic.readable && classic.value !== null && flag(classic.value, 'enforce_admins', 'enabled') !== true) {
    bypasses.push('classic branch protection does not bind administrators ("Do not allow bypassing the above settings" is off)');
  }
  const bodies: AreaRead<JsonObject[]> = readArea(snapshot, 'rulesets');
  const rulesetsUnknown: AppliedRuleset[] = [];
  for (const ruleset of appliedRulesets(snapshot) ?? []) {
    const actors = objects(ruleset.body, 'bypass_actors');
    if (actors === undefined) {
      rulesetsUnknown.push(ruleset);
      continue;
    }
    for (const actor of actors) {
      const who = privilegedActor(actor);
      if (who !== null) bypasses.push(`${ruleset.label} lets ${who} bypass it ${bypassMode(text(actor, 'bypass_mode'))}`);
    }
  }
  const rulesetsReason = !bodies.readable
    ? bodies.reason
    : `no body with \`bypass_actors\` for ${listing(rulesetsUnknown.map((r) => r.label))}; GitHub shows bypass lists only to callers who can edit a ruleset`;
  return { bypasses, classicUnknown: !classic.readable, rulesetsUnknown, rulesetsReason };
}

/** GitHub's ids of the built-in repository roles that a bypass list can hold (others are custom roles). */
const REPOSITORY_ROLES: Readonly<Record<number, string>> = { 2: 'Maintain', 4: 'Write', 5: 'Admin' };

function privilegedActor(actor: JsonObject): string | null {
  switch (text(actor, 'actor_type')) {
    case 'RepositoryRole': {
      const id = integer(actor, 'actor_id');
      const role = id === undefined ? undefined : REPOSITORY_ROLES[id];
      if (role === 'Admin') return 'the repository Admin role';
      if (role !== undefined) return `the repository ${role} role (everyone with ${role.toLowerCase()} access)`;
      return `a custom repository role (id ${id ?? '?'})`;
    }
    case 'OrganizationAdmin':
      return 'organization owners';
    case 'EnterpriseOwner':
      return 'enterprise owners';
    default:
      return null;
  }
}

function bypassMode(mode: string | undefined): string {
  switch (mode) {
    case 'pull_request':
      return 'on pull requests (merging without the required reviews and checks)';
    case 'exempt':
      return 'silently (exempt: the rules never apply to them)';
    default:
      return 'always (direct pushes included)';
  }
}
