import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { FORBIDDEN, settingsFindings } from '../../../support/settings.js';

const RULE = 'sha-pinning-not-required';
const unpinned = { enabled: true, allowed_actions: 'selected', sha_pinning_required: false };

describe(RULE, () => {
  it('reports sha_pinning_required false', () => {
    const findings = settingsFindings(RULE, { actions_permissions: unpinned });
    expect(positions(findings)).toEqual(['0:0 LOW']);
    expect(findings[0]).toMatchObject({ category: 'CICD-SEC-3', rule_id: RULE });
  });

  it('accepts required pinning and disabled Actions', () => {
    expect(settingsFindings(RULE, { actions_permissions: { ...unpinned, sha_pinning_required: true } })).toEqual([]);
    expect(settingsFindings(RULE, { actions_permissions: { ...unpinned, enabled: false } })).toEqual([]);
  });

  it('reads an absent sha_pinning_required as a host without the setting, not as off', () => {
    expect(settingsFindings(RULE, { actions_permissions: { enabled: true, allowed_actions: 'all' } })).toEqual([]);
  });

  it('stays silent when actions_permissions is unreadable', () => {
    expect(settingsFindings(RULE, { actions_permissions: unpinned, unreadable: { actions_permissions: FORBIDDEN } })).toEqual([]);
    expect(settingsFindings(RULE, {})).toEqual([]);
  });
});
