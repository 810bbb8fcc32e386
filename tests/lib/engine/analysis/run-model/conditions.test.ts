import { describe, expect, it } from 'vitest';
import { conditionTruth, legsOf, occasionsOf, occasionsOfSet, workflowRuns, isEmpty } from '../../../../../lib/engine/analysis/run-model/conditions.js';
import { buildWorkflow, type Workflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { scanRepository } from '../../../../../lib/engine/scan.js';
import { scanWith, yaml } from '../../../../support/engine.js';
import type { YMap } from '../../../../../lib/engine/yaml/model.js';

function model(text: string): Workflow {
  const parsed = parseYaml(text);
  if (!parsed.ok) throw new Error('bad yaml');
  return buildWorkflow(new SourceFile('.github/workflows/w.yml', text), parsed.root as YMap);
}

function condition(text: string) {
  const parsed = parseYaml(`if: ${text}`);
  if (!parsed.ok) throw new Error('bad yaml');
  return (parsed.root as YMap).pairs[0]!.value;
}

const PRT = { event: 'pull_request_target', action: null, ref: 'branch' as const, fork: 'fork' as const };

describe('three-valued conditions', () => {
  it('short-circuits: false && X never holds, true || X always does, whatever X reads', () => {
    expect(conditionTruth(condition("false && github.event.pull_request.head.repo.fork"), PRT)).toBe(false);
    expect(conditionTruth(condition("true || github.event.comment.body == 'x'"), PRT)).toBe(true);
    const comment = { event: 'issue_comment', action: 'created', ref: 'branch' as const, fork: null };
    expect(conditionTruth(condition("github.event.comment.body == 'x'"), comment)).toBeNull();
    expect(conditionTruth(condition("false && github.event.comment.body == 'x'"), comment)).toBe(false);
    expect(conditionTruth(condition("always() && false"), PRT)).toBe(false);
  });

  it('reads the event, its activity type, the kind of ref and the fork', () => {
    expect(conditionTruth(condition("github.event_name == 'push'"), PRT)).toBe(false);
    expect(conditionTruth(condition("github.event_name == 'PULL_REQUEST_TARGET'"), PRT)).toBe(true);
    expect(conditionTruth(condition("github.event.action == 'labeled'"), { ...PRT, action: 'opened' })).toBe(false);
    expect(conditionTruth(condition("startsWith(github.ref, 'refs/tags/')"), PRT)).toBe(false);
    expect(conditionTruth(condition("startsWith(github.ref, 'refs/tags/')"), { event: 'release', action: null, ref: 'tag', fork: null })).toBe(true);
    expect(conditionTruth(condition("github.ref == 'refs/heads/main'"), { event: 'push', action: null, ref: 'tag', fork: null })).toBe(false);
    expect(conditionTruth(condition("github.ref == 'refs/heads/main'"), { event: 'push', action: null, ref: 'branch', fork: null })).toBeNull();
    expect(conditionTruth(condition('github.event.pull_request.head.repo.full_name == github.repository'), PRT)).toBe(false);
    expect(conditionTruth(condition('github.event.pull_request.head.repo.full_name == github.repository'), { ...PRT, fork: 'same' })).toBe(true);
    expect(conditionTruth(condition("'!github.event.pull_request.head.repo.fork'"), PRT)).toBe(false);
    expect(conditionTruth(condition('github.event.workflow_run.head_repository.full_name != github.repository'), { event: 'workflow_run', action: null, ref: 'branch', fork: 'same' })).toBe(false);
  });

  it("reads the branch or tag names a trigger's filter lists, never a pattern's", () => {
    const [push, tag] = occasionsOf(model("on:\n  push:\n    branches: [develop, Main]\n    tags: [v1.0]\njobs: {}\n"));
    expect(push).toMatchObject({ event: 'push', ref: 'branch', names: ['develop', 'main'] });
    expect(tag).toMatchObject({ event: 'push', ref: 'tag', names: ['v1.0'] });
    expect(conditionTruth(condition("github.ref == 'refs/heads/release'"), push!)).toBe(false);
    expect(conditionTruth(condition("github.ref_name == 'develop-final' || github.ref_name == 'main-final'"), push!)).toBe(false);
    expect(conditionTruth(condition("github.ref == 'refs/heads/main'"), push!)).toBeNull();
    expect(conditionTruth(condition("github.ref_name == 'v1.0'"), tag!)).toBe(true);
    expect(conditionTruth(condition("startsWith(github.ref_name, 'release/')"), push!)).toBe(false);
    expect(conditionTruth(condition("startsWith(github.ref, 'refs/heads/')"), push!)).toBe(true);
    // A pattern, an ignore list or no filter: any name may be the run's.
    for (const filter of ["branches: ['release/**']", "branches: ['!main', develop]", 'branches-ignore: [main]', 'paths: [src/**]']) {
      const [run] = occasionsOf(model(`on:\n  push:\n    ${filter}\njobs: {}\n`));
      expect(run?.names, filter).toBeUndefined();
      expect(conditionTruth(condition("github.ref == 'refs/heads/release'"), run!), filter).toBeNull();
    }
    // pull_request_target runs on the base branch its filter names; pull_request on the merge ref.
    const [target] = occasionsOf(model('on:\n  pull_request_target:\n    branches: [main]\njobs: {}\n'));
    expect(conditionTruth(condition("github.ref == 'refs/heads/main' && github.base_ref == 'main'"), target!)).toBe(true);
    const [pr] = occasionsOf(model('on:\n  pull_request:\n    branches: [main]\njobs: {}\n'));
    expect(conditionTruth(condition("github.ref_name == 'main'"), pr!)).toBe(false);
    expect(conditionTruth(condition("github.ref_name == '12/merge'"), pr!)).toBeNull();
    expect(conditionTruth(condition("github.base_ref == 'develop'"), pr!)).toBe(false);
    expect(conditionTruth(condition("github.base_ref == 'main'"), pr!)).toBe(true);
    expect(conditionTruth(condition("github.base_ref == 'main'"), push!)).toBe(false);
  });

  it('reports nothing of a job whose ref condition no trigger can meet, and keeps the job one can', () => {
    const text = (condition: string) => yaml`
      on:
        push:
          branches: [develop, main]
        pull_request:
          branches: [develop]
      permissions: {}
      jobs:
        release:
          if: ${condition}
          runs-on: ubuntu-latest
          permissions:
            contents: write
          steps:
            - uses: actions/checkout@v3
            - run: make dist
            - uses: softprops/action-gh-release@v2
              with:
                files: dist/*
    `;
    const unpinned = (condition: string) => scanWith('unpinned-action', text(condition));
    expect(unpinned("github.ref_name == 'develop-final'")).toEqual([]);
    expect(unpinned("github.ref == 'refs/heads/release'")).toEqual([]);
    expect(unpinned("github.ref == 'refs/heads/main'").map((f) => f.severity).sort()).toEqual(['LOW', 'MEDIUM']);
  });

  it("compares the head repository with the run's own, however the payload names it", () => {
    const same = { ...PRT, fork: 'same' as const };
    const run = { event: 'workflow_run', action: null, ref: 'branch' as const, fork: 'fork' as const };
    for (const text of [
      'github.event.pull_request.head.repo.full_name == github.event.pull_request.base.repo.full_name',
      'github.event.pull_request.head.repo.full_name == github.event.repository.full_name',
      'github.event.pull_request.head.repo.id == github.repository_id',
      'github.event.pull_request.head.repo.id == github.event.pull_request.base.repo.id',
      'github.event.pull_request.head.repo.owner.login == github.event.repository.owner.login',
      'github.event.pull_request.head.repo.fork != true',
      "'!(github.event.pull_request.head.repo.full_name != github.repository)'",
    ]) {
      expect(conditionTruth(condition(text), PRT), text).toBe(false);
      expect(conditionTruth(condition(text), same), text).toBe(true);
    }
    for (const text of [
      'github.event.workflow_run.head_repository.full_name == github.event.workflow_run.repository.full_name',
      'github.event.workflow_run.head_repository.id == github.event.workflow_run.repository.id',
      'github.event.workflow_run.head_repository.id == github.repository_id',
      'github.event.workflow_run.head_repository.full_name == github.event.repository.full_name',
    ]) {
      expect(conditionTruth(condition(text), run), text).toBe(false);
      expect(conditionTruth(condition(text), { ...run, fork: 'same' }), text).toBe(true);
    }
    // Another field of the repository object, or a repository the payload of this event does not carry: unknown / absent.
    expect(conditionTruth(condition("github.event.pull_request.base.repo.name == 'x'"), PRT)).toBeNull();
    expect(conditionTruth(condition('github.event.repository.full_name == github.repository'), { event: 'push', action: null, ref: 'branch', fork: null })).toBeNull();
    // On `push` there is no pull request: both sides are null, which GitHub compares equal.
    expect(conditionTruth(condition('github.event.pull_request.head.repo.full_name == github.event.pull_request.base.repo.full_name'), { event: 'push', action: null, ref: 'branch', fork: null })).toBe(true);
  });

  it("knows a fork's run that a workflow_run follows ran on a pull request event, never on push", () => {
    const forkRun = { event: 'workflow_run', action: null, ref: 'branch' as const, fork: 'fork' as const };
    expect(conditionTruth(condition("github.event.workflow_run.event == 'push'"), forkRun)).toBe(false);
    expect(conditionTruth(condition("github.event.workflow_run.event != 'push'"), forkRun)).toBe(true);
    expect(conditionTruth(condition("github.event.workflow_run.event == 'pull_request'"), forkRun)).toBeNull();
    // The branch name is the fork's choice: unknown.
    expect(conditionTruth(condition("github.event.workflow_run.head_branch == 'main'"), forkRun)).toBeNull();
    expect(conditionTruth(condition("github.event.workflow_run.event == 'push'"), { ...forkRun, fork: 'same' })).toBeNull();
  });

  it('knows that an event carries no payload of another event', () => {
    const push = { event: 'push', action: null, ref: 'branch' as const, fork: null };
    expect(conditionTruth(condition('github.event.pull_request.head.repo.full_name == github.repository'), push)).toBe(false);
    expect(conditionTruth(condition("github.event.pull_request != null"), push)).toBe(false);
    expect(conditionTruth(condition("contains(github.event.issue.title, 'x')"), push)).toBe(false);
  });

  it('knows that an `issues` event is never about a pull request, while a comment may be', () => {
    const issues = { event: 'issues', action: 'opened', ref: 'branch' as const, fork: null };
    const comment = { event: 'issue_comment', action: 'created', ref: 'branch' as const, fork: null };
    expect(conditionTruth(condition('github.event.issue.pull_request'), issues)).toBe(false);
    expect(conditionTruth(condition("'!github.event.issue.pull_request'"), issues)).toBe(true);
    expect(conditionTruth(condition('github.event.issue.pull_request'), comment)).toBeNull();
    expect(conditionTruth(condition('github.event.issue.title'), issues)).toBeNull();
  });

  it('folds fromJSON of a literal array and contains() over it, case-insensitively; unknown stays unknown', () => {
    const push = { event: 'push', action: null, ref: 'branch' as const, fork: null };
    const pr = { event: 'pull_request', action: 'opened', ref: 'pr' as const, fork: 'same' as const };
    const events = `contains(fromJSON('["pull_request", "merge_group"]'), github.event_name)`;
    expect(conditionTruth(condition(events), push)).toBe(false);
    expect(conditionTruth(condition(events), pr)).toBe(true);
    expect(conditionTruth(condition(`contains(fromJSON('["PUSH","pull_request"]'), github.event_name)`), push)).toBe(true);
    expect(conditionTruth(condition(`contains(fromJSON('["opened","synchronize"]'), github.event.action)`), pr)).toBe(true);
    expect(conditionTruth(condition(`contains(fromJSON('["closed"]'), github.event.action)`), pr)).toBe(false);
    expect(conditionTruth(condition(`contains(fromJSON('["tag"]'), github.ref_type)`), push)).toBe(false);
    expect(conditionTruth(condition(`contains('pull_request merge_group', github.event_name)`), push)).toBe(false);
    expect(conditionTruth(condition(`contains('push pull_request', github.event_name)`), push)).toBe(true);
    expect(conditionTruth(condition(`fromJSON('true') && github.event_name == 'push'`), push)).toBe(true);
    // What the occasion does not tell stays unknown: the action of an occasion with any type, a ref's branch name,
    // an item that is itself an object, an array too long to read.
    expect(conditionTruth(condition(`contains(fromJSON('["closed"]'), github.event.action)`), { ...pr, action: null })).toBeNull();
    expect(conditionTruth(condition(`contains(fromJSON('["refs/heads/main"]'), github.ref)`), push)).toBeNull();
    expect(conditionTruth(condition(`contains(fromJSON('[["push"]]'), github.event_name)`), push)).toBeNull();
    expect(conditionTruth(condition(`contains(fromJSON(vars.EVENTS), github.event_name)`), push)).toBeNull();
    const long = JSON.stringify(Array.from({ length: 100 }, (_, i) => `e${i}`));
    expect(conditionTruth(condition(`contains(fromJSON('${long}'), github.event_name)`), push)).toBeNull();
  });

  it('reads matrix values and runner.os of a leg', () => {
    const leg = new Map([['os', (condition("'windows-latest'"))]]);
    expect(conditionTruth(condition("matrix.os == 'windows-latest'"), PRT, leg)).toBe(true);
    expect(conditionTruth(condition("matrix.os == 'ubuntu-latest'"), PRT, leg)).toBe(false);
    expect(conditionTruth(condition("runner.os == 'Linux'"), PRT, null, 'Windows')).toBe(false);
    expect(conditionTruth(condition("runner.os == 'linux'"), PRT, null, 'Linux')).toBe(true);
  });
});

describe('a condition GitHub reads as a string', () => {
  it('is always true when text (a block scalar\'s trailing newline, a space) surrounds its ${{ }}; a lone ${{ }} is read as before (negative)', () => {
    const block = (parseYaml("if: >\n  ${{ github.event.pull_request.head.repo.full_name == github.repository }}\n") as { ok: true; root: YMap }).root.pairs[0]!.value;
    expect(conditionTruth(block, PRT)).toBe(true);
    const spaced = (parseYaml("if: '${{ github.event.pull_request.head.repo.fork == false }} '") as { ok: true; root: YMap }).root.pairs[0]!.value;
    expect(conditionTruth(spaced, PRT)).toBe(true);
    expect(conditionTruth(condition('${{ github.event.pull_request.head.repo.full_name == github.repository }}'), PRT)).toBe(false);
    expect(conditionTruth(condition('github.event.pull_request.head.repo.full_name == github.repository'), PRT)).toBe(false);
  });

  it('lets a fork reach a job whose fork check is such a string: the untrusted checkout says anyone starts it', () => {
    const findings = scanWith('untrusted-checkout', yaml`
      on: pull_request_target
      permissions: { contents: read, pull-requests: write }
      jobs:
        preview:
          if: >
            \${{ github.event.pull_request.head.repo.full_name == github.repository }}
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with: { ref: "\${{ github.event.pull_request.head.sha }}", persist-credentials: false }
            - run: npm ci && npm test
    `);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.description).toContain('anyone with a GitHub account can start it');
  });
});

