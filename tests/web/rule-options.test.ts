// The Rule settings view's option fields are the rules' own option keys (lib/engine/rule-options.ts), and
// its form text round-trips to the options object the API checks.

import { describe, expect, it } from 'vitest';
import { checkRuleOptions, optionKeys, RULE_OPTIONS } from '../../lib/engine/rule-options.js';
import { RULE_OPTION_FIELDS, optionsFromText, optionsSummary, textFromOptions } from '../../web/src/data/rule-options.js';

describe('rule options in the web client', () => {
  it('offers exactly the options each rule’s schema takes', () => {
    expect(Object.keys(RULE_OPTION_FIELDS).sort()).toEqual(Object.keys(RULE_OPTIONS).sort());
    for (const id of Object.keys(RULE_OPTIONS)) expect((RULE_OPTION_FIELDS[id] ?? []).map((f) => f.key).sort(), id).toEqual(optionKeys(id).sort());
  });

  it('turns the form’s lines into options the schema accepts, empty lists left out', () => {
    const options = optionsFromText('forbidden-uses', { allow: '\n  \n', deny: ' docker://*\nevil/action@v1 \n' });
    expect(options).toEqual({ deny: ['docker://*', 'evil/action@v1'] });
    expect(checkRuleOptions('forbidden-uses', options).ok).toBe(true);
    expect(optionsFromText('pipe-to-shell', { 'trusted-hosts': '' })).toEqual({});
    expect(textFromOptions('forbidden-uses', options)).toEqual({ allow: '', deny: 'docker://*\nevil/action@v1' });
    expect(optionsSummary(options)).toBe('deny: docker://*, evil/action@v1');
    // Both lists: the schema's own message, which the API answers with.
    const both = checkRuleOptions('forbidden-uses', optionsFromText('forbidden-uses', { allow: 'actions/*', deny: 'docker://*' }));
    expect(both.ok ? '' : both.message).toContain('not both');
  });
});
