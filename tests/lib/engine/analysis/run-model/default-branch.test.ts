import { describe, expect, it } from 'vitest';
import { occasionIndexes } from '../../../../../lib/engine/analysis/run-model/conditions.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildWorkflow, workflowRunSets } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { recordsWith, yaml } from '../../../../support/engine.js';

/** The events on which job `id` of a workflow can run, when the repository's default branch is `branch` (null: not known). */
function eventsOf(text: string, id: string, branch: string | null): string[] {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('bad fixture');
  const workflow = buildWorkflow(new SourceFile('.github/workflows/ci.yml', text), parsed.root);
  void new RepositoryModel([workflow], [], [], 'acme/app', new Set(), branch);
  const runs = workflowRunSets(workflow);
  const job = workflow.jobs.find((j) => j.id === id);
  const set = job === undefined ? undefined : runs.jobs.get(job);
  if (set === undefined) return [];
  return [...new Set(occasionIndexes(set).map((i) => runs.occasions[i]?.event ?? '?'))];
}

const WORKFLOW = (condition: string) => yaml`
  on:
    workflow_dispatch:
    schedule:
      - cron: '0 3 * * *'
    repository_dispatch:
      types: [ok-to-test-command]
    issue_comment:
  jobs:
    fork:
      if: ${condition}
      runs-on: ubuntu-latest
      steps:
        - uses: actions/checkout@v3
          with:
            ref: refs/pull/\${{ github.event.client_payload.pull_request.number }}/merge
        - run: make test
          env:
            TOKEN: \${{ secrets.TOKEN }}
`;

describe("the repository's own events run on its default branch", () => {
  it("a condition on another branch never holds on them when the default branch is known", () => {
    expect(eventsOf(WORKFLOW("github.ref != 'refs/heads/main'"), 'fork', 'main')).toEqual(['workflow_dispatch']);
    expect(eventsOf(WORKFLOW("github.ref == 'refs/heads/main'"), 'fork', 'main').sort()).toEqual(['issue_comment', 'repository_dispatch', 'schedule', 'workflow_dispatch']);
    expect(eventsOf(WORKFLOW("github.ref_name == 'release'"), 'fork', 'main')).toEqual(['workflow_dispatch']);
  });

  it('decides nothing when the default branch is not known, or is another one', () => {
    expect(eventsOf(WORKFLOW("github.ref != 'refs/heads/main'"), 'fork', null).sort()).toEqual(['issue_comment', 'repository_dispatch', 'schedule', 'workflow_dispatch']);
    expect(eventsOf(WORKFLOW("github.ref != 'refs/heads/main'"), 'fork', 'develop').sort()).toEqual(['issue_comment', 'repository_dispatch', 'schedule', 'workflow_dispatch']);
  });

  it("a checkout of the dispatch payload's pull request in a job that never runs on the dispatch is no pull request code", () => {
    const files = (condition: string) => [{ path: '.github/workflows/ci.yml', text: WORKFLOW(condition) }];
    expect(recordsWith('untrusted-checkout', files("github.ref != 'refs/heads/main'"), { defaultBranch: 'main' })).toEqual([]);
    expect(recordsWith('untrusted-checkout', files("github.ref != 'refs/heads/main'")).length).toBe(1);
    expect(recordsWith('untrusted-checkout', files("github.ref == 'refs/heads/main'"), { defaultBranch: 'main' }).length).toBe(1);
  });

  it('takes the settings snapshot\'s default branch when the caller gives none, and ignores a name git would refuse', () => {
    const files = [{ path: '.github/workflows/ci.yml', text: WORKFLOW("github.ref != 'refs/heads/main'") }];
    expect(recordsWith('untrusted-checkout', files, { settings: { repository: { default_branch: 'main', private: false } } })).toEqual([]);
    expect(recordsWith('untrusted-checkout', files, { defaultBranch: '../main' }).length).toBe(1);
  });
});
