import { describe, expect, it } from 'vitest';
import { stepExecutions } from '../../../../../lib/engine/analysis/run-model/execution.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildWorkflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { recordsWith, scanWith, yaml } from '../../../../support/engine.js';

/** The `build` of each execution of the job's last step (`-` for an execution that is no container build). */
function builds(text: string): string[] {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('bad fixture');
  const workflow = buildWorkflow(new SourceFile('.github/workflows/ci.yml', text), parsed.root);
  void new RepositoryModel([workflow], [], []);
  const steps = workflow.jobs[0]?.steps ?? [];
  const step = steps[steps.length - 1];
  if (step === undefined) throw new Error('no step');
  return stepExecutions(step).map((e) => (e.build === undefined ? '-' : `secrets=${e.build.secrets.join(',')} token=${e.build.token} push=${e.build.push === null ? 'no' : e.build.push.tags.join(',')}`));
}

const job = (step: string, env = '') => `on: push
jobs:
  j:
    runs-on: ubuntu-latest
${env}    steps:
${step}`;

describe('container builds: what the build is handed', () => {
  it('reads build arguments, build secrets, the token and the push of docker/build-push-action', () => {
    expect(builds(job(`      - uses: docker/build-push-action@v6
        with:
          context: .
          push: true
          tags: ghcr.io/acme/app:latest
          build-args: |
            NPM_TOKEN=\${{ secrets.NPM_TOKEN }}
          secrets: |
            github_token=\${{ secrets.GITHUB_TOKEN }}
`))).toEqual(['secrets=NPM_TOKEN token=true push=ghcr.io/acme/app:latest']);
    // Secrets in the step's environment that no build input names never reach the build.
    expect(builds(job(`      - uses: docker/build-push-action@v6
        env:
          DEPLOY_KEY: \${{ secrets.DEPLOY_KEY }}
        with:
          context: .
`))).toEqual(['secrets= token=false push=no']);
  });

  it('reads `docker build` and `docker buildx build` commands: secrets in the command, environment variables it passes, `--push`', () => {
    expect(builds(job(`      - run: docker build --build-arg KEY=\${{ secrets.API_KEY }} -t app .
`))).toEqual(['secrets=API_KEY token=false push=no']);
    expect(builds(job(`      - env:
          TOKEN: \${{ secrets.PYPI_TOKEN }}
          GH: \${{ secrets.GITHUB_TOKEN }}
        run: docker buildx build --secret id=pypi,env=TOKEN --build-arg GH --push -t ghcr.io/acme/app:edge .
`))).toEqual(['secrets=PYPI_TOKEN token=true push=ghcr.io/acme/app:edge']);
  });

  it('takes only `compose build` as a build, and no build whose commands may leave their container', () => {
    expect(builds(job(`      - run: docker compose build
`))).toEqual(['secrets= token=false push=no']);
    expect(builds(job(`      - run: docker compose up -d
`))).toEqual(['-']);
    expect(builds(job(`      - run: docker buildx build --allow security.insecure -t app .
`))).toEqual(['-']);
    expect(builds(job(`      - uses: docker/build-push-action@v6
        with:
          context: .
          allow: security.insecure
`))).toEqual(['-']);
  });
});

