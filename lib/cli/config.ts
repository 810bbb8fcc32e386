import * as v from 'valibot';
import { parseDocument } from 'yaml';
import { CATALOG, isKnownRule } from '../engine/catalog.js';
import { checkRuleOptions, OptionsObject } from '../engine/rule-options.js';
import { SEVERITIES, type Severity } from '../engine/types.js';
import { didYouMean } from './suggest.js';

/*
 * `.chainbreaker.yml` at the repository root (or `--config FILE`): the team's defaults for the CLI.
 * Precedence, as in the API's rule settings: the built-in defaults < this file < command-line flags.
 *
 *   ruleset: all                 # or owasp
 *   fail-on: high                # critical, high, medium, low, info, none (attack paths count at their severity)
 *   min-severity: low            # findings below are not reported
 *   baseline: .chainbreaker-baseline.json
 *   docs-url: https://chainbreaker.example.com/rules/{id}   # where "Docs:" links and SARIF helpUri point
 *   ignore:                      # path globs, relative to the repository root
 *     - .github/workflows/experimental-*.yml
 *   rules:
 *     missing-timeout: { enabled: false }
 *     unpinned-action:
 *       severity: MEDIUM
 *       options: { trusted-owners: [my-org] }   # per-rule options (lib/engine/rule-options.ts)
 *
 * Validated with valibot; an unknown key or rule id is a usage error with a "did you mean" suggestion.
 */

export const CONFIG_FILE = '.chainbreaker.yml';
/** Read like CONFIG_FILE when that one is absent. */
export const CONFIG_FILE_YAML = '.chainbreaker.yaml';

const SEVERITY_NAMES = SEVERITIES.map((s) => s.toLowerCase());
const severity = v.pipe(
  v.string(),
  v.transform((s) => s.toUpperCase()),
  v.picklist(SEVERITIES, `must be one of ${SEVERITY_NAMES.join(', ')}`),
);

const RuleEntry = v.strictObject({
  enabled: v.optional(v.boolean('must be true or false')),
  severity: v.optional(severity),
  /** Checked against the rule's own schema (`checkRuleOptions`) once the file's shape is known to be right. */
  options: v.optional(OptionsObject),
});

const ConfigSchema = v.strictObject({
  ruleset: v.optional(v.picklist(['all', 'owasp'], 'must be all or owasp')),
  'fail-on': v.optional(v.picklist(['critical', ...SEVERITY_NAMES, 'none'], `must be one of ${['critical', ...SEVERITY_NAMES, 'none'].join(', ')}`)),
  'min-severity': v.optional(v.picklist(SEVERITY_NAMES, `must be one of ${SEVERITY_NAMES.join(', ')}`)),
  baseline: v.optional(v.pipe(v.string('must be a file path'), v.nonEmpty('must be a file path'))),
  'docs-url': v.optional(v.pipe(v.string(), v.url('must be an absolute URL'), v.includes('{id}', 'must contain {id}, replaced by the rule id'))),
  ignore: v.optional(v.array(v.pipe(v.string('must be a path glob'), v.nonEmpty('must be a path glob')), 'must be a list of path globs')),
  rules: v.optional(v.record(v.string(), RuleEntry, 'must map rule ids to { enabled, severity, options }')),
});

export type Config = v.InferOutput<typeof ConfigSchema>;

const TOP_KEYS = Object.keys(ConfigSchema.entries);
const RULE_KEYS = Object.keys(RuleEntry.entries);

export class ConfigError extends Error {}

/**
 * An unknown name, echoed only when it is close to a known one (a typo: `fail_on`). A name like no setting is
 * not shown: the file may not be a config at all (a link to `.env`), and its content is not ours to print.
 */
function unknown(what: string, value: string, known: readonly string[], name: string): string {
  const hint = didYouMean(value, known);
  return hint === '' ? `an unknown ${what} (not shown: it is like no setting; is ${name} a Chainbreaker config?)` : `unknown ${what} "${value}"${hint}`;
}

/** Parses and validates a config file's text; `name` is how the file is named in messages. */
export function parseConfig(text: string, name: string): Config {
  const document = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const problem = document.errors[0];
  if (problem !== undefined) {
    const line = problem.linePos?.[0].line;
    throw new ConfigError(`${name}${line === undefined ? '' : `:${line}`}: not valid YAML (${problem.message.split('\n')[0] ?? ''})`);
  }
  const value: unknown = document.toJS({ maxAliasCount: 100 }) ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(`${name}: must be a mapping of settings (see "chainbreaker scan --help")`);
  // Unknown names first, each with the closest known one: the most common mistake is a typo.
  for (const key of Object.keys(value)) {
    if (key === 'pedantic') throw new ConfigError(`${name}: pedantic: no longer needed: every rule runs by default, and the text report summarizes LOW and INFO findings; remove the key (turn a rule off with rules.<id>.enabled: false)`);
    if (!TOP_KEYS.includes(key)) throw new ConfigError(`${name}: ${unknown('key', key, TOP_KEYS, name)}`);
  }
  const rules = (value as { rules?: unknown }).rules;
  if (typeof rules === 'object' && rules !== null && !Array.isArray(rules)) {
    for (const [id, entry] of Object.entries(rules)) {
      if (!isKnownRule(id)) throw new ConfigError(`${name}: rules: ${unknown('rule id', id, CATALOG.map((r) => r.id), name)}`);
      if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
        for (const key of Object.keys(entry)) {
          if (!RULE_KEYS.includes(key)) throw new ConfigError(`${name}: rules.${id}: ${unknown('key', key, RULE_KEYS, name)} (a rule takes enabled, severity and options)`);
        }
      }
    }
  }
  const result = v.safeParse(ConfigSchema, value);
  if (!result.success) {
    const issue = result.issues[0];
    const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    throw new ConfigError(`${name}: ${path === '' ? '' : `${path}: `}${issue.message}`);
  }
  for (const [id, entry] of Object.entries(result.output.rules ?? {})) {
    if (entry.options === undefined) continue;
    const checked = checkRuleOptions(id, entry.options);
    if (!checked.ok) throw new ConfigError(`${name}: rules.${id}.${checked.message}`);
  }
  return result.output;
}

/** Each rule's options from the config, as the engine takes them (`ScanOptions.ruleOptions`; validated by `parseConfig`). */
export function configRuleOptions(config: Config): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [id, entry] of Object.entries(config.rules ?? {})) if (entry.options !== undefined) out[id] = entry.options;
  return out;
}

/** Rules the config turns off. */
export function configDisabled(config: Config): string[] {
  return Object.entries(config.rules ?? {})
    .filter(([, entry]) => entry.enabled === false)
    .map(([id]) => id);
}

/** Severity overrides from the config. */
export function configSeverities(config: Config): Map<string, Severity> {
  const out = new Map<string, Severity>();
  for (const [id, entry] of Object.entries(config.rules ?? {})) if (entry.severity !== undefined) out.set(id, entry.severity);
  return out;
}
