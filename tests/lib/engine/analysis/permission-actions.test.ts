import { describe, expect, it } from 'vitest';
import { scanWith } from '../../../support/engine.js';

/**
 * A permission-checking action gates what it does itself; it stands in the way of the job's later steps only when
 * it fails its step on the deny path (and no `continue-on-error` swallows that), or when a later step's `if:`
 * compares its answer (permission-actions.ts).
 */
const workflow = (check: string, guard = '') => `on:
  issue_comment:
    types: [created]
permissions:
  contents: write
jobs:
  test:
    if: github.event.issue.pull_request && startsWith(github.event.comment.body, '/test')
    runs-on: ubuntu-latest
    steps:
${check}
      - uses: actions/checkout@v3
        ${guard}with:
          ref: refs/pull/\${{ github.event.issue.number }}/head
      - ${guard}run: make test
        env:
          TOKEN: \${{ secrets.DEPLOY_TOKEN }}
`;

const step = (uses: string, inputs: Record<string, string>, extra = '') => `      - name: Check
        id: check
        uses: ${uses}
${extra}        with:
${Object.entries(inputs).map(([k, v]) => `          ${k}: ${v}`).join('\n')}`;

const xt0rted = (extra = '', level = 'write') => step('xt0rted/slash-command-action@v2', { command: 'test', 'permission-level': level }, extra);
const dispatch = step('peter-evans/slash-command-dispatch@v4', { token: '${{ secrets.BOT }}', commands: 'test', permission: 'write', 'dispatch-type': 'workflow' });
const coolCheck = step('actions-cool/check-user-permission@v2', { require: 'write' });
const prince = (extra = '') => step('prince-chrismc/check-actor-permissions-action@v3', { permission: 'write' }, extra);
const checkout = (check: string, guard = '') => scanWith('untrusted-checkout', workflow(check, guard));
const severities = (check: string, guard = '') => checkout(check, guard).map((f) => f.severity);

