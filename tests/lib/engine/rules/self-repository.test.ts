import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'self-repository';

describe(RULE, () => {
  it('reports uses: ./path as INFO, and LOW after a checkout of another ref', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: ./.github/actions/setup
        b:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
            - uses: ./.github/actions/setup
    `);
    expect(positions(findings)).toEqual(['7:15 INFO', '14:15 LOW']);
    expect(findings[0]?.recommendation).toBe('Write `uses: $/.github/actions/setup`.');
    expect(findings[1]?.description).toContain('another ref or repository');
  });

  it("keeps INFO after a checkout that names the run's own ref, commit or repository, LOW when it names any other", () => {
    const source = (ref: string) => yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                repository: \${{ github.repository }}
                ref: ${ref}
            - uses: ./.github/actions/setup
    `;
    for (const own of ['${{ github.ref_name }}', '${{ github.ref }}', '${{ github.sha }}']) expect(positions(scanWith(RULE, source(own)))).toEqual(['10:15 INFO']);
    for (const other of ['${{ inputs.ref }}', 'main', '${{ github.event.release.tag_name }}']) expect(positions(scanWith(RULE, source(other)))).toEqual(['10:15 LOW']);
  });

  it('does not report actions checked out into their own directory, remote actions, docker actions, reusable workflow calls or the self-repository form', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: $/.github/actions/setup
            - uses: docker://alpine:3.20
        tested:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with: { path: candidate, ref: '\${{ inputs.ref }}' }
            - uses: ./candidate
        call:
          uses: ./.github/workflows/reusable.yml
    `)).toEqual([]);
  });

  it('negative: a local path that climbs out of the workspace root names no file of the repository ($/ is no replacement)', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with: { path: action }
            - uses: ./../action/x
            - uses: ./a/../../b
    `)).toEqual([]);
  });

  it('positive: a local path with .. that stays inside the workspace is reported', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - uses: ./.github/../.github/actions/setup
    `))).toEqual(['7:15 INFO']);
  });

  it('reports local uses inside composite actions too', () => {
    expect(positions(scanWith(RULE, [{ path: '.github/actions/outer/action.yml', text: yaml`
      name: outer
      runs:
        using: composite
        steps:
          - uses: ./.github/actions/inner
    ` }]))).toEqual(['5:13 INFO']);
  });
});

describe(`${RULE}: the $/ form in the model`, () => {
  it('links $/path to the local action like ./path: its code is not the checkout\'s, but what its steps build is', () => {
    const action = { path: '.github/actions/build/action.yml', text: 'name: build\nruns:\n  using: composite\n  steps:\n    - run: make\n      shell: bash\n' };
    const workflow = (uses: string) => yaml`
      on: pull_request_target
      permissions: { contents: read }
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
              with:
                ref: \${{ github.event.pull_request.head.sha }}
                persist-credentials: false
            - uses: ${uses}
    `;
    const untrusted = (uses: string) => scanWith('untrusted-checkout', [{ path: '.github/workflows/t.yml', text: workflow(uses) }, action]);
    expect(untrusted('./.github/actions/build').map((f) => f.description).join()).toContain('local action');
    const self = untrusted('$/.github/actions/build');
    // The action comes from the workflow's own commit, but its `make` runs the checked-out Makefile.
    expect(self.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(self[0]?.description).toContain('runs `make` (inside local action `./.github/actions/build`)');
    const noBuild = { ...action, text: 'name: build\nruns:\n  using: composite\n  steps:\n    - run: echo done\n      shell: bash\n' };
    const quiet = scanWith('untrusted-checkout', [{ path: '.github/workflows/t.yml', text: workflow('$/.github/actions/build') }, noBuild]);
    // Nothing of the checkout runs there: no claim.
    expect(quiet).toEqual([]);
  });

  describe('an action an earlier step built in the workspace', () => {
    const job = (build: string, uses = './') => yaml`
      on: pull_request
      jobs:
        test-action:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
            - run: npm ci
            ${build}
            - uses: ${uses}
              with: { milliseconds: 1000 }
    `;

    it('negative: `uses: ./` after the job builds the action tests the built files on purpose ($/ would run the unbuilt commit)', () => {
      for (const build of [
        '- run: npm run build',
        '- run: npm run package',
        '- run: npx ncc build src/index.ts -o dist',
        '- run: yarn build',
        '- run: pnpm run build:dist',
        '- run: make',
        '- run: go build -o dist/action ./cmd/action',
        '- run: tsc',
        '- run: npm run build\n              working-directory: action',
      ]) {
        expect(scanWith(RULE, job(build, build.includes('working-directory') ? './action' : './')), build).toEqual([]);
      }
      // The directory from the job's `defaults.run`, as GitHub runs the step.
      const defaults = job('- run: npm run build', './action').replace('    runs-on: ubuntu-latest', '    runs-on: ubuntu-latest\n    defaults: { run: { working-directory: action } }');
      expect(defaults).toContain('working-directory: action');
      expect(scanWith(RULE, defaults)).toEqual([]);
    });

    it('positive: no build before it, a build elsewhere, or a command that builds nothing', () => {
      for (const [build, uses] of [
        ['- run: npm test', './'],
        ['- run: make test', './'],
        ['- run: npm run lint', './'],
        ['- run: npm run build\n              working-directory: website', './action'],
        // A build of the project at the root builds no composite action under .github/.
        ['- run: npm run build', './.github/actions/setup'],
        ['- run: make', './.github/actions/setup'],
      ] as const) {
        expect(positions(scanWith(RULE, job(build, uses))).map((p) => p.split(' ')[1]), build).toEqual(['INFO']);
      }
      // After the action's step, a build changes nothing it ran.
      expect(scanWith(RULE, yaml`
        on: push
        jobs:
          a:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v3
              - uses: ./
              - run: npm run build
      `).length).toBe(1);
    });
  });
});
