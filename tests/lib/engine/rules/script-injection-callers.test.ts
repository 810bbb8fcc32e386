import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'script-injection';

// A composite action that expands its input into its script, and workflows that call it with different values:
// each caller is judged with what it passes, and the finding names the value of the caller it reports.
const action = {
  path: '.github/actions/pick/action.yml',
  text: yaml`
    name: pick
    inputs:
      title: { required: true }
    runs:
      using: composite
      steps:
        - name: Pick
          shell: bash
          run: echo "\${{ inputs.title }}"
  `,
};

const onMerge = (title: string) => ({
  path: '.github/workflows/merged.yml',
  text: yaml`
    on:
      pull_request:
        types: [closed]
    permissions: { contents: write }
    jobs:
      merged:
        if: github.event.pull_request.merged == true
        runs-on: ubuntu-latest
        steps:
          - uses: ./.github/actions/pick
            with:
              title: ${title}
  `,
});

// The file names order the callers either way round (the first caller wins a tie of equally strong values).
const onComment = (title: string, path = '.github/workflows/with-comment.yml') => ({
  path,
  text: yaml`
    on:
      issue_comment:
        types: [created]
    permissions: { contents: write }
    jobs:
      comment:
        runs-on: ubuntu-latest
        steps:
          - uses: ./.github/actions/pick
            with:
              title: ${title}
  `,
});

describe('script-injection: a composite action input, judged per caller', () => {
  it('positive: names the source the reported caller passes, not another caller\'s', () => {
    const found = scanWith(RULE, [action, onMerge('${{ github.event.pull_request.title }}'), onComment('${{ github.event.issue.title }}')]);
    expect(positions(found)).toEqual(['9:18 HIGH']);
    const text = found[0]?.description ?? '';
    expect(text).toContain('expands `github.event.issue.title` (free text set by anyone with a GitHub account, via `inputs.title`)');
    expect(text).toContain('run by step 1 of job `comment`');
    expect(text).toContain('through `issue_comment`');
    expect(text).not.toContain('pull_request.title');
  });

  it('one caller: unchanged', () => {
    const found = scanWith(RULE, [action, onComment('${{ github.event.issue.title }}')]);
    expect(positions(found)).toEqual(['9:18 HIGH']);
    expect(found[0]?.description).toContain('expands `github.event.issue.title` (free text set by anyone with a GitHub account, via `inputs.title`) into shell code before it runs (run by step 1 of job `comment`, line 9); anyone with a GitHub account can start it through `issue_comment`');
  });

  it('a caller passing a literal drops out beside one passing outsider text', () => {
    // The comment's run would reach anyone, but it passes a literal: the finding is the merged pull request's.
    for (const path of ['.github/workflows/with-comment.yml', '.github/workflows/a-comment.yml']) {
      const found = scanWith(RULE, [action, onMerge('${{ github.event.pull_request.title }}'), onComment('fixed', path)]);
      expect(found).toHaveLength(1);
      const text = found[0]?.description ?? '';
      expect(text).toContain('expands `github.event.pull_request.title`');
      expect(text).toContain('run by step 1 of job `merged`');
      expect(text).not.toContain('job `comment`');
      expect(text).not.toContain('issue_comment');
    }
    // negative: no caller passes outsider text.
    expect(scanWith(RULE, [action, onMerge('fixed'), onComment('fixed')])).toEqual([]);
  });
});

describe('script-injection: per-caller inputs through nested composite actions', () => {
  const nested = (n: number) => {
    const files = [];
    for (let i = 0; i < n; i++) {
      // Each action calls the next and itself (a cycle), passing its input on.
      files.push({
        path: `.github/actions/a${i}/action.yml`,
        text: yaml`
          inputs:
            v: { required: true }
          runs:
            using: composite
            steps:
              - uses: ./.github/actions/a${(i + 1) % n}
                with: { v: '\${{ inputs.v }}' }
              - uses: ./.github/actions/a${i}
                with: { v: '\${{ inputs.v }}' }
              - shell: bash
                run: echo "\${{ inputs.v }}"
        `,
      });
    }
    files.push({
      path: '.github/workflows/with-comment.yml',
      text: yaml`
        on: issue_comment
        permissions: { contents: write }
        jobs:
          comment:
            runs-on: ubuntu-latest
            steps:
              - uses: ./.github/actions/a0
                with: { v: '\${{ github.event.issue.title }}' }
      `,
    }, {
      path: '.github/workflows/z.yml',
      text: yaml`
        on: issue_comment
        jobs:
          b:
            runs-on: ubuntu-latest
            steps:
              - uses: ./.github/actions/a0
                with: { v: fixed }
      `,
    });
    return files;
  };

  it('growth: a cycle of actions calling each other stays bounded', () => {
    const start = Date.now();
    const found = scanWith(RULE, [action, ...nested(30)]);
    expect(Date.now() - start).toBeLessThan(20_000);
    expect(found.length).toBeGreaterThan(0);
    // Three levels down, the value is still the comment job's, not the literal of the other job.
    const deep = found.find((f) => f.file.includes('/a3/'));
    expect(deep?.description).toContain('expands `github.event.issue.title`');
    expect(deep?.description).toContain('job `comment`');
  });
});
