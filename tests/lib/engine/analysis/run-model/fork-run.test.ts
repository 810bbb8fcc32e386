import { describe, expect, it } from 'vitest';
import { RunModel } from '../../../../../lib/engine/analysis/run-model/index.js';
import { stepExecutions } from '../../../../../lib/engine/analysis/run-model/execution.js';
import { checksOutEventCode } from '../../../../../lib/engine/analysis/run-model/workspace.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildWorkflow, type Workflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { yaml } from '../../../../support/engine.js';

function model(files: Record<string, string>) {
  const workflows: Workflow[] = [];
  for (const [path, text] of Object.entries(files)) {
    const parsed = parseYaml(text);
    if (!parsed.ok || parsed.root.kind !== 'map') throw new Error(`bad fixture ${path}`);
    workflows.push(buildWorkflow(new SourceFile(path, text), parsed.root));
  }
  const runs = new RunModel(new RepositoryModel(workflows, [], []));
  const job = (id: string, workflow = 0) => {
    const found = workflows[workflow]?.jobs.find((j) => j.id === id);
    if (found === undefined) throw new Error(`no job ${id}`);
    return runs.job(found);
  };
  return { runs, job };
}

describe('fork pull request runs: what a fork brings, and who lets it in', () => {
  it('a checkout of the event\'s ref is the fork\'s code; a fixed ref, the base branch or another repository is not', () => {
    expect(checksOutEventCode(null, null)).toBe(true);
    expect(checksOutEventCode(null, '${{ github.event.pull_request.head.sha }}')).toBe(true);
    expect(checksOutEventCode(null, '${{ github.ref }}')).toBe(true);
    expect(checksOutEventCode('${{ github.event.pull_request.head.repo.full_name }}', '${{ github.head_ref }}')).toBe(true);
    expect(checksOutEventCode(null, 'main')).toBe(false);
    expect(checksOutEventCode(null, '${{ github.event.pull_request.base.sha }}')).toBe(false);
    expect(checksOutEventCode(null, '${{ github.event.repository.default_branch }}')).toBe(false);
    expect(checksOutEventCode('org/tools', null)).toBe(false);
    const { job } = model({ 'w.yml': yaml`
      on: pull_request
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/checkout@v3
              with: { ref: main, path: base }
            - run: make
    ` });
    expect(job('j').workspace.map((e) => e.forkCode)).toEqual([true, false]);
  });

  it('forkReach keeps the gate on a fork\'s run: none, a maintainer\'s label, a fork exclusion', () => {
    const { job } = model({ 'w.yml': yaml`
      on:
        pull_request:
          types: [labeled]
        push:
      jobs:
        open:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
        label:
          if: github.event.label.name == 'bench'
          runs-on: ubuntu-latest
          steps: [{ run: make }]
        same:
          if: github.event.pull_request.head.repo.full_name == github.repository
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    ` });
    expect(job('open').forkReach?.level).toBe('approval');
    expect(job('label').forkReach?.level).toBe('approval');
    expect(job('same').forkReach?.level).not.toBe('anyone');
    const open = model({ 'w.yml': 'on: [push, pull_request]\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps: [{ run: make }]\n' });
    expect(open.job('j').forkReach).toMatchObject({ level: 'anyone', event: 'pull_request' });
    const push = model({ 'w.yml': 'on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps: [{ run: make }]\n' });
    expect(push.job('j').forkReach).toBeNull();
  });

  it('forkReach of a reusable workflow comes from its local pull_request callers', () => {
    const { job } = model({
      '.github/workflows/callee.yml': 'on: workflow_call\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps: [{ run: make }]\n',
      '.github/workflows/pr.yml': 'on: pull_request\njobs:\n  call:\n    uses: ./.github/workflows/callee.yml\n',
    });
    expect(job('build').forkReach).toMatchObject({ level: 'anyone', event: 'pull_request' });
  });

  it('`pip install .[extras]` installs the project, `pip install name[extras]` a registry package', () => {
    const { job } = model({ 'w.yml': yaml`
      on: push
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: pip install .[dev,test]
            - run: pip install 'black[jupyter]'
    ` });
    const steps = job('j').job.steps;
    expect(stepExecutions(steps[0]!).map((e) => e.kind)).toEqual(['project']);
    expect(stepExecutions(steps[1]!).map((e) => e.kind)).toEqual(['registry']);
  });
});