describe('comparisons of different types', () => {
  it('coerces null and booleans to numbers as GitHub does: a missing matrix key never equals true, and equals false', () => {
    const leg = new Map([['config', (parseYaml('{ tag: cpu, freediskspace: false }') as { ok: true; root: YMap }).root]]);
    expect(conditionTruth(condition('${{ matrix.config.free_disk_space == true }}'), PRT, leg)).toBe(false);
    expect(conditionTruth(condition('matrix.config.free_disk_space != true'), PRT, leg)).toBe(true);
    // null becomes 0, as false does: `null == false` holds (negative: not read as "a missing key is never equal").
    expect(conditionTruth(condition('matrix.config.free_disk_space == false'), PRT, leg)).toBe(true);
    expect(conditionTruth(condition('matrix.config.free_disk_space == 0'), PRT, leg)).toBe(true);
    expect(conditionTruth(condition('matrix.config.free_disk_space == 1'), PRT, leg)).toBe(false);
    // The key that exists is read as before; an unknown value stays unknown.
    expect(conditionTruth(condition('matrix.config.freediskspace == true'), PRT, leg)).toBe(false);
    expect(conditionTruth(condition("github.event.comment.body == true"), { event: 'issue_comment', action: 'created', ref: 'branch' as const, fork: null })).toBeNull();
  });

  it('drops a step whose condition tests a key no leg of its matrix has against true', () => {
    const findings = scanWith('unpinned-action', yaml`
      on: push
      permissions: { packages: write }
      jobs:
        build:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              config:
                - { tag: cpu, freediskspace: false }
                - { tag: gpu, freediskspace: true }
          steps:
            - if: \${{ matrix.config.free_disk_space == true }}
              uses: some-org/free-disk-space@v1
            - if: \${{ matrix.config.freediskspace == true }}
              uses: some-org/other@v1
            - uses: docker/build-push-action@v6
              with: { push: true }
    `);
    expect(findings.map((f) => f.description.slice(0, 30))).toEqual(['Action `some-org/other` is ref', 'Action `docker/build-push-acti']);
  });
});

