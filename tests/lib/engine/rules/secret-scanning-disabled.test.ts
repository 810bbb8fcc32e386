import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { FORBIDDEN, PRIVATE_REPOSITORY, PUBLIC_REPOSITORY, settingsFindings } from '../../../support/settings.js';

const RULE = 'secret-scanning-disabled';
const security = (status: string) => ({ secret_scanning: { status }, secret_scanning_push_protection: { status: 'enabled' } });

describe(RULE, () => {
  it('reports secret scanning disabled', () => {
    const findings = settingsFindings(RULE, { repository: { ...PUBLIC_REPOSITORY, security_and_analysis: security('disabled') } });
    expect(positions(findings)).toEqual(['0:0 MEDIUM']);
    expect(findings[0]?.description).toMatch(/^Secret scanning is disabled: /);
  });

  it('says that a private repository needs GitHub Secret Protection', () => {
    const findings = settingsFindings(RULE, { repository: { ...PRIVATE_REPOSITORY, security_and_analysis: security('disabled') } });
    expect(findings[0]?.description).toContain('(for a private repository this needs GitHub Secret Protection)');
  });

  it('accepts secret scanning enabled', () => {
    expect(settingsFindings(RULE, { repository: { ...PUBLIC_REPOSITORY, security_and_analysis: security('enabled') } })).toEqual([]);
  });

  it('reads a missing security_and_analysis as unreadable, not disabled', () => {
    expect(settingsFindings(RULE, { repository: PUBLIC_REPOSITORY })).toEqual([]);
    expect(settingsFindings(RULE, { repository: { ...PUBLIC_REPOSITORY, security_and_analysis: security('disabled') }, unreadable: { security_and_analysis: FORBIDDEN } })).toEqual([]);
  });
});
