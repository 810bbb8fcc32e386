import { describe, expect, it } from 'vitest';
import { cannotFire, countCombinations, findCombinations } from '../../../../lib/engine/combinations/index.js';
import { scanRepository } from '../../../../lib/engine/scan.js';
import { SETTINGS_FILE } from '../../../../lib/engine/types.js';
import { CI_WORKFLOW, PR_WORKFLOW, all, rec, without } from './support.js';

const ids = (records: Parameters<typeof findCombinations>[0], isEnabled: (id: string) => boolean = all) => findCombinations(records, isEnabled).map((c) => `${c.id} ${c.file}`);

describe('disabled rules', () => {
  const records = [
    rec('missing-permissions', { line: 1, job: null }),
    rec('untrusted-checkout', { line: 12, job: 'test' }),
    rec('persisted-credentials', { line: 12, job: 'test', severity: 'MEDIUM' }),
  ];

  it('a disabled required ingredient forms no combination', () => {
    expect(ids(records, without('missing-permissions'))).toEqual([]);
    expect(ids(records, without('untrusted-checkout'))).toEqual([]);
  });

  it('another enabled alternative of the group still forms it', () => {
    const withSettings = [...records, rec('default-token-write')];
    const [combination] = findCombinations(withSettings, without('missing-permissions'));
    expect(combination?.components.map((c) => c.rule_id)).toEqual(['untrusted-checkout', 'default-token-write', 'persisted-credentials']);
  });

  it('a disabled amplifier is neither a component nor a stage', () => {
    const [combination] = findCombinations(records, without('persisted-credentials'));
    expect(combination?.components.map((c) => c.rule_id)).toEqual(['untrusted-checkout', 'missing-permissions']);
    expect(combination?.stages.map((s) => s.rule_id)).toEqual(['untrusted-checkout', 'missing-permissions', '']);
  });

  it('amplifiers are appended when present and enabled', () => {
    const [combination] = findCombinations(records, all);
    expect(combination?.components.map((c) => c.rule_id)).toEqual(['untrusted-checkout', 'missing-permissions', 'persisted-credentials']);
  });
});

describe('same-job binding in file scope', () => {
  it('ingredients bound to different jobs of one file do not combine', () => {
    expect(
      ids([rec('untrusted-checkout', { line: 12, job: 'test' }), rec('secrets-inherit', { line: 30, job: 'release', severity: 'HIGH' })]),
    ).toEqual([]);
  });

  it('ingredients in different files do not combine', () => {
    expect(ids([rec('untrusted-checkout', { line: 12, job: 'test' }), rec('secrets-inherit', { file: CI_WORKFLOW, line: 30, job: 'test' })])).toEqual([]);
  });

  it('a workflow-level finding (job null) binds to every job of its file', () => {
    const permissions = rec('excessive-permissions', { line: 3, job: null });
    for (const job of ['lint', 'test']) {
      const combinations = findCombinations([permissions, rec('script-injection', { line: 20, job })], all);
      expect(combinations.map((c) => c.id)).toEqual(['injection-token-theft']);
      expect(combinations[0]?.components[1]?.finding).toEqual(permissions.finding);
    }
  });

  it('a stored record without a job binding counts as workflow-level', () => {
    const stored = { ...rec('missing-permissions', { line: 1 }), job: undefined as unknown as null };
    expect(ids([stored, rec('untrusted-checkout', { line: 12, job: 'test' })])).toEqual([`pwn-request ${PR_WORKFLOW}`]);
  });

  it('a workflow-level finding does not reach another file', () => {
    expect(ids([rec('excessive-permissions', { file: CI_WORKFLOW, line: 3, job: null }), rec('script-injection', { line: 20, job: 'lint' })])).toEqual([]);
  });

  it('settings findings join a file-scoped chain', () => {
    const combinations = findCombinations([rec('script-injection', { line: 20, job: 'lint' }), rec('default-token-write')], all);
    expect(combinations.map((c) => `${c.id} ${c.file}`)).toEqual([`injection-token-theft ${PR_WORKFLOW}`]);
    expect(combinations[0]?.components.map((c) => c.finding.file)).toEqual([PR_WORKFLOW, SETTINGS_FILE]);
  });

  it('binds to the job in which every group is filled, and takes that job’s findings', () => {
    const inLint = rec('untrusted-checkout', { line: 10, job: 'lint' });
    const inTest = rec('untrusted-checkout', { line: 30, job: 'test' });
    const testSecrets = rec('secrets-inherit', { line: 40, job: 'test', severity: 'HIGH' });
    const [combination] = findCombinations([inLint, inTest, testSecrets], all);
    expect(combination?.components.map((c) => c.finding)).toEqual([inTest.finding, testSecrets.finding]);
  });

  it('amplifiers from another job are not appended', () => {
    const combinations = findCombinations(
      [
        rec('untrusted-checkout', { line: 10, job: 'test' }),
        rec('missing-permissions', { line: 1, job: null }),
        rec('persisted-credentials', { line: 40, job: 'other', severity: 'MEDIUM' }),
      ],
      all,
    );
    expect(combinations[0]?.components.map((c) => c.rule_id)).toEqual(['untrusted-checkout', 'missing-permissions']);
  });

  it('gives at most one instance per kind and file, one per file across files', () => {
    const records = [
      rec('missing-permissions', { line: 1, job: null }),
      rec('untrusted-checkout', { line: 10, job: 'a' }),
      rec('untrusted-checkout', { line: 30, job: 'b' }),
      rec('missing-permissions', { file: CI_WORKFLOW, line: 1, job: null }),
      rec('untrusted-checkout', { file: CI_WORKFLOW, line: 10, job: 'a' }),
    ];
    expect(ids(records)).toEqual([`pwn-request ${CI_WORKFLOW}`, `pwn-request ${PR_WORKFLOW}`]);
  });

  it('prefers earlier alternatives of a group, then earlier findings', () => {
    const records = [
      rec('default-token-write'),
      rec('excessive-permissions', { line: 4, job: null }),
      rec('missing-permissions', { line: 2, job: 'test' }),
      rec('missing-permissions', { line: 1, job: null }),
      rec('untrusted-checkout', { line: 12, job: 'test' }),
    ];
    const [combination] = findCombinations(records, all);
    expect(combination?.components[1]?.finding).toEqual(records[3]?.finding);
  });
});

