import { ruleById } from '../../../../lib/engine/rules/index.js';
import { SETTINGS_FILE, type FindingRecord, type Severity } from '../../../../lib/engine/types.js';

export const PR_WORKFLOW = '.github/workflows/pr-target.yml';
export const CI_WORKFLOW = '.github/workflows/ci.yml';

export interface At {
  file?: string;
  line?: number;
  column?: number;
  job?: string | null;
  severity?: Severity;
  description?: string;
  /** Run-model facts; by default those of a HIGH finding of its rule as the engine reports it (see DEFAULT_FACTS). */
  facts?: string[];
}

/**
 * The facts the engine gives a finding of these rules at its default severity: a pull request checkout whose code
 * a later step runs, started by anyone, in a job that holds something worth taking.
 */
const DEFAULT_FACTS: Readonly<Record<string, string[]>> = {
  // ... with the repository's default token (no `permissions:`) and secrets.
  'untrusted-checkout': ['exec', 'holds', 'holds:secrets', 'holds:token', 'reach:anyone', 'token:default'],
  'artifact-poisoning': ['exec', 'holds', 'holds:secrets', 'holds:token', 'reach:anyone', 'token:default'],
  'github-env-injection': ['exec', 'holds', 'holds:secrets', 'holds:token', 'reach:anyone', 'token:default'],
  // A release restoring a cache: which jobs write it is the test's to say (`writer:<file>#<job>`).
  'cache-poisoning': ['holds:publish'],
  // Outsider text that runs, brought in through `pull_request_target`, in a job holding a write token and secrets.
  'script-injection': ['event:pull_request_target', 'exec', 'holds', 'holds:secrets', 'holds:token', 'reach:anyone', 'token:default'],
  // A third-party action on a tag in a job that publishes, on the `self-hosted` label, with a secret passed to it.
  'unpinned-action': ['holds', 'holds:publish', 'holds:secrets', 'holds:self-hosted', 'owner:third-party', 'secrets:step'],
  // A third-party image in a job on the `self-hosted` label.
  'unpinned-image': ['holds', 'holds:self-hosted', 'owner:third-party'],
  // A compromise (malicious code in the version used), not a bug.
  'known-vulnerable-action': ['advisory:compromise'],
  // An agent anyone prompts, in a job with the default token and secrets.
  'agent-untrusted-input': ['holds', 'holds:secrets', 'holds:token', 'reach:anyone', 'token:default'],
  // A workspace upload, in a job with the default token.
  'persisted-credentials': ['holds', 'holds:token', 'token:default'],
  // A job on the `self-hosted` label; the tests that mean a runner that runs a fork's code, or a custom label, say so.
  'self-hosted-runner': ['holds:self-hosted'],
  // A download in a job that publishes.
  'download-without-checksum': ['holds', 'holds:publish'],
  // A secret printed to the log by a step that runs on push and on any dispatch event.
  'secret-in-log': ['dest:log', 'event:push', 'event:repository_dispatch'],
};

let counter = 0;

/** A stored finding record as the engine (or the API's database) holds it. */
export function rec(ruleId: string, at: At = {}): FindingRecord {
  const rule = ruleById(ruleId);
  if (rule === undefined) throw new Error(`unknown rule ${ruleId}`);
  const settings = rule.meta.surface === 'repo-settings';
  counter++;
  return {
    finding: {
      file: settings ? SETTINGS_FILE : (at.file ?? PR_WORKFLOW),
      line: settings ? 0 : (at.line ?? 1),
      column: settings ? 0 : (at.column ?? 1),
      severity: at.severity ?? rule.meta.severity,
      category: rule.meta.category,
      rule_id: ruleId,
      title: rule.meta.title,
      description: at.description ?? `${rule.meta.title} (test finding ${counter})`,
      recommendation: rule.meta.recommendation,
    },
    job: settings ? null : at.job === undefined ? 'build' : at.job,
    fingerprint: counter.toString(16).padStart(14, '0'),
    ...(at.facts !== undefined ? { facts: at.facts } : DEFAULT_FACTS[ruleId] !== undefined ? { facts: DEFAULT_FACTS[ruleId] } : {}),
  };
}

export const all = () => true;
export const without =
  (...ids: string[]) =>
  (id: string) =>
    !ids.includes(id);
