import { describe, expect, it } from 'vitest';
import { sentInputs } from '../../../../lib/engine/analysis/dispatch-inputs.js';
import { selfDispatches } from '../../../../lib/engine/analysis/pr-dispatch.js';
import { buildWorkflow } from '../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';

/** What the one self-dispatch of a comment job made of `steps` (YAML, indented as a job's steps) sends that an outsider chooses. */
function sent(steps: string): ReturnType<typeof sentInputs> {
  const text = `on: issue_comment\njobs:\n  go:\n    runs-on: ubuntu-latest\n    env:\n      BODY: \${{ github.event.comment.body }}\n      MAIN: \${{ github.event.repository.default_branch }}\n    steps:\n${steps}`;
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('not a mapping');
  const job = buildWorkflow(new SourceFile('.github/workflows/comment.yml', text), parsed.root).jobs[0]!;
  const [dispatch] = selfDispatches(job, () => new Set(['acme/app']));
  if (dispatch === undefined) throw new Error('no dispatch');
  return sentInputs(dispatch);
}

describe('sentInputs: the inputs a dispatch sets from values an outsider chooses', () => {
  it('reads `gh workflow run` fields and ref: constants and fixed contexts are not theirs', () => {
    expect(sent('      - run: gh workflow run release.yml --ref "$MAIN" -f channel=stable -f note="$BODY"\n')).toEqual({ fed: ['note'], ref: null, pullRequest: [] });
    expect(sent('      - run: gh workflow run release.yml --ref "$BODY"\n')).toEqual({ fed: [], ref: '`$BODY`', pullRequest: [] });
    // A field read from a file, or inputs given as JSON on stdin: not known.
    expect(sent('      - run: gh workflow run release.yml -F note=@note.txt\n').fed).toEqual(['note']);
    expect(sent('      - run: echo "$BODY" | gh workflow run release.yml --json\n').fed).toBeNull();
  });

  it('reads the REST path through `gh api` by its `inputs[...]` fields', () => {
    expect(sent("      - run: gh api repos/{owner}/{repo}/actions/workflows/release.yml/dispatches -f ref=main -f 'inputs[pr]=${{ github.event.issue.number }}' -f inputs[channel]=beta\n")).toEqual({ fed: ['pr'], ref: null, pullRequest: ['pr'] });
  });

  it('reads a github-script call: literal inputs, fixed contexts, and inputs it cannot see', () => {
    const script = (call: string) => `      - uses: actions/github-script@v7\n        with:\n          script: |\n            ${call}\n`;
    expect(sent(script("await github.rest.actions.createWorkflowDispatch({ ...context.repo, workflow_id: 'r.yml', ref: context.payload.repository.default_branch, inputs: { channel: 'stable', pr: String(context.issue.number) } })"))).toEqual({ fed: ['pr'], ref: null, pullRequest: ['pr'] });
    expect(sent(script("await github.rest.actions.createWorkflowDispatch({ ...context.repo, workflow_id: 'r.yml', ref: 'main' })"))).toEqual({ fed: [], ref: null, pullRequest: [] });
    expect(sent(script("await github.rest.actions.createWorkflowDispatch({ ...context.repo, workflow_id: 'r.yml', ref: 'main', inputs })")).fed).toBeNull();
    expect(sent(script("await github.rest.actions.createWorkflowDispatch({ ...context.repo, workflow_id: 'r.yml', ref: branch })")).ref).toBe('`branch`');
  });

  it("reads a dispatch action's JSON inputs, and a slash-command dispatcher's named arguments", () => {
    const action = '      - uses: benc-uk/workflow-dispatch@v1\n        with:\n          workflow: release.yml\n          inputs: \'{"channel": "stable", "note": "${{ github.event.comment.body }}", "n": 3}\'\n';
    expect(sent(action)).toEqual({ fed: ['note'], ref: null, pullRequest: [] });
    const slash = '      - uses: peter-evans/slash-command-dispatch@v4\n        with:\n          token: ${{ secrets.PAT }}\n          commands: release\n          permission: none\n          dispatch-type: workflow\n';
    expect(sent(slash)).toEqual({ fed: null, ref: 'the `ref=` argument of the command', pullRequest: [] });
  });
});
