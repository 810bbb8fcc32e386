import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { FORBIDDEN, settingsFindings } from '../../../support/settings.js';

const RULE = 'actions-can-approve-prs';
const canApprove = { default_workflow_permissions: 'read', can_approve_pull_request_reviews: true };

describe(RULE, () => {
  it('reports workflows allowed to approve pull requests', () => {
    const findings = settingsFindings(RULE, { workflow_permissions: canApprove });
    expect(positions(findings)).toEqual(['0:0 HIGH']);
    expect(findings[0]).toMatchObject({ file: '<repository settings>', rule_id: RULE, category: 'CICD-SEC-1' });
    expect(findings[0]?.description).toContain('`can_approve_pull_request_reviews` is true');
  });

  it('accepts the setting off', () => {
    expect(settingsFindings(RULE, { workflow_permissions: { default_workflow_permissions: 'write', can_approve_pull_request_reviews: false } })).toEqual([]);
  });

  it('stays silent while Actions is disabled, and reports when its state is unknown', () => {
    expect(settingsFindings(RULE, { workflow_permissions: canApprove, actions_permissions: { enabled: false } })).toEqual([]);
    expect(settingsFindings(RULE, { workflow_permissions: canApprove, unreadable: { actions_permissions: FORBIDDEN } })).toHaveLength(1);
  });

  it('stays silent when workflow_permissions is unreadable', () => {
    expect(settingsFindings(RULE, { workflow_permissions: canApprove, unreadable: { workflow_permissions: FORBIDDEN } })).toEqual([]);
    expect(settingsFindings(RULE, {})).toEqual([]);
    expect(settingsFindings(RULE, { workflow_permissions: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' } })).toEqual([]);
  });
});
