import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { FORBIDDEN, settingsFindings } from '../../../support/settings.js';

const RULE = 'all-actions-allowed';
const all = { enabled: true, allowed_actions: 'all', sha_pinning_required: false };

describe(RULE, () => {
  it('reports Actions enabled with every action allowed', () => {
    const findings = settingsFindings(RULE, { actions_permissions: all });
    expect(positions(findings)).toEqual(['0:0 MEDIUM']);
    expect(findings[0]).toMatchObject({ category: 'CICD-SEC-8', rule_id: RULE });
  });

  it('accepts selected or local-only actions, and disabled Actions', () => {
    expect(settingsFindings(RULE, { actions_permissions: { ...all, allowed_actions: 'selected', selected_actions_url: 'https://api.github.com/repos/acme/widget/actions/permissions/selected-actions' } })).toEqual([]);
    expect(settingsFindings(RULE, { actions_permissions: { ...all, allowed_actions: 'local_only' } })).toEqual([]);
    expect(settingsFindings(RULE, { actions_permissions: { enabled: false, allowed_actions: 'all' } })).toEqual([]);
  });

  it('stays silent when actions_permissions is unreadable', () => {
    expect(settingsFindings(RULE, { actions_permissions: all, unreadable: { actions_permissions: FORBIDDEN } })).toEqual([]);
    expect(settingsFindings(RULE, { actions_permissions: 'all' as unknown as Record<string, unknown> })).toEqual([]);
  });
});
