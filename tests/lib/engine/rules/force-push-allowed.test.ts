import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { branchRule, classicProtection, FORBIDDEN, protectionSnapshot, settingsFindings, strongBranchRules } from '../../../support/settings.js';

const RULE = 'force-push-allowed';
const forcePushes = classicProtection({ allow_force_pushes: { enabled: true } });
const rulesWithoutBlock = strongBranchRules().filter((r) => r.type !== 'non_fast_forward');

describe(RULE, () => {
  it('reports classic protection that allows force pushes, at the settings pseudo-file', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_protection: forcePushes }));
    expect(positions(findings)).toEqual(['0:0 HIGH']);
    expect(findings[0]).toMatchObject({ file: '<repository settings>', rule_id: RULE, category: 'CICD-SEC-1' });
    expect(findings[0]?.description).toContain('Force pushes to `main` are allowed: classic branch protection does not block them');
  });

  it('accepts classic protection that blocks force pushes (the classic default)', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection() }))).toEqual([]);
    const { allow_force_pushes: _omitted, ...withoutField } = classicProtection();
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: withoutField }))).toEqual([]);
  });

  it('reports rulesets without a non_fast_forward rule and accepts one with it', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_rules: rulesWithoutBlock }));
    expect(positions(findings)).toEqual(['0:0 HIGH']);
    expect(findings[0]?.description).toContain('ruleset 42 does not block them');
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: strongBranchRules() }))).toEqual([]);
  });

  it('is satisfied by either mechanism', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: forcePushes, branch_rules: [branchRule('non_fast_forward')] }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection(), branch_rules: rulesWithoutBlock }))).toEqual([]);
    const both = settingsFindings(RULE, protectionSnapshot({ branch_protection: forcePushes, branch_rules: rulesWithoutBlock }));
    expect(both[0]?.description).toContain('classic branch protection and ruleset 42 do not block them');
  });

  it('names the rulesets generically when their rules carry no ruleset_id', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_rules: [{ type: 'deletion' }] }));
    expect(findings[0]?.description).toContain('Force pushes to `main` are allowed: the active rulesets do not block them.');
  });

  it('stays silent on an unprotected branch (branch-protection-missing reports it)', () => {
    expect(settingsFindings(RULE, protectionSnapshot({}))).toEqual([]);
  });

  it('stays silent when the mechanism that could block force pushes is unreadable', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: rulesWithoutBlock, unreadable: { branch_protection: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: forcePushes, unreadable: { branch_rules: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, { branch_rules: rulesWithoutBlock })).toEqual([]);
  });
});
