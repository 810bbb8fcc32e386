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
});
