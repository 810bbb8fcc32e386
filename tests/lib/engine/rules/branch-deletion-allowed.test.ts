import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { branchRule, classicProtection, FORBIDDEN, protectionSnapshot, settingsFindings, strongBranchRules } from '../../../support/settings.js';

const RULE = 'branch-deletion-allowed';
const deletable = classicProtection({ allow_deletions: { enabled: true } });
const rulesWithoutDeletion = strongBranchRules().filter((r) => r.type !== 'deletion');

describe(RULE, () => {
  it('reports classic protection that allows deletion', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_protection: deletable }));
    expect(positions(findings)).toEqual(['0:0 MEDIUM']);
    expect(findings[0]?.description).toContain('Deleting `main` is not restricted: classic branch protection does not restrict deletions');
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection() }))).toEqual([]);
  });

  it('reports rulesets without a deletion rule and accepts one with it', () => {
    expect(positions(settingsFindings(RULE, protectionSnapshot({ branch_rules: rulesWithoutDeletion })))).toEqual(['0:0 MEDIUM']);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: strongBranchRules() }))).toEqual([]);
  });

  it('is satisfied by either mechanism', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: deletable, branch_rules: [branchRule('deletion')] }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection(), branch_rules: rulesWithoutDeletion }))).toEqual([]);
  });

  it('stays silent on an unprotected branch or when a mechanism is unreadable', () => {
    expect(settingsFindings(RULE, protectionSnapshot({}))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: rulesWithoutDeletion, unreadable: { branch_protection: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: deletable, unreadable: { branch_rules: FORBIDDEN } }))).toEqual([]);
  });
});
