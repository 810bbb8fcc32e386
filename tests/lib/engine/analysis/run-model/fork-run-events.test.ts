import { describe, expect, it } from 'vitest';
import { scanWith, yaml } from '../../../../support/engine.js';

/** A `workflow_run` follower that expands the followed run's branch name into a script, unless the run came from a pull request event. */
const follower = yaml`
  name: Canary
  on:
    workflow_run:
      workflows: [Tests]
      types: [completed]
  permissions: { contents: write }
  jobs:
    build:
      if: github.event.workflow_run.event != 'pull_request'
      runs-on: ubuntu-latest
      steps:
        - run: echo "${'$'}{{ github.event.workflow_run.head_branch }}"
`;

const tests = (on: string) => yaml`
  name: Tests
  on: ${on}
  jobs:
    test:
      runs-on: ubuntu-latest
      steps:
        - run: echo test
`;

const scan = (on: string | null) =>
  scanWith('script-injection', [
    { path: '.github/workflows/canary.yml', text: follower },
    ...(on === null ? [] : [{ path: '.github/workflows/tests.yml', text: tests(on) }]),
  ]).map((f) => f.severity);

describe('what `github.event.workflow_run.event` can be on a run a fork started', () => {
  it('is only the pull request events the followed workflows run on: a check that excludes them keeps forks out', () => {
    // Tests runs on `pull_request` (and `push`): a fork's run of it is a `pull_request` run, which the job skips.
    expect(scan('[push, pull_request]')).toEqual(['LOW']);
    // Tests also runs on `pull_request_target`: a fork's pull request starts such a run too, which the check lets in.
    expect(scan('[push, pull_request, pull_request_target]')).toEqual(['HIGH']);
    // The followed workflow is not in the repository: any pull request event may be it.
    expect(scan(null)).toEqual(['HIGH']);
  });
});
