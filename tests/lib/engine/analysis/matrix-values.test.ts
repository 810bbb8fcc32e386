import { describe, expect, it } from 'vitest';
import { expandMatrix } from '../../../../lib/engine/analysis/matrix-values.js';
import { buildWorkflow, type Workflow } from '../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';
import type { YMap } from '../../../../lib/engine/yaml/model.js';

function job(matrix: string) {
  const text = `on: push\njobs:\n  j:\n    runs-on: x\n    strategy:\n      matrix:\n${matrix}\n    steps: [{ run: make }]\n`;
  const parsed = parseYaml(text);
  if (!parsed.ok) throw new Error('bad yaml');
  return (buildWorkflow(new SourceFile('.github/workflows/w.yml', text), parsed.root as YMap) as Workflow).jobs[0] ?? null;
}

describe('expandMatrix', () => {
  it('reads a field of the mappings a matrix key lists, and of its include entries', () => {
    const j = job('        job:\n          - { target: x86_64, os: macos-13 } # a comment\n          - { target: aarch64, os: macos-14 }\n        include:\n          - job: { target: wasm, os: ubuntu-24.04 }');
    expect(expandMatrix(j, '${{ matrix.job.os }}')).toEqual(['macos-13', 'macos-14', 'ubuntu-24.04']);
    expect(expandMatrix(j, 'build-${{ matrix.job.target }}')).toEqual(['build-x86_64', 'build-aarch64', 'build-wasm']);
  });

  it('is unknown when an item lacks the field, is no mapping, or the field is computed', () => {
    expect(expandMatrix(job('        job:\n          - { os: macos-13 }\n          - { target: x }'), '${{ matrix.job.os }}')).toBeNull();
    expect(expandMatrix(job('        job: [macos-13, macos-14]'), '${{ matrix.job.os }}')).toBeNull();
    expect(expandMatrix(job("        job:\n          - { os: '${{ inputs.os }}' }"), '${{ matrix.job.os }}')).toBeNull();
    expect(expandMatrix(job('        os: [a, b]'), '${{ matrix.os }}')).toEqual(['a', 'b']);
  });
});
