import { describe, expect, it } from 'vitest';
import { RunModel } from '../../../../../lib/engine/analysis/run-model/index.js';
import { RepositoryModel } from '../../../../../lib/engine/model/repository.js';
import { buildWorkflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';
import { scanWith, yaml } from '../../../../support/engine.js';

/** The run model's reach of job `id` in one workflow. */
function reachOf(text: string, id: string) {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('bad fixture');
  const workflow = buildWorkflow(new SourceFile('.github/workflows/test.yml', text), parsed.root);
  const runs = new RunModel(new RepositoryModel([workflow], [], []));
  const job = workflow.jobs.find((j) => j.id === id);
  if (job === undefined) throw new Error(`no job ${id}`);
  return runs.job(job).reach;
}

/**
 * A `pull_request_target` workflow that checks out the pull request's head and builds it with a secret, after a job
 * `first` (its YAML given) that it needs, under the condition `gate`.
 */
const build = (first: string, gate = '') => yaml`
  on: pull_request_target
  jobs:
    ${first}
    build:
      needs: first
      ${gate}
      runs-on: ubuntu-latest
      steps:
        - uses: actions/checkout@v3
          with:
            ref: \${{ github.event.pull_request.head.sha }}
        - run: npm ci && npm test
          env:
            NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
`;

/** A needed job that calls another repository's reusable workflow. */
const call = (uses: string, name = '') => `first:
      ${name === '' ? '' : `name: ${name}`}
      uses: ${uses}`;

/** A needed job whose step hands the actor's login (or `login`) to another repository's action. */
const asks = (login = '${{ github.triggering_actor }}', action = 'example-org/ci-tools/membership@main') => `first:
      runs-on: ubuntu-latest
      outputs:
        ok: \${{ steps.member.outputs.is-member }}
      steps:
        - id: member
          uses: ${action}
          with:
            user: ${login}
            token: \${{ secrets.ORG_TOKEN }}`;

describe("a needed job that calls another repository's reusable workflow named as a check", () => {
  it('is a check the scan cannot read: an approval of unknown strength, named, and the finding is MEDIUM, not HIGH', () => {
    for (const first of [call('example-org/gh-actions/.github/workflows/check-run.yml@main'), call('example-org/shared/.github/workflows/ci.yml@v2', 'Verify the actor'), call('other-org/workflows/.github/workflows/authorize.yml@v1')]) {
      const text = build(first);
      const reach = reachOf(text, 'build');
      expect(reach, first).toMatchObject({ level: 'unreviewed-environment', event: 'pull_request_target', unreadCheck: true });
      expect(reach.gates.join(), first).toContain('needed job `first`, which calls');
      const found = scanWith('untrusted-checkout', text);
      expect(found.map((f) => f.severity), first).toEqual(['MEDIUM']);
      expect(found[0]?.description).toContain('unless a check the scan cannot read stops them');
    }
  });

  it('is no gate when its name says nothing of a check, when the later job runs whatever it did, or when it is read', () => {
    expect(reachOf(build(call('example-org/gh-actions/.github/workflows/build.yml@main')), 'build')).toMatchObject({ level: 'anyone' });
    expect(scanWith('untrusted-checkout', build(call('example-org/gh-actions/.github/workflows/lint.yml@main'))).map((f) => f.severity)).toEqual(['HIGH']);
    expect(reachOf(build(call('example-org/gh-actions/.github/workflows/check-run.yml@main'), 'if: always()'), 'build')).toMatchObject({ level: 'anyone' });
    // A local reusable workflow is read: its own checks count, not its name.
    const local = yaml`
      on: pull_request_target
      jobs:
        first:
          uses: ./.github/workflows/check-run.yml
        build:
          needs: first
          runs-on: ubuntu-latest
          steps:
            - run: echo hi
    `;
    expect(reachOf(local, 'build')).toMatchObject({ level: 'anyone' });
  });
});

describe("a condition on the answer of another repository's action handed the actor's login", () => {
  it("is a check the scan cannot read when the condition requires an answer that grants", () => {
    for (const gate of ["if: needs.first.outputs.ok == 'true'", 'if: fromJSON(needs.first.outputs.ok)', "if: github.event_name == 'push' || needs.first.outputs.ok == 'true'"]) {
      const text = build(asks(), gate);
      const reach = reachOf(text, 'build');
      expect(reach, gate).toMatchObject({ level: 'unreviewed-environment', unreadCheck: true });
      expect(reach.gates.join(), gate).toContain('the answer of `example-org/ci-tools/membership@main`');
      expect(scanWith('untrusted-checkout', text).map((f) => f.severity), gate).toEqual(['MEDIUM']);
    }
  });

  it('is no gate for a bare truth test (an answer of `false` passes it), a denying value, `!=`, or an action not handed the login', () => {
    for (const gate of ['if: needs.first.outputs.ok', "if: needs.first.outputs.ok == 'false'", "if: needs.first.outputs.ok != 'true'"]) {
      expect(reachOf(build(asks(), gate), 'build'), gate).toMatchObject({ level: 'anyone' });
    }
    expect(reachOf(build(asks('${{ github.event.pull_request.number }}'), "if: needs.first.outputs.ok == 'true'"), 'build')).toMatchObject({ level: 'anyone' });
    // An answer about another account than whoever starts the run (the issue's author under a comment) vouches for nobody.
    expect(reachOf(build(asks('${{ github.event.issue.user.login }}'), "if: needs.first.outputs.ok == 'true'"), 'build')).toMatchObject({ level: 'anyone' });
    // A script action's answer is the script's, read as such: a script that checks nothing is no gate.
    expect(reachOf(build(asks(undefined, 'actions/github-script@v7'), "if: needs.first.outputs.ok == 'true'"), 'build')).toMatchObject({ level: 'anyone' });
  });
});
