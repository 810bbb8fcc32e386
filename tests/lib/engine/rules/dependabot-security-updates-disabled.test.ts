import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { FORBIDDEN, PUBLIC_REPOSITORY, settingsFindings } from '../../../support/settings.js';

const RULE = 'dependabot-security-updates-disabled';
const withStatus = (status: string) => ({ repository: { ...PUBLIC_REPOSITORY, security_and_analysis: { dependabot_security_updates: { status } } } });

describe(RULE, () => {
  it('reports automated security fixes disabled', () => {
    const findings = settingsFindings(RULE, withStatus('disabled'));
    expect(positions(findings)).toEqual(['0:0 LOW']);
    expect(findings[0]).toMatchObject({ category: 'CICD-SEC-3', rule_id: RULE });
  });

  it('accepts them enabled, and a security_and_analysis that does not list them', () => {
    expect(settingsFindings(RULE, withStatus('enabled'))).toEqual([]);
    expect(settingsFindings(RULE, { repository: { ...PUBLIC_REPOSITORY, security_and_analysis: { secret_scanning: { status: 'disabled' } } } })).toEqual([]);
  });

  it('reads a missing or null security_and_analysis as unreadable, not disabled', () => {
    expect(settingsFindings(RULE, { repository: PUBLIC_REPOSITORY })).toEqual([]);
    expect(settingsFindings(RULE, { repository: { ...PUBLIC_REPOSITORY, security_and_analysis: null } })).toEqual([]);
    expect(settingsFindings(RULE, { ...withStatus('disabled'), unreadable: { security_and_analysis: FORBIDDEN } })).toEqual([]);
    expect(settingsFindings(RULE, { ...withStatus('disabled'), unreadable: { repository: FORBIDDEN } })).toEqual([]);
  });
});
