import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'artifact-poisoning';

const ON = `on:
  workflow_run:
    workflows: [CI]
    types: [completed]
`;

describe(RULE, () => {
  it('reports a download of the triggering run into the workspace at its uses:, bound to the job', () => {
    const records = recordsWith(RULE, ON + yaml`
      jobs:
        comment:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: report
                run-id: \${{ github.event.workflow_run.id }}
            - run: ./post.sh
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['9:15 HIGH']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.job).toBe('comment');
    expect(records[0]?.finding.description).toContain('`CI`');
  });

  it('accepts isolated destinations and reports paths inside the workspace', () => {
    const findings = scanWith(RULE, ON + yaml`
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
                path: \${{ runner.temp }}/artifacts
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
                path: /tmp/artifacts
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
                path: ./out
            - uses: actions/download-artifact@v4
              with:
                name: from-this-run
            - run: cd out && make report
    `);
    expect(positions(findings)).toEqual(['17:15 HIGH']);
    expect(findings[0]?.description).toContain('`./out`');
  });

  it('recognises other ways to download another run\'s artifacts', () => {
    const findings = scanWith(RULE, ON + yaml`
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: dawidd6/action-download-artifact@v6
              with:
                run_id: \${{ github.event.workflow_run.id }}
            - run: |
                gh run download "$RUN" -D "$RUNNER_TEMP/a"
                gh run download "$RUN" -n report
            - uses: actions/github-script@v7
              with:
                script: |
                  const zip = await github.rest.actions.downloadArtifact({ owner, repo, artifact_id, archive_format: 'zip' });
                  fs.writeFileSync(\`\${process.env.GITHUB_WORKSPACE}/pr.zip\`, Buffer.from(zip.data));
            - uses: actions/github-script@v7
              with:
                script: |
                  const zip = await github.rest.actions.downloadArtifact({ owner, repo, artifact_id, archive_format: 'zip' });
                  fs.writeFileSync(\`\${process.env.RUNNER_TEMP}/pr.zip\`, Buffer.from(zip.data));
            - run: npm ci && npm run report
    `);
    expect(positions(findings)).toEqual(['9:15 HIGH', '14:11 HIGH', '15:15 HIGH']);
  });

  it('does not report dawidd6/action-download-artifact searching only push runs (vuejs/core size-report)', () => {
    const workflow = (inputs: string) => ON + yaml`
      jobs:
        report:
          runs-on: ubuntu-latest
          steps:
            - uses: dawidd6/action-download-artifact@v6
              with:
                workflow: size-data.yml
                branch: \${{ steps.pr-base.outputs.content }}
                path: temp/size-prev
${inputs}
            - run: node scripts/size-report.js
    `;
    // Runs of `push` are the base repository's, whatever branch name the pull request picked.
    expect(scanWith(RULE, workflow('                event: push'))).toEqual([]);
    // Without `event:`, or with the triggering run or a pull request's runs named, the files are the pull request's
    // (MEDIUM: they stay in temp/size-prev, which the checkout's own script only reads).
    expect(positions(scanWith(RULE, workflow('                event: pull_request')))).toEqual(['9:15 MEDIUM']);
    expect(positions(scanWith(RULE, workflow('                event: push\n                run_id: ${{ github.event.workflow_run.id }}')))).toEqual(['9:15 MEDIUM']);
    expect(positions(scanWith(RULE, workflow('                name: size-data')))).toEqual(['9:15 MEDIUM']);
  });

  it('is MEDIUM when no later step runs code from the workspace (the files are data: a number, a diff to post)', () => {
    const findings = scanWith(RULE, ON + yaml`
      jobs:
        comment:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: pr
                run-id: \${{ github.event.workflow_run.id }}
            - run: unzip pr.zip && cat diff_*.txt | tee fulldiff.txt
            - uses: actions/github-script@v7
              with:
                script: |
                  const body = require('fs').readFileSync('fulldiff.txt', 'utf8');
                  await github.rest.issues.createComment({ ...context.repo, issue_number: 1, body });
    `);
    expect(positions(findings)).toEqual(['9:15 MEDIUM']);
    expect(findings[0]?.description).toContain('no later step of the job runs code from the workspace');
  });

  it('files kept in a subdirectory are HIGH only when a later step runs code there (fastapi deploy-docs)', () => {
    const workflow = (path: string, later: string) => ON + yaml`
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v4
            - run: uv sync --locked
            - uses: actions/download-artifact@v4
              with:
                path: ${path}
                run-id: \${{ github.event.workflow_run.id }}
            - uses: cloudflare/wrangler-action@v3
              with:
                command: pages deploy ./site --project-name=docs
${later}
    `;
    const status = '            - run: uv run ./scripts/deploy_docs_status.py';
    const [data] = scanWith(RULE, workflow('./site/', status));
    expect(data?.severity).toBe('MEDIUM');
    expect(data?.description).toContain('the files stay in `./site/`, and the later steps that run code from the workspace');
    expect(data?.description).toContain('`uv run`');
    // The same step over the whole workspace, or a step that works in (or runs from) the directory: HIGH.
    expect(scanWith(RULE, workflow('.', status)).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('${{ github.workspace }}', status)).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('./site/', '            - run: npm ci\n              working-directory: site')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('site', '            - run: bash site/build.sh')).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('${{ github.workspace }}/site', '            - run: cd site && make')).map((f) => f.severity)).toEqual(['HIGH']);
    // A path this cannot place counts as the workspace.
    expect(scanWith(RULE, workflow('./out/../', status)).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, workflow('${{ env.DIR }}', status)).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('reading a file in a command substitution is not running it (bevy ci-comment-failures)', () => {
    const findings = scanWith(RULE, ON + yaml`
      jobs:
        comment:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
            - run: |
                PR=\`cat ./NR\`
                NUMBER=$(cat ./NR)
                gh api /repos/o/r/issues/$PR/comments
    `);
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM']);
    // What the substitution runs still counts.
    expect(scanWith(RULE, ON + yaml`
      jobs:
        comment:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
            - run: OUT=$(./NR --print)
    `).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('ignores workflows that follow only trusted runs, and other triggers', () => {
    const workflow = ON + yaml`
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
    `;
    const ci = (trigger: string) => ({ path: '.github/workflows/ci.yml', text: `name: CI\non: ${trigger}\njobs: {}\n` });
    expect(scanWith(RULE, [{ path: '.github/workflows/follow.yml', text: workflow }, ci('push')])).toEqual([]);
    expect(scanWith(RULE, [{ path: '.github/workflows/follow.yml', text: workflow }, ci('pull_request')])).toHaveLength(1);
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.number }}
    `)).toEqual([]);
  });

  it('tolerates odd shapes', () => {
    expect(scanWith(RULE, ON + yaml`
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: { a: b }
            - uses: dawidd6/action-download-artifact@v6
              with: [1, 2]
            - run: 17
    `)).toHaveLength(1);
  });
});
