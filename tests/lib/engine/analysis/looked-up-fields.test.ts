import { describe, expect, it } from 'vitest';
import { scanWith, yaml } from '../../../support/engine.js';

/** A `workflow_run` job after pull request runs that looks a pull request up with octokit/request-action (`route`), then expands `field` of its answer into a script. */
const job = (field: string, route = 'GET /repos/{full_name}/pulls/{number}', guard = '') => yaml`
  on:
    workflow_run:
      workflows: [CI]
      types: [completed]
  jobs:
    report:
      runs-on: ubuntu-latest
      ${guard}
      steps:
        - id: pr
          uses: octokit/request-action@v2.x
          with:
            route: ${route}
            number: 12
            full_name: \${{ github.repository }}
          env:
            GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}
        - run: ./report.sh "\${{ fromJson(steps.pr.outputs.data)${field} }}"
          env:
            SONAR_TOKEN: \${{ secrets.SONAR_TOKEN }}
`;
const CI = { path: '.github/workflows/ci.yml', text: 'name: CI\non: pull_request\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n' };
const scan = (text: string) => scanWith('script-injection', [{ path: '.github/workflows/report.yml', text }, CI]);

describe("a pull request's fields looked up through the API are its author's text where the author writes them", () => {
  it('the head branch name, its label, the title and the body are free text an outsider sets', () => {
    for (const field of ['.head.ref', '.head.label', '.title', "['body']"]) {
      const found = scan(job(field));
      expect(found.map((f) => f.severity), field).toEqual(['HIGH']);
      expect(found[0]?.description, field).toContain('looked up by step `pr`');
    }
  });

  it("not the number, the base branch or the head's SHA, another route's answer, or under a same-repository condition", () => {
    for (const field of ['.number', '.base.ref', '.head.sha', '.user.login']) expect(scan(job(field)), field).toEqual([]);
    expect(scan(job('.head.ref', 'GET /repos/{full_name}/issues/{number}/comments'))).toEqual([]);
    const same = scan(job('.head.ref', undefined, 'if: github.event.workflow_run.head_repository.full_name == github.repository'));
    expect(same.every((f) => f.severity === 'LOW')).toBe(true);
  });
});
