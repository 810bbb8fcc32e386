import { describe, expect, it } from 'vitest';
import { scanWith, yaml } from '../../../support/engine.js';

const RULE = 'artifact-poisoning';

/**
 * A `workflow_run` workflow with a write token for pull requests that downloads the triggering run's artifact into
 * the workspace, then a step (`reader`) that does something with the file, and the steps after it (`after`).
 */
function intent(reader: string, after = '', permissions = 'pull-requests: write'): string {
  return yaml`
    on:
      workflow_run:
        workflows: [Review]
        types: [completed]
    permissions:
      ${permissions}
    jobs:
      apply:
        runs-on: ubuntu-latest
        steps:
          - name: Download intent
            uses: actions/download-artifact@v4
            with:
              name: review-intent
              path: .
              run-id: \${{ github.event.workflow_run.id }}
              github-token: \${{ github.token }}
  ` + reader + after;
}

/** A `run:` step `Read intent` (id `intent`) with the script lines given. */
function shellReader(...lines: string[]): string {
  return `      - name: Read intent
        id: intent
        run: |
${lines.map((l) => `          ${l}`).join('\n')}
`;
}

const CAT_INTO_OUTPUTS = shellReader('if [ -f review-intent ]; then', '  cat review-intent >> "$GITHUB_OUTPUT"', 'fi');

const REMOVE_LABEL = `      - if: steps.intent.outputs.intent == 'review_requested'
        uses: actions-ecosystem/action-remove-labels@v1
        with:
          number: \${{ steps.intent.outputs.pr_number }}
          labels: awaiting response
`;

const NOTHING_FOLLOWED = 'their content reaches no command, output or condition the analysis follows';

function download(found: ReturnType<typeof scanWith>) {
  return found.find((f) => f.line === 12);
}

