import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { FORBIDDEN, PRIVATE_REPOSITORY, PUBLIC_REPOSITORY, settingsFindings } from '../../../support/settings.js';

const RULE = 'self-hosted-runner-public-repo';
const runner = (id: number, name: string, status = 'online') => ({ id, name, os: 'linux', status, busy: false, labels: [{ id: 1, name: 'self-hosted', type: 'read-only' }] });
const runners = (...list: ReturnType<typeof runner>[]) => ({ total_count: list.length, runners: list });

describe(RULE, () => {
  it('reports self-hosted runners registered to a public repository, naming them', () => {
    const findings = settingsFindings(RULE, { repository: PUBLIC_REPOSITORY, runners: runners(runner(1, 'build-01'), runner(2, 'build-02', 'offline')) });
    expect(positions(findings)).toEqual(['0:0 HIGH']);
    expect(findings[0]?.description).toContain('This public repository has 2 self-hosted runners registered: `build-01` (online) and `build-02` (offline).');
  });

  it('names three runners and counts the rest, including runners beyond the page', () => {
    const page = runners(runner(1, 'a'), runner(2, 'b'), runner(3, 'c'), runner(4, 'd'));
    const findings = settingsFindings(RULE, { repository: PUBLIC_REPOSITORY, runners: { ...page, total_count: 40 } });
    expect(findings[0]?.description).toContain('40 self-hosted runners registered: `a` (online), `b` (online), `c` (online) and 37 more.');
  });

  it('accepts a public repository without runners and ignores private ones', () => {
    expect(settingsFindings(RULE, { repository: PUBLIC_REPOSITORY, runners: { total_count: 0, runners: [] } })).toEqual([]);
    expect(settingsFindings(RULE, { repository: PRIVATE_REPOSITORY, runners: runners(runner(1, 'build-01')) })).toEqual([]);
  });

  it('stays silent while Actions is disabled', () => {
    expect(settingsFindings(RULE, { repository: PUBLIC_REPOSITORY, runners: runners(runner(1, 'x')), actions_permissions: { enabled: false } })).toEqual([]);
  });

  it('stays silent when runners or the repository is unreadable', () => {
    expect(settingsFindings(RULE, { repository: PUBLIC_REPOSITORY, unreadable: { runners: FORBIDDEN } })).toEqual([]);
    expect(settingsFindings(RULE, { runners: runners(runner(1, 'x')) })).toEqual([]);
  });
});
