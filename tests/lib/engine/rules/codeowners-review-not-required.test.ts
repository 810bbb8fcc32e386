import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { branchRule, classicProtection, FORBIDDEN, protectionSnapshot, pullRequestRule, settingsFindings } from '../../../support/settings.js';

const RULE = 'codeowners-review-not-required';
const noCodeOwners = classicProtection({ required_pull_request_reviews: { dismiss_stale_reviews: true, require_code_owner_reviews: false, required_approving_review_count: 2 } });

describe(RULE, () => {
  it('reports a CODEOWNERS file that classic protection does not enforce', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_protection: noCodeOwners }));
    expect(positions(findings)).toEqual(['0:0 LOW']);
    expect(findings[0]?.description).toContain("pull requests into `main` do not need a code owner's approval (classic branch protection)");
  });

  it('reports a ruleset pull_request rule without require_code_owner_review', () => {
    expect(positions(settingsFindings(RULE, protectionSnapshot({ branch_rules: [pullRequestRule({ require_code_owner_review: false })] })))).toEqual(['0:0 LOW']);
  });

  it('accepts code owner review from either mechanism', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection() }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: noCodeOwners, branch_rules: [pullRequestRule({ required_approving_review_count: 0 })] }))).toEqual([]);
  });

  it('needs a CODEOWNERS file, and a required pull request to add code owners to', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: noCodeOwners, codeowners: false }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [branchRule('non_fast_forward')] }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({}))).toEqual([]);
  });

  it('stays silent when codeowners or a protection mechanism is unreadable', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: noCodeOwners, codeowners: undefined }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: noCodeOwners, unreadable: { codeowners: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: noCodeOwners, unreadable: { branch_rules: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [pullRequestRule({ require_code_owner_review: false })], unreadable: { branch_protection: FORBIDDEN } }))).toEqual([]);
  });
});