describe('occasions and legs', () => {
  it('splits triggers by activity type, ref kind and fork', () => {
    const workflow = model(yaml`
      on:
        pull_request_target:
          types: [opened, labeled]
        push:
          tags: ['v*']
        issue_comment:
      jobs: {}
    `);
    expect(occasionsOf(workflow).map((o) => `${o.event}/${o.action}/${o.ref}/${o.fork}`)).toEqual([
      'pull_request_target/opened/branch/fork',
      'pull_request_target/opened/branch/same',
      'pull_request_target/labeled/branch/fork',
      'pull_request_target/labeled/branch/same',
      'push/null/tag/null',
      // A comment event without types: each of its activity types, since who causes an edit or a deletion differs.
      'issue_comment/created/branch/null',
      'issue_comment/edited/branch/null',
      'issue_comment/deleted/branch/null',
    ]);
  });

  it('expands a matrix as GitHub does: product, exclude, include', () => {
    const workflow = model(yaml`
      on: push
      jobs:
        test:
          runs-on: \${{ matrix.os }}
          strategy:
            matrix:
              os: [ubuntu-latest, windows-latest]
              node: [18, 20]
              exclude:
                - os: windows-latest
                  node: 18
              include:
                - os: ubuntu-latest
                  experimental: true
                - os: macos-latest
                  node: 22
          steps:
            - run: echo
    `);
    const legs = legsOf(workflow.jobs[0]!)!;
    const text = legs.map((leg) => [...leg].map(([k, v]) => `${k}=${v.kind === 'scalar' ? String(v.value) : '?'}`).join(','));
    expect(text).toEqual(['os=ubuntu-latest,node=18,experimental=true', 'os=ubuntu-latest,node=20,experimental=true', 'os=windows-latest,node=20', 'os=macos-latest,node=22']);
  });
});

