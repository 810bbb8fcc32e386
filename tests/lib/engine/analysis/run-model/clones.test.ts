import { describe, expect, it } from 'vitest';
import { RunModel } from '../../../../../lib/engine/analysis/run-model/index.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildWorkflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { yaml } from '../../../../support/engine.js';

function job(text: string, repository: string | null = null) {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('bad fixture');
  const workflow = buildWorkflow(new SourceFile('.github/workflows/ci.yml', text), parsed.root);
  const runs = new RunModel(new RepositoryModel([workflow], [], []), { repository });
  const found = workflow.jobs[0];
  if (found === undefined) throw new Error('no job');
  return { runs, run: runs.job(found) };
}

/** `step name: what it runs <- the entry (kind, dir, content) that holds it`, for every execution. */
function traced(text: string, repository: string | null = null): string[] {
  const { run } = job(text, repository);
  return run.executions.map((t) => `${t.step.name ?? ''}: ${t.execution.evidence} <- ${t.code === null ? 'nothing' : `${t.code.kind} ${t.code.dir ?? '?'} ${t.code.content}`}`);
}

describe('git clone in a script: the directory holds the cloned repository\'s code', () => {
  it('traces a build in the clone\'s directory to the clone, not to the checkout of the pull request', () => {
    expect(traced(yaml`
      on: pull_request
      jobs:
        t:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - name: upstream
              run: |
                git clone https://github.com/example-org/upstream-lib
                cd upstream-lib
                python -m pip install .
            - name: named
              run: |
                git clone -b $BRANCH --depth=1 https://github.com/example-org/other.git deps/other
                cd deps/other && make
            - name: gh
              run: gh repo clone example-org/tool -- --depth 1 && cd tool && npm ci
            - name: later
              working-directory: upstream-lib
              run: pytest
            - name: project
              run: pip install .[dev]
    `)).toEqual([
      'upstream: `python -m pip` <- clone upstream-lib other',
      'named: `make` <- clone deps/other other',
      'gh: `npm ci` <- clone tool other',
      'later: `pytest` <- clone upstream-lib other',
      'project: `pip install` <- checkout  base',
    ]);
  });

  it('leaves a clone it cannot read to what held the directory before: a computed URL, a fetch of a pull request ref', () => {
    expect(traced(yaml`
      on: pull_request
      jobs:
        t:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - name: computed
              run: |
                git clone "$UPSTREAM_URL" upstream
                cd upstream && make
            - name: pr
              run: |
                git clone https://github.com/example-org/mirror mirror
                cd mirror
                git fetch origin pull/$PR/head && git checkout FETCH_HEAD
                make
    `)).toEqual([
      'computed: `make` <- checkout  base',
      'pr: `make` <- checkout  base',
    ]);
  });

  it('counts as a mutable input only someone else\'s repository at a branch or tag that a step builds', () => {
    const clones = (script: string, repository: string | null = null) => {
      const text = ['on: push', 'jobs:', '  t:', '    runs-on: [self-hosted, linux]', '    steps:', '      - uses: actions/checkout@v3', '      - run: |', ...script.split('\n').map((l) => `          ${l}`), ''].join('\n');
      const { runs, run } = job(text, repository);
      return runs.mutableClones(run).map((c) => c.entry.clone?.url);
    };
    expect(clones('git clone https://github.com/example-org/lib\ncd lib\nmake')).toEqual(['https://github.com/example-org/lib']);
    expect(clones('git clone -b v1.2.3 https://github.com/example-org/lib\ncd lib\nmake')).toEqual(['https://github.com/example-org/lib']);
    // Checked out at a full commit SHA: fixed code.
    expect(clones(`git clone https://github.com/example-org/lib\ncd lib\ngit checkout ${'a'.repeat(40)}\nmake`)).toEqual([]);
    // An abbreviated hash (7 to 40 hex digits) in the clone's directory pins it too, on one line or several.
    expect(clones('git clone https://github.com/example-org/lib && cd lib && git checkout 6c3f168b3\npip install .')).toEqual([]);
    expect(clones('git clone https://github.com/example-org/lib\ngit -C lib checkout e7e9261a2\ncd lib && make')).toEqual([]);
    // Not a hash: a tag, a branch, a number too short or only decimal digits (a version or date), a hash commented out,
    // or a checkout in another directory.
    expect(clones('git clone https://github.com/example-org/lib\ncd lib\ngit checkout v4.42.4\nmake')).toEqual(['https://github.com/example-org/lib']);
    expect(clones('git clone https://github.com/example-org/lib\ncd lib\ngit checkout abc12\nmake')).toEqual(['https://github.com/example-org/lib']);
    expect(clones('git clone https://github.com/example-org/lib\ncd lib\ngit checkout 20240101\nmake')).toEqual(['https://github.com/example-org/lib']);
    expect(clones('git clone https://github.com/example-org/lib\ncd lib\n# git checkout 6c3f168b3\nmake')).toEqual(['https://github.com/example-org/lib']);
    expect(clones('git clone https://github.com/example-org/lib\ngit clone https://github.com/example-org/other\ncd other && git checkout 6c3f168b3\ncd ../lib && make')).toEqual(['https://github.com/example-org/lib']);
    // Cloned, never built.
    expect(clones('git clone https://github.com/example-org/lib\nls lib')).toEqual([]);
    // The repository's own owner, or GitHub.
    expect(clones('git clone https://github.com/my-org/tools\ncd tools\nmake', 'my-org/app')).toEqual([]);
    expect(clones('git clone https://github.com/actions/runner-images\ncd runner-images\nmake')).toEqual([]);
  });
});