describe('instance qualifiers', () => {
  it('only a third-party (MEDIUM) unpinned-action forms mutable-action-secret-theft', () => {
    const secrets = rec('personal-access-token', { line: 20, job: 'release' });
    const githubOwned = rec('unpinned-action', { line: 12, job: 'release', severity: 'LOW', description: '`actions/setup-node@v4` is not pinned to a commit SHA.' });
    expect(ids([githubOwned, secrets]).filter((x) => x.startsWith('mutable'))).toEqual([]);
    const thirdParty = rec('unpinned-action', { line: 14, job: 'release', severity: 'MEDIUM' });
    const [combination] = findCombinations([githubOwned, thirdParty, secrets], all);
    expect(combination?.components[0]?.finding).toEqual(thirdParty.finding);
  });

  it('only a self-hosted-runner that runs a fork pull request\'s code (HIGH) forms public-runner-takeover', () => {
    const publicRunners = rec('self-hosted-runner-public-repo');
    expect(ids([rec('self-hosted-runner', { severity: 'LOW', line: 7 }), publicRunners])).toEqual([]);
    expect(ids([rec('self-hosted-runner', { severity: 'HIGH', line: 7, facts: ['exec', 'holds:self-hosted', 'reach:anyone', 'reach:fork-pr'] }), publicRunners])).toEqual([`public-runner-takeover ${PR_WORKFLOW}`]);
    // A privileged run's checkout (no fork pull_request run) is another path; a custom label may be a hosted runner.
    expect(ids([rec('self-hosted-runner', { severity: 'HIGH', line: 7, facts: ['exec', 'holds:self-hosted', 'reach:anyone'] }), publicRunners])).toEqual([]);
    expect(ids([rec('self-hosted-runner', { severity: 'HIGH', line: 7, facts: ['exec', 'reach:anyone', 'reach:fork-pr', 'runner:possible'] }), publicRunners])).toEqual([]);
  });

  it('only a workspace-uploading (HIGH) persisted-credentials forms token-leak-via-artifact', () => {
    const trigger = rec('dangerous-trigger', { line: 2, job: null });
    expect(ids([rec('persisted-credentials', { line: 9, severity: 'MEDIUM' }), trigger])).toEqual([]);
    expect(ids([rec('persisted-credentials', { line: 9, severity: 'HIGH' }), trigger])).toEqual([`token-leak-via-artifact ${PR_WORKFLOW}`]);
  });

  it('unqualified uses of the same rule take any case', () => {
    const records = [rec('download-without-checksum', { line: 5 }), rec('continue-on-error', { line: 9, severity: 'LOW' })];
    expect(ids(records)).toEqual([`silent-supply-chain-tampering ${PR_WORKFLOW}`]);
  });

  it('silent-supply-chain-tampering needs a third-party (MEDIUM) unpinned action, not a GitHub-owned tag (LOW)', () => {
    const download = rec('download-without-checksum', { line: 5 });
    expect(ids([download, rec('unpinned-action', { line: 9, severity: 'LOW' })])).toEqual([]);
    expect(ids([download, rec('unpinned-action', { line: 9, severity: 'MEDIUM' })])).toEqual([`silent-supply-chain-tampering ${PR_WORKFLOW}`]);
  });
});

