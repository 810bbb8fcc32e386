import { describe, expect, it } from 'vitest';
import {
  builtFileScalars,
  expressionScalarsIn,
  fileScalars,
  occurrencesIn,
  occurrencesInFile,
} from '../../../../lib/engine/analysis/file-scalars.js';
import { expressionSites } from '../../../../lib/engine/analysis/expression-sites.js';
import { secretOccurrences, secretOccurrencesIn } from '../../../../lib/engine/analysis/secrets.js';
import { buildAction, buildWorkflow, type Workflow } from '../../../../lib/engine/model/workflow.js';
import { descendants, stringScalars, type YNode } from '../../../../lib/engine/yaml/model.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';
import { yaml } from '../../../support/engine.js';

function workflowOf(text: string): Workflow {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('fixture does not parse');
  return buildWorkflow(new SourceFile('.github/workflows/x.yml', text), parsed.root);
}

const values = (scalars: readonly { value: unknown }[]) => scalars.map((s) => s.value);

const WORKFLOW = yaml`
  name: ci
  on: push
  env:
    TOKEN: \${{ secrets.GH_PAT }}
    RETRIES: 3
  jobs:
    build:
      runs-on: ubuntu-latest
      if: github.event_name == 'push'
      steps:
        - uses: actions/checkout@v3
        - name: test
          run: echo "\${{ github.ref }} and \${{ matrix.os }}"
        - run: "plain \${{ fromJSON(secrets.CONFIG).key }}"
    skipped:
      if: false
      runs-on: ubuntu-latest
      steps:
        - run: echo \${{ secrets.NEVER }}
`;

describe('fileScalars', () => {
  it('lists the string values holding expressions in file order, keys left out', () => {
    const index = fileScalars(workflowOf(WORKFLOW));
    expect(index.tree).toBe(true);
    expect(values(index.expressionScalars)).toEqual([
      '${{ secrets.GH_PAT }}',
      'echo "${{ github.ref }} and ${{ matrix.os }}"',
      'plain ${{ fromJSON(secrets.CONFIG).key }}',
      'echo ${{ secrets.NEVER }}',
    ]);
    expect(index.occurrences.map((o) => o.span.source)).toEqual(['secrets.GH_PAT', 'github.ref', 'matrix.os', 'fromJSON(secrets.CONFIG).key', 'secrets.NEVER']);
    expect(index.occurrences.every((o) => o.expr !== null)).toBe(true);
  });

  it('is built once per model and registered for its file', () => {
    const workflow = workflowOf(WORKFLOW);
    expect(builtFileScalars(workflow.file)).toBeUndefined();
    const index = fileScalars(workflow);
    expect(fileScalars(workflow)).toBe(index);
    expect(builtFileScalars(workflow.file)).toBe(index);
  });

  it('answers subtree queries like a walk of the subtree', () => {
    const workflow = workflowOf(WORKFLOW);
    for (const node of descendants(workflow.root)) {
      expect(expressionScalarsIn(workflow, node)).toEqual(stringScalars(node).filter((s) => String(s.value).includes('${{')));
    }
    const build = workflow.jobs[0]!;
    expect(occurrencesIn(workflow, build.node).map((o) => o.span.source)).toEqual(['github.ref', 'matrix.os', 'fromJSON(secrets.CONFIG).key']);
    expect(occurrencesIn(workflow, build.steps[0]!.node)).toEqual([]);
    expect(occurrencesIn(workflow, build.steps[1]!.run!).map((o) => o.span.source)).toEqual(['github.ref', 'matrix.os']);
    // The job whose `if:` never holds is not in the model's jobs, but its text is still in the file.
    expect(workflow.jobs.map((j) => j.id)).toEqual(['build']);
    expect(occurrencesIn(workflow, workflow.root).map((o) => o.span.source)).toContain('secrets.NEVER');
  });

  it('treats a file with aliases as a DAG and walks subtrees instead', () => {
    const text = yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          env: &shared
            KEY: \${{ secrets.SHARED }}
          steps:
            - run: echo a
        b:
          runs-on: ubuntu-latest
          env: *shared
          steps:
            - run: echo \${{ secrets.B }}
    `;
    const workflow = workflowOf(text);
    expect(fileScalars(workflow).tree).toBe(false);
    const b = workflow.jobs[1]!;
    // The aliased `env:` of job b lies before b in the file; a range query would miss it.
    expect(occurrencesIn(workflow, b.node).map((o) => o.span.source)).toEqual(['secrets.SHARED', 'secrets.B']);
    expect(values(expressionScalarsIn(workflow, b.node))).toEqual(['${{ secrets.SHARED }}', 'echo ${{ secrets.B }}']);
    expect(secretOccurrencesIn(workflow, b.node).map((s) => s.name)).toEqual(['SHARED', 'B']);
    expect(occurrencesInFile(workflow.file, b.node).map((o) => o.span.source)).toEqual(['secrets.SHARED', 'secrets.B']);
  });

  it('works for composite actions', () => {
    const text = yaml`
      name: act
      inputs:
        token:
          default: \${{ github.token }}
      runs:
        using: composite
        steps:
          - if: inputs.token != ''
            run: echo \${{ inputs.token }}
            shell: bash
    `;
    const parsed = parseYaml(text);
    if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('fixture does not parse');
    const action = buildAction(new SourceFile('act/action.yml', text), parsed.root);
    expect(fileScalars(action).tree).toBe(true);
    expect(occurrencesIn(action, action.root).map((o) => o.span.source)).toEqual(['github.token', 'inputs.token']);
    expect(expressionSites(action).map((s) => `${s.source}${s.condition ? ' (if)' : ''}`)).toEqual(['github.token', "inputs.token != '' (if)", 'inputs.token']);
  });
});

describe('expression sites and secret occurrences from the extraction', () => {
  it('agree with the walk over every node of a tree-shaped file', () => {
    const workflow = workflowOf(WORKFLOW);
    expect(expressionSites(workflow).map((s) => `${s.job?.id ?? '-'} ${s.source}${s.condition ? ' (if)' : ''}`)).toEqual([
      '- secrets.GH_PAT',
      "build github.event_name == 'push' (if)",
      'build github.ref',
      'build matrix.os',
      'build fromJSON(secrets.CONFIG).key',
    ]);
    const nodes: YNode[] = [...descendants(workflow.root)];
    for (const node of nodes) {
      // Before and after the file's extraction is built, the file-only helper gives the same answer.
      expect(secretOccurrences(workflow.file, node)).toEqual(secretOccurrencesIn(workflow, node));
    }
    expect(secretOccurrencesIn(workflow, workflow.root).map((s) => s.name)).toEqual(['GH_PAT', 'CONFIG', 'NEVER']);
  });
});
