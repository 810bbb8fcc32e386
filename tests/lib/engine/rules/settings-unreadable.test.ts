import { describe, expect, it } from 'vitest';
import { positions, recordsWith } from '../../../support/engine.js';
import { FORBIDDEN, rulesetBody, settingsFindings, settingsFixture, strongBranchRules } from '../../../support/settings.js';
import type { SettingsSnapshot } from '../../../../lib/engine/settings/snapshot.js';
import type { Finding } from '../../../../lib/engine/types.js';

const RULE = 'settings-unreadable';

/** The area each finding names, sorted. */
function areasOf(findings: readonly Finding[]): string[] {
  return findings.map((f) => /\(`(\w+)`:/.exec(f.description)?.[1] ?? '?').sort();
}

/** A complete snapshot of a private repository protected by classic protection only. */
function complete(): SettingsSnapshot {
  const snapshot = settingsFixture('weak');
  return { ...snapshot, repository: { ...snapshot.repository, private: true, visibility: 'private' } };
}

describe(RULE, () => {
  it('reports nothing for a complete snapshot', () => {
    expect(settingsFindings(RULE, settingsFixture('hardened'))).toEqual([]);
    expect(settingsFindings(RULE, settingsFixture('weak'))).toEqual([]);
  });

  it('reports an area named in `unreadable`, with its reason, permission and the rules it leaves unassessed', () => {
    const findings = settingsFindings(RULE, { ...complete(), unreadable: { hooks: FORBIDDEN } });
    expect(positions(findings)).toEqual(['0:0 INFO']);
    expect(findings[0]).toMatchObject({ file: '<repository settings>', rule_id: RULE, category: 'BEST-PRAC-5' });
    expect(findings[0]?.description).toBe(
      'Repository webhooks could not be read (`hooks`: 403 Resource not accessible by integration). It needs the GitHub App permission "Webhooks: read"; until it is readable, `webhook-without-secret` is not assessed.',
    );
    expect(findings[0]?.recommendation).toContain('"Webhooks: read"');
    expect(findings[0]?.recommendation).toContain('GET /repos/{o}/{r}/hooks');
  });

  it('reports an absent area, a null one and a GitHub error body saved in its place', () => {
    const { codeowners: _c, ...withoutCodeowners } = complete();
    expect(settingsFindings(RULE, withoutCodeowners)[0]?.description).toContain('(`codeowners`: the snapshot has no `codeowners`). It needs the GitHub App permission "Contents: read"');
    expect(settingsFindings(RULE, { ...complete(), vulnerability_alerts: null })[0]?.description).toContain('`vulnerability_alerts` is null, not a boolean');
    const error = { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/actions/permissions', status: '403' };
    expect(settingsFindings(RULE, { ...complete(), actions_permissions: error })[0]?.description).toContain('GitHub answered "Resource not accessible by integration"');
  });

  it('reads "Branch not protected" as an answer, not as an unreadable area', () => {
    const notProtected = { message: 'Branch not protected', documentation_url: 'https://docs.github.com/rest/branches/branch-protection#get-branch-protection', status: '404' };
    expect(settingsFindings(RULE, { ...complete(), branch_protection: notProtected })).toEqual([]);
  });

  it('lets an `unreadable` entry win over a value of the same area', () => {
    expect(settingsFindings(RULE, { ...complete(), unreadable: { vulnerability_alerts: 'plan limit' } })).toHaveLength(1);
  });

  it('gives each area one finding with its own fingerprint', () => {
    const records = recordsWith(RULE, [], { settings: { ...complete(), unreadable: { hooks: FORBIDDEN, runners: FORBIDDEN, workflow_permissions: FORBIDDEN } } });
    expect(areasOf(records.map((r) => r.finding))).toEqual(['hooks', 'workflow_permissions']);
    expect(new Set(records.map((r) => r.fingerprint)).size).toBe(2);
  });

  it('asks for fork_pr_approval and runners only when the repository may be public', () => {
    const { fork_pr_approval: _f, runners: _r, ...rest } = complete();
    expect(settingsFindings(RULE, rest)).toEqual([]);
    const unknown = settingsFindings(RULE, { ...rest, unreadable: { repository: FORBIDDEN } });
    expect(areasOf(unknown)).toEqual(['fork_pr_approval', 'repository', 'runners']);
  });

  it('reports a missing security_and_analysis, unless the repository itself is unreadable', () => {
    const snapshot = complete();
    const { security_and_analysis: _s, ...repository } = snapshot.repository ?? {};
    const findings = settingsFindings(RULE, { ...snapshot, repository });
    expect(findings[0]?.description).toContain('Security and analysis settings could not be read (`security_and_analysis`: the repository body has no `security_and_analysis`');
    expect(findings[0]?.description).toContain('"Administration: read"');
    expect(settingsFindings(RULE, { ...snapshot, repository: undefined }).map((f) => f.description.slice(0, 30))).toEqual(['Repository metadata could not ']);
  });

  it('lists only the branch rules an unreadable protection area leaves undecided', () => {
    const findings = settingsFindings(RULE, { ...complete(), branch_protection: undefined, branch_rules: strongBranchRules(), rulesets: [rulesetBody(42, 'main', [])] });
    expect(findings).toHaveLength(1);
    expect(findings[0]?.description).toMatch(/^Classic branch protection of `master` could not be read \(`branch_protection`: the snapshot has no `branch_protection`\)\. It needs the GitHub App permission "Administration: read"; until it is readable, `admin-bypass-allowed` is not assessed\.$/);
    const none = settingsFindings(RULE, { ...complete(), unreadable: { branch_rules: 'timeout' } });
    expect(none[0]?.description).toContain('`force-push-allowed`, `branch-deletion-allowed`, `review-count-low`');
    expect(none[0]?.description).not.toContain('`review-not-required`');
  });

  it('asks for ruleset bypass lists only when rulesets apply to the default branch', () => {
    expect(settingsFindings(RULE, complete())).toEqual([]);
    const applied = { ...complete(), branch_rules: strongBranchRules(42) };
    const missing = settingsFindings(RULE, applied);
    expect(missing[0]?.description).toContain('Bypass lists of the rulesets that apply to `master` could not be read (`rulesets`: the snapshot has no `rulesets`)');
    const hidden = settingsFindings(RULE, { ...applied, rulesets: [rulesetBody(42, 'main protection', undefined)] });
    expect(hidden[0]?.description).toContain('no body with `bypass_actors` for ruleset `main protection` (id 42); GitHub shows bypass lists only to callers who can edit a ruleset');
    expect(settingsFindings(RULE, { ...applied, rulesets: [rulesetBody(42, 'main protection', [])] })).toEqual([]);
    expect(settingsFindings(RULE, { ...applied, rulesets: [rulesetBody(42, 'main', [])], unreadable: { rulesets: FORBIDDEN } })[0]?.description).toContain(`(\`rulesets\`: ${FORBIDDEN})`);
  });

  it('reports every area of an empty snapshot', () => {
    expect(areasOf(settingsFindings(RULE, {}))).toEqual(
      ['actions_permissions', 'branch_protection', 'branch_rules', 'codeowners', 'fork_pr_approval', 'hooks', 'repository', 'runners', 'vulnerability_alerts', 'workflow_permissions'],
    );
  });
});