describe('repo scope', () => {
  it('forms at most one instance per repository, at the first workflow component', () => {
    const records = [
      rec('pipe-to-shell', { file: CI_WORKFLOW, line: 14, job: 'setup' }),
      rec('self-hosted-runner', { file: CI_WORKFLOW, line: 6, job: 'setup' }),
      rec('pipe-to-shell', { file: PR_WORKFLOW, line: 20, job: 'build' }),
      rec('self-hosted-runner', { file: PR_WORKFLOW, line: 6, job: 'build' }),
    ];
    const combinations = findCombinations(records, all);
    expect(combinations.map((c) => `${c.id} ${c.file}`)).toEqual([`remote-script-on-runner ${CI_WORKFLOW}`]);
    expect(combinations[0]?.components.map((c) => `${c.finding.file}:${c.finding.line}`)).toEqual([`${CI_WORKFLOW}:14`, `${CI_WORKFLOW}:6`]);
  });

  it('joins workflow findings of one file and job only; settings from anywhere', () => {
    expect(ids([rec('pipe-to-shell', { file: CI_WORKFLOW, line: 14, job: 'a' }), rec('self-hosted-runner', { line: 6, job: 'b' })])).toEqual([]);
    expect(ids([rec('pipe-to-shell', { file: CI_WORKFLOW, line: 14, job: 'a' }), rec('self-hosted-runner', { file: CI_WORKFLOW, line: 16, job: 'b' })])).toEqual([]);
    expect(ids([rec('pipe-to-shell', { file: CI_WORKFLOW, line: 14, job: 'a' }), rec('self-hosted-runner', { file: CI_WORKFLOW, line: 6, job: 'a' })])).toEqual([
      `remote-script-on-runner ${CI_WORKFLOW}`,
    ]);
    expect(ids([rec('download-without-checksum', { file: CI_WORKFLOW, line: 14, job: 'a' }), rec('unpinned-action', { line: 6, job: 'a' })])).toEqual([]);
  });

  it('runs no remote-script-on-runner from a LOW pipe-to-shell (a vendor installer over HTTPS)', () => {
    const runner = rec('self-hosted-runner', { file: CI_WORKFLOW, line: 6, job: 'a' });
    expect(ids([rec('pipe-to-shell', { file: CI_WORKFLOW, line: 14, job: 'a', severity: 'LOW' }), runner])).toEqual([]);
    expect(ids([rec('pipe-to-shell', { file: CI_WORKFLOW, line: 14, job: 'a', severity: 'MEDIUM' }), runner])).toEqual([`remote-script-on-runner ${CI_WORKFLOW}`]);
    // A LOW installer in the runner's job does not borrow a MEDIUM one from another job.
    expect(
      ids([rec('pipe-to-shell', { file: CI_WORKFLOW, line: 14, job: 'a', severity: 'LOW' }), rec('pipe-to-shell', { file: CI_WORKFLOW, line: 30, job: 'b', severity: 'HIGH' }), runner]),
    ).toEqual([]);
  });

  it('claims no foothold on a runner that may be a GitHub-hosted larger runner (a MEDIUM self-hosted-runner)', () => {
    const maybeHosted = rec('self-hosted-runner', { file: CI_WORKFLOW, line: 6, job: 'a', severity: 'MEDIUM', facts: ['exec', 'reach:anyone', 'runner:possible'] });
    const labelled = rec('self-hosted-runner', { file: CI_WORKFLOW, line: 6, job: 'a', severity: 'HIGH', facts: ['exec', 'holds:self-hosted', 'reach:anyone'] });
    const injection = rec('script-injection', { file: CI_WORKFLOW, line: 14, job: 'a', severity: 'HIGH', facts: ['exec', 'holds', 'holds:self-hosted', 'reach:anyone'] });
    const installer = rec('pipe-to-shell', { file: CI_WORKFLOW, line: 20, job: 'a', severity: 'MEDIUM' });
    expect(ids([injection, maybeHosted])).toEqual([]);
    expect(ids([installer, maybeHosted])).toEqual([]);
    expect(ids([injection, labelled])).toEqual([`injected-runner-takeover ${CI_WORKFLOW}`]);
    expect(ids([installer, labelled])).toEqual([`remote-script-on-runner ${CI_WORKFLOW}`]);
  });

  it('crosses files only where a shared store carries the attack (the Actions cache)', () => {
    expect(ids([rec('untrusted-checkout', { line: 12, job: 'test' }), rec('cache-poisoning', { file: CI_WORKFLOW, line: 20, job: 'release', facts: ['holds:publish', `writer:${PR_WORKFLOW}#test`] })])).toEqual([
      `cache-poisoning-release ${PR_WORKFLOW}`,
    ]);
  });

  it('joins a release restore only with a writer its finding names (writer:<file>#<job>)', () => {
    const release = (writers: string[]) => rec('cache-poisoning', { file: CI_WORKFLOW, line: 20, job: 'release', facts: ['holds:publish', ...writers.map((w) => `writer:${w}`)] });
    const checkout = rec('untrusted-checkout', { line: 12, job: 'test' });
    const injection = rec('script-injection', { file: '.github/workflows/triage.yml', line: 9, job: 'triage' });
    // Named nowhere: the entry findings exist, but the release's cache is written by none of them.
    expect(ids([checkout, injection, release([])])).toEqual([]);
    expect(ids([checkout, release(['.github/workflows/other.yml#test'])])).toEqual([]);
    // The checkout comes first in the group, but only the injection's job is named: the path takes the injection.
    const linked = findCombinations([checkout, injection, release(['.github/workflows/triage.yml#triage'])], all).find((c) => c.id === 'cache-poisoning-release');
    expect(linked?.components.map((c) => `${c.rule_id} ${c.finding.file}`)).toEqual(['script-injection .github/workflows/triage.yml', 'cache-poisoning .github/workflows/ci.yml']);
    // A checkout whose code nothing runs is no writer, even in a named job.
    expect(ids([rec('untrusted-checkout', { line: 12, job: 'test', severity: 'MEDIUM', facts: ['holds', 'reach:anyone'] }), release([`${PR_WORKFLOW}#test`])])).toEqual([]);
  });

  it('says the writer writes the entry by hand, and when the release takes it, only when the release finding carries cache:by-hand', () => {
    const checkout = rec('untrusted-checkout', { line: 12, job: 'test' });
    const release = (facts: string[]) => rec('cache-poisoning', { file: CI_WORKFLOW, line: 20, job: 'release', facts: ['holds:publish', `writer:${PR_WORKFLOW}#test`, ...facts] });
    const path = (facts: string[]) => findCombinations([checkout, release(facts)], all).find((c) => c.id === 'cache-poisoning-release');
    const byHand = path(['cache:by-hand']);
    expect(byHand?.severity).toBe('HIGH');
    expect(byHand?.impact).toContain("in a job that saves no cache the release restores, writes a poisoned entry under the release's cache key by hand through the runner's cache token");
    expect(byHand?.stages.at(-1)?.description).toContain('the first time that key has no entry (after a lockfile or cache key change) or once the legitimate entry is evicted');
    expect(byHand?.break_chain).toContain(`At ${CI_WORKFLOW}:20`);
    expect(byHand?.break_chain).toContain('taking caching out of that job does not break the chain');
    // A writer that saves the cache itself: the plain texts.
    const natural = path([]);
    expect(natural?.severity).toBe('HIGH');
    expect(natural?.impact).not.toContain('by hand');
    expect(natural?.break_chain).not.toContain('by hand');
  });

  it('sits at <repository settings> when every component is a settings finding', () => {
    expect(ids([rec('actions-can-approve-prs'), rec('review-not-required')])).toEqual([`review-bypass ${SETTINGS_FILE}`]);
  });
});

