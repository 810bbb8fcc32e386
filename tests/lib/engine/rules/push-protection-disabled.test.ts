import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { FORBIDDEN, PUBLIC_REPOSITORY, settingsFindings } from '../../../support/settings.js';

const RULE = 'push-protection-disabled';
const security = (status: string) => ({ secret_scanning: { status: 'enabled' }, secret_scanning_push_protection: { status } });

describe(RULE, () => {
  it('reports push protection disabled', () => {
    const findings = settingsFindings(RULE, { repository: { ...PUBLIC_REPOSITORY, security_and_analysis: security('disabled') } });
    expect(positions(findings)).toEqual(['0:0 HIGH']);
    expect(findings[0]).toMatchObject({ category: 'CICD-SEC-6', rule_id: RULE });
  });

  it('accepts push protection enabled', () => {
    expect(settingsFindings(RULE, { repository: { ...PUBLIC_REPOSITORY, security_and_analysis: security('enabled') } })).toEqual([]);
  });

  it('reads a missing security_and_analysis as unreadable, not disabled', () => {
    expect(settingsFindings(RULE, { repository: PUBLIC_REPOSITORY })).toEqual([]);
    expect(settingsFindings(RULE, { repository: { ...PUBLIC_REPOSITORY, security_and_analysis: security('disabled') }, unreadable: { security_and_analysis: FORBIDDEN } })).toEqual([]);
  });
});
