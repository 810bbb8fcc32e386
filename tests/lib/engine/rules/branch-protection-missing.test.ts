import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { branchRule, classicProtection, FORBIDDEN, protectionSnapshot, settingsFindings } from '../../../support/settings.js';

const RULE = 'branch-protection-missing';

describe(RULE, () => {
  it('reports a default branch with neither classic protection nor ruleset rules', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({}));
    expect(positions(findings)).toEqual(['0:0 HIGH']);
    expect(findings[0]).toMatchObject({ file: '<repository settings>', line: 0, column: 0, rule_id: RULE, category: 'CICD-SEC-1' });
    expect(findings[0]?.description).toMatch(/^Default branch `main` has no classic branch protection and no active ruleset/);
  });

  it('reads GitHub\'s 404 "Branch not protected" body as no protection', () => {
    const notProtected = { message: 'Branch not protected', documentation_url: 'https://docs.github.com/rest/branches/branch-protection#get-branch-protection', status: '404' };
    expect(positions(settingsFindings(RULE, protectionSnapshot({ branch_protection: notProtected })))).toEqual(['0:0 HIGH']);
  });

  it('accepts classic protection or any active ruleset rule', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection() }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [branchRule('required_linear_history')] }))).toEqual([]);
  });

  it('names "the default branch" when no area names it', () => {
    const findings = settingsFindings(RULE, { branch_protection: null, branch_rules: [] });
    expect(findings[0]?.description).toMatch(/^The default branch has no classic branch protection/);
  });

  it('stays silent when either mechanism is unreadable', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ unreadable: { branch_protection: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ unreadable: { branch_rules: 'timeout' } }))).toEqual([]);
    expect(settingsFindings(RULE, { repository: { default_branch: 'main' }, branch_rules: [] })).toEqual([]);
  });
});
