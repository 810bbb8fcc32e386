import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { FORBIDDEN, settingsFindings } from '../../../support/settings.js';

const RULE = 'default-token-write';
const write = { default_workflow_permissions: 'write', can_approve_pull_request_reviews: false };

describe(RULE, () => {
  it('reports a read-write default token', () => {
    const findings = settingsFindings(RULE, { workflow_permissions: write });
    expect(positions(findings)).toEqual(['0:0 HIGH']);
    expect(findings[0]).toMatchObject({ category: 'CICD-SEC-5', rule_id: RULE });
    expect(findings[0]?.description).toContain('`default_workflow_permissions` is `write`');
  });

  it('accepts a read-only default token', () => {
    expect(settingsFindings(RULE, { workflow_permissions: { default_workflow_permissions: 'read', can_approve_pull_request_reviews: true } })).toEqual([]);
  });

  it('stays silent while Actions is disabled', () => {
    expect(settingsFindings(RULE, { workflow_permissions: write, actions_permissions: { enabled: false } })).toEqual([]);
    expect(settingsFindings(RULE, { workflow_permissions: write, actions_permissions: { enabled: true, allowed_actions: 'all' } })).toHaveLength(1);
  });

  it('stays silent when workflow_permissions is unreadable', () => {
    expect(settingsFindings(RULE, { workflow_permissions: write, unreadable: { workflow_permissions: FORBIDDEN } })).toEqual([]);
    expect(settingsFindings(RULE, { workflow_permissions: null })).toEqual([]);
  });
});
