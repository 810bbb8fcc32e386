import { describe, expect, it } from 'vitest';
import { RunModel } from '../../../../../lib/engine/analysis/run-model/index.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildWorkflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';

/** `step name: what it runs <- the entry (kind, dir, content) that holds it`, for every execution of the first job. */
function traced(text: string): string[] {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('bad fixture');
  const workflow = buildWorkflow(new SourceFile('.github/workflows/ci.yml', text), parsed.root);
  const runs = new RunModel(new RepositoryModel([workflow], [], []), { repository: null });
  const found = workflow.jobs[0];
  if (found === undefined) throw new Error('no job');
  return runs.job(found).executions.map((t) => `${t.step.name ?? ''}: ${t.execution.evidence} <- ${t.code === null ? 'nothing' : `${t.code.kind} ${t.code.dir ?? '?'} ${t.code.content}`}`);
}

const checkout = `
      on: pull_request_target
      jobs:
        t:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}`;

describe('a virtual environment the job creates: its activate script is the tool\'s, not the checkout\'s', () => {
  it('drops `source .venv/bin/activate` after `uv venv` in an earlier step, and keeps the install of the project', () => {
    expect(traced(`${checkout}
            - name: venv
              run: uv venv
            - name: install
              run: |
                source .venv/bin/activate
                uv pip install .
    `)).toEqual(['install: `uv pip` <- checkout  outsider']);
  });

  it('drops it after a creation earlier in the same script, and places `../.venv` from the step\'s directory', () => {
    expect(traced(`${checkout}
            - name: same
              run: |
                python3 -m venv --prompt ci env
                . env/bin/activate
                pip install -e .
            - name: virtualenv
              run: |
                cd tools && virtualenv -p python3 venv
                source venv/Scripts/activate
            - name: up
              working-directory: ./src
              run: |
                source ../.venv/bin/activate
                pytest
            - name: mk
              run: uv venv
    `)).toEqual([
      'same: `pip install` <- checkout  outsider',
      'up: `source ../.venv/bin/activate` <- checkout  outsider',
      'up: `pytest` <- checkout  outsider',
    ]);
  });

  it('drops `source ../.venv/bin/activate` in a subdirectory after `uv venv` at the workspace root', () => {
    expect(traced(`${checkout}
            - name: mk
              run: pip install uv && uv venv
            - name: up
              working-directory: ./src
              run: |
                source ../.venv/bin/activate
                pytest
    `)).toEqual(['mk: `pip install` <- nothing', 'up: `pytest` <- checkout  outsider']);
  });

  it('keeps an activate script no step created: one the checkout holds is the pull request\'s code', () => {
    expect(traced(`${checkout}
            - name: install
              run: |
                source .venv/bin/activate
                make test
    `)).toEqual(['install: `source .venv/bin/activate` <- checkout  outsider', 'install: `make test` <- checkout  outsider']);
  });

  it('keeps it when the environment was created in another directory, or after it is sourced', () => {
    expect(traced(`${checkout}
            - name: other
              run: python -m venv build-env
            - name: wrong
              run: source .venv/bin/activate
            - name: late
              run: |
                source env/bin/activate
                uv venv env
    `)).toEqual(['wrong: `source .venv/bin/activate` <- checkout  outsider', 'late: `source env/bin/activate` <- checkout  outsider']);
  });

  it('keeps it when the creating step never runs with the one that sources it', () => {
    expect(traced(`${checkout}
            - name: win
              if: runner.os == 'Windows'
              run: uv venv
            - name: linux
              if: runner.os != 'Windows'
              run: source .venv/bin/activate
    `)).toEqual(['linux: `source .venv/bin/activate` <- checkout  outsider']);
  });

  it('reads a job of thousands of creations and activations in linear time', () => {
    const steps = Array.from({ length: 3000 }, (_, i) => `            - name: s${i}\n              run: |\n                uv venv v${i % 50}\n                source v${(i + 1) % 50}/bin/activate\n`).join('');
    const started = performance.now();
    const found = traced(`${checkout}\n${steps}`);
    expect(found.length).toBe(49);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('pip install of a direct reference to a directory of the workspace', () => {
  it('runs the project there (`"pkg[test] @ ."`), not a registry package; a reference to a URL stays the registry\'s', () => {
    expect(traced(`${checkout}
            - name: mk
              run: uv venv
            - name: local
              run: uv pip install "pkg[testing] @ ."
            - name: sub
              run: pip install 'tool@ ./tools/x'
            - name: remote
              run: pip install "pkg @ git+https://example.com/org/pkg.git"
    `)).toEqual(['local: `uv pip` <- checkout  outsider', 'sub: `pip install` <- checkout  outsider', 'remote: `pip install` <- nothing']);
  });
});
