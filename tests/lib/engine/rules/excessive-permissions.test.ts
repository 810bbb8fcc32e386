import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';
import { findCombinations } from '../../../../lib/engine/combinations/index.js';
import { scanRepository } from '../../../../lib/engine/scan.js';

const RULE = 'excessive-permissions';

describe(RULE, () => {
  it('reports each workflow-level write scope at its key, bound to no job (it applies to all)', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      permissions:
        contents: write
        issues: read
        pull-requests: write
      jobs:
        a:
          runs-on: ubuntu-latest
          steps: [{ run: a }]
        b:
          runs-on: ubuntu-latest
          steps: [{ run: b }]
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 MEDIUM', '5:3 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual([null, null]);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('`contents: write`');
  });

  it('is HIGH for contents, id-token, packages and actions write on a privileged trigger where outsider input meets them', () => {
    const workflow = (b: string) => yaml`
      on: pull_request_target
      permissions:
        contents: write
        id-token: write
        packages: write
        actions: write
        issues: write
      jobs:
        a: { runs-on: x, steps: [{ run: a }] }
        b: { runs-on: x, steps: [{ run: '${b}' }] }
    `;
    const findings = scanWith(RULE, workflow('echo "${{ github.event.pull_request.title }}"'));
    expect(positions(findings)).toEqual(['3:3 HIGH', '4:3 HIGH', '5:3 HIGH', '6:3 HIGH', '7:3 MEDIUM']);
    expect(findings[0]?.description).toContain('job `b` puts `github.event.pull_request.title` into a `run:` script');
    // No job checks out pull request code, downloads its artifacts or scripts outsider text (terraform's
    // equivalence-test-update, on `closed`): the grant is wider than needed, not armed.
    const unarmed = scanWith(RULE, workflow('echo "${{ github.event.pull_request.merged }}"'));
    expect(positions(unarmed)).toEqual(['3:3 MEDIUM', '4:3 MEDIUM', '5:3 MEDIUM', '6:3 MEDIUM', '7:3 MEDIUM']);
    expect(unarmed[0]?.description).toContain('Not HIGH: no job checks out pull request code');
  });

  it('reports write-all at workflow level (unbound) and at job level (bound to the job), HIGH on a privileged trigger', () => {
    const records = recordsWith(RULE, yaml`
      on: issue_comment
      permissions: write-all
      jobs:
        a:
          runs-on: x
          steps: [{ run: a }]
        b:
          runs-on: x
          permissions: write-all
          steps: [{ run: b }]
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['2:14 HIGH', '9:18 HIGH']);
    expect(records.map((r) => r.job)).toEqual([null, 'b']);
    expect(records[0]?.finding.description).toContain('HIGH: the workflow runs on `issue_comment`');
  });

  it('rates write-all MEDIUM on a workflow no outsider triggers, and says why', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        status:
          runs-on: x
          permissions: write-all
          steps: [{ run: b }]
    `);
    expect(positions(findings)).toEqual(['5:18 MEDIUM']);
    expect(findings[0]?.description).toContain('MEDIUM: no trigger of the workflow brings outside input');
  });

  it('does not report narrowly scoped job-level writes, read-all, or {}', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      permissions: {}
      jobs:
        label:
          runs-on: x
          permissions:
            contents: write
            pull-requests: write
          steps: [{ run: a }]
        other:
          runs-on: x
          permissions: read-all
          steps: [{ run: b }]
    `)).toEqual([]);
  });

  it('treats the block as the job\'s own when a single job inherits it, except for privileged critical writes', () => {
    expect(scanWith(RULE, yaml`
      on: push
      permissions:
        contents: write
      jobs:
        release:
          runs-on: x
          steps: [{ run: make release }]
        lint:
          runs-on: x
          permissions: {}
          steps: [{ run: make lint }]
    `)).toEqual([]);
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      permissions:
        contents: write
        issues: write
      jobs:
        fix:
          runs-on: x
          steps: [{ run: make fix }]
    `);
    expect(positions(findings)).toEqual(['3:3 MEDIUM']);
    expect(findings[0]?.description).toContain('job `fix`, which shows no use of it');
    expect(findings[0]?.description).toContain('Not HIGH: it is the only job');
  });

  it('leaves grants that call jobs pass on as the ceiling of reusable workflows', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request
      permissions:
        contents: read
        pull-requests: write
      jobs:
        build:
          uses: ./.github/workflows/build.yml
        size:
          uses: ./.github/workflows/size-limit.yml
    `)).toEqual([]);
    // One job running steps beside the calls: judged as that job's own grant.
    expect(scanWith(RULE, yaml`
      on: pull_request
      permissions:
        pull-requests: write
      jobs:
        build:
          uses: ./.github/workflows/build.yml
        check:
          runs-on: x
          steps: [{ run: make check }]
    `)).toEqual([]);
  });

  it('says nothing about a single-job workflow whose job uses its privileged grant', () => {
    expect(scanWith(RULE, yaml`
      on: issue_comment
      permissions:
        contents: write
        id-token: write
      jobs:
        fix:
          runs-on: x
          steps:
            - uses: aws-actions/configure-aws-credentials@v4
              with: { role-to-assume: arn:aws:iam::1:role/x }
            - run: make fix && git push
    `)).toEqual([]);
  });

  it('ignores workflow-level grants that every job overrides', () => {
    expect(scanWith(RULE, yaml`
      on: push
      permissions: write-all
      jobs:
        a: { runs-on: x, permissions: {}, steps: [{ run: a }] }
        b: { runs-on: x, permissions: { contents: read }, steps: [{ run: b }] }
    `)).toEqual([]);
  });

  it('leaves the narrow grants of a reusable workflow to its caller', () => {
    expect(scanWith(RULE, yaml`
      on: workflow_call
      permissions:
        contents: write
      jobs:
        a: { runs-on: x, steps: [{ run: a }] }
        b: { runs-on: x, steps: [{ run: b }] }
    `)).toEqual([]);
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, 'on: push\npermissions: [contents]\njobs:\n  a: { runs-on: x, permissions: 3, steps: [] }\n  b: { runs-on: x }\n')).toEqual([]);
    expect(scanWith(RULE, 'on: push\npermissions: ${{ inputs.p }}\njobs: {}\n')).toEqual([]);
  });
});

describe(`${RULE}: a job's own write grant next to a pull request checkout`, () => {
  const prt = (permissions: string, condition = '') => yaml`
    on: pull_request_target
    permissions: {}
    jobs:
      build:
        runs-on: ubuntu-latest
        ${condition}
        permissions:
          contents: read
          ${permissions}
        steps:
          - uses: actions/checkout@v4
            with:
              ref: \${{ github.event.pull_request.head.sha }}
              persist-credentials: false
          - run: npm ci && npm test
  `;

  it('reports job-level id-token or packages write in a pull_request_target job that checks out fork code (HIGH, bound to the job)', () => {
    for (const scope of ['id-token', 'packages']) {
      const records = recordsWith(RULE, prt(`${scope}: write`));
      expect(records.map((r) => `${r.finding.severity} ${r.job}`)).toEqual(['HIGH build']);
      expect(records[0]?.finding.description).toContain(`\`${scope}: write\``);
      expect(records[0]?.finding.description).toContain('pull_request_target');
    }
  });

  it('leaves the same grant alone without the checkout, under a same-repository gate, or for read scopes', () => {
    expect(scanWith(RULE, prt('id-token: write').replace(/ref: .*\n/, ''))).toEqual([]);
    expect(scanWith(RULE, prt('id-token: write', 'if: github.event.pull_request.head.repo.full_name == github.repository'))).toEqual([]);
    expect(scanWith(RULE, prt('pull-requests: write'))).toEqual([]);
  });

  it('forms a CRITICAL pwn-request with the untrusted checkout', () => {
    const records = scanRepository([{ path: '.github/workflows/pr.yml', text: prt('id-token: write') }]).records;
    const paths = findCombinations(records, () => true).filter((c) => c.id === 'pwn-request');
    expect(paths.map((c) => `${c.severity} ${c.components.map((k) => k.rule_id).join(',')}`)).toEqual(['CRITICAL untrusted-checkout,excessive-permissions']);
  });
});

