import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { FORBIDDEN, PRIVATE_REPOSITORY, PUBLIC_REPOSITORY, settingsFindings } from '../../../support/settings.js';

const RULE = 'fork-pr-approval-weak';
const policy = (approval_policy: string) => ({ approval_policy });

describe(RULE, () => {
  it('reports the two policies weaker than "all external contributors" on a public repository', () => {
    const firstTime = settingsFindings(RULE, { repository: PUBLIC_REPOSITORY, fork_pr_approval: policy('first_time_contributors') });
    expect(positions(firstTime)).toEqual(['0:0 MEDIUM']);
    expect(firstTime[0]?.description).toContain('policy is `first_time_contributors`, so only first-time contributors need approval');
    const newToGitHub = settingsFindings(RULE, { repository: PUBLIC_REPOSITORY, fork_pr_approval: policy('first_time_contributors_new_to_github') });
    expect(newToGitHub[0]?.description).toContain('any established account runs workflows from its fork');
  });

  it('accepts all_external_contributors and ignores unknown policies', () => {
    expect(settingsFindings(RULE, { repository: PUBLIC_REPOSITORY, fork_pr_approval: policy('all_external_contributors') })).toEqual([]);
    expect(settingsFindings(RULE, { repository: PUBLIC_REPOSITORY, fork_pr_approval: policy('something_new') })).toEqual([]);
  });

  it('applies to public repositories only', () => {
    expect(settingsFindings(RULE, { repository: PRIVATE_REPOSITORY, fork_pr_approval: policy('first_time_contributors') })).toEqual([]);
    expect(settingsFindings(RULE, { repository: { ...PUBLIC_REPOSITORY, visibility: 'internal', private: true }, fork_pr_approval: policy('first_time_contributors') })).toEqual([]);
    expect(settingsFindings(RULE, { repository: { private: false }, fork_pr_approval: policy('first_time_contributors') })).toHaveLength(1);
  });

  it('stays silent while Actions is disabled', () => {
    expect(settingsFindings(RULE, { repository: PUBLIC_REPOSITORY, fork_pr_approval: policy('first_time_contributors'), actions_permissions: { enabled: false } })).toEqual([]);
  });

  it('stays silent when the policy or the repository is unreadable', () => {
    expect(settingsFindings(RULE, { repository: PUBLIC_REPOSITORY, unreadable: { fork_pr_approval: FORBIDDEN } })).toEqual([]);
    expect(settingsFindings(RULE, { fork_pr_approval: policy('first_time_contributors') })).toEqual([]);
  });
});
