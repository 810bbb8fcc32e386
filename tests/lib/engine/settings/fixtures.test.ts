import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../../lib/engine/types.js';
import { allSettingsFindings, settingsFixture } from '../../../support/settings.js';

const summary = (findings: readonly Finding[]) => findings.map((f) => `${f.rule_id} ${f.severity}`);

describe('settings fixtures', () => {
  it('hardened.json (public, protected by rulesets) gives no finding', () => {
    expect(allSettingsFindings(settingsFixture('hardened'))).toEqual([]);
  });

  it('weak.json (public, weak classic protection) gives each weakness once', () => {
    const findings = allSettingsFindings(settingsFixture('weak'));
    expect(findings.every((f) => f.file === '<repository settings>' && f.line === 0 && f.column === 0)).toBe(true);
    expect(summary(findings)).toEqual([
      'actions-can-approve-prs HIGH',
      'admin-bypass-allowed HIGH',
      'all-actions-allowed MEDIUM',
      'branch-deletion-allowed MEDIUM',
      'codeowners-review-not-required LOW',
      'default-token-write HIGH',
      'dependabot-alerts-disabled MEDIUM',
      'dependabot-security-updates-disabled LOW',
      'force-push-allowed HIGH',
      'fork-pr-approval-weak MEDIUM',
      'push-protection-disabled HIGH',
      'review-count-low MEDIUM',
      'secret-scanning-disabled MEDIUM',
      'self-hosted-runner-public-repo HIGH',
      'sha-pinning-not-required LOW',
      'signed-commits-not-required LOW',
      'stale-reviews-kept MEDIUM',
      'status-checks-not-required MEDIUM',
      'webhook-without-secret HIGH',
    ]);
    expect(findings.find((f) => f.rule_id === 'webhook-without-secret')?.description).toContain('`jenkins.legacy.example:8443`');
  });

  it('metadata-only.json (an app with Metadata and Contents read) reports what it could not read, and nothing it could not decide', () => {
    const findings = allSettingsFindings(settingsFixture('metadata-only'));
    expect(summary(findings).every((s) => s === 'settings-unreadable INFO')).toBe(true);
    expect(findings.map((f) => /\(`(\w+)`:/.exec(f.description)?.[1]).sort()).toEqual([
      'actions_permissions',
      'branch_protection',
      'fork_pr_approval',
      'hooks',
      'rulesets',
      'runners',
      'security_and_analysis',
      'vulnerability_alerts',
      'workflow_permissions',
    ]);
  });
});
