// Script checkouts of pull request code (lib/engine/analysis/pr-head.ts): scripts are read line by line only
// when their word mask (file-scripts.ts) holds `git` or `gh`; the mask reads words as the shell does, so
// quoting the command does not hide it, and a script without either word yields nothing.
import { describe, expect, it } from 'vitest';
import { scanWith, yaml } from '../../../support/engine.js';

const workflow = (script: string) => {
  const [first, second = 'true'] = script.split(' && ');
  return yaml`
  on: pull_request_target
  permissions:
    contents: write
  jobs:
    test:
      runs-on: ubuntu-latest
      steps:
        - run: |
            ${first}
            ${second}
        - run: npm test
`;
};

describe('script checkouts behind the git/gh word mask', () => {
  it.each([
    ['git fetch origin pull/${{ github.event.pull_request.number }}/head && git checkout FETCH_HEAD'],
    ['"g"it fetch origin pull/${{ github.event.pull_request.number }}/head && g\\it checkout FETCH_HEAD'],
    ['/usr/bin/git fetch origin pull/${{ github.event.pull_request.number }}/head && git checkout FETCH_HEAD'],
    ['gh pr checkout ${{ github.event.pull_request.number }}'],
    ['"gh" pr checkout ${{ github.event.pull_request.number }}'],
  ])('reports %s', (script) => {
    expect(scanWith('untrusted-checkout', workflow(script)).map((f) => f.rule_id)).toEqual(['untrusted-checkout']);
  });

  it.each([
    ['echo pull/${{ github.event.pull_request.number }}/head'],
    ['digit fetch origin pull/${{ github.event.pull_request.number }}/head'],
    ['ghost pr checkout ${{ github.event.pull_request.number }}'],
  ])('negative: %s names neither git nor gh', (script) => {
    expect(scanWith('untrusted-checkout', workflow(script))).toEqual([]);
  });
});
