import { describe, expect, it } from 'vitest';
import { SETTINGS_AREAS, type SettingsArea } from '../../../../lib/engine/settings/areas.js';
import type { SettingsSnapshot } from '../../../../lib/engine/settings/snapshot.js';
import type { Finding } from '../../../../lib/engine/types.js';
import { allSettingsFindings, branchRule, FORBIDDEN, pullRequestRule, rulesetBody, settingsFixture } from '../../../support/settings.js';

/**
 * The guarantee of the settings surface: an unreadable area yields exactly one settings-unreadable
 * finding naming it, and no finding from that area; findings from the other areas are unchanged.
 */

const PROTECTION = [
  'branch-protection-missing',
  'force-push-allowed',
  'branch-deletion-allowed',
  'review-not-required',
  'review-count-low',
  'stale-reviews-kept',
  'codeowners-review-not-required',
  'status-checks-not-required',
  'admin-bypass-allowed',
  'signed-commits-not-required',
];
const withoutBypass = PROTECTION.filter((id) => id !== 'admin-bypass-allowed');

/** The rules whose findings come (at least partly) from each area. */
const COMMON: Record<Exclude<SettingsArea, 'branch_protection' | 'branch_rules' | 'rulesets'>, string[]> = {
  repository: ['fork-pr-approval-weak', 'self-hosted-runner-public-repo', 'dependabot-security-updates-disabled', 'secret-scanning-disabled', 'push-protection-disabled'],
  security_and_analysis: ['dependabot-security-updates-disabled', 'secret-scanning-disabled', 'push-protection-disabled'],
  actions_permissions: ['all-actions-allowed', 'sha-pinning-not-required'],
  workflow_permissions: ['default-token-write', 'actions-can-approve-prs'],
  fork_pr_approval: ['fork-pr-approval-weak'],
  vulnerability_alerts: ['dependabot-alerts-disabled'],
  runners: ['self-hosted-runner-public-repo'],
  hooks: ['webhook-without-secret'],
  codeowners: ['codeowners-review-not-required'],
};
// With classic protection, its admin bypass stays certain when the rulesets cannot be read.
const CLASSIC: Record<SettingsArea, string[]> = { ...COMMON, branch_protection: PROTECTION, branch_rules: withoutBypass, rulesets: [] };
// With rulesets, a ruleset's admin bypass stays certain when classic protection cannot be read.
const RULESETS: Record<SettingsArea, string[]> = { ...COMMON, branch_protection: withoutBypass, branch_rules: PROTECTION, rulesets: ['admin-bypass-allowed'] };

function weakRulesets(): SettingsSnapshot {
  return {
    ...settingsFixture('weak'),
    branch_protection: null,
    branch_rules: [pullRequestRule({ required_approving_review_count: 1, dismiss_stale_reviews_on_push: false, require_code_owner_review: false }), branchRule('required_linear_history')],
    rulesets: [rulesetBody(42, 'main protection', [{ actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' }])],
  };
}

const VARIANTS: { name: string; snapshot: () => SettingsSnapshot; dependents: Record<SettingsArea, string[]> }[] = [
  { name: 'weak classic protection', snapshot: () => settingsFixture('weak'), dependents: CLASSIC },
  {
    name: 'classic protection without reviews',
    snapshot: () => {
      const s = settingsFixture('weak');
      const { required_pull_request_reviews: _r, ...protection } = s.branch_protection ?? {};
      return { ...s, branch_protection: protection };
    },
    dependents: CLASSIC,
  },
  { name: 'unprotected branch', snapshot: () => ({ ...settingsFixture('weak'), branch_protection: null }), dependents: CLASSIC },
  { name: 'weak rulesets', snapshot: weakRulesets, dependents: RULESETS },
];

const ERROR_BODY = { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' };

const METHODS: { name: string; apply: (s: SettingsSnapshot, area: SettingsArea) => SettingsSnapshot }[] = [
  { name: 'listed in `unreadable`', apply: (s, area) => ({ ...s, unreadable: { [area]: FORBIDDEN } }) },
  {
    name: 'absent',
    apply: (s, area) => {
      if (area === 'security_and_analysis') {
        const { security_and_analysis: _s, ...repository } = s.repository ?? {};
        return { ...s, repository };
      }
      const copy: Record<string, unknown> = { ...s };
      delete copy[area];
      return copy as SettingsSnapshot;
    },
  },
  {
    name: "replaced by GitHub's error body",
    apply: (s, area) => (area === 'security_and_analysis' ? { ...s, repository: { ...s.repository, security_and_analysis: null } } : ({ ...s, [area]: ERROR_BODY } as SettingsSnapshot)),
  },
];

const ruleIds = (findings: readonly Finding[]) => [...new Set(findings.filter((f) => f.rule_id !== 'settings-unreadable').map((f) => f.rule_id))].sort();
const unreadableAreas = (findings: readonly Finding[]) =>
  findings.filter((f) => f.rule_id === 'settings-unreadable').map((f) => /\(`(\w+)`:/.exec(f.description)?.[1]);

const observed = new Set<string>();

describe.each(VARIANTS)('$name', ({ snapshot, dependents }) => {
  const baseline = allSettingsFindings(snapshot());

  it('is complete: no area is unreadable', () => {
    expect(unreadableAreas(baseline)).toEqual([]);
  });

  describe.each(SETTINGS_AREAS.map((area) => [area]))('%s', (area) => {
    it.each(METHODS)('when $name, reports it once and drops its findings', ({ apply }) => {
      const findings = allSettingsFindings(apply(snapshot(), area));
      const relevant = area !== 'rulesets' || dependents === RULESETS;
      expect(unreadableAreas(findings)).toEqual(relevant ? [area] : []);
      const silenced = dependents[area];
      for (const id of silenced) if (ruleIds(baseline).includes(id)) observed.add(`${area}:${id}`);
      expect(ruleIds(findings)).toEqual(ruleIds(baseline).filter((id) => !silenced.includes(id)));
    });
  });
});

describe('coverage of the suppression cases', () => {
  it('saw every rule of every area fire before its area was made unreadable', () => {
    const expected = SETTINGS_AREAS.flatMap((area) => [...new Set([...CLASSIC[area], ...RULESETS[area]])].map((id) => `${area}:${id}`));
    expect([...observed].sort()).toEqual(expected.sort());
  });
});
