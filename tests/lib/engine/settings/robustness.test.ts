import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SETTINGS_AREAS } from '../../../../lib/engine/settings/areas.js';
import type { SettingsSnapshot } from '../../../../lib/engine/settings/snapshot.js';
import { allSettingsFindings, settingsFixture } from '../../../support/settings.js';

describe('settings rules on arbitrary input', () => {
  it('never throw and stay deterministic whatever JSON an area holds', () => {
    const area = fc.constantFrom(...SETTINGS_AREAS.filter((a) => a !== 'security_and_analysis'), 'unreadable');
    fc.assert(
      fc.property(fc.constantFrom('hardened', 'weak', 'metadata-only' as const), fc.dictionary(area, fc.jsonValue()), (fixture, overrides) => {
        const snapshot = { ...settingsFixture(fixture), ...overrides } as SettingsSnapshot;
        const first = allSettingsFindings(snapshot);
        expect(allSettingsFindings(snapshot)).toEqual(first);
      }),
      { numRuns: 300 },
    );
  });

  it('never throw on deeply wrong shapes inside the bodies', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (junk) => {
        const snapshot: SettingsSnapshot = {
          repository: { private: junk, visibility: junk, default_branch: junk, security_and_analysis: junk } as Record<string, unknown>,
          branch_protection: { required_pull_request_reviews: junk, required_status_checks: junk, enforce_admins: junk, allow_force_pushes: junk },
          branch_rules: [junk, { type: 'pull_request', parameters: junk, ruleset_id: junk }, { type: 'required_status_checks', parameters: { required_status_checks: junk } }],
          rulesets: [junk, { id: junk, bypass_actors: junk }],
          runners: { total_count: junk, runners: junk },
          hooks: [junk, { config: junk }, { config: { url: junk, secret: junk, insecure_ssl: junk } }],
          unreadable: junk as Record<string, string>,
        };
        allSettingsFindings(snapshot);
      }),
      { numRuns: 300 },
    );
  });

  it('accept a snapshot that is not an object at all', () => {
    for (const junk of [null, 0, 'settings', [], true]) expect(() => allSettingsFindings(junk as unknown as SettingsSnapshot)).not.toThrow();
  });
});
