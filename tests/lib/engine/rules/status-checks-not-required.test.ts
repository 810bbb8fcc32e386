import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { branchRule, classicProtection, FORBIDDEN, protectionSnapshot, settingsFindings } from '../../../support/settings.js';

const RULE = 'status-checks-not-required';
const { required_status_checks: _checks, ...noChecks } = classicProtection();

describe(RULE, () => {
  it('reports classic protection without required status checks', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_protection: noChecks }));
    expect(positions(findings)).toEqual(['0:0 MEDIUM']);
    expect(findings[0]?.description).toContain('Merging into `main` requires no status check: classic branch protection does not name a required check');
  });

  it('reports a classic required-status-checks block that names no check', () => {
    const empty = classicProtection({ required_status_checks: { strict: true, contexts: [], checks: [] } });
    expect(positions(settingsFindings(RULE, protectionSnapshot({ branch_protection: empty })))).toEqual(['0:0 MEDIUM']);
  });

  it('reports rulesets without required_status_checks and accepts ones with checks or required workflows', () => {
    expect(positions(settingsFindings(RULE, protectionSnapshot({ branch_rules: [branchRule('non_fast_forward')] })))).toEqual(['0:0 MEDIUM']);
    const checks = branchRule('required_status_checks', { strict_required_status_checks_policy: false, required_status_checks: [{ context: 'build' }] });
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [checks] }))).toEqual([]);
    const workflows = branchRule('workflows', { workflows: [{ path: '.github/workflows/ci.yml', repository_id: 1, ref: 'refs/heads/main' }] });
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [workflows] }))).toEqual([]);
  });

  it('accepts classic checks (contexts or checks) and either mechanism', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection() }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection({ required_status_checks: { strict: false, contexts: ['ci'] } }) }))).toEqual([]);
    const checks = branchRule('required_status_checks', { required_status_checks: [{ context: 'build' }] });
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: noChecks, branch_rules: [checks] }))).toEqual([]);
  });

  it('stays silent on an unprotected branch and when a mechanism is unreadable', () => {
    expect(settingsFindings(RULE, protectionSnapshot({}))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: noChecks, unreadable: { branch_rules: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: [branchRule('deletion')], unreadable: { branch_protection: FORBIDDEN } }))).toEqual([]);
  });
});
