import { describe, expect, it } from 'vitest';
import { refusingVersion } from '../../../../lib/engine/analysis/checkout-refusal.js';
import { scanWith, yaml } from '../../../support/engine.js';

describe('the actions/checkout versions that refuse a fork pull request on pull_request_target and workflow_run', () => {
  it('takes v4.4.0, v5.1.0, v6.1.0, v7 and later, the floating major tags from v4, main and those commits; not older ones', () => {
    for (const ref of ['v4', 'v5', 'v6', 'v7', 'v8', 'v4.4.0', 'v4.4', 'v5.1.0', 'v6.1.0', 'v6.2.1', 'v7.0.0', 'v7.0.1', 'main', '3d3c42e5aac5ba805825da76410c181273ba90b1', '9c091bb21b7c1c1d1991bb908d89e4e9dddfe3e0']) {
      expect(refusingVersion(ref), ref).toBe(true);
    }
    for (const ref of ['v3', 'v4.3.1', 'v4.2.2', 'v5.0.1', 'v6.0.2', 'v6.0.3', 'v2.7.0', 'releases/v4', 'de0fac2e4500dabe0009e67214ff5f5447ce83dd', '08eba0b27e820071cde6df949e0beb9ba4906955']) {
      expect(refusingVersion(ref), ref).toBe(false);
    }
  });
});

describe('untrusted-checkout and a checkout that refuses a fork pull request', () => {
  const workflow = (on: string, uses: string, ref: string, extra = '') => yaml`
    on: ${on}
    permissions: { contents: write }
    jobs:
      test:
        runs-on: ubuntu-latest
        steps:
          - uses: ${uses}
            with:
              ref: ${ref}${extra}
          - run: npm ci && npm test
  `;
  const head = '${{ github.event.pull_request.head.sha }}';

  it('reports nothing of a fork for a refusing version on pull_request_target: the step fails for a fork', () => {
    expect(scanWith('untrusted-checkout', workflow('pull_request_target', 'actions/checkout@v6.1.0', head))).toEqual([]);
    expect(scanWith('untrusted-checkout', workflow('pull_request_target', 'actions/checkout@v7', 'refs/pull/${{ github.event.number }}/merge'))).toEqual([]);
  });

  it('keeps the HIGH finding for an older version, an opt-in, another action, or a checkout on issue_comment', () => {
    const high = (text: string) => scanWith('untrusted-checkout', text).map((f) => f.severity);
    expect(high(workflow('pull_request_target', 'actions/checkout@v6.0.2', head))).toEqual(['HIGH']);
    expect(high(workflow('pull_request_target', 'actions/checkout@v7', head, '\n              allow-unsafe-pr-checkout: true'))).toEqual(['HIGH']);
    expect(high(workflow('pull_request_target', 'actions/checkout@v7', head, '\n              allow-unsafe-pr-checkout: ${{ inputs.unsafe }}'))).toEqual(['HIGH']);
    expect(high(workflow('pull_request_target', 'actions/checkout@v7', head, '\n              allow-unsafe-pr-checkout: false'))).toEqual([]);
    expect(high(workflow('pull_request_target', 'acme/checkout@v7', head))).toEqual(['HIGH']);
    const comment = yaml`
      on: issue_comment
      permissions: { contents: write }
      jobs:
        test:
          if: github.event.issue.pull_request
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v7
              with:
                ref: refs/pull/\${{ github.event.issue.number }}/head
            - run: npm ci && npm test
    `;
    expect(high(comment)).toEqual(['HIGH']);
  });

  it('is no check when the checkout step is conditional or goes on after an error', () => {
    const severities = (extra: string) => {
      const text = workflow('pull_request_target', 'actions/checkout@v7', head).replace(/^(\s*)- uses: actions\/checkout@v7$/m, (line, indent: string) => `${line}\n${indent}  ${extra}`);
      expect(text).toContain(extra);
      return scanWith('untrusted-checkout', text).map((f) => f.severity);
    };
    expect(severities("if: github.event.action != 'closed'")).toEqual(['HIGH']);
    expect(severities('continue-on-error: true')).toEqual(['HIGH']);
    expect(severities('name: Checkout')).toEqual([]);
  });
});
