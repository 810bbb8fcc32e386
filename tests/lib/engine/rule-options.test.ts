import { describe, expect, it } from 'vitest';
import { checkRuleOptions, MAX_OPTION_ENTRIES, optionKeys, RULE_OPTIONS } from '../../../lib/engine/rule-options.js';
import { RULES } from '../../../lib/engine/rules/index.js';

describe('rule options', () => {
  it('every rule declaring options declares the schema of RULE_OPTIONS, and every schema there belongs to a rule', () => {
    const declared = Object.fromEntries(RULES.flatMap((r) => ('options' in r && r.options !== undefined ? [[r.meta.id, r.options]] : [])));
    expect(Object.keys(declared).sort()).toEqual(Object.keys(RULE_OPTIONS).sort());
    for (const [id, schema] of Object.entries(declared)) expect(schema, id).toBe(RULE_OPTIONS[id]);
  });

  it('fills in the defaults', () => {
    expect(checkRuleOptions('pipe-to-shell', {})).toEqual({ ok: true, value: { 'trusted-hosts': [] } });
    expect(checkRuleOptions('unpinned-action', {})).toEqual({ ok: true, value: { 'trusted-owners': [] } });
    expect(checkRuleOptions('forbidden-uses', {})).toEqual({ ok: true, value: {} });
    expect(checkRuleOptions('missing-timeout', {})).toEqual({ ok: true, value: {} });
    expect(optionKeys('forbidden-uses')).toEqual(['allow', 'deny']);
    expect(optionKeys('missing-timeout')).toEqual([]);
  });

  it('says what is wrong in one line, with a suggestion for a mistyped option', () => {
    const message = (id: string, raw: unknown) => {
      const result = checkRuleOptions(id, raw);
      return result.ok ? 'ok' : result.message;
    };
    expect(message('pipe-to-shell', { 'trusted-host': ['x.test'] })).toBe('options: unknown option "trusted-host" (did you mean "trusted-hosts"?) (this rule takes trusted-hosts)');
    expect(message('missing-timeout', { minutes: 5 })).toBe('options: this rule takes no options (got "minutes")');
    expect(message('pipe-to-shell', { 'trusted-hosts': 'x.test' })).toBe('options.trusted-hosts: must be a list of host names');
    expect(message('pipe-to-shell', { 'trusted-hosts': ['https://x.test/'] })).toMatch(/^options\.trusted-hosts\.0: "https:\/\/x\.test\/" is not a host name/);
    expect(message('unpinned-action', { 'trusted-owners': ['my-org/repo'] })).toMatch(/is not a GitHub owner/);
    expect(message('forbidden-uses', { allow: ['a'], deny: ['b'] })).toBe('options: give either allow (an allow-list) or deny (a deny-list), not both');
    expect(message('forbidden-uses', { deny: ['x'.repeat(201)] })).toBe('options.deny.0: each entry must be at most 200 characters');
    expect(message('forbidden-uses', { deny: Array.from({ length: MAX_OPTION_ENTRIES + 1 }, (_, i) => `o${i}`) })).toBe('options.deny: must have at most 100 entries');
    expect(message('forbidden-uses', [])).toBe('options must be a mapping of option names to values');
    expect(message('forbidden-uses', { deny: Array.from({ length: MAX_OPTION_ENTRIES }, (_, i) => `o${i}/*`) })).toBe('ok');
  });
});
