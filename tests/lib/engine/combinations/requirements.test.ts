import { describe, expect, it } from 'vitest';
import { findCombinations } from '../../../../lib/engine/combinations/index.js';
import { scanRepository } from '../../../../lib/engine/scan.js';
import { CI_WORKFLOW, PR_WORKFLOW, all, rec } from './support.js';

/*
 * Issue 24 §3: each kind states its requirements and checks them against the run model's facts. One positive
 * and one negative case per requirement; the scan cases check that the rules carry the facts the kinds read.
 */

const ids = (records: Parameters<typeof findCombinations>[0]) => findCombinations(records, all).map((c) => `${c.id} ${c.file}`);
const RELEASE = '.github/workflows/release.yml';

function scanPaths(path: string, lines: string[]) {
  const scan = scanRepository([{ path, text: `${lines.join('\n')}\n` }]);
  return findCombinations(scan.records, all);
}

describe('persistent-supply-chain-foothold', () => {
  const runner = (severity: 'LOW' | 'HIGH' = 'LOW') =>
    rec('self-hosted-runner', { file: CI_WORKFLOW, line: 7, job: 'build', severity, facts: severity === 'HIGH' ? ['exec', 'holds:self-hosted', 'reach:anyone', 'reach:fork-pr'] : ['holds:self-hosted'] });
  const action = (line: number, facts: string[] = ['holds', 'holds:self-hosted', 'owner:third-party']) =>
    rec('unpinned-action', { file: CI_WORKFLOW, line, job: 'build', severity: 'MEDIUM', facts });

  it('needs the mutable code in a job the run model places on a definite self-hosted runner', () => {
    expect(ids([runner(), action(12)])).toEqual([`persistent-supply-chain-foothold ${CI_WORKFLOW}`]);
    // A custom label or group (`selfHosted: possible`): no `holds:self-hosted` on the action's finding.
    expect(ids([runner(), action(12, ['holds', 'owner:third-party'])])).toEqual([]);
  });

  it('takes only someone else\'s action (ownership), not the repository owner\'s', () => {
    expect(ids([runner(), action(12, ['holds', 'holds:self-hosted', 'owner:first-party'])])).toEqual([]);
  });

  it('breaks at the pin when the action is the job\'s one mutable input', () => {
    const [path] = findCombinations([runner(), action(12)], all);
    expect(path?.break_chain_rule).toBe('unpinned-action');
    expect(path?.break_chain).toContain(`${CI_WORKFLOW}:12`);
  });

  it('breaks at the runner when the runner already runs an outsider\'s code (self-hosted-runner with `exec`)', () => {
    const [path] = findCombinations([runner('HIGH'), action(12)], all);
    expect(path?.break_chain_rule).toBe('self-hosted-runner');
    expect(path?.break_chain).toContain('ephemeral');
  });

  it('breaks at the runner when other mutable actions or images of the job remain', () => {
    const image = rec('unpinned-image', { file: CI_WORKFLOW, line: 9, job: 'build', severity: 'MEDIUM' });
    const [path] = findCombinations([runner(), action(12), image], all);
    expect(path?.break_chain_rule).toBe('self-hosted-runner');
    // A mutable action of another job is not one this job's runner takes.
    const other = rec('unpinned-action', { file: CI_WORKFLOW, line: 40, job: 'lint', severity: 'MEDIUM', facts: ['owner:third-party'] });
    expect(findCombinations([runner(), action(12), other], all)[0]?.break_chain_rule).toBe('unpinned-action');
    // A download nothing verifies is another mutable input; a vendor installer (pipe-to-shell LOW) is not.
    const download = rec('download-without-checksum', { file: CI_WORKFLOW, line: 20, job: 'build', severity: 'MEDIUM' });
    expect(findCombinations([runner(), action(12), download], all)[0]?.break_chain_rule).toBe('self-hosted-runner');
    const vendor = rec('pipe-to-shell', { file: CI_WORKFLOW, line: 22, job: 'build', severity: 'LOW' });
    expect(findCombinations([runner(), action(12), vendor], all)[0]?.break_chain_rule).toBe('unpinned-action');
  });

  it('breaks at the runner when the job also builds someone else\'s repository cloned at a branch (`clone:mutable`)', () => {
    const cloned = rec('self-hosted-runner', { file: CI_WORKFLOW, line: 7, job: 'build', facts: ['holds:self-hosted', 'clone:mutable'] });
    expect(findCombinations([cloned, action(12)], all)[0]?.break_chain_rule).toBe('self-hosted-runner');
    expect(findCombinations([cloned, action(12)], all)[0]?.break_chain).toContain('another repository cloned at a branch and built');
    const workflow = (...clone: string[]) => [
      'on: push',
      'permissions: {}',
      'jobs:',
      '  build:',
      '    runs-on: [self-hosted, linux]',
      '    steps:',
      '      - uses: actions/checkout@v3',
      '      - uses: some-org/setup-tool@v2',
      '      - run: |',
      ...clone.map((line) => `          ${line}`),
      '',
    ];
    const breaks = (...clone: string[]) => scanPaths(CI_WORKFLOW, workflow(...clone)).find((c) => c.id === 'persistent-supply-chain-foothold')?.break_chain_rule;
    expect(breaks('git clone https://github.com/example-org/upstream-lib', 'cd upstream-lib', 'pip install .')).toBe('self-hosted-runner');
    // Pinned to a commit, or only the project's own build: the action is the one mutable input.
    expect(breaks('git clone https://github.com/example-org/upstream-lib', 'cd upstream-lib', `git checkout ${'b'.repeat(40)}`, 'pip install .')).toBe('unpinned-action');
    expect(breaks('pip install .')).toBe('unpinned-action');
  });

  it('from a scan: the `self-hosted` label is definite, a custom label alone is not', () => {
    const workflow = (runsOn: string) => [
      'on: push',
      'permissions: {}',
      'jobs:',
      '  build:',
      `    runs-on: ${runsOn}`,
      '    steps:',
      '      - uses: some-org/setup-tool@v2',
      '',
    ];
    expect(scanPaths(CI_WORKFLOW, workflow('[self-hosted, linux]')).map((c) => c.id)).toContain('persistent-supply-chain-foothold');
    expect(scanPaths(CI_WORKFLOW, workflow('gpu-box')).map((c) => c.id)).not.toContain('persistent-supply-chain-foothold');
  });

  it("from a scan: a service container takes the self-hosted machine through the Docker socket, privileges or the workspace", () => {
    const workflow = (definition: string[]) => [
      'on: push',
      'permissions: {}',
      'jobs:',
      '  build:',
      '    runs-on: [self-hosted, linux]',
      '    services:',
      '      builder:',
      '        image: someuser/dind:latest',
      ...definition.map((line) => `        ${line}`),
      '    steps:',
      '      - run: make',
      '',
    ];
    const kinds = (definition: string[]) => scanPaths(CI_WORKFLOW, workflow(definition)).map((c) => c.id);
    expect(kinds(['volumes:', '  - /var/run/docker.sock:/var/run/docker.sock'])).toContain('persistent-supply-chain-foothold');
    expect(kinds(['options: --privileged'])).toContain('persistent-supply-chain-foothold');
    // The workspace stays on a self-hosted machine for the repository's later jobs: what the image leaves in
    // `.git` (a hook, configuration) runs in their git commands.
    expect(kinds(['volumes:', '  - ${{ github.workspace }}:/src'])).toContain('persistent-supply-chain-foothold');
    // Beside the job with nothing of the machine (a named volume): removed with the job, it keeps nothing there.
    expect(kinds(['volumes:', '  - cache:/var/cache'])).not.toContain('persistent-supply-chain-foothold');
  });
});

