import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'self-hosted-runner';

describe(RULE, () => {
  it('reports the scalar, list and group forms at the label, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: self-hosted
          steps: [{ run: make }]
        b:
          runs-on: [linux, Self-Hosted, gpu]
          steps: [{ run: make }]
        c:
          runs-on:
            group: build-farm
            labels: [self-hosted, x64]
          steps: [{ run: make }]
        d:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['4:14 LOW', '7:22 LOW', '12:16 LOW']);
    expect(records.map((r) => r.job)).toEqual(['a', 'b', 'c']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
  });

  it("reads an organisation's copy of actions/checkout as the pull request's checkout on a self-hosted machine", () => {
    const source = (uses: string) => yaml`
      on: pull_request
      jobs:
        test:
          runs-on: [self-hosted, gpu]
          steps:
            - uses: ${uses}
            - run: pip install -r requirements.txt
    `;
    expect(positions(scanWith(RULE, source('my-org/checkout@v4')))).toEqual(['4:15 HIGH']);
    expect(positions(scanWith(RULE, source('my-org/checkout-cache@v4')))).toEqual(['4:15 LOW']);
  });

  it('cites the next run of the pull request\'s code, not the activate script of a virtual environment the job created', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request
      jobs:
        test:
          runs-on: [self-hosted, gpu]
          steps:
            - uses: actions/checkout@v3
            - run: uv venv
            - name: install
              run: |
                source .venv/bin/activate
                uv pip install .
    `);
    expect(positions(findings)).toEqual(['4:15 HIGH']);
    expect(findings[0]?.description).toContain('runs `uv pip` from the workspace');
    expect(findings[0]?.description).not.toContain('activate');
    // No step creates it: an activate script the checkout holds is the pull request's code.
    const committed = scanWith(RULE, yaml`
      on: pull_request
      jobs:
        test:
          runs-on: [self-hosted, gpu]
          steps:
            - uses: actions/checkout@v3
            - run: python -m venv env
            - run: source .venv/bin/activate
    `);
    expect(positions(committed)).toEqual(['4:15 HIGH']);
    expect(committed[0]?.description).toContain('runs `source .venv/bin/activate` from the workspace');
  });

  it('is HIGH when a fork\'s pull request code is checked out and run on the machine', () => {
    const findings = scanWith(RULE, yaml`
      on:
        pull_request:
          paths: [src/**]
      jobs:
        test:
          runs-on: [self-hosted, gpu]
          steps:
            - uses: actions/checkout@v3
            - run: make test
    `);
    expect(positions(findings)).toEqual(['6:15 HIGH']);
    expect(findings[0]?.description).toContain("step 2 of job `test` (line 9) runs `make test` from the workspace, which holds the pull request's code (actions/checkout, line 8)");
    expect(findings[0]?.description).toContain("through a fork's `pull_request`");
    // The event's own ref, named: still the pull request's code.
    expect(positions(scanWith(RULE, yaml`
      on: pull_request
      jobs:
        test:
          runs-on: self-hosted
          steps:
            - uses: actions/checkout@v3
              with: { ref: '\${{ github.event.pull_request.head.sha }}' }
            - run: pip install -e .
    `))).toEqual(['4:14 HIGH']);
    // A privileged trigger that checks out the head and runs it.
    expect(positions(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: self-hosted
          steps:
            - uses: actions/checkout@v3
              with: { ref: '\${{ github.event.pull_request.head.sha }}' }
            - run: make test
    `))).toEqual(['4:14 HIGH']);
  });

  it('is LOW when nothing of the pull request runs on the machine, and says why', () => {
    const nothing = scanWith(RULE, yaml`
      on: pull_request
      jobs:
        test:
          runs-on: self-hosted
          steps: [{ run: make test }]
    `);
    expect(positions(nothing)).toEqual(['4:14 LOW']);
    expect(nothing[0]?.description).toContain('pull requests start it, and it checks out no pull request code');
    // A fixed trusted ref, another repository, or only registry tools and uploads.
    const fixed = scanWith(RULE, yaml`
      on: pull_request
      jobs:
        fixed:
          runs-on: self-hosted
          steps:
            - uses: actions/checkout@v3
              with: { ref: main }
            - run: make test
        base:
          runs-on: self-hosted
          steps:
            - uses: actions/checkout@v3
              with: { ref: '\${{ github.event.pull_request.base.sha }}' }
            - run: make test
        other:
          runs-on: self-hosted
          steps:
            - uses: actions/checkout@v3
              with: { repository: org/tools }
            - run: make test
        scanner:
          runs-on: self-hosted
          steps:
            - uses: actions/checkout@v3
            - run: npx --yes @scanner/cli@1.2.3 .
            - uses: actions/upload-artifact@v4
              with: { path: out }
    `);
    expect(positions(fixed)).toEqual(['4:14 LOW', '10:14 LOW', '16:14 LOW', '22:14 LOW']);
    expect(fixed[0]?.description).toContain('its checkouts name a fixed ref or another repository');
    expect(fixed[3]?.description).toContain('checks out pull request code (actions/checkout, line 24) but no later step runs code from that checkout');
    // pull_request_target without a checkout of the head: nothing of the fork's runs.
    expect(positions(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        label:
          runs-on: self-hosted
          steps:
            - uses: actions/checkout@v3
            - run: make label
    `))).toEqual(['4:14 LOW']);
  });

  it('says a checkout only same-repository pull requests reach runs, never that no step runs it', () => {
    const workflow = (later: string) => yaml`
      on: pull_request_target
      jobs:
        build:
          runs-on: [self-hosted, linux]
          steps:
            - uses: actions/checkout@v3
              if: github.event.pull_request.head.repo.full_name == github.repository
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - run: ${later}
    `;
    const ran = scanWith(RULE, workflow('make'));
    expect(positions(ran)).toEqual(['4:15 LOW']);
    expect(ran[0]?.description).toContain('checks out pull request code (`ref: ${{ github.event.pull_request.head.sha }}`, line 6) and runs it, but only trusted authors');
    expect(ran[0]?.description).not.toContain('no later step runs code');
    // Negative: nothing runs it.
    expect(scanWith(RULE, workflow('echo done'))[0]?.description).toContain('no later step runs code from that checkout');
  });

  it('takes a workflow_run checkout without ref: for the default branch, not the pull request, and says so', () => {
    const files = (ref: string) => [
      { path: '.github/workflows/ci.yml', text: 'name: CI\non: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps: [{ run: make }]\n' },
      {
        path: '.github/workflows/bench.yml',
        text: yaml`
          on:
            workflow_run:
              workflows: [CI]
              types: [completed]
          jobs:
            bench:
              runs-on: [self-hosted, linux]
              steps:
                - uses: actions/checkout@v3${ref}
                - run: make bench
        `,
      },
    ];
    const base = scanWith(RULE, files(''));
    expect(positions(base)).toEqual(['7:15 LOW']);
    expect(base[0]?.description).toContain("its checkout (actions/checkout without a pull request ref, line 9) brings the base repository's own code on `workflow_run`, not the pull request's");
    expect(base[0]?.description).not.toContain('checks out pull request code');
    // With the triggering run's head, the fork's code runs on the machine.
    const head = scanWith(RULE, files("\n                  with: { ref: '${{ github.event.workflow_run.head_sha }}' }"));
    expect(positions(head)).toEqual(['7:15 HIGH']);
  });

  it('follows matrix values that runs-on reads, including include entries', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        axis:
          strategy:
            matrix:
              os: [ubuntu-latest, [self-hosted, arm64]]
          runs-on: \${{ matrix.os }}
          steps: [{ run: make }]
        include:
          strategy:
            matrix:
              include:
                - runner: windows-latest
                - runner: self-hosted
          runs-on: \${{ matrix.runner }}
          steps: [{ run: make }]
        hosted:
          strategy:
            matrix:
              os: [ubuntu-latest, macos-latest]
              note: [self-hosted]
          runs-on: \${{ matrix.os }}
          steps: [{ run: make }]
    `);
    expect(positions(findings)).toEqual(['7:14 LOW', '15:14 LOW']);
    expect(findings[0]?.description).toContain('matrix.os');
  });

  it('reads the values an expression can produce, not the operands of its comparisons', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        chosen:
          runs-on: \${{ github.repository == 'org/repo' && 'self-hosted' || 'ubuntu-latest' }}
          steps: [{ run: make }]
        listed:
          runs-on: \${{ fromJSON('["self-hosted", "linux"]') }}
          steps: [{ run: make }]
        compared:
          runs-on: \${{ inputs.runner-type == 'self-hosted' && 'ubuntu-x64-small' || 'ubuntu-latest' }}
          steps: [{ run: make }]
    `))).toEqual(['4:14 LOW', '7:14 LOW']);
  });

  it('takes no branch of runs-on that the repository\'s own name rules out, when the scan knows the name', () => {
    const workflow = yaml`
      on: pull_request
      jobs:
        test:
          runs-on: \${{ endsWith(github.repository, '-enterprise') && fromJSON('["self-hosted", "linux"]') || 'ubuntu-latest' }}
          steps:
            - uses: actions/checkout@v3
            - run: make test
        mirror:
          runs-on: \${{ github.repository != 'Acme/Nomad' && 'self-hosted' || 'ubuntu-latest' }}
          steps:
            - uses: actions/checkout@v3
            - run: make test
    `;
    // The public repository: its pull requests never reach the self-hosted branch (names compare without case).
    expect(scanWith(RULE, workflow, { repository: 'acme/nomad' })).toEqual([]);
    // Negative: the private mirror takes it, and so does a scan that does not know the name.
    expect(scanWith(RULE, workflow, { repository: 'acme/nomad-enterprise' }).map((f) => f.severity)).toEqual(['HIGH', 'HIGH']);
    expect(scanWith(RULE, workflow).map((f) => f.severity)).toEqual(['HIGH', 'HIGH']);
  });

  it('does not treat inputs, numbers, nested lists or calls as self-hosted', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request
      jobs:
        input:
          runs-on: \${{ inputs.runner }}
          steps: [{ run: make }]
        number:
          runs-on: 42
          steps: [{ run: make }]
        nested:
          runs-on: [[self-hosted]]
          steps: [{ run: make }]
        call:
          uses: org/repo/.github/workflows/ci.yml@v1
    `)).toEqual([]);
  });

  it('reports runner groups and lists of custom labels without the self-hosted label one step lower, a single label LOW, and only where pull requests reach them', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request
      jobs:
        group:
          runs-on:
            group: gpu-runners
          steps: [{ uses: actions/checkout@v3 }, { run: make }]
        custom:
          runs-on: [linux, x64, gpu]
          steps: [{ uses: actions/checkout@v3 }, { run: make }]
        matrix:
          strategy:
            matrix:
              os: [ubuntu-latest, linux-x86-n4-16]
          runs-on: \${{ matrix.os }}
          steps: [{ uses: actions/checkout@v3 }, { run: make }]
        nothing:
          runs-on: { group: gpu-runners }
          steps: [{ run: make }]
    `);
    // The matrix gives one label per leg: a larger runner's name as much as a self-hosted runner's (LOW).
    expect(positions(findings)).toEqual(['5:14 MEDIUM', '8:15 MEDIUM', '14:14 LOW', '17:23 LOW']);
    expect(findings[2]?.description).toContain('may name a GitHub-hosted larger runner');
    expect(findings[3]?.description).toContain('pull requests start it, and it checks out no pull request code');
    expect(findings[0]?.description).toContain('runner group `gpu-runners`');
    expect(findings[1]?.description).toContain('label `linux`, which no GitHub-hosted runner has');
    expect(findings[1]?.description).toContain('If it is a GitHub-hosted larger runner, nothing persists');
  });

  it('does not report GitHub-hosted or managed ephemeral runner labels, nor custom labels off pull requests', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request
      jobs:
        a: { runs-on: ubuntu-24.04-arm, steps: [{ run: make }] }
        b: { runs-on: macOS-latest, steps: [{ run: make }] }
        c: { runs-on: windows-2022, steps: [{ run: make }] }
        d: { runs-on: macos-15-xlarge, steps: [{ run: make }] }
        e: { runs-on: blacksmith-4vcpu-ubuntu-2404, steps: [{ run: make }] }
        f: { runs-on: "runs-on=\${{ github.run_id }}/cpu=4", steps: [{ run: make }] }
        g: { runs-on: ubuntu-slim, steps: [{ run: make }] }
        h: { runs-on: ubuntu-latest-8-cores, steps: [{ run: make }] }
        i: { runs-on: gemini-cli-ubuntu-16-core, steps: [{ run: make }] }
        j: { runs-on: github-ubuntu-24.04-x86_64-8, steps: [{ run: make }] }
        k: { runs-on: { group: Default Larger Runners }, steps: [{ run: make }] }
        l: { runs-on: ubuntu-arm64-large, steps: [{ run: make }] }
        m: { runs-on: ubuntu-22.04-16core, steps: [{ run: make }] }
        n: { runs-on: windows-latest-8-cores, steps: [{ run: make }] }
        o: { runs-on: ubuntu-latest-4-cores, steps: [{ run: make }] }
        p: { runs-on: windows-11-arm, steps: [{ run: make }] }
        q: { runs-on: ubuntu-22.04-arm, steps: [{ run: make }] }
        r: { runs-on: x64-ubuntu24-64-core, steps: [{ run: make }] }
        s: { runs-on: ubuntu2404-16-core, steps: [{ run: make }] }
    `)).toEqual([]);
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        gpu:
          runs-on: [linux, gpu]
          steps: [{ run: make }]
        group:
          runs-on: { group: big-runners }
          steps: [{ run: make }]
    `)).toEqual([]);
  });

  it('keeps a single custom label that names no image and size GitHub documents for larger runners, LOW: it may still be one', () => {
    const job = (label: string) => yaml`
      on: pull_request
      jobs:
        test:
          runs-on: ${label}
          steps:
            - uses: actions/checkout@v3
            - run: make test
    `;
    // An OS word glued to other letters, a size GitHub's examples do not use, no OS at all: not read as a larger runner.
    for (const label of ['ubuntu-latest-xl', 'ubuntu-x64-small', 'linux-arm64-8core', 'kubuntu-8-cores', 'gpu-16-cores']) {
      const [finding] = scanWith(RULE, job(label));
      expect(finding?.severity, label).toBe('LOW');
      expect(finding?.description, label).toContain('it may name a GitHub-hosted larger runner');
    }
  });

  describe('a single label that may name a GitHub-hosted larger runner', () => {
    const job = (runsOn: string) => yaml`
      on: pull_request
      jobs:
        test:
          runs-on: ${runsOn}
          steps:
            - uses: actions/checkout@v3
            - run: make test
    `;

    it('is LOW, says the label may be a larger runner or a self-hosted one, and where to check', () => {
      for (const label of ['windows', 'linux', 'gpu', '[windows]', '{ labels: linux }']) {
        const findings = scanWith(RULE, job(label));
        expect(positions(findings).map((p) => p.split(' ')[1]), label).toEqual(['LOW']);
        const text = findings[0]?.description ?? '';
        expect(text, label).toContain('it may name a GitHub-hosted larger runner (a fresh machine for each job, which keeps nothing) or a self-hosted runner');
        expect(text, label).toContain('Settings > Actions > Runners');
        // What it would be on a self-hosted machine, and the outsider's code that runs there.
        expect(text, label).toContain('(HIGH for a self-hosted runner)');
        expect(text, label).toContain('runs `make test` from the workspace');
      }
    });

    it('keeps today\'s severity for the `self-hosted` label, a list of labels (a larger runner carries one) or a runner group', () => {
      expect(positions(scanWith(RULE, job('self-hosted')))).toEqual(['4:14 HIGH']);
      expect(positions(scanWith(RULE, job('[self-hosted, linux, x64]')))).toEqual(['4:15 HIGH']);
      expect(positions(scanWith(RULE, job('[linux, x64]')))).toEqual(['4:15 MEDIUM']);
      expect(positions(scanWith(RULE, job('{ group: gpu-farm }')))).toEqual(['4:23 MEDIUM']);
    });

    it('is not reported off pull requests and outsiders, as before', () => {
      expect(scanWith(RULE, job('windows').replace('on: pull_request', 'on: push'))).toEqual([]);
    });
  });

  it('does not report a runner whose labels name the VM image of a fresh machine per job, and keeps plain self-hosted labels', () => {
    // A fork's pull request code runs on the machine: HIGH on a persistent runner, nothing on a VM made for the job.
    const steps = '[{ uses: actions/checkout@v3 }, { run: make test }]';
    expect(scanWith(RULE, yaml`
      on: pull_request
      jobs:
        mac:
          runs-on: [self-hosted, macOS, ARM64, ghcr.io/example-org/macos-sequoia-xcode:16.2]
          steps: ${steps}
        digest:
          runs-on: [self-hosted, linux, registry.example.com:5000/vm/ubuntu@sha256:${'a'.repeat(64)}]
          steps: ${steps}
        matrix:
          strategy:
            matrix:
              image: [ghcr.io/example-org/macos-sonoma:15, ghcr.io/example-org/macos-sequoia:16]
          runs-on: [self-hosted, '\${{ matrix.image }}']
          steps: ${steps}
    `)).toEqual([]);
    // Near misses: plain labels, a path without a registry host, a host without a tag.
    const findings = scanWith(RULE, yaml`
      on: pull_request
      jobs:
        linux:
          runs-on: [self-hosted, linux]
          steps: ${steps}
        no-host:
          runs-on: [self-hosted, example-org/macos:15]
          steps: ${steps}
        no-tag:
          runs-on: [self-hosted, ghcr.io/example-org/macos]
          steps: ${steps}
        mixed-matrix:
          strategy:
            matrix:
              image: [ghcr.io/example-org/macos-sonoma:15, linux]
          runs-on: [self-hosted, '\${{ matrix.image }}']
          steps: ${steps}
    `);
    expect(findings.map((f) => f.severity)).toEqual(['HIGH', 'HIGH', 'HIGH', 'HIGH']);
  });

  it('does not cite a build of a repository the job clones as running the pull request\'s code', () => {
    const clone = [
      '      - name: Install upstream',
      '        run: |',
      '          git clone https://github.com/example-org/upstream-lib',
      '          cd upstream-lib',
      '          python -m pip install .',
    ];
    const workflow = (...more: string[]) =>
      ['on: pull_request', 'jobs:', '  t:', '    runs-on: [self-hosted, gpu]', '    steps:', '      - uses: actions/checkout@v3', ...clone, ...more, ''].join('\n');
    // The project's own build runs the pull request's code: that step is cited, and the clone named as an input.
    const [cited] = scanWith(RULE, workflow('      - name: Install project', '        run: pip install .[dev]'));
    expect(cited?.severity).toBe('HIGH');
    expect(cited?.description).toContain('step `Install project` of job `t` (line 12) runs `pip install` from the workspace');
    expect(cited?.description).not.toContain('and 1 more');
    expect(cited?.description).toContain("The job also builds code it clones from someone else's repository at a branch or tag");
    expect(cited?.description).toContain('runs `python -m pip` in `upstream-lib`, cloned by `git clone https://github.com/example-org/upstream-lib` (line 7)');
    // Only the clone is built: nothing of the pull request runs on the machine.
    const [clonedOnly] = scanWith(RULE, workflow());
    expect(clonedOnly?.severity).toBe('LOW');
    expect(clonedOnly?.description).toContain('no later step runs code from that checkout');
  });

  it('does not report a self-hosted matrix entry that exclude removes from every leg', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request
      jobs:
        test:
          strategy:
            matrix:
              os: [ubuntu-latest, self-hosted]
              python: ['3.11', '3.12']
              exclude:
                - os: self-hosted
          runs-on: \${{ matrix.os }}
          steps: [{ run: make }]
    `)).toEqual([]);
    // Excluding some legs only: the self-hosted runner still runs the others.
    expect(positions(scanWith(RULE, yaml`
      on: pull_request
      jobs:
        test:
          strategy:
            matrix:
              os: [ubuntu-latest, self-hosted]
              python: ['3.11', '3.12']
              exclude:
                - os: self-hosted
                  python: '3.11'
          runs-on: \${{ matrix.os }}
          steps: [{ uses: actions/checkout@v3 }, { run: make }]
    `))).toEqual(['11:14 HIGH']);
  });

  it('is HIGH for a reusable workflow on a self-hosted runner reached from a local pull_request caller', () => {
    const reusable = yaml`
      on: workflow_call
      jobs:
        build:
          runs-on: [self-hosted, linux]
          steps: [{ uses: actions/checkout@v3 }, { run: make }]
    `;
    for (const prefix of ['./', '$/']) {
      const caller = `on: pull_request\njobs:\n  call:\n    uses: ${prefix}.github/workflows/build.yml\n`;
      const findings = scanWith(RULE, [
        { path: '.github/workflows/pr.yml', text: caller },
        { path: '.github/workflows/build.yml', text: reusable },
      ]);
      expect(positions(findings), prefix).toEqual(['4:15 HIGH']);
      expect(findings[0]?.description).toContain("through a fork's `pull_request`");
    }
    // Called only from push workflows: LOW.
    const push = 'on: push\njobs:\n  call:\n    uses: ./.github/workflows/build.yml\n';
    expect(positions(scanWith(RULE, [
      { path: '.github/workflows/push.yml', text: push },
      { path: '.github/workflows/build.yml', text: reusable },
    ]))).toEqual(['4:15 LOW']);
  });

  describe('gates between a pull request and the runner', () => {
    const job = (on: string, condition: string) => `${on}\njobs:\n  bench:\n    if: ${condition}\n    runs-on: self-hosted\n    steps: [{ uses: actions/checkout@v3 }, { run: make bench }]\n`;
    const labeled = 'on:\n  push:\n    branches: [main]\n  pull_request:\n    types: [labeled]';

    it('is LOW, naming the race, when the label the event adds on a labeled-only run approves the commit that runs; MEDIUM on a moving ref', () => {
      const findings = scanWith(RULE, job(labeled, "${{ github.ref == 'refs/heads/main' || github.event.label.name == 'needs-bench' }}"));
      expect(positions(findings)).toEqual(['9:14 LOW']);
      expect(findings[0]?.description).toContain("only after a maintainer's approval of the commit that runs");
      expect(findings[0]?.description).toContain('the race of any approval');
      const pinned = job(labeled, "github.event.label.name == 'needs-bench'").replace('{ uses: actions/checkout@v3 }', '{ uses: actions/checkout@v3, with: { ref: "${{ github.event.pull_request.head.sha }}" } }');
      expect(positions(scanWith(RULE, pinned))).toEqual(['9:14 LOW']);
      // A ref resolved when the job runs (the merge ref moves with each push): commits pushed after the label run.
      const moving = scanWith(RULE, job(labeled, "github.event.label.name == 'needs-bench'").replace('{ uses: actions/checkout@v3 }', '{ uses: actions/checkout@v3, with: { ref: "${{ github.ref }}" } }'));
      expect(positions(moving)).toEqual(['9:14 MEDIUM']);
      expect(moving[0]?.description).toContain('commits pushed after their review and before the approval');
      // The approval is still a gate when nothing of the pull request runs: LOW.
      expect(positions(scanWith(RULE, job(labeled, "github.event.label.name == 'needs-bench'").replace('{ uses: actions/checkout@v3 }, ', '')))).toEqual(['9:14 LOW']);
      // The same with a labels.* check, which is a gate only because the workflow runs on `labeled` alone.
      expect(positions(scanWith(RULE, job(labeled, "contains(github.event.pull_request.labels.*.name, 'bench')")))).toEqual(['9:14 MEDIUM']);
    });

    it('stays HIGH when the label stays through new pushes, or the condition holds on pull_request_target', () => {
      // No `types`: a new push re-runs the job with the label still on it.
      expect(positions(scanWith(RULE, job('on: pull_request', "contains(github.event.pull_request.labels.*.name, 'bench')")))).toEqual(['5:14 HIGH']);
      // On pull_request_target `github.ref` is the base branch: the ref check lets every pull request in.
      const head = (text: string) => text.replace('{ uses: actions/checkout@v3 }', "{ uses: actions/checkout@v3, with: { ref: '${{ github.event.pull_request.head.sha }}' } }");
      expect(positions(scanWith(RULE, head(job('on: pull_request_target', "github.ref == 'refs/heads/main' || github.event.label.name == 'bench'"))))).toEqual(['5:14 HIGH']);
      // A ref check alongside an unguarded pull_request way in: still HIGH.
      expect(positions(scanWith(RULE, job('on: [push, pull_request]', "github.ref == 'refs/heads/main' || github.event_name == 'pull_request'")))).toEqual(['5:14 HIGH']);
    });

    it('is LOW when only trusted authors\' pull requests, or no pull request at all, reach the job', () => {
      for (const condition of [
        'github.event.pull_request.head.repo.full_name == github.repository',
        "github.event_name == 'push'",
        "github.ref == 'refs/heads/main'",
        "startsWith(github.ref, 'refs/tags/')",
      ]) {
        const findings = scanWith(RULE, job('on: [push, pull_request]', condition));
        expect(positions(findings), condition).toEqual(['5:14 LOW']);
      }
    });

    it('uses the gate of the local caller of a reusable workflow', () => {
      const reusable = 'on: workflow_call\njobs:\n  build:\n    runs-on: [self-hosted, linux]\n    steps: [{ uses: actions/checkout@v3 }, { run: make }]\n';
      const caller = (condition: string) => `on: pull_request\njobs:\n  call:\n    if: ${condition}\n    uses: ./.github/workflows/build.yml\n`;
      const scan = (condition: string) => positions(scanWith(RULE, [
        { path: '.github/workflows/pr.yml', text: caller(condition) },
        { path: '.github/workflows/build.yml', text: reusable },
      ]));
      expect(scan('github.event.pull_request.head.repo.fork == false')).toEqual(['4:15 LOW']);
      expect(scan("github.event.pull_request.user.login != 'dependabot[bot]'")).toEqual(['4:15 HIGH']);
    });

    it('is LOW for a runner group reached only after a member\'s comment, MEDIUM without the check', () => {
      const on = 'on:\n  issue_comment:\n    types: [created]';
      const group = (condition: string) => `${on}\njobs:\n  relay:\n    if: ${condition}\n    runs-on:\n      group: build-farm\n    steps:\n      - run: gh pr checkout \${{ github.event.issue.number }}\n      - run: make\n`;
      const gated = scanWith(RULE, group("github.event.comment.author_association == 'MEMBER'"));
      expect(positions(gated)).toEqual(['8:14 LOW']);
      expect(gated[0]?.description).toContain("only after a maintainer's approval");
      expect(positions(scanWith(RULE, group("contains(github.event.comment.body, '/run')")))).toEqual(['8:14 MEDIUM']);
    });
  });
  describe('a runner group or label named after another cloud\'s machine', () => {
    const job = (runsOn: string, on = 'pull_request') => yaml`
      on: ${on}
      jobs:
        test:
          runs-on: ${runsOn}
          steps:
            - uses: actions/checkout@v3
            - run: make test
    `;

    it('is a self-hosted machine: full severity, says why, and holds the machine', () => {
      const [group] = scanWith(RULE, job('{ group: aws-g4dn-2xlarge }'));
      expect(group?.severity).toBe('HIGH');
      expect(group?.description).toContain('runs on a self-hosted runner (runner group `aws-g4dn-2xlarge`, which names an AWS EC2 instance type (`g4dn.2xlarge`): GitHub-hosted runners, larger ones included, run only on');
      expect(group?.description).not.toContain('one step lower');
      // A single label (no longer possibly a larger runner's name), a label in a list, a GCE machine type, a matrix leg.
      expect(positions(scanWith(RULE, job('aws-general-8-plus')))).toEqual(['4:14 HIGH']);
      expect(positions(scanWith(RULE, job('[linux, gpu, ec2]')))).toEqual(['4:27 HIGH']);
      // A cloud's managed Kubernetes service: an actions-runner-controller scale set in the owner's cluster; a plain
      // custom label of the same shape may be a larger runner's name (LOW).
      expect(positions(scanWith(RULE, job('aks-linux-4-cores-16gb')))).toEqual(['4:14 HIGH']);
      expect(positions(scanWith(RULE, job('ci-linux-4-cores-16gb')))).toEqual(['4:14 LOW']);
      expect(scanWith(RULE, job('n2-standard-8'))[0]?.description).toContain('label `n2-standard-8`, which names a Google Compute Engine machine type (`n2-standard-8`)');
      expect(positions(scanWith(RULE, yaml`
        on: pull_request
        jobs:
          test:
            strategy:
              matrix:
                include: [{ runner: gpu-farm }, { runner: aws-g6-12xlarge-plus }]
            runs-on: { group: '\${{ matrix.runner }}' }
            steps: [{ uses: actions/checkout@v3 }, { run: make test }]
      `))).toEqual(['7:23 HIGH']);
      const records = recordsWith(RULE, job('{ group: aws-g5-12xlarge-cache }'));
      expect(records[0]?.facts).toContain('holds:self-hosted');
      expect(records[0]?.facts).not.toContain('runner:possible');
      // Off pull requests it is reported like the `self-hosted` label (LOW), not left out like a group that may be hosted.
      expect(positions(scanWith(RULE, job('{ group: aws-g4dn-2xlarge }', 'push')))).toEqual(['4:23 LOW']);
    });

    it('keeps the one-step-lower or LOW reading for names that name no other cloud\'s machine', () => {
      expect(positions(scanWith(RULE, job('{ group: message-large }')))).toEqual(['4:23 MEDIUM']);
      expect(positions(scanWith(RULE, job('{ group: azure-gpu-8 }')))).toEqual(['4:23 MEDIUM']);
      expect(positions(scanWith(RULE, job('[linux, k8s-large]')))).toEqual(['4:15 MEDIUM']);
      for (const label of ['awsome-runner', 'gpu-t4-large', 'spec2-xlarge', 'linux-x86-n2-16']) {
        expect(positions(scanWith(RULE, job(label))).map((p) => p.split(' ')[1]), label).toEqual(['LOW']);
        expect(scanWith(RULE, job(label))[0]?.description, label).toContain('may name a GitHub-hosted larger runner');
      }
      expect(scanWith(RULE, job('{ group: gcp-ish }', 'push'))).toHaveLength(1);
      expect(scanWith(RULE, job('{ group: gcpish-runners }', 'push'))).toEqual([]);
      // GitHub-hosted labels and managed services stay out, whatever size words they carry.
      expect(scanWith(RULE, job('macos-15-xlarge'))).toEqual([]);
    });
  });

  it('marks labels or groups that suggest ephemeral runners (Actions Runner Controller scale sets) with `runner:ephemeral-hint`, and no others', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        arc:
          runs-on: [self-hosted, arc-runner-set]
          steps: [{ run: make }]
        pods:
          runs-on:
            group: ephemeral-pods
            labels: [self-hosted, linux]
          steps: [{ run: make }]
        kept:
          runs-on: [self-hosted, linux, search]
          steps: [{ run: make }]
        cluster:
          runs-on: aks-linux-medium
          steps: [{ run: make }]
        tasks:
          runs-on: [self-hosted, tasks-linux]
          steps: [{ run: make }]
    `);
    const hinted = Object.fromEntries(records.map((r) => [r.job, (r.facts ?? []).includes('runner:ephemeral-hint')]));
    expect(hinted).toEqual({ arc: true, pods: true, kept: false, cluster: true, tasks: false });
  });
});

describe("self-hosted-runner: a RunsOn runner, a fresh machine in the owner's AWS account for each job", () => {
  const workflow = (on: string, runsOn: string, steps = '- run: make test') => yaml`
    on: ${on}
    permissions: {}
    jobs:
      test:
        runs-on: ${runsOn}
        steps:
          - uses: actions/checkout@v3
          ${steps}
  `;
  const label = '"runs-on=${{ github.run_id }}/runner=4cpu-linux-x64"';
  const list = '[ "runs-on=${{ github.run_id }}", runner=linux-amd64-cpu, tag=main ]';

  it("claims the account's role and network, not persistence, where a fork's code runs there", () => {
    for (const runsOn of [label, list]) {
      const [finding, more] = scanWith('self-hosted-runner', workflow('pull_request', runsOn));
      expect(more, runsOn).toBeUndefined();
      expect(finding?.severity, runsOn).toBe('MEDIUM');
      expect(finding?.description).toContain("inside the owner's AWS account: with the machine's IAM role");
      expect(finding?.description).toContain('Nothing stays behind for the next job');
      expect(finding?.description).not.toContain('can persist');
    }
    // No definite self-hosted machine for the attack paths: no `holds:self-hosted` fact.
    expect(recordsWith('self-hosted-runner', workflow('pull_request', label))[0]?.facts).toContain('runner:per-job-cloud');
    expect(recordsWith('self-hosted-runner', workflow('pull_request', label))[0]?.facts).not.toContain('holds:self-hosted');
  });

  it('reports nothing where no outsider code runs there, as for other managed runners', () => {
    expect(scanWith('self-hosted-runner', workflow('push', label))).toEqual([]);
    expect(scanWith('self-hosted-runner', workflow('pull_request', list, '- run: echo hello'))).toEqual([]);
  });

  it("missing-timeout says the hung run's machine is billed to the owner's account", () => {
    const [timeout] = scanWith('missing-timeout', workflow('push', list));
    expect(timeout?.severity).toBe('LOW');
    expect(timeout?.description).toContain("billed to the account");
  });
});

describe(`${RULE}: a reusable workflow the repository calls by its own name`, () => {
  const files = (calls: string) => [
    { path: '.github/workflows/pull_request.yml', text: `on:\n  pull_request:\njobs:\n  macos:\n    uses: ${calls}\n` },
    {
      path: '.github/workflows/macos_tests.yml',
      text: 'on:\n  workflow_call:\njobs:\n  darwin:\n    if: github.repository_owner == \'acme\'\n    runs-on: [self-hosted, macos]\n    steps:\n      - uses: actions/checkout@v3\n        with:\n          persist-credentials: false\n      - run: swift test\n',
    },
  ];

  it("reads `owner/name/.github/workflows/x.yml@main` as the local workflow when the scan knows the repository is owner/name", () => {
    const found = scanWith(RULE, files('acme/widget/.github/workflows/macos_tests.yml@main'), { repository: 'acme/widget' });
    expect(found.map((f) => `${f.file}:${f.line} ${f.severity}`)).toEqual(['.github/workflows/macos_tests.yml:6 HIGH']);
    expect(found[0]?.description).toContain("through a fork's `pull_request`");
    // The same call through `./` reads the same.
    expect(scanWith(RULE, files('./.github/workflows/macos_tests.yml'), { repository: 'acme/widget' }).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('negative: another repository of that name, or a scan that does not know the name, is not this one', () => {
    expect(scanWith(RULE, files('acme/other/.github/workflows/macos_tests.yml@main'), { repository: 'acme/widget' }).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith(RULE, files('acme/widget/.github/workflows/macos_tests.yml@main')).map((f) => f.severity)).toEqual(['LOW']);
  });
});