describe('jobs and steps that never run are dropped', () => {
  const scan = (text: string) => scanRepository([{ path: '.github/workflows/w.yml', text }], { isEnabled: (id) => id === 'untrusted-checkout' }).findings;

  it('a job disabled with `false && ...` reports nothing', () => {
    expect(
      scan(yaml`
        on: pull_request_target
        jobs:
          build:
            if: false && github.event.pull_request.head.repo.fork
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:
                  ref: \${{ github.event.pull_request.head.sha }}
              - run: npm ci
      `),
    ).toEqual([]);
  });

  it('a job that runs only on an event the workflow does not have, or after such a job, reports nothing', () => {
    const workflow = model(yaml`
      on: pull_request_target
      jobs:
        release:
          if: github.event_name == 'push'
          runs-on: ubuntu-latest
          steps:
            - run: make
        after:
          needs: release
          runs-on: ubuntu-latest
          steps:
            - run: make
        cleanup:
          needs: release
          if: always()
          runs-on: ubuntu-latest
          steps:
            - run: make
    `);
    expect(workflow.jobs.map((j) => j.id)).toEqual(['cleanup']);
  });

  it('a step for a matrix leg that does not exist is dropped; one for a leg that does is kept', () => {
    const workflow = model(yaml`
      on: push
      jobs:
        test:
          runs-on: \${{ matrix.os }}
          strategy:
            matrix:
              os: [ubuntu-latest, macos-latest]
          steps:
            - if: matrix.os == 'windows-latest'
              run: choco install x
            - if: runner.os == 'macOS'
              run: brew install x
            - if: runner.os == 'Windows'
              run: choco install y
    `);
    expect(workflow.jobs[0]!.steps.map((s) => s.index)).toEqual([1]);
  });

  it('a step whose condition asks for an event the workflow does not have is dropped, as a job is; one that may hold is kept', () => {
    const workflow = model(yaml`
      on:
        issues:
          types: [opened, reopened]
      jobs:
        triage:
          runs-on: ubuntu-latest
          steps:
            - name: pull request only
              if: |
                github.event.pull_request || github.event.issue.pull_request || github.event_name == 'workflow_dispatch' && inputs.kind == 'pr'
              run: make pr
            - name: issues
              if: github.event_name == 'issues' || github.event_name == 'workflow_dispatch'
              run: make issue
    `);
    expect(workflow.jobs[0]!.steps.map((s) => s.name)).toEqual(['issues']);
  });

  it('a condition written as text around ${{ }} (a block scalar keeps its newline) is always true: nothing is dropped', () => {
    const workflow = model(yaml`
      on: pull_request_target
      jobs:
        nightly:
          if: |
            \${{ github.event_name == 'schedule' }}
          runs-on: ubuntu-latest
          steps:
            - run: make
    `);
    expect(workflow.jobs.map((j) => j.id)).toEqual(['nightly']);
  });

  it('keeps the run sets of what remains, so two steps of different legs are told apart', () => {
    const workflow = model(yaml`
      on: pull_request_target
      jobs:
        test:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              target: [a, b]
          steps:
            - if: matrix.target == 'a'
              run: one
            - if: matrix.target == 'b'
              run: two
    `);
    const runs = workflowRuns(workflow);
    const [one, two] = workflow.jobs[0]!.steps;
    const a = runs.steps.get(one!)!;
    const b = runs.steps.get(two!)!;
    expect(isEmpty(a) || isEmpty(b)).toBe(false);
    expect(a.bits.some((bit, i) => bit === 1 && b.bits[i] === 1)).toBe(false);
  });
});