describe('a runner that may be GitHub-hosted is no machine to keep', () => {
  it('from a scan: self-hosted-runner marks a custom label `runner:possible`, never `holds:self-hosted`', () => {
    const workflow = (runsOn: string) => [
      'on: pull_request',
      'permissions: {}',
      'jobs:',
      '  build:',
      `    runs-on: ${runsOn}`,
      '    steps:',
      '      - uses: actions/checkout@v3',
      '      - run: make test',
      '      - run: curl -fsSL http://get.example.dev/install.sh | sh',
      '',
    ];
    const runnerFacts = (runsOn: string) =>
      scanRepository([{ path: CI_WORKFLOW, text: workflow(runsOn).join('\n') }]).records.filter((r) => r.finding.rule_id === 'self-hosted-runner').map((r) => r.facts ?? []);
    for (const facts of runnerFacts('gpu-box')) expect(facts).not.toContain('holds:self-hosted');
    expect(runnerFacts('[self-hosted, linux]').every((facts) => facts.includes('holds:self-hosted'))).toBe(true);
    expect(scanPaths(CI_WORKFLOW, workflow('gpu-box')).map((c) => c.id)).not.toContain('remote-script-on-runner');
    expect(scanPaths(CI_WORKFLOW, workflow('[self-hosted, linux]')).map((c) => c.id)).toContain('remote-script-on-runner');
  });
});

