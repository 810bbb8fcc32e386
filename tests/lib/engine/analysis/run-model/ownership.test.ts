import { describe, expect, it } from 'vitest';
import { imageOwnership, ownerFact, ownerNamespace, parseImage, repositoryIdentity, urlOwnership, usesOwnership } from '../../../../../lib/engine/analysis/run-model/ownership.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { parseUses } from '../../../../../lib/engine/model/uses.js';
import { buildAction, buildWorkflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import type { YMap } from '../../../../../lib/engine/yaml/model.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { yaml } from '../../../../support/engine.js';

function repository(workflows: Record<string, string>, actions: Record<string, string> = {}): RepositoryModel {
  const root = (text: string) => {
    const parsed = parseYaml(text);
    if (!parsed.ok) throw new Error('bad yaml');
    return parsed.root as YMap;
  };
  return new RepositoryModel(
    Object.entries(workflows).map(([path, text]) => buildWorkflow(new SourceFile(path, text), root(text))),
    Object.entries(actions).map(([path, text]) => buildAction(new SourceFile(path, text), root(text))),
    [],
  );
}

const EMPTY = repository({});
const uses = (text: string) => parseUses(text);

describe('who owns an action or reusable workflow', () => {
  it('the repository itself is local: ./path, $/path, and owner/name/... of its own name at any ref', () => {
    const identity = repositoryIdentity(EMPTY, 'Acme/Widget');
    expect(usesOwnership(uses('./.github/actions/setup'), identity)).toBe('local');
    expect(usesOwnership(uses('$/.github/workflows/build.yml'), identity)).toBe('local');
    expect(usesOwnership(uses('acme/widget/.github/workflows/build.yml@main'), identity)).toBe('local');
  });

  it("the repository's owner is first-party: its other repositories' actions and reusable workflows", () => {
    const identity = repositoryIdentity(EMPTY, 'acme/widget');
    expect(usesOwnership(uses('ACME/shared-workflows/.github/workflows/release.yml@v2'), identity)).toBe('first-party');
    expect(usesOwnership(uses('acme/setup-tool@v1'), identity)).toBe('first-party');
  });

  it("GitHub's own actions are the platform's, every other owner is a third party", () => {
    const identity = repositoryIdentity(EMPTY, 'acme/widget');
    expect(usesOwnership(uses('actions/checkout@v3'), identity)).toBe('platform');
    expect(usesOwnership(uses('github/codeql-action/init@v3'), identity)).toBe('platform');
    // Dependabot's organisation is GitHub's.
    expect(usesOwnership(uses('dependabot/fetch-metadata@v2'), identity)).toBe('platform');
    expect(usesOwnership(uses('Dependabot/fetch-metadata@v2'), identity)).toBe('platform');
    // A look-alike owner is not.
    expect(usesOwnership(uses('dependabot-actions/fetch-metadata@v2'), identity)).toBe('third-party');
    expect(usesOwnership(uses('tj-actions/changed-files@v45'), identity)).toBe('third-party');
    expect(usesOwnership(uses('acme-evil/widget@v1'), identity)).toBe('third-party');
  });

  it('without a known name, the owners the workflows compare github.repository with are the repository\'s own', () => {
    const repo = repository({
      '.github/workflows/release.yml': yaml`
        on: push
        jobs:
          publish:
            if: github.repository == 'acme/widget' && github.event_name == 'push'
            runs-on: ubuntu-latest
            steps:
              - run: make
          docs:
            if: "'acme-docs' == github.repository_owner"
            runs-on: ubuntu-latest
            steps:
              - run: make docs
      `,
    });
    const identity = repositoryIdentity(repo, null);
    expect(identity.fullName).toBeNull();
    expect(usesOwnership(uses('acme/widget/.github/workflows/x.yml@v1'), identity, repo)).toBe('local');
    expect(usesOwnership(uses('acme/other@v1'), identity, repo)).toBe('first-party');
    expect(usesOwnership(uses('acme-docs/build@v1'), identity, repo)).toBe('first-party');
    expect(usesOwnership(uses('someone/else@v1'), identity, repo)).toBe('third-party');
    // A comparison that excludes a name says nothing about who the repository is.
    const negated = repository({ '.github/workflows/a.yml': "on: push\njobs:\n  a:\n    if: github.repository != 'other/fork'\n    runs-on: x\n    steps:\n      - run: a\n" });
    expect(usesOwnership(uses('other/thing@v1'), repositoryIdentity(negated, null), negated)).toBe('third-party');
  });

  it("without a known name, owner/repo/<path> naming one of the repository's own actions or workflows is local; with a name, only that name is", () => {
    const repo = repository({ '.github/workflows/reusable.yml': 'on: workflow_call\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: a\n' }, { 'tools/lint/action.yml': "name: lint\nruns:\n  using: composite\n  steps:\n    - run: lint\n      shell: bash\n" });
    const unknown = repositoryIdentity(repo, null);
    expect(usesOwnership(uses('someone/project/.github/workflows/reusable.yml@main'), unknown, repo)).toBe('local');
    expect(usesOwnership(uses('someone/project/tools/lint@main'), unknown, repo)).toBe('local');
    expect(usesOwnership(uses('someone/project/tools/other@main'), unknown, repo)).toBe('third-party');
    const known = repositoryIdentity(repo, 'acme/widget');
    expect(usesOwnership(uses('someone/project/.github/workflows/reusable.yml@main'), known, repo)).toBe('third-party');
  });

  it('without a known name, a workflow that links to itself on GitHub names the repository', () => {
    const repo = repository({
      '.github/workflows/sync.yml': yaml`
        on: push
        jobs:
          sync:
            runs-on: ubuntu-latest
            steps:
              - uses: acme/create-pr@v1
                with:
                  body: This PR was made by the [sync](https://github.com/Acme/Widget/blob/main/.github/workflows/sync.yml) workflow.
      `,
    });
    const identity = repositoryIdentity(repo, null);
    expect(identity.fullName).toBeNull();
    expect(usesOwnership(uses('acme/widget@main'), identity, repo)).toBe('local');
    expect(usesOwnership(uses('ACME/setup-tool@v1'), identity, repo)).toBe('first-party');
    expect(usesOwnership(uses('someone/else@v1'), identity, repo)).toBe('third-party');
    // The same link with the caller's name: both are the repository's.
    expect(usesOwnership(uses('acme/setup-tool@v1'), repositoryIdentity(repo, 'fork-owner/widget'), repo)).toBe('first-party');
  });

  it('self-links in list items and in a value an alias shares are read once each, in document order', () => {
    const repo = repository({
      '.github/workflows/sync.yml': yaml`
        on: push
        env:
          LINKS: &links
            - https://github.com/First/One/blob/main/.github/workflows/sync.yml
            - not a link
        jobs:
          sync:
            runs-on: ubuntu-latest
            env:
              AGAIN: *links
            steps:
              - run: echo https://github.com/Second/Two/tree/v1/.github/workflows/sync.yml
              - run: echo https://github.com/third/three/blob/main/.github/workflows/other.yml
      `,
    });
    const identity = repositoryIdentity(repo, null);
    expect([...identity.names]).toEqual(['first/one', 'second/two']);
    expect([...identity.owners]).toEqual(['first', 'second']);
  });

  it("a link to another file, another repository's file of the same name, or a link in a comment names no one", () => {
    const repo = repository({
      '.github/workflows/docs.yml': yaml`
        # This is copied from the official example:
        #   https://github.com/upstream/tool/blob/main/.github/workflows/docs.yml
        on: push
        jobs:
          docs:
            runs-on: ubuntu-latest
            steps:
              - run: |
                  # Edit https://github.com/generator/modules/blob/main/.github/workflows/docs.yml instead.
                  echo "see https://github.com/other/project/blob/main/CONTRIBUTING.md"
                  echo "and https://github.com/other/project/blob/main/.github/workflows/build.yml"
                  echo "and https://github.com/other/project/blob/main/x/.github/workflows/docs.yml.bak"
                  echo "generated from https://github.com/generator/modules/blob/main/modules/go/.github/workflows/docs.yml"
      `,
      '.github/workflows/build.yml': 'on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: a\n',
    });
    const identity = repositoryIdentity(repo, null);
    expect([...identity.owners]).toEqual([]);
    expect(usesOwnership(uses('upstream/tool@v1'), identity, repo)).toBe('third-party');
    expect(usesOwnership(uses('generator/modules@v1'), identity, repo)).toBe('third-party');
    expect(usesOwnership(uses('other/project@v1'), identity, repo)).toBe('third-party');
  });

  it("without a known name, a write with the job's own token to a literal repository names the repository", () => {
    const repo = repository({
      '.github/workflows/release.yml': yaml`
        on: push
        jobs:
          release:
            runs-on: ubuntu-latest
            steps:
              - run: |
                  gh release download --repo tools/helper v1 && gh release create "$TAG" dist/* \
                    --repo acme/widget --draft
                env:
                  GH_TOKEN: \${{ github.token }}
              - run: gh api -X POST repos/acme-docs/site/dispatches -f event_type=release
                env:
                  GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}
      `,
    });
    const identity = repositoryIdentity(repo, null);
    expect([...identity.names].sort()).toEqual(['acme-docs/site', 'acme/widget']);
    expect(usesOwnership(uses('acme/setup@v1'), identity, repo)).toBe('first-party');
    // A read of another repository (`release download`) says nothing.
    expect(usesOwnership(uses('tools/helper@v1'), identity, repo)).toBe('third-party');
  });

  it('another token, a read, a reusable workflow or a composite action names no one', () => {
    const step = (env: string, run: string) => `      - run: ${run}\n        env:\n          ${env}\n`;
    const workflow = (on: string, steps: string) => `on: ${on}\njobs:\n  a:\n    runs-on: x\n    steps:\n${steps}`;
    const repo = repository(
      {
        '.github/workflows/a.yml': workflow(
          'push',
          step('GH_TOKEN: ${{ secrets.RELEASE_PAT }}', 'gh release create v1 --repo pat/target') +
            step('GITHUB_TOKEN: ${{ steps.app.outputs.token }}', 'gh workflow run bump.yml --repo app/target') +
            // gh reads GH_TOKEN before GITHUB_TOKEN.
            step('GH_TOKEN: ${{ secrets.PAT }}\n          GITHUB_TOKEN: ${{ github.token }}', 'gh pr comment 1 --repo both/target -b hi') +
            step('GH_TOKEN: ${{ github.token }}', 'GH_TOKEN="$PAT" gh issue create --repo prefixed/target -t x') +
            step('GH_TOKEN: ${{ github.token }}', 'gh api repos/read/target/releases/latest') +
            step('GH_TOKEN: ${{ github.token }}', 'gh api -X GET repos/get/target/issues -f state=open') +
            step('GH_TOKEN: ${{ github.token }}', 'gh release view --repo view/target'),
        ),
        '.github/workflows/reusable.yml': workflow('workflow_call', step('GH_TOKEN: ${{ github.token }}', 'gh release create v1 --repo caller/app')),
      },
      { '.github/actions/rel/action.yml': 'name: rel\nruns:\n  using: composite\n  steps:\n    - run: gh release create v1 --repo user/app\n      shell: bash\n      env:\n        GH_TOKEN: ${{ github.token }}\n' },
    );
    const identity = repositoryIdentity(repo, null);
    expect([...identity.names]).toEqual([]);
    expect([...identity.owners]).toEqual([]);
  });

  it("without a known name, a link to the run or its commit in a workflow the repository runs names it; a reusable workflow's or a comment's does not", () => {
    const repo = repository({
      '.github/workflows/ci.yml': yaml`
        on: push
        jobs:
          a:
            runs-on: ubuntu-latest
            steps:
              - run: |
                  # https://github.com/commented/out/actions/runs/\${{ github.run_id }}
                  echo "failed: https://github.com/Acme/Widget/actions/runs/\${{ github.run_id }}"
                  echo "fixed number: https://github.com/fixed/number/actions/runs/123"
                  echo "commit: https://github.com/acme/widget-mirror/commit/$GITHUB_SHA"
      `,
      '.github/workflows/reusable.yml': yaml`
        on: workflow_call
        jobs:
          a:
            runs-on: ubuntu-latest
            steps:
              - run: echo "https://github.com/caller/app/actions/runs/\${{ github.run_id }}"
      `,
    });
    const identity = repositoryIdentity(repo, null);
    expect([...identity.names].sort()).toEqual(['acme/widget', 'acme/widget-mirror']);
    expect(usesOwnership(uses('caller/app@v1'), identity, repo)).toBe('third-party');
    expect(usesOwnership(uses('fixed/number@v1'), identity, repo)).toBe('third-party');
    expect(usesOwnership(uses('commented/out@v1'), identity, repo)).toBe('third-party');
  });

  it("without a known name, an action's link to its own folder names the repository; another folder's does not", () => {
    const action = (link: string) => `name: lint\ninputs:\n  docs:\n    default: "${link}"\nruns:\n  using: node20\n  main: index.js\n`;
    const own = repository({}, { 'tools/lint/action.yml': action('https://github.com/acme/widget/tree/main/tools/lint/') });
    expect([...repositoryIdentity(own, null).names]).toEqual(['acme/widget']);
    const other = repository({}, { 'tools/lint/action.yml': action('https://github.com/upstream/lint/tree/main/tools/lint-core') });
    expect([...repositoryIdentity(other, null).names]).toEqual([]);
  });

  it('without a known name, an action repository calling its root action by its public name names itself', () => {
    const root = 'name: Setup Widget Tool\ninputs:\n  version: {}\n  token: {}\nruns:\n  using: node20\n  main: index.js\n';
    const workflow = (step: string) => ({ '.github/workflows/test.yml': `on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n${step}` });
    const calls = repository(workflow('      - uses: acme/setup-widget-action@v1\n        with:\n          Version: 1.2\n      - uses: acme/other@v1\n'), { 'action.yml': root });
    const identity = repositoryIdentity(calls, null);
    expect([...identity.names]).toEqual(['acme/setup-widget-action']);
    expect(usesOwnership(uses('acme/other@v1'), identity, calls)).toBe('first-party');
    // An input the root action does not declare, a name with a word its title lacks, a generic name only: not itself.
    const foreignInput = repository(workflow('      - uses: acme/setup-widget@v1\n        with:\n          cache: true\n'), { 'action.yml': root });
    expect([...repositoryIdentity(foreignInput, null).names]).toEqual([]);
    const otherName = repository(workflow('      - uses: acme/setup-gadget@v1\n'), { 'action.yml': root });
    expect([...repositoryIdentity(otherName, null).names]).toEqual([]);
    const generic = repository(workflow('      - uses: acme/actions@v1\n'), { 'action.yml': root });
    expect([...repositoryIdentity(generic, null).names]).toEqual([]);
    // A root action that wraps it, no root action (only one in a folder), GitHub's own actions: not itself.
    const wrapper = 'name: Setup Widget\ninputs:\n  version: {}\nruns:\n  using: composite\n  steps:\n    - uses: upstream/setup-widget@v2\n      with:\n        version: ${{ inputs.version }}\n';
    const wraps = repository(workflow('      - uses: upstream/setup-widget@v2\n        with:\n          version: 1\n'), { 'action.yml': wrapper });
    expect([...repositoryIdentity(wraps, null).names]).toEqual([]);
    const nested = repository(workflow('      - uses: acme/setup-widget@v1\n'), { 'tools/action.yml': root });
    expect([...repositoryIdentity(nested, null).names]).toEqual([]);
    const platform = repository(workflow('      - uses: actions/setup-widget@v1\n'), { 'action.yml': root });
    expect([...repositoryIdentity(platform, null).names]).toEqual([]);
    // Read only when nothing else names the repository.
    const declared = repository(
      { ...workflow('      - uses: fork/setup-widget@v1\n'), '.github/workflows/b.yml': "on: push\njobs:\n  a:\n    if: github.repository == 'acme/setup-widget'\n    runs-on: x\n    steps:\n      - run: a\n" },
      { 'action.yml': root },
    );
    expect([...repositoryIdentity(declared, null).names]).toEqual(['acme/setup-widget']);
    expect(usesOwnership(uses('fork/setup-widget@v1'), repositoryIdentity(declared, null), declared)).toBe('third-party');
  });

  it('compares owners and names without case, as GitHub does', () => {
    const upper = repositoryIdentity(EMPTY, 'Azure/app');
    expect(usesOwnership(uses('azure/login@v2'), upper)).toBe('first-party');
    expect(usesOwnership(uses('AZURE/login@v2'), upper)).toBe('first-party');
    expect(usesOwnership(uses('azure/APP/.github/workflows/x.yml@main'), upper)).toBe('local');
    const lower = repositoryIdentity(EMPTY, 'azure/app');
    expect(usesOwnership(uses('Azure/login@v2'), lower)).toBe('first-party');
    expect(usesOwnership(uses('Azure-Samples/login@v2'), lower)).toBe('third-party');
    const declared = repository({ '.github/workflows/a.yml': "on: push\njobs:\n  a:\n    if: github.repository_owner == 'Azure'\n    runs-on: x\n    steps:\n      - run: a\n" });
    expect(usesOwnership(uses('azure/login@v2'), repositoryIdentity(declared, null), declared)).toBe('first-party');
    const action = repository({}, { 'login/action.yml': 'name: login\nruns:\n  using: node20\n  main: index.js\n' });
    const model = new RepositoryModel(action.workflows, action.actions, [], 'Azure/Login-Tools');
    const own = repository({ '.github/workflows/t.yml': 'on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: azure/login-tools/login@main\n' });
    const step = own.workflows[0]!.jobs[0]!.steps[0]!;
    expect(model.ownAction(step)).toBe(action.actions[0]);
  });
});

describe('who owns a container image', () => {
  it('reads registry, namespace and name the way Docker does', () => {
    expect(parseImage('node:22')).toEqual({ registry: 'docker.io', path: 'library/node', namespace: 'library', name: 'node' });
    expect(parseImage('docker://Acme/App:1@sha256:abc')).toEqual({ registry: 'docker.io', path: 'acme/app', namespace: 'acme', name: 'app' });
    expect(parseImage('localhost:5000/team/app')).toMatchObject({ registry: 'localhost:5000', namespace: 'team', name: 'app' });
    expect(parseImage('index.docker.io/library/postgres:16')).toMatchObject({ registry: 'docker.io', path: 'library/postgres' });
    expect(parseImage('${{ env.REGISTRY }}/app:1')).toBeNull();
  });

  it("images under the owner's namespace on GitHub's registry, Docker Hub or Quay are first-party", () => {
    const identity = repositoryIdentity(EMPTY, 'acme/widget');
    expect(imageOwnership('ghcr.io/acme/builder:latest', identity)).toBe('first-party');
    expect(imageOwnership('docker.io/acme/builder', identity)).toBe('first-party');
    expect(imageOwnership('acme/builder:1', identity)).toBe('first-party');
    expect(imageOwnership('quay.io/acme/builder', identity)).toBe('first-party');
    expect(imageOwnership('ghcr.io/${{ github.repository_owner }}/builder:latest', identity)).toBe('first-party');
    expect(imageOwnership('ghcr.io/${{ github.repository }}:latest', repositoryIdentity(EMPTY, null))).toBe('first-party');
    expect(ownerNamespace('quay.io/acme/builder:1', identity)).toBe('acme');
    // Account and organisation names are case-insensitive, on GitHub and on the registries.
    expect(imageOwnership('Quay.io/Acme/Builder:1', identity)).toBe('first-party');
    expect(imageOwnership('ghcr.io/ACME/builder', repositoryIdentity(EMPTY, 'Acme/Widget'))).toBe('first-party');
    expect(ownerNamespace('docker.io/ACME/builder', repositoryIdentity(EMPTY, 'Acme/Widget'))).toBe('acme');
    // A registry whose namespaces are not accounts of that name, another owner, an official image: not the owner's.
    expect(imageOwnership('registry.example.com/acme/builder', identity)).toBe('third-party');
    expect(ownerNamespace('registry.example.com/acme/builder', identity)).toBeNull();
    expect(imageOwnership('quay.io/acme-evil/builder', identity)).toBe('third-party');
    expect(imageOwnership('ghcr.io/acme-evil/builder', identity)).toBe('third-party');
    expect(imageOwnership('node:22', identity)).toBe('third-party');
    expect(ownerNamespace('node:22', identity)).toBeNull();
  });

  it("GitHub's own images are the platform's", () => {
    expect(imageOwnership('ghcr.io/actions/actions-runner:latest', repositoryIdentity(EMPTY, null))).toBe('platform');
    expect(imageOwnership('docker://ghcr.io/github/super-linter:v5', repositoryIdentity(EMPTY, null))).toBe('platform');
  });

  it('images the workflows build or push, and other images of a namespace they push to, are first-party', () => {
    const repo = repository({
      '.github/workflows/images.yml': yaml`
        on: push
        jobs:
          build:
            runs-on: ubuntu-latest
            steps:
              - uses: docker/build-push-action@v6
                with:
                  push: true
                  tags: quay.io/acme/builder:latest,quay.io/acme/builder:1
              - run: |
                  docker build -t registry.example.com/team/ci-base:latest .
                  docker pull node:22
                  docker tag node:22 public.ecr.aws/x1y2/mirror/node:22
                  docker push public.ecr.aws/x1y2/mirror/node:22
              - uses: docker/metadata-action@v5
                with:
                  images: |
                    name=ghcr.io/acme-tools/cli,enable=true
      `,
    });
    const identity = repositoryIdentity(repo, null);
    expect(imageOwnership('quay.io/acme/builder', identity)).toBe('first-party');
    expect(imageOwnership('quay.io/acme/other:latest', identity)).toBe('first-party');
    expect(imageOwnership('registry.example.com/team/ci-base:latest', identity)).toBe('first-party');
    // Built, not pushed: the name is theirs, the namespace is not shown to be.
    expect(imageOwnership('registry.example.com/team/other', identity)).toBe('third-party');
    expect(imageOwnership('public.ecr.aws/x1y2/anything:latest', identity)).toBe('first-party');
    expect(imageOwnership('ghcr.io/acme-tools/other', identity)).toBe('first-party');
    // The source of a `docker tag` is pulled, not built: `node` stays Docker's.
    expect(imageOwnership('node:22', identity)).toBe('third-party');
  });
});

describe('the namespaces the repository publishes to', () => {
  const namespaces = (workflows: Record<string, string>, actions: Record<string, string> = {}) => [...repositoryIdentity(repository(workflows, actions), null).namespaces].sort();

  it("reads a reusable workflow's and a composite action's inputs from the repository's own calls, and env values", () => {
    const reusable = yaml`
      on:
        workflow_call:
          inputs:
            image: { type: string, required: true }
            registry: { type: string, default: quay.io/acme-ci }
      jobs:
        push:
          runs-on: ubuntu-latest
          steps:
            - uses: docker/metadata-action@v5
              with:
                images: \${{ inputs.image }}
            - run: docker push \${{ inputs.registry }}/runner:1
    `;
    const caller = yaml`
      on: push
      jobs:
        a:
          uses: ./.github/workflows/push.yml
          with:
            image: oldorg/product
        b:
          uses: ./.github/workflows/push.yml
          with:
            image: ghcr.io/second/product
            registry: registry.example.com/team
    `;
    const action = yaml`
      inputs:
        repo: { default: public.ecr.aws/a1b2 }
      runs:
        using: composite
        steps:
          - shell: bash
            env:
              TARGET: \${{ inputs.repo }}/tool
            run: |
              docker buildx imagetools create -t "$TARGET:latest" src@sha256:x
              NAME=images.example.org/mirror/app
              docker manifest push $NAME:1
    `;
    expect(namespaces({ '.github/workflows/push.yml': reusable, '.github/workflows/release.yml': caller }, { '.github/actions/publish/action.yml': action })).toEqual([
      'docker.io/oldorg',
      'ghcr.io/second',
      'images.example.org/mirror',
      'public.ecr.aws/a1b2',
      'quay.io/acme-ci',
      'registry.example.com/team',
    ]);
  });

  it('leaves out what it cannot read as a constant: a dispatch input, a computed value, a pull', () => {
    expect(namespaces({
      '.github/workflows/a.yml': yaml`
        on:
          workflow_dispatch:
            inputs:
              image: { default: oldorg/product }
        env:
          REGISTRY: \${{ vars.REGISTRY }}
        jobs:
          a:
            runs-on: ubuntu-latest
            steps:
              - run: |
                  docker push \${{ inputs.image }}:1
                  docker push \${{ env.REGISTRY }}/\${{ github.event.inputs.org }}/app:1
                  IMAGE=$(cat image.txt)
                  docker push $IMAGE
                  docker pull pulled/app:1
                  docker push app:1
      `,
    })).toEqual([]);
  });

  it("reads an earlier step's output its script writes from literal variables, and a tag computed at run time", () => {
    const workflow = (write: string) => ({
      '.github/workflows/image.yml': yaml`
        on: workflow_dispatch
        jobs:
          build:
            runs-on: ubuntu-latest
            steps:
              - id: build
                run: |
                  if [ "$KIND" = daily ]; then
                    REGISTRY="registry.example.com/inference/app-temp"
                  else
                    REGISTRY="registry.example.com/base_image/ci/app"
                  fi
                  TAG="$(date +%Y%m%d)"
                  exec >> $GITHUB_OUTPUT
                  ${write}
                  echo "full_tag=\${TAG}"
              - run: |
                  PUSH_REGISTRY="\${{ steps.build.outputs.push_registry }}"
                  docker push \${PUSH_REGISTRY}:\${{ steps.build.outputs.full_tag }}
      `,
    });
    expect(namespaces(workflow('echo "push_registry=${REGISTRY}"'))).toEqual(['registry.example.com/base_image', 'registry.example.com/inference']);
    // Negative: an output written from what a command prints is not a constant.
    expect(namespaces(workflow('echo "push_registry=$(cat registry.txt)"'))).toEqual([]);
  });
});

describe('who owns what a URL serves', () => {
  const identity = repositoryIdentity(EMPTY, 'acme-labs/widget');
  const owner = (url: string | null) => urlOwnership(url, identity)?.ownership ?? null;

  it("the repository's own GitHub content is local, its owner's other repositories' content first-party", () => {
    expect(owner('https://raw.githubusercontent.com/acme-labs/widget/main/scripts/upload.py')).toBe('local');
    expect(owner('https://github.com/${{ github.repository }}/releases/download/v1/tool.tar.gz')).toBe('local');
    expect(owner('https://github.com/$GITHUB_REPOSITORY/archive/main.zip')).toBe('local');
    expect(owner('https://github.com/Acme-Labs/sysroot/releases/download/sysroot-1/root.tar.xz')).toBe('first-party');
    expect(owner('https://api.github.com/repos/acme-labs/tools/tarball/main')).toBe('first-party');
    expect(owner('${{ github.server_url }}/acme-labs/tools/releases/download/v2/t.zip')).toBe('first-party');
    expect(owner('https://acme-labs.github.io/charts/index.tgz')).toBe('first-party');
  });

  it("GitHub's own releases are the platform's; any other account on GitHub is a third party", () => {
    expect(owner('https://github.com/actions/runner/releases/download/v2.316.1/actions-runner-linux-x64-2.316.1.tar.gz')).toBe('platform');
    expect(owner('https://github.com/dependabot/cli/releases/download/v1.60.0/dependabot-v1.60.0-linux-amd64.tar.gz')).toBe('platform');
    expect(owner('https://github.com/acme-evil/widget/releases/download/v1/tool.tar.gz')).toBe('third-party');
    expect(owner('https://raw.githubusercontent.com/someone/acme-labs/main/install.sh')).toBe('third-party');
  });

  it("a host of the owner's own domain is first-party, spelled with or without its dots and hyphens", () => {
    expect(owner('https://dl.acme-labs.dev/release/v1/tool.zip')).toBe('first-party');
    expect(owner('https://static.acmelabs.io/tool.zip')).toBe('first-party');
    expect(owner('https://cdn.acme.labs/tool.zip')).toBe('first-party');
  });

  it('a domain named as the owner is by one more word (`ghostty-org` for `ghostty.dev`) is first-party; a shorter or different name is not', () => {
    const of = (url: string, repo: string) => urlOwnership(url, repositoryIdentity(EMPTY, repo))?.ownership ?? null;
    expect(of('https://tip.files.ghostty.dev/abc/Ghostty.dSYM.zip', 'ghostty-org/ghostty')).toBe('first-party');
    expect(urlOwnership('https://tip.files.ghostty.dev/x.zip', repositoryIdentity(EMPTY, 'ghostty-org/ghostty'))?.text).toContain("named as this repository's owner `ghostty-org` is");
    expect(of('https://dl.widget.io/tool.zip', 'widget-labs/widget')).toBe('first-party');
    // Three letters are too short to say whose a domain is; another word is another name.
    expect(of('https://get.abc.dev/tool.zip', 'abc-org/tool')).toBeNull();
    expect(of('https://get.ghosttyx.dev/tool.zip', 'ghostty-org/ghostty')).toBeNull();
  });

  it("a domain named as the repository is, whose owner's name starts with it (`databend.com` for `databendlabs/databend`), is first-party", () => {
    const of = (url: string, repo: string) => urlOwnership(url, repositoryIdentity(EMPTY, repo))?.ownership ?? null;
    expect(of('https://repo.databend.com/install/bendsql.sh', 'databendlabs/databend')).toBe('first-party');
    expect(urlOwnership('https://ci.databend.com/x.tar.gz', repositoryIdentity(EMPTY, 'databendlabs/databend'))?.text).toBe("the project's own domain `databend.com` (named as the repository `databendlabs/databend`)");
    // Negative: a repository named after a vendor does not own the vendor's domain, nor does a short name.
    expect(of('https://download.docker.com/linux/static/docker.tgz', 'acme/docker')).toBeNull();
    expect(of('https://get.abc.dev/tool.zip', 'abcd-x/abc')).toBeNull();
  });

  it('any other host, a host the scan cannot read and a short owner name say nothing', () => {
    expect(owner('https://acme-labs.example.com/tool.zip')).toBeNull();
    expect(owner('https://example.com/acme-labs/tool.zip')).toBeNull();
    expect(owner('$SRC_URL/tool.zip')).toBeNull();
    expect(owner(null)).toBeNull();
    expect(urlOwnership('https://go.dev/dl/go1.22.linux-amd64.tar.gz', repositoryIdentity(EMPTY, 'go/tools'))).toBeNull();
  });
});

describe('the owner facts', () => {
  it('tell the attack paths whose code it is', () => {
    expect(ownerFact('local')).toBe('owner:first-party');
    expect(ownerFact('first-party')).toBe('owner:first-party');
    expect(ownerFact('platform')).toBe('owner:platform');
    expect(ownerFact('third-party')).toBe('owner:third-party');
  });
});
