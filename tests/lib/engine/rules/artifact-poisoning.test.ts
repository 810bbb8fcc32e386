import { describe, expect, it } from 'vitest';
import { findCombinations } from '../../../../lib/engine/combinations/index.js';
import { scanRepository } from '../../../../lib/engine/scan.js';
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
            - run: unzip pr.zip && npm ci && npm run report
    `);
    expect(positions(findings)).toEqual(['9:15 HIGH', '14:11 HIGH', '15:15 HIGH']);
  });

  it('reads a github-script download written whole to one archive (`pr.zip`) as in the workspace only where a step extracts it', () => {
    const workflow = (run: string) => ON + yaml`
      permissions:
        contents: write
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/github-script@v7
              with:
                script: |
                  const zip = await github.rest.actions.downloadArtifact({ owner, repo, artifact_id, archive_format: 'zip' });
                  fs.writeFileSync('\${{ github.workspace }}/report.zip', Buffer.from(zip.data));
            - run: ${run}
    `;
    // Extracted, then the checkout's build runs beside the fork's files (HIGH: the job can push).
    const extracted = scanWith(RULE, workflow('unzip report.zip && npm ci'));
    expect(positions(extracted)).toEqual(['12:15 HIGH']);
    expect(extracted[0]?.description).toContain('extracted into the workspace by `unzip report.zip');
    // negative: only the archive is in the workspace (an inline script reads it as data): nothing of the fork runs.
    expect(scanWith(RULE, workflow('python - <<\'PY\'\n              import zipfile; print(zipfile.ZipFile("report.zip").namelist())\n              PY')).filter((f) => f.severity !== 'LOW')).toEqual([]);
    expect(scanWith(RULE, workflow('npm ci')).filter((f) => f.severity !== 'LOW')).toEqual([]);
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
    // Without `event:` (forks' runs allowed), or with the triggering run named, the files are the pull request's
    // (LOW: they stay in temp/size-prev, which no later step names; the checkout's own script runs).
    const forks = '\n                allow_forks: true';
    expect(positions(scanWith(RULE, workflow(`                event: pull_request${forks}`)))).toEqual(['9:15 LOW']);
    expect(positions(scanWith(RULE, workflow('                event: push\n                run_id: ${{ github.event.workflow_run.id }}')))).toEqual(['9:15 LOW']);
    expect(positions(scanWith(RULE, workflow(`                name: size-data${forks}`)))).toEqual(['9:15 LOW']);
  });

  it('is LOW when their content only becomes a comment (a diff to post, the pull request commented on)', () => {
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
    expect(positions(findings)).toEqual(['9:15 LOW']);
    expect(findings[0]?.description).toContain('reads them into a comment (github-script)');
    // Read only for the number of the pull request, a fixed text posted (list, then update or create: a sticky comment).
    const [sticky] = scanWith(RULE, ON + yaml`
      jobs:
        comment:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
            - uses: actions/github-script@v7
              with:
                script: |
                  const issue_number = Number(require('fs').readFileSync('./NR', 'utf8'));
                  const { data } = await github.rest.issues.listComments({ ...context.repo, issue_number });
                  const old = data.find((c) => c.body.includes('<!-- preview -->'));
                  if (old) await github.rest.issues.updateComment({ ...context.repo, comment_id: old.id, body: '<!-- preview --> Ready' });
                  else await github.rest.issues.createComment({ ...context.repo, issue_number, body: '<!-- preview --> Ready' });
    `);
    expect(sticky?.severity).toBe('LOW');
    expect(sticky?.description).toContain('reads them only to pick the issue or pull request that actions/github-script posts a fixed comment on');
  });

  it('is LOW naming the sink when the files only pick where a fixed comment goes (github-script or gh), in a step or a job after it', () => {
    const job = (steps: string) => ON + yaml`
      permissions: { contents: write, pull-requests: write }
      jobs:
        comment:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
            - id: pr
              run: echo "number=$(cat NR)" >> "$GITHUB_OUTPUT"
${steps}
    `;
    const script = (body: string, extra = '') => `            - uses: actions/github-script@v7
              env:
                PR: \${{ steps.pr.outputs.number }}
              with:
                script: |
                  const fs = require('fs');${extra}
                  await github.rest.issues.createComment({ ...context.repo, issue_number: Number(process.env.PR), ${body} });`;
    const [fixed] = scanWith(RULE, job(script("body: 'Thanks! The preview is ready.'")));
    expect(fixed?.severity).toBe('LOW');
    expect(fixed?.description).toContain('gives `steps.pr.outputs.number` to actions/github-script, which only posts a fixed comment');
    expect(fixed?.description).toContain('at worst a fixed comment on an issue or pull request the fork picks');
    const [gh] = scanWith(RULE, job('            - run: gh pr comment "$PR" --body "Thanks!"\n              env:\n                PR: ${{ steps.pr.outputs.number }}'));
    expect(gh?.severity).toBe('LOW');
    expect(gh?.description).toContain('to `gh pr comment`, which only posts a fixed comment');
    // The body carries their text: a comment of the fork's wording, as for the known comment actions.
    const [raw] = scanWith(RULE, job(script("body: fs.readFileSync('report.md', 'utf8')")));
    expect(raw?.severity).toBe('LOW');
    expect(raw?.description).toContain("a comment of the fork's wording");
    const [file] = scanWith(RULE, job('            - run: gh pr comment "$PR" --body-file report.md\n              env:\n                PR: ${{ steps.pr.outputs.number }}'));
    expect(file?.description).toContain("a comment of the fork's wording");
    // A script that also writes the job's environment does more than comment.
    const [more] = scanWith(RULE, job(script("body: 'Thanks!'", "\n                  fs.appendFileSync(process.env.GITHUB_ENV, `PR=${process.env.PR}\\n`);")));
    expect(more?.severity).toBe('MEDIUM');
    // A job that only posts a fixed comment, given the number through the job's outputs.
    const [later] = scanWith(RULE, ON + yaml`
      permissions: {}
      jobs:
        read:
          runs-on: ubuntu-latest
          permissions: { actions: read }
          outputs:
            pr: \${{ steps.pr.outputs.number }}
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
            - id: pr
              run: echo "number=$(cat NR)" >> "$GITHUB_OUTPUT"
        comment:
          needs: read
          runs-on: ubuntu-latest
          permissions: { pull-requests: write }
          steps:
            - uses: actions/github-script@v7
              with:
                github-token: \${{ secrets.BOT_TOKEN }}
                script: |
                  const fs = require('node:fs');
                  const body = 'Thanks!';
                  await github.rest.issues.createComment({ ...context.repo, issue_number: Number(process.env.PR), body });
              env:
                PR: \${{ needs.read.outputs.pr }}
    `);
    expect(later?.severity).toBe('LOW');
    expect(later?.description).toContain('gives `needs.read.outputs.pr` to actions/github-script, which only posts a fixed comment');
  });

  it('is LOW naming the sink when the files only pick a label or the pull request it goes on, with the run token', () => {
    const job = (steps: string) => ON + yaml`
      permissions: { contents: write, pull-requests: write }
      jobs:
        label:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
            - id: pr
              run: |
                echo "number=$(cat NR)" >> "$GITHUB_OUTPUT"
                echo "label=$(cat LABEL)" >> "$GITHUB_OUTPUT"
${steps}
    `;
    const env = `              env:
                PR: \${{ steps.pr.outputs.number }}
                LABEL: \${{ steps.pr.outputs.label }}`;
    const [gh] = scanWith(RULE, job(`            - run: gh pr edit "$PR" --add-label "$LABEL"
${env}
                GH_TOKEN: \${{ github.token }}`));
    expect(gh?.severity).toBe('LOW');
    expect(gh?.description).toContain('which only adds or removes a label');
    expect(gh?.description).toContain('`gh pr edit <number> --add-label`');
    expect(gh?.description).toContain("at worst a label of the fork's choosing");
    const [script] = scanWith(RULE, job(`            - uses: actions/github-script@v7
${env}
              with:
                script: |
                  await github.rest.issues.addLabels({ ...context.repo, issue_number: Number(process.env.PR), labels: [process.env.LABEL] });`));
    expect(script?.severity).toBe('LOW');
    expect(script?.description).toContain('to actions/github-script, which only adds or removes a label');
    // With another token, the label starts workflows (a label gate among them): not a harmless notice.
    const [pat] = scanWith(RULE, job(`            - run: gh pr edit "$PR" --add-label "$LABEL"
${env}
                GH_TOKEN: \${{ secrets.BOT_TOKEN }}`));
    expect(pat?.severity).toBe('MEDIUM');
    // Spliced into the script, the value runs as shell code in a job that holds a write scope: HIGH, as in any
    // other step; given to another program, it steers the job (MEDIUM).
    const [splice] = scanWith(RULE, job(`            - run: gh pr edit "\${{ steps.pr.outputs.number }}" --add-label "\${{ steps.pr.outputs.label }}"
              env:
                GH_TOKEN: \${{ github.token }}`));
    expect(splice?.severity).toBe('HIGH');
    expect(splice?.description).toContain('(script injection)');
    const [shell] = scanWith(RULE, job(`            - run: gh pr edit "$PR" --add-label x && git tag "$LABEL"
${env}
                GH_TOKEN: \${{ github.token }}`));
    expect(shell?.severity).toBe('MEDIUM');
    const [title] = scanWith(RULE, job(`            - run: gh pr edit "$PR" --title "$LABEL"
${env}
                GH_TOKEN: \${{ github.token }}`));
    expect(title?.severity).toBe('MEDIUM');
  });

  it('files kept in a subdirectory are HIGH only when a later step runs code there (fastapi deploy-docs)', () => {
    const workflow = (path: string, later: string) => ON + yaml`
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
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
    // The files are deployed as they are (a preview), and the step that runs code works outside `site/`: LOW.
    const [data] = scanWith(RULE, workflow('./site/', status));
    expect(data?.severity).toBe('LOW');
    expect(data?.description).toContain('hands them to cloudflare/wrangler-action');
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

  it('reading a file in a command substitution is not running it; a pull request number for a comment is LOW (a workflow that comments on CI failures)', () => {
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
    expect(findings.map((f) => f.severity)).toEqual(['LOW']);
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

  it("reports a followed run of any name: a fork's pull request can add a workflow of that name; not triggers only collaborators cause", () => {
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
    // The repository's CI runs only on push: a fork's pull request adds a workflow named CI that runs on pull_request.
    const added = scanWith(RULE, [{ path: '.github/workflows/follow.yml', text: workflow }, ci('push')]);
    expect(added).toHaveLength(1);
    expect(added[0]?.description).toContain("the run of `CI` can come from a fork's pull request, which can add a workflow of that name that runs on `pull_request` (the repository's own does not)");
    const own = scanWith(RULE, [{ path: '.github/workflows/follow.yml', text: workflow }, ci('pull_request')]);
    expect(own).toHaveLength(1);
    expect(own[0]?.description).toContain("the run of `CI` can come from a fork's pull request");
    expect(own[0]?.description).not.toContain('can add a workflow');
    // A trigger only collaborators cause picks no fork's run.
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ steps.find.outputs.id }}
            - run: make
    `)).toEqual([]);
  });

  it('reads no chain of workflow_run workflows: the name of a followed follower is the fork\'s to take too', () => {
    const workflow = ON + yaml`
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
            - run: make
    `;
    // CI follows Build, which runs only on push, and uploads nothing of anyone's: a fork's own workflow named CI still
    // hands this one its artifacts.
    const ci = { path: '.github/workflows/ci.yml', text: 'name: CI\non:\n  workflow_run:\n    workflows: [Build]\n    types: [completed]\njobs: {}\n' };
    const build = { path: '.github/workflows/build.yml', text: 'name: Build\non: [push, schedule, workflow_dispatch]\njobs: {}\n' };
    const follow = { path: '.github/workflows/follow.yml', text: workflow };
    const found = scanWith(RULE, [follow, ci, build]).filter((f) => f.file.endsWith('follow.yml'));
    expect(positions(found)).toEqual(['9:15 HIGH']);
    expect(found[0]?.description).toContain("the run of `CI` can come from a fork's pull request, which can add a workflow of that name");
    // A cycle of followers that nothing outside starts: the same.
    const loop = { path: '.github/workflows/build.yml', text: 'name: Build\non:\n  workflow_run:\n    workflows: [CI]\njobs: {}\n' };
    expect(scanWith(RULE, [follow, ci, loop]).filter((f) => f.file.endsWith('follow.yml'))).toHaveLength(1);
  });

  it("quotes, for each of two downloads a script reads, the command that reads that download's directory", () => {
    const findings = scanWith(RULE, ON + yaml`
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: json
                path: site/lib/json
                run-id: \${{ github.event.workflow_run.id }}
            - uses: actions/download-artifact@v4
              with:
                name: templates
                path: site/lib/templates
                run-id: \${{ github.event.workflow_run.id }}
            - name: sync
              run: |
                version=$(jq -r .version site/lib/json/version.json)
                aws s3 cp ./site/lib/json/ s3://bucket/$version/ --recursive
                aws s3 cp ./site/lib/templates/ s3://bucket/$version/templates/ --recursive
              env:
                AWS_SECRET_ACCESS_KEY: \${{ secrets.AWS_KEY }}
    `);
    expect(findings.map((f) => f.line)).toEqual([9, 14]);
    expect(findings[0]?.description).toContain('`aws s3 cp ./site/lib/json/ s3://bucket/$version/ --recursive`');
    expect(findings[0]?.description).not.toContain('site/lib/templates/ s3');
    expect(findings[1]?.description).toContain('`aws s3 cp ./site/lib/templates/ s3://bucket/$version/templates/ --recursive`');
    expect(findings[1]?.description).not.toContain('site/lib/json/ s3');
  });

  it('does not claim that nothing reads the files when a step reads them into a variable', () => {
    const files = (script: string) => [
      { path: '.github/workflows/ci.yml', text: 'name: CI\non: pull_request\njobs: {}\n' },
      {
        path: '.github/workflows/follow.yml',
        text: ON + yaml`
          jobs:
            j:
              runs-on: ubuntu-latest
              steps:
                - uses: actions/download-artifact@v4
                  with:
                    run-id: \${{ github.event.workflow_run.id }}
                    path: out
                - run: ${script}
        `,
      },
    ];
    const read = scanWith(RULE, files('|\n                    FLAG=$(cat out/flag)\n                    if [[ "$FLAG" == yes ]]; then echo hi; fi'));
    expect(read.map((f) => f.severity)).toEqual(['LOW']);
    expect(read[0]?.description).toContain('reaches no command, output or condition the analysis follows');
    expect(read[0]?.description).not.toContain('reads their content');
    // Content put into a command is a use the analysis follows: MEDIUM, naming the command.
    const used = scanWith(RULE, files('curl -X POST "https://example.com/hook?state=$(cat out/flag)"'));
    expect(used.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(used[0]?.description).toContain('uses their content in');
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
            - uses: dawidd6/action-download-artifact@v3
              with: [1, 2]
            - run: 17
    `)).toHaveLength(1);
  });
});

describe(`${RULE}: the run model's view`, () => {
  const follow = (job: string) => ON + job;

  it('reports nothing for a job only runs of the same repository reach (fork exclusion folded by the model)', () => {
    const workflow = (condition: string) => follow(yaml`
      jobs:
        deploy:
          if: ${condition}
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
            - run: npm ci && npm run deploy
    `);
    expect(scanWith(RULE, workflow('github.event.workflow_run.head_repository.full_name == github.repository'))).toEqual([]);
    expect(scanWith(RULE, workflow('github.event.workflow_run.head_repository.fork == false'))).toEqual([]);
    expect(positions(scanWith(RULE, workflow("github.event.workflow_run.conclusion == 'success'")))).toEqual(['10:15 HIGH']);
  });

  it("is LOW for an action that downloads the triggering run's artifact itself and parses it as data (relative-ci/agent-action)", () => {
    const follower = (step: string, trigger = ON) => ({
      path: '.github/workflows/relative.yml',
      text: `${trigger}permissions:
  contents: read
jobs:
  upload:
    runs-on: ubuntu-latest
    steps:
      ${step}
`,
    });
    const ci = (trigger: string) => ({ path: '.github/workflows/ci.yml', text: `name: CI\non: ${trigger}\njobs: {}\n` });
    const relative = `- uses: relative-ci/agent-action@f5dd4c8e0b2c4ad5c1e1a1b7e6fd3cbb4c2e9a11
        with:
          key: \${{ secrets.RELATIVE_CI_KEY }}
          token: \${{ github.token }}
          artifactName: frontend-bundle-stats`;
    const found = scanWith(RULE, [follower(relative), ci('pull_request')]);
    expect(positions(found)).toEqual(['11:15 LOW']);
    const text = found[0]?.description ?? '';
    expect(text).toContain('downloads artifact `frontend-bundle-stats` of the triggering run itself');
    expect(text).toContain('the run of `CI` can come from a fork\'s pull request');
    expect(text).toContain('sends them to RelativeCI, with secret `RELATIVE_CI_KEY` it is handed');
    expect(text).toContain("LOW: no code of the fork's runs and the content is parsed as data; at worst a bundle-size report of the fork's making");
    // Its default artifact name, and the other actions of the table with the input they need.
    expect(scanWith(RULE, [follower('- uses: relative-ci/agent-action@v3\n        with: { key: "${{ secrets.RELATIVE_CI_KEY }}", token: "${{ github.token }}" }'), ci('pull_request')])[0]?.description).toContain('artifact `relative-ci-artifacts`');
    expect(positions(scanWith(RULE, [follower('- uses: dorny/test-reporter@v2\n        with: { artifact: test-results, name: Tests, path: "*.xml", reporter: jest-junit }'), ci('pull_request')]))).toEqual(['11:15 LOW']);
    expect(positions(scanWith(RULE, [follower('- uses: py-cov-action/python-coverage-comment-action@v3\n        with: { GITHUB_TOKEN: "${{ github.token }}", GITHUB_PR_RUN_ID: "${{ github.event.workflow_run.id }}" }'), ci('pull_request')]))).toEqual(['11:15 LOW']);
    // The followed workflow runs only on pushes: a fork's workflow of that name is still the run it follows (LOW the same).
    expect(positions(scanWith(RULE, [follower(relative), ci('push')]))).toEqual(['11:15 LOW']);
    // Negative: the action reads a file of the workspace (no `artifact:`, no run id), or does not run on `workflow_run` at all.
    expect(scanWith(RULE, [follower('- uses: dorny/test-reporter@v2\n        with: { name: Tests, path: "*.xml", reporter: jest-junit }'), ci('pull_request')])).toEqual([]);
    expect(scanWith(RULE, [follower('- uses: py-cov-action/python-coverage-comment-action@v3\n        with: { GITHUB_TOKEN: "${{ github.token }}" }'), ci('pull_request')])).toEqual([]);
    expect(scanWith(RULE, [follower(relative, 'on: push\n'), ci('pull_request')])).toEqual([]);
  });

  it('reports nothing when the values read are validated numbers', () => {
    const workflow = (check: string) => follow(yaml`
      jobs:
        comment:
          runs-on: ubuntu-latest
          permissions:
            pull-requests: write
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: pr
                run-id: \${{ github.event.workflow_run.id }}
                path: pr
            - run: |
                PR=$(cat pr/number)
${check}
                gh pr edit "$PR" --add-label reviewed
              env:
                GH_TOKEN: \${{ github.token }}
    `);
    expect(scanWith(RULE, workflow("                if ! [[ \"$PR\" =~ ^[0-9]+$ ]]; then exit 1; fi"))).toEqual([]);
    // Unchecked, the number steers what the job does; the job holds only `pull-requests: write`, so the fork picks
    // at most which pull request gets the label: LOW.
    const [unchecked] = scanWith(RULE, workflow('                echo "label $PR"'));
    expect(unchecked?.severity).toBe('LOW');
    expect(unchecked?.description).toContain('reads them only to pick a label, or the issue or pull request that `gh pr edit <number> --add-label` adds it to');
    expect(unchecked?.description).toContain("LOW: at worst a label of the fork's choosing");
    // The same in a job that holds a secret: MEDIUM.
    const secret = workflow('                echo "label $PR"').replace('GH_TOKEN: ${{ github.token }}', 'GH_TOKEN: ${{ secrets.BOT_TOKEN }}');
    expect(scanWith(RULE, secret).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('is LOW when the values steer only a job with a read-only token whose outputs set a commit status; MEDIUM when spliced into a script', () => {
    const workflow = (use: string) => follow(yaml`
      permissions: {}
      jobs:
        scan:
          runs-on: ubuntu-latest
          permissions:
            contents: read
          outputs:
            sha: \${{ steps.json.outputs.sha }}
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: changes
                run-id: \${{ github.event.workflow_run.id }}
            - uses: example-org/ci/actions/json-to-output@main
              id: json
              with:
                path: output.json
${use}
        status:
          needs: scan
          runs-on: ubuntu-latest
          permissions:
            statuses: write
          steps:
            - uses: example-org/ci/actions/set-commit-status@main
              with:
                sha: \${{ needs.scan.outputs.sha }}
                token: \${{ secrets.GITHUB_TOKEN }}
    `);
    const checkout = ['            - uses: actions/checkout@v3', '              with:', '                repository: ${{ steps.json.outputs.repo }}', '                ref: ${{ steps.json.outputs.sha }}', '            - run: semgrep ci'].join('\n');
    const [low] = scanWith(RULE, workflow(checkout));
    expect(low?.severity).toBe('LOW');
    expect(low?.description).toContain('picks the repository or ref it checks out (`steps.json.outputs.repo`), read from them, and no later step runs that checkout');
    // A value read from them steering a step of a job that holds nothing: LOW, saying so.
    const steers = '            - run: semgrep ci\n              env:\n                TARGET: ${{ steps.json.outputs.sha }}';
    const [bare] = scanWith(RULE, workflow(steers));
    expect(bare?.severity).toBe('LOW');
    expect(bare?.description).toContain('so their content steers the job, but every job it steers holds no write scope');
    // Spliced into a script, the value runs as shell code (script injection): an outsider's text in a job that
    // holds nothing worth taking is MEDIUM by the policy.
    const spliced = '            - run: echo "scanning ${{ steps.json.outputs.sha }}"';
    const [injected] = scanWith(RULE, workflow(spliced));
    expect(injected?.severity).toBe('MEDIUM');
    expect(injected?.description).toContain('expands `steps.json.outputs.sha`, read from them, with `${{ }}` into its `run:` script, where their text runs as shell code (script injection)');
  });

  it('reports nothing when an output read from the files is checked in a later step, or in a job the user needs, before every use', () => {
    const workflow = (check: string, use: string) => follow(yaml`
      jobs:
        read:
          runs-on: ubuntu-latest
          outputs:
            pr: \${{ steps.pr.outputs.number }}
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: pr
                run-id: \${{ github.event.workflow_run.id }}
            - id: pr
              run: echo "number=$(cat NR)" >> "$GITHUB_OUTPUT"
${check}
        label:
          needs: read
          runs-on: ubuntu-latest
          permissions:
            pull-requests: write
          steps:
${use}
    `);
    const checkStep = [
      '            - name: Check',
      '              env:',
      '                PR: ${{ steps.pr.outputs.number }}',
      '              run: |',
      '                case "$PR" in',
      "                  ''|*[!0-9]*) echo 'not a number'; exit 1 ;;",
      '                esac',
    ].join('\n');
    const use = '            - run: gh pr edit ${{ needs.read.outputs.pr }} --add-label ok\n              env:\n                GH_TOKEN: ${{ github.token }}';
    // Checked in the job that reads it: every job that needs it gets the checked value.
    expect(scanWith(RULE, workflow(checkStep, use))).toEqual([]);
    // Checked in the using step itself, through its environment.
    const ownCheck = [
      '            - env:',
      '                PR: ${{ needs.read.outputs.pr }}',
      '                GH_TOKEN: ${{ github.token }}',
      '              run: |',
      '                if ! [[ "$PR" =~ ^[1-9][0-9]*$ ]]; then exit 1; fi',
      '                gh pr edit "$PR" --add-label ok',
    ].join('\n');
    expect(scanWith(RULE, workflow('', ownCheck))).toEqual([]);
    // A grep of it checks each line, not the value.
    const grepped = ownCheck.replace('if ! [[ "$PR" =~ ^[1-9][0-9]*$ ]]; then exit 1; fi', "echo \"$PR\" | grep -qE '^[0-9]+$' || exit 1");
    expect(positions(scanWith(RULE, workflow('', grepped)))).toEqual(['11:15 LOW']);
    // Unchecked, or checked only in a step that may be skipped: the value steers the job (MEDIUM).
    expect(positions(scanWith(RULE, workflow('', use)))).toEqual(['11:15 MEDIUM']);
    const skipped = checkStep.replace('            - name: Check', "            - name: Check\n              if: github.event.workflow_run.event == 'push'");
    expect(positions(scanWith(RULE, workflow(skipped, use)))).toEqual(['11:15 MEDIUM']);
  });

  it('is HIGH for a deploy action working inside the artifact directory with a token (its CLI resolves there)', () => {
    const findings = scanWith(RULE, follow(yaml`
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: site
                path: site
                run-id: \${{ github.event.workflow_run.id }}
            - uses: cloudflare/wrangler-action@v3
              with:
                apiToken: \${{ secrets.CLOUDFLARE_API_TOKEN }}
                workingDirectory: site
                command: pages deploy . --project-name=docs
    `));
    expect(positions(findings)).toEqual(['9:15 HIGH']);
    expect(findings[0]?.description).toContain('runs cloudflare/wrangler-action from `site/`');
    expect(findings[0]?.description).toContain('`CLOUDFLARE_API_TOKEN`');
  });

  it('is LOW when an output read from the files only decides, in a later if:, whether a job that holds secrets runs, whether that job runs the fork\'s other files (reported at its own download) or only its own code', () => {
    const gated = (steps: string) => follow(yaml`
      jobs:
        changes:
          runs-on: ubuntu-latest
          permissions:
            actions: read
          outputs:
            should_run: \${{ steps.json.outputs.should_run }}
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: changes
                run-id: \${{ github.event.workflow_run.id }}
            - uses: gradio-app/github/actions/json-to-output@main
              id: json
              with:
                path: output.json
        deploy:
          needs: changes
          if: needs.changes.outputs.should_run == 'true'
          runs-on: ubuntu-latest
          steps:
    ` + steps);
    // The gated job downloads the fork's build and runs it with a secret: the fork steers what it does.
    const runsTheirs = scanWith(RULE, gated(`      - uses: actions/download-artifact@v4
        with:
          name: site
          path: site
          run-id: \${{ github.event.workflow_run.id }}
      - run: cd site && npm ci
        env:
          TOKEN: \${{ secrets.DEPLOY_TOKEN }}
`));
    // The gate only decides whether that job runs; what it runs of the fork's is the HIGH at its own download.
    expect(positions(runsTheirs)).toEqual(['13:15 LOW', '26:15 HIGH']);
    expect(runsTheirs[0]?.description).toContain("job `deploy` runs only when `needs.changes.outputs.should_run`, read from them, says so (its `if:`), a job that holds");
    expect(runsTheirs[0]?.description).toContain("secret `DEPLOY_TOKEN`, and is given none of their values: the fork decides only whether it runs, and what it does with the fork's other files (its own download or checkout) is reported there");
    // The gated job runs only the base repository's own script: the fork decides only whether it runs.
    const own = scanWith(RULE, gated(`      - run: ./deploy.sh
        env:
          TOKEN: \${{ secrets.DEPLOY_TOKEN }}
`));
    expect(positions(own)).toEqual(['13:15 LOW']);
    expect(own[0]?.description).toContain("but runs none of their content: the fork decides only whether the base repository's own steps run");
  });

  it('is LOW when checked values only pick where a fixed comment goes and decide, in if:, whether the base repository\'s own step runs', () => {
    const report = (publish: string) => follow(yaml`
      permissions:
        pull-requests: write
      jobs:
        report:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: pr
                path: pr
                run-id: \${{ github.event.workflow_run.id }}
            - id: pr
              run: |
                echo "number=$(cat pr/number)" >> "$GITHUB_OUTPUT"
                echo "sha=$(cat pr/sha)" >> "$GITHUB_OUTPUT"
            - name: Validate
              run: |
                [[ "$PR" =~ ^[0-9]+$ ]] || exit 1
                [[ "$SHA" =~ ^[0-9a-f]{40}$ ]] || exit 1
              env:
                PR: \${{ steps.pr.outputs.number }}
                SHA: \${{ steps.pr.outputs.sha }}
            - name: Comment
              if: steps.pr.outputs.number != ''
              uses: actions/github-script@v7
              env:
                PR: \${{ steps.pr.outputs.number }}
              with:
                script: |
                  await github.rest.issues.createComment({ ...context.repo, issue_number: Number(process.env.PR), body: 'Thanks!' })
            - name: Publish
              if: steps.pr.outputs.sha != ''
    ` + publish);
    const own = scanWith(RULE, report(`        run: ./scripts/publish-report.sh
        env:
          NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
`));
    expect(positions(own)).toEqual(['11:15 LOW']);
    expect(own[0]?.description).toContain("step `Publish` of job `report` (line 35) decides in its `if:` whether it runs (`steps.pr.outputs.sha`), and that step (a script) runs none of their content");
    // The unlocked step runs the fork's files (a script from the directory they landed in): steered, MEDIUM or worse.
    const theirs = scanWith(RULE, report(`        run: bash pr/publish.sh
        env:
          NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
`));
    expect(theirs.map((f) => f.severity)).toEqual(['HIGH']);
  });

  it("is LOW when an if: decides whether a step runs that is given only values checked against a strict pattern first; MEDIUM when one reaches its command unchecked", () => {
    const report = (check: string, gated: string) => follow([
      'permissions:',
      '  checks: write',
      '  contents: write',
      'jobs:',
      '  report:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/download-artifact@v4',
      '        with:',
      '          name: run-info',
      '          path: run-info',
      '          run-id: ${{ github.event.workflow_run.id }}',
      '      - id: run-info',
      '        run: |',
      '          echo "run_id=$(cat run-info/run_id)" >> "$GITHUB_OUTPUT"',
      '          echo "sha=$(cat run-info/head_sha)" >> "$GITHUB_OUTPUT"',
      '          echo "title=$(cat run-info/title)" >> "$GITHUB_OUTPUT"',
      '      - name: Validate',
      '        run: |',
      check.trimEnd(),
      '        env:',
      '          RUN_ID: ${{ steps.run-info.outputs.run_id }}',
      '          SHA: ${{ steps.run-info.outputs.sha }}',
      '',
    ].join('\n') + gated);
    const strict = '          [[ "$RUN_ID" =~ ^[1-9][0-9]*$ ]] || exit 1\n          [[ "$SHA" =~ ^[0-9a-f]{40}$ ]] || exit 1\n';
    const post = (extra = '') => `      - name: Post results
        if: \${{ steps.run-info.outputs.run_id != '' }}
        run: ./scripts/post-results.sh "$RUN_ID" "$SHA"
        env:
          GH_TOKEN: \${{ github.token }}
          RUN_ID: \${{ steps.run-info.outputs.run_id }}
          SHA: \${{ steps.run-info.outputs.sha }}
${extra}`;
    const checked = scanWith(RULE, report(strict, post()));
    expect(checked.map((f) => f.severity)).toEqual(['LOW']);
    expect(checked[0]?.description).toContain('step `Post results` of job `report` (line 29) decides in its `if:` whether it runs (`steps.run-info.outputs.run_id`), and that step (a script) runs none of their content and is given only values checked against a pattern first');
    // A bare `if:` (no `${{ }}`) decides the same: the same LOW, not "every use is checked".
    const bare = scanWith(RULE, report(strict, post().replace("${{ steps.run-info.outputs.run_id != '' }}", "steps.run-info.outputs.run_id != ''")));
    expect(bare.map((f) => f.severity)).toEqual(['LOW']);
    expect(bare[0]?.description).toContain('and is given only values checked against a pattern first');
    // A value the step is also given that nothing checks reaches its command as the fork wrote it.
    const unchecked = scanWith(RULE, report(strict, post('          TITLE: ${{ steps.run-info.outputs.title }}\n')));
    expect(unchecked.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(unchecked[0]?.description).toContain('step `Post results` of job `report` (line 29) decides in its `if:` whether it runs (`steps.run-info.outputs.run_id`), so their content steers the job (MEDIUM');
    // Checked only after the step that uses them: no check stands in the way.
    const late = scanWith(RULE, report('          echo checking later\n', post()));
    expect(late.map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('was MEDIUM for any if: deciding whether secrets are used (now the gated job must be steered)', () => {
    const findings = scanWith(RULE, follow(yaml`
      jobs:
        changes:
          runs-on: ubuntu-latest
          permissions:
            actions: read
          outputs:
            should_run: \${{ steps.json.outputs.should_run }}
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: changes
                run-id: \${{ github.event.workflow_run.id }}
            - uses: gradio-app/github/actions/json-to-output@main
              id: json
              with:
                path: output.json
        deploy:
          needs: changes
          if: needs.changes.outputs.should_run == 'true'
          runs-on: ubuntu-latest
          steps:
            - run: ./deploy.sh --pr "$PR"
              env:
                TOKEN: \${{ secrets.DEPLOY_TOKEN }}
                PR: \${{ needs.changes.outputs.should_run }}
    `));
    // The gated job is also given the value, into a command: steered.
    expect(positions(findings)).toEqual(['13:15 MEDIUM']);
    expect(findings[0]?.description).toContain('uses `needs.changes.outputs.should_run`, read from them');
  });

  it('is HIGH when their content is written to $GITHUB_ENV (every later step runs with it)', () => {
    const findings = scanWith(RULE, follow(yaml`
      jobs:
        report:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: meta
                path: meta
                run-id: \${{ github.event.workflow_run.id }}
            - run: echo "VERSION=$(cat meta/version)" >> "$GITHUB_ENV"
            - run: gh release view "$VERSION"
              env:
                GH_TOKEN: \${{ secrets.RELEASE_TOKEN }}
    `));
    expect(positions(findings)).toEqual(['9:15 HIGH']);
    expect(findings[0]?.description).toContain('writes their content to `$GITHUB_ENV`');
  });

  it('is LOW when the write to $GITHUB_ENV is the last step of the job (nothing runs with it)', () => {
    const findings = scanWith(RULE, follow(yaml`
      jobs:
        report:
          runs-on: ubuntu-latest
          env:
            GH_TOKEN: \${{ secrets.RELEASE_TOKEN }}
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: meta
                path: meta
                run-id: \${{ github.event.workflow_run.id }}
            - run: echo "VERSION=$(cat meta/version)" >> "$GITHUB_ENV"
    `));
    expect(positions(findings)).toEqual(['11:15 LOW']);
    expect(findings[0]?.description).toContain('writes their content to `$GITHUB_ENV` or `$GITHUB_PATH`, but no later step of the job runs with it');
  });
});

describe(`${RULE}: artifacts of other runs outside workflow_run (issue 25)`, () => {
  const comment = (pick: string, after: string) => yaml`
    on: issue_comment
    permissions:
      contents: write
    jobs:
      preview:
        if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/preview')
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - run: |
              BRANCH=$(gh pr view "$NUMBER" --json headRefName -q .headRefName)
              RUN_ID=$(gh run list ${pick} --workflow build.yml --json databaseId -q '.[0].databaseId')
              gh run download "$RUN_ID" -n dist -D dist
              ${after}
            env:
              GH_TOKEN: \${{ github.token }}
              NUMBER: \${{ github.event.issue.number }}
  `;

  it('reports an issue_comment job that picks a run by the pull request branch, downloads it and runs it: HIGH with a write token', () => {
    const findings = scanWith(RULE, comment('--branch "$BRANCH"', 'bash dist/deploy.sh'));
    expect(positions(findings)).toEqual(['13:11 HIGH']);
    expect(findings[0]?.description).toContain("a fork's pull request run can be the one picked");
    expect(findings[0]?.description).toContain('`bash dist/deploy.sh`');
    expect(findings[0]?.description).toContain('`contents: write`');
  });

  it('a run picked among push runs is the base repository\'s: nothing to report', () => {
    expect(scanWith(RULE, comment('--branch main --event push', 'bash dist/deploy.sh'))).toEqual([]);
    expect(scanWith(RULE, comment('-b main -e push', 'bash dist/deploy.sh'))).toEqual([]);
    // A branch name alone picks a fork's run too (its pull request can come from a branch named main).
    expect(scanWith(RULE, comment('--branch main', 'bash dist/deploy.sh')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('an isolated directory protects the checkout, not a step that runs or sources what it holds', () => {
    const isolated = (after: string) => yaml`
      on: pull_request_target
      jobs:
        check:
          runs-on: ubuntu-latest
          steps:
            - uses: dawidd6/action-download-artifact@v6
              with:
                workflow: build.yml
                pr: \${{ github.event.pull_request.number }}
                allow_forks: true
                path: \${{ runner.temp }}/build
            - run: ${after}
              env:
                TOKEN: \${{ secrets.BOT_TOKEN }}
    `;
    expect(scanWith(RULE, isolated('ls "$RUNNER_TEMP/build"'))).toEqual([]);
    const [sourced] = scanWith(RULE, isolated('source "$RUNNER_TEMP/build/env.sh"'));
    expect(sourced?.severity).toBe('HIGH');
    expect(sourced?.description).toContain('`source "$RUNNER_TEMP/build/env.sh"`');
    expect(scanWith(RULE, isolated('bash ${{ runner.temp }}/build/run.sh')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('behind a member check on the comment, a maintainer approves each run, and the branch can move after it: MEDIUM', () => {
    const gated = comment('--branch "$BRANCH"', 'bash dist/deploy.sh').replace(
      "if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/preview')",
      "if: github.event.issue.pull_request && github.event.comment.author_association == 'MEMBER'",
    );
    expect(scanWith(RULE, gated).map((f) => f.severity)).toEqual(['MEDIUM']);
  });
});

describe(`${RULE}: attack paths`, () => {
  const paths = (text: string) => findCombinations(scanRepository([{ path: '.github/workflows/follow.yml', text }], {}).records, () => true).map((c) => `${c.id} ${c.severity}`);
  const workflow = (later: string) => ON + yaml`
    jobs:
      report:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/download-artifact@v4
            with:
              name: meta
              path: meta
              run-id: \${{ github.event.workflow_run.id }}
${later}
  `;

  it('artifact-poisoning-chain needs the files to run (exec) in a job an outsider starts', () => {
    expect(paths(workflow('          - run: echo "V=$(cat meta/version)" >> "$GITHUB_ENV"\n          - run: make'))).toContain('artifact-poisoning-chain CRITICAL');
    expect(paths(workflow('          - run: bash meta/post.sh'))).toContain('artifact-poisoning-chain CRITICAL');
    // Their content only steers a command (MEDIUM, no exec): no chain.
    expect(paths(workflow('          - run: gh pr edit "$(cat meta/number)" --add-label ok'))).not.toContain('artifact-poisoning-chain CRITICAL');
    expect(paths(workflow('          - run: gh pr edit "$(cat meta/number)" --add-label ok')).some((p) => p.startsWith('artifact-poisoning-chain'))).toBe(false);
  });

  it('reads what the download step itself does after `gh run download`: an unquoted value in a command is MEDIUM, a validated one nothing', () => {
    const workflow = (after: string) => ON + yaml`
      jobs:
        preview:
          runs-on: ubuntu-latest
          steps:
            - env:
                GH_TOKEN: \${{ github.token }}
                AWS_SECRET_ACCESS_KEY: \${{ secrets.AWS_SECRET }}
              run: |
                gh run download \${{ github.event.workflow_run.id }} -n preview
${after}
    `;
    const [steered] = scanWith(RULE, workflow('                PR=$(cat pr-number.txt)\n                aws s3 sync ./site s3://previews/$PR --delete'));
    expect(steered?.severity).toBe('MEDIUM');
    expect(steered?.description).toContain('aws s3 sync ./site s3://previews/$PR --delete');
    const validated = scanWith(RULE, workflow('                PR=$(cat pr-number.txt)\n                [[ "$PR" =~ ^[0-9]+$ ]] || exit 1\n                aws s3 sync ./site "s3://previews/$PR" --delete'));
    expect(validated).toEqual([]);
    // Nothing read after the download: LOW, as before.
    expect(positions(scanWith(RULE, workflow('                ls')))).toEqual(['13:11 LOW']);
  });
});

describe(`${RULE}: dawidd6/action-download-artifact skips forks' runs by default (v4 on)`, () => {
  const pick = (uses: string, inputs: string) => ON + yaml`
    jobs:
      report:
        runs-on: ubuntu-latest
        permissions:
          contents: write
        steps:
          - uses: actions/checkout@v3
          - ${uses}
            with:
              workflow: ci.yml
              commit: \${{ github.event.workflow_run.head_sha }}
${inputs}
          - run: npm ci && npm run report
  `;
  const forks = (value: string) => `              allow_forks: ${value}`;

  it('reports a search that may take a fork\'s run: allowed, an older default, or a run named by run_id', () => {
    expect(positions(scanWith(RULE, pick('uses: dawidd6/action-download-artifact@v6', forks('true'))))).toEqual(['12:15 HIGH']);
    // v2.28.0 to v3 allowed forks by default; before v2.28.0 there was no such input, so `false` did nothing.
    expect(positions(scanWith(RULE, pick('uses: dawidd6/action-download-artifact@v3', '')))).toEqual(['12:15 HIGH']);
    expect(positions(scanWith(RULE, pick(`uses: dawidd6/action-download-artifact@${'a'.repeat(40)} # v2.27.0`, forks('false'))))).toEqual(['12:15 HIGH']);
    // An expression may be true.
    expect(positions(scanWith(RULE, pick('uses: dawidd6/action-download-artifact@v6', forks('${{ inputs.forks }}'))))).toEqual(['12:15 HIGH']);
    // A bare commit whose version is not known may be an old one.
    expect(positions(scanWith(RULE, pick(`uses: dawidd6/action-download-artifact@${'b'.repeat(40)}`, '')))).toEqual(['12:15 HIGH']);
    // A run named by run_id is fetched as given, a fork's too.
    const byId = ON + yaml`
      jobs:
        report:
          runs-on: ubuntu-latest
          permissions:
            contents: write
          steps:
            - uses: dawidd6/action-download-artifact@v6
              with:
                run_id: \${{ github.event.workflow_run.id }}
            - run: npm ci
    `;
    expect(positions(scanWith(RULE, byId))).toEqual(['11:15 HIGH']);
  });

  it('reports nothing when the search skips forks\' runs: the run found is one of a branch of the repository', () => {
    expect(scanWith(RULE, pick('uses: dawidd6/action-download-artifact@v6', ''))).toEqual([]);
    expect(scanWith(RULE, pick(`uses: dawidd6/action-download-artifact@${'c'.repeat(40)} # v21`, ''))).toEqual([]);
    expect(scanWith(RULE, pick('uses: dawidd6/action-download-artifact@master', ''))).toEqual([]);
    expect(scanWith(RULE, pick('uses: dawidd6/action-download-artifact@v3', forks('false')))).toEqual([]);
    expect(scanWith(RULE, pick('uses: dawidd6/action-download-artifact@v2', forks('False')))).toEqual([]);
  });
});

describe(`${RULE}: files only published as they are`, () => {
  const deploy = (script: string) => ON + yaml`
    jobs:
      preview:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - uses: actions/download-artifact@v4
            with:
              name: site
              path: site
              run-id: \${{ github.event.workflow_run.id }}
          - run: ${script}
            env:
              SURGE_TOKEN: \${{ secrets.SURGE_TOKEN }}
  `;

  it('is LOW when a static host only receives the files, and names the upload', () => {
    const [finding] = scanWith(RULE, deploy('npx surge ./site preview-1.example.dev'));
    expect(finding?.severity).toBe('LOW');
    expect(finding?.description).toContain('uploads or deploys them as they are (`npx surge ./site preview-1.example.dev`)');
    expect(finding?.description).toContain('the fork chooses only the files that upload publishes');
  });

  it('is HIGH when the deploy tool runs from the directory the files landed in', () => {
    const [finding] = scanWith(RULE, deploy('cd site && npx surge . preview-1.example.dev'));
    expect(finding?.severity).toBe('HIGH');
    expect(finding?.description).toContain('from `site/`');
  });
});

describe(`${RULE}: values that only decide a comment or a status`, () => {
  const changes = yaml`
    changes:
      runs-on: ubuntu-latest
      permissions:
        actions: read
      outputs:
        should_run: \${{ steps.json.outputs.should_run }}
        pr: \${{ steps.json.outputs.pr }}
        sha: \${{ steps.json.outputs.sha }}
      steps:
        - uses: actions/download-artifact@v4
          with:
            name: changes
            run-id: \${{ github.event.workflow_run.id }}
        - uses: example-org/ci/actions/json-to-output@main
          id: json
          with:
            path: output.json
  `;
  const indent = (text: string) => text.split('\n').map((l) => (l === '' ? l : `  ${l}`)).join('\n');
  const workflow = (jobs: string) => `${ON}jobs:\n${indent(changes)}\n${indent(jobs)}`;
  const commentQueue = (steps: string) => ({
    path: '.github/workflows/comment.yml',
    text: yaml`
      on:
        workflow_call:
          inputs:
            pr: { type: string }
          secrets:
            token: { required: true }
      jobs:
        comment:
          runs-on: ubuntu-latest
          steps:
    ` + steps.split('\n').map((l) => `      ${l}`).join('\n') + '\n',
  });
  const callComment = yaml`
    comment-start:
      needs: changes
      if: needs.changes.outputs.should_run == 'true'
      uses: ./.github/workflows/comment.yml
      secrets:
        token: \${{ secrets.COMMENT_TOKEN }}
      with:
        pr: \${{ needs.changes.outputs.pr }}
  `;
  const status = yaml`
    update-status:
      needs: changes
      if: needs.changes.outputs.should_run == 'false'
      runs-on: ubuntu-latest
      permissions:
        statuses: write
      steps:
        - run: echo "CHECK=tests" >> "$GITHUB_ENV"
        - uses: example-org/ci/actions/set-commit-status@main
          with:
            sha: \${{ needs.changes.outputs.sha }}
            token: \${{ secrets.GITHUB_TOKEN }}
  `;
  const posting = commentQueue('- uses: example-org/ci/actions/comment-pr@main\n  with:\n    token: ${{ secrets.token }}\n    pr: ${{ inputs.pr }}');

  it('is LOW when the gated job only comments (through a reusable workflow) or only sets a status, naming it', () => {
    const [comment] = scanWith(RULE, [{ path: '.github/workflows/follow.yml', text: workflow(callComment) }, posting]);
    expect(comment?.severity).toBe('LOW');
    expect(comment?.description).toContain('job `comment-start` runs only when `needs.changes.outputs.should_run`, read from them, says so (its `if:`), a job that only posts, edits or hides a comment (`./.github/workflows/comment.yml`)');
    expect(comment?.description).toContain("a comment of the fork's wording, or on a pull request it picks");
    const [marked] = scanWith(RULE, [{ path: '.github/workflows/follow.yml', text: workflow(status) }]);
    expect(marked?.severity).toBe('LOW');
    expect(marked?.description).toContain("a spoofed status or check on a commit of the fork's choosing");
    // A step that only comments, behind an if: on the value.
    const stepGate = yaml`
      notify:
        needs: changes
        runs-on: ubuntu-latest
        steps:
          - if: needs.changes.outputs.should_run == 'true'
            uses: actions/github-script@v7
            with:
              script: |
                await github.rest.issues.createComment({ ...context.repo, issue_number: 1, body: 'queued' })
    `;
    expect(scanWith(RULE, workflow(stepGate)).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('is LOW when the value only decides whether a job or step that holds secrets runs; MEDIUM when the gated step is given the value', () => {
    const deploy = yaml`
      deploy:
        needs: changes
        if: needs.changes.outputs.should_run == 'true'
        runs-on: ubuntu-latest
        steps:
          - run: ./deploy.sh
            env:
              TOKEN: \${{ secrets.DEPLOY_TOKEN }}
    `;
    const [both] = scanWith(RULE, [{ path: '.github/workflows/follow.yml', text: workflow(`${callComment}\n${deploy}`) }, posting]);
    expect(both?.severity).toBe('LOW');
    expect(both?.description).toContain('job `deploy` runs only when `needs.changes.outputs.should_run`, read from them, says so (its `if:`), a job that holds');
    expect(both?.description).toContain('secret `DEPLOY_TOKEN`');
    expect(both?.description).toContain("at worst the base repository's own step runs, or is skipped, when the fork says");
    // The called workflow builds before it comments: not only a comment.
    const builds = commentQueue('- run: make preview\n- uses: example-org/ci/actions/comment-pr@main\n  with:\n    pr: ${{ inputs.pr }}');
    expect(scanWith(RULE, [{ path: '.github/workflows/follow.yml', text: workflow(callComment) }, builds]).map((f) => f.severity)).toEqual(['MEDIUM']);
    // A step behind the if: that runs a script with a secret.
    const stepGate = yaml`
      notify:
        needs: changes
        runs-on: ubuntu-latest
        steps:
          - if: needs.changes.outputs.should_run == 'true'
            run: ./release.sh
            env:
              TOKEN: \${{ secrets.RELEASE_TOKEN }}
    `;
    const [step] = scanWith(RULE, workflow(stepGate));
    expect(step?.severity).toBe('LOW');
    expect(step?.description).toContain('decides in its `if:` whether it runs (`needs.changes.outputs.should_run`), and that step (a script) runs none of their content and is given none of their values');
    // The same step given the value (through env, into a command): steered, MEDIUM.
    const given = yaml`
      notify:
        needs: changes
        runs-on: ubuntu-latest
        steps:
          - if: needs.changes.outputs.should_run == 'true'
            run: ./release.sh "$N"
            env:
              TOKEN: \${{ secrets.RELEASE_TOKEN }}
              N: \${{ needs.changes.outputs.should_run }}
    `;
    expect(scanWith(RULE, workflow(given)).map((f) => f.severity)).toEqual(['MEDIUM']);
    // The gated step's own behaviour is steered by the fork's other files (a version read from them picks where a
    // write with the job's credentials goes): the if: unlocks something the fork steers.
    const steered = yaml`
      upload:
        needs: changes
        runs-on: ubuntu-latest
        steps:
          - uses: actions/download-artifact@v4
            with:
              name: docs
              path: docs
              run-id: \${{ github.event.workflow_run.id }}
          - if: needs.changes.outputs.should_run == 'true'
            run: |
              version=$(jq -r .version docs/version.json)
              aws s3 cp ./docs/ s3://bucket/$version/ --recursive
            env:
              AWS_SECRET_ACCESS_KEY: \${{ secrets.AWS_SECRET }}
    `;
    // The gate decides only whether the upload runs (LOW); where the upload goes is the MEDIUM at its own download.
    const found = scanWith(RULE, workflow(steered));
    expect(found.map((f) => f.severity)).toEqual(['LOW', 'MEDIUM']);
    expect(found[0]?.description).toContain("decides in its `if:` whether it runs (`needs.changes.outputs.should_run`), and that step (a script) is given none of their values: the fork decides only whether it runs");
  });

  describe('a value read from the files names the commit a later checkout brings', () => {
    const job = (read: string, ref: string, build = '- run: npm ci && npm run build', path = '') => ON + yaml`
      permissions:
        contents: read
      jobs:
        preview:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: meta
                run-id: \${{ github.event.workflow_run.id }}${path}
            ${read}
            - uses: actions/checkout@v3
              with:
                ref: ${ref}
            ${build}
              env:
                NETLIFY_AUTH_TOKEN: \${{ secrets.NETLIFY_AUTH_TOKEN }}
    `;
    const script = `- id: meta
              run: echo "sha=$(cat sha.txt)" >> "$GITHUB_OUTPUT"`;
    const githubScript = `- id: meta
              uses: actions/github-script@v7
              with:
                script: |
                  const sha = require('fs').readFileSync(process.env.RUNNER_TEMP + '/meta/sha.txt', 'utf8').trim();
                  core.setOutput('sha', sha);`;
    const env = `- run: echo "PR_SHA=$(cat sha.txt)" >> "$GITHUB_ENV"`;

    it('is a code sink: the fork picks the code the build runs (HIGH with a secret), whether read by a script, a github-script or through $GITHUB_ENV', () => {
      for (const [read, ref, path] of [
        [script, '${{ steps.meta.outputs.sha }}', ''],
        [githubScript, '${{ steps.meta.outputs.sha }}', '\n                path: ${{ runner.temp }}/meta'],
        [env, '${{ env.PR_SHA }}', ''],
      ] as const) {
        const records = recordsWith(RULE, job(read, ref, undefined, path));
        expect(positions(records.map((r) => r.finding)), read).toEqual(['11:15 HIGH']);
        expect(records[0]?.finding.description).toContain('checks out the commit a value read from them names');
        expect(records[0]?.finding.description).toContain('`npm ci`');
        expect(records[0]?.facts).toContain('exec');
        // The checkout is the pull request's code too.
        expect(positions(scanWith('untrusted-checkout', job(read, ref, undefined, path))).map((p) => p.split(' ')[1])).toEqual(['HIGH']);
      }
    });

    it('is no code sink when nothing runs the checkout, or the ref does not come from the files', () => {
      const quiet = job(script, '${{ steps.meta.outputs.sha }}', '- run: echo done');
      expect(recordsWith(RULE, quiet).map((r) => r.facts?.includes('exec') ?? false)).not.toContain(true);
      expect(scanWith('untrusted-checkout', quiet).map((f) => f.severity)).not.toContain('HIGH');
      const fixed = job(`- id: meta
              run: echo "sha=main" >> "$GITHUB_OUTPUT"`, '${{ steps.meta.outputs.sha }}');
      expect(recordsWith(RULE, fixed).map((r) => r.facts?.includes('exec') ?? false)).not.toContain(true);
      expect(scanWith('untrusted-checkout', fixed)).toEqual([]);
      const otherVariable = job(`- run: echo "OTHER=$(cat sha.txt)" >> "$GITHUB_ENV"`, '${{ env.PR_SHA }}');
      expect(scanWith('untrusted-checkout', otherVariable)).toEqual([]);
    });
  });
});

describe(`${RULE}: runs listed from a workflow that never runs on pull requests`, () => {
  const release = (trigger: string) => ({ path: '.github/workflows/release.yml', text: `name: Release build\non: ${trigger}\njobs: {}\n` });
  const follow = (steps: string) => ({
    path: '.github/workflows/follow.yml',
    text: yaml`
      on:
        issue_comment:
          types: [created]
      jobs:
        install:
          runs-on: ubuntu-latest
          permissions:
            contents: write
          steps:
            ${steps}
            - run: bash dist/install.sh
    `,
  });
  const listed = (list: string) => `- env:
                GH_TOKEN: \${{ github.token }}
              run: |
                RUN_ID=$(${list} --limit 1 --json databaseId --jq '.[0].databaseId')
                gh run download "$RUN_ID" -n dist -D dist`;

  it('reports nothing when `gh run list --workflow` names a workflow here that runs only on push, by hand or on a schedule', () => {
    const trusted = release("{ push: { branches: [main] }, workflow_dispatch: {}, schedule: [{ cron: '0 0 * * *' }] }");
    expect(scanWith(RULE, [follow(listed('gh run list --workflow release.yml --branch main')), trusted])).toEqual([]);
    // `-w` with the workflow's name, and the path, in the same repository spelled out.
    expect(scanWith(RULE, [follow(listed("gh run list -w 'Release build'")), trusted])).toEqual([]);
    expect(scanWith(RULE, [follow(listed('gh run list -R "$GITHUB_REPOSITORY" --workflow=.github/workflows/release.yml')), trusted])).toEqual([]);
    // The run id computed by an earlier step and given to actions/download-artifact.
    const computed = `- id: find
              env:
                GH_TOKEN: \${{ github.token }}
              run: echo "id=$(gh run list --workflow release.yml -L 1 --json databaseId -q '.[0].databaseId')" >> "$GITHUB_OUTPUT"
            - uses: actions/download-artifact@v4
              with:
                name: dist
                path: dist
                run-id: \${{ steps.find.outputs.id }}
                github-token: \${{ github.token }}`;
    expect(scanWith(RULE, [follow(computed), trusted])).toEqual([]);
  });

  it('negative: still reports a workflow that runs on pull requests, one not in the repository, another repository, or no workflow', () => {
    expect(scanWith(RULE, [follow(listed('gh run list --workflow release.yml')), release('[push, pull_request]')]).map((f) => f.severity)).toEqual(['HIGH']);
    // `pull_request_target` runs the base repository's file: its artifacts carry a fork's code when a job uploads after checking out the pull request's head.
    const headBuild = {
      path: '.github/workflows/release.yml',
      text: yaml`
        name: Release build
        on: pull_request_target
        jobs:
          build:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
                with:
                  ref: \${{ github.event.pull_request.head.sha }}
              - run: make dist
              - uses: actions/upload-artifact@v4
                with: { name: dist, path: dist }
      `,
    };
    expect(scanWith(RULE, [follow(listed('gh run list --workflow release.yml')), headBuild]).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, [follow(listed('gh run list --workflow release.yml')), { ...headBuild, text: headBuild.text.replace(/\n\s*with:\n\s*ref: .*\n/, '\n') }])).toEqual([]);
    const trusted = release('push');
    expect(scanWith(RULE, [follow(listed('gh run list --workflow other.yml')), trusted]).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, [follow(listed('gh run list -R someone/else --workflow release.yml')), trusted]).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, [follow(listed('gh run list --branch main')), trusted]).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, [follow(listed('gh run list --workflow "$WORKFLOW"')), trusted]).map((f) => f.severity)).toEqual(['HIGH']);
    // The release workflow's runs are listed, but the run downloaded comes from another query.
    const other = `- env:
                GH_TOKEN: \${{ github.token }}
                BRANCH: \${{ github.event.issue.title }}
              run: |
                LAST=$(gh run list --workflow release.yml -L 1 --json databaseId -q '.[0].databaseId')
                RUN_ID=$(gh api "repos/$GITHUB_REPOSITORY/actions/runs?branch=$BRANCH" --jq '.workflow_runs[0].id')
                echo "last release build: $LAST"
                gh run download "$RUN_ID" -n dist -D dist`;
    expect(scanWith(RULE, [follow(other), trusted]).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe(`${RULE}: a github-script that checks what it reads`, () => {
  const workflow = (script: string) => yaml`
    on:
      workflow_run:
        workflows: [CI]
        types: [completed]
    jobs:
      comment:
        runs-on: ubuntu-latest
        permissions:
          pull-requests: write
        steps:
          - uses: actions/download-artifact@v4
            with:
              name: pr
              run-id: \${{ github.event.workflow_run.id }}
              github-token: \${{ github.token }}
          - uses: actions/github-script@v7
            id: js
            with:
              script: |
                ${script}
          - run: gh pr edit "$PR" --add-label checked
            env:
              PR: \${{ steps.js.outputs.number }}
              GH_TOKEN: \${{ secrets.BOT_TOKEN }}
  `;
  const read = "const fs = require('fs');\n                const v = fs.readFileSync('pr/number', 'utf8').trim();";

  it('reports nothing when every value read is checked against a strict pattern before use, failing otherwise, or made a number', () => {
    expect(scanWith(RULE, workflow(`${read}\n                if (!/^[1-9][0-9]*$/.test(v)) {\n                  core.setFailed('not a number');\n                  return;\n                }\n                core.setOutput('number', v);`))).toEqual([]);
    expect(scanWith(RULE, workflow(`${read}\n                if (!/^\\d+$/.test(v)) throw new Error('not a number');\n                core.setOutput('number', v);`))).toEqual([]);
    expect(scanWith(RULE, workflow("const n = Number(require('fs').readFileSync('pr/number', 'utf8'));\n                core.setOutput('number', n);"))).toEqual([]);
  });

  it('reports nothing when a 40-hex SHA and a number are checked in one `if` (the `{40}` quantifier is no block), MEDIUM when one check is open', () => {
    const both = (sha: string) => `${read}\n                const sha = fs.readFileSync('pr/sha', 'utf8').trim();\n                if (!${sha}.test(sha) || !/^\\d+$/.test(v)) { core.setFailed('invalid'); return; }\n                core.setOutput('number', v);\n                core.setOutput('sha', sha);`;
    expect(scanWith(RULE, workflow(both('/^[0-9a-f]{40}$/')))).toEqual([]);
    expect(scanWith(RULE, workflow(`${read}\n                const sha = fs.readFileSync('pr/sha', 'utf8').trim();\n                if (!/^\\d+$/.test(v) || !/^[0-9a-f]{40}$/.test(sha)) throw new Error('invalid');\n                core.setOutput('number', v);`))).toEqual([]);
    // The number's check is what keeps the value used here: with the `m` flag a newline and anything after it pass.
    expect(scanWith(RULE, workflow(`${read}\n                const sha = fs.readFileSync('pr/sha', 'utf8').trim();\n                if (!/^[0-9a-f]{40}$/.test(sha) || !/^\\d+$/m.test(v)) { core.setFailed('invalid'); return; }\n                core.setOutput('number', v);`)).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('negative: still reports a check that goes on, a pattern with the m flag, a use before the check, or a file parsed as JSON', () => {
    const reported = (script: string) => scanWith(RULE, workflow(script)).map((f) => f.severity);
    expect(reported(`${read}\n                if (!/^\\d+$/.test(v)) core.warning('odd');\n                core.setOutput('number', v);`)).toEqual(['MEDIUM']);
    expect(reported(`${read}\n                if (!/^\\d+$/m.test(v)) throw new Error('not a number');\n                core.setOutput('number', v);`)).toEqual(['MEDIUM']);
    expect(reported(`${read}\n                core.setOutput('number', v);\n                if (!/^\\d+$/.test(v)) throw new Error('not a number');`)).toEqual(['MEDIUM']);
    expect(reported("const data = JSON.parse(require('fs').readFileSync('pr/event.json', 'utf8'));\n                core.setOutput('number', data.number);")).toEqual(['MEDIUM']);
  });
});

describe(`${RULE}: a directory named like a GitHub CLI subcommand`, () => {
  const workflow = (use: string) => yaml`
    on:
      workflow_run:
        workflows: [CI]
        types: [completed]
    jobs:
      j:
        runs-on: ubuntu-latest
        permissions:
          pull-requests: write
          contents: write
        steps:
          - run: gh run download \${{ github.event.workflow_run.id }} -n pr -D pr
            env:
              GH_TOKEN: \${{ github.token }}
          - run: |
              PR=$(cat pr/number)
              if ! [[ "$PR" =~ ^[1-9][0-9]*$ ]]; then exit 1; fi
              echo "PR_NUMBER=$PR" >> "$GITHUB_ENV"
          - run: ${use}
            env:
              GH_TOKEN: \${{ github.token }}
  `;

  it('does not take `gh pr ...` for a use of the files in `pr/`', () => {
    expect(scanWith(RULE, workflow('gh pr merge "$PR_NUMBER" --auto --squash'))).toEqual([]);
  });

  it('negative: a path into `pr/` is still a use of the files', () => {
    expect(scanWith(RULE, workflow('gh pr merge "$PR_NUMBER" --auto --body-file pr/body.md')).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('follows an archive of a download kept outside the workspace that a script extracts into it, then runs', () => {
    const extracted = (extract: string, run: string) => ON + yaml`
      jobs:
        e2e:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: actions/download-artifact@v4
              with:
                name: build
                run-id: \${{ github.event.workflow_run.id }}
                github-token: \${{ secrets.GITHUB_TOKEN }}
                path: \${{ runner.temp }}/build
            - run: ${extract}
            - run: ${run}
              env:
                API_KEY: \${{ secrets.E2E_KEY }}
    `;
    const over = scanWith(RULE, extracted('tar -xzf ${{ runner.temp }}/build/build.tar.gz -C .', 'npm run build'));
    expect(over.map((f) => f.severity)).toEqual(['HIGH']);
    expect(over[0]?.description).toContain('extracted into the workspace by `tar -xzf');
    expect(over[0]?.description).toContain('secret `E2E_KEY`');
    expect(scanWith(RULE, extracted('unzip "$RUNNER_TEMP/build/dist.zip" -d dist', 'node dist/cli.js --e2e')).map((f) => f.severity)).toEqual(['HIGH']);
    // Extracted into another directory outside the workspace, or an archive made (not extracted): nothing lands there.
    expect(scanWith(RULE, extracted('tar -xzf ${{ runner.temp }}/build/build.tar.gz -C ${{ runner.temp }}/out', 'npm run build'))).toEqual([]);
    expect(scanWith(RULE, extracted('tar -czf xfiles.tgz ${{ runner.temp }}/build', 'npm run build'))).toEqual([]);
    // Extracted into a directory nothing runs from: in the workspace now, LOW as a download there nothing runs.
    expect(scanWith(RULE, extracted('unzip "$RUNNER_TEMP/build/report.zip" -d report', 'npm run build')).map((f) => f.severity)).toEqual(['LOW']);
  });
});

describe(`${RULE}: a github-script that only reads the files into its outputs`, () => {
  const workflow = (extra: string, use: string) => `${ON}permissions:
  contents: write
  pull-requests: write
  statuses: write
jobs:
  read:
    runs-on: ubuntu-latest
    outputs:
      pr: \${{ steps.pr.outputs.pr }}
      sha: \${{ steps.pr.outputs.sha }}
    steps:
      - uses: actions/download-artifact@v4
        with:
          name: pr
          run-id: \${{ github.event.workflow_run.id }}
          github-token: \${{ github.token }}
      - id: pr
        uses: actions/github-script@v7
        with:
          script: |
            const fs = require('fs');${extra}
            core.setOutput('pr', fs.readFileSync('pr_number', 'utf8').trim());
            core.setOutput('sha', fs.readFileSync('head_sha', 'utf8').trim());
  notify:
    needs: read
    runs-on: ubuntu-latest
    steps:
${use}`;
  const comment = `      - run: gh pr comment "$PR" --body "The preview is ready"
        env:
          PR: \${{ needs.read.outputs.pr }}
          GH_TOKEN: \${{ secrets.BOT_TOKEN }}
      - run: gh api "repos/$GITHUB_REPOSITORY/statuses/$SHA" -f state=success -f context=preview
        env:
          SHA: \${{ needs.read.outputs.sha }}
          GH_TOKEN: \${{ secrets.BOT_TOKEN }}
`;

  it('is LOW when the outputs only pick where a fixed comment or a status goes (through env:), naming the sink', () => {
    const findings = scanWith(RULE, workflow('', comment));
    expect(findings.map((f) => f.severity)).toEqual(['LOW']);
    expect(findings[0]?.description).toContain('which only sets a commit status or check');
    expect(findings[0]?.description).toContain('LOW: at worst a spoofed status or check on a commit of the fork\'s choosing');
    const github = `      - uses: actions/github-script@v7
        env:
          PR: \${{ needs.read.outputs.pr }}
        with:
          github-token: \${{ secrets.BOT_TOKEN }}
          script: |
            await github.rest.issues.createComment({ ...context.repo, issue_number: Number(process.env.PR), body: 'Thanks' });
`;
    const [fixed] = scanWith(RULE, workflow('', github));
    expect(fixed?.severity).toBe('LOW');
    expect(fixed?.description).toContain('gives `needs.read.outputs.pr` to actions/github-script, which only posts a fixed comment');
  });

  it('is LOW when curl posts the comment or the status to the API with the value, writing no file', () => {
    const curl = `      - run: |
          curl -sS -X POST -H "Authorization: Bearer $GH_TOKEN" "$GITHUB_API_URL/repos/$GITHUB_REPOSITORY/issues/$PR/comments" -d '{"body":"Thanks"}'
          curl -sS -X POST -H "Authorization: Bearer $GH_TOKEN" "https://api.github.com/repos/$GITHUB_REPOSITORY/statuses/$SHA" -d '{"state":"success"}'
        env:
          PR: \${{ needs.read.outputs.pr }}
          SHA: \${{ needs.read.outputs.sha }}
          GH_TOKEN: \${{ secrets.BOT_TOKEN }}
`;
    const findings = scanWith(RULE, workflow('', curl));
    expect(findings.map((f) => f.severity)).toEqual(['LOW']);
    expect(findings[0]?.description).toContain('gives `needs.read.outputs.pr` to a script, which only posts, edits or hides a comment');
    // `-o` writes what the API answers to a file (`-K` would read options from one): not only a comment.
    expect(scanWith(RULE, workflow('', curl.replace('curl -sS -X POST', 'curl -sS -o out.json -X POST'))).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it('negative: MEDIUM when the reading script does more (a process), HIGH when an output is spliced into a script', () => {
    expect(scanWith(RULE, workflow("\n            const { execSync } = require('child_process');", comment)).map((f) => f.severity)).toEqual(['MEDIUM']);
    const spliced = `      - run: ./notify.sh \${{ needs.read.outputs.pr }}
        env:
          TOKEN: \${{ secrets.DEPLOY_TOKEN }}
`;
    expect(scanWith(RULE, workflow('', spliced)).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('is HIGH when a comment or status step expands the value with ${{ }} into its script: it is code before anything posts', () => {
    const comment = `      - run: gh pr comment \${{ needs.read.outputs.pr }} --body "The preview is ready"
        env:
          GH_TOKEN: \${{ secrets.BOT_TOKEN }}
`;
    const [finding] = scanWith(RULE, workflow('', comment));
    expect(finding?.severity).toBe('HIGH');
    expect(finding?.description).toContain('expands `needs.read.outputs.pr`, read from them, with `${{ }}` into its `run:` script');
    // Quoted or in a JavaScript string it is code all the same (`"$(curl ... | sh)"`, `'); ...; ('`).
    const js = `      - uses: actions/github-script@v7
        with:
          github-token: \${{ secrets.BOT_TOKEN }}
          script: |
            await github.rest.issues.createComment({ ...context.repo, issue_number: Number('\${{ needs.read.outputs.pr }}'), body: 'Thanks' });
`;
    expect(scanWith(RULE, workflow('', js)).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe(`${RULE}: a value split into the words of a comment's call with a write token`, () => {
  const job = (steps: string, permissions = '{ pull-requests: write }') => ON + yaml`
    permissions: ${permissions}
    jobs:
      comment:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/download-artifact@v4
            with:
              run-id: \${{ github.event.workflow_run.id }}
${steps}
  `;
  const inline = (command: string, check = '') => `          - run: |
              PR=$(cat NR)${check}
              ${command}
            env:
              GH_TOKEN: \${{ secrets.GITHUB_TOKEN }}`;
  const viaEnv = (command: string) => `          - id: pr
            run: echo "number=$(cat NR)" >> "$GITHUB_OUTPUT"
          - run: ${command}
            env:
              GH_TOKEN: \${{ github.token }}
              PR: \${{ steps.pr.outputs.number }}`;

  it('is MEDIUM when the value is expanded unquoted into `gh` with a token that can write (argument injection)', () => {
    const [api] = scanWith(RULE, job(inline('gh api repos/$GITHUB_REPOSITORY/issues/$PR/comments -f body="Thanks"')));
    expect(api?.severity).toBe('MEDIUM');
    expect(api?.description).toContain('expands what it reads unquoted in `gh api repos/$GITHUB_REPOSITORY/issues/$PR/comments');
    expect(api?.description).toContain('argument injection');
    const [pr] = scanWith(RULE, job(viaEnv('gh pr comment $PR --body "Thanks"')));
    expect(pr?.severity).toBe('MEDIUM');
    expect(pr?.description).toContain('its script expands it unquoted in `gh pr comment $PR --body "Thanks"`');
    // A file read in an unquoted substitution splits the same way.
    const [sub] = scanWith(RULE, job(`          - run: gh pr comment $(cat NR) --body "Thanks"
            env:
              GH_TOKEN: \${{ secrets.GITHUB_TOKEN }}`));
    expect(sub?.severity).toBe('MEDIUM');
    // Another credential given as the token can write whatever the job's token is.
    const [bot] = scanWith(RULE, job(viaEnv('gh pr comment $PR --body "Thanks"').replace('${{ github.token }}', '${{ secrets.BOT_TOKEN }}'), '{ contents: read }'));
    expect(bot?.severity).toBe('MEDIUM');
  });

  it('stays LOW when the value is quoted, checked as a number, or the token cannot write', () => {
    expect(scanWith(RULE, job(inline('gh api "repos/$GITHUB_REPOSITORY/issues/$PR/comments" -f body="Thanks"'))).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith(RULE, job(viaEnv('gh pr comment "$PR" --body "Thanks"'))).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith(RULE, job(`          - run: gh pr comment "$(cat NR)" --body "Thanks"
            env:
              GH_TOKEN: \${{ secrets.GITHUB_TOKEN }}`)).map((f) => f.severity)).toEqual(['LOW']);
    // Checked against an anchored number pattern before the call: no claim, as for any validated value.
    const checked = scanWith(RULE, job(inline('gh pr comment $PR --body "Thanks"', `\n              [[ "$PR" =~ ^[0-9]+$ ]] || exit 1`)));
    expect(checked.every((f) => f.severity === 'LOW')).toBe(true);
    // A read-only token, or none given to the command.
    expect(scanWith(RULE, job(viaEnv('gh pr comment $PR --body "Thanks"'), '{ contents: read }')).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith(RULE, job(`          - run: |
              PR=$(cat NR)
              gh pr comment $PR --body "Thanks"`)).map((f) => f.severity)).toEqual(['LOW']);
  });
});

describe(`${RULE}: a value split into the words of a \`gh\` or \`curl\` call run by a command substitution`, () => {
  const job = (steps: string, permissions = '{ pull-requests: write }') => ON + yaml`
    permissions: ${permissions}
    jobs:
      comment:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/download-artifact@v4
            with:
              run-id: \${{ github.event.workflow_run.id }}
${steps}
  `;
  const inline = (command: string) => `          - run: |
              PR=$(cat NR)
              ${command}
            env:
              GH_TOKEN: \${{ secrets.GITHUB_TOKEN }}`;
  const viaEnv = (command: string) => `          - id: pr
            run: echo "number=$(cat NR)" >> "$GITHUB_OUTPUT"
          - run: ${command}
            env:
              GH_TOKEN: \${{ github.token }}
              PR: \${{ steps.pr.outputs.number }}`;
  const forms: [string, string][] = [
    ['if [[ `gh api repos/${{ github.repository }}/pulls/$PR/files --jq length` -gt 0 ]]; then gh pr comment "$PR" --body "Thanks"; fi', 'gh api repos/${{ github.repository }}/pulls/$PR/files --jq length'],
    ['if [[ $(gh api repos/$GITHUB_REPOSITORY/pulls/$PR/files --jq length) -gt 0 ]]; then echo changed; fi', 'gh api repos/$GITHUB_REPOSITORY/pulls/$PR/files --jq length'],
    ['SHA=$(gh api repos/$GITHUB_REPOSITORY/pulls/$PR --jq .head.sha); echo "$SHA"', 'gh api repos/$GITHUB_REPOSITORY/pulls/$PR --jq .head.sha'],
    ['gh api repos/$GITHUB_REPOSITORY/pulls/$PR/files | jq length', 'gh api repos/$GITHUB_REPOSITORY/pulls/$PR/files'],
    ['echo "$(curl -sS -H "Authorization: token $GH_TOKEN" https://api.github.com/repos/$GITHUB_REPOSITORY/pulls/$PR)" | jq .title', 'curl -sS -H "Authorization: token $GH_TOKEN" https://api.github.com/repos/'],
    ['if gh api repos/$GITHUB_REPOSITORY/pulls/$PR/merge; then echo merged; fi', 'gh api repos/$GITHUB_REPOSITORY/pulls/$PR/merge'],
  ];

  it('is MEDIUM when the unquoted value sits in a `gh` or `curl` call inside a substitution, a test, an `if`, an assignment or a pipeline', () => {
    for (const [command, call] of forms) {
      const [finding] = scanWith(RULE, job(inline(command)));
      expect(finding?.severity, command).toBe('MEDIUM');
      expect(finding?.description, command).toContain(`expands what it reads unquoted in \`${call}`);
      expect(finding?.description, command).toContain('argument injection');
    }
    // The same value given through `env:` from an output.
    const [env] = scanWith(RULE, job(viaEnv('if [[ $(gh api repos/$GITHUB_REPOSITORY/pulls/$PR/files --jq length) -gt 0 ]]; then echo changed; fi')));
    expect(env?.severity).toBe('MEDIUM');
    expect(env?.description).toContain('its script expands it unquoted in `gh api repos/$GITHUB_REPOSITORY/pulls/$PR/files --jq length`');
  });

  it('negative: quoted inside the substitution, in single quotes, checked first, or with a read-only token it is not argument injection', () => {
    const severities = (workflow: string) => scanWith(RULE, workflow).map((f) => f.severity);
    expect(severities(job(inline('if [[ $(gh api "repos/$GITHUB_REPOSITORY/pulls/$PR/files" --jq length) -gt 0 ]]; then echo changed; fi')))).toEqual(['LOW']);
    expect(severities(job(inline('SHA="$(gh api "repos/$GITHUB_REPOSITORY/pulls/$PR" --jq .head.sha)"; echo "$SHA"')))).toEqual(['LOW']);
    expect(severities(job(inline("echo '$(gh api repos/x/pulls/$PR)' | tee -a notes.txt")))).not.toContain('MEDIUM');
    expect(severities(job(inline('[[ "$PR" =~ ^[0-9]+$ ]] || exit 1\n              SHA=$(gh api repos/$GITHUB_REPOSITORY/pulls/$PR --jq .head.sha)')))).not.toContain('MEDIUM');
    expect(severities(job(inline('SHA=$(gh api repos/$GITHUB_REPOSITORY/pulls/$PR --jq .head.sha); echo "$SHA"'), '{ contents: read, pull-requests: read }'))).toEqual(['LOW']);
    expect(severities(job(viaEnv('if [[ $(gh api "repos/$GITHUB_REPOSITORY/pulls/$PR/files" --jq length) -gt 0 ]]; then echo changed; fi')))).toEqual(['LOW']);
  });
});

describe(`${RULE}: content written straight into \`$GITHUB_OUTPUT\``, () => {
  it('says the outputs reach the `if:` and the comment that read them, not that their content reaches nothing', () => {
    const workflow = (write: string) => ON + yaml`
      permissions: { pull-requests: write }
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
            - id: pr
              run: ${write}
            - if: steps.pr.outputs.number != ''
              run: gh pr comment "$PR" --body hi
              env:
                GH_TOKEN: \${{ github.token }}
                PR: \${{ steps.pr.outputs.number }}
    `;
    for (const write of ['unzip -p pr.zip >> "$GITHUB_OUTPUT"', 'cat NR >> "$GITHUB_OUTPUT"']) {
      const [finding] = scanWith(RULE, workflow(write));
      expect(finding?.severity).toBe('LOW');
      expect(finding?.description).not.toContain('reaches no command, output or condition');
      expect(finding?.description).toContain('decides in its `if:` whether it runs (`steps.pr.outputs.number`), and it only posts, edits or hides a comment');
    }
    // Unzipped to disk, not printed: the line reads no content.
    expect(scanWith(RULE, workflow('unzip pr.zip >> "$GITHUB_OUTPUT"'))[0]?.description).toContain('reaches no command, output or condition');
  });
});

describe(`${RULE}: a value written to \`$GITHUB_OUTPUT\` is followed to where the output is used`, () => {
  /** Job `read` writes output `name` of step `meta` (and job output `name`); `use` holds the steps that use it (REF). */
  const workflow = (write: string, name: string, use: string, viaJob: boolean, path = '') => ON + yaml`
    permissions: { pull-requests: write }
    jobs:
      read:
        runs-on: ubuntu-latest
        outputs:
          ${name}: \${{ steps.meta.outputs.${name} }}
        steps:
          - uses: actions/download-artifact@v4
            with:
              run-id: \${{ github.event.workflow_run.id }}${path}
          - id: meta
            run: |
${write.split('\n').map((l) => `              ${l}`).join('\n')}
${viaJob ? '      use:\n        needs: read\n        runs-on: ubuntu-latest\n        steps:\n' : ''}${use.replaceAll('REF', viaJob ? `needs.read.outputs.${name}` : `steps.meta.outputs.${name}`)}
  `;
  const writes: [string, string, string?][] = [
    ['echo "pr=$(cat pr_number.txt)" >> "$GITHUB_OUTPUT"', 'pr'],
    ['cat review-intent >> "$GITHUB_OUTPUT"', 'intent'],
    ['echo "size=$(cat number.txt)" >> $GITHUB_OUTPUT', 'size'],
    ['read -r X < base.txt; echo "base=$X" >> $GITHUB_OUTPUT', 'base'],
    ['read -r X < base.txt\necho "base=$X" >> $GITHUB_OUTPUT', 'base'],
    ['{\n  echo "pr=$(cat pr_number.txt)"\n  echo "at=$(date)"\n} >> "$GITHUB_OUTPUT"', 'pr'],
    ['echo "pr=$(<meta/pr_number.txt)" >> "$GITHUB_OUTPUT"', 'pr', '\n              path: meta'],
    // A staging file of the script's own, copied whole into the outputs at the end.
    ['OUT=$(mktemp)\necho "pr=$(cat pr_number.txt)" >> "$OUT"\ncat "$OUT"\ncat "$OUT" >> "$GITHUB_OUTPUT"', 'pr'],
  ];
  const script = `          - run: echo "Deploying \${{ REF }}"
            env:
              DEPLOY_TOKEN: \${{ secrets.DEPLOY_TOKEN }}`;
  const comment = `          - uses: actions/github-script@v7
            env:
              BODY: \${{ REF }}
            with:
              script: |
                await github.rest.issues.createComment({ ...context.repo, issue_number: context.issue.number, body: process.env.BODY });`;
  const none = '          - run: echo done';

  it('is HIGH when a later step or a dependent job splices the output into its script, naming it', () => {
    for (const viaJob of [false, true]) {
      for (const [write, name, path] of writes) {
        const found = scanWith(RULE, workflow(write, name, script, viaJob, path));
        const at = `${write} (${viaJob ? 'job' : 'step'})`;
        expect(found.map((f) => f.severity), at).toEqual(['HIGH']);
        expect(found[0]?.description, at).toContain(`expands \`${viaJob ? 'needs.read' : 'steps.meta'}.outputs.${name}\`, read from them, with \`\${{ }}\``);
      }
    }
  });

  it('is LOW when the output only becomes a comment body, and says so', () => {
    for (const viaJob of [false, true]) {
      for (const [write, name, path] of writes) {
        const found = scanWith(RULE, workflow(write, name, comment, viaJob, path));
        const at = `${write} (${viaJob ? 'job' : 'step'})`;
        expect(found.map((f) => f.severity), at).toEqual(['LOW']);
        expect(found[0]?.description, at).toContain('which only posts, edits or hides a comment');
        expect(found[0]?.description, at).not.toContain('reaches no command, output or condition');
      }
    }
  });

  it('is LOW when no step or job reads the output, and says the content reaches only outputs no step reads', () => {
    for (const viaJob of [false, true]) {
      for (const [write, name, path] of writes) {
        const found = scanWith(RULE, workflow(write, name, none, viaJob, path));
        const at = `${write} (${viaJob ? 'job' : 'step'})`;
        expect(found.map((f) => f.severity), at).toEqual(['LOW']);
        expect(found[0]?.description, at).toMatch(/reads them into step outputs \(`[^`]*(?:GITHUB_OUTPUT|pr=)/);
        expect(found[0]?.description, at).toContain('), and no later step or job reads those outputs');
        expect(found[0]?.description, at).not.toContain('reaches no command, output or condition');
      }
    }
  });

  it('negative: a value checked against a number pattern before it is written is not reported; `read` alone steers nothing', () => {
    const checked = 'read -r X < pr_number.txt\n[[ "$X" =~ ^[0-9]+$ ]] || exit 1\necho "pr=$X" >> "$GITHUB_OUTPUT"';
    expect(scanWith(RULE, workflow(checked, 'pr', script, false))).toEqual([]);
    expect(scanWith(RULE, workflow(checked, 'pr', script, true))).toEqual([]);
    // The same through a staging file of the script's own, the value copied only where it matched the pattern.
    const staged = 'OUT=$(mktemp)\nSHA=""\nRAW=$(jq -r .sha pr.json)\nif [[ "$RAW" =~ ^[0-9a-f]{40}$ ]]; then\n  SHA="$RAW"\nfi\necho "pr=$SHA" >> "$OUT"\ncat "$OUT" >> "$GITHUB_OUTPUT"';
    expect(scanWith(RULE, workflow(staged, 'pr', script, false))).toEqual([]);
    expect(scanWith(RULE, workflow(staged, 'pr', script, true))).toEqual([]);
    // The unchecked value written to the same staging file is followed to its use (HIGH: spliced into a script).
    expect(scanWith(RULE, workflow(staged.replace('echo "pr=$SHA"', 'echo "pr=$RAW"'), 'pr', script, false)).map((f) => f.severity)).toEqual(['HIGH']);
    // A `read` into a variable that only goes to an output is not a command the content steers.
    const [read] = scanWith(RULE, workflow('read -r X < base.txt\necho "base=$X" >> $GITHUB_OUTPUT', 'base', none, false));
    expect(read?.description).not.toContain('uses their content in `read');
    // A group that writes elsewhere is not an output write: the value steers its command.
    const [group] = scanWith(RULE, workflow('{\n  echo "pr=$(cat pr_number.txt)"\n} >> notes.txt', 'pr', script, false));
    expect(group?.description).not.toContain('expands `steps.meta.outputs.pr`');
  });
});

describe(`${RULE}: a job that uploads an artifact, then downloads the one of that name by the followed run's id`, () => {
  // The followed workflow runs on pull_request (a fork starts it) and uploads the pull request's repository and head.
  const trigger = (on: string) => ({
    path: '.github/workflows/trigger-e2e.yml',
    text: yaml`
      name: Trigger E2E
      on: ${on}
      permissions:
        contents: read
      jobs:
        save:
          runs-on: ubuntu-latest
          steps:
            - env:
                REPO: \${{ github.event.pull_request.head.repo.full_name }}
                SHA: \${{ github.event.pull_request.head.sha }}
              run: mkdir -p pr && echo "$REPO" > pr/repo_name && echo "$SHA" > pr/head_sha
            - uses: actions/upload-artifact@v4
              with:
                name: repo_name
                path: pr/
    `,
  });
  const githubScript = `uses: actions/github-script@v7
              with:
                script: |
                  const fs = require('fs');
                  const path = require('path');
                  const temp = '\${{ runner.temp }}/artifacts';
                  const repoPath = path.join(temp, 'repo_name');
                  const shaPath = path.join(temp, 'head_sha');
                  if (fs.existsSync(repoPath)) {
                    const repoName = fs.readFileSync(repoPath, 'utf8').trim();
                    core.setOutput('repo_name', repoName);
                  }
                  if (fs.existsSync(shaPath)) {
                    const headSha = fs.readFileSync(shaPath, 'utf8').trim();
                    core.setOutput('head_sha', headSha);
                  }`;
  const shellScript = `run: |
                echo "repo_name=$(cat "$RUNNER_TEMP/artifacts/repo_name")" >> "$GITHUB_OUTPUT"
                echo "head_sha=$(cat "$RUNNER_TEMP/artifacts/head_sha")" >> "$GITHUB_OUTPUT"`;
  const e2e = (runId: string, read = githubScript, condition = '') => ({
    path: '.github/workflows/e2e.yml',
    text: yaml`
      name: E2E
      on:
        push:
          branches: [main]
        merge_group:
        workflow_run:
          workflows: ['Trigger E2E']
          types: [completed]
        workflow_dispatch:
          inputs:
            head_sha:
              required: true
            repo_name:
              required: true
      permissions:
        contents: read
        statuses: write
      jobs:
        download_repo_name:
          if: github.repository == 'o/r' && (github.event_name == 'workflow_dispatch' || github.event_name == 'workflow_run')
          runs-on: large-runner-16core
          outputs:
            repo_name: \${{ steps.output-repo-name.outputs.repo_name }}
            head_sha: \${{ steps.output-repo-name.outputs.head_sha }}
          steps:
            - name: Mock Repo Artifact
              if: \${{ github.event_name == 'workflow_dispatch' }}
              env:
                REPO_NAME: \${{ github.event.inputs.repo_name }}
              run: mkdir -p ./pr && echo "\${REPO_NAME}" > ./pr/repo_name
            - uses: actions/upload-artifact@v4
              with:
                name: repo_name
                path: pr/
            - uses: actions/download-artifact@v5${condition}
              env:
                RUN_ID: "${runId}"
              with:
                github-token: \${{ secrets.GITHUB_TOKEN }}
                name: repo_name
                run-id: '\${{ env.RUN_ID }}'
                path: '\${{ runner.temp }}/artifacts'
            - name: Output Repo Name
              id: output-repo-name
              ${read}
        parse:
          needs: download_repo_name
          runs-on: ubuntu-latest
          outputs:
            repository: \${{ steps.p.outputs.repository }}
            sha: \${{ steps.p.outputs.sha }}
          steps:
            - id: p
              env:
                REPO: \${{ needs.download_repo_name.outputs.repo_name }}
                SHA: \${{ needs.download_repo_name.outputs.head_sha || github.sha }}
              run: |
                echo "repository=\${REPO:-$GITHUB_REPOSITORY}" >> "$GITHUB_OUTPUT"
                echo "sha=\${SHA}" >> "$GITHUB_OUTPUT"
        e2e:
          needs: parse
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                repository: \${{ needs.parse.outputs.repository }}
                ref: \${{ needs.parse.outputs.sha }}
            - run: npm ci
            - run: npm run test:e2e
              env:
                GEMINI_API_KEY: \${{ secrets.GEMINI_API_KEY }}
    `,
  });
  const FOLDED = "${{ github.event_name == 'workflow_run' && github.event.workflow_run.id || github.run_id }}";

  it('is HIGH at the download: on workflow_run the id is the followed run\'s, whatever the job uploaded, and the files name the code a later job checks out and runs with a secret', () => {
    for (const read of [githubScript, shellScript]) {
      const records = recordsWith(RULE, [e2e(FOLDED, read), trigger('pull_request')]);
      expect(records.map((r) => `${r.finding.file}:${r.finding.line} ${r.finding.severity}`), read).toEqual(['.github/workflows/e2e.yml:35 HIGH']);
      const text = records[0]?.finding.description ?? '';
      expect(text).toContain('`Trigger E2E`');
      expect(text).toContain('`ref: ${{ needs.parse.outputs.sha }}`');
      expect(text).toContain('step 2 of job `e2e`');
      expect(text).toContain('`npm ci`');
      expect(text).toContain('`GEMINI_API_KEY`');
      expect(records[0]?.facts).toContain('exec');
      // The checkout names the files as the source of its commit, not a pull request lookup (`head_sha`, `headSha`).
      const checkout = scanWith('untrusted-checkout', [e2e(FOLDED, read), trigger('pull_request')]);
      expect(checkout.map((f) => f.severity)).toEqual(['HIGH']);
      expect(checkout[0]?.description).toContain('artifact content read by step Output Repo Name');
    }
  });

  it('negative: nothing when the run-id is only the run\'s own or the download runs only on workflow_dispatch; a push-only followed workflow is a fork\'s name too', () => {
    expect(scanWith(RULE, [e2e('${{ github.run_id }}'), trigger('pull_request')])).toEqual([]);
    expect(scanWith(RULE, [e2e("${{ github.event_name == 'workflow_run' && github.run_id || github.event.workflow_run.id }}"), trigger('pull_request')])).toEqual([]);
    const dispatchOnly = [e2e(FOLDED, githubScript, "\n              if: github.event_name == 'workflow_dispatch'"), trigger('pull_request')];
    expect(scanWith(RULE, dispatchOnly)).toEqual([]);
    expect(scanWith('untrusted-checkout', dispatchOnly)).toEqual([]);
    expect(scanWith(RULE, [e2e(FOLDED), trigger('push')])).toHaveLength(1);
  });
});

describe(`${RULE}: a workflow that downloads the artifacts of its own last run`, () => {
  // On a schedule, a comment and by hand; no trigger runs a fork's pull request's workflow.
  const own = (upload: string, extra = '') => yaml`
    name: Brain
    on:
      schedule:
        - cron: '0 0 * * *'
      issue_comment:
        types: [created]
      workflow_dispatch:${extra}
    permissions:
      contents: write
    jobs:
      run:
        if: github.event_name != 'issue_comment' || github.event.comment.author_association == 'OWNER'
        runs-on: ubuntu-latest
        steps:
          - env:
              GH_TOKEN: \${{ github.token }}
            run: |
              LAST_RUN_ID=$(gh run list --workflow "\${{ github.workflow }}" --status success --limit 1 --json databaseId --jq '.[0].databaseId')
              gh run download "$LAST_RUN_ID" -n brain-data -D .temp
          - run: bash .temp/update.sh
            env:
              DEPLOY: \${{ secrets.DEPLOY }}
          ${upload}
          - uses: actions/upload-artifact@v4
            with:
              name: brain-data
              path: .temp
  `;

  it('reports nothing: its runs run the base repository\'s workflow, so no fork\'s run can be the one picked', () => {
    expect(scanWith(RULE, own('- run: echo updated'))).toEqual([]);
  });

  it('negative: reports it when the workflow also runs on pull requests, or uploads after checking out a pull request', () => {
    expect(scanWith(RULE, own('- run: echo updated', '\n      pull_request:')).map((f) => f.severity)).toEqual(['HIGH']);
    const checkout = own('- run: gh pr checkout ${{ github.event.issue.number }} && make brain');
    const [found] = scanWith(RULE, checkout);
    // On `issue_comment`, `github.event_name != 'issue_comment'` never holds: only the owner's comment checks a pull
    // request out, so what the later runs take in was approved (MEDIUM, as in the test below).
    expect(found?.severity).toBe('MEDIUM');
    // Its own runs, not a fork's: what gets in is what a run that takes in a pull request uploads.
    expect(found?.description).toContain('the job picks a run of `Brain` (this workflow), whose job `run` uploads after it checks out a pull request');
    expect(found?.description).not.toContain("a fork's pull request run can be the one picked");
  });

  it('names both the approval of the runs that take in a pull request and the schedule that starts the others', () => {
    const gated = own('- run: gh pr checkout ${{ github.event.issue.number }} && make brain').replace("github.event_name != 'issue_comment' || github.event.comment.author_association == 'OWNER'", "github.event_name == 'schedule' || github.event.comment.author_association == 'OWNER'");
    const [found] = scanWith(RULE, gated);
    // It runs their files with a secret, behind the member's comment whose pull request can still move.
    expect(found?.severity).toBe('MEDIUM');
    expect(found?.description).toContain('on `issue_comment`; its `schedule` runs start with no approval');
  });
});

describe(`${RULE}: a run picked by a job that also runs on a schedule`, () => {
  const workflows = (on: string, condition: string) => [
    {
      path: '.github/workflows/ci.yml',
      text: yaml`
        name: CI
        on: [pull_request]
        jobs:
          b:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
              - run: make
              - uses: actions/upload-artifact@v4
                with: { name: data, path: out }
      `,
    },
    {
      path: '.github/workflows/use.yml',
      text: yaml`
        on: ${on}
        jobs:
          run:
            if: ${condition}
            runs-on: ubuntu-latest
            steps:
              - env:
                  GH_TOKEN: \${{ github.token }}
                run: |
                  ID=$(gh run list --workflow ci.yml --status success --limit 1 --json databaseId --jq '.[0].databaseId')
                  gh run download "$ID" -n data -D .temp
              - run: bash .temp/run.sh
                env:
                  DEPLOY: \${{ secrets.DEPLOY }}
      `,
    },
  ];

  it('names the event that runs it with no approval, not the gate only the comment passes', () => {
    const [finding] = scanWith(RULE, workflows("{ schedule: [{ cron: '0 0 * * *' }], issue_comment: { types: [created] } }", "github.event_name == 'schedule' || github.event.comment.author_association == 'OWNER'"));
    expect(finding?.severity).toBe('HIGH');
    expect(finding?.description).toContain('a `schedule` run reaches it with no approval');
    expect(finding?.description).not.toContain('a maintainer approves each run first');
  });

  it('negative: behind the member check alone, the approval is named', () => {
    const [finding] = scanWith(RULE, workflows('{ issue_comment: { types: [created] } }', "github.event.comment.author_association == 'OWNER'"));
    expect(finding?.severity).toBe('MEDIUM');
    expect(finding?.description).toContain('a maintainer approves each run first');
  });
});

describe('artifact-poisoning: a reusable workflow that downloads the run its callers name', () => {
  const deploy = (extraTrigger = '') => ({
    path: '.github/workflows/deploy.yml',
    text: yaml`
      on:
        workflow_call:
          inputs:
            run_id: { type: string, required: true }
          secrets:
            CLOUDFLARE_API_TOKEN: { required: true }
        ${extraTrigger}
      jobs:
        pages:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: site
                run-id: \${{ inputs.run_id }}
                github-token: \${{ github.token }}
            - uses: cloudflare/wrangler-action@v3
              with:
                apiToken: \${{ secrets.CLOUDFLARE_API_TOKEN }}
                command: pages deploy . --project-name=site
    `,
  });
  const caller = (path: string, on: string, runId: string) => ({
    path,
    text: yaml`
      on: ${on}
      jobs:
        deploy:
          uses: ./.github/workflows/deploy.yml
          permissions:
            deployments: write
          secrets:
            CLOUDFLARE_API_TOKEN: \${{ secrets.CLOUDFLARE_API_TOKEN }}
          with:
            run_id: ${runId}
    `,
  });
  const followsPullRequests = caller('.github/workflows/preview.yml', '{ workflow_run: { workflows: [PR], types: [completed] } }', '${{ github.event.workflow_run.id }}');
  const pr = { path: '.github/workflows/pr.yml', text: 'name: PR\non: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make site\n' };
  const ownRun = caller('.github/workflows/push.yml', '{ push: { branches: [main] } }', '${{ github.run_id }}');

  it("reads the followed run's id a workflow_run caller passes in, also beside a caller that passes its own run", () => {
    for (const files of [[deploy(), followsPullRequests, pr], [deploy(), ownRun, followsPullRequests, pr]]) {
      const [finding, more] = scanWith(RULE, files);
      expect(more).toBeUndefined();
      expect(finding?.file).toBe('.github/workflows/deploy.yml');
      expect(finding?.severity).toBe('HIGH');
      expect(finding?.description).toContain('`run-id: ${{ inputs.run_id }}`');
      expect(finding?.description).toContain('cloudflare/wrangler-action');
    }
  });

  it('reports nothing when every caller passes its own run; a dispatch input beside the callers changes nothing', () => {
    expect(scanWith(RULE, [deploy(), ownRun, pr])).toEqual([]);
    const dispatched = deploy('workflow_dispatch: { inputs: { run_id: { type: string } } }');
    expect(scanWith(RULE, [dispatched, ownRun, pr])).toEqual([]);
    expect(scanWith(RULE, [dispatched, followsPullRequests, pr]).map((f) => f.severity)).toEqual(['HIGH']);
  });
});

describe(`${RULE}: a run artifact's archive fetched through the REST API`, () => {
  const workflow = (fetch: string, after: string) => ({ path: '.github/workflows/publish.yml', text: yaml`
    on:
      workflow_run:
        workflows: [Build Pull Request]
        types: [completed]
    permissions:
      contents: write
    jobs:
      publish:
        runs-on: ubuntu-latest
        steps:
          - name: Download report
            env:
              GH_TOKEN: \${{ github.token }}
              RUN_ID: \${{ github.event.workflow_run.id }}
            run: |
              mkdir report && cd report
              url=$(gh api "/repos/o/r/actions/runs/$RUN_ID/artifacts?name=report" --jq '.artifacts[0].archive_download_url')
              ${fetch}
              unzip -q artifact.zip
          - run: ${after}
  ` });
  const build = (events: string) => ({
    path: '.github/workflows/build.yml',
    text: `name: Build Pull Request\non: ${events}\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n      - run: make\n      - uses: actions/upload-artifact@v4\n        with:\n          name: report\n          path: out/\n`,
  });

  it('reads `curl -o a.zip "$url"` of the archive and its extraction as a download of the triggering run: HIGH when a later command runs it', () => {
    const findings = scanWith(RULE, [workflow('curl -L -H "Authorization: Bearer $GH_TOKEN" -o artifact.zip "$url"', 'bash report/deploy.sh'), build('pull_request')]);
    expect(findings.map((f) => `${f.line} ${f.severity}`)).toEqual(['18 HIGH']);
    expect(findings[0]?.description).toContain("the REST API's artifact archive (`archive_download_url`)");
    expect(findings[0]?.description).toContain('`Build Pull Request` can come from a fork');
    // wget's -O and a redirect name the archive too.
    expect(scanWith(RULE, [workflow('wget -q -O artifact.zip "$url"', 'bash report/deploy.sh'), build('pull_request')]).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, [workflow('curl -sL "$url" > artifact.zip', 'bash report/deploy.sh'), build('pull_request')]).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('negative: the same fetch of another address; LOW when nothing runs what it holds; a followed push-only workflow is a fork\'s name too', () => {
    expect(scanWith(RULE, [workflow('curl -L -o artifact.zip "$url"', 'bash report/deploy.sh'), build('push')]).map((f) => f.severity)).toEqual(['HIGH']);
    expect(scanWith(RULE, [workflow('curl -L -o artifact.zip https://x.test/tool.zip', 'bash report/deploy.sh'), build('pull_request')])).toEqual([]);
    // Extracted, but nothing runs or reads it: LOW, as for any download of a fork's run.
    expect(scanWith(RULE, [workflow('curl -L -o artifact.zip "$url"', 'ls -la report'), build('pull_request')]).map((f) => f.severity)).toEqual(['LOW']);
  });
});

describe(`${RULE}: the script that extracts the archive writes what it reads of it to $GITHUB_ENV`, () => {
  const wf = (write: string) => yaml`
    on:
      workflow_run:
        workflows: [PR-CI]
        types: [completed]
    jobs:
      comment:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/github-script@v7
            with:
              script: |
                const download = await github.rest.actions.downloadArtifact({ owner: context.repo.owner, repo: context.repo.repo, artifact_id: 1, archive_format: 'zip' });
                require('fs').writeFileSync('\${{ github.workspace }}/pr.zip', Buffer.from(download.data));
          - run: |
              unzip pr.zip
              pr_number=\`cat pr.txt\`
              ${write}
          - run: |
              curl -H "Authorization: Bearer $TOKEN" -d '{"body":"done"}' https://api.github.com/repos/o/r/issues/1/comments
            env:
              TOKEN: \${{ secrets.BOT_TOKEN }}
  `;

  it('is HIGH: every later step runs with what the fork wrote, holding a secret', () => {
    const found = scanWith(RULE, wf('echo "PR_NUMBER=${pr_number}" >> $GITHUB_ENV'));
    expect(positions(found)).toEqual(['9:15 HIGH']);
    expect(found[0]?.description).toContain('writes their content to `$GITHUB_ENV`');
  });

  it('negative: the same script writing a value of its own', () => {
    expect(scanWith(RULE, wf('echo "STARTED=$(date +%s)" >> $GITHUB_ENV')).map((f) => f.severity)).toEqual(['LOW']);
  });
});

describe(`${RULE}: a fork's artifacts handed as they are to a step that publishes`, () => {
  const release = (step: string) => ({
    path: '.github/workflows/publish.yml',
    text: `on:
  workflow_run:
    workflows: [Build Wheels]
    types: [completed]
permissions:
  contents: read
  id-token: write
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@v5
        with:
          run-id: \${{ github.event.workflow_run.id }}
          github-token: \${{ github.token }}
          path: downloaded_wheels
${step}
`,
  });
  const build = { path: '.github/workflows/build.yml', text: 'name: Build Wheels\non: pull_request\njobs: {}\n' };

  it('is HIGH: the fork chooses what the project publishes (a package upload in a script, a publishing action given the directory)', () => {
    for (const step of [
      '      - run: twine upload downloaded_wheels/*\n        env:\n          TWINE_PASSWORD: ${{ secrets.PYPI_TOKEN }}',
      '      - uses: pypa/gh-action-pypi-publish@ed0c53931b1dc9bd32cbe73a98c7f6766f8a527e\n        with:\n          packages-dir: downloaded_wheels',
    ]) {
      const found = scanWith(RULE, [release(step), build]);
      expect(positions(found), step).toEqual(['12:15 HIGH']);
      expect(found[0]?.description, step).toContain("that step publishes: the fork's files become what the project publishes");
    }
  });

  it('follows the files a step moves or copies out of the download\'s directory into the one published', () => {
    const publishDist = '      - uses: pypa/gh-action-pypi-publish@ed0c53931b1dc9bd32cbe73a98c7f6766f8a527e\n        with:\n          packages-dir: dist';
    for (const move of ["find downloaded_wheels -type f -name '*.whl' -exec mv {} dist/ \\;", 'mv downloaded_wheels/*.whl dist/', 'cp -r downloaded_wheels/. dist']) {
      const found = scanWith(RULE, [release(`      - run: |\n          mkdir -p dist\n          ${move}\n${publishDist}`), build]);
      expect(positions(found), move).toEqual(['12:15 HIGH']);
    }
    // Files of another directory moved there, or the published directory another one: not the download's.
    expect(scanWith(RULE, [release(`      - run: |\n          mkdir -p dist\n          mv wheels/*.whl dist/\n${publishDist}`), build]).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith(RULE, [release(`      - run: mv downloaded_wheels/*.whl staging/\n${publishDist}`), build]).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('negative: a preview deploy or an upload as an artifact of the same files stays LOW', () => {
    for (const step of [
      '      - run: npx surge ./downloaded_wheels preview.surge.sh\n        env:\n          SURGE_TOKEN: ${{ secrets.SURGE_TOKEN }}',
      '      - uses: actions/upload-artifact@v4\n        with:\n          path: downloaded_wheels',
    ]) {
      expect(scanWith(RULE, [release(step), build]).map((f) => f.severity), step).toEqual(['LOW']);
    }
  });
});
