import { describe, expect, it } from 'vitest';
import { RunModel } from '../../../../../lib/engine/analysis/run-model/index.js';
import { guardCovers } from '../../../../../lib/engine/analysis/trust-guards.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildAction, buildWorkflow, type Action, type Step, type Workflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { yaml } from '../../../../support/engine.js';

function model(files: Record<string, string>) {
  const workflows: Workflow[] = [];
  const actions: Action[] = [];
  for (const [path, text] of Object.entries(files)) {
    const parsed = parseYaml(text);
    if (!parsed.ok || parsed.root.kind !== 'map') throw new Error(`bad fixture ${path}`);
    const file = new SourceFile(path, text);
    if (path.endsWith('action.yml')) actions.push(buildAction(file, parsed.root));
    else workflows.push(buildWorkflow(file, parsed.root));
  }
  const repository = new RepositoryModel(workflows, actions, []);
  const runs = new RunModel(repository);
  const step = (job: string, index = 0): Step => {
    const found = workflows[0]?.jobs.find((j) => j.id === job)?.steps[index];
    if (found === undefined) throw new Error(`no step ${index} of ${job}`);
    return found;
  };
  return { runs, step, actions };
}

const covering = (source: string, issueComment = false) => (guard: Parameters<typeof guardCovers>[0]) => guardCovers(guard, source, issueComment);

describe('valueReach: who can put a value into a step', () => {
  it('reads only the occasions whose event brings the value in', () => {
    const { runs, step } = model({ 'w.yml': yaml`
      on: [pull_request, pull_request_target, issues]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps: [{ run: 'true' }]
        pr-only:
          if: github.event_name == 'pull_request'
          runs-on: ubuntu-latest
          steps: [{ run: 'true' }]
    ` });
    const title = covering('github.event.pull_request.title');
    expect(runs.valueReach(step('j'), new Set(['pull_request_target', 'pull_request']), title)).toMatchObject({ level: 'anyone', event: 'pull_request_target', forkPullRequest: true });
    // A job that runs only on the read-only event: a fork's run, or a branch of the repository (a trusted author).
    expect(runs.valueReach(step('pr-only'), new Set(['pull_request_target', 'pull_request']), title)).toMatchObject({ level: 'trusted-author', forkPullRequest: true });
    expect(runs.valueReach(step('pr-only'), new Set(['issues']), covering('github.event.issue.title'))).toMatchObject({ level: 'collaborator', forkPullRequest: false });
  });

  it('lets a guard count only when it vouches for the value', () => {
    const { runs, step } = model({ 'w.yml': yaml`
      on: issue_comment
      jobs:
        j:
          if: github.event.comment.author_association == 'OWNER'
          runs-on: ubuntu-latest
          steps: [{ run: 'true' }]
        same:
          if: github.event.issue.pull_request && github.actor == 'octocat'
          runs-on: ubuntu-latest
          steps: [{ run: 'true' }]
    ` });
    const events = new Set(['issue_comment']);
    expect(runs.valueReach(step('j'), events, covering('github.event.comment.body', true))).toMatchObject({ level: 'trusted-author', unvouched: false });
    const title = runs.valueReach(step('j'), events, covering('github.event.issue.title', true));
    expect(title).toMatchObject({ level: 'approval', unvouched: true, event: 'issue_comment' });
    expect(title.gates[0]).toContain('author_association');
    // A named actor on an issue comment is the commenter, not the issue's author.
    expect(runs.valueReach(step('same'), events, covering('github.event.issue.body', true))).toMatchObject({ level: 'approval', unvouched: true });
  });

  it('counts a maintainer\'s activity as approving what the event carries, and a sticky label as no gate', () => {
    const { runs, step } = model({ 'w.yml': yaml`
      on:
        issues: { types: [labeled] }
        pull_request_target: { types: [opened, synchronize] }
      jobs:
        j:
          if: github.event_name == 'issues' || contains(github.event.pull_request.labels.*.name, 'ok')
          runs-on: ubuntu-latest
          steps: [{ run: 'true' }]
    ` });
    expect(runs.valueReach(step('j'), new Set(['issues']), covering('github.event.issue.title'))).toMatchObject({ level: 'approval', unvouched: false });
    expect(runs.valueReach(step('j'), new Set(['pull_request_target']), covering('github.event.pull_request.title'))).toMatchObject({ level: 'sticky-label' });
  });

  it('gives the workflow steps a composite action runs at', () => {
    const { runs, actions } = model({
      'w.yml': yaml`
        on: issues
        jobs:
          j:
            runs-on: ubuntu-latest
            steps:
              - uses: ./.github/actions/outer
      `,
      '.github/actions/outer/action.yml': yaml`
        runs:
          using: composite
          steps:
            - uses: ./.github/actions/inner
      `,
      '.github/actions/inner/action.yml': yaml`
        runs:
          using: composite
          steps:
            - run: 'true'
              shell: bash
      `,
    });
    const inner = actions.find((a) => a.file.path.includes('inner'))?.steps[0] as Step;
    expect(runs.jobSteps(inner).map((s) => `${s.job?.id}:${s.index}`)).toEqual(['j:0']);
  });
});