describe(`${RULE}: a maintainer's approval in front of the checkout`, () => {
  it('does not report a job grant whose pull request checkout waits for a maintainer comment', () => {
    expect(scanWith(RULE, yaml`
      on:
        issue_comment:
          types: [created]
      permissions: {}
      jobs:
        fix:
          if: github.event.issue.pull_request != null && contains(fromJSON('["OWNER", "MEMBER"]'), github.event.comment.author_association)
          runs-on: ubuntu-latest
          permissions:
            contents: write
          steps:
            - run: gh pr checkout \${{ github.event.issue.number }}
            - run: npm ci && npm run fix
    `)).toEqual([]);
  });
});

describe('excessive-permissions: a workflow-level grant of the only job that checks out fork code', () => {
  const workflow = (gate: string) => yaml`
    on:
      pull_request_target:
        types: [labeled]
    permissions:
      contents: write
    jobs:
      test:
        ${gate}
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v4
            with:
              ref: refs/pull/\${{ github.event.pull_request.number }}/merge
          - run: npm ci && npm test && git push
  `;

  it('is HIGH (the pull request code runs with the grant), even when the job uses it', () => {
    const findings = scanWith('excessive-permissions', workflow('timeout-minutes: 10'));
    expect(findings.map((f) => f.severity)).toEqual(['HIGH']);
    expect(findings[0]?.description).toContain('checks out pull request code');
  });

  it('is not, when a maintainer approves the run first (the checkout reports the race)', () => {
    expect(scanWith('excessive-permissions', workflow("if: github.event.label.name == 'safe to test'"))).toEqual([]);
  });
});