describe('mutable-action-secret-theft', () => {
  const pat = () => rec('personal-access-token', { file: RELEASE, line: 19, job: 'publish' });
  const action = (facts: string[]) => rec('unpinned-action', { file: RELEASE, line: 17, job: 'publish', severity: 'MEDIUM', facts });

  it('needs a different owner', () => {
    expect(ids([action(['holds', 'holds:secrets', 'owner:third-party', 'secrets:step']), pat()])).toEqual([`mutable-action-secret-theft ${RELEASE}`]);
    expect(ids([action(['holds', 'holds:secrets', 'owner:first-party', 'secrets:step']), pat()])).toEqual([]);
  });

  it('needs the job to hold secrets', () => {
    expect(ids([action(['holds', 'owner:third-party']), pat()])).toEqual([]);
  });

  it('breaks at every third-party action of the job when there are several, else at the one', () => {
    const first = action(['holds:secrets', 'owner:third-party', 'secrets:step']);
    expect(findCombinations([first, pat()], all)[0]?.break_chain).toContain('Pin the action to a full commit SHA');
    const other = rec('unpinned-action', { file: RELEASE, line: 25, job: 'publish', severity: 'MEDIUM', facts: ['holds:secrets', 'owner:third-party', 'secrets:job'] });
    const [path] = findCombinations([first, other, pat()], all);
    expect(path?.break_chain).toContain(`${RELEASE}:17`);
    expect(path?.break_chain).toContain('every other third-party action of the job');
    // A third-party action of another job does not count; nor a GitHub-owned one (LOW).
    const elsewhere = rec('unpinned-action', { file: RELEASE, line: 40, job: 'test', severity: 'MEDIUM', facts: ['owner:third-party'] });
    const github = rec('unpinned-action', { file: RELEASE, line: 12, job: 'publish', severity: 'LOW', facts: ['owner:platform'] });
    expect(findCombinations([first, elsewhere, github, pat()], all)[0]?.break_chain).toContain('Pin the action to a full commit SHA');
  });

  it('counts a third-party action on a tag inside a local composite action the job runs, and not one another job runs', () => {
    const first = action(['holds:secrets', 'owner:third-party', 'secrets:step']);
    const composite = (job: string) => rec('unpinned-action', { file: '.github/actions/setup/action.yml', line: 8, job: null, severity: 'MEDIUM', facts: ['owner:third-party', `job:${RELEASE}#${job}`] });
    expect(findCombinations([first, composite('publish'), pat()], all)[0]?.break_chain).toContain('every other third-party action of the job');
    expect(findCombinations([first, composite('test'), pat()], all)[0]?.break_chain).toContain('Pin the action to a full commit SHA');
    // End to end: the rule names the jobs that run the composite action.
    const files = (setup: string) => [
      {
        path: '.github/workflows/release.yml',
        text: ['on: push', 'permissions: { contents: read }', 'jobs:', '  publish:', '    runs-on: ubuntu-latest', '    env:', '      GH_TOKEN: ${{ secrets.RELEASE_PAT }}', '    steps:', '      - uses: actions/checkout@v3', '      - uses: ./.github/actions/setup', '      - uses: jlumbroso/free-disk-space@main', '      - run: gh release create v1'].join('\n'),
      },
      { path: '.github/actions/setup/action.yml', text: ['name: setup', 'runs:', '  using: composite', '  steps:', `    - uses: ${setup}`].join('\n') },
    ];
    const advice = (setup: string) => findCombinations(scanRepository(files(setup)).records, all).find((c) => c.id === 'mutable-action-secret-theft')?.break_chain ?? '';
    expect(advice('gradle/actions/setup-gradle@v3')).toContain('every other third-party action of the job');
    expect(advice('actions/setup-node@v4')).toContain('Pin the action to a full commit SHA');
  });

  it('says whether the credential reaches the mutable step itself', () => {
    const [direct] = findCombinations([action(['holds:secrets', 'owner:third-party', 'secrets:step']), pat()], all);
    expect(direct?.stages[0]?.description).toContain('Secrets of the job are passed to the action itself');
    const [memory] = findCombinations([action(['holds:secrets', 'owner:third-party', 'secrets:job']), pat()], all);
    expect(memory?.stages[0]?.description).toContain("None of the job's secrets is passed to the action itself, but they are in the runner's memory");
  });
});

