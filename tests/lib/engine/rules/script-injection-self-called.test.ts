import { describe, expect, it } from 'vitest';
import { scanWith, yaml } from '../../../support/engine.js';
import type { RepositoryFile } from '../../../../lib/engine/types.js';

const RULE = 'script-injection';

/** A composite action (at the root or in `dir`) named "Format Code" that expands its input into a `run:` script. */
function action(dir = ''): RepositoryFile {
  return {
    path: `${dir === '' ? '' : `${dir}/`}action.yml`,
    text: yaml`
      name: Format Code
      description: Formats the code
      inputs:
        python_docstrings:
          description: Also format docstrings
          default: 'false'
      runs:
        using: composite
        steps:
          - shell: bash
            run: ./format.sh --docstrings=\${{ inputs.python_docstrings }}
    `,
  };
}

/** A workflow of the same repository that calls the action by its published name with `value`. */
function caller(uses: string, value: string, on = 'pull_request'): RepositoryFile {
  return {
    path: '.github/workflows/format.yml',
    text: yaml`
      on: ${on}
      permissions: {}
      jobs:
        format:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: ${uses}
              with:
                python_docstrings: ${value}
    `,
  };
}

describe(`${RULE}: a composite action's input that a workflow of the same repository passes by the action's published name`, () => {
  it('says what the callers pass (a fixed value, where) for the root action called as owner/repo@main, also with no name given to the scan', () => {
    for (const options of [{}, { repository: 'acme/format-code' }]) {
      const found = scanWith(RULE, [action(), caller('acme/format-code@main', 'true')], options);
      expect(found.map((f) => f.severity), JSON.stringify(options)).toEqual(['LOW']);
      expect(found[0]?.description).not.toContain('no caller in this repository');
      expect(found[0]?.description).toContain('callers in this repository pass only fixed values (`true`, .github/workflows/format.yml:10); a repository that uses the published action sets it for its own runs');
    }
  });

  it('says so for a subfolder action called as owner/repo/dir@ref when the scan knows the name', () => {
    const found = scanWith(RULE, [action('format'), caller('acme/tools/format@v1', 'true')], { repository: 'acme/tools' });
    expect(found.map((f) => f.severity)).toEqual(['LOW']);
    expect(found[0]?.description).toContain('callers in this repository pass only fixed values (`true`, .github/workflows/format.yml:10)');
  });

  it("reports a caller's outsider text as for a `./` call (MEDIUM: the job holds nothing), naming the call", () => {
    const outsider = '${{ github.event.pull_request.title }}';
    const found = scanWith(RULE, [action(), caller('acme/format-code@main', outsider, 'pull_request_target')]);
    const local = scanWith(RULE, [action(), caller('./', outsider, 'pull_request_target')]);
    expect(found.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(found[0]?.description).toContain('free text set by anyone with a GitHub account, via `inputs.python_docstrings`');
    expect(found[0]?.description).toContain('(run by step 2 of job `format`, line 8)');
    expect(found.map((f) => f.description)).toEqual(local.map((f) => f.description));
  });

  it('negative: with no caller in the repository the input stays "no caller in this repository"', () => {
    const found = scanWith(RULE, [action()]);
    expect(found.map((f) => f.severity)).toEqual(['LOW']);
    expect(found[0]?.description).toContain('whoever calls it (no caller in this repository)');
  });

  it("negative: a call of another repository's action of another name is no caller", () => {
    const found = scanWith(RULE, [action(), caller('other/lint-tool@main', 'true')]);
    expect(found[0]?.description).toContain('whoever calls it (no caller in this repository)');
  });

  it('follows a call through a checkout of this repository into a subdirectory (`path: src/app`, then `./src/app/...`)', () => {
    const checkedOut = (repository: string) => ({
      path: '.github/workflows/format.yml',
      text: yaml`
        on: pull_request
        permissions: {}
        jobs:
          format:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:
                  path: src/app${repository}
              - uses: ./src/app/format
                with:
                  python_docstrings: true
      `,
    });
    const found = scanWith(RULE, [action('format'), checkedOut('')]);
    expect(found[0]?.description).toContain('callers in this repository pass only fixed values (`true`, .github/workflows/format.yml:12)');
    // Negative: the subdirectory holds another repository's checkout: its action is not this file.
    const other = scanWith(RULE, [action('format'), checkedOut('\n                  repository: other/app')]);
    expect(other[0]?.description).toContain('whoever calls it (no caller in this repository)');
  });
});
