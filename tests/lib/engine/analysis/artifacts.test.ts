import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { downloadContent, foreignDownloads, isolatedExecutions, isolatedExtractions, picksOwnWorkflowRuns, runChoice } from '../../../../lib/engine/analysis/artifacts.js';
import { RepositoryModel } from '../../../../lib/engine/model/repository.js';
import { buildWorkflow } from '../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import type { YMap } from '../../../../lib/engine/yaml/model.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';
import { yaml } from '../../../support/engine.js';

/** A workflow that downloads the artifact of the latest successful run its listing names. */
function listing(on: string, list: string, before = '- run: echo start'): RepositoryModel {
  const text = yaml`
    name: Nightly
    on: ${on}
    jobs:
      build:
        runs-on: ubuntu-latest
        steps:
          ${before}
          - env:
              GH_TOKEN: \${{ github.token }}
            run: |
              RUN_ID=$(${list} --status success --limit 1 --json databaseId --jq '.[0].databaseId')
              gh run download "$RUN_ID" -n state -D state
          - uses: actions/upload-artifact@v4
            with:
              name: state
              path: state
  `;
  const parsed = parseYaml(text);
  if (!parsed.ok) throw new Error('bad yaml');
  return new RepositoryModel([buildWorkflow(new SourceFile('.github/workflows/nightly.yml', text), parsed.root as YMap)], [], []);
}

function own(on: string, list: string, before?: string): boolean {
  const repository = listing(on, list, before);
  const job = repository.workflows[0]?.jobs[0];
  const download = job === undefined ? undefined : foreignDownloads(job)[0];
  if (download === undefined) throw new Error('no download');
  return picksOwnWorkflowRuns(download, repository);
}

describe("a workflow that lists its own runs (`--workflow \"${{ github.workflow }}\"`)", () => {
  const trusted = "{ push: { branches: [main] }, schedule: [{ cron: '0 0 * * *' }], workflow_dispatch: {} }";

  it('gets only runs of its own triggers: none a fork starts, so the runs are the repository own', () => {
    expect(own(trusted, 'gh run list --workflow "${{ github.workflow }}"')).toBe(true);
    expect(own(trusted, 'gh run list -w ${{ github.workflow }}')).toBe(true);
    expect(own(trusted, 'gh run list --workflow="$GITHUB_WORKFLOW"')).toBe(true);
    const repository = listing(trusted, 'gh run list --workflow "${{ github.workflow }}"');
    const workflow = repository.workflows[0];
    const download = workflow?.jobs[0] === undefined ? undefined : foreignDownloads(workflow.jobs[0])[0];
    expect(workflow !== undefined && download !== undefined ? downloadContent(download, workflow, repository) : null).toBe('base');
  });

  it('gets only runs of the base repository\'s workflow on privileged triggers too, when no job uploads a pull request\'s code', () => {
    // `issue_comment`, `schedule`, `workflow_dispatch`: every run runs this file on the base repository's code, and the
    // job re-uploads only what its own earlier run uploaded (by induction from its first run, nothing of a fork's).
    for (const on of ['{ issue_comment: { types: [created] }, schedule: [], workflow_dispatch: {} }', '{ issues: {}, push: {} }', 'pull_request_target']) {
      expect(own(on, 'gh run list --workflow "${{ github.workflow }}"'), on).toBe(true);
    }
    // A checkout of the base repository's own refs brings no fork's code.
    expect(own('{ issue_comment: {}, schedule: [] }', 'gh run list --workflow "${{ github.workflow }}"', "- uses: actions/checkout@v3\n            with:\n              ref: ${{ github.event.repository.default_branch }}")).toBe(true);
    const repository = listing('{ issue_comment: { types: [created] }, schedule: [] }', 'gh run list --workflow "${{ github.workflow }}"');
    const workflow = repository.workflows[0];
    const download = workflow?.jobs[0] === undefined ? undefined : foreignDownloads(workflow.jobs[0])[0];
    expect(workflow !== undefined && download !== undefined ? downloadContent(download, workflow, repository) : null).toBe('base');
  });

  it('negative: a workflow that also runs on pull requests, one that uploads after a pull request checkout, or a reusable one (its caller is named)', () => {
    expect(own('[push, pull_request]', 'gh run list --workflow "${{ github.workflow }}"')).toBe(false);
    expect(own('{ pull_request_review: {}, schedule: [] }', 'gh run list --workflow "${{ github.workflow }}"')).toBe(false);
    expect(own('{ workflow_call: {}, push: {} }', 'gh run list --workflow "${{ github.workflow }}"')).toBe(false);
    expect(own(trusted, 'gh run list --workflow "$OTHER_WORKFLOW"')).toBe(false);
    // A privileged workflow that checks out a pull request's head before it uploads: its runs can carry a fork's code.
    for (const before of [
      '- run: gh pr checkout ${{ github.event.issue.number }}',
      '- run: git fetch origin "pull/$PR/head" && git checkout FETCH_HEAD',
      '- uses: actions/checkout@v3\n            with:\n              ref: ${{ github.event.pull_request.head.sha }}',
      '- uses: actions/checkout@v3\n            with:\n              ref: refs/pull/${{ github.event.issue.number }}/head',
    ]) {
      expect(own('{ issue_comment: { types: [created] }, pull_request_target: {} }', 'gh run list --workflow "${{ github.workflow }}"', before), before).toBe(false);
    }
    // The same workflow listing runs by branch: a fork's run of another workflow can be picked.
    const repository = listing('{ issue_comment: { types: [created] }, push: {} }', 'gh run list --branch "$BRANCH"');
    const workflow = repository.workflows[0];
    const download = workflow?.jobs[0] === undefined ? undefined : foreignDownloads(workflow.jobs[0])[0];
    expect(workflow !== undefined && download !== undefined ? downloadContent(download, workflow, repository) : null).toBe('outsider');
  });
});