describe('unverifiable-release and silent-supply-chain-tampering', () => {
  const provenance = () => rec('missing-provenance', { file: RELEASE, line: 30, job: 'publish' });
  const action = (line: number, facts: string[]) => rec('unpinned-action', { file: RELEASE, line, job: 'publish', severity: 'MEDIUM', facts });

  it('unverifiable-release needs a job that publishes', () => {
    expect(ids([provenance(), action(15, ['holds', 'holds:publish', 'owner:third-party'])])).toEqual([`unverifiable-release ${RELEASE}`]);
    expect(ids([provenance(), action(15, ['holds', 'owner:third-party'])])).toEqual([]);
  });

  it('names the publishing step\'s action, not the first mutable one', () => {
    const setup = action(12, ['holds', 'holds:publish', 'owner:third-party']);
    const publisher = action(25, ['holds', 'holds:publish', 'owner:third-party', 'publisher']);
    const [path] = findCombinations([provenance(), setup, publisher], all);
    expect(path?.components.find((c) => c.rule_id === 'unpinned-action')?.finding.line).toBe(25);
    expect(path?.break_chain).toContain(`${RELEASE}:25`);
    // Without a mutable publishing action, the first mutable one of the job.
    expect(findCombinations([provenance(), setup], all)[0]?.components.find((c) => c.rule_id === 'unpinned-action')?.finding.line).toBe(12);
  });

  it('skips first-party actions', () => {
    expect(ids([provenance(), action(15, ['holds', 'holds:publish', 'owner:first-party'])])).toEqual([]);
  });

  it('silent-supply-chain-tampering needs the download in a job that publishes', () => {
    const mutable = action(12, ['holds', 'holds:publish', 'owner:third-party']);
    const download = (facts: string[]) => rec('download-without-checksum', { file: RELEASE, line: 14, job: 'publish', facts });
    expect(ids([download(['holds', 'holds:publish']), mutable])).toEqual([`silent-supply-chain-tampering ${RELEASE}`]);
    expect(ids([download(['holds']), mutable])).toEqual([]);
    // A first-party action on a tag is no mutable third-party code.
    expect(ids([download(['holds', 'holds:publish']), action(12, ['holds', 'holds:publish', 'owner:first-party'])])).toEqual([]);
    // And it names the publishing action first.
    const publisher = action(25, ['holds', 'holds:publish', 'owner:third-party', 'publisher']);
    const [path] = findCombinations([download(['holds', 'holds:publish']), mutable, publisher], all);
    expect(path?.components.find((c) => c.rule_id === 'unpinned-action')?.finding.line).toBe(25);
  });

  it('silent-supply-chain-tampering breaks at every input of the job when the download is not its one mutable input, listing them', () => {
    const download = (line: number, job = 'publish') => rec('download-without-checksum', { file: RELEASE, line, job, severity: 'MEDIUM', facts: ['holds', 'holds:publish'] });
    const mutable = (line: number) => action(line, ['holds', 'holds:publish', 'owner:third-party']);
    // The download and the one action of the chain in the same job: two inputs, so both are named.
    const [both] = findCombinations([download(14), mutable(12)], all);
    expect(both?.break_chain).toContain(`At ${RELEASE}:14`);
    expect(both?.break_chain).toContain('verifying this download alone leaves the others');
    expect(both?.break_chain).toContain('Here: the unverified download at line 14, the action on a tag or branch at line 12.');
    const [more] = findCombinations([download(14), download(30), mutable(12), rec('unpinned-image', { file: RELEASE, line: 8, job: 'publish', severity: 'MEDIUM' })], all);
    expect(more?.break_chain).toContain('Here: the unverified downloads at lines 14 and 30, the action on a tag or branch at line 12, the image on a tag at line 8.');
    // Past eight inputs only the count.
    const many = findCombinations([...[14, 15, 16, 17, 18, 19, 20, 21].map((l) => download(l)), mutable(12)], all)[0];
    expect(many?.break_chain).toContain('Here the job takes 9 of them.');
    // The download is the job's one mutable input (the chain's other half is a check allowed to fail): verify it.
    const ignored = rec('continue-on-error', { file: RELEASE, line: 20, job: 'publish', severity: 'LOW' });
    const [one] = findCombinations([download(14), ignored], all);
    expect(one?.break_chain).toContain('Verify every download in the step that fetches it');
    expect(one?.break_chain).not.toContain('Here:');
    // A GitHub-owned action on a tag (LOW), or a mutable action of another job, is no other input of this job.
    const platform = rec('unpinned-action', { file: RELEASE, line: 12, job: 'publish', severity: 'LOW', facts: ['holds', 'owner:platform'] });
    const other = rec('unpinned-action', { file: RELEASE, line: 50, job: 'build', severity: 'MEDIUM', facts: ['holds', 'owner:third-party'] });
    expect(findCombinations([download(14), ignored, platform, other], all)[0]?.break_chain).toContain('Verify every download in the step that fetches it');
  });

  it('from a scan: a download in a job whose artifact a publishing job ships feeds the publish (`feeds:publish`)', () => {
    const workflow = (downloaded: string) => [
      'on:',
      '  push:',
      '    tags: ["v*"]',
      'permissions:',
      '  contents: write',
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: |',
      '          curl -sSLO https://example.com/tool/releases/download/v1/tool-linux-amd64.tar.gz',
      '          tar -xzf tool-linux-amd64.tar.gz -C /usr/local/bin',
      '      - run: make dist',
      '      - uses: actions/upload-artifact@v4',
      '        with:',
      '          name: dist',
      '          path: dist/',
      '  publish:',
      '    needs: build',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/download-artifact@v4',
      '        with:',
      `          name: ${downloaded}`,
      '      - run: gh release upload "$GITHUB_REF_NAME" dist/*',
      '',
    ];
    const downloadFacts = (downloaded: string) =>
      scanRepository([{ path: RELEASE, text: workflow(downloaded).join('\n') }]).records.find((r) => r.finding.rule_id === 'download-without-checksum')?.facts;
    expect(downloadFacts('dist')).toContain('feeds:publish');
    // The publishing job takes another artifact (test reports): the build's output is not what ships.
    expect(downloadFacts('coverage')).not.toContain('feeds:publish');
  });

  it('from a scan: the publishing action carries `publisher`, and a job that publishes nothing forms no release path', () => {
    const workflow = (publish: boolean) => [
      'on:',
      '  push:',
      '    tags: ["v*"]',
      'permissions:',
      '  contents: write',
      'jobs:',
      '  release:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v3',
      '      - uses: some-org/setup-tool@v2',
      '      - run: make dist',
      ...(publish ? ['      - uses: softprops/action-gh-release@v2', '        with:', '          files: dist/*'] : ['      - uses: some-org/lint@v1']),
      '',
    ];
    const scan = scanRepository([{ path: RELEASE, text: workflow(true).join('\n') }]);
    const gh = scan.records.find((r) => r.finding.rule_id === 'unpinned-action' && r.finding.description.startsWith('Action `softprops'));
    expect(gh?.facts).toEqual(expect.arrayContaining(['holds:publish', 'owner:third-party', 'publisher']));
    const setup = scan.records.find((r) => r.finding.rule_id === 'unpinned-action' && r.finding.description.startsWith('Action `some-org/setup-tool'));
    expect(setup?.facts).not.toContain('publisher');
    const release = findCombinations(scan.records, all).find((c) => c.id === 'unverifiable-release');
    if (release !== undefined) expect(release.components[0]?.finding.description).toContain('softprops');
    expect(scanPaths(RELEASE, workflow(false)).map((c) => c.id)).not.toContain('unverifiable-release');
  });
});

