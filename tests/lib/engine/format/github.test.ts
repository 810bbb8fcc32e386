import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, formatGithub } from '../../../../lib/engine/format/index.js';
import { emptyReport, sampleReport } from './fixture.js';

describe('github format', () => {
  it('escapes data and properties as the runner expects', () => {
    expect(escapeData('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext: a,b');
    expect(escapeProperty('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext%3A a%2Cb');
  });

  const lines = formatGithub(sampleReport()).trimEnd().split('\n');

  it('writes one annotation per finding, HIGH as error, MEDIUM as warning, LOW and INFO as notice', () => {
    expect(lines[0]).toMatch(
      /^::notice file=\.github\/workflows\/ci\.yml,line=3,col=3,title=Job has no timeout \[missing-timeout\]::Job `build` has no `timeout-minutes`; it can run for up to 6 hours\.(%0A.+)?$/,
    );
    // Only properties escape `:` and `,`; the message keeps them.
    expect(lines[1]).toMatch(/^::notice file=\.github\/workflows\/ci\.yml,line=8,col=15,title=Action not pinned to a full commit SHA \[unpinned-action\]::/);
    expect(lines[1]).toContain('::Action `actions/checkout` is referenced by the mutable ref `v4`, with a comma, a colon: and 100%25 certainty.');
    expect(lines[2]).toMatch(/^::error file=\.github\/workflows\/pr-target\.yml,line=1,col=1,title=/);
    expect(lines[3]).toContain('::error file=.github/workflows/pr-target.yml,line=12,col=9,');
    expect(lines[3]).toContain('checks out the pull request head;%0Astep 2 runs `npm test`.');
    expect(lines[4]).toMatch(/^::warning file=\.github\/workflows\/pr-target\.yml,line=12,col=9,/);
  });

  it('annotates settings findings on the run, without a file', () => {
    expect(lines[5]).toMatch(/^::error title=Default workflow token is read-write \[default-token-write\]::The default `GITHUB_TOKEN` is read-write\./);
    expect(lines[6]).toMatch(/^::notice title=/);
  });

  it('adds an error annotation per attack path at its first component in its file', () => {
    expect(lines).toHaveLength(8);
    expect(lines[7]).toMatch(/^::error file=\.github\/workflows\/pr-target\.yml,line=12,col=9,title=CRITICAL attack path%3A Pull request code runs/);
    expect(lines[7]).toContain('Fork code checked out (.github/workflows/pr-target.yml:12) -> ');
    expect(lines[7]).toContain('%0ABreak the chain: ');
  });

  it('puts each command on its own line: no raw newline inside one', () => {
    for (const line of lines) expect(line.startsWith('::')).toBe(true);
    expect(formatGithub(emptyReport())).toBe('');
  });

  it('neutralizes hostile file names and job ids: no control character, no injected workflow command', () => {
    const hostile = sampleReport();
    const evil = 'a\x1b[31m\x07\r\n::add-mask::x,y:z%\x85b';
    for (const r of hostile.records) {
      r.finding.file = `.github/workflows/${evil}.yml`;
      r.finding.description = `Job \`${evil}\` has no timeout`;
    }
    const out = formatGithub(hostile);
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(formatGithub(sampleReport()).trimEnd().split('\n').length);
    // eslint-disable-next-line no-control-regex -- the test looks for control characters
    expect(out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    for (const line of lines) expect(line).toMatch(/^::(error|warning|notice) /);
    // Properties are one line with `:` and `,` escaped; in the data the line break is escaped, so nothing starts a command.
    expect(lines[0]).toContain('file=.github/workflows/a[31m %3A%3Aadd-mask%3A%3Ax%2Cy%3Az%25b.yml');
    expect(lines[0]).toContain('::Job `a[31m%0A::add-mask::x,y:z%25b` has no timeout');
  });
});
