import { describe, expect, it } from 'vitest';
import { publishesForReal, publishingStep, rehearsalFlagOn } from '../../../../lib/engine/analysis/publishing.js';
import { buildWorkflow, type Step } from '../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';

/** The last step of the one job of a workflow, given its job `env:` and its last step's `env:` (`NAME: value`, one a line) and script. */
function lastStep(script: string, stepEnv: string, jobEnv = ''): Step {
  const block = (text: string, indent: string) => text.split('\n').map((line) => `${indent}${line}`).join('\n');
  const text = [
    'on: push',
    'jobs:',
    '  release:',
    '    runs-on: ubuntu-latest',
    ...(jobEnv === '' ? [] : ['    env:', block(jobEnv, '      ')]),
    '    steps:',
    '      - uses: actions/checkout@v3',
    ...(stepEnv === '' ? ['      - run: |'] : ['      - env:', block(stepEnv, '          '), '        run: |']),
    block(script, '          '),
    '',
  ].join('\n');
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('not a mapping');
  const steps = buildWorkflow(new SourceFile('.github/workflows/release.yml', text), parsed.root).jobs[0]?.steps ?? [];
  return steps[steps.length - 1] as Step;
}

const evidence = (script: string, stepEnv: string, jobEnv = '') => publishingStep(lastStep(script, stepEnv, jobEnv))?.evidence ?? null;

describe('rehearsalFlagOn: a dry-run flag rehearses only when its value is a literal true', () => {
  it('is on for a bare flag, `=true`, `true`, an operand after it, and a variable whose env value is a literal true', () => {
    for (const text of ['npm publish --dry-run', 'cargo publish --dry-run=true', 'nx release publish --dry-run true', 'npm publish --dry-run pkg/', 'goreleaser release --snapshot']) {
      expect(rehearsalFlagOn(text), text).toBe(true);
    }
    expect(rehearsalFlagOn('nx release publish --dry-run="$DRY_RUN"', new Map([['DRY_RUN', 'true']]))).toBe(true);
  });

  it('negative: off for a literal false and for a value taken at run time', () => {
    for (const text of [
      'nx release publish --dry-run="$DRY_RUN"',
      'nx release publish --dry-run=${{ inputs.dry_run }}',
      'npm publish --dry-run=$X',
      'npm publish --dry-run ${DRY_RUN}',
      'npm publish --dry-run ${{ inputs.dry-run }}',
      'npm publish --dry-run=false',
      'pnpm publish --dry-run false',
      'goreleaser release --snapshot=${{ inputs.snapshot }}',
      'npm publish',
    ]) {
      expect(rehearsalFlagOn(text), text).toBe(false);
    }
    expect(rehearsalFlagOn('nx release publish --dry-run=$DRY_RUN', new Map([['DRY_RUN', 'false']]))).toBe(false);
  });
});

