import { describe, expect, it } from 'vitest';
import { publishingStep } from '../../../../../lib/engine/analysis/publishing.js';
import { RunModel } from '../../../../../lib/engine/analysis/run-model/index.js';
import { holdingFacts } from '../../../../../lib/engine/analysis/run-model/facts.js';
import { holdingStrength } from '../../../../../lib/engine/analysis/run-model/holdings.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildWorkflow, type Workflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { scanWith, yaml } from '../../../../support/engine.js';

function model(files: Record<string, string>) {
  const workflows: Workflow[] = [];
  for (const [path, text] of Object.entries(files)) {
    const parsed = parseYaml(text);
    if (!parsed.ok || parsed.root.kind !== 'map') throw new Error(`bad fixture ${path}`);
    workflows.push(buildWorkflow(new SourceFile(path, text), parsed.root));
  }
  const runs = new RunModel(new RepositoryModel(workflows, [], []));
  const run = (path: string, id: string) => {
    const job = workflows.find((w) => w.file.path === path)?.jobs.find((j) => j.id === id);
    if (job === undefined) throw new Error(`no job ${id}`);
    return runs.job(job);
  };
  return { runs, run };
}

const CALLED = yaml`
  on:
    workflow_call:
  jobs:
    push:
      runs-on: ubuntu-latest
      steps:
        - run: make image
`;

const caller = (permissions: string, extra = '') => yaml`
  on: push
  ${permissions}
  jobs:
    release:
      uses: ./.github/workflows/push.yml
    ${extra}
`;

describe("a reusable workflow's job with no permissions: holds its callers' token", () => {
  it("takes the union of what the calling jobs grant, naming one that grants it", () => {
    const { run } = model({
      '.github/workflows/push.yml': CALLED,
      '.github/workflows/release.yml': caller('permissions: { contents: write, id-token: write }'),
      '.github/workflows/tests.yml': caller('permissions: { contents: read }', "nightly:\n      permissions: { packages: write }\n      uses: ./.github/workflows/push.yml"),
    });
    const held = run('.github/workflows/push.yml', 'push');
    expect(held.holdings.token).toEqual({ kind: 'scopes', writes: ['contents', 'id-token', 'packages'] });
    expect(held.holdings.oidc).toBe(true);
    expect(held.valuables.join(', ')).toBe("`contents: write`, `packages: write` (from its callers' `permissions:`, e.g. release.yml job `release`), OIDC (`id-token: write`)");
    expect(holdingFacts(held)).not.toContain('token:default');
  });

  it('is read-only when every caller grants only reads, and names the default token too when the workflow also runs on its own', () => {
    const readOnly = model({ '.github/workflows/push.yml': CALLED, '.github/workflows/release.yml': caller('permissions: { contents: read }') });
    expect(readOnly.run('.github/workflows/push.yml', 'push').valuables).toEqual([]);
    expect(holdingStrength(readOnly.run('.github/workflows/push.yml', 'push').holdings, null)).toBe('none');
    const dispatched = model({
      '.github/workflows/push.yml': CALLED.replace('  workflow_call:', '  workflow_call:\n  workflow_dispatch:'),
      '.github/workflows/release.yml': caller('permissions: { contents: write }'),
    });
    const held = dispatched.run('.github/workflows/push.yml', 'push');
    expect(held.valuables.join(', ')).toBe("`contents: write` (from its callers' `permissions:`, e.g. release.yml job `release`), the repository's default token (read-write on many repositories) when started by `workflow_dispatch`");
    expect(holdingFacts(held)).toContain('token:default');
  });

  it('negative: keeps the default token when no caller is found, or every caller declares no permissions: either', () => {
    const alone = model({ '.github/workflows/push.yml': CALLED });
    expect(alone.run('.github/workflows/push.yml', 'push').holdings.token).toEqual({ kind: 'default' });
    expect(alone.run('.github/workflows/push.yml', 'push').valuables).toEqual(["the repository's default token (read-write on many repositories)"]);
    const undeclared = model({ '.github/workflows/push.yml': CALLED, '.github/workflows/release.yml': caller('') });
    expect(undeclared.run('.github/workflows/push.yml', 'push').holdings.token).toEqual({ kind: 'default' });
    // A job that declares its own permissions keeps them.
    const own = model({
      '.github/workflows/push.yml': CALLED.replace('runs-on: ubuntu-latest', 'runs-on: ubuntu-latest\n    permissions: { contents: read }'),
      '.github/workflows/release.yml': caller('permissions: write-all'),
    });
    expect(own.run('.github/workflows/push.yml', 'push').holdings.token).toEqual({ kind: 'scopes', writes: [] });
  });

  it('follows a caller that is itself called, and stops at a cycle', () => {
    const { run } = model({
      '.github/workflows/push.yml': CALLED,
      '.github/workflows/middle.yml': yaml`
        on: workflow_call
        jobs:
          call:
            uses: ./.github/workflows/push.yml
      `,
      '.github/workflows/release.yml': yaml`
        on: push
        permissions: { packages: write }
        jobs:
          outer:
            uses: ./.github/workflows/middle.yml
      `,
    });
    expect(run('.github/workflows/push.yml', 'push').holdings.token).toEqual({ kind: 'scopes', writes: ['packages'] });
    const loop = model({
      '.github/workflows/a.yml': yaml`
        on: workflow_call
        jobs:
          call:
            uses: ./.github/workflows/b.yml
      `,
      '.github/workflows/b.yml': yaml`
        on: workflow_call
        jobs:
          call:
            uses: ./.github/workflows/a.yml
          build:
            runs-on: ubuntu-latest
            steps: [{ run: make }]
      `,
    });
    expect(loop.run('.github/workflows/b.yml', 'build').holdings.token).toEqual({ kind: 'default' });
  });

  it("changes unpinned-action's words: the called job holds its callers' scopes, not the default token", () => {
    const files = [
      { path: '.github/workflows/push.yml', text: CALLED.replace('      - run: make image', '      - uses: some-org/registry-login@v3\n      - run: make image') },
      { path: '.github/workflows/release.yml', text: caller('permissions: { contents: write }') },
    ];
    const text = scanWith('unpinned-action', files).find((f) => f.file === '.github/workflows/push.yml')?.description ?? '';
    expect(text).toContain("the job holds `contents: write` (from its callers' `permissions:`, e.g. release.yml job `release`)");
    expect(text).not.toContain('default token');
  });
});

