import * as v from 'valibot';
import { didYouMean } from '../cli/suggest.js';

/*
 * Per-rule options: the rules that take options, and the valibot schema of each (with its defaults). Kept
 * apart from the rules' code, like the generated metadata, so the CLI's config and the API's rule settings
 * validate options without loading the rule set; each rule declares the same schema as `options` in its
 * definition (tests/lib/engine/rule-options.test.ts checks the two agree).
 *
 * Keys are the same everywhere: in `.chainbreaker.yml` (`rules: { <id>: { options: {...} } }`) and in the
 * API's `PUT /api/rule-settings/{rule_id}` body (`{enabled, options}`). Every list is bounded.
 */

/** The most entries one option list holds. */
export const MAX_OPTION_ENTRIES = 100;
/** The longest entry of an option list, in characters. */
export const MAX_OPTION_ENTRY_LENGTH = 200;

function list(what: string, many: string, pattern: RegExp, hint: string) {
  const entry = v.pipe(
    v.string(`each entry must be ${what}`),
    v.nonEmpty(`each entry must be ${what}`),
    v.maxLength(MAX_OPTION_ENTRY_LENGTH, `each entry must be at most ${MAX_OPTION_ENTRY_LENGTH} characters`),
    v.regex(pattern, (issue) => `"${String(issue.input)}" is not ${what} (${hint})`),
  );
  return v.pipe(
    v.array(entry, `must be a list of ${many}`),
    v.maxLength(MAX_OPTION_ENTRIES, `must have at most ${MAX_OPTION_ENTRIES} entries`),
  );
}

// No regular-expression flags: the patterns go into the OpenAPI document as JSON Schema `pattern`s.
const HOST = /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
const OWNER = /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$/;
/**
 * A `uses:` pattern: `docker://<image glob>`, or `<owner>[/<repo>[/<path>]][@<ref>]` where each part may hold
 * `*` (any characters but `/`) or `**` (any characters).
 */
const USES_PATTERN = /^(docker:\/\/[A-Za-z0-9._*/:@-]+|[A-Za-z0-9*][A-Za-z0-9._*-]*(\/[A-Za-z0-9._*-]+)*(@[A-Za-z0-9._*/+-]+)?)$/;

export const PipeToShellOptions = v.pipe(
  v.strictObject({
    'trusted-hosts': v.optional(list('a host name', 'host names', HOST, 'like sh.rustup.rs, or *.example.com for its subdomains'), []),
  }),
  v.description('pipe-to-shell: `trusted-hosts`, hosts whose scripts the team trusts (`sh.rustup.rs`; `*.example.com` for its subdomains): their scripts fetched over HTTPS are not reported.'),
);
export type PipeToShellOptions = v.InferOutput<typeof PipeToShellOptions>;

export const UnpinnedActionOptions = v.pipe(
  v.strictObject({
    'trusted-owners': v.optional(list('a GitHub owner', 'GitHub owners', OWNER, 'a user or organisation name, like my-org'), []),
  }),
  v.description('unpinned-action: `trusted-owners`, GitHub users or organisations whose actions and reusable workflows may be used by tag or branch.'),
);
export type UnpinnedActionOptions = v.InferOutput<typeof UnpinnedActionOptions>;

const usesPatterns = () => v.optional(list('a uses pattern', 'uses patterns', USES_PATTERN, 'like actions/*, owner/repo, owner/repo@v1 or docker://*'));

export const ForbiddenUsesOptions = v.pipe(
  v.strictObject({ allow: usesPatterns(), deny: usesPatterns() }),
  v.check((o) => o.allow === undefined || o.deny === undefined, 'give either allow (an allow-list) or deny (a deny-list), not both'),
  v.description('forbidden-uses: `allow` (every other action is reported) or `deny` (these are reported), not both; patterns like `actions/*`, `owner/repo`, `owner/repo@v1`, `docker://*`. Without either nothing is forbidden.'),
);
export type ForbiddenUsesOptions = v.InferOutput<typeof ForbiddenUsesOptions>;

/**
 * The shape every rule's options share, for where the rule is not known yet (a config file's rules, an API
 * body): an object of option names. valibot's record accepts a list too, which the key pattern turns away.
 */
