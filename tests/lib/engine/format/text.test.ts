import { describe, expect, it } from 'vitest';
import { formatText } from '../../../../lib/engine/format/index.js';
import { emptyReport, sampleReport } from './fixture.js';

const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[`);
const SGR = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');

describe('text format', () => {
  const report = sampleReport();
  const plain = formatText(report, { color: false });

  it('groups findings under their file, with line:column, severity, description and rule id', () => {
    expect(plain).toContain(
      [
        '.github/workflows/ci.yml',
        '   3:3  LOW     Job `build` has no `timeout-minutes`; it can run for up to 6 hours. [missing-timeout]',
      ].join('\n'),
    );
    expect(plain).toMatch(/\.github\/workflows\/pr-target\.yml\n\s+1:1\s+HIGH\s+The workflow sets no `permissions:`\. \[missing-permissions\]/);
    expect(plain).toMatch(/<repository settings>\n\s+HIGH\s+The default `GITHUB_TOKEN` is read-write\. \[default-token-write\]/);
    // Each file is listed once.
    expect(plain.split('\n').filter((l) => l === '.github/workflows/pr-target.yml')).toHaveLength(1);
  });

  it('ends with an attack path per combination: severity, title, stages with file:line, impact, the fix', () => {
    const block = plain.slice(plain.indexOf('Attack paths'));
    expect(block).toContain("CRITICAL  Pull request code runs with the base repository's privileges [pwn-request]");
    expect(block).toContain(
      'Fork code checked out (.github/workflows/pr-target.yml:12) -> Token left in .git/config (.github/workflows/pr-target.yml:12) -> Token gets the repository default (.github/workflows/pr-target.yml:1) -> Repository write access or secrets stolen',
    );
    expect(block).toMatch(/Break the chain: At \S+:\d+ \([^)]*\): Check out the base branch in the privileged workflow/);
  });

  it('ends with a summary line', () => {
    expect(plain.trimEnd().split('\n').at(-1)).toBe('7 findings (3 high, 1 medium, 2 low, 1 info); 1 attack path (1 critical, 0 high).');
    expect(formatText(emptyReport(), { color: false })).toBe('No findings.\n');
  });

  it('uses colours only when asked', () => {
    expect(plain).not.toMatch(ANSI);
    const coloured = formatText(report, { color: true });
    expect(coloured).toMatch(ANSI);
    expect(coloured).toContain('\x1b[1;31mHIGH  \x1b[0m');
    expect(coloured.replace(SGR, '')).toBe(plain);
  });

  it('shows a settings location without a line', () => {
    const report = sampleReport();
    report.combinations = [];
    expect(formatText(report, { color: false })).not.toContain('<repository settings>:0');
  });

  it('shows the recommendation and the documentation link under each finding', () => {
    const text = formatText(report, { color: false, docUrl: (id) => `https://docs.example/rules/${id}` });
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('[missing-timeout]'));
    expect(lines[at + 1]).toMatch(/^\s+Fix: \S/);
    expect(lines[at + 2]).toMatch(/^\s+Docs: https:\/\/docs\.example\/rules\/missing-timeout$/);
  });

  it('ends with a summary table: attack paths first, then rules with counts per severity', () => {
    const table = plain.slice(plain.indexOf('SUMMARY'));
    const rows = table.split('\n');
    expect(rows[0]).toMatch(/^SUMMARY\s+CRITICAL\s+HIGH\s+MEDIUM\s+LOW\s+INFO$/);
    expect(rows[1]).toMatch(/^attack path pwn-request\s+1$/);
    expect(rows.slice(2).some((r) => /^missing-timeout\s+1$/.test(r))).toBe(true);
  });

  it('says what it left out: suppressed, baselined and below the minimum severity, and unused suppressions', () => {
    const text = formatText(
      { ...emptyReport(), suppressed: 2, baselined: 3, belowMinimum: 1, unusedSuppressions: [{ file: '.github/workflows/ci.yml', line: 4, rules: ['missing-timeout'] }] },
      { color: false },
    );
    expect(text).toContain('Unused suppression comment:\n  .github/workflows/ci.yml:4  ignore[missing-timeout] (matched no finding)');
    expect(text.trimEnd().split('\n').at(-1)).toBe('No findings. Not shown: 2 suppressed, 3 in the baseline, 1 below --min-severity.');
  });

  it('strips control characters from hostile file names, job ids and descriptions', () => {
    const hostile = sampleReport();
    const evil = `x\x1b[2J\x07\r\x9b31m::error::owned\ny`;
    for (const r of hostile.records) {
      r.finding.file = `.github/workflows/${evil}.yml`;
      r.finding.description = `Job \`${evil}\` has no timeout`;
    }
    const text = formatText(hostile, { color: false });
    // eslint-disable-next-line no-control-regex -- the test looks for control characters
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(text).toContain('x[2J31m::error::owned y');
    expect(text.split('\n').some((l) => l.startsWith('::'))).toBe(false);
  });
});