describe('a grant or a secret joins only what the entry\'s job holds', () => {
  const checkout = (facts: string[]) => rec('untrusted-checkout', { line: 12, job: 'test', facts });

  it('secrets-inherit joins a checkout whose job holds the secrets', () => {
    const inherit = rec('secrets-inherit', { line: 30, job: 'test', severity: 'HIGH' });
    expect(ids([checkout(['exec', 'holds', 'holds:secrets', 'reach:anyone']), inherit])).toEqual([`pwn-request ${PR_WORKFLOW}`]);
    expect(ids([checkout(['exec', 'holds', 'reach:anyone']), inherit])).toEqual([]);
  });

  it('secrets-inherit to a workflow of this repository (INFO) still joins: the job holds every secret', () => {
    const local = rec('secrets-inherit', { line: 30, job: 'test', severity: 'INFO', facts: ['holds:secrets', 'owner:first-party'] });
    expect(ids([checkout(['exec', 'holds', 'holds:secrets', 'reach:anyone']), local])).toEqual([`pwn-request ${PR_WORKFLOW}`]);
    expect(ids([checkout(['exec', 'holds', 'reach:anyone']), local])).toEqual([]);
    // overprovisioned-secrets keeps its LOW floor.
    const overprovisioned = rec('overprovisioned-secrets', { line: 30, job: 'test', severity: 'INFO' });
    expect(ids([rec('github-env-injection', { line: 12, job: 'test', facts: ['exec', 'holds:secrets', 'reach:anyone'] }), overprovisioned])).toEqual([]);
  });

  it('pwn-request takes as amplifier only an injection an outsider brings into the same privileged run', () => {
    const running = checkout(['exec', 'holds', 'holds:token', 'reach:anyone', 'token:default']);
    const permissions = rec('missing-permissions', { line: 1, job: null });
    const outsider = rec('script-injection', { line: 20, job: 'test', facts: ['event:pull_request_target', 'exec', 'reach:anyone'] });
    const forkOnly = rec('script-injection', { line: 20, job: 'test', severity: 'MEDIUM', facts: ['event:pull_request', 'exec', 'reach:fork-pr', 'reach:trusted-author'] });
    const rules = (records: Parameters<typeof findCombinations>[0]) => findCombinations(records, all).find((c) => c.id === 'pwn-request')?.components.map((c) => c.rule_id);
    expect(rules([running, permissions, outsider])).toEqual(['untrusted-checkout', 'missing-permissions', 'script-injection']);
    expect(rules([running, permissions, forkOnly])).toEqual(['untrusted-checkout', 'missing-permissions']);
  });

  it('the settings\' read-write default joins only a job that uses the default token', () => {
    const settings = rec('default-token-write');
    expect(ids([checkout(['exec', 'holds', 'holds:token', 'reach:anyone', 'token:default']), settings])).toEqual([`pwn-request ${PR_WORKFLOW}`]);
    // The job declares its own `permissions:` (e.g. `contents: write`): the settings' default is not what it holds.
    expect(ids([checkout(['exec', 'holds', 'holds:token', 'reach:anyone']), settings])).toEqual([]);
  });

  it('a write grant joins an artifact or GITHUB_ENV entry only where the entry\'s job holds a write scope or OIDC', () => {
    const grant = rec('excessive-permissions', { line: 3, job: null, severity: 'HIGH' });
    const artifact = (facts: string[]) => rec('artifact-poisoning', { line: 15, job: 'comment', facts });
    expect(ids([artifact(['exec', 'holds', 'holds:token', 'reach:anyone']), grant])).toEqual([`artifact-poisoning-chain ${PR_WORKFLOW}`]);
    expect(ids([artifact(['exec', 'holds', 'holds:oidc', 'reach:anyone']), grant])).toEqual([`artifact-poisoning-chain ${PR_WORKFLOW}`]);
    expect(ids([artifact(['exec', 'holds', 'holds:secrets', 'reach:anyone']), grant])).toEqual([]);
    const env = (facts: string[]) => rec('github-env-injection', { line: 21, job: 'label', facts });
    const permissions = rec('missing-permissions', { line: 1, job: null });
    expect(ids([env(['exec', 'holds', 'holds:token', 'reach:anyone', 'token:default']), permissions])).toEqual([`env-injection-hijack ${PR_WORKFLOW}`]);
    expect(ids([env(['exec', 'holds', 'holds:token', 'reach:anyone']), permissions])).toEqual([]);
  });

  it('repository-takeover needs an entry that runs an outsider\'s content with the default token', () => {
    const settings = [rec('default-token-write'), rec('branch-protection-missing')];
    const entry = (facts: string[]) => rec('script-injection', { line: 20, job: 'greet', facts });
    const takeover = (records: Parameters<typeof findCombinations>[0]) => ids(records).filter((id) => id.startsWith('repository-takeover'));
    expect(takeover([entry(['exec', 'holds:token', 'reach:anyone', 'token:default']), ...settings])).toEqual([`repository-takeover ${PR_WORKFLOW}`]);
    expect(takeover([entry(['exec', 'holds:token', 'reach:anyone']), ...settings])).toEqual([]);
    expect(takeover([entry(['exec', 'holds:token', 'reach:collaborator', 'token:default']), ...settings])).toEqual([]);
  });

  it('from a scan: a job with its own read-only `permissions:` takes nothing from the read-write default', () => {
    const scan = scanRepository([
      {
        path: PR_WORKFLOW,
        text: [
          'on: pull_request_target',
          'jobs:',
          '  greet:',
          '    runs-on: ubuntu-latest',
          '    permissions:',
          '      contents: read',
          '    steps:',
          '      - run: echo "${{ github.event.pull_request.title }}"',
          '',
        ].join('\n'),
      },
    ]);
    const injection = scan.records.find((r) => r.finding.rule_id === 'script-injection');
    expect(injection?.facts).not.toContain('token:default');
    expect(findCombinations([...scan.records, rec('default-token-write'), rec('branch-protection-missing')], all).map((c) => c.id)).not.toContain('repository-takeover');
  });
});

