import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { branchRule, classicProtection, FORBIDDEN, protectionSnapshot, settingsFindings } from '../../../support/settings.js';

const RULE = 'signed-commits-not-required';
const unsigned = classicProtection({ required_signatures: { enabled: false } });

describe(RULE, () => {
  it('reports classic protection without required signatures', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_protection: unsigned }));
    expect(positions(findings)).toEqual(['0:0 LOW']);
    expect(findings[0]?.description).toContain('Default branch `main` accepts unsigned commits: classic branch protection does not require signed commits');
  });

  it('reports rulesets without required_signatures and accepts one with it', () => {
    expect(positions(settingsFindings(RULE, protectionSnapshot({ branch_rules: [branchRule('deletion')] })))).toEqual(['0:0 LOW']);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [branchRule('required_signatures')] }))).toEqual([]);
  });

  it('is satisfied by either mechanism', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection() }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: unsigned, branch_rules: [branchRule('required_signatures', undefined, 7)] }))).toEqual([]);
  });

  it('stays silent on an unprotected branch and when a mechanism is unreadable', () => {
    expect(settingsFindings(RULE, protectionSnapshot({}))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: unsigned, unreadable: { branch_rules: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [branchRule('deletion')], unreadable: { branch_protection: FORBIDDEN } }))).toEqual([]);
  });
});