describe('a condition is evaluated once per distinct thing it reads', () => {
  // The run sets fold each condition over occasions alike in what it reads (event, activity, ref kind, fork)
  // once: the result must be the truth on each occasion and leg, evaluated on its own.
  const workflow = model(yaml`
    on:
      pull_request_target:
        types: [opened, labeled, synchronize]
      push:
      workflow_dispatch:
      issue_comment:
    jobs:
      build:
        runs-on: \${{ matrix.os }}
        strategy:
          matrix:
            os: [ubuntu-latest, windows-latest]
        steps:
          - if: github.event.action == 'labeled'
            run: a
          - if: github.event.pull_request.head.repo.full_name == github.repository
            run: b
          - if: startsWith(github.ref, 'refs/tags/')
            run: c
          - if: github.event_name != 'push' && runner.os == 'Linux'
            run: d
          - if: inputs.flag && matrix.os == 'windows-latest'
            run: e
          - if: \${{ github.event.comment.body == 'go' || github.head_ref == '' }}
            run: f
          - if: steps.x.outputs.y == 'z'
            run: g
  `);
  const runs = workflowRuns(workflow);
  const job = workflow.jobs[0]!;
  const legs = legsOf(job)!;

  it('gives each occasion and leg the truth of the condition there', () => {
    // Each step runs on some occasion: none may have been dropped by a truth read off another occasion.
    expect(job.steps.map((s) => s.run?.value)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    const systems = legs.map((leg) => (/windows/.test(String((leg.get('os') as { value: unknown }).value)) ? 'Windows' : 'Linux'));
    for (const step of job.steps) {
      const set = runs.steps.get(step)!;
      runs.occasions.forEach((occasion, o) =>
        legs.forEach((leg, l) => {
          const expected = conditionTruth(step.if, occasion, leg, systems[l]) === false ? 0 : 1;
          expect(set.bits[o * legs.length + l], `step ${step.run?.value} on ${JSON.stringify(occasion)} leg ${l}`).toBe(expected);
        }),
      );
    }
  });

  it('still tells occasions apart by the field read, and keeps every run when nothing known is read', () => {
    const bits = (index: number) => [...runs.steps.get(job.steps[index]!)!.bits];
    const at = (match: (o: (typeof runs.occasions)[number]) => boolean) => runs.occasions.flatMap((o, i) => (match(o) ? [i] : []));
    // `github.event.action == 'labeled'`: of the activities known, only `labeled` keeps its legs.
    expect(at((o) => o.action === 'labeled').length).toBeGreaterThan(0);
    for (const o of at((x) => x.action === 'labeled')) expect(bits(0).slice(o * 2, o * 2 + 2)).toEqual([1, 1]);
    for (const o of at((x) => x.action !== null && x.action !== 'labeled')) expect(bits(0).slice(o * 2, o * 2 + 2)).toEqual([0, 0]);
    // `head.repo.full_name == github.repository`: never on a fork's pull request.
    for (const o of at((x) => x.fork === 'fork')) expect(bits(1).slice(o * 2, o * 2 + 2)).toEqual([0, 0]);
    for (const o of at((x) => x.fork === 'same')) expect(bits(1).slice(o * 2, o * 2 + 2)).toEqual([1, 1]);
    // A tag only on a push or dispatch: some occasions keep it, the pull request and comment ones do not.
    expect(bits(2).some((b) => b === 1)).toBe(true);
    expect(bits(2).some((b) => b === 0)).toBe(true);
    // Reads nothing the model knows (a step output): every occasion and leg.
    expect(bits(6).every((b) => b === 1)).toBe(true);
  });
});

describe('a condition repeated on the steps of several jobs', () => {
  // The run sets keep each condition's truths while a workflow's sets are made: for every job when the condition
  // reads the occasion alone, per job when it reads the matrix, `runner.os` or a `needs` output. Each step must
  // still get the truth on each occasion and leg of its own job.
  const workflow = model(yaml`
    on:
      pull_request_target:
      push:
    jobs:
      first:
        runs-on: ubuntu-latest
        strategy:
          matrix:
            target: [a, b]
        steps:
          - if: matrix.target == 'a'
            run: first-a
          - if: github.event_name == 'push'
            run: first-push
      second:
        runs-on: windows-latest
        if: github.event_name == 'pull_request_target'
        strategy:
          matrix:
            target: [b, c]
        steps:
          - if: matrix.target == 'a'
            run: second-a
          - if: github.event_name == 'push'
            run: second-push
          - if: matrix.target == 'c' && runner.os == 'Windows'
            run: second-c
      third:
        runs-on: ubuntu-latest
        steps:
          - if: github.event_name == 'push'
            run: third-push
          - if: runner.os == 'Windows'
            run: third-windows
  `);
  const runs = workflowRuns(workflow);
  const job = (id: string) => workflow.jobs.find((j) => j.id === id)!;

  it("drops a step for a leg only another job's matrix has, and one for an event its job never runs on", () => {
    expect(job('first').steps.map((s) => s.run?.value)).toEqual(['first-a', 'first-push']);
    expect(job('second').steps.map((s) => s.run?.value)).toEqual(['second-c']);
    expect(job('third').steps.map((s) => s.run?.value)).toEqual(['third-push']);
  });

  it('gives each step the truth of its condition on each occasion and leg of its own job', () => {
    for (const j of workflow.jobs) {
      const legs = legsOf(j)!;
      const os = j.id === 'second' ? 'Windows' : 'Linux';
      const jobSet = runs.jobs.get(j)!;
      for (const step of j.steps) {
        const set = runs.steps.get(step)!;
        runs.occasions.forEach((occasion, o) =>
          legs.forEach((leg, l) => {
            const i = o * legs.length + l;
            const expected = jobSet.bits[i] === 1 && conditionTruth(step.if, occasion, leg, os) !== false ? 1 : 0;
            expect(set.bits[i], `step ${step.run?.value} on ${JSON.stringify(occasion)} leg ${l}`).toBe(expected);
          }),
        );
      }
    }
  });

  it("reads a `needs` output per job: a job that does not need the job reads null (the context holds only the jobs it needs)", () => {
    const dispatching = model(yaml`
      on:
        issues:
          types: [opened]
        pull_request:
          types: [opened]
      jobs:
        dispatch:
          runs-on: ubuntu-latest
          outputs:
            command: \${{ steps.pick.outputs.command }}
          steps:
            - id: pick
              uses: actions/github-script@v7
              env:
                EVENT: \${{ github.event_name }}
              with:
                script: |
                  if (process.env.EVENT === 'issues') {
                    core.setOutput('command', 'triage');
                  } else {
                    core.setOutput('command', 'review');
                  }
        triage:
          needs: dispatch
          runs-on: ubuntu-latest
          steps:
            - if: needs.dispatch.outputs.command == 'triage'
              run: echo triage
        other:
          runs-on: ubuntu-latest
          steps:
            - if: needs.dispatch.outputs.command == 'triage'
              run: echo other
    `);
    const sets = workflowRuns(dispatching);
    const events = (id: string) => {
      const step = dispatching.jobs.find((j) => j.id === id)!.steps[0]!;
      const set = sets.steps.get(step);
      return set === undefined ? [] : [...new Set(occasionsOfSet(set).map((o) => o.event))].sort();
    };
    expect(events('triage')).toEqual(['issues']);
    // `needs.dispatch` is null in a job that does not need `dispatch`: the comparison never holds.
    expect(events('other')).toEqual([]);
  });

  it('keeps a job whose condition reads a job it does not need off every run, and one that needs it on', () => {
    const release = (needs: string) => yaml`
      on: push
      permissions: {}
      jobs:
        changed:
          runs-on: ubuntu-latest
          outputs:
            all: \${{ steps.f.outputs.all }}
          steps:
            - id: f
              run: echo "all=true" >> "$GITHUB_OUTPUT"
        setup:
          runs-on: ubuntu-latest
          steps:
            - run: echo setup
        publish:
          needs: [${needs}]
          if: needs.changed.outputs.all == 'true'
          runs-on: ubuntu-latest
          steps:
            - run: echo publish
    `;
    const ran = (needs: string) => {
      const workflow = model(release(needs));
      const sets = workflowRuns(workflow);
      // A job that never runs is dropped from the model's jobs; a step that never runs has no run set.
      const step = workflow.jobs.find((j) => j.id === 'publish')?.steps[0];
      const set = step === undefined ? undefined : sets.steps.get(step);
      return set !== undefined && occasionsOfSet(set).length > 0;
    };
    expect(ran('setup')).toBe(false);
    expect(ran('setup, changed')).toBe(true);
    // A name that is no job of the workflow stays unknown: the step may run.
    const unknown = model(release('setup').replace("needs.changed.outputs.all == 'true'", "needs.elsewhere.outputs.all == 'true'"));
    const step = unknown.jobs.find((j) => j.id === 'publish')?.steps[0];
    expect(step).toBeDefined();
    expect(occasionsOfSet(workflowRuns(unknown).steps.get(step!)!).length).toBeGreaterThan(0);
  });
});

describe('a condition is evaluated once per class of legs alike in what it reads', () => {
  // Legs whose values of the matrix keys a condition reads are written alike (and whose runner.os is the same, when
  // it reads that) share one evaluation: each leg must still get its own truth.
  const workflow = model(yaml`
    on: [push, pull_request]
    jobs:
      test:
        runs-on: \${{ matrix.os }}
        strategy:
          matrix:
            include:
              - { os: ubuntu-latest, shard: 0, crate: unit, flag: 'true' }
              - { os: ubuntu-latest, shard: 1, crate: unit, flag: 'True' }
              - { os: windows-latest, shard: 0, crate: specs, flag: 'true' }
              - { os: windows-latest, shard: '0', crate: specs, flag: 'false' }
              - { os: macos-latest, shard: 1, crate: Unit, flag: 'true' }
        steps:
          - if: matrix.shard == 0 || github.event_name == 'pull_request'
            run: shard
          - if: \${{ !fromJSON(matrix.flag) }}
            run: flag
          - if: matrix.crate == 'unit' && runner.os != 'Windows'
            run: crate
          - if: runner.os == 'macOS' && github.event_name == 'push'
            run: mac
          - if: matrix.shard == '0' && matrix.crate == 'specs'
            run: both
  `);
  const runs = workflowRuns(workflow);
  const job = workflow.jobs[0]!;
  const legs = legsOf(job)!;
  const systems = ['Linux', 'Linux', 'Windows', 'Windows', 'macOS'];

  it('gives each leg the truth of the condition on it', () => {
    expect(legs.length).toBe(5);
    expect(job.steps.map((s) => s.run?.value)).toEqual(['shard', 'flag', 'crate', 'mac', 'both']);
    for (const step of job.steps) {
      const set = runs.steps.get(step)!;
      runs.occasions.forEach((occasion, o) =>
        legs.forEach((leg, l) => {
          const expected = conditionTruth(step.if, occasion, leg, systems[l]) === false ? 0 : 1;
          expect(set.bits[o * legs.length + l], `step ${step.run?.value} on ${occasion.event} leg ${l}`).toBe(expected);
        }),
      );
    }
  });

  it('tells apart the legs by the values a condition reads: `True` is not JSON where `true` is', () => {
    const bits = (index: number, event: string) => {
      const o = runs.occasions.findIndex((x) => x.event === event);
      return [...runs.steps.get(job.steps[index]!)!.bits.slice(o * legs.length, (o + 1) * legs.length)];
    };
    expect(bits(0, 'push')).toEqual([1, 0, 1, 1, 0]);
    expect(bits(0, 'pull_request')).toEqual([1, 1, 1, 1, 1]);
    // `fromJSON('True')` does not parse (unknown: kept); `'true'` is true, so `!` of it never holds.
    expect(bits(1, 'push')).toEqual([0, 1, 0, 1, 0]);
    expect(bits(2, 'push')).toEqual([1, 1, 0, 0, 1]);
    expect(bits(3, 'push')).toEqual([0, 0, 0, 0, 1]);
    expect(bits(4, 'push')).toEqual([0, 0, 1, 1, 0]);
  });
});

describe('a step whose condition never holds in its job gives the job nothing', () => {
  const scan = (events: string) =>
    scanRepository(
      [
        {
          path: '.github/workflows/w.yml',
          text: yaml`
            on:
              push:
                branches: [main]
              pull_request:
              merge_group:
            permissions:
              contents: read
            jobs:
              test:
                if: contains(fromJSON('EVENTS'), github.event_name)
                runs-on: ubuntu-latest
                steps:
                  - uses: actions/checkout@v3
                  - run: make test
                  - name: upload coverage
                    if: github.event_name == 'push' && github.ref == 'refs/heads/main'
                    uses: some-owner/s3-sync@main
                    env:
                      AWS_ACCESS_KEY_ID: \${{ secrets.AWS_ACCESS_KEY_ID }}
                      AWS_SECRET_ACCESS_KEY: \${{ secrets.AWS_SECRET_ACCESS_KEY }}
          `.replace('EVENTS', events),
        },
      ],
      { isEnabled: (id) => id === 'unpinned-action' || id === 'secrets-outside-env' },
    ).findings;

  it('a push-only step in a job that runs only on pull requests and merge queues: its secrets are not held', () => {
    const findings = scan('["pull_request", "merge_group"]');
    expect(findings.filter((f) => f.rule_id === 'secrets-outside-env')).toEqual([]);
    const unpinned = findings.filter((f) => f.rule_id === 'unpinned-action');
    expect(unpinned.map((f) => f.description)).toEqual([expect.stringContaining('`actions/checkout`')]);
    expect(unpinned[0]!.description).not.toContain('AWS_SECRET_ACCESS_KEY');
  });

  it('the same step in a job that runs on push too: its secrets are held', () => {
    const findings = scan('["push","pull_request"]');
    expect(findings.filter((f) => f.rule_id === 'secrets-outside-env')).toHaveLength(1);
    const unpinned = findings.filter((f) => f.rule_id === 'unpinned-action');
    expect(unpinned).toHaveLength(2);
    expect(unpinned.find((f) => f.description.includes('`actions/checkout`'))!.description).toContain('AWS_SECRET_ACCESS_KEY');
  });

  it("folds a job meant for another repository of the same owner away when the scan knows its own name, never for another owner's", () => {
    const text = yaml`
      on: issue_comment
      jobs:
        bench:
          if: github.repository == 'acme/app-benchmarks'
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.comment.body }}"
    `;
    // A sibling repository's job never runs here.
    expect(scanWith('script-injection', text, { repository: 'acme/app' })).toEqual([]);
    // In the repository it names, or where the name is not known, it runs (HIGH: anyone comments).
    expect(scanWith('script-injection', text, { repository: 'acme/app-benchmarks' }).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith('script-injection', text).map((f) => f.severity)).toEqual(['HIGH']);
    // A clone of a fork (origin the contributor's) must not hide the upstream's job: another owner decides nothing.
    expect(scanWith('script-injection', text, { repository: 'alice/app-benchmarks' }).map((f) => f.severity)).toEqual(['HIGH']);
    // The negation runs everywhere but there.
    const negated = text.replace("== 'acme/app-benchmarks'", "!= 'acme/app'");
    expect(scanWith('script-injection', negated, { repository: 'acme/app' })).toEqual([]);
    expect(scanWith('script-injection', negated, { repository: 'acme/app-mirror' }).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe('jobs on a runner image GitHub has retired never run', () => {
  const workflow = (runsOn: string, matrix = '') => yaml`
    on: pull_request_target
    permissions: { contents: write }
    jobs:
      j:
        runs-on: ${runsOn}${matrix}
        steps:
          - run: echo "\${{ github.event.pull_request.title }}"
  `;
  it('reports nothing of a job on ubuntu-20.04, macos-13, windows-2019, or a matrix of retired images only', () => {
    for (const runsOn of ['ubuntu-20.04', 'macos-13', 'macos-13-xlarge', 'windows-2019', '[macos-12]']) {
      expect(scanWith('script-injection', workflow(runsOn)), runsOn).toEqual([]);
    }
    expect(scanWith('script-injection', workflow('${{ matrix.os }}', '\n        strategy: { matrix: { os: [ubuntu-18.04, ubuntu-20.04] } }'))).toEqual([]);
  });

  it('keeps a current image, a matrix with one current image, and a list that names a machine of the repository', () => {
    for (const runsOn of ['ubuntu-22.04', 'macos-14', 'windows-2022', '[self-hosted, ubuntu-20.04]', 'ubuntu-20.04-arm']) {
      expect(scanWith('script-injection', workflow(runsOn)).length, runsOn).toBe(1);
    }
    expect(scanWith('script-injection', workflow('${{ matrix.os }}', '\n        strategy: { matrix: { os: [ubuntu-20.04, ubuntu-24.04] } }')).length).toBe(1);
  });
});

describe('a job that needs a matrix job with a leg on a retired runner image never runs', () => {
  const workflow = (extra: string, publishIf = '') => yaml`
    on: pull_request_target
    permissions: { contents: write }
    jobs:
      build:
        runs-on: \${{ matrix.os }}
        strategy: { matrix: { os: [ubuntu-20.04, ubuntu-24.04] } }${extra}
        steps:
          - run: make
      publish:
        needs: build${publishIf}
        runs-on: ubuntu-latest
        steps:
          - run: echo "\${{ github.event.pull_request.title }}"
  `;
  it('reports nothing of the job after it: the retired leg fails, so the matrix job never succeeds', () => {
    expect(scanWith('script-injection', workflow(''))).toEqual([]);
  });

  it('keeps it when a status function runs it anyway or a job-level continue-on-error lets the leg fail', () => {
    expect(scanWith('script-injection', workflow('', '\n        if: always()')).length).toBe(1);
    expect(scanWith('script-injection', workflow('\n        continue-on-error: true')).length).toBe(1);
  });
  it('reads a call of a reusable workflow of the repository whose matrix job has a retired leg as failing: the job after it never runs', () => {
    const called = (extra: string, jobIf = '') => ({
      path: '.github/workflows/build.yml',
      text: yaml`
        on: workflow_call
        jobs:
          build:${jobIf}
            runs-on: \${{ matrix.os }}
            strategy: { matrix: { os: [ubuntu-20.04, ubuntu-24.04] } }${extra}
            steps:
              - run: make
      `,
    });
    const caller = {
      path: '.github/workflows/release.yml',
      text: yaml`
        on: pull_request_target
        permissions: { contents: write }
        jobs:
          build:
            uses: ./.github/workflows/build.yml
          publish:
            needs: build
            runs-on: ubuntu-latest
            steps:
              - run: echo "\${{ github.event.pull_request.title }}"
      `,
    };
    const publish = (files: { path: string; text: string }[]) => scanWith('script-injection', files).filter((f) => f.file === '.github/workflows/release.yml');
    expect(publish([caller, called('')])).toEqual([]);
    // negative: the called job may not run (its `if:`), or a continue-on-error lets its leg fail.
    expect(publish([caller, called('', '\n            if: github.event_name == \'push\'')]).length).toBe(1);
    expect(publish([caller, called('\n            continue-on-error: true')]).length).toBe(1);
  });
});

describe('steps only a local emulator runs', () => {
  const workflow = (condition: string, env = '') => yaml`
    on: pull_request_target${env}
    jobs:
      test:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            if: ${condition}
            with:
              ref: \${{ github.event.pull_request.head.sha }}
          - run: npm ci && npm test
  `;

  it('never runs a step behind env.ACT on GitHub, which only nektos/act sets', () => {
    expect(scanWith('untrusted-checkout', workflow('env.ACT'))).toEqual([]);
    expect(scanWith('untrusted-checkout', workflow("${{ env.ACT == 'true' }}"))).toEqual([]);
  });

  it('keeps the step when the condition is the negation, or the workflow may set ACT itself', () => {
    expect(scanWith('untrusted-checkout', workflow('${{ !env.ACT }}')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith('untrusted-checkout', workflow('env.ACT', '\n    env:\n      ACT: true')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith('untrusted-checkout', workflow('env.ACTIVE')).map((f) => f.severity)).toEqual(['HIGH']);
  });
});
