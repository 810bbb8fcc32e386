// Finding things in the web client: the view state kept in the address, the exports (CSV defused against
// formula injection, SARIF), chain labels that are never cut, the coloured diff, and the scale fixture's mix.

import { describe, expect, it } from 'vitest';
import { wrapAll } from '../../web/src/chain.js';
import { diffLineKind } from '../../web/src/data/diff.js';
import { csvCell, findingsCsv, findingsSarif, repositoriesCsv, toCsv } from '../../web/src/data/export.js';
import { hashParams, hashWith, matches, oneOf, pageNumber, paginate } from '../../web/src/data/query.js';
import type { Finding } from '../../web/src/data/types.js';
import { mix } from '../../scripts/scale-fixture.js';

const finding = (overrides: Partial<Finding> = {}): Finding => ({
  file: '.github/workflows/ci.yml',
  line: 12,
  column: 9,
  severity: 'HIGH',
  category: 'CICD-SEC-4',
  rule_id: 'script-injection',
  title: 'Untrusted input in a run step',
  description: 'github.event.issue.title flows into a shell script.',
  recommendation: 'Pass it through an environment variable.',
  fingerprint: 'abcdef012345',
  ...overrides,
});

describe('the view state in the address', () => {
  it('reads the hash parameters, bounded, and writes only those that differ from the defaults', () => {
    expect(hashParams('#/attack-paths?q=token&severity=CRITICAL&page=2')).toEqual({ q: 'token', severity: 'CRITICAL', page: '2' });
    expect(hashParams('#/')).toEqual({});
    expect(hashParams(`#/?q=${'x'.repeat(500)}`).q).toHaveLength(200);
    expect(hashWith('/', { q: 'a b', sort: 'name', page: '1' }, { q: '', sort: 'name', page: '1' })).toBe('#/?q=a+b');
    expect(hashWith('/', { q: '', sort: 'count', page: '3' }, { q: '', sort: 'name', page: '1' })).toBe('#/?sort=count&page=3');
    expect(hashWith('/repos/x', { q: '' }, { q: '' })).toBe('#/repos/x');
  });

  it('turns an unknown choice or a malformed page into the default', () => {
    expect(oneOf('severity', ['name', 'severity'] as const, 'name')).toBe('severity');
    expect(oneOf('<script>', ['name', 'severity'] as const, 'name')).toBe('name');
    expect(pageNumber('3')).toBe(3);
    for (const bad of ['0', '-1', '1e3', 'x', '', undefined, '99999999']) expect(pageNumber(bad)).toBe(1);
  });

  it('pages and searches', () => {
    const items = Array.from({ length: 120 }, (_, i) => i);
    expect(paginate(items, 3, 50)).toEqual({ items: items.slice(100), page: 3, pages: 3 });
    expect(paginate(items, 9, 50).page).toBe(3);
    expect(paginate([], 1, 50)).toEqual({ items: [], page: 1, pages: 1 });
    expect(matches('TRIAGE bot', 'examples/issue-triage-bot')).toBe(true);
    expect(matches('triage service', 'examples/issue-triage-bot')).toBe(false);
    expect(matches('  ', 'anything')).toBe(true);
  });
});