describe('a run-id whose `&&` / `||` choices are folded on each event the step runs on', () => {
  /** The downloads of a workflow on `workflow_run` and `workflow_dispatch` whose download step sets `run-id` so (through `env:`), with `if:`. */
  function downloads(runId: string, condition = ''): ReturnType<typeof foreignDownloads> {
    const text = yaml`
      on:
        workflow_run:
          workflows: [CI]
          types: [completed]
        workflow_dispatch:
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v5${condition === '' ? '' : `\n              if: ${condition}`}
              env:
                RUN_ID: "${runId}"
              with:
                name: meta
                run-id: \${{ env.RUN_ID }}
    `;
    const parsed = parseYaml(text);
    if (!parsed.ok) throw new Error('bad yaml');
    const job = buildWorkflow(new SourceFile('.github/workflows/follow.yml', text), parsed.root as YMap).jobs[0];
    return job === undefined ? [] : foreignDownloads(job);
  }

  it("is the followed run's on workflow_run when a branch that event takes names it", () => {
    for (const runId of [
      "${{ github.event_name == 'workflow_run' && github.event.workflow_run.id || github.run_id }}",
      "${{ github.event_name != 'workflow_run' && github.run_id || github.event.workflow_run.id }}",
      '${{ github.event.workflow_run.id || github.run_id }}',
      '${{ github.event.workflow_run.id || inputs.run_id }}',
    ]) {
      const [download] = downloads(runId);
      expect(download === undefined ? null : runChoice(download), runId).toBe('triggering');
    }
  });

  it('negative: the run\'s own on every event the step runs on is no other run\'s download', () => {
    for (const [runId, condition] of [
      ["${{ github.event_name == 'workflow_run' && github.run_id || github.event.workflow_run.id }}", ''],
      ["${{ github.event_name == 'push' && github.event.workflow_run.id || github.run_id }}", ''],
      ['${{ github.run_id }}', ''],
      ["${{ github.event_name == 'workflow_run' && github.event.workflow_run.id || github.run_id }}", "github.event_name == 'workflow_dispatch'"],
    ] as const) {
      expect(downloads(runId, condition), `${runId} ${condition}`).toEqual([]);
    }
    // A run the dispatch names is another run's (whoever can dispatch picks it), not the followed one.
    const [picked] = downloads("${{ github.event_name == 'push' && github.event.workflow_run.id || inputs.run_id }}");
    expect(picked === undefined ? null : runChoice(picked)).toBe('chosen');
  });
});