describe('output', () => {
  const records = [
    rec('debug-logging-enabled', { file: CI_WORKFLOW, line: 4, job: null }),
    rec('secret-in-log', { file: CI_WORKFLOW, line: 18, job: 'deploy' }),
    rec('script-injection', { file: CI_WORKFLOW, line: 20, job: 'deploy' }),
    rec('missing-permissions', { file: CI_WORKFLOW, line: 1, job: null }),
    rec('missing-permissions', { line: 1, job: null }),
    rec('untrusted-checkout', { line: 12, job: 'test' }),
    rec('script-injection', { line: 14, job: 'test' }),
  ];

  it('orders CRITICAL before HIGH, then by id, then by file', () => {
    expect(ids(records)).toEqual([
      `injection-secret-exfiltration ${CI_WORKFLOW}`,
      `injection-token-theft ${CI_WORKFLOW}`,
      `injection-token-theft ${PR_WORKFLOW}`,
      `pwn-request ${PR_WORKFLOW}`,
      `secret-exposure-in-logs ${CI_WORKFLOW}`,
    ]);
    expect(countCombinations(findCombinations(records, all))).toEqual({ critical_count: 4, high_count: 1 });
  });

  it('does not depend on the order of the input', () => {
    const expected = findCombinations(records, all);
    expect(findCombinations([...records].reverse(), all)).toEqual(expected);
    expect(findCombinations([...records.slice(3), ...records.slice(0, 3)], all)).toEqual(expected);
  });

  it('has the Combination shape of the API, components in the public nine-field Finding shape', () => {
    const stored = records.map((r) => ({ ...r, finding: { ...r.finding, id: 'db-row-id', scan_id: 'x' } }));
    const [combination] = findCombinations(stored, all);
    expect(Object.keys(combination ?? {})).toEqual(['id', 'title', 'severity', 'scope', 'file', 'impact', 'break_chain', 'break_chain_rule', 'stages', 'components']);
    expect(Object.keys(combination?.components[0]?.finding ?? {})).toEqual([
      'file',
      'line',
      'column',
      'severity',
      'category',
      'rule_id',
      'title',
      'description',
      'recommendation',
    ]);
    const last = combination?.stages.at(-1);
    expect(last).toEqual({ order: (combination?.stages.length ?? 0) - 1, title: expect.any(String), description: expect.stringContaining(String(combination?.impact)), rule_id: '' });
  });

  it('is empty without findings', () => {
    expect(findCombinations([], all)).toEqual([]);
    expect(countCombinations([])).toEqual({ critical_count: 0, high_count: 0 });
  });
});

