import { describe, expect, it } from 'vitest';
import { stepExecutions } from '../../../../../lib/engine/analysis/run-model/execution.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildWorkflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';

/** `kind: evidence @ path` of what a one-step job's `run:` script executes (in `shell` when given). */
function executions(script: string, shell?: string): string[] {
  const head = shell === undefined ? '      - run: |' : `      - shell: ${shell}\n        run: |`;
  const text = `on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n${head}\n${script.split('\n').map((l) => `          ${l}`).join('\n')}\n`;
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('bad fixture');
  const workflow = buildWorkflow(new SourceFile('.github/workflows/ci.yml', text), parsed.root);
  void new RepositoryModel([workflow], [], []);
  const step = workflow.jobs[0]?.steps[0];
  if (step === undefined) throw new Error('no step');
  return stepExecutions(step).map((e) => `${e.kind}: ${e.evidence} @ ${e.path ?? '?'}`);
}

describe('the command a description names for what a step runs', () => {
  it('keeps `-m` of `python -m <module>` and the interpreter as written, and runs the module, not a file named like it', () => {
    expect(executions('python3 -m pytest tests')).toEqual(['project: `python3 -m pytest` @ ']);
    expect(executions('python -u -m pytest')).toEqual(['project: `python -m pytest` @ ']);
    expect(executions('python -m pip install .')).toEqual(['project: `python -m pip` @ ']);
    expect(executions('python3.12 -m pip install -e .')).toEqual(['project: `python3.12 -m pip` @ ']);
    // A registry package, and a tool module that runs nothing of the project (`venv`): not the workspace's code.
    expect(executions('python -m pip install requests')).toEqual(['registry: `python -m pip` @ ?']);
    expect(executions('python3 -m venv ~/env')).toEqual([]);
    // The project with extras a variable adds.
    expect(executions('pip install .$EXTRAS')).toEqual(['project: `pip install` @ ']);
  });

  it('runs a tool from the package index for `uvx` and `uv tool run`, and the workspace only for a tool that loads it as code', () => {
    // uv reads no project configuration for tool commands; ruff's configuration is data.
    expect(executions('uv tool run ruff check --output-format=github')).toEqual(['registry: `uv tool run ruff` @ ?']);
    expect(executions('uvx ruff format --check')).toEqual(['registry: `uvx ruff` @ ?']);
    expect(executions('uvx --from ruff==0.14.1 ruff check')).toEqual(['registry: `uvx ruff` @ ?']);
    expect(executions('uv tool install "ruff==0.14.11"')).toEqual(['registry: `uv tool install ruff==0.14.11` @ ?']);
    // Negative: pre-commit runs the hooks the workspace configures, pytest its conftest.py, in the directory it runs in.
    expect(executions('cd docs\nuvx pre-commit run --all-files')).toEqual(['project: `uvx pre-commit` (which loads its configuration or plugins from the working directory as code) @ docs']);
    expect(executions('uv tool run --with pytest-cov pytest tests')).toEqual(['project: `uv tool run pytest` (which loads its configuration or plugins from the working directory as code) @ ']);
    // `uv run` and `uv sync` still run the project.
    expect(executions('uv run pytest')).toEqual(['project: `uv run` @ ']);
  });

  it('still names a script file an interpreter runs, options before it or not', () => {
    expect(executions('python3 tools/build.py')).toEqual(['file: `python3 tools/build.py` @ tools/build.py']);
    expect(executions('python -u tools/build.py')).toEqual(['file: `python tools/build.py` @ tools/build.py']);
    expect(executions('python -c "import x"')).toEqual([]);
  });

  it("runs no workspace file for a shell given a process substitution: the script a download printed", () => {
    expect(executions('bash <(curl -Ls https://coverage.codacy.com/get.sh) report --coverage-reports cov.xml')).toEqual([]);
    expect(executions('sh <(wget -qO- https://example.com/install.sh)')).toEqual([]);
    // Negative: a script file of the workspace, after the same options, still runs.
    expect(executions('bash -e ./ci/report.sh')).toEqual(['file: `bash ./ci/report.sh` @ ci/report.sh']);
  });

  it('shows an argument that is a GitHub expression whole, not cut at `${{`, within the length bound', () => {
    expect(executions('make ${{ matrix.target }}')).toEqual(['project: `make ${{ matrix.target }}` @ ']);
    expect(executions('make test')).toEqual(['project: `make test` @ ']);
    // The shell's split of `||` ends the command inside the expression: what is left of it, marked as cut.
    expect(executions("make ${{ inputs.target || 'all' }}")).toEqual(['project: `make ${{ inputs.target ... }}` @ ']);
    const long = `make \${{ matrix.${'some-very-long-name-'.repeat(5)}x }}`;
    const shown = executions(long)[0] ?? '';
    expect(shown).toMatch(/^project: `make \$\{\{ matrix\.some-very-long-name.*\.\.\.` @ $/);
    expect(shown.length).toBeLessThan(90);
  });
});

describe('Windows paths, Habitat builds and scripts read from standard input', () => {
  it('reads a PowerShell script path with backslashes, also under ${{ github.workspace }} and after the call operator', () => {
    expect(executions('.\\scripts\\build.ps1 -Release', 'pwsh')).toEqual(['file: `./scripts/build.ps1` @ scripts/build.ps1']);
    expect(executions('& "${{ github.workspace }}\\tools\\setup.ps1"', 'pwsh')).toEqual(['file: `$GITHUB_WORKSPACE/tools/setup.ps1` @ tools/setup.ps1']);
    // In bash a backslash escapes: the same text names no file of the workspace.
    expect(executions('echo a\\b', 'bash')).toEqual([]);
  });

  it('takes `hab pkg build <dir>` as a build of that plan, and other hab commands as none', () => {
    expect(executions('hab pkg build habitat')).toEqual(['project: `hab pkg build` @ habitat']);
    expect(executions('hab pkg build .')).toEqual(['project: `hab pkg build` @ ']);
    expect(executions('hab pkg install core/git')).toEqual([]);
  });

  it('runs no file for `bash -s`, which reads its script from standard input', () => {
    expect(executions('curl -fsSL https://example.com/install.sh | sudo bash -s -- -t aarch64-darwin')).toEqual([]);
    expect(executions('bash ./scripts/install.sh -t aarch64-darwin')).toEqual(['file: `bash ./scripts/install.sh` @ scripts/install.sh']);
  });
});

describe("a formatter that only rewrites source text runs none of the project's code", () => {
  it('`dart format` and `flutter format` run nothing of the workspace; other dart and flutter commands, and `dotnet format`, do', () => {
    expect(executions('dart format .')).toEqual([]);
    expect(executions('flutter format lib')).toEqual([]);
    expect(executions('dart pub get')).toEqual(['project: `dart pub` @ ']);
    expect(executions('flutter test')).toEqual(['project: `flutter test` @ ']);
    expect(executions('dotnet format')).toEqual(['project: `dotnet format` @ ']);
  });
});
