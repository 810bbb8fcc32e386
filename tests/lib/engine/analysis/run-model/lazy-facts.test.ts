import { describe, expect, it } from 'vitest';
import { RunModel, type JobRun } from '../../../../../lib/engine/analysis/run-model/index.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildAction, buildWorkflow, type Action, type Workflow } from '../../../../../lib/engine/model/workflow.js';
import type { YMap } from '../../../../../lib/engine/yaml/model.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { yaml } from '../../../../support/engine.js';

// A job's facts are read when a rule first asks for them (run-model/index.ts, LazyJobRun): what a fact says must
// not depend on which facts were read before it.

const FILES = [
  { path: '.github/actions/setup/action.yml', text: yaml`
    name: setup
    runs:
      using: composite
      steps:
        - run: npm ci
          shell: bash
  ` },
  { path: '.github/workflows/target.yml', text: yaml`
    on:
      pull_request_target:
        types: [opened, synchronize]
      push:
        branches: [main]
    permissions:
      contents: write
    jobs:
      test:
        runs-on: \${{ matrix.os }}
        strategy:
          matrix:
            os: [ubuntu-latest, self-hosted]
        env:
          TOKEN: \${{ secrets.NPM_TOKEN }}
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.sha }}
          - uses: ./.github/actions/setup
          - run: make test
          - uses: actions/download-artifact@v4
            with:
              name: dist
              run-id: \${{ github.event.workflow_run.id }}
              github-token: \${{ github.token }}
      lint:
        if: github.event_name == 'push'
        runs-on: ubuntu-latest
        permissions: {}
        steps:
          - uses: actions/checkout@v3
          - run: npm run lint
  ` },
];

function repository(): RepositoryModel {
  const workflows: Workflow[] = [];
  const actions: Action[] = [];
  for (const { path, text } of FILES) {
    const parsed = parseYaml(text);
    if (!parsed.ok) throw new Error('bad yaml');
    const file = new SourceFile(path, text);
    if (path.endsWith('action.yml')) actions.push(buildAction(file, parsed.root as YMap));
    else workflows.push(buildWorkflow(file, parsed.root as YMap));
  }
  return new RepositoryModel(workflows, actions, []);
}

const FACTS = ['reach', 'forkReach', 'runner', 'holdings', 'valuables', 'forkValuables', 'nothingHeld', 'workspace', 'executions', 'steps'] as const;

/** Every fact of a run as plain data (steps by index, so two models of the same files compare equal). */
function facts(run: JobRun, order: readonly (typeof FACTS)[number][]): Record<string, unknown> {
  const read: Record<string, unknown> = {};
  for (const name of order) {
    switch (name) {
      case 'workspace':
        read[name] = run.workspace.map((e) => ({ step: e.step.index, kind: e.kind, dir: e.dir, content: e.content, how: e.how, persists: e.persistsCredentials }));
        break;
      case 'executions':
        read[name] = run.executions.map((t) => ({ step: t.step.index, kind: t.execution.kind, evidence: t.execution.evidence, path: t.execution.path, code: t.code === null ? null : t.code.step.index }));
        break;
      case 'steps':
        read[name] = run.steps.map((s) => `${s.step.owner.file.path}#${s.step.index} <- ${s.caller.index}`);
        break;
      default:
        read[name] = structuredClone(run[name]);
    }
  }
  return read;
}

describe('JobRun: facts read on demand', () => {
  it('gives the same facts whatever order they are read in', () => {
    const first = repository();
    const second = repository();
    for (const [w, workflow] of first.workflows.entries()) {
      for (const [j, job] of workflow.jobs.entries()) {
        const forwards = facts(new RunModel(first).job(job), FACTS);
        const other = second.workflows[w]?.jobs[j];
        if (other === undefined) throw new Error('the two models differ');
        const backwards = facts(new RunModel(second).job(other), [...FACTS].reverse());
        expect(backwards).toEqual(forwards);
      }
    }
  });

  it('tells jobs apart: the facts are not all empty or alike', () => {
    const model = repository();
    const runs = new RunModel(model);
    const [test, lint] = model.workflows[0]?.jobs ?? [];
    if (test === undefined || lint === undefined) throw new Error('missing jobs');
    const a = facts(runs.job(test), FACTS);
    const b = facts(runs.job(lint), FACTS);
    expect(a).not.toEqual(b);
    expect(runs.job(test).executions.length).toBeGreaterThan(runs.job(lint).executions.length);
    expect(runs.job(test).holdings.secrets).toEqual(['NPM_TOKEN']);
    expect(runs.job(lint).holdings.secrets).toEqual([]);
    // The same run object and the same fact objects on every ask.
    expect(runs.job(test)).toBe(runs.job(test));
    expect(runs.job(test).workspace).toBe(runs.job(test).workspace);
  });

  it("reads the runner as the holdings' selfHosted, before or after them: a self-hosted one where a matrix can pick it, none on a GitHub-hosted one", () => {
    const model = repository();
    const runs = new RunModel(model);
    const [test, lint] = model.workflows[0]?.jobs ?? [];
    if (test === undefined || lint === undefined) throw new Error('missing jobs');
    const before = runs.job(test).runner;
    expect(before).not.toBeNull();
    expect(runs.job(test).holdings.selfHosted).toBe(before);
    expect(runs.job(test).runner).toBe(before);
    expect(runs.job(lint).holdings.selfHosted).toBeNull();
    expect(runs.job(lint).runner).toBeNull();
  });
});
