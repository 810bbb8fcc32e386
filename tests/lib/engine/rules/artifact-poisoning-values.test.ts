import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'artifact-poisoning';

/**
 * A `workflow_run` workflow whose first job reads a small metadata file of the triggering run's artifacts into
 * outputs with an action named for it (`json-to-output` given `path:`), and whose later job uses those outputs.
 * The followed workflow is not in the repository: a pull request can start it.
 */
function follow(later: string, reader = 'example-org/ci/actions/json-to-output@main', path = 'meta.json'): string {
  return yaml`
    on:
      workflow_run:
        workflows: [Build]
        types: [completed]
    permissions: {}
    jobs:
      meta:
        runs-on: ubuntu-latest
        permissions:
          actions: read
        outputs:
          go: \${{ steps.read.outputs.go }}
          head: \${{ steps.read.outputs.head }}
          fork: \${{ steps.read.outputs.fork }}
          number: \${{ steps.read.outputs.number }}
        steps:
          - uses: actions/download-artifact@v4
            with:
              name: meta
              run-id: \${{ github.event.workflow_run.id }}
          - id: read
            uses: ${reader}
            with:
              path: ${path}
  ` + later.split('\n').map((l) => (l === '' ? l : `  ${l}`)).join('\n') + '\n';
}

describe(`${RULE}: values of a fork's artifact that only steer (issue 24)`, () => {
  const snapshots = (after: string) => follow(yaml`
      snapshots:
        needs: meta
        if: needs.meta.outputs.go == 'yes'
        runs-on: ubuntu-latest
        permissions:
          contents: read
        steps:
          - uses: actions/checkout@v3
            with:
              repository: \${{ needs.meta.outputs.fork }}
              ref: \${{ needs.meta.outputs.head }}
              fetch-depth: 0
          - uses: actions/download-artifact@v4
            with:
              name: prebuilt-stories
              path: prebuilt-stories
              run-id: \${{ github.event.workflow_run.id }}
${after}
  `);
  const upload = `          - uses: example-vendor/visual-review-action@v2
            with:
              projectToken: \${{ secrets.VISUAL_REVIEW_TOKEN }}
              buildDir: prebuilt-stories`;

  it('is LOW when the values only pick the pull request code a job checks out and nothing runs it (an upload of prebuilt files)', () => {
    const found = scanWith(RULE, snapshots(upload));
    const reader = found.find((f) => f.line === 17);
    expect(reader?.severity).toBe('LOW');
    expect(reader?.description).toContain('picks the repository or ref it checks out (`needs.meta.outputs.fork`), read from them, and no later step runs that checkout');
    expect(reader?.description).toContain("LOW: the pull request's code lands in the workspace");
    expect(found.map((f) => f.severity)).not.toContain('MEDIUM');
    expect(found.map((f) => f.severity)).not.toContain('HIGH');
  });

  it('negative: the same checkout built by a later step runs the fork\'s code (the chain is named)', () => {
    const built = scanWith(RULE, snapshots(`          - run: npm ci && npm run build-stories
${upload}`));
    const reader = built.find((f) => f.line === 17);
    expect(reader?.severity).toBe('HIGH');
    expect(reader?.description).toContain('step 1 of job `snapshots` (line 32) checks out the commit a value read from them names');
    expect(reader?.description).toContain('then runs `npm ci`');
  });

  it('is LOW when the values only decide whether a deploy job runs, whose own download of the fork\'s files is judged there', () => {
    const deploy = follow(yaml`
      deploy:
        needs: meta
        if: needs.meta.outputs.go == 'yes'
        runs-on: ubuntu-latest
        steps:
          - uses: actions/download-artifact@v4
            with:
              name: site
              path: site
              run-id: \${{ github.event.workflow_run.id }}
          - run: cd site && ./deploy.sh
            env:
              TOKEN: \${{ secrets.PREVIEW_TOKEN }}
    `);
    const found = scanWith(RULE, deploy);
    expect(positions(found)).toEqual(['17:15 LOW', '30:15 HIGH']);
    expect(found[0]?.description).toContain("is given none of their values: the fork decides only whether it runs, and what it does with the fork's other files (its own download or checkout) is reported there");
    // Uploaded as they are, the deploy's own files are LOW too, and so is the gate.
    const upload = deploy.replace(/( +)- run: cd site && \.\/deploy\.sh\n/, '$1- uses: example-vendor/static-upload-action@v1\n$1  with:\n$1    dir: site\n');
    expect(scanWith(RULE, upload).map((f) => f.severity)).toEqual(['LOW', 'LOW']);
  });
});

