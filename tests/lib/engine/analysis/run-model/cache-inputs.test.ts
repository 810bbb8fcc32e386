import { describe, expect, it } from 'vitest';
import { isEmpty, occasionsOfSet, valueRunSet, workflowRuns, type RunSet } from '../../../../../lib/engine/analysis/run-model/conditions.js';
import { RunModel } from '../../../../../lib/engine/analysis/run-model/index.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildAction, buildWorkflow, type Action, type Workflow } from '../../../../../lib/engine/model/workflow.js';
import { get, type YMap } from '../../../../../lib/engine/yaml/model.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { yaml } from '../../../../support/engine.js';

function model(text: string): Workflow {
  const parsed = parseYaml(text);
  if (!parsed.ok) throw new Error('bad yaml');
  return buildWorkflow(new SourceFile('.github/workflows/w.yml', text), parsed.root as YMap);
}

/** `event/ref` of each occasion on which some leg may run. */
function occasions(set: RunSet): string[] {
  return occasionsOfSet(set).map((o) => `${o.event}/${o.ref}`);
}

describe('valueRunSet: an input switched by the run', () => {
  const workflow = (value: string) =>
    model(yaml`
      on:
        push:
          branches: [main]
          tags: ['*']
        release:
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: PyO3/maturin-action@v1
              with:
                sccache: ${value}
    `);
  const on = (value: string, want: boolean) => {
    const w = workflow(value);
    const job = w.jobs[0]!;
    const step = job.steps[0]!;
    const within = workflowRuns(w).steps.get(step)!;
    return valueRunSet(get(step.with, 'sccache'), job, within, want);
  };

  it('keeps the runs on which the value may be truthy, or falsy, reading its polarity', () => {
    expect(occasions(on("${{ startsWith(github.ref, 'refs/tags/') }}", true))).toEqual(['push/tag', 'release/tag']);
    expect(occasions(on("${{ !startsWith(github.ref, 'refs/tags/') }}", true))).toEqual(['push/branch']);
    expect(occasions(on("${{ !startsWith(github.ref, 'refs/tags/') }}", false))).toEqual(['push/tag', 'release/tag']);
    // On `release` the event is not `push`: the negation is true there.
    expect(occasions(on("${{ !(github.event_name == 'push' && github.ref_type == 'tag') }}", true))).toEqual(['push/branch', 'release/tag']);
    expect(occasions(on("${{ github.ref_type != 'tag' && 'true' || '' }}", true))).toEqual(['push/branch']);
  });

  it('leaves runs it cannot decide, and values that are not one whole expression, as they are', () => {
    expect(occasions(on('${{ inputs.cache }}', true))).toEqual(['push/branch', 'push/tag', 'release/tag']);
    expect(occasions(on('${{ inputs.cache }}', false))).toEqual(['push/branch', 'push/tag', 'release/tag']);
    expect(occasions(on("x-${{ startsWith(github.ref, 'refs/tags/') }}", true))).toEqual(['push/branch', 'push/tag', 'release/tag']);
    expect(isEmpty(on("${{ false && startsWith(github.ref, 'refs/tags/') }}", true))).toBe(true);
  });
});

