import { describe, expect, it } from 'vitest';
import { RunModel } from '../../../../../lib/engine/analysis/run-model/index.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildWorkflow, type Workflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';

function reachOf(files: Record<string, string>, path: string, id: string) {
  const workflows: Workflow[] = [];
  for (const [file, text] of Object.entries(files)) {
    const parsed = parseYaml(text);
    if (!parsed.ok || parsed.root.kind !== 'map') throw new Error(`bad fixture ${file}`);
    workflows.push(buildWorkflow(new SourceFile(file, text), parsed.root));
  }
  const runs = new RunModel(new RepositoryModel(workflows, [], []));
  const job = workflows.find((w) => w.file.path === path)?.jobs.find((j) => j.id === id);
  if (job === undefined) throw new Error(`no job ${id}`);
  return runs.job(job).reach;
}

const target = (condition: string) => ({
  '.github/workflows/w.yml': `on: pull_request_target
jobs:
  j:
    if: ${condition}
    runs-on: ubuntu-latest
    steps:
      - run: make
`,
});

describe('run model: fork exclusion (Reach.sameRepository)', () => {
  it('says so when every way in keeps forks out, naming the condition', () => {
    for (const condition of [
      'github.event.pull_request.head.repo.full_name == github.repository',
      "github.event.pull_request.head.repo.full_name == 'owner/repo'",
      "github.actor == 'dependabot[bot]' && github.event.pull_request.head.repo.fork == false",
      '${{ !github.event.pull_request.head.repo.fork }}',
    ]) {
      const reach = reachOf(target(condition), '.github/workflows/w.yml', 'j');
      expect(reach, condition).toMatchObject({ level: 'trusted-author', sameRepository: true });
      expect(reach.gates.join(' ')).toContain('head.repo');
    }
  });

  it('not for another trusted-author gate, or one way in without fork exclusion', () => {
    // A named author may push from a fork: trusted, but no fork exclusion.
    expect(reachOf(target("github.event.pull_request.user.login == 'alice'"), '.github/workflows/w.yml', 'j').sameRepository).toBeUndefined();
    expect(reachOf(target("github.event.pull_request.head.repo.full_name == github.repository || github.event.pull_request.user.login == 'alice'"), '.github/workflows/w.yml', 'j').sameRepository).toBeUndefined();
    // Forks reach it: no claim of exclusion at all.
    expect(reachOf(target("github.event.pull_request.head.repo.full_name == github.repository || github.event.action == 'opened'"), '.github/workflows/w.yml', 'j')).toMatchObject({ level: 'anyone' });
  });

  it('not after runs no pull request starts: nothing was excluded', () => {
    const files = {
      '.github/workflows/release.yml': 'name: release\non: push\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n',
      '.github/workflows/after.yml': 'on:\n  workflow_run:\n    workflows: [release]\n    types: [completed]\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n',
    };
    const reach = reachOf(files, '.github/workflows/after.yml', 'a');
    expect(reach.sameRepository).toBeUndefined();
  });
});
