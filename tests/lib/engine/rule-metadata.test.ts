// The generated rule metadata (lib/engine/rule-metadata.generated.ts, `npm run gen:rules`) is what the
// registry holds, byte for byte: endpoints that read it instead of importing the rule set see the same
// catalog, ids and recommendations.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG, catalogEntry, isKnownRule, ruleMeta } from '../../../lib/engine/catalog.js';
import { RULES } from '../../../lib/engine/rules/index.js';
import { RULE_METADATA } from '../../../lib/engine/rule-metadata.generated.js';
import { GENERATED_MODULE_URL, RULES_DOC_URL, generateRuleMetadataModule, withRulesTable } from '../../../scripts/gen-rule-metadata.js';

describe('generated rule metadata', () => {
  it('is the committed output of the generator (run `npm run gen:rules` after changing a rule)', () => {
    expect(readFileSync(GENERATED_MODULE_URL, 'utf8')).toBe(generateRuleMetadataModule(RULES.map((rule) => rule.meta)));
  });

  it("keeps the rule table of docs/rules.md in step with the registry", () => {
    const readme = readFileSync(RULES_DOC_URL, 'utf8');
    expect(readme).toBe(withRulesTable(readme, RULES.map((rule) => rule.meta)));
  });

  it('equals every rule meta of the registry, in registry order', () => {
    expect(RULE_METADATA).toEqual(RULES.map((rule) => rule.meta));
  });

  it('gives the catalog, the known ids and each rule meta', () => {
    expect(CATALOG).toEqual(RULES.map(catalogEntry));
    for (const rule of RULES) {
      expect(isKnownRule(rule.meta.id)).toBe(true);
      expect(ruleMeta(rule.meta.id)).toEqual(rule.meta);
    }
    expect(isKnownRule('no-such-rule')).toBe(false);
    expect(ruleMeta('no-such-rule')).toBeUndefined();
  });
});