describe(`${RULE}: a downloaded file written to $GITHUB_OUTPUT, whose outputs later steps read`, () => {
  it('follows `cat <file> >> "$GITHUB_OUTPUT"` (inside an `if` block) to the label action the outputs steer, and stays LOW', () => {
    const found = download(scanWith(RULE, intent(CAT_INTO_OUTPUTS, REMOVE_LABEL)));
    expect(found?.severity).toBe('LOW');
    expect(found?.description).not.toContain(NOTHING_FOLLOWED);
    expect(found?.description).toContain(
      'their content becomes outputs of step `Read intent` of job `apply` (`cat review-intent >> "$GITHUB_OUTPUT"`, which lets the file name the outputs too), and step 3 of job `apply` (line 24) decides in its `if:` whether it runs (`steps.intent.outputs.intent`) and gets `steps.intent.outputs.pr_number` in its `number`, and it only adds or removes a label (actions-ecosystem/action-remove-labels)',
    );
    expect(found?.description).toContain("LOW: at worst a label of the fork's choosing");
  });

  for (const [what, lines, evidence] of [
    ['`cat <file> | tee -a "$GITHUB_OUTPUT"`', ['cat review-intent | tee -a "$GITHUB_OUTPUT"'], 'cat review-intent | tee -a "$GITHUB_OUTPUT"'],
    ['`jq ... <file> >> $GITHUB_OUTPUT`', ['jq -r \'to_entries[] | "\\(.key)=\\(.value)"\' review-intent >> $GITHUB_OUTPUT'], 'jq -r'],
    ['`echo "x=$(cat <file>)" >> ...`', ['echo "pr_number=$(cat review-intent)" >> "$GITHUB_OUTPUT"'], 'echo "pr_number=$(cat review-intent)" >> "$GITHUB_OUTPUT"'],
    ['a command group redirected there', ['{', '  echo "intent=$(head -n1 review-intent)"', '  echo "pr_number=$(tail -n1 review-intent)"', '} >> "$GITHUB_OUTPUT"'], 'echo "intent=$(head -n1 review-intent)"'],
  ] as const) {
    it(`follows ${what}`, () => {
      const found = download(scanWith(RULE, intent(shellReader(...lines), REMOVE_LABEL)));
      expect(found?.severity).toBe('LOW');
      expect(found?.description).toContain(`their content becomes outputs of step \`Read intent\` of job \`apply\` (\`${evidence}`);
      expect(found?.description).toContain('(actions-ecosystem/action-remove-labels)');
    });
  }

  it('follows a github-script that reads the file with fs.readFileSync into core.setOutput', () => {
    const reader = `      - name: Read intent
        id: intent
        uses: actions/github-script@v7
        with:
          script: |
            const fs = require('fs');
            const [intent, pr] = fs.readFileSync('review-intent', 'utf8').split('\\n');
            core.setOutput('intent', intent);
            core.setOutput('pr_number', pr);
`;
    const found = download(scanWith(RULE, intent(reader, REMOVE_LABEL)));
    expect(found?.severity).toBe('LOW');
    expect(found?.description).toContain("their content becomes outputs of step `Read intent` of job `apply` (`core.setOutput('intent', intent);`), and step 3 of job `apply` (line 27)");
  });

  it('an output read this way and expanded into a later `run:` script is script injection through the artifact (HIGH with a write scope)', () => {
    const run = `      - run: gh pr edit \${{ steps.intent.outputs.pr_number }} --remove-label "awaiting response"
        env:
          GH_TOKEN: \${{ github.token }}
`;
    const found = download(scanWith(RULE, intent(CAT_INTO_OUTPUTS, run, 'contents: write')));
    expect(found?.severity).toBe('HIGH');
    expect(found?.description).toContain('expands `steps.intent.outputs.pr_number`, read from them, with `${{ }}` into its `run:` script');
    expect(found?.description).toContain('their content becomes outputs of step `Read intent`');
    const injection = scanWith('script-injection', intent(CAT_INTO_OUTPUTS, run, 'contents: write'));
    expect(injection.map((f) => f.line)).toContain(24);
  });

  it('negative: a file only printed to the log (`cat <file>`, indented in an `if` block) reaches no output: the text is unchanged', () => {
    const found = download(scanWith(RULE, intent(shellReader('if [ -f review-intent ]; then', '  cat review-intent', 'fi'), REMOVE_LABEL)));
    expect(found?.severity).toBe('LOW');
    expect(found?.description).toContain(`no later step of the job runs them, and ${NOTHING_FOLLOWED} (LOW)`);
    expect(found?.description).not.toContain('becomes outputs');
  });

  it('negative: outputs written from the file that no later step reads say so', () => {
    const found = download(scanWith(RULE, intent(CAT_INTO_OUTPUTS)));
    expect(found?.severity).toBe('LOW');
    expect(found?.description).toContain('reads them into step outputs (`cat review-intent >> "$GITHUB_OUTPUT"`), and no later step or job reads those outputs');
  });
});

describe(`${RULE}: the line that sets an output, and an \`if:\` that decides nothing`, () => {
  const reader = shellReader('SHA=$(cat meta/sha)', 'PR=$(cat meta/pr)', 'echo "::warning::checking results for $SHA"', 'echo "sha=$SHA" >> "$GITHUB_OUTPUT"', 'echo "pr=$PR" >> "$GITHUB_OUTPUT"');
  const comment = (condition: string) => `      - name: Post
        if: ${condition}
        uses: marocchino/sticky-pull-request-comment@v2
        with:
          number: \${{ steps.intent.outputs.pr }}
          message: Tests finished.
`;

  it('quotes the line that writes the output a later step reads, not a line that only prints a value', () => {
    const found = download(scanWith(RULE, intent(reader, comment("steps.intent.outputs.pr != ''"))));
    expect(found?.severity).toBe('LOW');
    expect(found?.description).toContain('their content becomes outputs of step `Read intent` of job `apply` (`echo "pr=$PR" >> "$GITHUB_OUTPUT"`)');
    expect(found?.description).not.toContain('::warning::');
  });

  it('names the line of each output: the one that writes `sha` for a step that reads `sha`', () => {
    const status = `      - uses: someone/set-status@v1
        with:
          sha: \${{ steps.intent.outputs.sha }}
`;
    const found = download(scanWith(RULE, intent(reader, status)));
    expect(found?.description).toContain('(`echo "sha=$SHA" >> "$GITHUB_OUTPUT"`)');
  });

  it('says an `if:` decides whether the step runs only when it can be false: not one `workflow_run` always makes true', () => {
    const gated = download(scanWith(RULE, intent(reader, comment("steps.intent.outputs.pr != ''"))));
    expect(gated?.description).toContain('decides in its `if:` whether it runs (`steps.intent.outputs.pr`)');
    const always = download(scanWith(RULE, intent(reader, comment("steps.intent.outputs.pr != '' || github.event_name == 'workflow_run'"))));
    expect(always?.severity).toBe('LOW');
    expect(always?.description).not.toContain('whether it runs');
    expect(always?.description).toContain('gives `steps.intent.outputs.pr` (its `number`) to marocchino/sticky-pull-request-comment, which only posts, edits or hides a comment');
  });
});

