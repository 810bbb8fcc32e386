import { describe, expect, it } from 'vitest';
import { lineComment, saysApproval } from '../../../../lib/engine/analysis/environment-comment.js';
import { positions, scanWith, yaml } from '../../../support/engine.js';

describe('an environment whose manual approval only the workflow\'s own comment shows', () => {
  const workflow = (environment: string, extra = '') => yaml`
    on: pull_request_target
    jobs:
      integration:${extra}
        runs-on: ubuntu-latest
${environment}
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.sha }}
          - run: npm ci && npm test
            env:
              API_KEY: \${{ secrets.API_KEY }}
  `;

  it('takes a comment on, above or in the job as the approval (LOW on the approved commit), saying it is unverified', () => {
    for (const environment of [
      '        environment: external  # protected: a maintainer approves each run',
      '        # Requires a manual approval from a reviewer before secrets are exposed.\n        environment: external',
      '        environment:\n          name: external # required reviewers',
    ]) {
      const findings = scanWith('untrusted-checkout', workflow(environment));
      expect(positions(findings).map((p) => p.split(' ')[1]), environment).toEqual(['LOW']);
      expect(findings[0]?.description).toContain("whose manual approval rests on the workflow's own comment");
      expect(findings[0]?.description).toContain('unverified without a settings snapshot');
    }
    // A comment in the job's own heading counts too.
    const heading = scanWith('untrusted-checkout', workflow('        environment: external', '\n        # approval gate: the environment has required reviewers'));
    expect(heading.map((f) => f.severity)).toEqual(['LOW']);
  });

  it('stays an environment of unknown strength without such a comment, or with one that says the opposite', () => {
    const plain = scanWith('untrusted-checkout', workflow('        environment: external  # holds the API key'));
    expect(plain.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(plain[0]?.description).toContain('could not be checked without a settings snapshot');
    expect(plain[0]?.description).not.toContain("the workflow's own comment");
    const negated = scanWith('untrusted-checkout', workflow('        environment: external  # no approval needed, only scopes the secrets'));
    expect(negated.map((f) => f.severity)).toEqual(['MEDIUM']);
    // The word in a string value, not a comment, says nothing.
    const quoted = scanWith('untrusted-checkout', workflow('        environment:\n          name: external\n          url: "https://example.test/#approval"'));
    expect(quoted.map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  /** The same workflow with comment lines at its head (`header`) or inside `on:` (`inOn`), and a second job. */
  const commented = (header: string, inOn = '', environment = 'external') => yaml`
    name: integration
${header}
    on:
${inOn}
      pull_request_target:
    jobs:
      integration:
        runs-on: ubuntu-latest
        environment: ${environment}
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.sha }}
          - run: npm ci && npm test
            env:
              API_KEY: \${{ secrets.API_KEY }}
      other:
        # Reviewers approve the deploy environment before it runs.
        runs-on: ubuntu-latest
        steps:
          - run: echo hi
  `;

  it("takes a comment block before the jobs that names environments or the job, in the header or inside `on:`", () => {
    for (const [header, inOn] of [
      ['    # We use environments to require approval to run integration tests on PRs, but not on pushes to\n    # `main` (already approved through required pull requests).', ''],
      ['', '      # Runs for fork pull requests too. Every job depends on the integration job, which requires\n      # manually approving the workflow run for external PRs.'],
    ] as const) {
      const findings = scanWith('untrusted-checkout', commented(header, inOn));
      expect(findings.map((f) => f.severity), header + inOn).toEqual(['LOW']);
      expect(findings[0]?.description).toContain("whose manual approval rests on the workflow's own comment");
    }
  });

  it("takes no header that names neither environments nor the job, that negates, or a comment inside another job", () => {
    for (const header of ['    # Maintainers approve pull requests before merging.', '    # Environments here need no approval: they only scope secrets.', '    # The build job requires approval from a reviewer.']) {
      expect(scanWith('untrusted-checkout', commented(header)).map((f) => f.severity), header).toEqual(['MEDIUM']);
    }
    // The other job's comment (inside it) says its environment is reviewed: not this job's.
    expect(scanWith('untrusted-checkout', commented('')).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('reads comments outside quoted strings only', () => {
    expect(lineComment('  environment: prod # approve first')).toBe('approve first');
    expect(lineComment('  url: "https://x.test/#approve"')).toBeNull();
    expect(lineComment('  run: echo a#b')).toBeNull();
    expect(saysApproval('needs a manual approval')).toBe(true);
    expect(saysApproval('manual gate')).toBe(true);
    expect(saysApproval('runs manually from the UI')).toBe(false);
    expect(saysApproval('does not require approval')).toBe(false);
  });
});