/** The download of a job that fetches an artifact into `path` and then runs `later` (a step of its own). */
function downloadThen(path: string, later: string) {
  const text = yaml`
    on: workflow_run
    jobs:
      e2e:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/download-artifact@v4
            with:
              name: build
              run-id: \${{ github.event.workflow_run.id }}
              github-token: \${{ secrets.GITHUB_TOKEN }}
              path: ${path}
          - run: ${JSON.stringify(later)}
  `;
  const parsed = parseYaml(text);
  if (!parsed.ok) throw new Error('bad yaml');
  const job = buildWorkflow(new SourceFile('.github/workflows/e2e.yml', text), parsed.root as YMap).jobs[0];
  const download = job === undefined ? undefined : foreignDownloads(job)[0];
  if (download === undefined) throw new Error('no download');
  return download;
}

describe('commands after a download kept outside the workspace', () => {
  const ran = (path: string, later: string) => isolatedExecutions(downloadThen(path, later), () => true).map((x) => x.evidence);
  const extracted = (path: string, later: string) => isolatedExtractions(downloadThen(path, later)).map((x) => x.target);

  it('finds a run or an extraction of its files however the path is quoted or escaped', () => {
    expect(ran('/tmp/build', 'bash /tmp/"build"/run.sh')).toEqual(['`bash /tmp/"build"/run.sh`']);
    expect(ran('/tmp/build', "/tmp/b'uil'd/tool --x")).toHaveLength(1);
    expect(ran('/tmp/build', 'source /tmp/bu\\ild/env.sh')).toHaveLength(1);
    expect(ran('${{ runner.temp }}/build', 'bash "$RUNNER_"TEMP/build/run.sh')).toHaveLength(1);
    expect(ran('${{ runner.temp }}/build', 'bash ${{ runner.temp }}/build/run.sh')).toHaveLength(1);
    expect(extracted('/tmp/build', 'tar -xzf /tmp/"build"/build.tgz -C .')).toEqual(['.']);
    expect(extracted('${{ runner.temp }}/build', 'unzip "%RUNNER_TEMP%/build/dist.zip" -d dist')).toEqual(['dist']);
  });

  it('negative: a command that only lists them, another directory, or an archive extracted outside the workspace', () => {
    expect(ran('/tmp/build', 'ls /tmp/build')).toEqual([]);
    expect(ran('/tmp/build', 'bash /tmp/builder/run.sh')).toEqual([]);
    expect(ran('${{ runner.temp }}/build', 'bash "$RUNNER_TEMP/other/run.sh"')).toEqual([]);
    expect(extracted('/tmp/build', 'tar -xzf /tmp/other/build.tgz -C .')).toEqual([]);
    expect(extracted('/tmp/build', 'tar -xzf /tmp/build/build.tgz -C /tmp/out')).toEqual([]);
  });

  it('the cheap test that skips a script never skips one that runs a file from there', () => {
    // A path split into pieces, each written bare, in double or single quotes, or with a backslash before each letter.
    const piece = fc.tuple(fc.stringMatching(/^[a-z0-9._-]{1,6}$/), fc.constantFrom('bare', 'double', 'single', 'escaped'));
    const written = ([text, how]: [string, string]) =>
      how === 'double' ? `"${text}"` : how === 'single' ? `'${text}'` : how === 'escaped' ? text.replace(/./g, (c) => `\\${c}`) : text;
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 4 }), fc.constantFrom('/tmp', '$RUNNER_TEMP', '${RUNNER_TEMP}'), (pieces, root) => {
        const dir = `${root}/${pieces.map(([text]) => text).join('/')}`;
        const script = `bash ${root}/${pieces.map(written).join('/')}/run.sh`;
        return ran(dir.startsWith('/tmp') ? dir : `\${{ runner.temp }}${dir.slice(root.length)}`, script).length === 1;
      }),
      { numRuns: 200 },
    );
  });
});

describe('downloads into the home directory', () => {
  it('are outside the workspace but under ~/work, where GitHub-hosted runners keep the workspace', () => {
    const isolated = (path: string) => downloadThen(path, 'echo done').isolated;
    expect(isolated('~/.gradle/build-scan-data')).toBe(true);
    expect(isolated('$HOME/.cache/scan')).toBe(true);
    expect(isolated('~/work/app/app/dist')).toBe(false);
    expect(isolated('dist')).toBe(false);
  });
});
