import { describe, expect, it } from 'vitest';
import { buildAction, buildWorkflow, type Action, type Workflow } from '../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';

function workflow(text: string): Workflow {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('not a mapping');
  return buildWorkflow(new SourceFile('.github/workflows/ci.yml', text), parsed.root);
}

function action(text: string): Action {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('not a mapping');
  return buildAction(new SourceFile('.github/actions/setup/action.yml', text), parsed.root);
}

const STEPS = `on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - id: checkout
        name: Check out
        uses: actions/checkout@v4
        with: { persist-credentials: false }
        env: { A: "1" }
        if: github.event_name == 'push'
      - run: make
        shell: bash
      - uses: [not, a, scalar]
        run: { not: a scalar }
        with: not-a-map
        env: [not, a, map]
        name: { not: text }
      - if: false
        run: echo never
      - if: \${{ false }}
        run: echo never either
      - plain scalar step
      - name: 42
        id: true
`;

describe('buildSteps (through buildWorkflow)', () => {
  const steps = workflow(STEPS).jobs[0]!.steps;

  it('reads each step key, keeping the position of the step in its job', () => {
    expect(steps.map((s) => s.index)).toEqual([0, 1, 2, 6]);
    const [first, second] = steps;
    expect(first).toMatchObject({ id: 'checkout', name: 'Check out', shell: null });
    expect(first!.uses?.value).toBe('actions/checkout@v4');
    expect(first!.usesRef).toEqual({ kind: 'repository', owner: 'actions', repo: 'checkout', path: '', ref: 'v4', isWorkflow: false, slug: 'actions/checkout' });
    expect(first!.with?.pairs.map((p) => p.key.value)).toEqual(['persist-credentials']);
    expect(first!.env?.pairs.map((p) => p.key.value)).toEqual(['A']);
    expect(first!.if?.kind).toBe('scalar');
    expect(first!.run).toBeUndefined();
    expect(second).toMatchObject({ id: null, name: null, shell: 'bash', uses: undefined, usesRef: undefined, with: undefined, env: undefined, if: undefined });
    expect(second!.run?.value).toBe('make');
  });

  it('leaves out values of the wrong kind rather than guessing', () => {
    const odd = steps[2]!;
    expect(odd).toMatchObject({ uses: undefined, usesRef: undefined, run: undefined, with: undefined, env: undefined, name: null });
  });

  it('drops steps whose if: never holds, and items that are not mappings', () => {
    expect(steps.some((s) => s.run?.value === 'echo never' || s.run?.value === 'echo never either')).toBe(false);
    expect(steps).toHaveLength(4);
  });

  it('gives scalar keys of other types as text', () => {
    expect(steps[3]).toMatchObject({ name: '42', id: 'true' });
  });

  it('links each step to its job and owner', () => {
    const wf = workflow(STEPS);
    for (const step of wf.jobs[0]!.steps) {
      expect(step.job).toBe(wf.jobs[0]);
      expect(step.owner).toBe(wf);
    }
  });

  it('builds the steps of a composite action with no job', () => {
    const composite = action(`name: setup
runs:
  using: composite
  steps:
    - run: echo hi
      shell: bash
    - uses: ./other
`);
    expect(composite.steps.map((s) => [s.index, s.job, s.owner === composite, s.shell, s.usesRef?.kind ?? null])).toEqual([
      [0, null, true, 'bash', null],
      [1, null, true, null, 'local'],
    ]);
  });
});
