import { describe, expect, it } from 'vitest';
import { environmentProtection, reviewedEnvironments } from '../../../../lib/engine/settings/environments.js';
import type { SettingsSnapshot } from '../../../../lib/engine/settings/snapshot.js';
import { scanWith, yaml } from '../../../support/engine.js';

/** GitHub's `GET /repos/{o}/{r}/environments` body: `production` has required reviewers, `staging` a wait timer. */
const ENVIRONMENTS = {
  total_count: 3,
  environments: [
    { id: 1, name: 'Production', protection_rules: [{ id: 11, type: 'required_reviewers', prevent_self_review: true, reviewers: [{ type: 'Team', reviewer: { slug: 'release' } }] }] },
    { id: 2, name: 'staging', protection_rules: [{ id: 12, type: 'wait_timer', wait_timer: 5 }] },
    { id: 3, name: 'empty', protection_rules: [{ id: 13, type: 'required_reviewers', reviewers: [] }] },
  ],
};
const SETTINGS: SettingsSnapshot = { environments: ENVIRONMENTS };

const injection = (environment: string) => yaml`
  on: issue_comment
  jobs:
    deploy:
      runs-on: ubuntu-latest
      environment: ${environment}
      steps:
        - run: echo "\${{ github.event.comment.body }}"
`;

const checkout = (environment: string) => yaml`
  on: pull_request_target
  jobs:
    test:
      runs-on: ubuntu-latest
      environment: ${environment}
      steps:
        - uses: actions/checkout@v3
          with:
            ref: refs/pull/\${{ github.event.pull_request.number }}/head
        - run: npm test
`;

const envWrite = (environment: string) => yaml`
  on: issues
  jobs:
    j:
      runs-on: ubuntu-latest
      environment: ${environment}
      steps:
        - run: echo "TITLE=\${{ github.event.issue.title }}" >> "$GITHUB_ENV"
        - run: ./scripts/triage.sh
`;

