import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';
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
  describe('a workflow that approves fork runs itself', () => {
    const ci = (runsOn: string) => ({ path: '.github/workflows/ci.yml', text: `name: CI\non: pull_request\njobs:\n  test:\n    runs-on: ${runsOn}\n    steps:\n      - uses: actions/checkout@v3\n      - run: make test\n` });
    const approver = (on: string, condition: string, call: string) => ({
      path: '.github/workflows/approve.yml',
      text: yaml`
        on: ${on}
        permissions:
          actions: write
        jobs:
          approve:
            runs-on: ubuntu-latest${condition}
            steps:
              - env:
                  GH_TOKEN: \${{ github.token }}
                run: ${call}
      `,
    });
    const ghApi = 'gh api -X POST "repos/${{ github.repository }}/actions/runs/$RUN_ID/approve"';
    const sticky = "\n            if: contains(github.event.pull_request.labels.*.name, 'ok-to-test')";

    it('is LOW when the approved pull_request runs hold nothing, at the API call', () => {
      const findings = scanWith(RULE, [ci('ubuntu-latest'), approver('{ pull_request_target: { types: [labeled, synchronize] } }', sticky, ghApi)]);
      expect(positions(findings)).toEqual(['11:60 LOW']);
      expect(findings[0]?.file).toBe('.github/workflows/approve.yml');
      expect(findings[0]?.description).toContain('once a maintainer has labelled the pull request');
      expect(findings[0]?.description).toContain('read-only token and no secrets');
      const every = scanWith(RULE, [ci('ubuntu-latest'), approver('pull_request_target', '', ghApi)]);
      expect(positions(every)).toEqual(['10:60 LOW']);
      expect(every[0]?.description).toContain('whenever `pull_request_target` runs');
      const scheduled = scanWith(RULE, [ci('ubuntu-latest'), approver("{ schedule: [{ cron: '0 * * * *' }] }", '', 'curl -X POST --oauth2-bearer "$GH_TOKEN" https://api.github.com/repos/o/r/actions/runs/$ID/approve')]);
      expect(positions(scheduled)).toEqual(['10:87 LOW']);
      expect(scheduled[0]?.description).toContain('on a schedule');
    });

    it('is MEDIUM when a pull_request job runs on a self-hosted runner', () => {
      const findings = scanWith(RULE, [ci('[self-hosted, linux]'), approver('pull_request_target', '', 'node -e "github.rest.actions.approveWorkflowRun()"')]);
      expect(positions(findings)).toEqual(['10:43 MEDIUM']);
      expect(findings[0]?.description).toContain('job `test` of `.github/workflows/ci.yml` runs a fork\'s pull request with a self-hosted runner');
    });

    it('stays silent for a maintainer\'s act per run, a token that cannot approve, and other API calls', () => {
      // The `labeled` event on the label it adds: a maintainer approves each time.
      expect(scanWith(RULE, [ci('ubuntu-latest'), approver('{ pull_request_target: { types: [labeled] } }', "\n            if: github.event.label.name == 'ok-to-test'", ghApi)])).toEqual([]);
      expect(scanWith(RULE, [ci('ubuntu-latest'), approver('workflow_dispatch', '', ghApi)])).toEqual([]);
      expect(scanWith(RULE, [ci('ubuntu-latest'), approver('pull_request_target', '', 'gh api repos/o/r/actions/runs/$RUN_ID/jobs')])).toEqual([]);
      const readOnly = yaml`
        on: pull_request_target
        permissions:
          contents: read
        jobs:
          approve:
            runs-on: ubuntu-latest
            steps:
              - run: gh api -X POST repos/o/r/actions/runs/$RUN_ID/approve
      `;
      expect(scanWith(RULE, readOnly)).toEqual([]);
    });
  });
});