describe(`${RULE}: values that pick a later download's run or a comment's target are limited sinks, named, never "nothing"`, () => {
  const reader = shellReader('echo "run=$(cat run_id)" >> "$GITHUB_OUTPUT"', 'echo "pr=$(cat pr_number)" >> "$GITHUB_OUTPUT"');
  const later = (inputs: string) => `      - uses: dawidd6/action-download-artifact@v6
        with:
${inputs}
          name: baseline
          github_token: \${{ secrets.BOT_TOKEN }}
`;
  const hide = `      - uses: kanga333/comment-hider@v0.4.0
        with:
          github_token: \${{ secrets.BOT_TOKEN }}
          issue_number: \${{ steps.intent.outputs.pr }}
`;

  it('positive: a value that picks the run or branch of a later download is LOW, saying what it picks; a comment it hides is named too', () => {
    for (const inputs of ['          run_id: ${{ steps.intent.outputs.run }}', '          branch: ${{ steps.intent.outputs.run }}\n          workflow: bench.yml']) {
      const found = download(scanWith(RULE, intent(reader, later(inputs) + hide)));
      expect(found?.severity, inputs).toBe('LOW');
      expect(found?.description, inputs).toContain('to dawidd6/action-download-artifact, which only picks the run, branch or artifact it downloads (line');
      expect(found?.description, inputs).toContain('the fork picks at most which run\'s artifacts that step fetches, and what those files then do is judged at that download');
      expect(found?.description, inputs).toContain('their other uses go no further: step 4 of job `apply` gives `steps.intent.outputs.pr` (its `issue_number`) to kanga333/comment-hider, which only posts, edits or hides a comment');
      expect(found?.description, inputs).not.toContain('nothing else uses their content');
      expect(found?.description, inputs).not.toContain(NOTHING_FOLLOWED);
    }
  });

  it('negative: a value given to where the later download writes (`path`), or to a command of a job holding a secret, still steers the job (MEDIUM)', () => {
    const path = download(scanWith(RULE, intent(reader, later('          run_id: ${{ github.event.workflow_run.id }}\n          path: ${{ steps.intent.outputs.run }}'))));
    expect(path?.severity).toBe('MEDIUM');
    expect(path?.description).toContain('so their content steers the job');
    const command = `      - run: python3 /opt/bench/compare.py "\${RUN}"
        env:
          RUN: \${{ steps.intent.outputs.run }}
          TOKEN: \${{ secrets.BOT_TOKEN }}
`;
    const steered = download(scanWith(RULE, intent(reader, command)));
    expect(steered?.severity).toBe('MEDIUM');
    expect(steered?.description).not.toContain('which only picks the run');
  });
});

