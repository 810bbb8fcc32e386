import { describe, expect, it } from 'vitest';
import { findCombinations } from '../../../../lib/engine/combinations/index.js';
import { SETTINGS_FILE, type FindingRecord } from '../../../../lib/engine/types.js';
import { CI_WORKFLOW, PR_WORKFLOW, all, rec } from './support.js';

interface Case {
  id: string;
  records: FindingRecord[];
  file: string;
  components: string[];
  stages: string[];
  breakRule: string;
}

const RELEASE = '.github/workflows/release.yml';
const DISPATCH = '.github/workflows/dispatch.yml';

/** One realistic repository per kind, with what the combination must hold. */
const CASES: Case[] = [
  {
    id: 'pwn-request',
    records: [
      rec('missing-permissions', { line: 1, job: null, severity: 'HIGH', description: 'No `permissions:` at workflow level and job `test` declares none.' }),
      rec('untrusted-checkout', { line: 12, column: 9, job: 'test', description: 'Step checks out `github.event.pull_request.head.sha` under `pull_request_target`, then runs `npm test`.' }),
      rec('persisted-credentials', { line: 12, column: 9, job: 'test', severity: 'MEDIUM' }),
    ],
    file: PR_WORKFLOW,
    components: ['untrusted-checkout', 'missing-permissions', 'persisted-credentials'],
    stages: ['untrusted-checkout', 'persisted-credentials', 'missing-permissions', ''],
    breakRule: 'untrusted-checkout',
  },
  {
    id: 'injection-token-theft',
    records: [
      rec('excessive-permissions', { line: 3, job: null, description: '`contents: write` granted at workflow level.' }),
      rec('script-injection', { line: 14, column: 22, job: 'greet', description: '`github.event.issue.title` is expanded into the script of step `greet`.' }),
      rec('dangerous-trigger', { line: 1, job: null, severity: 'MEDIUM', file: PR_WORKFLOW }),
    ],
    file: PR_WORKFLOW,
    components: ['script-injection', 'excessive-permissions', 'dangerous-trigger'],
    stages: ['dangerous-trigger', 'script-injection', 'excessive-permissions', ''],
    breakRule: 'script-injection',
  },
  {
    id: 'injection-secret-exfiltration',
    records: [
      rec('script-injection', { file: CI_WORKFLOW, line: 20, column: 15, job: 'deploy' }),
      rec('secret-in-log', { file: CI_WORKFLOW, line: 24, column: 11, job: 'deploy' }),
      rec('debug-logging-enabled', { file: CI_WORKFLOW, line: 5, job: null }),
    ],
    file: CI_WORKFLOW,
    components: ['script-injection', 'secret-in-log', 'debug-logging-enabled'],
    stages: ['script-injection', 'secret-in-log', 'debug-logging-enabled', ''],
    breakRule: 'script-injection',
  },
  {
    id: 'injected-runner-takeover',
    records: [
      rec('self-hosted-runner', { line: 8, column: 14, job: 'build', severity: 'LOW' }),
      rec('untrusted-checkout', { line: 11, column: 9, job: 'build', facts: ['exec', 'holds', 'holds:self-hosted', 'reach:anyone'] }),
      rec('missing-timeout', { line: 7, column: 3, job: 'build' }),
    ],
    file: PR_WORKFLOW,
    components: ['untrusted-checkout', 'self-hosted-runner', 'missing-timeout'],
    stages: ['untrusted-checkout', 'self-hosted-runner', 'missing-timeout', ''],
    breakRule: 'self-hosted-runner',
  },
  {
    id: 'public-runner-takeover',
    records: [
      rec('self-hosted-runner', { file: CI_WORKFLOW, line: 9, column: 14, job: 'test', severity: 'HIGH', facts: ['exec', 'holds:self-hosted', 'reach:anyone', 'reach:fork-pr'] }),
      rec('self-hosted-runner-public-repo'),
      rec('default-token-write'),
    ],
    file: CI_WORKFLOW,
    components: ['self-hosted-runner', 'self-hosted-runner-public-repo', 'default-token-write'],
    stages: ['self-hosted-runner', 'self-hosted-runner-public-repo', 'default-token-write', ''],
    breakRule: 'fork-pr-approval-weak',
  },
  {
    id: 'repository-takeover',
    records: [
      rec('artifact-poisoning', { file: '.github/workflows/deploy-preview.yml', line: 18, column: 9, job: 'deploy' }),
      rec('default-token-write'),
      rec('branch-protection-missing'),
      rec('actions-can-approve-prs'),
    ],
    file: '.github/workflows/deploy-preview.yml',
    components: ['artifact-poisoning', 'default-token-write', 'branch-protection-missing', 'actions-can-approve-prs'],
    stages: ['artifact-poisoning', 'default-token-write', 'branch-protection-missing', 'actions-can-approve-prs', ''],
    breakRule: 'default-token-write',
  },
  {
    id: 'artifact-poisoning-chain',
    records: [
      rec('artifact-poisoning', { line: 15, column: 9, job: 'comment' }),
      rec('github-env-injection', { line: 21, column: 14, job: 'comment' }),
    ],
    file: PR_WORKFLOW,
    components: ['artifact-poisoning', 'github-env-injection'],
    stages: ['artifact-poisoning', 'github-env-injection', ''],
    breakRule: 'artifact-poisoning',
  },
  {
    id: 'env-injection-hijack',
    records: [rec('github-env-injection', { line: 21, column: 14, job: 'label' }), rec('secrets-inherit', { line: 30, column: 5, job: 'label', severity: 'HIGH' })],
    file: PR_WORKFLOW,
    components: ['github-env-injection', 'secrets-inherit'],
    stages: ['github-env-injection', 'secrets-inherit', ''],
    breakRule: 'github-env-injection',
  },
  {
    id: 'cache-poisoning-release',
    records: [
      rec('script-injection', { file: PR_WORKFLOW, line: 14, column: 22, job: 'triage' }),
      rec('cache-poisoning', { file: RELEASE, line: 22, column: 9, job: 'publish', facts: ['holds:publish', `writer:${PR_WORKFLOW}#triage`] }),
      rec('missing-provenance', { file: RELEASE, line: 30, column: 9, job: 'publish' }),
    ],
    file: PR_WORKFLOW,
    components: ['script-injection', 'cache-poisoning', 'missing-provenance'],
    stages: ['script-injection', 'cache-poisoning', 'missing-provenance', ''],
    breakRule: 'cache-poisoning',
  },
  {
    id: 'mutable-action-secret-theft',
    records: [
      rec('unpinned-action', { file: RELEASE, line: 17, column: 15, job: 'publish', severity: 'MEDIUM', description: '`softprops/action-gh-release@v2` is not pinned to a commit SHA.' }),
      rec('personal-access-token', { file: RELEASE, line: 19, column: 18, job: 'publish' }),
      rec('sha-pinning-not-required'),
    ],
    file: RELEASE,
    components: ['unpinned-action', 'personal-access-token', 'sha-pinning-not-required'],
    stages: ['unpinned-action', 'sha-pinning-not-required', 'personal-access-token', ''],
    breakRule: 'unpinned-action',
  },
  {
    id: 'compromised-action',
    records: [
      rec('typosquat-action', { file: CI_WORKFLOW, line: 12, column: 15, job: 'lint', description: '`actons/checkout` is one edit away from `actions/checkout`.' }),
      rec('missing-permissions', { file: CI_WORKFLOW, line: 1, job: null }),
    ],
    file: CI_WORKFLOW,
    components: ['typosquat-action', 'missing-permissions'],
    stages: ['typosquat-action', 'missing-permissions', ''],
    breakRule: 'typosquat-action',
  },
  {
    id: 'review-bypass',
    records: [rec('actions-can-approve-prs'), rec('review-count-low'), rec('default-token-write')],
    file: SETTINGS_FILE,
    components: ['actions-can-approve-prs', 'review-count-low', 'default-token-write'],
    stages: ['default-token-write', 'actions-can-approve-prs', 'review-count-low', ''],
    breakRule: 'actions-can-approve-prs',
  },
  {
    id: 'bot-confused-deputy',
    records: [rec('bot-actor-condition', { line: 9, column: 9, job: 'automerge' }), rec('dangerous-trigger', { line: 2, job: null })],
    file: PR_WORKFLOW,
    components: ['bot-actor-condition', 'dangerous-trigger'],
    stages: ['bot-actor-condition', 'dangerous-trigger', ''],
    breakRule: 'bot-actor-condition',
  },
  {
    id: 'remote-script-on-runner',
    records: [
      rec('pipe-to-shell', { file: CI_WORKFLOW, line: 14, column: 14, job: 'setup' }),
      rec('download-without-checksum', { file: CI_WORKFLOW, line: 14, column: 14, job: 'setup' }),
      rec('self-hosted-runner', { file: CI_WORKFLOW, line: 6, column: 14, job: 'setup', severity: 'LOW' }),
    ],
    file: CI_WORKFLOW,
    components: ['pipe-to-shell', 'self-hosted-runner', 'download-without-checksum'],
    stages: ['pipe-to-shell', 'download-without-checksum', 'self-hosted-runner', ''],
    breakRule: 'pipe-to-shell',
  },
  {
    id: 'silent-supply-chain-tampering',
    records: [
      rec('download-without-checksum', { file: RELEASE, line: 14, column: 14, job: 'build' }),
      rec('continue-on-error', { file: RELEASE, line: 31, column: 9, job: 'build' }),
    ],
    file: RELEASE,
    components: ['download-without-checksum', 'continue-on-error'],
    stages: ['download-without-checksum', 'continue-on-error', ''],
    breakRule: 'download-without-checksum',
  },
  {
    id: 'open-dispatch-secret-leak',
    records: [rec('repository-dispatch-unfiltered', { file: DISPATCH, line: 2, column: 3, job: null }), rec('hardcoded-credentials', { file: DISPATCH, line: 10, column: 20, job: 'test' })],
    file: DISPATCH,
    components: ['repository-dispatch-unfiltered', 'hardcoded-credentials'],
    stages: ['repository-dispatch-unfiltered', 'hardcoded-credentials', ''],
    breakRule: 'repository-dispatch-unfiltered',
  },
  {
    id: 'secret-exposure-in-logs',
    records: [rec('debug-logging-enabled', { file: CI_WORKFLOW, line: 4, column: 3, job: null }), rec('secret-in-log', { file: CI_WORKFLOW, line: 18, column: 14, job: 'deploy' })],
    file: CI_WORKFLOW,
    components: ['debug-logging-enabled', 'secret-in-log'],
    stages: ['debug-logging-enabled', 'secret-in-log', ''],
    breakRule: 'debug-logging-enabled',
  },
  {
    id: 'token-leak-via-artifact',
    records: [
      rec('persisted-credentials', { file: CI_WORKFLOW, line: 9, column: 9, job: 'build', severity: 'HIGH' }),
      rec('missing-permissions', { file: CI_WORKFLOW, line: 1, job: null, severity: 'MEDIUM' }),
    ],
    file: CI_WORKFLOW,
    components: ['persisted-credentials', 'missing-permissions'],
    stages: ['persisted-credentials', 'missing-permissions', ''],
    breakRule: 'persisted-credentials',
  },
  {
    id: 'agent-prompt-injection-takeover',
    records: [
      rec('agent-untrusted-input', { file: '.github/workflows/triage.yml', line: 14, column: 15, job: 'triage', severity: 'MEDIUM', description: 'Gemini CLI runs on `issues` events that anyone can cause, while its job holds secrets (GEMINI_API_KEY).' }),
      rec('missing-permissions', { file: '.github/workflows/triage.yml', line: 1, job: null, severity: 'HIGH' }),
      rec('default-token-write'),
    ],
    file: '.github/workflows/triage.yml',
    components: ['agent-untrusted-input', 'missing-permissions'],
    stages: ['agent-untrusted-input', 'missing-permissions', ''],
    breakRule: 'agent-untrusted-input',
  },
  {
    id: 'persistent-supply-chain-foothold',
    records: [
      rec('self-hosted-runner', { file: CI_WORKFLOW, line: 7, column: 14, job: 'build', severity: 'LOW' }),
      rec('unpinned-action', { file: CI_WORKFLOW, line: 12, column: 15, job: 'build', severity: 'MEDIUM', description: '`some-org/setup-tool@v2` is pinned to a tag.' }),
    ],
    file: CI_WORKFLOW,
    components: ['unpinned-action', 'self-hosted-runner'],
    stages: ['unpinned-action', 'self-hosted-runner', ''],
    breakRule: 'unpinned-action',
  },
  {
    id: 'unverifiable-release',
    records: [
      rec('unpinned-action', { file: RELEASE, line: 18, column: 15, job: 'publish', severity: 'MEDIUM', description: '`softprops/action-gh-release@v2` is pinned to a tag.' }),
      rec('missing-provenance', { file: RELEASE, line: 18, column: 15, job: 'publish', severity: 'LOW' }),
      rec('sha-pinning-not-required'),
    ],
    file: RELEASE,
    components: ['unpinned-action', 'missing-provenance', 'sha-pinning-not-required'],
    stages: ['unpinned-action', 'sha-pinning-not-required', 'missing-provenance', ''],
    breakRule: 'unpinned-action',
  },
];

