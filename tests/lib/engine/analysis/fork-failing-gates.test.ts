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
      - uses: actions/checkout@v3
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
      - uses: actions/checkout@v3
      - run: make lint
`;
    expect(scanWith(RULE, workflow('echo "no forks"; exit 1')).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith(RULE, workflow('echo "a fork"')).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe("a fork check inside a local composite action the job runs", () => {
  /** The action's one step: `condition` its `if:` (none when empty), then a script that rejects a fork's pull request. */
  const action = (condition = '') => `name: Resolve the pull request
inputs:
  repo-owner: { required: true }
runs:
  using: composite
  steps:
    - id: resolve
      shell: bash
      ${condition}
      env:
        REPO_OWNER: \${{ inputs.repo-owner }}
        GH_TOKEN: \${{ github.token }}
      run: |
        owner=$(gh pr view "$PR" --json headRepositoryOwner --jq .headRepositoryOwner.login)
        if [[ "$owner" != "$REPO_OWNER" ]]; then
          echo "::error::not this repository's pull request"
          exit 1
        fi
        echo "found=true" >> "$GITHUB_OUTPUT"
`;
  /** A `workflow_run` job that runs the action (`extra`: more keys of that step), then the pull request's code with a secret. */
  const workflow = (extra = '') => `on:
  workflow_run:
    workflows: [CI]
    types: [completed]
jobs:
  merge:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v3
      - uses: ./.github/actions/resolve
        ${extra}
        with:
          repo-owner: \${{ github.repository_owner }}
      - uses: actions/checkout@v3
        with:
          ref: \${{ github.event.workflow_run.head_sha }}
      - run: make release
        env:
          DEPLOY_KEY: \${{ secrets.DEPLOY_KEY }}
`;
  const scan = (text: string, actionText = action()) =>
    scanWith('untrusted-checkout', [
      { path: '.github/workflows/merge.yml', text },
      { path: '.github/workflows/ci.yml', text: 'name: CI\non: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n' },
      { path: '.github/actions/resolve/action.yml', text: actionText },
    ]);

  it('keeps forks out of the later steps: the checkout is no outsider\'s', () => {
    expect(scan(workflow()).filter((f) => f.severity !== 'LOW')).toEqual([]);
  });

  it('is no gate when the action step is conditional, or the calling step goes on after an error', () => {
    expect(scan(workflow(), action("if: inputs.repo-owner != ''")).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scan(workflow('continue-on-error: true')).map((f) => f.severity)).toEqual(['HIGH']);
  });
});
