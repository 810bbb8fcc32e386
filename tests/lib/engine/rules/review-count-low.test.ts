import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { classicProtection, FORBIDDEN, protectionSnapshot, pullRequestRule, settingsFindings } from '../../../support/settings.js';

const RULE = 'review-count-low';
const reviews = (count: number) => classicProtection({ required_pull_request_reviews: { dismiss_stale_reviews: true, require_code_owner_reviews: true, required_approving_review_count: count } });

describe(RULE, () => {
  it('reports a single required approval in classic protection', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_protection: reviews(1) }));
    expect(positions(findings)).toEqual(['0:0 MEDIUM']);
    expect(findings[0]?.description).toContain('Pull requests into `main` need only 1 approval (classic branch protection)');
  });

  it('reports a single required approval in a ruleset', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_rules: [pullRequestRule({ required_approving_review_count: 1 })] }));
    expect(positions(findings)).toEqual(['0:0 MEDIUM']);
    expect(findings[0]?.description).toContain('need only 1 approval (ruleset 42)');
  });

  it('accepts two approvals from either mechanism', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: reviews(2) }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: reviews(1), branch_rules: [pullRequestRule({ required_approving_review_count: 2 })] }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: reviews(3), branch_rules: [pullRequestRule({ required_approving_review_count: 1 })] }))).toEqual([]);
  });

  it('leaves 0 approvals and no review requirement to review-not-required', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: reviews(0) }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection({ required_pull_request_reviews: undefined }) }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({}))).toEqual([]);
  });

  it('stays silent when the other mechanism, which might require more, is unreadable', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [pullRequestRule({ required_approving_review_count: 1 })], unreadable: { branch_protection: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: reviews(1), unreadable: { branch_rules: FORBIDDEN } }))).toEqual([]);
  });
});