describe('compromised-action, agent-prompt-injection-takeover, token-leak-via-artifact', () => {
  it('compromised-action takes a compromise, not a bug an outsider exploits', () => {
    const permissions = rec('missing-permissions', { file: CI_WORKFLOW, line: 1, job: null });
    const advisory = (fact: string) => rec('known-vulnerable-action', { file: CI_WORKFLOW, line: 12, job: 'lint', severity: 'HIGH', facts: [fact] });
    expect(ids([advisory('advisory:compromise'), permissions])).toEqual([`compromised-action ${CI_WORKFLOW}`]);
    expect(ids([advisory('advisory:bug'), permissions])).toEqual([]);
  });

  it('an agent joins only the token or secrets its own job holds', () => {
    const TRIAGE = '.github/workflows/triage.yml';
    const agent = (facts: string[]) => rec('agent-untrusted-input', { file: TRIAGE, line: 14, job: 'triage', severity: 'MEDIUM', facts });
    const inherit = rec('secrets-inherit', { file: TRIAGE, line: 40, job: null, severity: 'HIGH' });
    expect(ids([agent(['holds', 'holds:secrets', 'reach:anyone']), inherit])).toEqual([`agent-prompt-injection-takeover ${TRIAGE}`]);
    expect(ids([agent(['holds', 'holds:token', 'reach:anyone']), inherit])).toEqual([]);
    const settings = rec('default-token-write');
    expect(ids([agent(['holds', 'holds:token', 'reach:anyone', 'token:default']), settings])).toEqual([`agent-prompt-injection-takeover ${TRIAGE}`]);
    expect(ids([agent(['holds', 'reach:anyone']), settings])).toEqual([]);
  });

  it('token-leak-via-artifact: the uploaded token is the job\'s, so the grant must be what the job holds', () => {
    const upload = (facts: string[]) => rec('persisted-credentials', { file: CI_WORKFLOW, line: 9, job: 'build', severity: 'HIGH', facts });
    const permissions = rec('missing-permissions', { file: CI_WORKFLOW, line: 1, job: null, severity: 'MEDIUM' });
    expect(ids([upload(['holds', 'holds:token', 'token:default']), permissions])).toEqual([`token-leak-via-artifact ${CI_WORKFLOW}`]);
    // The job declares its own read-only `permissions:`: a missing workflow-level block gives it nothing.
    expect(ids([upload([]), permissions])).toEqual([]);
  });

  it('from a scan: token-leak-via-artifact forms only where the token is still valid when the artifact can be downloaded', () => {
    const workflow = (upload: string, token = '') => [
      'on: push',
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v3',
      ...(token === '' ? [] : ['        with:', `          token: ${token}`]),
      `      - uses: actions/upload-artifact@${upload}`,
      '        with:',
      '          path: .',
      '          include-hidden-files: true',
      '',
    ];
    const paths = (upload: string, token?: string) => scanPaths(CI_WORKFLOW, workflow(upload, token)).filter((c) => c.id === 'token-leak-via-artifact');
    // upload-artifact v4 serves the artifact during the run, while the job's default token is live.
    const [live] = paths('v4');
    expect(live?.severity).toBe('HIGH');
    expect(live?.components.map((c) => c.rule_id)).toEqual(['persisted-credentials', 'missing-permissions']);
    // v3 serves it only after the run, when the job's token has expired with the job: no path.
    expect(paths('v3')).toEqual([]);
    // A stored secret outlives the job, but it is not the job's token: the job's default grant does not join it.
    const scan = scanRepository([{ path: CI_WORKFLOW, text: workflow('v3', '${{ secrets.RELEASE_PAT }}').join('\n') }]);
    const finding = scan.records.find((r) => r.finding.rule_id === 'persisted-credentials');
    expect(finding?.finding.severity).toBe('HIGH');
    expect(finding?.facts).not.toContain('token:default');
    expect(findCombinations(scan.records, all).map((c) => c.id)).not.toContain('token-leak-via-artifact');
  });
});