describe('JobRun.steps: steps of local composite actions at their call', () => {
  it('lists the job steps with the steps of the actions they call, each with its caller', () => {
    const files = [
      { path: '.github/actions/outer/action.yml', text: yaml`
        name: outer
        runs:
          using: composite
          steps:
            - uses: ./.github/actions/inner
            - run: echo outer
              shell: bash
      ` },
      { path: '.github/actions/inner/action.yml', text: yaml`
        name: inner
        runs:
          using: composite
          steps:
            - uses: actions/cache@v4
              with: { path: x, key: k }
      ` },
      { path: '.github/workflows/w.yml', text: yaml`
        on: push
        jobs:
          build:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
              - uses: ./.github/actions/outer
      ` },
    ];
    const workflows: Workflow[] = [];
    const actions: Action[] = [];
    for (const { path, text } of files) {
      const parsed = parseYaml(text);
      if (!parsed.ok) throw new Error('bad yaml');
      const file = new SourceFile(path, text);
      if (path.endsWith('action.yml')) actions.push(buildAction(file, parsed.root as YMap));
      else workflows.push(buildWorkflow(file, parsed.root as YMap));
    }
    const repository = new RepositoryModel(workflows, actions, []);
    const job = repository.workflows[0]!.jobs[0]!;
    const run = new RunModel(repository).job(job);
    expect(run.steps.map((s) => `${s.step.uses?.value ?? s.step.run?.value} <- ${s.caller.index}`)).toEqual([
      'actions/checkout@v3 <- 0',
      './.github/actions/outer <- 1',
      './.github/actions/inner <- 1',
      'actions/cache@v4 <- 1',
      'echo outer <- 1',
    ]);
  });
});

describe('RunModel.systems: runner.os of the legs a step runs on', () => {
  const systemsOf = (runsOn: string, strategy: string[], condition: string | null, keep?: (event: string | null) => boolean) => {
    const text = ['on: [push, pull_request_target]', 'jobs:', '  build:', `    runs-on: ${runsOn}`, ...strategy.map((l) => `    ${l}`), '    steps:', '      - run: make', ...(condition === null ? [] : [`        if: ${condition}`]), ''].join('\n');
    const w = model(text);
    const job = w.jobs[0]!;
    const runs = new RunModel(new RepositoryModel([w], [], []));
    return runs.systems(job, runs.runSet(job.steps[0]!), keep === undefined ? undefined : (o) => keep(o.event)).sort((a, b) => (String(a) < String(b) ? -1 : 1));
  };
  const matrix = ['strategy:', '  matrix:', '    os: [ubuntu-latest, windows-2022, macos-14]'];

  it('reads the hosted image family of each leg, narrowed by the step\'s condition and the occasions kept', () => {
    expect(systemsOf('windows-latest', [], null)).toEqual(['Windows']);
    expect(systemsOf('${{ matrix.os }}', matrix, null)).toEqual(['Linux', 'Windows', 'macOS']);
    expect(systemsOf('${{ matrix.os }}', matrix, "runner.os != 'Windows'")).toEqual(['Linux', 'macOS']);
    expect(systemsOf('${{ matrix.os }}', matrix, "matrix.os == 'macos-14' || github.event_name == 'push'", (e) => e === 'pull_request_target')).toEqual(['macOS']);
  });

  it('says null where the system is not known: a self-hosted label, an expression it cannot resolve, no leg left', () => {
    expect(systemsOf('[self-hosted, gpu]', [], null)).toEqual([null]);
    expect(systemsOf('${{ inputs.runner }}', [], null)).toEqual([null]);
    expect(systemsOf('${{ matrix.os }}', ['strategy:', '  matrix:', '    os: [ubuntu-latest, my-runner]'], null)).toEqual(['Linux', null]);
    expect(systemsOf('ubuntu-latest', [], null, () => false)).toEqual([null]);
  });

  it('takes the system a custom label names as one of its words (a larger runner or runner group), never for folding a condition', () => {
    expect(systemsOf('acme-windows-16-core', [], null)).toEqual(['Windows']);
    expect(systemsOf('[self-hosted, linux_arm64]', [], null)).toEqual(['Linux']);
    expect(systemsOf('mac-mini-m2', [], null)).toEqual(['macOS']);
    // No system word, or two of them: not known. `darwin` is one word, not `win`.
    expect(systemsOf('[self-hosted, gpu-large]', [], null)).toEqual([null]);
    expect(systemsOf('linux-or-windows-pool', [], null)).toEqual([null]);
    expect(systemsOf('darwin-arm', [], null)).toEqual([null]);
    // A condition on another system still may hold there: the name is the owner's word, not GitHub's.
    expect(systemsOf('acme-windows-16-core', [], "runner.os == 'Linux'")).toEqual(['Windows']);
  });
});
