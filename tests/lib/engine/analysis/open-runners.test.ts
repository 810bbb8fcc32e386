import { describe, expect, it } from 'vitest';
import { positions, scanWith } from '../../../support/engine.js';
import { scanRepository } from '../../../../lib/engine/scan.js';
import { findCombinations } from '../../../../lib/engine/combinations/index.js';

/**
 * A self-hosted runner the repository already opens to forks (run model, open-runners.ts): a job that runs a
 * fork's pull request code with no approval on the same runners. For other findings of jobs on those runners the
 * machine is not a holding an outsider lacks.
 */
const forkTests = (runsOn: string, condition = '') => ({
  path: '.github/workflows/tests.yml',
  text: `on: pull_request
jobs:
  gpu-tests:${condition === '' ? '' : `\n    if: ${condition}`}
    runs-on: ${runsOn}
    steps:
      - uses: actions/checkout@v3
      - run: make test
`,
});

const nightly = (runsOn: string) => ({
  path: '.github/workflows/nightly.yml',
  text: `on:
  schedule:
    - cron: '0 3 * * *'
permissions:
  issues: write
jobs:
  nightly:
    runs-on: ${runsOn}
    container:
      image: vendor/toolchain:1.2
    steps:
      - uses: actions/checkout@v3
      - run: make test
      - uses: someone/file-an-issue@v2
        if: failure()
`,
});