describe('the attacker model in paths', () => {
  it('a LOW entry finding (a collaborator-only value, a gated one) starts no path', () => {
    expect(ids([rec('script-injection', { line: 20, job: 'lint', severity: 'LOW' }), rec('missing-permissions', { line: 1, job: null })])).toEqual([]);
    expect(ids([rec('untrusted-checkout', { line: 12, job: 'test', severity: 'LOW' }), rec('missing-permissions', { line: 1, job: null })])).toEqual([]);
  });

  it('a CRITICAL kind is CRITICAL only when its entry is an outsider\'s unguarded HIGH finding', () => {
    const severityOf = (severity: 'HIGH' | 'MEDIUM') =>
      findCombinations([rec('script-injection', { line: 20, job: 'lint', severity }), rec('missing-permissions', { line: 1, job: null })], all).map((c) => `${c.id} ${c.severity}`);
    expect(severityOf('HIGH')).toEqual(['injection-token-theft CRITICAL']);
    expect(severityOf('MEDIUM')).toEqual(['injection-token-theft HIGH']);
  });

  it('a chain whose entry only a maintainer\'s act starts is MEDIUM, whatever its kind and the entry\'s own severity', () => {
    const TRIAGE = '.github/workflows/triage.yml';
    const write = rec('excessive-permissions', { file: TRIAGE, line: 3, job: null });
    const agent = (severity: 'HIGH' | 'MEDIUM', facts: string[]) =>
      findCombinations([rec('agent-untrusted-input', { file: TRIAGE, line: 14, job: 'triage', severity, facts: ['holds', 'holds:token', ...facts] }), write], all).map((c) => `${c.id} ${c.severity}`);
    // Anyone starts it: the kind's HIGH, on a MEDIUM entry (no free shell) as on a HIGH one.
    expect(agent('MEDIUM', ['reach:anyone'])).toEqual(['agent-prompt-injection-takeover HIGH']);
    expect(agent('HIGH', ['reach:anyone'])).toEqual(['agent-prompt-injection-takeover HIGH']);
    expect(agent('MEDIUM', ['reach:sticky-label'])).toEqual(['agent-prompt-injection-takeover HIGH']);
    // A member's comment, a label, the action's own write-access check: the outsider only writes the thread.
    expect(agent('MEDIUM', ['reach:approval', 'event:issue_comment'])).toEqual(['agent-prompt-injection-takeover MEDIUM']);
    expect(agent('HIGH', ['reach:approval'])).toEqual(['agent-prompt-injection-takeover MEDIUM']);
    // A finding without reach facts is not lowered.
    expect(findCombinations([rec('agent-untrusted-input', { file: TRIAGE, line: 14, job: 'triage', severity: 'MEDIUM', facts: ['holds:token'] }), write], all).map((c) => c.severity)).toEqual(['HIGH']);
    // The same rule for another kind: a cache writer's injection behind a maintainer's approval.
    const release = rec('cache-poisoning', { file: CI_WORKFLOW, line: 20, job: 'release', facts: ['holds:publish', `writer:${PR_WORKFLOW}#test`] });
    const writer = (facts: string[]) =>
      findCombinations([rec('script-injection', { line: 20, job: 'test', severity: 'MEDIUM', facts: ['exec', ...facts] }), release], all).map((c) => `${c.id} ${c.severity}`);
    expect(writer(['reach:anyone'])).toEqual(['cache-poisoning-release HIGH']);
    expect(writer(['reach:approval'])).toEqual(['cache-poisoning-release MEDIUM']);
    // The lowered path says why, naming its way in; the unlowered one does not.
    const described = (facts: string[]) =>
      findCombinations([rec('script-injection', { line: 20, job: 'test', severity: 'MEDIUM', facts: ['exec', ...facts] }), release], all).map((c) => c.stages.at(-1)?.description ?? '');
    expect(described(['reach:approval'])[0]).toContain(`Rated MEDIUM, not HIGH: the way in (script-injection, ${PR_WORKFLOW}:20) runs only after a maintainer's act or for trusted people`);
    expect(described(['reach:anyone'])[0]).not.toContain('Rated MEDIUM');
    // A fork's pull request run is anyone's, even where the privileged events are a collaborator's.
    expect(writer(['reach:collaborator', 'reach:fork-pr'])).toEqual(['cache-poisoning-release HIGH']);
  });

  it('a chain whose way in says its job holds nothing worth taking is MEDIUM and says so', () => {
    const REPORT = '.github/workflows/report.yml';
    const chain = (holds: string[]) =>
      findCombinations([
        rec('artifact-poisoning', { file: REPORT, line: 28, job: 'report', severity: 'MEDIUM', facts: ['exec', 'reach:anyone', 'holds', ...holds] }),
        rec('github-env-injection', { file: REPORT, line: 69, job: 'report', severity: 'MEDIUM', facts: ['exec', 'reach:anyone', 'holds', ...holds] }),
      ], all);
    // Only `pull-requests: write` and `issues: write`: the outsider's code gains a comment bot's reach.
    const weak = chain([]);
    expect(weak.map((c) => `${c.id} ${c.severity}`)).toEqual(['artifact-poisoning-chain MEDIUM']);
    expect(weak[0]?.stages.at(-1)?.description).toContain('holds no write scope that changes code, releases or packages');
    // A secret or a write scope that changes code: the kind's severity, lowered only for the entry's own MEDIUM.
    expect(chain(['holds:secrets']).map((c) => c.severity)).toEqual(['HIGH']);
    expect(chain(['holds:token']).map((c) => c.severity)).toEqual(['HIGH']);
  });

  it('a chain whose way in waits for a deployment environment of unknown protection is MEDIUM and names that gate', () => {
    const checkout = (facts: string[]) => rec('untrusted-checkout', { line: 52, job: 'build', severity: 'MEDIUM', facts: ['exec', 'holds', 'holds:token', 'token:default', ...facts] });
    const token = rec('missing-permissions', { line: 1, job: null, severity: 'MEDIUM', facts: ['token:default'] });
    const paths = (facts: string[]) => findCombinations([checkout(facts), token], all);
    // Behind `environment:` whose reviewers the scan cannot see (the entry's own MEDIUM): not above it, and it says why.
    const gated = paths(['reach:unreviewed-environment', 'event:workflow_run']);
    expect(gated.map((c) => `${c.id} ${c.severity}`)).toEqual(['pwn-request MEDIUM']);
    expect(gated[0]?.stages.at(-1)?.description).toContain(`Rated MEDIUM, not CRITICAL: the way in (untrusted-checkout, ${PR_WORKFLOW}:52) runs only after a deployment environment's approval`);
    // With a maintainer's act beside it, still MEDIUM.
    expect(paths(['reach:unreviewed-environment', 'reach:approval']).map((c) => c.severity)).toEqual(['MEDIUM']);
    // Anyone on some way in: not lowered for the environment (the MEDIUM entry makes the CRITICAL kind HIGH), no gate named.
    const open = paths(['reach:unreviewed-environment', 'reach:anyone']);
    expect(open.map((c) => c.severity)).toEqual(['HIGH']);
    expect(open[0]?.stages.at(-1)?.description).not.toContain('Rated MEDIUM');
  });

  it('a chain whose way in is someone else\'s code on a tag (one upstream party) is MEDIUM, like its entry', () => {
    const secrets = rec('personal-access-token', { line: 20, job: 'release' });
    const theft = (severity: 'HIGH' | 'MEDIUM') =>
      findCombinations([rec('unpinned-action', { line: 14, job: 'release', severity, facts: ['owner:third-party', 'secrets:step'] }), secrets], all).map((c) => `${c.id} ${c.severity}`);
    expect(theft('MEDIUM')).toEqual(['mutable-action-secret-theft MEDIUM']);
    // An entry the rule itself rates HIGH keeps the kind's severity.
    expect(theft('HIGH')).toEqual(['mutable-action-secret-theft HIGH']);
    const runner = rec('self-hosted-runner', { file: CI_WORKFLOW, line: 6, job: 'a', severity: 'HIGH', facts: ['exec', 'holds:self-hosted', 'reach:anyone'] });
    const foothold = findCombinations([rec('unpinned-image', { file: CI_WORKFLOW, line: 9, job: 'a', severity: 'MEDIUM', facts: ['owner:third-party', 'holds:self-hosted'] }), runner], all);
    // The runner's own HIGH finding (fork code on it) stands on its own; the chain through the image is the image's.
    expect(foothold.map((c) => `${c.id} ${c.severity}`)).toContain('persistent-supply-chain-foothold MEDIUM');
    const download = rec('download-without-checksum', { line: 5, job: 'release', severity: 'MEDIUM' });
    expect(findCombinations([download, rec('unpinned-action', { line: 9, job: 'release', severity: 'MEDIUM' })], all).map((c) => `${c.id} ${c.severity}`)).toEqual([
      'silent-supply-chain-tampering MEDIUM',
    ]);
  });

  it('a known compromise (the advisory\'s HIGH) keeps its CRITICAL kind', () => {
    const compromise = rec('known-vulnerable-action', { line: 9, job: 'build', severity: 'HIGH', facts: ['advisory:compromise'] });
    expect(findCombinations([compromise, rec('missing-permissions', { line: 1, job: null })], all).map((c) => `${c.id} ${c.severity}`)).toEqual(['compromised-action CRITICAL']);
  });

  it('orders MEDIUM paths after HIGH ones and leaves them out of the counts', () => {
    const records = [
      rec('unpinned-action', { line: 14, job: 'release', severity: 'MEDIUM', facts: ['owner:third-party', 'secrets:step'] }),
      rec('personal-access-token', { line: 20, job: 'release' }),
      rec('script-injection', { file: CI_WORKFLOW, line: 20, job: 'lint', severity: 'MEDIUM' }),
      rec('missing-permissions', { file: CI_WORKFLOW, line: 1, job: null }),
    ];
    const combinations = findCombinations(records, all);
    expect(combinations.map((c) => c.severity)).toEqual(['HIGH', 'MEDIUM']);
    expect(countCombinations(combinations)).toEqual({ critical_count: 0, high_count: 1 });
  });
});

