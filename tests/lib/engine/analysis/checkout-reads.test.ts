import { describe, expect, it } from 'vitest';
import { scanWith, yaml } from '../../../support/engine.js';

/**
 * A `pull_request_target` job that checks out the pull request's head (`checkout`: the step's `with:` lines), then
 * reads something of it in a script (`read`) into an output, which a later script expands, or into `$GITHUB_ENV`.
 */
const job = (read: string, checkout = 'ref: ${{ github.event.pull_request.head.sha }}', guard = '') => yaml`
  on: pull_request_target
  jobs:
    notify:
      runs-on: ubuntu-latest
      ${guard}
      steps:
        - uses: actions/checkout@v3
          with:
            ${checkout}
        - id: read
          run: |
            value=$(${read})
            echo "value=$value" >> "$GITHUB_OUTPUT"
        - run: echo "${'${{ steps.read.outputs.value }}'}"
          env:
            GH_TOKEN: ${'${{ secrets.GH_TOKEN }}'}
`;

describe("what a script reads from an outsider's checkout is the outsider's text", () => {
  it("a commit message or a file of the pull request's checkout, handed on through an output into a script, is script injection", () => {
    for (const read of ['git log --format=%B -n 1', "grep '^#' CODEOWNERS | tail -n 1", 'cat ./VERSION', 'jq -r .version package.json']) {
      const found = scanWith('script-injection', job(read));
      expect(found.map((f) => f.severity), read).toEqual(['HIGH']);
      expect(found[0]?.description, read).toContain("the pull request head's files and commit messages, checked out by step 1");
    }
  });

  it('a file of it written to `$GITHUB_ENV` is github-env-injection', () => {
    const text = yaml`
      on: pull_request_target
      jobs:
        notify:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: |
                owners=$(grep '^#' CODEOWNERS | tail -n 1)
                echo "owners=$owners" >> "$GITHUB_ENV"
            - run: ./notify.sh
              env:
                GH_TOKEN: \${{ secrets.GH_TOKEN }}
    `;
    expect(scanWith('github-env-injection', text).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it("reads under the checkout's `path:` only; standard input, the base branch's checkout and a same-repository gate are not the outsider's", () => {
    const inPath = 'ref: ${{ github.event.pull_request.head.sha }}\n            path: pr';
    expect(scanWith('script-injection', job('cat pr/VERSION', inPath)).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith('script-injection', job('cat VERSION', inPath))).toEqual([]);
    expect(scanWith('script-injection', job('echo "$TITLE" | grep -c md'))).toEqual([]);
    expect(scanWith('script-injection', job('git log --format=%B -n 1', 'fetch-depth: 0'))).toEqual([]);
    const same = job('git log --format=%B -n 1', undefined, 'if: github.event.pull_request.head.repo.full_name == github.repository');
    expect(scanWith('script-injection', same).every((f) => f.severity === 'LOW')).toBe(true);
  });
});
