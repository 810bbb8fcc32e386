import { describe, expect, it } from 'vitest';
import { findCombinations } from '../../../../lib/engine/combinations/index.js';
import { CI_WORKFLOW, all, rec } from './support.js';

const RELEASE = '.github/workflows/release.yml';

/** The impact of the one combination of `id` the records form. */
function impactOf(id: string, records: Parameters<typeof findCombinations>[0]) {
  const found = findCombinations(records, all).filter((c) => c.id === id);
  expect(found).toHaveLength(1);
  const combination = found[0]!;
  expect(combination.stages.at(-1)?.description.startsWith(combination.impact)).toBe(true);
  return combination;
}

describe('impact clauses the components back', () => {
  it('claims a foothold that stays after the job on a self-hosted runner, and only "if the runners are reused" when its labels suggest ephemeral ones', () => {
    const action = () => rec('unpinned-action', { file: CI_WORKFLOW, line: 12, column: 15, job: 'build', severity: 'MEDIUM' });
    const persistent = impactOf('persistent-supply-chain-foothold', [rec('self-hosted-runner', { file: CI_WORKFLOW, line: 7, column: 14, job: 'build', severity: 'LOW' }), action()]);
    expect(persistent.impact).toContain('where it can stay after the job');
    expect(persistent.impact).not.toContain('if the runners are reused');
    const ephemeral = impactOf('persistent-supply-chain-foothold', [
      rec('self-hosted-runner', { file: CI_WORKFLOW, line: 7, column: 14, job: 'build', severity: 'LOW', facts: ['holds:self-hosted', 'runner:ephemeral-hint'] }),
      action(),
    ]);
    expect(ephemeral.impact).toContain('if the runners are reused between jobs');
    expect(ephemeral.impact).not.toContain('where it can stay after the job');
    // The clause was not what rated it: the severity stays.
    expect(ephemeral.severity).toBe(persistent.severity);
    expect(ephemeral.stages.find((s) => s.rule_id === 'self-hosted-runner')?.description).toContain('Its labels suggest ephemeral runners');
  });

  it('says failing checks do not stop the run only when the job ignores a failure (continue-on-error)', () => {
    const download = () => rec('download-without-checksum', { file: RELEASE, line: 14, column: 14, job: 'build' });
    const action = () => rec('unpinned-action', { file: RELEASE, line: 20, column: 15, job: 'build', severity: 'MEDIUM' });
    const plain = impactOf('silent-supply-chain-tampering', [download(), action()]);
    expect(plain.impact).not.toContain('failing checks');
    const ignored = impactOf('silent-supply-chain-tampering', [download(), action(), rec('continue-on-error', { file: RELEASE, line: 31, column: 9, job: 'build' })]);
    expect(ignored.impact).toContain('failing checks do not stop the run');
    expect(ignored.severity).toBe(plain.severity);
    // A continue-on-error of another job does not make this one's failures silent.
    const elsewhere = impactOf('silent-supply-chain-tampering', [download(), action(), rec('continue-on-error', { file: RELEASE, line: 40, column: 9, job: 'lint' })]);
    expect(elsewhere.impact).not.toContain('failing checks');
  });
});