describe(`${RULE}: a download whose own content the analysis follows nowhere names what the job's values from pull request files steer`, () => {
  // A size report on `workflow_run`: the pull request's run uploads its sizes with its number and base branch; the
  // report job reads the number (the comment's target) and the branch (which run's artifacts come next), downloads
  // the previous sizes of that branch, builds the report with the base repository's script and comments it.
  const sizeReport = (allowForks = true, comment = true) => yaml`
    on:
      workflow_run:
        workflows: [size data]
        types: [completed]
    permissions:
      pull-requests: write
    jobs:
      size-report:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - name: Download Size Data
            uses: dawidd6/action-download-artifact@v6
            with:
              name: size-data
              run_id: \${{ github.event.workflow_run.id }}
              path: temp/size
          - name: Read PR Number
            id: pr-number
            uses: juliangruber/read-file-action@v1
            with:
              path: temp/size/number.txt
          - name: Read base branch
            id: pr-base
            uses: juliangruber/read-file-action@v1
            with:
              path: temp/size/base.txt
          - name: Download Previous Size Data
            uses: dawidd6/action-download-artifact@v6
            with:
              branch: \${{ steps.pr-base.outputs.content }}
              workflow: size-data.yml
              name: size-data
              path: temp/size-prev
              allow_forks: ${allowForks ? 'true' : 'false'}
          - name: Prepare report
            run: node scripts/size-report.js > size-report.md
          - name: Read Size Report
            id: size-report
            uses: juliangruber/read-file-action@v1
            with:
              path: ./size-report.md
  ` + (comment ? `      - name: Create Comment
        uses: actions-cool/maintain-one-comment@v3
        with:
          token: \${{ secrets.GITHUB_TOKEN }}
          number: \${{ steps.pr-number.outputs.content }}
          body: |
            \${{ steps.size-report.outputs.content }}
            <!-- SIZE -->
          body-include: '<!-- SIZE -->'
` : '');
  const previous = (found: ReturnType<typeof scanWith>) => found.find((f) => f.description.startsWith('step `Download Previous Size Data`'));

  it('positive: the next download, whose run a value of the first picks, names that pick and the comment whose target and text the job reads from pull request files', () => {
    const findings = scanWith(RULE, sizeReport());
    const next = previous(findings);
    expect(next?.severity).toBe('LOW');
    expect(next?.description).not.toContain(NOTHING_FOLLOWED);
    expect(next?.description).toContain('no later step of the job runs them, and none the analysis follows takes a value from them, but the run they come from is picked by a value read from the artifacts step `Download Size Data` of job `size-report` downloads (`steps.pr-base.outputs.content`, its `branch`)');
    expect(next?.description).toContain('step `Create Comment` of job `size-report` (line 43) then posts a comment (actions-cool/maintain-one-comment) whose `body` takes `steps.size-report.outputs.content`, an output of a step after this download that reads files of the workspace these files landed in, and whose `number` comes from the artifacts step `Download Size Data` of job `size-report` downloads');
    expect(next?.description).toContain("(LOW: at worst which run's artifacts the job fetches, and a comment's target or wording; nothing of these files runs)");
    // The first download names both of its values' uses, as before.
    const first = findings.find((f) => f.description.startsWith('step `Download Size Data`'));
    expect(first?.severity).toBe('LOW');
    expect(first?.description).toContain('(its `branch`) to dawidd6/action-download-artifact, which only picks the run, branch or artifact it downloads');
    expect(first?.description).toContain('(its `number`) to actions-cool/maintain-one-comment, which only posts, edits or hides a comment');
  });

  it('positive: an action given the directory they land in by an input the analysis reads no files from is named', () => {
    const chromatic = yaml`
      on:
        workflow_run:
          workflows: [storybook-build]
          types: [completed]
      jobs:
        deploy:
          runs-on: ubuntu-latest
          steps:
            - name: download storybook
              uses: actions/download-artifact@v4
              with:
                name: storybook-static
                path: storybook-static
                run-id: \${{ github.event.workflow_run.id }}
                github-token: \${{ secrets.GITHUB_TOKEN }}
            - uses: chromaui/action@v13
              with:
                projectToken: \${{ secrets.CHROMATIC_PROJECT_TOKEN }}
                storybookBuildDir: ./storybook-static/
    `;
    const [found] = scanWith(RULE, chromatic);
    expect(found?.severity).toBe('LOW');
    expect(found?.description).not.toContain(NOTHING_FOLLOWED);
    expect(found?.description).toContain('but step 2 of job `deploy` hands them to chromaui/action (its `storybookBuildDir: ./storybook-static/`)');
    expect(found?.description).toContain('(LOW: at worst what chromaui/action does with the fork\'s files; nothing of these files runs)');
  });

  it('negative: with no comment after it and its run picked by nothing of theirs, the next download still says its content reaches nothing', () => {
    const alone = (after: string) => yaml`
      on:
        workflow_run:
          workflows: [size data]
          types: [completed]
      jobs:
        size-report:
          runs-on: ubuntu-latest
          steps:
            - name: Download Previous Size Data
              uses: dawidd6/action-download-artifact@v3
              with:
                branch: main
                workflow: size-data.yml
                name: size-data
                path: temp/size-prev
            - run: node scripts/size-report.js > size-report.md
    ` + after;
    const [found] = scanWith(RULE, alone(''));
    expect(found?.severity).toBe('LOW');
    expect(found?.description).toContain(`no later step of the job runs them, and ${NOTHING_FOLLOWED} (LOW)`);
    // A comment whose values no step reads from the workspace after the download, nor an earlier download fills, is not named.
    const unrelated = alone(`      - id: n
        run: echo "n=7" >> "$GITHUB_OUTPUT"
      - run: gh pr comment "$N" --body done
        env:
          N: \${{ steps.n.outputs.n }}
          GH_TOKEN: \${{ github.token }}
`);
    const [other] = scanWith(RULE, unrelated);
    expect(other?.severity).toBe('LOW');
    expect(other?.description).toContain(NOTHING_FOLLOWED);
  });

  it('dangerous-trigger names the comment target beside the pick, not only the first use', () => {
    const [trigger] = scanWith('dangerous-trigger', sizeReport(false));
    expect(trigger?.severity).toBe('LOW');
    expect(trigger?.description).toContain("(at worst which run's artifacts that download fetches, whose files are judged at it), and step `Create Comment` of job `size-report` gives `steps.pr-number.outputs.content` (its `number`) to actions-cool/maintain-one-comment, which only posts, edits or hides a comment");
    // One use alone: nothing appended.
    const [single] = scanWith('dangerous-trigger', sizeReport(false, false));
    expect(single?.description).toContain("(at worst which run's artifacts that download fetches, whose files are judged at it)");
    expect(single?.description).not.toContain('maintain-one-comment');
  });
});