describe('bot-confused-deputy', () => {
  it('needs a privileged trigger whose jobs take something of the pull request (dangerous-trigger above LOW)', () => {
    const bot = rec('bot-actor-condition', { line: 18, job: 'hackme', severity: 'HIGH' });
    expect(ids([bot, rec('dangerous-trigger', { line: 11, job: null, severity: 'MEDIUM' })])).toEqual([`bot-confused-deputy ${PR_WORKFLOW}`]);
    expect(ids([bot, rec('dangerous-trigger', { line: 11, job: null, severity: 'LOW' })])).toEqual([]);
  });
});

describe('injected-runner-takeover', () => {
  const runner = rec('self-hosted-runner', { file: CI_WORKFLOW, line: 6, job: 'a', severity: 'LOW' });

  it('needs the entry in a job on a definite self-hosted runner; a fork\'s pull request run counts', () => {
    const forkRun = rec('script-injection', { file: CI_WORKFLOW, line: 14, job: 'a', severity: 'MEDIUM', facts: ['event:pull_request', 'exec', 'holds', 'holds:self-hosted', 'reach:fork-pr', 'reach:trusted-author'] });
    expect(ids([forkRun, runner])).toEqual([`injected-runner-takeover ${CI_WORKFLOW}`]);
    const hosted = rec('script-injection', { file: CI_WORKFLOW, line: 14, job: 'a', severity: 'MEDIUM', facts: ['event:pull_request', 'exec', 'reach:fork-pr', 'reach:trusted-author'] });
    expect(ids([hosted, runner])).toEqual([]);
  });
});