describe('permission-checking actions', () => {
  it('an action that only logs on the deny path gates no later step', () => {
    // slash-command-dispatch dispatches nothing for a commenter without `permission`, and succeeds.
    const found = checkout(dispatch);
    expect(found.map((f) => f.severity)).toEqual(['HIGH']);
    expect(found[0]?.description).toContain('anyone with a GitHub account can start it');
    expect(found[0]?.description).toContain('`peter-evans/slash-command-dispatch` gates only what it does itself');
    // actions-cool/check-user-permission records the answer and succeeds.
    expect(severities(coolCheck)).toEqual(['HIGH']);
  });

  it('an action that fails its step on the deny path gates the later steps, unless continue-on-error swallows it', () => {
    expect(severities(xt0rted())).toEqual(['MEDIUM']);
    expect(severities(prince())).toEqual(['MEDIUM']);
    expect(severities(xt0rted('        continue-on-error: true\n'))).toEqual(['HIGH']);
    expect(severities(prince('        continue-on-error: true\n'))).toEqual(['HIGH']);
    expect(checkout(xt0rted('        continue-on-error: true\n'))[0]?.description).toContain('`continue-on-error` lets the job go on; it sets `command-name` before it checks the permission');
    // `continue-on-error: false` is no swallowing.
    expect(severities(xt0rted('        continue-on-error: false\n'))).toEqual(['MEDIUM']);
    // `permission-level: read` (or `none`) lets every account through: no failure to stand in the way.
    expect(severities(xt0rted('', 'read'))).toEqual(['HIGH']);
  });

  it('a later step whose if: compares the answer is gated; a test of an output set for everyone is not', () => {
    expect(severities(coolCheck, "if: steps.check.outputs.require-result == 'true'\n        ")).toEqual(['MEDIUM']);
    expect(severities(coolCheck, "if: steps.check.outputs.user-permission == 'admin'\n        ")).toEqual(['MEDIUM']);
    expect(severities(prince('        continue-on-error: true\n'), "if: steps.check.outputs.permitted == 'true'\n        ")).toEqual(['MEDIUM']);
    // The answer is `'false'` on the deny path, a true string; compared with the denying value, it is no gate.
    expect(severities(coolCheck, 'if: steps.check.outputs.require-result\n        ')).toEqual(['HIGH']);
    expect(severities(coolCheck, "if: steps.check.outputs.require-result == 'false'\n        ")).toEqual(['HIGH']);
    expect(severities(coolCheck, 'if: fromJSON(steps.check.outputs.require-result)\n        ')).toEqual(['MEDIUM']);
    // xt0rted sets `command-name` before it checks the permission: with continue-on-error, any commenter's
    // command passes an `if:` on it; the step's outcome is the check's.
    const coe = xt0rted('        continue-on-error: true\n');
    expect(severities(coe, 'if: steps.check.outputs.command-name\n        ')).toEqual(['HIGH']);
    expect(severities(coe, "if: steps.check.outcome == 'success'\n        ")).toEqual(['MEDIUM']);
    // slash-command-dispatch's outputs carry no answer.
    expect(severities(dispatch, "if: steps.check.outputs.error-message == ''\n        ")).toEqual(['HIGH']);
  });

  it('reads the answer through a failing step or a job output', () => {
    // A separate step that fails the job on the recorded answer gates the steps after it.
    const fail = `${coolCheck}
      - if: steps.check.outputs.require-result != 'true'
        run: exit 1`;
    expect(severities(fail)).toEqual(['MEDIUM']);
    // A later job that needs the check's job and compares its output.
    const jobs = (condition: string) => `on:
  issue_comment:
    types: [created]
jobs:
  check:
    runs-on: ubuntu-latest
    outputs:
      allowed: \${{ steps.check.outputs.require-result }}
    steps:
${coolCheck}
  test:
    needs: check
    if: ${condition}
    runs-on: ubuntu-latest
    permissions:
      contents: write
    steps:
      - uses: actions/checkout@v3
        with:
          ref: refs/pull/\${{ github.event.issue.number }}/head
      - run: make test
`;
    expect(scanWith('untrusted-checkout', jobs("needs.check.outputs.allowed == 'true'")).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith('untrusted-checkout', jobs('needs.check.outputs.allowed')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('a later step that expands the comment into a script is reported for anyone after a gate of the action alone', () => {
    const inject = (check: string) => `on:
  issue_comment:
    types: [created]
jobs:
  cmd:
    runs-on: ubuntu-latest
    permissions:
      contents: write
    steps:
${check}
      - run: echo "\${{ github.event.comment.body }}"
`;
    const open = scanWith('script-injection', inject(dispatch));
    expect(open.map((f) => f.severity)).toEqual(['HIGH']);
    expect(open[0]?.description).toContain('anyone with a GitHub account can start it through `issue_comment` (step `Check` of job `cmd` checks the actor\'s permission, but `peter-evans/slash-command-dispatch` gates only what it does itself');
    // After a check that fails the job, only users with write access reach the script (their own text).
    const gated = scanWith('script-injection', inject(xt0rted()));
    expect(gated.map((f) => f.severity)).not.toContain('HIGH');
  });
});

describe('xt0rted/slash-command-action checks only created and edited comments (issue 25)', () => {
  /** The workflow above with the `types:` of its `issue_comment` (none: every activity) and the job's `if:`. */
  const on = (types: string, condition = "github.event.issue.pull_request && startsWith(github.event.comment.body, '/test')") =>
    workflow(xt0rted()).replace('    types: [created]\n', types === '' ? '' : `    types: ${types}\n`).replace(/^ {4}if: .*$/m, `    if: ${condition}`);
  const found = (text: string, guard = '') => scanWith('untrusted-checkout', guard === '' ? text : text.replace(/( +)- run: make test/, `$1- ${guard}run: make test`).replace(/( +)- uses: actions\/checkout@v4\n( +)with:/, `$1- uses: actions/checkout@v3\n$2${guard}with:`));

  it('on a deleted comment (no types:) the action ends its step without checking: the later steps run for anyone', () => {
    const open = found(on(''));
    expect(open.map((f) => f.severity)).toEqual(['HIGH']);
    expect(open[0]?.description).toContain('anyone with a GitHub account can start it through `issue_comment` (on a deleted comment `xt0rted/slash-command-action` (step `Check`) ends its step without checking the permission');
    expect(found(on('[created, deleted]')).map((f) => f.severity)).toEqual(['HIGH']);
    // The step succeeds there: its outcome is no gate either.
    expect(found(on(''), "if: steps.check.outcome == 'success'\n        ").map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('negative: only created (or edited) comments, or an if: on the activity or on its outputs (empty on a deleted comment), keep the gate', () => {
    expect(found(on('[created]')).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(found(on('[created, edited]')).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(found(on('', "github.event.action == 'created' && startsWith(github.event.comment.body, '/test')")).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(found(on(''), "if: steps.check.outputs.command-name == 'test'\n        ").map((f) => f.severity)).toEqual(['MEDIUM']);
  });
});

describe('a team membership check of the commenter', () => {
  const teams = (username: string) => step('tspascoal/get-user-teams-membership@v4', { username, team: 'e2e-executors', GITHUB_TOKEN: '${{ secrets.ORG_READ }}' });
  const guard = "if: steps.check.outputs.isTeamMember == 'true'\n        ";

  it('gates the later steps whose if: reads its answer, when the account it checks is the commenter', () => {
    expect(severities(teams('${{ github.actor }}'), guard)).toEqual(['MEDIUM']);
    expect(severities(teams('${{ github.event.comment.user.login }}'), guard)).toEqual(['MEDIUM']);
  });

  it('gates nothing without the if:, or when it checks another account', () => {
    expect(severities(teams('${{ github.actor }}'))).toEqual(['HIGH']);
    expect(severities(teams('${{ github.event.issue.user.login }}'), guard)).toEqual(['HIGH']);
  });
});
