import { describe, expect, it } from 'vitest';
import { inRange, parseRefVersion } from '../../../../lib/engine/analysis/action-version.js';
import { ACTION_ADVISORIES } from '../../../../lib/engine/data/advisories.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'known-vulnerable-action';

function job(...uses: string[]): string {
  return ['on: push', 'jobs:', '  build:', '    runs-on: ubuntu-latest', '    steps:', ...uses.map((u) => `      - uses: ${u}`), ''].join('\n');
}

describe(RULE, () => {
  it('treats a floating tag as the newest release of its line', () => {
    const v4 = parseRefVersion('v4');
    const v412 = parseRefVersion('v4.1.2');
    expect(v4?.floating).toBe(true);
    expect(v412?.floating).toBe(false);
    expect(v4 !== null && inRange(v4, '4.0.0', '4.1.3')).toBe(false);
    expect(v412 !== null && inRange(v412, '4.0.0', '4.1.3')).toBe(true);
    const v45 = parseRefVersion('v45');
    expect(v45 !== null && inRange(v45, '0', '46.0.1')).toBe(true);
    expect(parseRefVersion('main')).toBeNull();
  });

  it('ships advisories as data: GHSA id, package, ranges, source, date, fixed version', () => {
    expect(ACTION_ADVISORIES.length).toBeGreaterThanOrEqual(27);
    for (const a of ACTION_ADVISORIES) {
      expect(a.id).toMatch(/^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/);
      expect(a.action).toBe(a.action.toLowerCase());
      expect(a.action).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(a.summary.length).toBeGreaterThan(20);
      expect(a.source).toMatch(/GitHub Advisory Database|advisory/i);
      if (a.published !== null) expect(a.published).toMatch(/^20\d\d-\d\d-\d\d$/);
      expect(a.ranges.length + (a.versions?.length ?? 0) + (a.commits?.length ?? 0)).toBeGreaterThan(0);
      expect(a.upgrade).not.toBe('');
    }
    // No advisory twice.
    expect(new Set(ACTION_ADVISORIES.map((a) => `${a.id} ${a.action}`)).size).toBe(ACTION_ADVISORIES.length);
  });

  it('knows the advisories of poutine\'s list (kartverket run-terraform, azure/setup-kubectl, ultralytics/actions ...)', () => {
    const findings = scanWith(RULE, job('azure/setup-kubectl@v2', 'ultralytics/actions@v0.0.2', 'embano1/wip@v1', 'fish-shop/syntax-check@v1.6.11', 'j178/prek-action@v1.0.5'));
    expect(findings.map((f) => /GHSA-[\w-]+/.exec(f.description)?.[0])).toEqual([
      'GHSA-p756-rfxh-x63h',
      'GHSA-7x29-qqmq-v6qc',
      'GHSA-rg3q-prf8-qxmp',
      'GHSA-xj87-mqvh-88w2',
      'GHSA-pwf7-47c3-mfhx',
    ]);
    // On `push` no outsider's pull request text reaches ultralytics', embano1's or prek's injection: LOW, upgrade anyway;
    // setup-kubectl's world-writable binary needs another tenant of the machine, which a GitHub-hosted runner has not.
    expect(findings.map((f) => f.severity)).toEqual(['LOW', 'LOW', 'LOW', 'HIGH', 'LOW']);
    expect(positions(scanWith(RULE, yaml`
      on: pull_request
      jobs:
        plan:
          uses: kartverket/github-workflows/.github/workflows/run-terraform.yml@v2.7.4
        other:
          uses: kartverket/github-workflows/.github/workflows/other.yml@v2.7.4
    `))).toEqual(['4:11 HIGH']);
    expect(scanWith(RULE, job('azure/setup-kubectl@v3', 'ultralytics/actions@v0.0.3', 'j178/prek-action@v1.0.6'))).toEqual([]);
  });

  it('matches a sub-path advisory only on that sub-path', () => {
    expect(scanWith(RULE, job('pytorch/pytorch/.github/actions/filter-test-configs@v2.0.0')).map((f) => f.rule_id)).toEqual([RULE]);
    expect(scanWith(RULE, job('pytorch/pytorch/.github/actions/other@v2.0.0'))).toEqual([]);
  });

  it('reports an advisory once per action use, not once per step', () => {
    const records = recordsWith(RULE, job('github/codeql-action/init@v2', 'github/codeql-action/autobuild@v2', 'github/codeql-action/analyze@v2', 'github/codeql-action/init@v3'));
    expect(positions(records.map((r) => r.finding))).toEqual(['6:15 LOW']);
    expect(records[0]?.finding.description).toContain('also used at lines 7, 8 of this file');
    expect(records[0]?.job).toBe('build');
  });

  it('reports affected tags at the uses scalar with the advisory id', () => {
    const records = recordsWith(RULE, job(
      'tj-actions/changed-files@v40',
      'actions/download-artifact@v4.1.2',
      'github/codeql-action/init@v2',
      'rlespinasse/github-slug-action@4.0.1',
    ));
    // On `push`: the compromise of changed-files' tags was undone and the job reads no stored secret (LOW), and
    // its file names reach no script; the branch name github-slug-action expands is a collaborator's on `push` (LOW).
    // download-artifact's zip slip needs a crafted artifact: on `push`, without `run-id`, the job downloads what its own run uploaded (LOW).
    expect(positions(records.map((r) => r.finding))).toEqual(['6:15 LOW', '7:15 LOW', '8:15 LOW', '9:15 LOW']);
    expect(records.every((r) => r.job === 'build')).toBe(true);
    const [changedFiles, download, codeql, slug] = records.map((r) => r.finding);
    expect(changedFiles?.description).toContain('GHSA-mrrh-fwg8-r2c3 / CVE-2025-30066');
    expect(changedFiles?.description).toContain('GHSA-mcph-m25j-8j63 / CVE-2023-51664');
    expect(changedFiles?.recommendation).toContain('46.0.1 or later');
    expect(changedFiles?.description).toContain('fixed in 46.0.1');
    expect(download?.description).toContain('CVE-2024-42471');
    expect(download?.description).toContain('it needs an artifact an outsider crafts');
    expect(codeql?.description).toContain('`github/codeql-action/init@v2`');
    // Debug artifacts of failed runs: only in debug mode, which this workflow does not turn on, and the finding says so.
    expect(codeql?.description).toContain('GHSA-vqf5-2xx6-9wfm here: it needs debug mode');
    expect(codeql?.description).toContain('which this workflow does not turn on');
    expect(slug?.description).toContain('CVE-2023-27581');
  });

  it('an advisory that needs a switch the workflow does not turn on is LOW and names it; MEDIUM where the workflow turns it on', () => {
    // The scan-tool's debug-artifact advisory needs debug mode: the init input, or debug logging set in an `env:`.
    const plain = scanWith(RULE, job('github/codeql-action/init@v2', 'github/codeql-action/analyze@v2'));
    expect(positions(plain)).toEqual(['6:15 LOW']);
    expect(plain[0]?.description).toContain('`debug` on the action, or `ACTIONS_STEP_DEBUG` / `ACTIONS_RUNNER_DEBUG` / `RUNNER_DEBUG` in an `env:`');
    expect(plain[0]?.description).toContain('a maintainer re-running a failed run with debug logging');
    const off = scanWith(RULE, yaml`
      on: push
      jobs:
        scan:
          runs-on: ubuntu-latest
          steps:
            - uses: github/codeql-action/init@v2
              with:
                debug: false
            - uses: github/codeql-action/analyze@v2
    `);
    expect(positions(off)).toEqual(['6:15 LOW']);
    const input = scanWith(RULE, yaml`
      on: push
      jobs:
        scan:
          runs-on: ubuntu-latest
          steps:
            - uses: github/codeql-action/init@v2
              with:
                languages: go
                debug: true
            - uses: github/codeql-action/analyze@v2
    `);
    expect(positions(input)).toEqual(['6:15 MEDIUM']);
    expect(input[0]?.description).toContain('the workflow turns it on (`debug` at line 9)');
    const env = scanWith(RULE, yaml`
      on: push
      env:
        ACTIONS_STEP_DEBUG: \${{ inputs.verbose }}
      jobs:
        scan:
          runs-on: ubuntu-latest
          steps:
            - uses: github/codeql-action/init@v2
    `);
    expect(positions(env)).toEqual(['8:15 MEDIUM']);
    // The world-writable binary needs another tenant of the machine: a self-hosted runner has them, a hosted one not.
    const hosted = scanWith(RULE, job('azure/setup-kubectl@v2'));
    expect(positions(hosted)).toEqual(['6:15 LOW']);
    expect(hosted[0]?.description).toContain('a fresh VM for each job');
    const shared = scanWith(RULE, yaml`
      on: push
      jobs:
        deploy:
          runs-on: [self-hosted, linux]
          steps:
            - uses: azure/setup-kubectl@v2
    `);
    expect(positions(shared)).toEqual(['6:15 MEDIUM']);
    expect(shared[0]?.description).toContain('job `deploy` runs on a self-hosted machine');
  });

  it('does not report fixed versions, floating tags past the fix, branches or other actions', () => {
    expect(scanWith(RULE, job(
      'tj-actions/changed-files@v46.0.1',
      'tj-actions/changed-files@v46',
      'actions/download-artifact@v4',
      'actions/download-artifact@v3',
      'rlespinasse/github-slug-action@v4',
      'github/codeql-action/init@v3',
      'tj-actions/changed-files@main',
      'actions/checkout@v3',
    ))).toEqual([]);
  });

  it('reports the reviewdog v1 tag named by its advisory (the tag is back on a genuine commit: LOW without a stored secret)', () => {
    const findings = scanWith(RULE, job('reviewdog/action-setup@v1', 'reviewdog/action-setup@v1.3.0'));
    expect(positions(findings)).toEqual(['6:15 LOW']);
    expect(findings[0]?.description).toContain('CVE-2025-30154');
    expect(findings[0]?.description).toContain('LOW: the v1 tag was moved back to a genuine commit');
  });

  it('a tag of a compromise whose tags were restored is MEDIUM in a job that reads a stored secret; another advisory on the same tag decides only where it is exploitable', () => {
    // v45 falls only under the March 2025 compromise, whose tags GitHub put back; v40 also under CVE-2023-51664,
    // whose file names reach no script here.
    const npm = '      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}';
    const findings = scanWith(RULE, job('tj-actions/changed-files@v45', 'tj-actions/changed-files@v40') + npm);
    expect(positions(findings)).toEqual(['6:15 MEDIUM', '7:15 MEDIUM']);
    expect(findings[1]?.description).toContain('GHSA-mcph-m25j-8j63 here: no text an outsider writes reaches its outputs');
    expect(findings[0]?.description).toContain('GHSA-mrrh-fwg8-r2c3');
    expect(findings[0]?.description).toContain('so a run today gets the original code; runs during the compromise could have taken what outlives a run: the stored secret `NPM_TOKEN`.');
    expect(findings[1]?.description).toContain('run today');
    // The malicious commit itself stays HIGH, however it is referenced.
    expect(positions(scanWith(RULE, job('tj-actions/changed-files@0e58ed8671d6b60d0890c21b07f8835ace038e67 # v45')))).toEqual(['6:15 HIGH']);
  });

  it('a restored compromise is MEDIUM only where the window\'s runs held a stored secret (it outlives the run), LOW with only the GITHUB_TOKEN (it expired with the run)', () => {
    const held = (permissions: readonly string[], extra: string) =>
      ['on: pull_request', ...permissions, 'jobs:', '  build:', '    runs-on: ubuntu-latest', '    steps:', '      - uses: tj-actions/changed-files@v45', extra, ''].join('\n');
    // The default token, a write-scoped token, or the token passed to a step: all expired when the run ended.
    for (const permissions of [[], ['permissions:', '  contents: write', '  packages: write'], ['permissions: write-all']]) {
      const quiet = scanWith(RULE, held(permissions, '      - run: gh release list\n        env:\n          GH_TOKEN: ${{ secrets.GITHUB_TOKEN }}'));
      expect(positions(quiet)).toEqual([`${6 + permissions.length}:15 LOW`]);
      expect(quiet[0]?.description).toContain('the job reads no stored secret, and the `GITHUB_TOKEN` its runs held during the compromise expired when each run ended');
    }
    const secret = scanWith(RULE, held(['permissions:', '  contents: read'], '      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}'));
    expect(positions(secret)).toEqual(['8:15 MEDIUM']);
    expect(secret[0]?.description).toContain('could have taken what outlives a run: the stored secret `NPM_TOKEN`');
    expect(secret[0]?.recommendation).toContain('rotate');
    // A definite self-hosted machine outlives the run too (the code could have left something behind).
    const machine = scanWith(RULE, held([], '').replace('ubuntu-latest', '[self-hosted, linux]'));
    expect(positions(machine)).toEqual(['6:15 MEDIUM']);
    expect(machine[0]?.description).toContain('the self-hosted machine it runs on');
    // A reusable workflow call holds only what it passes: a secret makes it MEDIUM, nothing LOW.
    const call = (extra: string) => ['on: push', 'jobs:', '  call:', '    uses: tj-actions/changed-files/.github/workflows/x.yml@v45', extra, ''].join('\n');
    expect(positions(scanWith(RULE, call('')))).toEqual(['4:11 LOW']);
    expect(positions(scanWith(RULE, call('    secrets:\n      token: ${{ secrets.RELEASE_PAT }}')))).toEqual(['4:11 MEDIUM']);
    expect(positions(scanWith(RULE, call('    secrets: inherit')))).toEqual(['4:11 MEDIUM']);
  });

  it('a restored compromise in a local composite action is judged by the jobs that call it', () => {
    const action = { path: '.github/actions/files/action.yml', text: 'runs:\n  using: composite\n  steps:\n    - uses: tj-actions/changed-files@v45\n' };
    const caller = (extra: string) => ({
      path: '.github/workflows/ci.yml',
      text: ['on: pull_request', 'jobs:', '  build:', '    runs-on: ubuntu-latest', '    steps:', '      - uses: ./.github/actions/files', extra, ''].join('\n'),
    });
    expect(positions(scanWith(RULE, [action, caller('')]))).toEqual(['4:13 LOW']);
    expect(positions(scanWith(RULE, [action, caller('      - run: ./deploy.sh\n        env:\n          KEY: ${{ secrets.DEPLOY_KEY }}')]))).toEqual(['4:13 MEDIUM']);
    // No workflow of the repository calls it: what its runs hold is not known, and the finding stays MEDIUM.
    expect(positions(scanWith(RULE, [action]))).toEqual(['4:13 MEDIUM']);
  });

  it("download-artifact's zip slip is HIGH where an outsider can craft the artifact: another run's (`run-id`), or a run they start", () => {
    const workflow = (on: string, runId: boolean) => ['on:', `  ${on}`, 'jobs:', '  get:', '    runs-on: ubuntu-latest', '    steps:', '      - uses: actions/download-artifact@v4.1.2', ...(runId ? ['        with:', '          run-id: ${{ github.event.workflow_run.id }}', '          github-token: ${{ github.token }}'] : []), ''].join('\n');
    expect(scanWith(RULE, workflow('workflow_run: { workflows: [ci], types: [completed] }', true)).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('push:', true)).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('pull_request:', false)).map((f) => f.severity)).toEqual(['HIGH']);
    // A job whose token can only comment holds nothing worth taking: MEDIUM (severity policy (c)), saying so.
    const commentOnly = scanWith(RULE, workflow('workflow_run: { workflows: [ci], types: [completed] }', true).replace('jobs:', 'permissions:\n  pull-requests: write\njobs:'));
    expect(commentOnly.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(commentOnly[0]?.description).toContain('MEDIUM: ');
    // Negative: a tag push downloading its own run's artifact.
    const own = scanWith(RULE, workflow("push: { tags: ['v*'] }", false));
    expect(own.map((f) => f.severity)).toEqual(['LOW']);
    expect(own[0]?.description).toContain('which this workflow does not turn on');
  });

  it("dawidd6/action-download-artifact before 6.0.0 matters where it searches for the run (a fork's may be picked), not where the step names it", () => {
    const workflow = (inputs: string) => yaml`
      on:
        workflow_run: { workflows: [ci], types: [completed] }
      jobs:
        get:
          runs-on: ubuntu-latest
          steps:
            - uses: dawidd6/action-download-artifact@09f2f74827fd3a8607589e5ad7f9398816f540fe # v3.1.4
              with: { name: pr, ${inputs} }
    `;
    const search = scanWith(RULE, workflow('workflow: ci.yml, branch: main'));
    expect(search.map((f) => f.severity)).toEqual(['HIGH']);
    expect(search[0]?.description).toContain('sets none of `run_id`, `allow_forks: false`');
    const named = scanWith(RULE, workflow('run_id: "${{ github.event.workflow_run.id }}"'));
    expect(named.map((f) => f.severity)).toEqual(['LOW']);
    expect(named[0]?.description).toContain('every step of it here sets `run_id` or `allow_forks: false`');
    expect(scanWith(RULE, workflow('workflow: ci.yml, allow_forks: false')).map((f) => f.severity)).toEqual(['LOW']);
    // `allow_forks: true` keeps the search open to forks.
    expect(scanWith(RULE, workflow('workflow: ci.yml, allow_forks: true')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('reports commits known to be malicious however they are referenced', () => {
    const findings = scanWith(RULE, job('reviewdog/action-setup@f0d342d24037bb11d26b9bd8496e0808ba32e9ec # v1', 'tj-actions/changed-files@0e58ed8671d6b60d0890c21b07f8835ace038e67'));
    expect(positions(findings)).toEqual(['6:15 HIGH', '7:15 HIGH']);
    expect(findings[1]?.description).toContain('known to carry malicious code');
  });

  it('judges a SHA pin by its version comment, except for tag-moving compromises', () => {
    const findings = scanWith(RULE, job(
      'actions/download-artifact@9c19ed7fe5d278cd354c7dfd5d3b88589c7e2395 # v4.1.2',
      'actions/download-artifact@fa0a91b85d4f404e444e00e005971372dc801d16 # v4.1.8',
      'tj-actions/changed-files@9426d40962ed5378910ee2e21d5f8c6fcbf2dd96 # v42',
      'tj-actions/changed-files@9426d40962ed5378910ee2e21d5f8c6fcbf2dd96 # v40.2.0',
      'tj-actions/branch-names@1111111111111111111111111111111111111111 # ratchet: tj-actions/branch-names@v7.0.0',
      'tj-actions/branch-names@2222222222222222222222222222222222222222',
    ));
    expect(positions(findings)).toEqual(['6:15 LOW', '9:15 LOW', '10:15 LOW']);
    expect(findings[0]?.description).toContain('labelled `4.1.2`');
    // v40 is below 41 (CVE-2023-51664), but a SHA pin of a genuine release was not hit by the March 2025 tag move.
    expect(findings[1]?.description).toContain('GHSA-mcph-m25j-8j63');
    expect(findings[1]?.description).not.toContain('GHSA-mrrh-fwg8-r2c3');
    expect(findings[2]?.description).toContain('CVE-2023-49291');
  });

  it('checks reusable-workflow calls and composite-action steps', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        call:
          uses: tj-actions/changed-files/.github/workflows/x.yml@v40
    `))).toEqual(['4:11 LOW']);
    const records = recordsWith(RULE, [{ path: 'action.yml', text: 'runs:\n  using: composite\n  steps:\n    - uses: dawidd6/action-download-artifact@v5\n' }]);
    expect(positions(records.map((r) => r.finding))).toEqual(['4:13 HIGH']);
    expect(records[0]?.job).toBeNull();
  });

  it('an injection advisory is exploitable where an outsider\'s text reaches the affected output, field or input (run model reach)', () => {
    const outputs = (trigger: string, permissions: string) => yaml`
      on: ${trigger}
      permissions: ${permissions}
      jobs:
        files:
          runs-on: ubuntu-latest
          steps:
            - uses: tj-actions/changed-files@9426d40962ed5378910ee2e21d5f8c6fcbf2dd96 # v35
              id: changed
            - run: echo \${{ steps.changed.outputs.all_changed_files }}
    `;
    const high = recordsWith(RULE, outputs('pull_request_target', 'write-all'));
    expect(positions(high.map((r) => r.finding))).toEqual(['7:15 HIGH']);
    expect(high[0]?.finding.description).toContain('GHSA-mcph-m25j-8j63 here: its output reaches code at line 9');
    expect(high[0]?.finding.description).toContain('anyone with a GitHub account');
    expect(high[0]?.facts).toEqual(expect.arrayContaining(['advisory:bug', 'exec', 'reach:anyone']));
    expect(high[0]?.facts).not.toContain('advisory:compromise');
    expect(high[0]?.finding.recommendation).not.toContain('rotate');
    // A fork's read-only pull_request run only hurts the attacker's own run; the output used nowhere is LOW too.
    expect(positions(scanWith(RULE, outputs('pull_request', '{}')))).toEqual(['7:15 LOW']);
    const unused = yaml`
      on: pull_request_target
      permissions: write-all
      jobs:
        files:
          runs-on: ubuntu-latest
          steps:
            - uses: tj-actions/changed-files@9426d40962ed5378910ee2e21d5f8c6fcbf2dd96 # v35
              id: changed
            - run: echo \${{ steps.changed.outputs.all_changed_files_count }}
    `;
    expect(positions(scanWith(RULE, unused))).toEqual(['7:15 LOW']);
    // Through a job output into another job's script.
    expect(positions(scanWith(RULE, yaml`
      on: pull_request_target
      permissions: write-all
      jobs:
        files:
          runs-on: ubuntu-latest
          outputs:
            names: \${{ steps.changed.outputs.changed_files }}
          steps:
            - uses: tj-actions/verify-changed-files@v16
              id: changed
        use:
          needs: files
          runs-on: ubuntu-latest
          steps:
            - run: echo \${{ needs.files.outputs.names }}
    `))).toEqual(['9:15 HIGH']);
  });

  it('an action that expands an event field itself is exploitable on the events that bring an outsider\'s value in', () => {
    const slug = (trigger: string) => yaml`
      on: ${trigger}
      permissions:
        contents: write
      jobs:
        slug:
          runs-on: ubuntu-latest
          steps:
            - uses: rlespinasse/github-slug-action@4.0.1
    `;
    const high = scanWith(RULE, slug('pull_request_target'));
    expect(positions(high)).toEqual(['8:15 HIGH']);
    expect(high[0]?.description).toContain('the action expands `github.head_ref`');
    expect(positions(scanWith(RULE, slug('pull_request')))).toEqual(['8:15 LOW']);
    expect(positions(scanWith(RULE, slug('push')))).toEqual(['8:15 LOW']);
    // A same-repository condition vouches for the branch name.
    expect(positions(scanWith(RULE, slug('pull_request_target').replace('runs-on: ubuntu-latest', 'runs-on: ubuntu-latest\n    if: github.event.pull_request.head.repo.full_name == github.repository')))).toEqual(['9:15 LOW']);
  });

  it('an input-injection advisory is exploitable only when the affected input carries an outsider\'s text', () => {
    const lychee = (value: string) => yaml`
      on: issues
      permissions:
        contents: write
      jobs:
        links:
          runs-on: ubuntu-latest
          steps:
            - uses: lycheeverse/lychee-action@v1.9.0
              with:
                args: --verbose
                lycheeVersion: ${value}
    `;
    const high = scanWith(RULE, lychee('${{ github.event.issue.title }}'));
    expect(positions(high)).toEqual(['8:15 HIGH']);
    expect(high[0]?.description).toContain('its input `lycheeVersion`, which it runs as code, gets `github.event.issue.title`');
    expect(positions(scanWith(RULE, lychee('v0.15.1')))).toEqual(['8:15 LOW']);
    expect(scanWith(RULE, lychee('v0.15.1'))[0]?.description).toContain('no text an outsider writes reaches its input `lycheeVersion`');
  });

  it('says compromise only for compromises: malicious commits and moved tags carry advisory:compromise and the rotation advice', () => {
    const [malicious] = recordsWith(RULE, job('tj-actions/changed-files@0e58ed8671d6b60d0890c21b07f8835ace038e67'));
    expect(malicious?.facts).toContain('advisory:compromise');
    expect(malicious?.finding.recommendation).toContain('rotate');
    const [bug] = recordsWith(RULE, job('actions/download-artifact@v4.1.2'));
    expect(bug?.facts).toEqual(['advisory:bug']);
    expect(bug?.finding.recommendation).not.toContain('rotate');
  });
});