describe(`${RULE}: values of a fork's artifact expanded into a script (issue 24)`, () => {
  const deploy = (script: string, environment = '') => follow(yaml`
      deploy:
        needs: meta
        if: needs.meta.outputs.go == 'yes'
        runs-on: ubuntu-latest${environment}
        steps:
          - run: ${script}
            env:
              UPLOAD_TOKEN: \${{ secrets.UPLOAD_TOKEN }}
  `);

  it('says the text runs as shell code, at the severity of an injection: HIGH with a secret, MEDIUM behind an environment of unknown reviewers', () => {
    const spliced = deploy('upload-tool put dist/ "previews/${{ needs.meta.outputs.head }}/"');
    const [finding] = scanWith(RULE, spliced);
    expect(finding?.severity).toBe('HIGH');
    expect(finding?.description).toContain('their content becomes outputs of step `read` of job `meta` (`example-org/ci/actions/json-to-output`), and step 1 of job `deploy` (line 30) expands `needs.meta.outputs.head`, read from them, with `${{ }}` into its `run:` script, where their text runs as shell code (script injection)');
    expect(finding?.description).not.toContain('no later step runs them');
    expect(finding?.description).toContain('secret `UPLOAD_TOKEN`');
    // script-injection reports the expansion of an output an action read from the fork's file.
    const injections = scanWith('script-injection', spliced);
    expect(injections.map((f) => f.severity)).toEqual(['HIGH']);
    expect(injections[0]?.description).toContain('the content of an artifact downloaded by step 1 of job `meta`');
    const gated = deploy('upload-tool put dist/ "previews/${{ needs.meta.outputs.head }}/"', '\n        environment: previews');
    expect(scanWith(RULE, gated).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith('script-injection', gated).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('negative: passed through env: and quoted, the value is data, not code; checked first, nothing', () => {
    const quoted = follow(yaml`
      deploy:
        needs: meta
        runs-on: ubuntu-latest
        steps:
          - run: upload-tool put dist/ "previews/$HEAD/"
            env:
              HEAD: \${{ needs.meta.outputs.head }}
              UPLOAD_TOKEN: \${{ secrets.UPLOAD_TOKEN }}
    `);
    expect(scanWith('script-injection', quoted)).toEqual([]);
    const [data] = scanWith(RULE, quoted);
    expect(data?.severity).toBe('MEDIUM');
    expect(data?.description).toContain('uses `needs.meta.outputs.head`, read from them, so their content steers the job');
    // An action that is not named for reading files: its outputs are not taken for the file's text.
    expect(scanWith('script-injection', deploy('upload-tool put dist/ "previews/${{ needs.meta.outputs.head }}/"'.replace('head', 'number')).replace('example-org/ci/actions/json-to-output@main', 'example-org/ci/actions/notify@main'))).toEqual([]);
  });
});

describe(`${RULE}: a repository and branch read from a fork's artifact, checked out and built (issue 25)`, () => {
  const build = (environment = '', path = 'meta.json') => follow(yaml`
      build:
        needs: meta
        runs-on: ubuntu-latest${environment}
        steps:
          - uses: actions/checkout@v3
            with:
              repository: \${{ needs.meta.outputs.fork }}
              ref: \${{ needs.meta.outputs.head }}
          - run: pnpm install && pnpm build
          - run: ./publish-docs.sh
            env:
              DOCS_TOKEN: \${{ secrets.DOCS_TOKEN }}
  `, undefined, path);

  it('is the outsider\'s code running in the privileged run: untrusted-checkout and artifact-poisoning name the chain', () => {
    const checkouts = scanWith('untrusted-checkout', build());
    expect(checkouts.map((f) => f.severity)).toEqual(['HIGH']);
    expect(checkouts[0]?.description).toContain('<- artifact content read by step read');
    expect(checkouts[0]?.description).toContain('`pnpm install`');
    const [reader] = scanWith(RULE, build());
    expect(reader?.severity).toBe('HIGH');
    expect(reader?.description).toContain('step 1 of job `build` (line 29) checks out the commit a value read from them names');
    expect(reader?.description).toContain('secret `DOCS_TOKEN`');
    // Behind an environment whose reviewers are not known: MEDIUM, naming it.
    const gated = build('\n        environment: docs');
    expect(scanWith('untrusted-checkout', gated).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith(RULE, gated).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('negative: the reading action is given a file the download did not bring (a path outside its directory)', () => {
    const text = build().replace(/( +)name: meta\n/, '$1name: meta\n$1path: meta\n');
    expect(text).toContain('path: meta\n');
    expect(scanWith('untrusted-checkout', text.replace('path: meta.json', 'path: config/settings.json'))).toEqual([]);
    expect(scanWith('untrusted-checkout', text.replace('path: meta.json', 'path: meta/meta.json')).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe(`${RULE}: a run id given through env: (issue 25)`, () => {
  /** A workflow_run job (also run by hand, with a mock upload) whose download's `run-id` comes from `env:`; a later job builds the commit its files name. */
  const chained = (runId: string, where: 'step' | 'job' | 'workflow' = 'step') => {
    const env = (indent: string, at: typeof where) => (where === at ? `${indent}env:\n${indent}  RUN_ID: ${runId}\n` : '');
    return [
      'on:',
      '  workflow_run:',
      '    workflows: [Build]',
      '    types: [completed]',
      '  workflow_dispatch:',
      'permissions: {}',
      `${env('', 'workflow')}jobs:`,
      '  meta:',
      '    runs-on: ubuntu-latest',
      '    permissions:',
      '      actions: read',
      '    outputs:',
      '      repo: ${{ steps.read.outputs.repo }}',
      '      sha: ${{ steps.read.outputs.sha }}',
      `${env('    ', 'job')}    steps:`,
      '      - name: Mock',
      "        if: github.event_name == 'workflow_dispatch'",
      '        uses: actions/upload-artifact@v4',
      '        with:',
      '          name: meta',
      '          path: meta.json',
      '      - uses: actions/download-artifact@v4',
      `${env('        ', 'step')}        with:`,
      '          name: meta',
      '          path: ${{ runner.temp }}/artifacts',
      '          run-id: ${{ env.RUN_ID }}',
      '          github-token: ${{ github.token }}',
      '      - id: read',
      '        uses: actions/github-script@v7',
      '        with:',
      '          script: |',
      "            const fs = require('fs');",
      "            const meta = JSON.parse(fs.readFileSync(`${process.env.RUNNER_TEMP}/artifacts/meta.json`, 'utf8'));",
      "            core.setOutput('repo', meta.repo);",
      "            core.setOutput('sha', meta.sha);",
      '  test:',
      '    needs: meta',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v3',
      '        with:',
      '          repository: ${{ needs.meta.outputs.repo }}',
      '          ref: ${{ needs.meta.outputs.sha }}',
      '      - run: npm ci && npm test',
      '        env:',
      '          NPM_TOKEN: ${{ secrets.NPM_TOKEN }}',
      '',
    ].join('\n');
  };
  const choice = "${{ github.event_name == 'workflow_run' && github.event.workflow_run.id || github.run_id }}";

  it('reports the download whose env: picks the followed run on workflow_run, HIGH when a later job builds the commit its files name', () => {
    for (const where of ['step', 'job', 'workflow'] as const) {
      const found = scanWith(RULE, chained(choice, where));
      expect(found.map((f) => f.severity), where).toEqual(['HIGH']);
      expect(found[0]?.description).toContain('the run of `Build` can come from a fork\'s pull request');
      expect(found[0]?.description).toContain('checks out the commit a value read from them names');
      expect(found[0]?.description).toContain('then runs `npm ci`');
      expect(found[0]?.description).toContain('secret `NPM_TOKEN`');
    }
  });

  it("negative: env: that is only the run's own id downloads the run's own artifacts", () => {
    expect(scanWith(RULE, chained('${{ github.run_id }}'))).toEqual([]);
    expect(scanWith(RULE, chained('${{ github.run_id }}', 'workflow'))).toEqual([]);
  });
});

describe(`${RULE}: a checkout several jobs after the download (issue 25)`, () => {
  /**
   * Job `meta` reads the followed run's metadata into outputs; job `resolve` (needs: meta) passes them on through
   * `$GITHUB_OUTPUT`; job `test` (needs: resolve, not meta) checks out the commit they name and builds it.
   */
  const relayed = (sha: string, repo = '${{ needs.resolve.outputs.repository }}') => yaml`
    on:
      workflow_run:
        workflows: [Build]
        types: [completed]
    permissions: {}
    jobs:
      meta:
        runs-on: ubuntu-latest
        permissions:
          actions: read
        outputs:
          repo_name: \${{ steps.read.outputs.repo_name }}
          head_sha: \${{ steps.read.outputs.head_sha }}
        steps:
          - uses: actions/download-artifact@v4
            with:
              name: meta
              path: \${{ runner.temp }}/artifacts
              run-id: \${{ github.event.workflow_run.id }}
              github-token: \${{ github.token }}
          - id: read
            uses: actions/github-script@v7
            with:
              script: |
                const fs = require('fs');
                core.setOutput('repo_name', fs.readFileSync(process.env.RUNNER_TEMP + '/artifacts/repo', 'utf8').trim());
                core.setOutput('head_sha', fs.readFileSync(process.env.RUNNER_TEMP + '/artifacts/sha', 'utf8').trim());
      resolve:
        needs: meta
        runs-on: ubuntu-latest
        outputs:
          sha: \${{ steps.pick.outputs.sha }}
          repository: \${{ steps.pick.outputs.repository }}
        steps:
          - id: pick
            env:
              SHA: \${{ needs.meta.outputs.head_sha || github.event.workflow_run.head_sha }}
              REPO: \${{ needs.meta.outputs.repo_name || github.repository }}
            run: |
              echo "sha=$SHA" >> "$GITHUB_OUTPUT"
              echo "repository=$REPO" >> "$GITHUB_OUTPUT"
      lint:
        needs: [resolve]
        runs-on: ubuntu-latest
        steps:
          - run: echo lint
      test:
        needs: [resolve, lint]
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with:
              repository: ${repo}
              ref: ${sha}
          - run: npm ci && npm test
            env:
              NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
  `;

  it('reports the download HIGH when a job two steps down the needs chain builds the commit its files name', () => {
    const text = relayed('${{ needs.resolve.outputs.sha }}');
    expect(scanWith('untrusted-checkout', text).map((f) => f.severity)).toEqual(['HIGH']);
    const found = scanWith(RULE, text);
    expect(found.map((f) => f.severity)).toEqual(['HIGH']);
    expect(found[0]?.description).toContain('checks out the commit a value read from them names');
    expect(found[0]?.description).toContain('then runs `npm ci`');
    expect(found[0]?.description).toContain('secret `NPM_TOKEN`');
  });

  it('negative: the later job checks out the followed run\'s own head, not a value read from the files', () => {
    const text = relayed('${{ github.event.workflow_run.head_sha }}', '${{ github.repository }}');
    expect(scanWith(RULE, text).filter((f) => f.description.includes('checks out the commit'))).toEqual([]);
  });
});

describe(`${RULE}: a github-script reading the download through a path built in JavaScript (issue 25)`, () => {
  /**
   * Job `meta` downloads the followed run's files to `${{ runner.temp }}/artifacts` (its run id given through the
   * step's `env:`) and a github-script reads them through `path.join` of a variable holding that directory; job
   * `resolve` passes the outputs on through `$GITHUB_OUTPUT`; job `test` checks out what they name and builds it.
   */
  const chain = (dir: string) => yaml`
    on:
      workflow_run:
        workflows: [Build]
        types: [completed]
    permissions: {}
    jobs:
      meta:
        runs-on: ubuntu-latest
        permissions:
          actions: read
        outputs:
          repo_name: \${{ steps.read.outputs.repo_name }}
          head_sha: \${{ steps.read.outputs.head_sha }}
        steps:
          - uses: actions/download-artifact@v4
            env:
              RUN_ID: \${{ github.event.workflow_run.id }}
            with:
              name: meta
              path: '\${{ runner.temp }}/artifacts'
              run-id: \${{ env.RUN_ID }}
              github-token: \${{ github.token }}
          - id: read
            uses: actions/github-script@v7
            with:
              script: |
                const fs = require('fs');
                const path = require('path');
                const temp = '${dir}';
                const p = path.join(temp, 'repo_name');
                if (fs.existsSync(p)) { const v = String(fs.readFileSync(p)).trim(); core.setOutput('repo_name', v); }
                const q = path.join(temp, 'head_sha');
                if (fs.existsSync(q)) { const v = String(fs.readFileSync(q)).trim(); core.setOutput('head_sha', v); }
      resolve:
        needs: meta
        runs-on: ubuntu-latest
        outputs:
          sha: \${{ steps.pick.outputs.sha }}
          repository: \${{ steps.pick.outputs.repository }}
        steps:
          - id: pick
            env:
              SHA: \${{ needs.meta.outputs.head_sha }}
              REPO: \${{ needs.meta.outputs.repo_name }}
            run: |
              echo "sha=$SHA" >> "$GITHUB_OUTPUT"
              echo "repository=$REPO" >> "$GITHUB_OUTPUT"
      test:
        needs: resolve
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with:
              repository: \${{ needs.resolve.outputs.repository }}
              ref: \${{ needs.resolve.outputs.sha }}
          - run: npm ci && npm test
            env:
              NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
  `;

  it('reports the download HIGH when the values read through `path.join(temp, ...)` name the commit a later job builds', () => {
    const text = chain('${{ runner.temp }}/artifacts');
    expect(scanWith('untrusted-checkout', text).map((f) => f.severity)).toEqual(['HIGH']);
    const found = scanWith(RULE, text);
    expect(found.map((f) => `${f.line} ${f.severity}`)).toEqual(['15 HIGH']);
    expect(found[0]?.description).toContain('checks out the commit a value read from them names');
  });

  it('negative: the same script reading files outside the download directory', () => {
    const text = chain('${{ github.workspace }}/meta');
    expect(scanWith(RULE, text)).toEqual([]);
  });
});
