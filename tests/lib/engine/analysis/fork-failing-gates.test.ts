import { describe, expect, it } from 'vitest';
import { scanWith } from '../../../support/engine.js';

// A job that fails for every fork's pull request stands in the way of the jobs that need it, as a fork check in a
// script does: the run model's trust paths (trust-guards.ts `failingChecks`, `failureStops`).
const RULE = 'self-hosted-runner';

const CHECK = `name: Check Permissions
on:
  workflow_call:
    inputs:
      github-event-name: { required: true, type: string }
jobs:
  check-permissions:
    runs-on: ubuntu-latest
    steps:
      - name: Disallow CI runs on PRs from forks
        if: |
          inputs.github-event-name == 'pull_request' &&
          github.event.pull_request.head.repo.full_name != github.repository
        run: |
          echo >&2 "We don't run CI for PRs from forks"
          exit 1
`;

const build = (needs: string, condition = '', eventInput = '${{ github.event_name }}') => `name: Build
on:
  push:
    branches: [main]
  pull_request:
jobs:
  check-permissions:
    uses: ./.github/workflows/check-permissions.yml
    with:
      github-event-name: ${eventInput}
  lint:
    needs: [${needs}]
${condition}    runs-on: [self-hosted, small]
    steps:
      - uses: actions/checkout@v4
      - run: make lint
`;

const scan = (workflow: string, check = CHECK) =>
  scanWith(RULE, [
    { path: '.github/workflows/build.yml', text: workflow },
    { path: '.github/workflows/check-permissions.yml', text: check },
  ]).filter((f) => f.file === '.github/workflows/build.yml');

describe('a needed job that fails for forks keeps them off the self-hosted runner', () => {
  it('positive: with no such gate, a fork pull request runs `make` on the runner (HIGH)', () => {
    expect(scan(build('')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('negative: needing a local reusable workflow whose job fails every fork pull request (the event through the call\'s input)', () => {
    const found = scan(build('check-permissions'));
    expect(found.map((f) => f.severity)).toEqual(['LOW']);
    expect(found[0]?.description).toContain('fork check in step `Disallow CI runs on PRs from forks` of `.github/workflows/check-permissions.yml`');
  });

  it('positive: the gate does not hold when its step does not fail, or the input is not the event\'s name, or its job has its own condition', () => {
    expect(scan(build('check-permissions'), CHECK.replace('exit 1', 'exit 0')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scan(build('check-permissions'), CHECK.replace('exit 1', 'echo done')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scan(build('check-permissions', '', 'push')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scan(build('check-permissions'), CHECK.replace('    runs-on: ubuntu-latest', "    if: github.actor == 'x'\n    runs-on: ubuntu-latest")).map((f) => f.severity)).toEqual(['HIGH']);
    // Either the fork's run or not: `||` is no fork-only condition.
    expect(scan(build('check-permissions'), CHECK.replace("inputs.github-event-name == 'pull_request' &&", "inputs.github-event-name == 'pull_request' ||")).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('negative: a status function that still stops after a failure (`!failure()`, a needed result of success or skipped)', () => {
    expect(scan(build('check-permissions', "    if: contains(github.event.pull_request.labels.*.name, 'ci') && !failure() && !cancelled()\n")).map((f) => f.severity)).toEqual(['LOW']);
    expect(scan(build('check-permissions', "    if: ${{ !cancelled() && contains(fromJSON('[\"skipped\", \"success\"]'), needs.check-permissions.result) }}\n")).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('positive: `always()` or `!cancelled()` alone runs the job after the gate failed', () => {
    expect(scan(build('check-permissions', '    if: always()\n')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scan(build('check-permissions', '    if: ${{ !cancelled() }}\n')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('negative: in the same job, an earlier step that fails a fork\'s pull request keeps the later steps from it; positive without the exit', () => {
    const workflow = (check: string) => `on: pull_request
jobs:
  lint:
    runs-on: [self-hosted, small]
    steps:
      - run: |
          if [ "\${{ github.event.pull_request.head.repo.full_name }}" != "\${{ github.repository }}" ]; then ${check}; fi
      - uses: actions/checkout@v4
      - run: make lint
`;
    expect(scanWith(RULE, workflow('echo "no forks"; exit 1')).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith(RULE, workflow('echo "a fork"')).map((f) => f.severity)).toEqual(['HIGH']);
  });
});