describe('publishingStep: a repository script told to publish by its environment', () => {
  it('npm provenance in the step\'s env: any script or bin of the project publishes to npm', () => {
    expect(evidence('pnpm run release --dry-run=${{ inputs.dry_run }}', 'NPM_CONFIG_PROVENANCE: true')).toBe('`pnpm run release` with NPM_CONFIG_PROVENANCE');
    expect(evidence('pnpm run release-stable -- --tag latest', 'npm_config_provenance: "true"')).toBe('`pnpm run release-stable` with NPM_CONFIG_PROVENANCE');
    expect(evidence('pnpm changelogen --canary nightly --publish', 'NPM_CONFIG_PROVENANCE: ${{ inputs.provenance }}')).toBe('`pnpm changelogen --canary nightly` with NPM_CONFIG_PROVENANCE');
    expect(evidence('pnpm install && pnpm build && npx semantic-release', 'NPM_CONFIG_PROVENANCE: true')).toBe('`npx semantic-release` with NPM_CONFIG_PROVENANCE');
    expect(publishingStep(lastStep('pnpm run release', 'NPM_CONFIG_PROVENANCE: true'))?.registry).toBe('npm');
    // A run-time dry-run value publishes on some runs; a literal one rehearses.
    expect(publishesForReal(publishingStep(lastStep('pnpm run release --dry-run=${{ inputs.dry_run }}', 'NPM_CONFIG_PROVENANCE: true'))!)).toBe(true);
    expect(publishesForReal(publishingStep(lastStep('pnpm run release --dry-run', 'NPM_CONFIG_PROVENANCE: true'))!)).toBe(false);
  });

  it('npm provenance set for the whole job: only a script named for publishing', () => {
    expect(evidence('yarn release', '', 'NPM_CONFIG_PROVENANCE: true')).toBe('`yarn release` with NPM_CONFIG_PROVENANCE');
    expect(evidence('pnpm build', '', 'NPM_CONFIG_PROVENANCE: true')).toBeNull();
    // The step's own value wins over the job's.
    expect(evidence('yarn release', 'NPM_CONFIG_PROVENANCE: false', 'NPM_CONFIG_PROVENANCE: true')).toBeNull();
  });

  it('a registry token in the step\'s env with a script named for publishing', () => {
    expect(evidence('npm run publish', 'NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}')).toBe('`npm run publish` with NODE_AUTH_TOKEN');
    expect(evidence('pnpm changeset publish --tag nightly', 'NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}')).toBe('`pnpm changeset publish` with NODE_AUTH_TOKEN');
    expect(evidence('find artifacts\n            make -C sdk/nodejs publish', 'NPM_TOKEN: ${{ secrets.NPM_TOKEN }}')).toBe('`make -C sdk/nodejs publish` with NPM_TOKEN');
    expect(evidence('./publish.py', 'CARGO_REGISTRY_TOKEN: ${{ secrets.CARGO_REGISTRY_TOKEN }}')).toBe('`./publish.py` with CARGO_REGISTRY_TOKEN');
    expect(evidence('python3 scripts/publish-crates.py --no-verify', 'CARGO_REGISTRY_TOKEN: ${{ secrets.CARGO_REGISTRY_TOKEN }}')).toBe('`python3 scripts/publish-crates.py` with CARGO_REGISTRY_TOKEN');
    expect(publishingStep(lastStep('./publish.py', 'CARGO_REGISTRY_TOKEN: ${{ secrets.T }}'))?.registry).toBe('crates');
    expect(publishingStep(lastStep('make release', 'TWINE_PASSWORD: ${{ secrets.PYPI }}'))?.registry).toBe('pypi');
    expect(evidence('deno run -A tools/release/publish_crates.ts', 'CARGO_REGISTRY_TOKEN: ${{ secrets.T }}')).toBe('`deno run -A tools/release/publish_crates.ts` with CARGO_REGISTRY_TOKEN');
    expect(evidence('bun scripts/release.ts', 'NPM_TOKEN: ${{ secrets.T }}')).toBe('`bun scripts/release.ts` with NPM_TOKEN');
    // A target taken at run time names nothing.
    expect(evidence('make ${{ matrix.target }}', 'NPM_TOKEN: ${{ secrets.T }}')).toBeNull();
    // `--snapshot` rehearses goreleaser only: a changesets snapshot release publishes.
    const snapshot = publishingStep(lastStep('pnpm changeset version --snapshot nightly\npnpm changeset publish --tag nightly', 'NODE_AUTH_TOKEN: ${{ secrets.T }}'));
    expect(snapshot?.evidence).toBe('`pnpm changeset publish` with NODE_AUTH_TOKEN');
    expect(publishesForReal(snapshot!)).toBe(true);
    expect(publishesForReal(publishingStep(lastStep('goreleaser release --snapshot --clean', ''))!)).toBe(false);
  });

  it('negative: no signal, a test job, a token given to installs or the whole job, and names around a release', () => {
    // Neither provenance nor a token: `npm test`, and a release script alone.
    expect(evidence('npm test', '')).toBeNull();
    expect(evidence('npm run release', '')).toBeNull();
    expect(evidence('npm ci && npm test', 'CI: true')).toBeNull();
    // A token in the env of a step that installs, tests or deprecates: no publish.
    expect(evidence('npm ci', 'NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}')).toBeNull();
    expect(evidence('pnpm install --frozen-lockfile && pnpm test', 'NPM_TOKEN: ${{ secrets.NPM_TOKEN }}')).toBeNull();
    expect(evidence('npm deprecate "pkg@1.0.0" "use 2"', 'NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}')).toBeNull();
    // The token given to the whole job: installs of private packages read it too.
    expect(evidence('npm run release', '', 'NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}')).toBeNull();
    // An empty token, provenance off.
    expect(evidence('npm run release', 'NPM_TOKEN: ""')).toBeNull();
    expect(evidence('pnpm run release', 'NPM_CONFIG_PROVENANCE: false')).toBeNull();
    // Names that do something else around a release.
    for (const script of ['npm run release:notes', 'pnpm run build:release', 'yarn release-dry-run', 'make docs-deploy', 'npm run test']) {
      expect(evidence(script, 'NPM_TOKEN: ${{ secrets.NPM_TOKEN }}'), script).toBeNull();
    }
    expect(evidence('pnpm build && pnpm test', 'NPM_CONFIG_PROVENANCE: true')).toBeNull();
  });
});