describe('exports', () => {
  it('defuses every cell a spreadsheet would run as a formula, and quotes every cell', () => {
    for (const hostile of ['=HYPERLINK("http://evil")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(hostile).startsWith(`"'`)).toBe(true);
    }
    expect(csvCell('plain "quoted"')).toBe('"plain ""quoted"""');
    expect(csvCell(0)).toBe('"0"');
    expect(csvCell('a,b\nc')).toBe('"a,b\nc"');
    expect(toCsv(['a', 'b'], [['1', '=2']])).toBe('"a","b"\r\n"1","\'=2"\r\n');
  });

  it('writes repositories and findings as CSV with hostile names defused', () => {
    const csv = repositoriesCsv([
      { full_name: '=cmd/evil', private: false, html_url: 'https://github.com/x/y', last_scan: '2026-11-28T00:00:00Z', counts: { HIGH: 1, MEDIUM: 2, LOW: 3, INFO: 4 }, dismissed: 1 },
      { full_name: 'o/never', private: true, html_url: 'https://github.com/o/never', last_scan: null, counts: null, dismissed: 0 },
    ]);
    expect(csv.split('\r\n')).toEqual([
      '"repository","private","last_scan","HIGH","MEDIUM","LOW","INFO","dismissed","url"',
      `"'=cmd/evil","false","2026-11-28T00:00:00Z","1","2","3","4","1","https://github.com/x/y"`,
      '"o/never","true","","","","","","0","https://github.com/o/never"',
      '',
    ]);
    const findings = findingsCsv([{ finding: finding({ file: '@evil.yml' }), repository: 'o/r', htmlUrl: 'https://github.com/o/r', commitSha: undefined, status: 'open' }]);
    expect(findings.split('\r\n')[1]).toBe(
      `"o/r","HIGH","script-injection","Untrusted input in a run step","'@evil.yml","12","9","open","abcdef012345","https://github.com/o/r/blob/HEAD/%40evil.yml#L12"`,
    );
  });

  it('writes SARIF 2.1.0 with one rule per rule id and dismissed findings suppressed', () => {
    const sarif = JSON.parse(
      findingsSarif([
        { finding: finding(), repository: 'o/r', htmlUrl: '', commitSha: undefined, status: 'open' },
        { finding: finding({ rule_id: 'missing-timeout', severity: 'LOW', line: 0, column: 0 }), repository: 'o/r', htmlUrl: '', commitSha: undefined, status: 'dismissed' },
      ], 'https://app.example.com'),
    ) as { version: string; runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; level: string; suppressions?: unknown[]; locations: { physicalLocation: { region?: unknown } }[] }[] }[] };
    expect(sarif.version).toBe('2.1.0');
    const [run] = sarif.runs;
    expect(run?.tool.driver.rules.map((r) => r.id)).toEqual(['missing-timeout', 'script-injection']);
    expect((run?.tool.driver.rules[1] as { helpUri?: string } | undefined)?.helpUri).toBe('https://app.example.com/rules/script-injection');
    expect(run?.results.map((r) => [r.ruleId, r.level, r.suppressions?.length ?? 0])).toEqual([
      ['script-injection', 'error', 0],
      ['missing-timeout', 'note', 1],
    ]);
    expect(run?.results[1]?.locations[0]?.physicalLocation.region).toBeUndefined();
  });
});

describe('chain labels and diffs', () => {
  it('wraps a label whole: long words are split across lines, nothing is cut', () => {
    const lines = wrapAll('download-without-checksum then pipe-to-shell-over-https-everywhere', 12);
    expect(lines.join('').replace(/\s/g, '')).toBe('download-without-checksumthenpipe-to-shell-over-https-everywhere');
    expect(lines.every((l) => l.length <= 12)).toBe(true);
    expect(lines.some((l) => l.includes('…'))).toBe(false);
    expect(wrapAll('Token gets the repository default', 20)).toEqual(['Token gets the', 'repository default']);
  });

  it('classes a unified diff’s lines', () => {
    expect(['--- a/ci.yml', '+++ b/ci.yml', '@@ -1,2 +1,2 @@', '-  uses: a@v1', '+  uses: a@0123', ' on: push'].map(diffLineKind)).toEqual(['meta', 'meta', 'hunk', 'del', 'add', 'ctx']);
  });
});

describe('the scale fixture’s mix of templates', () => {
  it('adds the templates’ attack paths up to the asked number, the rest taking the template without paths', () => {
    expect(mix([3, 2, 0], 1000, 300)).toEqual([100, 0, 900]);
    expect(mix([7, 2, 0], 1000, 300)).toEqual([42, 3, 955]);
    expect(mix([7], 10, 300)).toBeNull();
  });
});