describe('environments with required reviewers as a gate', () => {
  it('reads the environments with a required_reviewers rule that names reviewers, case-insensitively', () => {
    expect([...reviewedEnvironments(SETTINGS)]).toEqual(['production']);
    expect(reviewedEnvironments(undefined).size).toBe(0);
    expect(reviewedEnvironments({ environments: ENVIRONMENTS, unreadable: { environments: '403 Resource not accessible by integration' } }).size).toBe(0);
    expect(reviewedEnvironments({ environments: { message: 'Not Found' } }).size).toBe(0);
  });

  it('lowers script-injection in a job deploying to a reviewed environment to LOW and names the environment', () => {
    const [finding] = scanWith('script-injection', injection('production'), { settings: SETTINGS });
    expect(finding?.severity).toBe('LOW');
    expect(finding?.description).toContain('environment `production`, whose required reviewers');
  });

  it('keeps script-injection HIGH for an environment without reviewers, or one with an empty reviewer list; MEDIUM without a snapshot (docs/severity.md)', () => {
    // Without a snapshot the environment is an approval of unknown strength: MEDIUM at most, naming it.
    const unknown = scanWith('script-injection', injection('production'));
    expect(unknown.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(unknown[0]?.description).toContain('unless the environment');
    expect(scanWith('script-injection', injection('staging'), { settings: SETTINGS }).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith('script-injection', injection('empty'), { settings: SETTINGS }).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith('script-injection', injection('production'), { settings: { repository: { private: false } } }).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('lowers untrusted-checkout in a reviewed environment to MEDIUM (the checked-out ref can still move after the approval), with the reason', () => {
    const [finding] = scanWith('untrusted-checkout', checkout('{ name: production, url: "https://example.com" }'), { settings: SETTINGS });
    expect(finding?.severity).toBe('MEDIUM');
    expect(finding?.description).toContain('a maintainer approves each run first (environment `production`)');
    expect(finding?.description).toContain('commits pushed after the approval run');
    // Without a snapshot the environment is an approval of unknown strength: MEDIUM at most.
    expect(scanWith('untrusted-checkout', checkout('production')).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith('untrusted-checkout', checkout('staging'), { settings: SETTINGS }).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('lowers github-env-injection in a reviewed environment to LOW, and not in an unreviewed one', () => {
    const [finding] = scanWith('github-env-injection', envWrite('production'), { settings: SETTINGS });
    expect(finding?.severity).toBe('LOW');
    expect(finding?.description).toContain('required reviewers');
    expect(scanWith('github-env-injection', envWrite('staging'), { settings: SETTINGS }).map((f) => f.severity)).not.toContain('LOW');
  });

  it('does not gate an environment named by an expression', () => {
    expect(scanWith('script-injection', injection('${{ inputs.target }}'), { settings: SETTINGS }).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

const pinnedCheckout = (environment: string) => yaml`
  on: pull_request_target
  jobs:
    test:
      runs-on: ubuntu-latest
      environment: ${environment}
      steps:
        - uses: actions/checkout@v3
          with:
            ref: \${{ github.event.pull_request.head.sha }}
        - run: npm test
`;

describe('environments the snapshot shows without required reviewers', () => {
  it('knows an environment listed without reviewers, or missing from a complete list, as unreviewed; nothing about the rest', () => {
    const facts = environmentProtection(SETTINGS);
    expect(facts?.isUnreviewed('STAGING')).toBe(true);
    expect(facts?.isUnreviewed('empty')).toBe(true);
    expect(facts?.isUnreviewed('never-declared')).toBe(true);
    expect(facts?.isUnreviewed('production')).toBe(false);
    // A first page (total_count above the listed ones) says nothing about environments it does not list.
    const page = environmentProtection({ environments: { ...ENVIRONMENTS, total_count: 40 } });
    expect(page?.isUnreviewed('staging')).toBe(true);
    expect(page?.isUnreviewed('never-declared')).toBe(false);
    expect(environmentProtection({ environments: { environments: ENVIRONMENTS.environments } })?.isUnreviewed('never-declared')).toBe(false);
    expect(environmentProtection(undefined)).toBeNull();
    expect(environmentProtection({ environments: ENVIRONMENTS, unreadable: { environments: '403' } })).toBeNull();
  });

  it('an approval of unknown strength without facts: a pinned head SHA is MEDIUM, saying the reviewers were not checked', () => {
    const [offline] = scanWith('untrusted-checkout', pinnedCheckout('staging'));
    expect(offline?.severity).toBe('MEDIUM');
    expect(offline?.description).toContain('unless the environment (environment `staging`) has required reviewers');
    expect(offline?.description).toContain('could not be checked without a settings snapshot');
    // A first page of environments that does not list it says nothing about it either.
    const partial = scanWith('untrusted-checkout', pinnedCheckout('never-declared'), { settings: { environments: { ...ENVIRONMENTS, total_count: 40 } } });
    expect(partial.map((f) => f.severity)).toEqual(['MEDIUM']);
    // An approval the workflow shows (a label on a `labeled`-only workflow) needs no settings: LOW, naming it.
    const labelled = scanWith('untrusted-checkout', pinnedCheckout('staging').replace('on: pull_request_target', "on:\n  pull_request_target:\n    types: [labeled]").replace('    runs-on: ubuntu-latest', "    if: github.event.label.name == 'safe to test'\n    runs-on: ubuntu-latest"));
    expect(labelled.map((f) => f.severity)).toEqual(['LOW']);
    expect(labelled[0]?.description).toContain("github.event.label.name == 'safe to test'");
  });

  it('no approval at all once the snapshot shows nobody reviews it: the pinned checkout is HIGH', () => {
    expect(scanWith('untrusted-checkout', pinnedCheckout('staging'), { settings: SETTINGS }).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith('untrusted-checkout', pinnedCheckout('never-declared'), { settings: SETTINGS }).map((f) => f.severity)).toEqual(['HIGH']);
    // Reviewed, and the approved commit is what runs: LOW, naming the environment.
    expect(scanWith('untrusted-checkout', pinnedCheckout('production'), { settings: SETTINGS }).map((f) => f.severity)).toEqual(['LOW']);
  });
});