describe('cannotFire', () => {
  it('lists nothing when every rule is enabled', () => {
    expect(cannotFire(all)).toEqual([]);
  });

  it('lists the kinds with a group whose alternatives are all disabled', () => {
    expect(cannotFire(without('script-injection'))).toEqual(['injection-secret-exfiltration', 'injection-token-theft']);
    expect(cannotFire(without('known-vulnerable-action'))).toEqual([]);
    expect(cannotFire(without('known-vulnerable-action', 'typosquat-action'))).toEqual(['compromised-action']);
    // An amplifier never blocks a kind.
    expect(cannotFire(without('persisted-credentials', 'missing-timeout'))).toEqual(['token-leak-via-artifact']);
  });

  it('agrees with detection: a kind that cannot fire never fires', () => {
    const records = [rec('script-injection', { line: 14, job: 'test' }), rec('default-token-write'), rec('secret-in-log', { line: 16, job: 'test' })];
    const isEnabled = without('script-injection');
    const blocked = new Set(cannotFire(isEnabled));
    expect(findCombinations(records, all).every((c) => blocked.has(c.id))).toBe(true);
    expect(findCombinations(records, isEnabled)).toEqual([]);
  });
});

describe('facts of the run model', () => {
  it('a pull request checkout whose code no step runs forms no pwn-request', () => {
    const checkout = rec('untrusted-checkout', { line: 12, job: 'test', severity: 'MEDIUM', facts: ['holds', 'reach:anyone'] });
    expect(ids([rec('missing-permissions', { line: 1, job: null }), checkout])).toEqual([]);
    const running = rec('untrusted-checkout', { line: 12, job: 'test', severity: 'HIGH', facts: ['exec', 'holds', 'reach:anyone', 'token:default'] });
    expect(ids([rec('missing-permissions', { line: 1, job: null }), running])).toEqual([`pwn-request ${PR_WORKFLOW}`]);
  });

  it('a checkout only a maintainer approves is no outsider entry', () => {
    const approved = rec('untrusted-checkout', { line: 12, job: 'test', severity: 'MEDIUM', facts: ['exec', 'holds', 'reach:approval'] });
    expect(ids([rec('missing-permissions', { line: 1, job: null }), approved])).toEqual([]);
  });

  it('findings of one job that cannot happen in the same job run (different legs, contradictory conditions) do not join', () => {
    const injection = rec('script-injection', { line: 20, job: 'test', facts: ['exec', 'holds:token', 'reach:anyone', 'run:3'] });
    const grant = rec('excessive-permissions', { line: 3, job: 'test', severity: 'HIGH', facts: ['run:c'] });
    expect(ids([injection, grant])).toEqual([]);
    const overlapping = rec('excessive-permissions', { line: 3, job: 'test', severity: 'HIGH', facts: ['run:6'] });
    expect(ids([injection, overlapping])).toEqual([`injection-token-theft ${PR_WORKFLOW}`]);
  });
});

describe('injection kinds inherit the injection\'s claim', () => {
  const grant = () => rec('excessive-permissions', { line: 3, job: null, severity: 'HIGH' });
  const leak = () => rec('secret-in-log', { line: 30, job: 'test' });
  const injection = (facts: string[], severity: 'HIGH' | 'MEDIUM' = 'HIGH') => rec('script-injection', { line: 20, job: 'test', severity, facts });

  it('a value only `pull_request` brings in (a fork\'s read-only run) pairs with no token or secret', () => {
    const forkOnly = injection(['event:pull_request', 'exec', 'holds', 'holds:secrets', 'holds:token', 'reach:fork-pr', 'reach:trusted-author'], 'MEDIUM');
    expect(ids([forkOnly, grant(), leak()])).toEqual([]);
  });

  it('a value a maintainer\'s act lets in (approval) or no event brings in starts no injection path', () => {
    expect(ids([injection(['exec', 'holds:secrets', 'holds:token', 'reach:approval'], 'MEDIUM'), grant(), leak()])).toEqual([]);
    expect(ids([injection(['holds:secrets', 'holds:token', 'reach:anyone']), grant(), leak()])).toEqual([]);
  });

  it('needs the job of the injection to hold what the other component offers', () => {
    const tokenOnly = injection(['event:issues', 'exec', 'holds', 'holds:token', 'reach:anyone']);
    expect(ids([tokenOnly, grant(), leak()])).toEqual([`injection-token-theft ${PR_WORKFLOW}`]);
    const secretsOnly = injection(['event:issues', 'exec', 'holds', 'holds:secrets', 'reach:sticky-label']);
    expect(ids([secretsOnly, grant(), leak()])).toEqual([`injection-secret-exfiltration ${PR_WORKFLOW}`]);
  });
});

describe('secret-in-log in the log paths', () => {
  it('a secret written to GITHUB_ENV (MEDIUM: masked in the log) exposes nothing in the logs', () => {
    const debug = rec('debug-logging-enabled', { file: CI_WORKFLOW, line: 4, job: null });
    const env = rec('secret-in-log', { file: CI_WORKFLOW, line: 18, job: 'deploy', severity: 'MEDIUM', facts: ['dest:env', 'event:push'] });
    expect(ids([debug, env])).toEqual([]);
    const log = rec('secret-in-log', { file: CI_WORKFLOW, line: 18, job: 'deploy', facts: ['dest:log', 'event:push'] });
    expect(ids([debug, log])).toEqual([`secret-exposure-in-logs ${CI_WORKFLOW}`]);
  });

  it('open-dispatch-secret-leak needs the printing step to run on a dispatch event', () => {
    const dispatch = rec('repository-dispatch-unfiltered', { file: CI_WORKFLOW, line: 2, job: null });
    const onPush = rec('secret-in-log', { file: CI_WORKFLOW, line: 18, job: 'deploy', facts: ['dest:log', 'event:push'] });
    expect(ids([dispatch, onPush])).toEqual([]);
    const onDispatch = rec('secret-in-log', { file: CI_WORKFLOW, line: 18, job: 'deploy', facts: ['dest:log', 'event:repository_dispatch'] });
    expect(ids([dispatch, onDispatch])).toEqual([`open-dispatch-secret-leak ${CI_WORKFLOW}`]);
  });
});

