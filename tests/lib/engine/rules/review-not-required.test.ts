import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { branchRule, classicProtection, FORBIDDEN, protectionSnapshot, pullRequestRule, settingsFindings } from '../../../support/settings.js';

const RULE = 'review-not-required';
const { required_pull_request_reviews: _reviews, ...noReviews } = classicProtection();
const zeroApprovals = classicProtection({ required_pull_request_reviews: { dismiss_stale_reviews: true, require_code_owner_reviews: false, required_approving_review_count: 0 } });

describe(RULE, () => {
  it('reports classic protection without required pull request reviews', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_protection: noReviews }));
    expect(positions(findings)).toEqual(['0:0 HIGH']);
    expect(findings[0]?.description).toBe(
      'Default branch `main` does not require a pull request: classic branch protection does not require one, so anyone with push access can put unreviewed changes on it directly.',
    );
  });

  it('reports a required pull request with 0 approvals, from classic protection or a ruleset', () => {
    const classic = settingsFindings(RULE, protectionSnapshot({ branch_protection: zeroApprovals }));
    expect(positions(classic)).toEqual(['0:0 HIGH']);
    expect(classic[0]?.description).toContain('Pull requests into `main` need 0 approvals (classic branch protection)');
    const rules = settingsFindings(RULE, protectionSnapshot({ branch_rules: [pullRequestRule({ required_approving_review_count: 0, require_code_owner_review: true })] }));
    expect(rules[0]?.description).toContain('need 0 approvals (ruleset 42)');
    expect(rules[0]?.description).toContain("Only changes to paths listed in CODEOWNERS need a code owner's approval.");
  });

  it('reports rulesets without a pull_request rule', () => {
    expect(positions(settingsFindings(RULE, protectionSnapshot({ branch_rules: [branchRule('non_fast_forward')] })))).toEqual(['0:0 HIGH']);
  });

  it('accepts one approval or more from either mechanism', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection() }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [pullRequestRule({ required_approving_review_count: 1 })] }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: noReviews, branch_rules: [pullRequestRule()] }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection(), branch_rules: [branchRule('deletion')] }))).toEqual([]);
  });

  it('stays silent on an unprotected branch and when a mechanism is unreadable', () => {
    expect(settingsFindings(RULE, protectionSnapshot({}))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [branchRule('deletion')], unreadable: { branch_protection: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: noReviews, unreadable: { branch_rules: FORBIDDEN } }))).toEqual([]);
  });
});
