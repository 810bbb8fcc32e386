import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'unsound-contains';

describe(RULE, () => {
  it('reports contains() on a string literal in job and step conditions, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: pull_request_target
      jobs:
        deploy:
          if: contains('main release', github.head_ref)
          runs-on: ubuntu-latest
          steps:
            - run: ./deploy.sh
              if: \${{ github.event_name == 'pull_request_target' && contains('alice,bob', github.actor) }}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['4:9 MEDIUM', '8:13 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual(['deploy', 'deploy']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[1]?.finding.description).toContain("contains('alice,bob', github.actor)");
  });

  it('reports the check in other expressions, at the ${{ of the expression', () => {
    const records = recordsWith(RULE, yaml`
      on: [push, issues]
      env:
        TRUSTED: \${{ contains('alice bob', github.actor) }}
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo start
                echo "\${{ !contains('main', github.event.issue.title) }}"
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:12 MEDIUM', '10:17 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual([null, 'build']);
  });

  it('accepts real lists, searches in contexts and constant checks', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          if: contains(fromJSON('["refs/heads/main", "refs/heads/dev"]'), github.ref)
          runs-on: ubuntu-latest
          steps:
            - run: make
              if: contains(github.event.pull_request.labels.*.name, 'safe to test')
            - run: make
              if: contains(github.event.head_commit.message, '[skip ci]')
            - run: make
              if: contains('abc', 'b')
    `)).toEqual([]);
  });

  it('accepts a login wrapped in a delimiter no login holds; a delimiter a login may hold, or a wrapped label, is still a substring match', () => {
    const workflow = (condition: string) => yaml`
      on:
        issue_comment:
          types: [created]
      jobs:
        test:
          if: ${condition}
          runs-on: ubuntu-latest
          steps:
            - run: make
              env:
                TOKEN: \${{ secrets.CI_TOKEN }}
    `;
    expect(scanWith(RULE, workflow("contains('|alice|bob|', format('|{0}|', github.event.comment.user.login))"))).toEqual([]);
    expect(scanWith(RULE, workflow("contains(',alice,bob,', format(',{0},', github.actor))"))).toEqual([]);
    // `-` is in logins (`-{0}-` lets `ice` through `-al-ice-bob-`), and a comment may hold `|`.
    expect(scanWith(RULE, workflow("contains('-al-ice-bob-', format('-{0}-', github.event.comment.user.login))")).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith(RULE, workflow("contains('|ok|go|', format('|{0}|', github.event.comment.body))")).map((f) => f.severity)).toEqual(['MEDIUM']);
  });

  it("reads a JSON-looking list without fromJSON by its entries: no fixed value passes that is not one", () => {
    const workflow = (list: string) => yaml`
      on: issue_comment
      jobs:
        build:
          if: contains('${list}', github.event.comment.author_association)
          runs-on: ubuntu-latest
          steps:
            - run: make
    `;
    expect(scanWith(RULE, workflow('["OWNER", "COLLABORATOR", "MEMBER"]'))).toEqual([]);
    // `CONTRIBUTOR` is not an entry but contains... nothing here; `FIRST_TIME_CONTRIBUTOR` holds `CONTRIBUTOR`.
    expect(scanWith(RULE, workflow('["OWNER", "FIRST_TIME_CONTRIBUTOR"]')).map((f) => f.severity)).not.toEqual([]);
  });

  it('reads the function name in any case', () => {
    const findings = scanWith(RULE, yaml`
      on: issues
      jobs:
        build:
          runs-on: ubuntu-latest
          if: CONTAINS('refs/heads/main refs/heads/dev', github.event.issue.title)
          steps:
            - run: echo "\${{ Contains(fromJSON('["a","b"]'), github.ref) }} \${{ 'contains' }}"
    `);
    expect(positions(findings)).toEqual(['5:9 MEDIUM']);
  });

  it('checks composite actions', () => {
    expect(positions(scanWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          runs:
            using: composite
            steps:
              - run: make
                shell: bash
                if: contains('linux macos', inputs.os)
        `,
      },
    ]))).toEqual(['6:11 MEDIUM']);
  });
});

describe(`${RULE}: who chooses the value`, () => {
  const step = (on: string, condition: string, job = '') => yaml`
    on: ${on}
    permissions:
      contents: write
    jobs:
      gated:
        runs-on: ubuntu-latest${job}
        steps:
          - run: ./release.sh
            if: ${condition}
            env:
              TOKEN: \${{ secrets.RELEASE_TOKEN }}
  `;

  it('keeps MEDIUM for a login list an outsider passes by registering a piece of it, naming who and what', () => {
    const [finding] = scanWith(RULE, step('issue_comment', "contains('alice,bob', github.event.comment.user.login)"));
    expect(finding?.severity).toBe('MEDIUM');
    expect(finding?.description).toContain('anyone can register a login such as `alic`, which passes');
    expect(finding?.description).toContain('anyone with a GitHub account can start it through `issue_comment`');
    expect(finding?.description).toContain('secret `RELEASE_TOKEN`');
    // The same list on push: the actor is a pusher, a collaborator.
    expect(scanWith(RULE, step('push', "contains('alice,bob', github.actor)")).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('reports the outsider-chosen check of an expression, not the first one', () => {
    const [finding] = scanWith(RULE, step('issue_comment', "contains('main,prod', github.ref_name) || contains('alice bob', github.actor)"));
    expect(finding?.severity).toBe('MEDIUM');
    expect(finding?.description).toContain("`contains('alice bob', github.actor)`");
    expect(finding?.description).toContain('(and 1 more `contains` on a string in this expression)');
  });

  it('is LOW for refs only pushers create, the runner, and a default variable read through env (always empty)', () => {
    const ref = scanWith(RULE, step('[push, pull_request]', "contains('refs/heads/main refs/heads/develop', github.ref)"));
    expect(ref.map((f) => f.severity)).toEqual(['LOW']);
    expect(ref[0]?.description).toContain('only users with write access create');
    const runner = scanWith(RULE, step('pull_request_target', "contains('runner1,runner2', runner.name)"));
    expect(runner.map((f) => f.severity)).toEqual(['LOW']);
    expect(runner[0]?.description).toContain('set by whoever registers or provides the runner');
    const empty = scanWith(RULE, step('push', "contains('main,develop', env.GITHUB_REF_NAME)"));
    expect(empty.map((f) => f.severity)).toEqual(['LOW']);
    expect(empty[0]?.description).toContain('is always empty');
    expect(empty[0]?.description).toContain('the check is always true');
    // Defined in `env:`, the variable is what the workflow put there: not empty.
    const defined = scanWith(RULE, step('issues', "contains('main,develop', env.GITHUB_REF_NAME)", '\n        env:\n          GITHUB_REF_NAME: ${{ github.event.issue.title }}'));
    expect(defined.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(defined[0]?.description).not.toContain('always empty');
  });

  it('reads fixed values: an association list no outsider association is a piece of is LOW, an event name that is, MEDIUM', () => {
    // Every association that passes is an entry: exact, not reported; one that passes as a piece is LOW.
    expect(scanWith(RULE, step('issue_comment', "contains('OWNER,MEMBER,COLLABORATOR', github.event.comment.author_association)"))).toEqual([]);
    expect(scanWith(RULE, step('issue_comment', "contains('OWNERS,MEMBER,COLLABORATOR', github.event.comment.author_association)")).map((f) => f.severity)).toEqual(['LOW']);
    // `pull_request` is a piece of `pull_request_target`, and any fork's pull request starts it.
    const event = scanWith(RULE, step('[pull_request_target, pull_request]', "contains('pull_request_target', github.event_name)"));
    expect(event.map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(event[0]?.description).toContain('can be `pull_request`');
  });

  it('is LOW when an outsider reaches the check only on a fork\'s read-only pull_request run', () => {
    const fork = scanWith(RULE, step('pull_request', "contains('alice bob', github.actor)"));
    expect(fork.map((f) => f.severity)).toEqual(['LOW']);
    expect(fork[0]?.description).toContain("only on a fork's `pull_request` run");
  });
});

describe('unsound-contains: a negated check keeps values out', () => {
  const workflow = (condition: string) => yaml`
    on:
      issues:
        types: [opened]
    jobs:
      comment:
        if: \${{ ${condition} }}
        runs-on: ubuntu-latest
        permissions:
          issues: write
        steps:
          - run: gh issue comment "$N" --body "Thanks!"
            env:
              N: \${{ github.event.issue.number }}
              GH_TOKEN: \${{ github.token }}
  `;

  it('is LOW, saying a look-alike only keeps the job from running for them, where the same list as an allow-list is MEDIUM', () => {
    const denied = scanWith('unsound-contains', workflow("!contains('alice,bobby', github.actor)"));
    expect(denied.map((f) => f.severity)).toEqual(['LOW']);
    expect(denied[0]?.description).toContain('the check is negated');
    expect(denied[0]?.description).toContain('a skipped job counts as passed for a required status check');
    const allowed = scanWith('unsound-contains', workflow("contains('alice,bobby', github.actor)"));
    expect(allowed.map((f) => f.severity)).toEqual(['MEDIUM']);
    // Two negations let values in again.
    expect(scanWith('unsound-contains', workflow("!(!contains('alice,bobby', github.actor))")).map((f) => f.severity)).toEqual(['MEDIUM']);
  });
});
