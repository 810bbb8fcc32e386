import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { classicProtection, FORBIDDEN, protectionSnapshot, pullRequestRule, settingsFindings } from '../../../support/settings.js';

const RULE = 'stale-reviews-kept';
const reviews = (fields: Record<string, unknown>) =>
  classicProtection({ required_pull_request_reviews: { dismiss_stale_reviews: true, require_code_owner_reviews: true, required_approving_review_count: 2, require_last_push_approval: false, ...fields } });
const kept = reviews({ dismiss_stale_reviews: false });

describe(RULE, () => {
  it('reports classic reviews whose approvals survive new commits', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_protection: kept }));
    expect(positions(findings)).toEqual(['0:0 MEDIUM']);
    expect(findings[0]?.description).toContain('Approvals of pull requests into `main` survive new commits: classic branch protection does not dismiss stale approvals');
  });

  it('reports a ruleset pull_request rule without dismiss_stale_reviews_on_push', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_rules: [pullRequestRule({ dismiss_stale_reviews_on_push: false })] }));
    expect(positions(findings)).toEqual(['0:0 MEDIUM']);
  });

  it('accepts dismissal, or approval of the most recent push, from either mechanism', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: reviews({}) }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: reviews({ dismiss_stale_reviews: false, require_last_push_approval: true }) }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [pullRequestRule({ dismiss_stale_reviews_on_push: false, require_last_push_approval: true })] }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: kept, branch_rules: [pullRequestRule({ required_approving_review_count: 0 })] }))).toEqual([]);
  });

  it('stays silent when no approval is required at all', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: reviews({ dismiss_stale_reviews: false, required_approving_review_count: 0 }) }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({}))).toEqual([]);
  });

  it('stays silent when a mechanism is unreadable', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: kept, unreadable: { branch_rules: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [pullRequestRule({ dismiss_stale_reviews_on_push: false })], unreadable: { branch_protection: FORBIDDEN } }))).toEqual([]);
  });
});
