import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isKnownRule } from '../../../../lib/engine/catalog.js';
import { COMBINATION_KINDS, combinationKind } from '../../../../lib/engine/combinations/index.js';
import { KINDS_END, KINDS_START, kindsMarkdown, kindsSection } from '../../../../lib/engine/combinations/doc.js';

/** The table of ../shared/spec/combinations.md, transcribed: the catalog must match it exactly. */
const SPEC: Record<string, { severity: string; scope: string; requires: string[][]; amplifiers: string[]; breaks: string[] }> = {
  'pwn-request': { severity: 'CRITICAL', scope: 'file', requires: [['untrusted-checkout'], ['missing-permissions', 'excessive-permissions', 'default-token-write', 'secrets-inherit']], amplifiers: ['persisted-credentials', 'script-injection'], breaks: ['untrusted-checkout'] },
  'injection-token-theft': { severity: 'CRITICAL', scope: 'file', requires: [['script-injection'], ['missing-permissions', 'excessive-permissions', 'default-token-write']], amplifiers: ['dangerous-trigger'], breaks: ['script-injection'] },
  'injection-secret-exfiltration': { severity: 'CRITICAL', scope: 'file', requires: [['script-injection'], ['secrets-inherit', 'overprovisioned-secrets', 'hardcoded-credentials', 'secret-in-log', 'personal-access-token']], amplifiers: ['debug-logging-enabled'], breaks: ['script-injection'] },
  'injected-runner-takeover': { severity: 'CRITICAL', scope: 'file', requires: [['script-injection', 'untrusted-checkout'], ['self-hosted-runner']], amplifiers: ['missing-timeout'], breaks: ['self-hosted-runner'] },
  'public-runner-takeover': { severity: 'CRITICAL', scope: 'repo', requires: [['self-hosted-runner'], ['fork-pr-approval-weak', 'self-hosted-runner-public-repo']], amplifiers: ['default-token-write'], breaks: ['fork-pr-approval-weak'] },
  'repository-takeover': { severity: 'CRITICAL', scope: 'repo', requires: [['untrusted-checkout', 'script-injection', 'artifact-poisoning'], ['default-token-write'], ['branch-protection-missing', 'admin-bypass-allowed', 'force-push-allowed']], amplifiers: ['actions-can-approve-prs'], breaks: ['default-token-write'] },
  'artifact-poisoning-chain': { severity: 'CRITICAL', scope: 'file', requires: [['artifact-poisoning'], ['github-env-injection', 'missing-permissions', 'excessive-permissions', 'secrets-inherit']], amplifiers: [], breaks: ['artifact-poisoning'] },
  'env-injection-hijack': { severity: 'HIGH', scope: 'file', requires: [['github-env-injection'], ['missing-permissions', 'excessive-permissions', 'secrets-inherit', 'overprovisioned-secrets']], amplifiers: [], breaks: ['github-env-injection'] },
  'cache-poisoning-release': { severity: 'HIGH', scope: 'repo', requires: [['untrusted-checkout', 'script-injection', 'github-env-injection'], ['cache-poisoning']], amplifiers: ['missing-provenance'], breaks: ['cache-poisoning'] },
  'mutable-action-secret-theft': { severity: 'HIGH', scope: 'file', requires: [['unpinned-action'], ['secrets-inherit', 'overprovisioned-secrets', 'personal-access-token']], amplifiers: ['all-actions-allowed', 'sha-pinning-not-required'], breaks: ['unpinned-action'] },
  'compromised-action': { severity: 'CRITICAL', scope: 'file', requires: [['known-vulnerable-action', 'typosquat-action'], ['missing-permissions', 'excessive-permissions', 'secrets-inherit', 'overprovisioned-secrets']], amplifiers: [], breaks: ['known-vulnerable-action', 'typosquat-action'] },
  'review-bypass': { severity: 'HIGH', scope: 'repo', requires: [['actions-can-approve-prs'], ['review-count-low', 'codeowners-review-not-required', 'review-not-required']], amplifiers: ['default-token-write'], breaks: ['actions-can-approve-prs'] },
  'bot-confused-deputy': { severity: 'HIGH', scope: 'file', requires: [['bot-actor-condition'], ['dangerous-trigger', 'excessive-permissions', 'missing-permissions']], amplifiers: [], breaks: ['bot-actor-condition'] },
  'remote-script-on-runner': { severity: 'HIGH', scope: 'repo', requires: [['pipe-to-shell'], ['self-hosted-runner']], amplifiers: ['download-without-checksum'], breaks: ['pipe-to-shell'] },
  'silent-supply-chain-tampering': { severity: 'HIGH', scope: 'repo', requires: [['download-without-checksum'], ['unpinned-action', 'continue-on-error']], amplifiers: ['missing-provenance'], breaks: ['download-without-checksum'] },
  'open-dispatch-secret-leak': { severity: 'HIGH', scope: 'repo', requires: [['repository-dispatch-unfiltered'], ['secret-in-log', 'debug-logging-enabled', 'hardcoded-credentials']], amplifiers: [], breaks: ['repository-dispatch-unfiltered'] },
  'secret-exposure-in-logs': { severity: 'HIGH', scope: 'file', requires: [['debug-logging-enabled'], ['hardcoded-credentials', 'secret-in-log']], amplifiers: [], breaks: ['debug-logging-enabled'] },
  'token-leak-via-artifact': { severity: 'HIGH', scope: 'file', requires: [['persisted-credentials'], ['dangerous-trigger', 'missing-permissions', 'excessive-permissions']], amplifiers: [], breaks: ['persisted-credentials'] },
};

