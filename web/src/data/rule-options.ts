/**
 * The options the Rule settings view edits, per rule: each a list of strings, one per line in the form. The
 * API checks them against the rule's own schema (lib/engine/rule-options.ts) and answers a 400 with the
 * schema's message, which the view shows; tests/web/rule-options.test.ts holds this table to that schema's keys.
 */
export interface OptionField {
  key: string;
  label: string;
  hint: string;
}

export const RULE_OPTION_FIELDS: Readonly<Record<string, readonly OptionField[]>> = {
  'forbidden-uses': [
    { key: 'allow', label: 'Allow only', hint: 'an allow-list: every other action is reported (actions/*, owner/repo, owner/repo@v1, docker://*)' },
    { key: 'deny', label: 'Deny', hint: 'a deny-list: these are reported (give allow or deny, not both)' },
  ],
  'pipe-to-shell': [{ key: 'trusted-hosts', label: 'Trusted hosts', hint: 'hosts whose scripts fetched over HTTPS are not reported (sh.rustup.rs, *.example.com)' }],
  'unpinned-action': [{ key: 'trusted-owners', label: 'Trusted owners', hint: 'users or organisations whose actions may be used by tag or branch (my-org)' }],
};

/** The form's text (one entry per line) as the options object: empty lists left out, so `{}` means the defaults. */
export function optionsFromText(ruleId: string, text: Readonly<Record<string, string>>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const field of RULE_OPTION_FIELDS[ruleId] ?? []) {
    const entries = (text[field.key] ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    if (entries.length > 0) out[field.key] = entries;
  }
  return out;
}

/** Stored options as the form's text. */
export function textFromOptions(ruleId: string, options: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of RULE_OPTION_FIELDS[ruleId] ?? []) {
    const value = options?.[field.key];
    out[field.key] = Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string').join('\n') : '';
  }
  return out;
}

/** A one-line summary of stored options (`deny: docker://*, a/b`), or ''. */
export function optionsSummary(options: Readonly<Record<string, unknown>> | undefined): string {
  if (!options) return '';
  return Object.entries(options)
    .filter(([, v]) => Array.isArray(v) && v.length > 0)
    .map(([k, v]) => `${k}: ${(v as unknown[]).map(String).join(', ')}`)
    .join('; ');
}
