import { describe, expect, it } from 'vitest';
import { severityOf, type Claim, type Reach } from '../../../../../lib/engine/analysis/run-model/index.js';

const reach = (level: Reach['level'], forkPullRequest = false): Reach => ({ level, event: 'pull_request_target', gates: [], forkPullRequest });
const claim = (over: Partial<Claim>): Claim => ({ reach: reach('anyone'), executes: true, holds: ['`contents: write`'], ...over });

describe('the severity policy', () => {
  it('HIGH needs reach, execution and something worth taking', () => {
    expect(severityOf(claim({}))).toBe('HIGH');
    expect(severityOf(claim({ reach: reach('sticky-label') }))).toBe('HIGH');
  });

  it('without something worth taking: MEDIUM at most', () => {
    expect(severityOf(claim({ holds: [] }))).toBe('MEDIUM');
  });

  it('without execution or outside reach: LOW', () => {
    expect(severityOf(claim({ executes: false }))).toBe('LOW');
    expect(severityOf(claim({ reach: reach('collaborator') }))).toBe('LOW');
    expect(severityOf(claim({ reach: reach('trusted-author') }))).toBe('LOW');
  });

  it('an approval per run: LOW when the approved code is what runs, MEDIUM when it can still change', () => {
    expect(severityOf(claim({ reach: reach('approval') }))).toBe('LOW');
    expect(severityOf(claim({ reach: reach('approval'), raceAfterApproval: true }))).toBe('MEDIUM');
    expect(severityOf(claim({ reach: reach('unreviewed-environment') }))).toBe('MEDIUM');
  });

  it("a fork's read-only pull_request run counts only for the machine it runs on", () => {
    expect(severityOf(claim({ reach: reach('collaborator', true), forkHolds: [] }))).toBe('LOW');
    expect(severityOf(claim({ reach: reach('collaborator', true), forkHolds: ['a self-hosted runner'] }))).toBe('HIGH');
  });
});