/**
 * Kinds added after the spec's table (issue 17: the supply-chain and AI-agent chains), with the same
 * semantics; listed here so the catalog cannot grow or drift unnoticed.
 */
const EXTENSIONS: typeof SPEC = {
  'agent-prompt-injection-takeover': { severity: 'HIGH', scope: 'file', requires: [['agent-untrusted-input'], ['excessive-permissions', 'missing-permissions', 'default-token-write', 'secrets-inherit', 'overprovisioned-secrets']], amplifiers: [], breaks: ['agent-untrusted-input'] },
  // Breaks at the runner when it takes more than the one mutable input (fork code, other mutable actions or images).
  'persistent-supply-chain-foothold': { severity: 'HIGH', scope: 'file', requires: [['unpinned-action', 'unpinned-image'], ['self-hosted-runner']], amplifiers: [], breaks: ['self-hosted-runner', 'unpinned-action', 'unpinned-image'] },
  'unverifiable-release': { severity: 'HIGH', scope: 'file', requires: [['unpinned-action'], ['missing-provenance']], amplifiers: ['sha-pinning-not-required'], breaks: ['unpinned-action'] },
};

describe('combination catalog', () => {
  it('has exactly the 18 kinds of the spec and the 3 listed extensions, with their severity, scope, requirements, amplifiers and break rule', () => {
    expect(Object.keys(SPEC)).toHaveLength(18);
    expect(COMBINATION_KINDS.map((k) => k.id).sort()).toEqual([...Object.keys(SPEC), ...Object.keys(EXTENSIONS)].sort());
    for (const kind of COMBINATION_KINDS) {
      const spec = SPEC[kind.id] ?? EXTENSIONS[kind.id];
      expect({ severity: kind.severity, scope: kind.scope, requires: kind.requires, amplifiers: kind.amplifiers, breaks: [...new Set(kind.break_chain.map((b) => b.rule_id))] }, kind.id).toEqual(spec);
    }
  });

  // Plus two refinements of the spec's table: pwn-request counts only the grants that hand over the
  // repository (excessive-permissions HIGH), see README.md "pwn-request: which grants count"; compromised-action
  // only advisories exploitable by the action running (known-vulnerable-action HIGH).
  it('qualifies exactly the instances the spec names', () => {
    const qualifiers = COMBINATION_KINDS.flatMap((k) =>
      k.qualifiers.map(
        (q) =>
          `${k.id}: ${q.rule_id} >= ${q.min_severity}${q.except_severities === undefined ? '' : ` except ${q.except_severities.join(', ')}`}${q.facts === undefined ? '' : ` with ${q.facts.join(' & ')}`}${q.named_by === undefined ? '' : ` named by ${q.named_by.rule_id} ${q.named_by.fact}`}${q.entry_facts === undefined ? '' : ` if the entry has ${q.entry_facts.join(' & ')}`}${q.prefer_facts === undefined ? '' : ` preferring ${q.prefer_facts.join(' | ')}`}`,
      ),
    );
    expect(qualifiers).toEqual([
      // The run model's facts: a later step runs what the outsider's run produced, in a job an outsider starts.
      'artifact-poisoning-chain: artifact-poisoning >= MEDIUM with exec & reach:anyone|reach:sticky-label',
      'artifact-poisoning-chain: github-env-injection >= MEDIUM with exec & reach:anyone|reach:sticky-label',
      // What a grant or a secret adds must be what the entry's job holds (its default token, a write scope, secrets).
      'artifact-poisoning-chain: missing-permissions >= LOW if the entry has token:default',
      'artifact-poisoning-chain: excessive-permissions >= LOW if the entry has holds:token|holds:oidc',
      'artifact-poisoning-chain: secrets-inherit >= INFO if the entry has holds:secrets',
      // Only a compromise (malicious code runs when the action runs), not a bug an outsider's text exploits.
      'compromised-action: known-vulnerable-action >= HIGH with advisory:compromise',
      // The entry runs an outsider's text or code (a fork's pull_request run counts) in a job on a definite self-hosted runner.
      'injected-runner-takeover: script-injection >= MEDIUM with exec & reach:anyone|reach:sticky-label|reach:fork-pr & holds:self-hosted',
      'injected-runner-takeover: untrusted-checkout >= MEDIUM with exec & reach:anyone|reach:sticky-label|reach:unreviewed-environment|reach:fork-pr & holds:self-hosted',
      // Departure from the spec: a runner that may be a GitHub-hosted larger runner (`runner:possible`) is no foothold.
      'injected-runner-takeover: self-hosted-runner >= LOW with holds:self-hosted',
      // The injection's facts: it runs, an outsider brings it in through a privileged event, the job holds the prize.
      'injection-secret-exfiltration: script-injection >= MEDIUM with exec & reach:anyone|reach:sticky-label & holds:secrets',
      'injection-token-theft: script-injection >= MEDIUM with exec & reach:anyone|reach:sticky-label & holds:token',
      'injection-token-theft: missing-permissions >= LOW if the entry has token:default',
      'injection-token-theft: default-token-write >= LOW if the entry has token:default',
      // A fork's pull_request run puts its code on a definite self-hosted runner, with no approval in the way.
      'public-runner-takeover: self-hosted-runner >= HIGH with exec & reach:fork-pr & holds:self-hosted',
      // The run model's facts: the checkout's code runs, and an outsider starts the job (issue: a code sink on the checkout).
      'pwn-request: untrusted-checkout >= MEDIUM with exec & reach:anyone|reach:sticky-label|reach:unreviewed-environment',
      'pwn-request: missing-permissions >= LOW if the entry has token:default',
      'pwn-request: excessive-permissions >= HIGH if the entry has holds:token|holds:oidc',
      'pwn-request: default-token-write >= LOW if the entry has token:default',
      'pwn-request: secrets-inherit >= INFO if the entry has holds:secrets',
      'pwn-request: script-injection >= MEDIUM with exec & reach:anyone|reach:sticky-label',
      // The settings' read-write default reaches only a job with the default token, run by an outsider's code or text.
      'repository-takeover: untrusted-checkout >= MEDIUM with exec & reach:anyone|reach:sticky-label|reach:unreviewed-environment',
      'repository-takeover: script-injection >= MEDIUM with exec & reach:anyone|reach:sticky-label',
      'repository-takeover: artifact-poisoning >= MEDIUM with exec & reach:anyone|reach:sticky-label',
      'repository-takeover: default-token-write >= LOW if the entry has token:default',
      // Departure from the spec: only a release cache an outsider's default-branch run writes (HIGH) reaches a release;
      // a release cache only collaborators write, or a pull_request_target/workflow_run cache (MEDIUM), does not.
      // The entry must be a job the release finding names as writing its cache (the run model's writers).
      'agent-prompt-injection-takeover: excessive-permissions >= LOW if the entry has holds:token|holds:oidc',
      'agent-prompt-injection-takeover: missing-permissions >= LOW if the entry has token:default',
      'agent-prompt-injection-takeover: default-token-write >= LOW if the entry has token:default',
      'agent-prompt-injection-takeover: secrets-inherit >= INFO if the entry has holds:secrets',
      'agent-prompt-injection-takeover: overprovisioned-secrets >= LOW if the entry has holds:secrets',
      // A privileged trigger whose jobs use nothing of the pull request (dangerous-trigger LOW) gives a spoofed bot nothing.
      'bot-confused-deputy: dangerous-trigger >= MEDIUM',
      // The bot check lets the pull request's code run, or merges it, in a job that holds something worth taking.
      'bot-confused-deputy: bot-actor-condition >= HIGH',
      'cache-poisoning-release: untrusted-checkout >= MEDIUM with exec named by cache-poisoning writer',
      'cache-poisoning-release: script-injection >= MEDIUM named by cache-poisoning writer',
      'cache-poisoning-release: github-env-injection >= MEDIUM named by cache-poisoning writer',
      'cache-poisoning-release: cache-poisoning >= HIGH with holds:publish',
      'env-injection-hijack: github-env-injection >= MEDIUM with exec & reach:anyone|reach:sticky-label',
      'env-injection-hijack: missing-permissions >= LOW if the entry has token:default',
      'env-injection-hijack: excessive-permissions >= LOW if the entry has holds:token|holds:oidc',
      'env-injection-hijack: secrets-inherit >= INFO if the entry has holds:secrets',
      'env-injection-hijack: overprovisioned-secrets >= LOW if the entry has holds:secrets',
      // Someone else's action (ownership), in a job whose secrets reach the action itself or the runner's memory.
      'mutable-action-secret-theft: unpinned-action >= MEDIUM with owner:third-party & secrets:step|secrets:job',
      // The secret reaches the log (not GITHUB_ENV), and for the dispatch path in a step a dispatch event runs.
      'open-dispatch-secret-leak: secret-in-log >= HIGH with dest:log|dest:summary & event:repository_dispatch',
      // Extensions: someone else's action or image, in a job on a definite self-hosted runner (the `self-hosted` label).
      'persistent-supply-chain-foothold: unpinned-action >= MEDIUM with owner:third-party & holds:self-hosted',
      'persistent-supply-chain-foothold: unpinned-image >= MEDIUM with owner:third-party & holds:self-hosted',
      // A runner group or custom label (`runner:possible`) may be a GitHub-hosted larger runner, which keeps nothing.
      'persistent-supply-chain-foothold: self-hosted-runner >= LOW with holds:self-hosted',
      'remote-script-on-runner: pipe-to-shell >= MEDIUM',
      'remote-script-on-runner: self-hosted-runner >= LOW with holds:self-hosted',
      // Departure from the spec: the debug variables in `env:` are LOW (GitHub's debug logging needs a secret or variable).
      'secret-exposure-in-logs: debug-logging-enabled >= LOW',
      'secret-exposure-in-logs: secret-in-log >= HIGH with dest:log|dest:summary',
      // A download in a job that publishes or feeds one; departure from the spec: a GitHub-owned or first-party action on a tag
      // is not someone else's mutable code; the action that itself publishes is named first.
      'silent-supply-chain-tampering: download-without-checksum >= MEDIUM with holds:publish|feeds:publish',
      'silent-supply-chain-tampering: unpinned-action >= MEDIUM with owner:third-party preferring publisher',
      'token-leak-via-artifact: persisted-credentials >= HIGH',
      'token-leak-via-artifact: missing-permissions >= LOW if the entry has token:default',
      'token-leak-via-artifact: excessive-permissions >= LOW if the entry has holds:token|holds:oidc',
      'unverifiable-release: unpinned-action >= MEDIUM with owner:third-party & holds:publish preferring publisher',
    ]);
  });

  it("names, in cache-poisoning-release's fix, every kind of cache restore the rule reports: actions/cache, setup-* inputs and defaults, BuildKit's gha cache", () => {
    for (const advice of combinationKind('cache-poisoning-release')?.break_chain.map((b) => b.advice) ?? []) {
      for (const form of ['`actions/cache`', 'the `cache:` input of `setup-*`', '`setup-go`', '`enable-cache: false`', '`cache-from: type=gha`']) expect(advice).toContain(form);
    }
    expect(combinationKind('cache-poisoning-release')?.break_chain.length).toBe(2);
  });

  it('is ordered by severity, then id', () => {
    const sorted = [...COMBINATION_KINDS].sort((a, b) => (a.severity === b.severity ? (a.id < b.id ? -1 : 1) : a.severity === 'CRITICAL' ? -1 : 1));
    expect(COMBINATION_KINDS.map((k) => k.id)).toEqual(sorted.map((k) => k.id));
  });

  for (const kind of COMBINATION_KINDS) {
    it(`${kind.id}: names only catalog rules, once, with one stage each and complete texts`, () => {
      const rules = [...kind.requires.flat(), ...kind.amplifiers];
      expect(new Set(rules).size).toBe(rules.length);
      for (const id of rules) expect(isKnownRule(id), id).toBe(true);
      expect(kind.stages.map((s) => s.rule_id).sort()).toEqual([...rules].sort());
      for (const q of kind.qualifiers) expect([...kind.requires.flat(), ...kind.amplifiers]).toContain(q.rule_id);
      for (const b of kind.break_chain) expect(kind.requires.flat()).toContain(b.rule_id);
      for (const text of [kind.title, kind.impact, kind.impact_title, ...kind.stages.flatMap((s) => [s.title, s.description]), ...kind.break_chain.map((b) => b.advice)]) {
        expect(text.trim(), kind.id).not.toBe('');
      }
      for (const sentence of [kind.impact, ...kind.stages.map((s) => s.description), ...kind.break_chain.map((b) => b.advice)]) {
        expect(sentence, kind.id).toMatch(/[.]$/);
      }
      expect(combinationKind(kind.id)).toBe(kind);
    });
  }

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(COMBINATION_KINDS))).toEqual(COMBINATION_KINDS);
  });
});

describe('lib/engine/combinations/README.md', () => {
  it('lists the kinds exactly as the catalog has them (regenerate: npx tsx scripts/gen-combinations-doc.ts)', () => {
    const readme = readFileSync(new URL('../../../../lib/engine/combinations/README.md', import.meta.url), 'utf8');
    expect(readme).toContain(KINDS_START);
    expect(readme).toContain(KINDS_END);
    expect(kindsSection(readme)).toBe(kindsMarkdown());
  });
});
