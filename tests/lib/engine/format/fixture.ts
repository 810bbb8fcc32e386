import { findCombinations } from '../../../../lib/engine/combinations/index.js';
import type { Report } from '../../../../lib/engine/report.js';
import { emptyCounts, type FindingRecord } from '../../../../lib/engine/types.js';
import { CI_WORKFLOW, PR_WORKFLOW, rec } from '../combinations/support.js';

const NOTHING_LEFT_OUT = { suppressed: 0, unusedSuppressions: [], unknownSuppressions: [], baselined: 0, belowMinimum: 0 };

/** A report as a scan of a repository with a pwn request, a settings snapshot and a few lesser findings gives it. */
export function sampleReport(): Report {
  const records: FindingRecord[] = [
    rec('missing-timeout', { file: CI_WORKFLOW, line: 3, column: 3, job: 'build', description: 'Job `build` has no `timeout-minutes`; it can run for up to 6 hours.' }),
    rec('unpinned-action', { file: CI_WORKFLOW, line: 8, column: 15, job: 'build', severity: 'LOW', description: 'Action `actions/checkout` is referenced by the mutable ref `v4`, with a comma, a colon: and 100% certainty.' }),
    rec('missing-permissions', { file: PR_WORKFLOW, line: 1, column: 1, job: null, severity: 'HIGH', description: 'The workflow sets no `permissions:`.' }),
    rec('untrusted-checkout', { file: PR_WORKFLOW, line: 12, column: 9, job: 'test', description: 'Step 1 of job `test` checks out the pull request head;\nstep 2 runs `npm test`.' }),
    rec('persisted-credentials', { file: PR_WORKFLOW, line: 12, column: 9, job: 'test', severity: 'MEDIUM' }),
    rec('default-token-write', { description: 'The default `GITHUB_TOKEN` is read-write.' }),
    rec('settings-unreadable', { description: 'Repository webhooks could not be read.' }),
  ];
  const counts = emptyCounts();
  for (const r of records) counts[r.finding.severity]++;
  return { records, counts, combinations: findCombinations(records, () => true), ...NOTHING_LEFT_OUT };
}

export function emptyReport(): Report {
  return { records: [], counts: emptyCounts(), combinations: [], ...NOTHING_LEFT_OUT };
}
