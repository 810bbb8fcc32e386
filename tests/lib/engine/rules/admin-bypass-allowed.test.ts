import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { branchRule, classicProtection, FORBIDDEN, protectionSnapshot, rulesetBody, settingsFindings, strongBranchRules } from '../../../support/settings.js';

const RULE = 'admin-bypass-allowed';
const notEnforced = classicProtection({ enforce_admins: { enabled: false } });
const adminAlways = { actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' };

describe(RULE, () => {
  it('reports classic protection with enforce_admins off', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_protection: notEnforced }));
    expect(positions(findings)).toEqual(['0:0 HIGH']);
    expect(findings[0]?.description).toBe(
      'Protection of `main` can be bypassed: classic branch protection does not bind administrators ("Do not allow bypassing the above settings" is off). A compromised privileged account can push or merge anything without review or checks.',
    );
    expect(settingsFindings(RULE, protectionSnapshot({ branch_protection: classicProtection() }))).toEqual([]);
  });

  it('reports an applied ruleset whose bypass list holds a repository role or owners, naming each', () => {
    const rulesets = [
      rulesetBody(42, 'main protection', [adminAlways, { actor_id: 4, actor_type: 'RepositoryRole', bypass_mode: 'pull_request' }]),
      rulesetBody(43, 'org baseline', [{ actor_id: 1, actor_type: 'OrganizationAdmin', bypass_mode: 'exempt' }]),
    ];
    const branch_rules = [...strongBranchRules(42), branchRule('required_linear_history', undefined, 43)];
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_rules, rulesets }));
    expect(positions(findings)).toEqual(['0:0 HIGH']);
    const text = findings[0]?.description ?? '';
    expect(text).toContain('ruleset `main protection` (id 42) lets the repository Admin role bypass it always (direct pushes included)');
    expect(text).toContain('ruleset `main protection` (id 42) lets the repository Write role (everyone with write access) bypass it on pull requests');
    expect(text).toContain('ruleset `org baseline` (id 43) lets organization owners bypass it silently (exempt');
  });

  it('accepts bypass lists of apps, teams and deploy keys only, and empty ones', () => {
    const rulesets = [rulesetBody(42, 'main protection', [{ actor_id: 1043210, actor_type: 'Integration', bypass_mode: 'pull_request' }, { actor_id: 9, actor_type: 'Team', bypass_mode: 'always' }])];
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: strongBranchRules(), rulesets }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: strongBranchRules(), rulesets: [rulesetBody(42, 'main', [])] }))).toEqual([]);
  });

  it('ignores rulesets that do not apply to the default branch', () => {
    const rulesets = [rulesetBody(42, 'main', []), rulesetBody(99, 'release branches', [adminAlways])];
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: strongBranchRules(42), rulesets }))).toEqual([]);
  });

  it('reports classic bypass even when the ruleset bypass lists are unreadable, and says so', () => {
    const findings = settingsFindings(RULE, protectionSnapshot({ branch_protection: notEnforced, branch_rules: strongBranchRules(), rulesets: [rulesetBody(42, 'main', undefined)] }));
    expect(positions(findings)).toEqual(['0:0 HIGH']);
    expect(findings[0]?.description).toContain('The bypass lists of ruleset `main` (id 42) could not be read and were not assessed.');
  });

  it('stays silent when the only possible source of a bypass is unreadable', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: strongBranchRules() }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: strongBranchRules(), rulesets: [rulesetBody(42, 'main', [adminAlways])], unreadable: { rulesets: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ branch_rules: strongBranchRules(), unreadable: { branch_protection: FORBIDDEN } }))).toEqual([]);
    expect(settingsFindings(RULE, protectionSnapshot({ rulesets: [rulesetBody(42, 'main', [adminAlways])], unreadable: { branch_rules: FORBIDDEN } }))).toEqual([]);
  });

  it('stays silent on an unprotected branch', () => {
    expect(settingsFindings(RULE, protectionSnapshot({ rulesets: [] }))).toEqual([]);
  });
});
