import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { POPULAR_ACTIONS } from '../../../../lib/engine/data/popular-actions.js';
import { imitatedAction, isOneEditApart } from '../../../../lib/engine/rules/typosquat-action.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';
import { skipReason } from '../../../support/skips.js';

const RULE = 'typosquat-action';
const SHA = '08eba0b27e820071cde6df949e0beb9ba4906955';
const CORPUS = fileURLToPath(new URL('../../../../../shared/corpus/real/', import.meta.url));

/** Every `owner/repo` the shared corpus of real workflows uses. */
function corpusActions(): Set<string> {
  const slugs = new Set<string>();
  for (const row of readFileSync(`${CORPUS}MANIFEST.tsv`, 'utf8').split('\n').slice(1)) {
    const [repo, path] = row.split('\t');
    if (repo === undefined || path === undefined || path === '') continue;
    const text = readFileSync(`${CORPUS}${repo.replace('/', '__')}/${path}`, 'utf8');
    for (const m of text.matchAll(/uses:\s*['"]?([\w.-]+)\/([\w.-]+)[^@\s'"]*@/g)) slugs.add(`${m[1]}/${m[2]}`.toLowerCase());
  }
  return slugs;
}

describe(RULE, () => {
  it('measures one edit: insertion, deletion, substitution, adjacent transposition', () => {
    expect(isOneEditApart('actions/checkout', 'action/checkout')).toBe(true);
    expect(isOneEditApart('actions/checkout', 'actionss/checkout')).toBe(true);
    expect(isOneEditApart('actions/checkout', 'actiont/checkout')).toBe(true);
    expect(isOneEditApart('actions/checkout', 'atcions/checkout')).toBe(true);
    expect(isOneEditApart('actions/checkout', 'actions/checkout')).toBe(false);
    expect(isOneEditApart('actions/checkout', 'atcoins/checkout')).toBe(false);
    expect(isOneEditApart('abc', 'abcde')).toBe(false);
  });

  it('finds the popular action a look-alike owner imitates', () => {
    expect(imitatedAction('actons/checkout')).toBe('actions/checkout');
    expect(imitatedAction('aws-action/configure-aws-credentials')).toBe('aws-actions/configure-aws-credentials');
    expect(imitatedAction('dockr/login-action')).toBe('docker/login-action');
    // Another repository of the same owner cannot be registered by an attacker.
    expect(imitatedAction('actions/checkot')).toBeNull();
    // Owners that publish a popular action are trusted.
    expect(imitatedAction('docker/logins-action')).toBeNull();
  });

  it('never reports an action of the popular list, and no two entries are look-alikes of each other', () => {
    for (const slug of POPULAR_ACTIONS) expect(imitatedAction(slug), slug).toBeNull();
    const owners = new Map(POPULAR_ACTIONS.map((s) => [s, s.split('/')[0]]));
    const clashes = POPULAR_ACTIONS.flatMap((a) =>
      POPULAR_ACTIONS.filter((b) => a < b && owners.get(a) !== owners.get(b) && isOneEditApart(a, b)).map((b) => `${a} ~ ${b}`),
    );
    expect(clashes).toEqual([]);
  });

  const noCorpus = existsSync(`${CORPUS}MANIFEST.tsv`) ? null : 'needs the shared corpus (../shared/corpus/real) beside the project';
  it.skipIf(noCorpus !== null)(`reports none of the real actions used across the shared corpus${skipReason(noCorpus)}`, () => {
    const slugs = corpusActions();
    expect(slugs.size).toBeGreaterThan(300);
    expect([...slugs].filter((s) => imitatedAction(s) !== null)).toEqual([]);
  });

  it('reports a look-alike at the uses scalar, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@${SHA}
            - uses: actons/checkout@${SHA}
            - uses: Githhub/codeql-action/init@v3
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['7:15 HIGH', '8:15 HIGH']);
    expect(records.map((r) => r.job)).toEqual(['build', 'build']);
    expect(records[0]?.finding.description).toContain('`actions/checkout`');
    expect(records[1]?.finding.description).toContain('`github/codeql-action`');
  });

  it('checks reusable workflows and composite actions', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        call:
          uses: slsa-framwork/slsa-github-generator/.github/workflows/generator_generic_slsa3.yml@v2.1.0
    `))).toEqual(['4:11 HIGH']);
    const records = recordsWith(RULE, [{ path: 'action.yml', text: 'runs:\n  using: composite\n  steps:\n    - uses: astral-sh/setup-uv@v6\n    - uses: astra-sh/setup-uv@v6\n' }]);
    expect(positions(records.map((r) => r.finding))).toEqual(['5:13 HIGH']);
    expect(records[0]?.job).toBeNull();
  });

  it('leaves unrelated, local and docker references alone', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: my-company/checkout@v1
            - uses: ./actions/checkout
            - uses: docker://actions/checkout:1
            - uses: nick-fields/retry@v3
            - uses: nick-invision/retry@v2
    `)).toEqual([]);
  });
});
