import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { FORBIDDEN, settingsFindings } from '../../../support/settings.js';

const RULE = 'dependabot-alerts-disabled';

describe(RULE, () => {
  it('reports vulnerability alerts off (GitHub answered 404)', () => {
    const findings = settingsFindings(RULE, { vulnerability_alerts: false });
    expect(positions(findings)).toEqual(['0:0 MEDIUM']);
    expect(findings[0]).toMatchObject({ category: 'CICD-SEC-3', rule_id: RULE });
  });

  it('accepts vulnerability alerts on (GitHub answered 204)', () => {
    expect(settingsFindings(RULE, { vulnerability_alerts: true })).toEqual([]);
  });

  it('stays silent when the area is unreadable, absent or not a boolean', () => {
    expect(settingsFindings(RULE, { vulnerability_alerts: false, unreadable: { vulnerability_alerts: FORBIDDEN } })).toEqual([]);
    expect(settingsFindings(RULE, {})).toEqual([]);
    expect(settingsFindings(RULE, { vulnerability_alerts: null })).toEqual([]);
  });
});