describe(`${RULE}: outputs the writing step fills only from a value that matched a pattern, then read in a later step's \`if:\` and script`, () => {
  /**
   * Downloads a fork's run's summary into `.artifacts`, keeps its SHA only when it is 40 hex digits (`checked`) or as
   * it is, and hands it to the base repository's own github-script, gated on it.
   */
  function shaGate(checked: boolean): string {
    const keep = checked ? ['  if [[ "$RAW" =~ ^[0-9a-f]{40}$ ]]; then', '    SHA="$RAW"', '  fi'] : ['  SHA="$RAW"'];
    const script = ['OUT=$(mktemp)', 'SHA=""', 'if [ -f .artifacts/summary.json ]; then', "  RAW=$(jq -r '.head_sha // empty' .artifacts/summary.json)", ...keep, 'fi', 'if [ -n "$SHA" ]; then', '  echo "sha=$SHA" >> "$OUT"', 'fi', 'cat "$OUT" >> "$GITHUB_OUTPUT"'];
    return yaml`
      on:
        workflow_run:
          workflows: [CI]
          types: [completed]
      permissions:
        checks: write
        contents: write
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - name: Download summary
              env:
                GH_TOKEN: \${{ github.token }}
              run: gh run download "\${{ github.event.workflow_run.id }}" --name summary --dir .artifacts
            - name: Read run info
              id: info
              run: |
    ` + script.map((l) => `          ${l}`).join('\n') + `
      - name: Publish checks
        if: steps.info.outputs.sha
        uses: actions/github-script@v7
        with:
          script: |
            const handler = require('./.github/scripts/publish.js');
            await handler({ github, context, headSha: '\${{ steps.info.outputs.sha }}' });
`;
  }

  it('positive: a SHA kept only inside the branch where it matched steers nothing, with a write token beside it: no finding', () => {
    expect(scanWith(RULE, shaGate(true))).toEqual([]);
  });

  it('negative: the same SHA kept unchecked runs as JavaScript in the github-script, which holds `contents: write`: HIGH', () => {
    const found = scanWith(RULE, shaGate(false)).find((f) => f.line === 16);
    expect(found?.severity).toBe('HIGH');
    expect(found?.description).toContain('runs as JavaScript');
  });
});