describe('every kind fires on a realistic repository', () => {
  it('covers all 21 kinds', () => {
    expect(new Set(CASES.map((c) => c.id)).size).toBe(21);
  });

  for (const c of CASES) {
    it(c.id, () => {
      const found = findCombinations(c.records, all).filter((x) => x.id === c.id);
      expect(found).toHaveLength(1);
      const combination = found[0];
      expect(combination?.file).toBe(c.file);
      expect(combination?.components.map((x) => x.rule_id)).toEqual(c.components);
      expect(combination?.stages.map((s) => s.rule_id)).toEqual(c.stages);
      expect(combination?.stages.map((s) => s.order)).toEqual(c.stages.map((_, i) => i));
      expect(combination?.break_chain_rule).toBe(c.breakRule);
      // The fix names the concrete place: the file and line of the finding it breaks the chain at.
      const breaking = combination?.components.find((x) => x.rule_id === c.breakRule)?.finding;
      const at = breaking?.file === SETTINGS_FILE ? 'the repository settings' : `${breaking?.file}:${breaking?.line}`;
      // (A fix in a setting that is not a component, such as fork approval, has no place to name.)
      if (breaking === undefined) expect(combination?.break_chain).not.toBe('');
      else expect(combination?.break_chain.startsWith(`At ${at} (`)).toBe(true);
      // Each stage tells what was found where.
      for (const stage of combination?.stages.slice(0, -1) ?? []) {
        const finding = combination?.components.find((x) => x.rule_id === stage.rule_id)?.finding;
        expect(stage.description).toContain(String(finding?.description).replace(/\.\s*$/, ''));
      }
      expect(combination?.stages.at(-1)?.description).toMatch(/Attacker: (an outside GitHub user|a compromised upstream|anyone who can run code)/);
      // Each component carries the very finding it was built from, in the public shape.
      for (const component of combination?.components ?? []) {
        const source = c.records.find((r) => r.finding.rule_id === component.rule_id);
        expect(component.finding).toEqual(source?.finding);
      }
    });
  }
});

describe('unverifiable-release: the fix names the registry\'s own provenance before an attestation step', () => {
  it('points at pypa/gh-action-pypi-publish v1.11+ and npm --provenance as well as actions/attest-build-provenance', () => {
    const c = CASES.find((x) => x.id === 'unverifiable-release')!;
    const found = findCombinations(c.records, all).find((x) => x.id === 'unverifiable-release');
    expect(found?.break_chain).toContain('`pypa/gh-action-pypi-publish` v1.11 or later attests by default with trusted publishing');
    expect(found?.break_chain).toContain('`npm publish --provenance`');
    expect(found?.break_chain).toContain('`actions/attest-build-provenance`');
  });
});