describe('container builds of a pull request: what the code that runs holds', () => {
  const workflow = (build: string) => yaml`
    on: pull_request_target
    permissions: { contents: write, packages: write }
    jobs:
      image:
        runs-on: ubuntu-latest
        env:
          SENTRY_TOKEN: \${{ secrets.SENTRY_TOKEN }}
        steps:
          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.sha }}
              persist-credentials: false
          - uses: docker/login-action@v3
            with:
              registry: ghcr.io
              username: \${{ github.actor }}
              password: \${{ secrets.GITHUB_TOKEN }}
          ${build}
  `;

  it('is MEDIUM when the only code that runs is a build handed nothing, HIGH when the same job runs the code on the runner', () => {
    const sandboxed = recordsWith('untrusted-checkout', workflow(`- uses: docker/build-push-action@v6
            with:
              context: .`));
    expect(sandboxed.map((r) => r.finding.severity)).toEqual(['MEDIUM']);
    expect(sandboxed[0]?.finding.description).toContain("the build's commands run in its own container, which gets none of the job's token, secrets or OIDC");
    const onRunner = recordsWith('untrusted-checkout', workflow('- run: npm ci'));
    expect(onRunner.map((r) => r.finding.severity)).toEqual(['HIGH']);
    expect(onRunner[0]?.finding.description).toContain('`contents: write`');
  });

  it('is HIGH when the build is handed a secret, or pushes to a tag anyone pulls; MEDIUM when it pushes only under the pull request\'s own tag', () => {
    const handed = recordsWith('untrusted-checkout', workflow(`- uses: docker/build-push-action@v6
            with:
              context: .
              build-args: SENTRY=\${{ secrets.SENTRY_TOKEN }}`));
    expect(handed.map((r) => r.finding.severity)).toEqual(['HIGH']);
    expect(handed[0]?.finding.description).toContain('`SENTRY_TOKEN`');
    const latest = recordsWith('untrusted-checkout', workflow(`- uses: docker/build-push-action@v6
            with:
              context: .
              push: true
              tags: ghcr.io/acme/app:latest`));
    expect(latest.map((r) => r.finding.severity)).toEqual(['HIGH']);
    expect(latest[0]?.finding.description).toContain('the image the build pushes, as `ghcr.io/acme/app:latest`');
    const own = recordsWith('untrusted-checkout', workflow(`- uses: docker/build-push-action@v6
            with:
              context: .
              push: true
              tags: ghcr.io/acme/app:pr-\${{ github.event.pull_request.number }}`));
    expect(own.map((r) => r.finding.severity)).toEqual(['MEDIUM']);
    expect(own[0]?.finding.description).toContain('only under a tag that names the pull request');
    // A tag from the pull request's branch name is picked by its author (`latest`): a publish.
    const branch = recordsWith('untrusted-checkout', workflow(`- uses: docker/build-push-action@v6
            with:
              context: .
              push: true
              tags: ghcr.io/acme/app:\${{ github.head_ref }}`));
    expect(branch.map((r) => r.finding.severity)).toEqual(['HIGH']);
  });

  it('arms no write scope through a build handed no token (excessive-permissions), and still does through one handed it', () => {
    const plain = scanWith('excessive-permissions', workflow(`- uses: docker/build-push-action@v6
            with:
              context: .`));
    expect(plain.filter((f) => f.severity === 'HIGH')).toEqual([]);
    const handed = scanWith('excessive-permissions', workflow(`- uses: docker/build-push-action@v6
            with:
              context: .
              secrets: token=\${{ github.token }}`));
    expect(handed.filter((f) => f.severity === 'HIGH').length).toBeGreaterThan(0);
  });
});

describe('container builds and the runner\'s caches', () => {
  const ci = (build: string) => yaml`
    on: pull_request_target
    permissions:
      contents: read
    jobs:
      image:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/setup-go@v5
            with:
              go-version: '1.23'
          - uses: actions/checkout@v3
            with:
              ref: \${{ github.event.pull_request.head.sha }}
              persist-credentials: false
          ${build}
  `;
  const release = yaml`
    on:
      push:
        tags: ['v*']
    permissions:
      contents: write
    jobs:
      release:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
          - uses: actions/setup-go@v5
            with:
              go-version: '1.23'
          - run: go build ./...
          - uses: softprops/action-gh-release@v2
            with:
              files: dist/*
  `;

  it('takes no pull request build in a container as a writer of the base branch\'s cache, and takes one on the runner', () => {
    const files = (build: string) => [
      { path: '.github/workflows/ci.yml', text: ci(build) },
      { path: '.github/workflows/release.yml', text: release },
    ];
    const sandboxed = scanWith('cache-poisoning', files('- run: docker build -t ci .'));
    expect(sandboxed.filter((f) => f.severity === 'HIGH')).toEqual([]);
    const onRunner = scanWith('cache-poisoning', files('- run: make build'));
    expect(onRunner.filter((f) => f.severity === 'HIGH').map((f) => f.file)).toEqual(['.github/workflows/release.yml']);
  });
});

describe('a checkout whose ref is read from one event\'s payload', () => {
  const workflow = (condition: string) => yaml`
    on:
      pull_request_target:
      push:
        branches: [main]
    permissions: { contents: write }
    jobs:
      build:
        runs-on: ubuntu-latest
        steps:
          - id: ref
            env:
              HEAD_SHA: \${{ github.event.pull_request.head.sha }}
            run: echo "sha=\${HEAD_SHA:-$GITHUB_SHA}" >> "$GITHUB_OUTPUT"
          - uses: actions/checkout@v3
            with:
              ref: \${{ steps.ref.outputs.sha }}
              persist-credentials: false
          - if: ${condition}
            run: make release
  `;

  it('holds pull request code only on that event: a step that runs only on others never runs it', () => {
    // On `push` the value is empty and the checkout is the pushed commit; the step runs only then.
    const pushOnly = recordsWith('untrusted-checkout', workflow("github.event_name == 'push'"));
    expect(pushOnly.map((r) => r.finding.description)).not.toContainEqual(expect.stringContaining('`make release`'));
    const both = recordsWith('untrusted-checkout', workflow("github.event_name != 'schedule'"));
    expect(both.map((r) => r.finding.severity)).toEqual(['HIGH']);
    expect(both[0]?.finding.description).toContain('`make release`');
  });
});
