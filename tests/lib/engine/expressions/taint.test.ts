import { describe, expect, it } from 'vitest';
import { parseExpression } from '../../../../lib/engine/expressions/parse.js';
import { referencedEnvVars } from '../../../../lib/engine/analysis/script-outputs.js';
import { stepScope, TaintAnalyzer, type Taint } from '../../../../lib/engine/expressions/taint.js';
import { RepositoryModel } from '../../../../lib/engine/model/repository.js';
import { buildAction, buildWorkflow, type Action, type Step, type Workflow } from '../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';
import { yaml } from '../../../support/engine.js';

/** Builds the repository model of some files; evaluates expressions in the scope of one of their steps. */
function analyse(files: Record<string, string>) {
  const workflows: Workflow[] = [];
  const actions: Action[] = [];
  for (const [path, text] of Object.entries(files)) {
    const parsed = parseYaml(text);
    if (!parsed.ok || parsed.root.kind !== 'map') throw new Error(`bad fixture ${path}`);
    const file = new SourceFile(path, text);
    if (path.endsWith('action.yml')) actions.push(buildAction(file, parsed.root));
    else workflows.push(buildWorkflow(file, parsed.root));
  }
  const analyzer = new TaintAnalyzer(new RepositoryModel(workflows, actions, []));
  /** Step `index` of job `job` of the workflow at `path` (job null: of the composite action at `path`). */
  const step = (path: string, job: string | null, index: number): Step => {
    const owner = [...workflows, ...actions].find((m) => m.file.path === path);
    const steps = owner?.kind === 'workflow' ? owner.jobs.find((j) => j.id === job)?.steps : owner?.steps;
    const found = steps?.[index];
    if (found === undefined) throw new Error(`no step ${index} in ${path}`);
    return found;
  };
  const evaluate = (source: string, at: Step): Taint | null => {
    const expr = parseExpression(source);
    if (expr === null) throw new Error(`bad expression ${source}`);
    return analyzer.ofExpression(expr, stepScope(at));
  };
  return { evaluate, step };
}

const WORKFLOW = '.github/workflows/w.yml';