describe('pwn-request: which grants count', () => {
  const checkout = () => rec('untrusted-checkout', { line: 12, job: 'test', severity: 'HIGH' });

  it('a grant of a lesser scope (statuses, issues, pull-requests: excessive-permissions MEDIUM) forms no pwn-request', () => {
    const statuses = rec('excessive-permissions', { line: 3, job: null, severity: 'MEDIUM', description: '`statuses: write` is granted at workflow level, so every job of the workflow gets it.' });
    expect(ids([checkout(), statuses])).toEqual([]);
  });

  it('a grant that hands over the repository (excessive-permissions HIGH) forms a CRITICAL one', () => {
    const contents = rec('excessive-permissions', { line: 14, job: 'test', severity: 'HIGH', description: 'Job `test` grants `contents: write` and checks out pull request code.' });
    const [combination] = findCombinations([checkout(), contents], all);
    expect(combination?.id).toBe('pwn-request');
    expect(combination?.severity).toBe('CRITICAL');
    expect(combination?.components.map((c) => c.rule_id)).toEqual(['untrusted-checkout', 'excessive-permissions']);
  });

  it('a maintainer-gated checkout (untrusted-checkout MEDIUM: the ref can move after the approval) keeps the path at HIGH', () => {
    const gated = rec('untrusted-checkout', { line: 12, job: 'test', severity: 'MEDIUM' });
    const [combination] = findCombinations([gated, rec('missing-permissions', { line: 1, job: null, severity: 'HIGH' })], all);
    expect(combination?.severity).toBe('HIGH');
  });
});

describe('compromised-action: which advisories count', () => {
  it('an advisory that needs more than the action running (known-vulnerable-action MEDIUM) forms no CRITICAL path', () => {
    const permissions = rec('missing-permissions', { line: 1, job: null, severity: 'MEDIUM' });
    expect(ids([rec('known-vulnerable-action', { line: 27, job: 'analyze', severity: 'MEDIUM' }), permissions])).toEqual([]);
    const [combination] = findCombinations([rec('known-vulnerable-action', { line: 27, job: 'analyze', severity: 'HIGH' }), permissions], all);
    expect(combination?.id).toBe('compromised-action');
    expect(combination?.severity).toBe('CRITICAL');
  });
});

describe('the issue 17 kinds start only where their attacker gets in', () => {
  const TRIAGE = '.github/workflows/triage.yml';

  it('agent-prompt-injection-takeover: an agent that anyone can prompt, with a token or secrets in its job', () => {
    const agent = (severity: 'HIGH' | 'MEDIUM' | 'LOW', job = 'triage') => rec('agent-untrusted-input', { file: TRIAGE, line: 14, job, severity });
    const write = rec('excessive-permissions', { file: TRIAGE, line: 3, job: null });
    expect(ids([agent('MEDIUM'), write])).toEqual([`agent-prompt-injection-takeover ${TRIAGE}`]);
    const [path] = findCombinations([agent('HIGH'), write], all);
    expect(path?.severity).toBe('HIGH');
    expect(path?.stages.at(-1)?.description).toContain('Attacker: an outside GitHub user');
    // LOW: the agent's tools are restricted to an allowlist; an injected prompt steers only its output.
    expect(ids([agent('LOW'), write])).toEqual([]);
    // The write grant of another job is not the agent's.
    expect(ids([agent('MEDIUM'), rec('excessive-permissions', { file: TRIAGE, line: 30, job: 'label' })])).toEqual([]);
    // Nothing to take: no token or secret finding at all.
    expect(ids([agent('HIGH'), rec('dangerous-trigger', { file: TRIAGE, line: 2, job: null })])).toEqual([]);
  });

  it('persistent-supply-chain-foothold: someone else\'s mutable code in a job on a self-hosted runner', () => {
    const runner = rec('self-hosted-runner', { file: CI_WORKFLOW, line: 7, job: 'build', severity: 'LOW' });
    expect(ids([runner, rec('unpinned-action', { file: CI_WORKFLOW, line: 12, job: 'build', severity: 'MEDIUM' })])).toEqual([`persistent-supply-chain-foothold ${CI_WORKFLOW}`]);
    const image = findCombinations([runner, rec('unpinned-image', { file: CI_WORKFLOW, line: 8, job: 'build', severity: 'HIGH' })], all);
    expect(image.map((c) => `${c.id} ${c.break_chain_rule}`)).toEqual(['persistent-supply-chain-foothold unpinned-image']);
    expect(image[0]?.break_chain).toContain('by digest');
    // A GitHub-owned action (LOW) and the repository's own image (LOW) are nobody else's code.
    expect(ids([runner, rec('unpinned-action', { file: CI_WORKFLOW, line: 12, job: 'build', severity: 'LOW' })])).toEqual([]);
    expect(ids([runner, rec('unpinned-image', { file: CI_WORKFLOW, line: 8, job: 'build', severity: 'LOW' })])).toEqual([]);
    // The mutable action runs in a job on a GitHub-hosted runner, the self-hosted job is another one.
    expect(ids([runner, rec('unpinned-action', { file: CI_WORKFLOW, line: 30, job: 'lint', severity: 'MEDIUM' })])).toEqual([]);
    // Or in another workflow file.
    expect(ids([runner, rec('unpinned-action', { file: PR_WORKFLOW, line: 12, job: 'build', severity: 'MEDIUM' })])).toEqual([]);
    // A runner group or a label no hosted runner has (MEDIUM) may be a GitHub-hosted larger runner, which keeps nothing.
    const maybeHosted = rec('self-hosted-runner', { file: CI_WORKFLOW, line: 7, job: 'build', severity: 'MEDIUM', facts: ['exec', 'reach:anyone', 'runner:possible'] });
    expect(ids([maybeHosted, rec('unpinned-image', { file: CI_WORKFLOW, line: 8, job: 'build', severity: 'HIGH' })])).toEqual([]);
    // The pull_request-triggered certain case (HIGH) qualifies too.
    const prRunner = rec('self-hosted-runner', { file: CI_WORKFLOW, line: 7, job: 'build', severity: 'HIGH', facts: ['exec', 'holds:self-hosted', 'reach:anyone', 'reach:fork-pr'] });
    expect(ids([prRunner, rec('unpinned-image', { file: CI_WORKFLOW, line: 8, job: 'build', severity: 'MEDIUM' })])).toEqual([`persistent-supply-chain-foothold ${CI_WORKFLOW}`]);
  });

  it('unverifiable-release: a third-party mutable action in the job that publishes without provenance', () => {
    const RELEASE = '.github/workflows/release.yml';
    const provenance = rec('missing-provenance', { file: RELEASE, line: 20, job: 'publish' });
    expect(ids([provenance, rec('unpinned-action', { file: RELEASE, line: 15, job: 'publish', severity: 'MEDIUM' })])).toEqual([`unverifiable-release ${RELEASE}`]);
    // `actions/*` on a tag (LOW) does not start it; nor a mutable action of the test job.
    expect(ids([provenance, rec('unpinned-action', { file: RELEASE, line: 15, job: 'publish', severity: 'LOW' })])).toEqual([]);
    expect(ids([provenance, rec('unpinned-action', { file: RELEASE, line: 40, job: 'test', severity: 'MEDIUM' })])).toEqual([]);
    // A release with provenance has no missing-provenance finding: nothing to combine.
    expect(ids([rec('unpinned-action', { file: RELEASE, line: 15, job: 'publish', severity: 'MEDIUM' })])).toEqual([]);
  });
});