describe('runners already open to forks', () => {
  it('does not count the self-hosted machine as worth taking for other jobs on the same runners (LOW, saying why)', () => {
    const files = [forkTests('[self-hosted, gpu]'), nightly('[self-hosted, gpu, large]')];
    const actions = scanWith('unpinned-action', files).filter((f) => f.file.endsWith('nightly.yml') && f.description.includes('someone/file-an-issue'));
    expect(actions.map((f) => f.severity)).toEqual(['LOW']);
    expect(actions[0]?.description).toContain("it runs on a self-hosted runner, but the same self-hosted runners already run forks' pull requests with no approval in job `gpu-tests` of `.github/workflows/tests.yml`, so the machine is no holding an outsider lacks");
    expect(actions[0]?.description).toContain('its self-hosted runner is one that forks already reach');
    const images = scanWith('unpinned-image', files).filter((f) => f.file.endsWith('nightly.yml'));
    expect(images.map((f) => f.severity)).toEqual(['LOW']);
    expect(images[0]?.description).toContain("the same self-hosted runners already run forks' pull requests");
    // The fork-running job keeps its own finding.
    expect(positions(scanWith('self-hosted-runner', files).filter((f) => f.file.endsWith('tests.yml')))).toEqual(['4:15 HIGH']);
  });

  it('joins no foothold path through a job on those runners that holds a secret: the way onto the machine is the fork', () => {
    const withSecret = (runsOn: string) => ({ ...nightly(runsOn), text: nightly(runsOn).text.replace('      - run: make test\n', '      - run: make test\n        env:\n          TOKEN: ${{ secrets.HUB_TOKEN }}\n') });
    const paths = (files: { path: string; text: string }[]) => findCombinations(scanRepository(files, {}).records, () => true).filter((c) => c.id === 'persistent-supply-chain-foothold').map((c) => c.file);
    expect(scanWith('unpinned-action', [forkTests('[self-hosted, gpu]'), withSecret('[self-hosted, gpu, large]')]).filter((f) => f.description.includes('someone/file-an-issue')).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(paths([forkTests('[self-hosted, gpu]'), withSecret('[self-hosted, gpu, large]')])).toEqual([]);
    // Negative: on runners no fork reaches, the path stands.
    expect(paths([forkTests('[self-hosted, gpu]'), withSecret('[self-hosted, cpu]')])).toEqual(['.github/workflows/nightly.yml']);
  });

  it('keeps the machine worth taking when the runners differ or no fork runs unapproved there', () => {
    // The fork-running job needs a label the other job does not ask for: the other job can land elsewhere.
    const elsewhere = [forkTests('[self-hosted, gpu]'), nightly('[self-hosted, cpu]')];
    expect(scanWith('unpinned-action', elsewhere).filter((f) => f.file.endsWith('nightly.yml') && f.description.includes('someone/file-an-issue')).map((f) => f.severity)).toEqual(['MEDIUM']);
    // Forks are kept out of the pull request job: only trusted authors run code on the runners.
    const closed = [forkTests('[self-hosted, gpu]', 'github.event.pull_request.head.repo.full_name == github.repository'), nightly('[self-hosted, gpu]')];
    const found = scanWith('unpinned-action', closed).filter((f) => f.file.endsWith('nightly.yml') && f.description.includes('someone/file-an-issue'));
    expect(found.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(found[0]?.description).toContain('a self-hosted runner');
    expect(scanWith('unpinned-image', closed).filter((f) => f.file.endsWith('nightly.yml')).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('lowers an approval-gated self-hosted-runner finding on runners forks already use', () => {
    const labelled = {
      path: '.github/workflows/bench.yml',
      text: `on:
  pull_request:
    types: [labeled]
jobs:
  bench:
    if: github.event.label.name == 'run-bench'
    runs-on: [self-hosted, gpu]
    steps:
      - uses: actions/checkout@v3
        with:
          ref: \${{ github.ref }}
      - run: make bench
`,
    };
    expect(positions(scanWith('self-hosted-runner', [labelled]))).toEqual(['7:15 MEDIUM']);
    const findings = scanWith('self-hosted-runner', [labelled, forkTests('[self-hosted, gpu]')]).filter((f) => f.file.endsWith('bench.yml'));
    expect(findings.map((f) => f.severity)).toEqual(['LOW']);
    expect(findings[0]?.description).toContain("already run forks' pull requests with no approval in job `gpu-tests`");
  });

  describe('matrix legs', () => {
    // Two legs: a self-hosted x64 machine and a GitHub-hosted arm64 one. No leg asks for self-hosted arm64.
    const forkLegs = (include: string) => ({
      path: '.github/workflows/tests.yml',
      text: `on: pull_request
jobs:
  matrix-tests:
    strategy:
      matrix:
        include:
${include}
    runs-on:
      - \${{ matrix.os }}
      - \${{ matrix.arch }}
    steps:
      - uses: actions/checkout@v3
      - run: make test
`,
    });
    const twoLegs = forkLegs(`          - os: self-hosted
            arch: x64
          - os: ubuntu-latest
            arch: arm64`);
    const nightlyAction = (files: { path: string; text: string }[]) =>
      scanWith('unpinned-action', files).filter((f) => f.file.endsWith('nightly.yml') && f.description.includes('someone/file-an-issue'));

    it('does not take a label set no leg has (self-hosted from one leg, arm64 from another) for runners forks reach', () => {
      const found = nightlyAction([twoLegs, nightly('[self-hosted, arm64]')]);
      expect(found.map((f) => f.severity)).toEqual(['MEDIUM']);
      expect(found[0]?.description).not.toContain('already run forks');
    });

    it('takes the label set of a leg that does run forks\' code on self-hosted runners', () => {
      const found = nightlyAction([twoLegs, nightly('[self-hosted, x64]')]);
      expect(found.map((f) => f.severity)).toEqual(['LOW']);
      expect(found[0]?.description).toContain("already run forks' pull requests with no approval in job `matrix-tests` of `.github/workflows/tests.yml`");
    });

    it('reads a leg whose matrix value is a list of labels as those labels', () => {
      const listLeg = {
        path: '.github/workflows/tests.yml',
        text: `on: pull_request
jobs:
  gpu-tests:
    strategy:
      matrix:
        include:
          - runner: [self-hosted, gpu]
    runs-on: \${{ matrix.runner }}
    steps:
      - uses: actions/checkout@v3
      - run: make test
`,
      };
      expect(nightlyAction([listLeg, nightly('[self-hosted, gpu, large]')]).map((f) => f.severity)).toEqual(['LOW']);
      expect(nightlyAction([listLeg, nightly('[self-hosted, cpu]')]).map((f) => f.severity)).toEqual(['MEDIUM']);
    });
  });

  describe("a reusable workflow's runners, named by its inputs", () => {
    const caller = (arch: string) => ({
      path: '.github/workflows/dev.yml',
      text: `on: pull_request
jobs:
  linux:
    uses: ./.github/workflows/reuse.yml
    with:
      runner_arch: ${arch}
`,
    });
    const reuse = {
      path: '.github/workflows/reuse.yml',
      text: `on:
  workflow_call:
    inputs:
      runner_arch:
        type: string
        default: X64
      provider:
        type: string
        default: aws
jobs:
  test:
    runs-on:
      - self-hosted
      - \${{ inputs.runner_arch }}
      - "\${{ inputs.provider }}"
    steps:
      - uses: actions/checkout@v3
      - run: make test
      - uses: someone/setup-tool@v1
`,
    };
    const nightlyAction = (files: { path: string; text: string }[]) =>
      scanWith('unpinned-action', files).filter((f) => f.file.endsWith('nightly.yml') && f.description.includes('someone/file-an-issue'));

    it('resolves the labels through what each local caller passes (or the default), for other jobs on those runners', () => {
      expect(nightlyAction([caller('ARM64'), reuse, nightly('[self-hosted, arm64, aws, 2c]')]).map((f) => f.severity)).toEqual(['LOW']);
      // Negative: the caller sends the job to other runners.
      expect(nightlyAction([caller('X64'), reuse, nightly('[self-hosted, arm64, aws, 2c]')]).map((f) => f.severity)).toEqual(['MEDIUM']);
      // Negative: a value the caller computes is not known.
      expect(nightlyAction([caller("${{ github.event.inputs.arch || 'ARM64' }}"), reuse, nightly('[self-hosted, arm64, aws]')]).map((f) => f.severity)).toEqual(['MEDIUM']);
    });

    it('counts the fork-running job itself as open, whatever its labels, and joins no foothold path there', () => {
      const own = scanWith('unpinned-action', [caller('${{ github.event.inputs.arch }}'), reuse]).filter((f) => f.description.includes('someone/setup-tool'));
      expect(own.map((f) => f.severity)).toEqual(['LOW']);
      expect(own[0]?.description).toContain('its self-hosted runner is one that forks already reach');
      const { records } = scanRepository([caller('${{ github.event.inputs.arch }}'), reuse], {});
      expect(records.some((r) => r.finding.rule_id === 'self-hosted-runner' && r.finding.severity === 'HIGH')).toBe(true);
      expect(findCombinations(records, () => true).filter((c) => c.id === 'persistent-supply-chain-foothold')).toEqual([]);
    });
  });
});