describe('no path on what cannot run, none from a LOW entry', () => {
  it('a finding whose step runs on no occasion (`run:` the empty set) joins no path', () => {
    const grant = rec('excessive-permissions', { line: 3, job: null, severity: 'HIGH' });
    const injection = (run: string) => rec('script-injection', { line: 20, job: 'test', facts: ['exec', 'holds:token', 'reach:anyone', run] });
    expect(ids([injection('run:1'), grant])).toEqual([`injection-token-theft ${PR_WORKFLOW}`]);
    expect(ids([injection('run:0'), grant])).toEqual([]);
    expect(ids([injection('run:00'), grant])).toEqual([]);
  });

  it('a LOW finding of the first group starts no path', () => {
    const permissions = rec('missing-permissions', { file: CI_WORKFLOW, line: 1, job: null });
    expect(ids([rec('typosquat-action', { file: CI_WORKFLOW, line: 12, job: 'lint', severity: 'LOW' }), permissions])).toEqual([]);
    expect(ids([rec('typosquat-action', { file: CI_WORKFLOW, line: 12, job: 'lint' }), permissions])).toEqual([`compromised-action ${CI_WORKFLOW}`]);
    const mutable = rec('unpinned-action', { file: RELEASE, line: 12, job: 'publish', severity: 'MEDIUM' });
    expect(ids([rec('download-without-checksum', { file: RELEASE, line: 14, job: 'publish', severity: 'LOW' }), mutable])).toEqual([]);
  });

  it('from a scan: a look-alike action in a job that cannot run starts no CRITICAL path', () => {
    const workflow = (condition: string) => [
      'on: push',
      'jobs:',
      '  lint:',
      `    if: ${condition}`,
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actionz/checkout@v4',
      '',
    ];
    expect(scanPaths(CI_WORKFLOW, workflow("github.ref == 'refs/heads/main'")).map((c) => `${c.id} ${c.severity}`)).toContain('compromised-action CRITICAL');
    expect(scanPaths(CI_WORKFLOW, workflow("false && github.ref == 'refs/heads/main'")).map((c) => c.id)).not.toContain('compromised-action');
  });

  it('from a scan: a job disabled with `if: false && ...` forms no path', () => {
    const workflow = (condition: string) => [
      'on: issues',
      'jobs:',
      '  greet:',
      `    if: ${condition}`,
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: echo "${{ github.event.issue.title }}"',
      '',
    ];
    expect(scanPaths(PR_WORKFLOW, workflow("github.event.issue.user.login != 'x'")).map((c) => c.id)).toContain('injection-token-theft');
    expect(scanPaths(PR_WORKFLOW, workflow("false && github.event.issue.user.login != 'x'")).map((c) => c.severity)).not.toContain('CRITICAL');
  });
});