describe('compromised-action: a compromise whose tags were restored', () => {
  it('a tag of tj-actions/changed-files that today runs the original code starts no CRITICAL path', () => {
    const text = [
      'on: pull_request',
      'jobs:',
      '  changed:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v3',
      '      - uses: tj-actions/changed-files@v45',
      '        env:',
      '          TOKEN: ${{ secrets.DEPLOY_TOKEN }}',
      '',
    ].join('\n');
    const scan = (ref: string) => scanRepository([{ path: '.github/workflows/changed.yml', text: text.replace('@v45', ref) }]);
    const restored = scan('@v45');
    expect(restored.findings.find((f) => f.rule_id === 'known-vulnerable-action')?.severity).toBe('MEDIUM');
    expect(findCombinations(restored.records, all).map((c) => c.id)).not.toContain('compromised-action');
    // The malicious commit itself still starts one.
    const pinned = scan('@0e58ed8671d6b60d0890c21b07f8835ace038e67');
    expect(findCombinations(pinned.records, all).map((c) => `${c.id} ${c.severity}`)).toContain('compromised-action CRITICAL');
  });
});

describe('agent-prompt-injection-takeover from a scan', () => {
  const workflow = (extra: string) =>
    [
      'on: issue_comment',
      'jobs:',
      '  claude:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: anthropics/claude-code-action@v1',
      '        with:',
      '          anthropic_api_key: ${{ secrets.ANTHROPIC_API_KEY }}',
      extra,
      '',
    ].join('\n');
  const paths = (extra: string) =>
    findCombinations(scanRepository([{ path: '.github/workflows/claude.yml', text: workflow(extra) }]).records, all).filter((c) => c.id === 'agent-prompt-injection-takeover');

  it('an agent its action lets only maintainers start, reading an outsider\'s thread, is a MEDIUM path whose words fit', () => {
    const [path] = paths('');
    expect(path?.severity).toBe('MEDIUM');
    expect(path?.title).toBe('AI agent that reads text anyone can write holds a write token or secrets');
    expect(path?.stages[0]?.title).toBe('Agent reads text anyone can write');
    expect(path?.stages[0]?.description).toContain('whether an outsider starts it or a maintainer does');
    expect(path?.stages[0]?.description).toContain('is started by a maintainer on `issue_comment`');
  });

  it('the same agent that anyone can start is a HIGH path', () => {
    const [path] = paths("          allowed_non_write_users: '*'\n          github_token: ${{ github.token }}");
    expect(path?.severity).toBe('HIGH');
    expect(path?.stages[0]?.description).toContain('runs on `issue_comment` events that anyone can cause');
  });

  it('behind the action\'s own check, issues opened and reviews (a fork\'s run among them) start a MEDIUM path too', () => {
    const text = workflow('').replace(
      'on: issue_comment',
      ['on:', '  issue_comment: { types: [created] }', '  pull_request_review_comment: { types: [created] }', '  issues: { types: [opened, assigned] }', '  pull_request_review: { types: [submitted] }'].join('\n'),
    );
    const found = findCombinations(scanRepository([{ path: '.github/workflows/claude.yml', text }]).records, all).filter((c) => c.id === 'agent-prompt-injection-takeover');
    expect(found.map((c) => c.severity)).toEqual(['MEDIUM']);
    // Without the check (lifted for everyone), an issue anyone opens starts a HIGH one.
    const open = text.replace('          anthropic_api_key:', "          allowed_non_write_users: '*'\n          github_token: ${{ github.token }}\n          anthropic_api_key:");
    const lifted = findCombinations(scanRepository([{ path: '.github/workflows/claude.yml', text: open }]).records, all).filter((c) => c.id === 'agent-prompt-injection-takeover');
    expect(lifted.map((c) => c.severity)).toEqual(['HIGH']);
  });
});