describe('publishingStep: Gradle installs into the runner\'s own Maven repository', () => {
  it('takes `publish` and `publish<X>To<Repo>Repository` as publishing, `publishToMavenLocal` as none', () => {
    expect(publishingStep(lastStep('./gradlew publish', ''))?.registry).toBe('maven');
    expect(publishingStep(lastStep('./gradlew publishAllPublicationsToSonatypeRepository', ''))?.registry).toBe('maven');
    expect(publishingStep(lastStep('./gradlew publishToMavenLocal', ''))).toBeNull();
    expect(publishingStep(lastStep('./gradlew build publishMavenPublicationToMavenLocal', ''))).toBeNull();
  });
});

describe('publishingStep: Maven, through the wrapper and across continued lines', () => {
  it('takes `mvn deploy` and `./mvnw ... deploy` (also with the goal on a `\\`-continued line) as publishing, `./mvnw verify` as none', () => {
    expect(publishingStep(lastStep('mvn -B deploy', ''))?.registry).toBe('maven');
    expect(publishingStep(lastStep('./mvnw --batch-mode deploy -DskipTests', ''))?.registry).toBe('maven');
    expect(publishingStep(lastStep('./mvnw --show-version \\\n  -Dmaven.repo.local=.m2/repository \\\n  deploy \\\n  -DskipTests', ''))?.registry).toBe('maven');
    expect(publishingStep(lastStep('./gradlew build \\\n  publishAllPublicationsToSonatypeRepository', ''))?.registry).toBe('maven');
    expect(publishingStep(lastStep('./mvnw --batch-mode verify', ''))).toBeNull();
    // A deploy into a directory of the runner: a staging copy, not a publish.
    expect(publishingStep(lastStep('./mvnw --batch-mode \\\n  verify -DskipTests \\\n  deploy:deploy -DaltDeploymentRepository="dogfood::file://$(pwd)/target/staging"', ''))).toBeNull();
    expect(publishingStep(lastStep('mvn deploy -DaltDeploymentRepository=local::default::file:./staging', ''))).toBeNull();
    expect(publishingStep(lastStep('mvn deploy -DaltDeploymentRepository=ossrh::https://oss.sonatype.org/content/repositories/snapshots', ''))?.registry).toBe('maven');
    // A later command of its own (no continuation) is not the wrapper's goal.
    expect(publishingStep(lastStep('./mvnw --batch-mode verify\necho "deploy next time"', ''))).toBeNull();
  });
});

describe('publishingStep: an action the table does not know, handed the command it publishes with', () => {
  /** The one step of a one-job workflow: `uses` with its `with:` lines. */
  const actionStep = (uses: string, inputs: string): Step => {
    const text = ['on: push', 'jobs:', '  release:', '    runs-on: ubuntu-latest', '    steps:', `      - uses: ${uses}`, '        with:', ...inputs.split('\n').map((l) => `          ${l}`), ''].join('\n');
    const parsed = parseYaml(text);
    if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('not a mapping');
    return buildWorkflow(new SourceFile('.github/workflows/release.yml', text), parsed.root).jobs[0]?.steps[0] as Step;
  };

  it('publishes when an input named for publishing holds a release script or a registry tool\'s publish', () => {
    expect(publishingStep(actionStep('acme/changeset-actions/publish@main', 'publish_script: pnpm release'))).toMatchObject({ registry: 'npm', evidence: '`acme/changeset-actions` with `publish_script: pnpm release`' });
    expect(publishingStep(actionStep('acme/release-tools@v2', 'publish-command: yarn run ci:publish'))?.registry).toBe('npm');
    expect(publishingStep(actionStep('acme/release-tools@v2', 'publish: cargo publish --locked'))?.registry).toBe('crates');
  });

  it('negative: another input, a switch, a script named for something around a release, a command that publishes nothing', () => {
    expect(publishingStep(actionStep('acme/release-tools@v2', 'script: pnpm release'))).toBeNull();
    expect(publishingStep(actionStep('acme/release-tools@v2', 'publish: true'))).toBeNull();
    expect(publishingStep(actionStep('acme/release-tools@v2', 'publish_script: pnpm run build:release'))).toBeNull();
    expect(publishingStep(actionStep('acme/release-tools@v2', 'publish_script: pnpm install'))).toBeNull();
  });
});
