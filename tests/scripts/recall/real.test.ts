import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sample, score } from '../../../scripts/recall/real.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'recall-real-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
async function put(path: string, text: string) {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), text);
}

const INJECTION = 'on: issues\njobs:\n  greet:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "${{ github.event.issue.title }}"\n';

describe('recall on real workflows', () => {
  it('samples only privileged workflows, the same ones for the same seed', async () => {
    await put('a__one/.github/workflows/issues.yml', INJECTION);
    await put('a__one/.github/workflows/ci.yml', 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n');
    await put('b__two/.github/workflows/prt.yml', 'on:\n  pull_request_target:\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n');
    const first = sample(dir, 7, 5);
    expect(first).toEqual(['a__one/.github/workflows/issues.yml', 'b__two/.github/workflows/prt.yml']);
    expect(sample(dir, 7, 1)).toEqual(sample(dir, 7, 1));
  });

  it('samples only the files directly in .github/workflows, which GitHub runs; not a subfolder such as disabled/ (negative)', async () => {
    await put('a__one/.github/workflows/issues.yml', INJECTION);
    await put('a__one/.github/workflows/disabled/old.yml', INJECTION);
    expect(sample(dir, 1, 10)).toEqual(['a__one/.github/workflows/issues.yml']);
  });

  it('skips symbolic links in a repository (a dangling one too) instead of failing', async () => {
    await put('a__one/.github/workflows/issues.yml', INJECTION);
    await symlink(join(dir, 'a__one/.github/missing.md'), join(dir, 'a__one/.github/notes.md'));
    const result = score(dir, [{ file: 'a__one/.github/workflows/issues.yml', line: 6, severity: 'HIGH', kind: 'script-injection' }]);
    expect(result).toMatchObject({ found: 1, total: 1 });
  });

  it('counts a problem as found when the scan reports its rule in the same job, and lists the misses', async () => {
    await put('a__one/.github/workflows/issues.yml', INJECTION);
    const result = score(dir, [
      { file: 'a__one/.github/workflows/issues.yml', line: 6, severity: 'HIGH', kind: 'script-injection' },
      { file: 'a__one/.github/workflows/issues.yml', line: 6, severity: 'MEDIUM', kind: 'artifact-poisoning', note: 'invented' },
    ]);
    expect(result).toMatchObject({ found: 1, total: 2, foundHigh: 1, high: 1 });
    expect(result.misses).toEqual(['MEDIUM artifact-poisoning a__one/.github/workflows/issues.yml:6 (invented)']);
  });

  it('reads the severity of the matching finding nearest the problem\'s line (two unpinned actions in one job)', async () => {
    const job = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: write\n    steps:\n      - uses: actions/checkout@v4\n      - uses: some-vendor/release-action@v1\n';
    await put('a__one/.github/workflows/rel.yml', job);
    const result = score(dir, [{ file: 'a__one/.github/workflows/rel.yml', line: 9, severity: 'MEDIUM', kind: 'unpinned-action' }]);
    expect(result).toMatchObject({ found: 1, sameSeverity: 1 });
    // Negative: at the first step's line the nearest is GitHub's own action, LOW.
    expect(score(dir, [{ file: 'a__one/.github/workflows/rel.yml', line: 8, severity: 'MEDIUM', kind: 'unpinned-action' }])).toMatchObject({ found: 1, sameSeverity: 0 });
  });

  it('credits a problem listed at a local action call to the action file, and counts severity agreement', async () => {
    // The job holds a write token, so the engine rates the unchecked download MEDIUM (what it holds decides).
    const call = 'on: issues\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: write\n    steps:\n      - name: Install\n        uses: ./.github/actions/get\n';
    const action = 'name: get\ndescription: get\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: |\n        curl -fsSL https://x.test/releases/tool-linux -o tool\n        sudo install -m 0755 tool /usr/local/bin/tool\n';
    await put('a__one/.github/workflows/call.yml', call);
    await put('a__one/.github/actions/get/action.yml', action);
    await put('a__one/.github/workflows/other.yml', call.replace('./.github/actions/get', 'actions/checkout@v4'));
    const result = score(dir, [
      { file: 'a__one/.github/workflows/call.yml', line: 8, severity: 'LOW', kind: 'download-without-checksum' },
      // The same problem at a step that calls no local action is not credited.
      { file: 'a__one/.github/workflows/other.yml', line: 8, severity: 'LOW', kind: 'download-without-checksum' },
    ]);
    expect(result).toMatchObject({ found: 1, total: 2, sameSeverity: 0 });
    // The repository's root action, `uses: ./`.
    await put('a__one/action.yml', action);
    await put('a__one/.github/workflows/root.yml', call.replace('./.github/actions/get', './'));
    expect(score(dir, [{ file: 'a__one/.github/workflows/root.yml', line: 8, severity: 'MEDIUM', kind: 'download-without-checksum' }])).toMatchObject({ found: 1, sameSeverity: 1 });
    // The repository's own action by name at a ref (`a/one@main` inside a__one), not another repository's.
    await put('a__one/.github/workflows/self.yml', call.replace('./.github/actions/get', 'a/one@main'));
    await put('a__one/.github/workflows/theirs.yml', call.replace('./.github/actions/get', 'b/one@main'));
    expect(score(dir, [
      { file: 'a__one/.github/workflows/self.yml', line: 8, severity: 'MEDIUM', kind: 'download-without-checksum' },
      { file: 'a__one/.github/workflows/theirs.yml', line: 8, severity: 'MEDIUM', kind: 'download-without-checksum' },
    ])).toMatchObject({ found: 1, total: 2 });
    expect(result.rated).toEqual(['LOW -> MEDIUM download-without-checksum a__one/.github/workflows/call.yml:8']);
  });

  it('credits a problem listed at a call to an action that calls another of the repository\'s own actions to the inner action\'s file', async () => {
    const call = 'on: issues\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: write\n    steps:\n      - name: Install\n        uses: a/one/outer@main\n';
    const outer = (inner: string) => `name: outer\ndescription: outer\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: echo setting up\n    - uses: ${inner}\n`;
    const inner = 'name: inner\ndescription: inner\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: |\n        curl -fsSL https://x.test/releases/tool-linux -o tool\n        sudo install -m 0755 tool /usr/local/bin/tool\n';
    await put('a__one/.github/workflows/call.yml', call);
    await put('a__one/outer/action.yml', outer('a/one/inner@main'));
    await put('a__one/inner/action.yml', inner);
    const problem = { file: 'a__one/.github/workflows/call.yml', line: 8, severity: 'LOW' as const, kind: 'download-without-checksum' };
    expect(score(dir, [problem])).toMatchObject({ found: 1 });
    // The outer action calls another repository's action of the same path: nothing of this repository's is credited.
    await put('a__one/outer/action.yml', outer('b/one/inner@main'));
    expect(score(dir, [problem])).toMatchObject({ found: 0 });
  });

  it('credits a problem listed at a reusable workflow call to the called workflow\'s file and to the actions it calls', async () => {
    const caller = 'on:\n  workflow_run:\n    workflows: [CI]\n    types: [completed]\npermissions:\n  contents: write\njobs:\n  build:\n    uses: ./.github/workflows/build.yml\n';
    const build = (step: string) => `on:\n  workflow_call:\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n${step}`;
    const fetch = '      - run: |\n          curl -fsSL https://x.test/releases/tool-linux -o tool\n          sudo install -m 0755 tool /usr/local/bin/tool\n';
    const action = 'name: get\ndescription: get\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: |\n        curl -fsSL https://x.test/releases/tool-linux -o tool\n        sudo install -m 0755 tool /usr/local/bin/tool\n';
    await put('a__one/.github/workflows/caller.yml', caller);
    await put('a__one/.github/workflows/build.yml', build(fetch));
    const problem = { file: 'a__one/.github/workflows/caller.yml', line: 9, severity: 'LOW' as const, kind: 'download-without-checksum' };
    expect(score(dir, [problem])).toMatchObject({ found: 1 });
    // One level further: the called workflow runs a local action that downloads.
    await put('a__one/.github/workflows/build.yml', build('      - uses: ./.github/actions/get\n'));
    await put('a__one/.github/actions/get/action.yml', action);
    expect(score(dir, [problem])).toMatchObject({ found: 1 });
    // GitHub's self-repository form (`$/path`) names the same file as `./path`.
    await put('a__one/.github/workflows/caller.yml', caller.replace('./.github', '$/.github'));
    expect(score(dir, [problem])).toMatchObject({ found: 1 });
    // A called workflow that downloads nothing credits nothing.
    await put('a__one/.github/workflows/build.yml', build('      - run: echo hi\n'));
    expect(score(dir, [problem])).toMatchObject({ found: 0 });
  });

  it('credits a problem listed at a dispatching job to the workflow it dispatches, as the engine reads dispatches', async () => {
    // A maintainer's `/ok-to-test` comment dispatches the end-to-end workflow, which checks out the pull request and builds it.
    const comment = (step: string) => `on:\n  issue_comment:\n    types: [created]\npermissions:\n  pull-requests: write\njobs:\n  dispatch:\n    if: github.event.issue.pull_request\n    runs-on: ubuntu-latest\n    steps:\n${step}`;
    const slash = '      - uses: peter-evans/slash-command-dispatch@v4\n        with:\n          token: ${{ secrets.BOT_TOKEN }}\n          commands: ok-to-test\n          issue-type: pull-request\n';
    const e2e = (steps: string) => `on:\n  repository_dispatch:\n    types: [ok-to-test-command]\njobs:\n  e2e:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;
    const build = '      - uses: actions/checkout@v4\n        with:\n          ref: refs/pull/${{ github.event.client_payload.pull_request.number }}/merge\n      - run: make e2e\n        env:\n          CLOUD_KEY: ${{ secrets.CLOUD_KEY }}\n';
    await put('a__one/.github/workflows/ok-to-test.yml', comment(slash));
    await put('a__one/.github/workflows/e2e.yml', e2e(build));
    const problem = { file: 'a__one/.github/workflows/ok-to-test.yml', line: 11, severity: 'MEDIUM' as const, kind: 'untrusted-checkout' };
    expect(score(dir, [problem])).toMatchObject({ found: 1 });
    // A dispatched workflow that checks out nothing of the pull request credits nothing.
    await put('a__one/.github/workflows/e2e.yml', e2e('      - run: echo "${{ github.event.client_payload.pull_request.number }}"\n'));
    expect(score(dir, [problem])).toMatchObject({ found: 0 });
    // Nor does a job that dispatches nothing, next to the same end-to-end workflow.
    await put('a__one/.github/workflows/e2e.yml', e2e(build));
    await put('a__one/.github/workflows/ok-to-test.yml', comment('      - run: gh pr comment "$PR" --body ok\n        env:\n          PR: ${{ github.event.issue.number }}\n'));
    expect(score(dir, [problem])).toMatchObject({ found: 0 });
  });

  it('scans each folder knowing the repository name its folder gives (`owner__name`), as the CLI does from a clone\'s origin', async () => {
    const call = 'on:\n  issues:\n    types: [opened]\npermissions:\n  contents: write\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: a/one/bot@main\n        with:\n          token: ${{ secrets.BOT_PAT }}\n          openai_api_key: ${{ secrets.OPENAI_API_KEY }}\n';
    const action = 'name: bot\ndescription: bot\ninputs:\n  token: {}\n  openai_api_key: {}\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      env:\n        OPENAI_API_KEY: ${{ inputs.openai_api_key }}\n        GITHUB_TOKEN: ${{ inputs.token }}\n      run: bot-first-answer\n';
    const problem = (repo: string) => ({ file: `${repo}/.github/workflows/answer.yml`, line: 10, severity: 'MEDIUM' as const, kind: 'agent-untrusted-input' });
    for (const repo of ['a__one', 'plain']) {
      await put(`${repo}/.github/workflows/answer.yml`, call);
      await put(`${repo}/bot/action.yml`, action);
    }
    // Only where the folder names the repository is `a/one/bot@main` its own action, followed like `./bot`.
    expect(score(dir, [problem('a__one')])).toMatchObject({ found: 1 });
    expect(score(dir, [problem('plain')])).toMatchObject({ found: 0 });
  });

  it('credits a workflow-level problem (on the `on:` line or line 1) to a finding about the whole file or a whole job, not to one inside a step', async () => {
    // A privileged workflow with no `permissions:` block whose `on:` is long: the jobs start far below line 1.
    const on = 'name: triage\non:\n  issues:\n    types: [opened, edited, reopened, labeled]\n  issue_comment:\n    types: [created]\n  pull_request_target:\n    types: [opened]\nconcurrency:\n  group: triage\n';
    const step = '    runs-on: ubuntu-latest\n    steps:\n      - run: gh issue edit "$N" --add-label triage\n        env:\n          GH_TOKEN: ${{ github.token }}\n          N: ${{ github.event.issue.number }}\n';
    await put('a__one/.github/workflows/one.yml', `${on}jobs:\n  label:\n${step}`);
    await put('a__one/.github/workflows/two.yml', `${on}jobs:\n  label:\n${step}  greet:\n${step}`);
    await put('a__one/.github/workflows/inject.yml', `${on}permissions: {}\njobs:\n  echo:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo "\${{ github.event.issue.title }}"\n`);
    const result = score(dir, [
      { file: 'a__one/.github/workflows/one.yml', line: 2, severity: 'LOW', kind: 'missing-permissions' },
      { file: 'a__one/.github/workflows/two.yml', line: 1, severity: 'LOW', kind: 'missing-permissions' },
      // Not reported in the file at all.
      { file: 'a__one/.github/workflows/inject.yml', line: 2, severity: 'LOW', kind: 'missing-permissions' },
      // Reported, but inside a step far from the line: a step-level finding is not the workflow's.
      { file: 'a__one/.github/workflows/inject.yml', line: 1, severity: 'HIGH', kind: 'script-injection' },
    ]);
    expect(result).toMatchObject({ found: 2, total: 4 });
    expect(result.misses.map((m) => m.split(' ').slice(1, 3).join(' '))).toEqual(['missing-permissions a__one/.github/workflows/inject.yml:2', 'script-injection a__one/.github/workflows/inject.yml:1']);
  });
});