describe('registry tools that push images with no Docker daemon publish', () => {
  const step = (run: string) => {
    const text = `on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ${JSON.stringify(run)}\n`;
    const parsed = parseYaml(text);
    if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('bad fixture');
    const found = buildWorkflow(new SourceFile('.github/workflows/ci.yml', text), parsed.root).jobs[0]?.steps[0];
    if (found === undefined) throw new Error('no step');
    return publishingStep(found)?.registry ?? null;
  };

  it('regctl, crane and skopeo writing to a registry', () => {
    for (const run of [
      'regctl image copy ghcr.io/org/app:build ghcr.io/org/app:1.2',
      'cat index.json | regctl manifest put "$REPO:$TAG" --by-digest',
      'regctl index create ghcr.io/org/app:multi --ref ghcr.io/org/app:amd64',
      'crane copy ghcr.io/org/app:sha docker.io/org/app:latest',
      'crane push image.tar ghcr.io/org/app:1.2',
      'skopeo copy oci-archive:image.tar docker://ghcr.io/org/app:1.2',
      'skopeo sync --src docker --dest docker ghcr.io/org/app quay.io/org',
    ]) {
      expect(step(run), run).toBe('container');
    }
  });

  it('negative: reads and copies out of a registry', () => {
    for (const run of [
      'regctl image inspect ghcr.io/org/app:1.2',
      'regctl manifest get ghcr.io/org/app:1.2',
      'crane digest ghcr.io/org/app:1.2',
      'crane pull ghcr.io/org/app:1.2 image.tar',
      'skopeo inspect docker://ghcr.io/org/app:1.2',
      'skopeo copy docker://ghcr.io/org/app:1.2 oci-archive:image.tar',
    ]) {
      expect(step(run), run).toBeNull();
    }
  });
});