describe('TaintAnalyzer', () => {
  it('classifies github contexts and skips fields only maintainers set', () => {
    const { evaluate, step: stepAt } = analyse({ [WORKFLOW]: yaml`
      on: [pull_request_target, release, push]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: 'true'
    ` });
    const step = stepAt(WORKFLOW, 'j', 0);
    expect(evaluate('github.event.pull_request.title', step)?.level).toBe('arbitrary');
    expect(evaluate('github.event.pull_request.head.repo.html_url', step)).toBeNull();
    expect(evaluate('github.event.pull_request.head.repo.homepage', step)?.level).toBe('arbitrary');
    expect(evaluate('github.head_ref', step)?.level).toBe('arbitrary');
    expect(evaluate('github.event.pull_request.head.label', step)?.level).toBe('arbitrary');
    for (const fixed of [
      'github.event.pull_request.base.ref',
      'github.event.pull_request.labels.*.name',
      'github.event.label.name',
      'github.event.release.tag_name',
      'github.event.ref',
      'github.event.repository.description',
      'github.event.pusher.name',
      'github.event.workflow_run.name',
      'github.event.pull_request.number',
      'github.event.pull_request.title == \'x\'',
      'contains(github.event.pull_request.title, \'x\')',
    ]) {
      expect(evaluate(fixed, step), fixed).toBeNull();
    }
    expect(evaluate('github.event.release.body', step)?.level).toBe('arbitrary');
    // No trigger of the workflow has a `workflow_run` payload: the expression is empty on every run.
    expect(evaluate('github.event.workflow_run.head_branch', step)).toMatchObject({ controller: 'maintainer', events: [] });
    expect(evaluate('github.event.pull_request.title', step)?.events).toEqual(['pull_request_target']);
  });

  it("takes `a && b` as its last operand (a falsy one carries no text), and a workflow run's event name as GitHub's", () => {
    const { evaluate, step: stepAt } = analyse({ [WORKFLOW]: yaml`
      on:
        issues:
        pull_request_target:
        workflow_run:
          workflows: [CI]
          types: [completed]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: 'true'
    ` });
    const step = stepAt(WORKFLOW, 'j', 0);
    // Positive: the last operand of `&&`, or any operand of `||` but one after an always-truthy one, is the value.
    expect(evaluate("github.event.issue && github.event.issue.title", step)?.level).toBe('arbitrary');
    expect(evaluate("github.event.issue.number && github.event.issue.title || 'none'", step)?.level).toBe('arbitrary');
    expect(evaluate("'x' && (github.event.pull_request.title || 'y')", step)?.level).toBe('arbitrary');
    expect(evaluate('github.event.workflow_run.head_branch', step)?.level).toBe('arbitrary');
    expect(evaluate('github.event.workflow_run.display_title', step)?.level).toBe('arbitrary');
    // A field of a grouped `||`: the field of each operand, so a text field stays the outsider's.
    expect(evaluate('(github.event.pull_request || github.event.issue).title', step)?.level).toBe('arbitrary');
    expect(evaluate("(github.event.issue || github.event.pull_request)['body']", step)?.level).toBe('arbitrary');
    // Negative: a condition that picks one of two literals, and the name of the event that started a run.
    for (const fixed of [
      "github.event.issue && 'issue' || (github.event.pull_request && 'pull_request') || 'unknown'",
      "github.event.pull_request.title && 'titled'",
      'github.event.pull_request && github.event.pull_request.head.sha || github.sha',
      'github.event.workflow_run.event',
      // The number of whichever of the two the event has.
      '(github.event.pull_request || github.event.issue).number',
      '((github.event.issue || github.event.pull_request)).number',
    ]) {
      expect(evaluate(fixed, step), fixed).toBeNull();
    }
  });

  it('marks toJSON results as JSON, and drops the mark once the value is reshaped', () => {
    const files = { [WORKFLOW]: yaml`
      on: issues
      env:
        WHOLE: \${{ toJSON(github.event.issue) }}
        EMBEDDED: 'x \${{ toJSON(github.event.issue) }}'
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: 'true'
    ` };
    const { evaluate, step: stepAt } = analyse(files);
    const step = stepAt(WORKFLOW, 'j', 0);
    expect(evaluate('toJSON(github.event.issue.title)', step)?.json).toBe(true);
    expect(evaluate('format(\'{0}\', toJSON(github.event.issue.title))', step)?.json).toBeUndefined();
    expect(evaluate('env.WHOLE', step)?.json).toBe(true);
    expect(evaluate('env.EMBEDDED', step)?.json).toBeUndefined();
    expect(evaluate('env.EMBEDDED', step)?.level).toBe('arbitrary');
  });

  it('follows only the lines that write a step output, and the shell variables they read', () => {
    const files = { [WORKFLOW]: yaml`
      on: [issues, pull_request_target]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - id: s
              env:
                TITLE: \${{ github.event.issue.title }}
              run: |
                echo "safe=$(date +%s)" >> "$GITHUB_OUTPUT"
                cleaned=$(echo "$TITLE" | tr -d '\\n')
                echo "title=$cleaned" >> "$GITHUB_OUTPUT"
                {
                  echo "body<<EOF"
                  echo "\${{ github.event.issue.body }}"
                  echo "EOF"
                } >> "$GITHUB_OUTPUT"
                echo "ref=$GITHUB_HEAD_REF" >> "$GITHUB_OUTPUT"
            - run: 'true'
    ` };
    const { evaluate, step: stepAt } = analyse(files);
    const step = stepAt(WORKFLOW, 'j', 1);
    expect(evaluate('steps.s.outputs.safe', step)).toBeNull();
    expect(evaluate('steps.s.outputs.title', step)).toMatchObject({ level: 'arbitrary', source: 'github.event.issue.title', via: ['steps.s.outputs.title', 'env.TITLE'] });
    expect(evaluate('steps.s.outputs.body', step)?.source).toBe('github.event.issue.body');
    expect(evaluate('steps.s.outputs.ref', step)?.source).toBe('github.head_ref');
  });

  it('falls back to the whole script when no line visibly writes the output', () => {
    const files = { [WORKFLOW]: yaml`
      on: issues
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - id: s
              run: ./compute.sh "\${{ github.event.issue.title }}" >> "$GITHUB_OUTPUT"
            - run: 'true'
    ` };
    const { evaluate, step: stepAt } = analyse(files);
    expect(evaluate('steps.s.outputs.anything', stepAt(WORKFLOW, 'j', 1))?.level).toBe('arbitrary');
  });

  it('resolves reusable-workflow inputs from the callers in the repository', () => {
    const files = {
      '.github/workflows/build.yml': yaml`
        on:
          workflow_call:
            inputs:
              target: { type: string }
              count: { type: number }
        jobs:
          b:
            runs-on: ubuntu-latest
            steps:
              - run: 'true'
      `,
      '.github/workflows/ci.yml': yaml`
        on: pull_request_target
        jobs:
          one:
            uses: ./.github/workflows/build.yml
            with:
              target: linux
          two:
            uses: ./.github/workflows/build.yml
            with:
              target: \${{ github.event.pull_request.head.ref }}
      `,
    };
    const { evaluate, step: stepAt } = analyse(files);
    const step = stepAt('.github/workflows/build.yml', 'b', 0);
    expect(evaluate('inputs.target', step)).toMatchObject({ level: 'arbitrary', via: ['inputs.target'] });
    expect(evaluate('inputs.count', step)).toBeNull();
  });

  it('treats the inputs of a reusable workflow nobody in the repository calls as inputs', () => {
    const files = { [WORKFLOW]: yaml`
      on:
        workflow_call:
          inputs:
            target: { type: string }
      jobs:
        b:
          runs-on: ubuntu-latest
          steps:
            - run: 'true'
    ` };
    const { evaluate, step: stepAt } = analyse(files);
    expect(evaluate('inputs.target', stepAt(WORKFLOW, 'b', 0))?.level).toBe('input');
  });

  it('does not flag a private composite action whose callers pass constants', () => {
    const files = {
      '.github/actions/a/action.yml': yaml`
        name: a
        inputs:
          who: { description: x }
        runs:
          using: composite
          steps:
            - shell: bash
              run: 'true'
      `,
      [WORKFLOW]: yaml`
        on: issues
        jobs:
          j:
            runs-on: ubuntu-latest
            steps:
              - uses: ./.github/actions/a
                with:
                  who: world
      `,
    };
    const { evaluate, step: stepAt } = analyse(files);
    expect(evaluate('inputs.who', stepAt('.github/actions/a/action.yml', null, 0))).toBeNull();
  });

  it('knows which action outputs carry file names, by version and settings', () => {
    const files = { [WORKFLOW]: yaml`
      on: pull_request
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - id: old
              uses: tj-actions/changed-files@v40
            - id: pinned
              uses: tj-actions/changed-files@0123456789abcdef0123456789abcdef01234567 # v44
            - id: json
              uses: dorny/paths-filter@v3
              with: { list-files: json, filters: 'a: [a/**]' }
            - id: none
              uses: dorny/paths-filter@v3
              with: { filters: 'a: [a/**]' }
            - id: fork
              uses: step-security/changed-files@v46
            - id: unsafe
              uses: step-security/changed-files@v46
              with: { safe_output: false }
            - run: 'true'
    ` };
    const { evaluate, step: stepAt } = analyse(files);
    const step = stepAt(WORKFLOW, 'j', 6);
    // StepSecurity's fork of changed-files escapes like the original.
    expect(evaluate('steps.fork.outputs.all_changed_files', step)).toBeNull();
    expect(evaluate('steps.unsafe.outputs.all_changed_files', step)?.level).toBe('arbitrary');
    expect(evaluate('steps.old.outputs.all_changed_files', step)?.level).toBe('arbitrary');
    expect(evaluate('steps.pinned.outputs.all_changed_files', step)).toBeNull();
    expect(evaluate('steps.json.outputs.a_files', step)).toMatchObject({ level: 'arbitrary', json: true });
    expect(evaluate('steps.json.outputs.a', step)).toBeNull();
    expect(evaluate('steps.none.outputs.a_files', step)).toBeNull();
  });

  it('finds no file name in changed-files counts and flags, whatever the version', () => {
    const files = { [WORKFLOW]: yaml`
      on: pull_request_target
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - id: old
              uses: tj-actions/changed-files@v35
            - run: 'true'
    ` };
    const { evaluate, step: stepAt } = analyse(files);
    const step = stepAt(WORKFLOW, 'j', 1);
    for (const output of ['all_changed_files_count', 'any_changed', 'only_modified', 'any_deleted', 'docs_any_changed', 'src_only_changed', 'src_any_modified']) {
      expect(evaluate(`steps.old.outputs.${output}`, step), output).toBeNull();
    }
    expect(evaluate('steps.old.outputs.all_changed_files', step)).toMatchObject({ level: 'arbitrary', controller: 'external', events: ['pull_request_target'] });
    expect(evaluate('steps.old.outputs.src_all_changed_files', step)?.level).toBe('arbitrary');
  });

  it('treats the URLs of github.event.issue.pull_request as GitHub\'s, not an outsider\'s', () => {
    const { evaluate, step: stepAt } = analyse({ [WORKFLOW]: yaml`
      on: issue_comment
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: 'true'
    ` });
    const step = stepAt(WORKFLOW, 'j', 0);
    expect(evaluate('github.event.issue.pull_request', step)).toBeNull();
    expect(evaluate('github.event.issue.pull_request.html_url', step)).toBeNull();
    expect(evaluate('toJSON(github.event.issue.pull_request)', step)).toBeNull();
    expect(evaluate('github.event.issue.html_url', step)).toBeNull();
    expect(evaluate('github.event.issue.title', step)).toMatchObject({ level: 'arbitrary', events: ['issue_comment'] });
  });

  it('reads an event field only on the triggers whose payload has it', () => {
    const { evaluate, step: stepAt } = analyse({ [WORKFLOW]: yaml`
      on: [push, issues, pull_request, pull_request_target, issue_comment]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: 'true'
    ` });
    const step = stepAt(WORKFLOW, 'j', 0);
    expect(evaluate('github.event.issue.title', step)?.events).toEqual(['issues', 'issue_comment']);
    expect(evaluate('github.event.pull_request.title', step)?.events).toEqual(['pull_request', 'pull_request_target']);
    expect(evaluate('github.head_ref', step)?.events).toEqual(['pull_request', 'pull_request_target']);
    expect(evaluate('github.event.comment.body', step)?.events).toEqual(['issue_comment']);
    expect(evaluate('github.event.review.body', step)).toMatchObject({ controller: 'maintainer', events: [] });
    expect(evaluate('github.event.workflow_run.display_title', step)).toMatchObject({ controller: 'maintainer', events: [] });
    // Any real source wins over an absent field.
    expect(evaluate('github.event.review.body || github.event.issue.body', step)).toMatchObject({ controller: 'external', source: 'github.event.issue.body' });
    // Merged commit text comes in through push alone.
    expect(evaluate('github.event.head_commit.message', step)).toMatchObject({ controller: 'external-after-merge' });
    expect(evaluate('github.event.head_commit.message', step)?.events).toBeUndefined();
    // `a || b`: through either event.
    expect(evaluate('github.event.issue.title || github.event.pull_request.title', step)?.events).toEqual(['issues', 'issue_comment', 'pull_request', 'pull_request_target']);
  });

  it('reads what an actions/github-script step returns or sets from the lines that give it', () => {
    const files = { [WORKFLOW]: yaml`
      on: pull_request_target
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - id: merged
              uses: actions/github-script@v7
              with:
                script: |
                  const pr = await github.rest.pulls.get({ owner: context.repo.owner, repo: context.repo.repo, pull_number: context.issue.number });
                  core.setOutput('count', pr.data.commits);
                  return { merged: pr.data.merged, sha: pr.data.merge_commit_sha };
            - id: title
              uses: actions/github-script@v7
              env:
                BODY: \${{ github.event.pull_request.body }}
              with:
                script: |
                  const title = context.payload.pull_request.title;
                  const size = context.payload.pull_request.title.length;
                  core.setOutput('body', process.env.BODY);
                  core.setOutput('size', size);
                  core.setOutput('head', '\${{ github.head_ref }}');
                  return title
            - run: 'true'
    ` };
    const { evaluate, step: stepAt } = analyse(files);
    const step = stepAt(WORKFLOW, 'j', 2);
    expect(evaluate('steps.merged.outputs.result', step)).toBeNull();
    expect(evaluate('fromJSON(steps.merged.outputs.result).sha', step)).toBeNull();
    expect(evaluate('steps.merged.outputs.count', step)).toBeNull();
    expect(evaluate('steps.title.outputs.result', step)).toMatchObject({ level: 'arbitrary', source: 'github.event.pull_request.title', via: ['steps.title.outputs.result'] });
    expect(evaluate('steps.title.outputs.body', step)).toMatchObject({ source: 'github.event.pull_request.body' });
    expect(evaluate('steps.title.outputs.head', step)).toMatchObject({ source: 'github.head_ref' });
    expect(evaluate('steps.title.outputs.size', step)).toBeNull();
  });

  it('reads variables of shells, PowerShell, cmd and Node', () => {
    expect([...referencedEnvVars('echo "$A ${B}" %C% $env:D process.env.E')]).toEqual(['A', 'B', 'C', 'D', 'E']);
  });
});