export const OptionsObject = v.record(
  v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9-]*$/, 'must be a mapping of option names to values, not a list')),
  v.unknown(),
  'must be a mapping of option names to values',
);

/** An options schema: a strict object whose keys are the rule's options (possibly inside a pipe of checks). */
export type RuleOptionsSchema = v.GenericSchema<unknown, Readonly<Record<string, unknown>>>;

/** The rules that take options, by id. */
export const RULE_OPTIONS: Readonly<Record<string, RuleOptionsSchema>> = {
  'pipe-to-shell': PipeToShellOptions,
  'unpinned-action': UnpinnedActionOptions,
  'forbidden-uses': ForbiddenUsesOptions,
};

/** The option names of a rule's schema ([] for a rule without options). */
export function optionKeys(ruleId: string): string[] {
  const schema = RULE_OPTIONS[ruleId] as (RuleOptionsSchema & { entries?: object; pipe?: readonly { entries?: object }[] }) | undefined;
  if (schema === undefined) return [];
  const entries = schema.entries ?? schema.pipe?.[0]?.entries ?? {};
  return Object.keys(entries);
}

/** A failure's `message` starts with where (`options.deny.0: ...`); `path` is that place inside the options and `problem` the rest. */
export type OptionsCheck = { ok: true; value: Readonly<Record<string, unknown>> } | { ok: false; message: string; path: string[]; problem: string };

/** A name from the input, as messages quote it: bounded. */
function shown(name: string): string {
  return name.length > 60 ? `${name.slice(0, 60)}…` : name;
}

function failure(path: string[], problem: string): OptionsCheck {
  return { ok: false, message: `options${path.length === 0 ? '' : `.${path.join('.')}`}${path.length === 0 && problem.startsWith('must') ? ' ' : ': '}${problem}`, path, problem };
}

/**
 * Validates `raw` against the rule's options schema and fills in the defaults. The message is one line: the
 * option's path and what is wrong, with a "did you mean" for an unknown option name.
 */
export function checkRuleOptions(ruleId: string, raw: unknown): OptionsCheck {
  const schema = RULE_OPTIONS[ruleId];
  const keys = optionKeys(ruleId);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return failure([], 'must be a mapping of option names to values');
  if (schema === undefined) {
    const first = Object.keys(raw)[0];
    return first === undefined ? { ok: true, value: Object.freeze({}) } : failure([], `this rule takes no options (got "${shown(first)}")`);
  }
  for (const key of Object.keys(raw)) {
    if (!keys.includes(key)) return failure([], `unknown option "${shown(key)}"${didYouMean(key, keys)} (this rule takes ${keys.join(', ')})`);
  }
  const result = v.safeParse(schema, raw);
  // Frozen, lists included: the resolved defaults are shared by every scan.
  if (result.success) return { ok: true, value: Object.freeze(Object.fromEntries(Object.entries(result.output).map(([k, x]) => [k, Array.isArray(x) ? Object.freeze([...x]) : x]))) };
  const issue = result.issues[0];
  return failure(issue.path?.map((p) => String(p.key)) ?? [], issue.message);
}

export class RuleOptionsError extends Error {}

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});
/**
 * Each rule's defaults (`EMPTY` for a rule without options), resolved once: most scans set no options, and
 * every scan resolves every rule's. Looked up here first, because reading a rule id that `RULE_OPTIONS`
 * lacks (most of them) walks its prototype chain on every call.
 */
const DEFAULTS = new Map<string, Readonly<Record<string, unknown>>>();

/** The rule's options with defaults filled in; throws `RuleOptionsError` for options its schema rejects. */
export function resolveRuleOptions(ruleId: string, raw: unknown): Readonly<Record<string, unknown>> {
  if (raw === undefined || raw === null) {
    const known = DEFAULTS.get(ruleId);
    if (known !== undefined) return known;
    if (RULE_OPTIONS[ruleId] === undefined) {
      DEFAULTS.set(ruleId, EMPTY);
      return EMPTY;
    }
  }
  const checked = checkRuleOptions(ruleId, raw ?? {});
  if (!checked.ok) throw new RuleOptionsError(`${ruleId}: ${checked.message}`);
  if (raw === undefined || raw === null) DEFAULTS.set(ruleId, checked.value);
  return checked.value;
}
