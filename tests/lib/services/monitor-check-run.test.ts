// What a pull request's check run says (lib/services/monitor/check-run.ts): the comparison by fingerprint,
// the conclusion, and a repository's hostile strings made inert wherever GitHub renders them.

import { describe, expect, it } from 'vitest';
import type { StoredFinding } from '../../../lib/db/types.js';
import { checkRunOutput, code, markdown, MAX_ANNOTATIONS, plain } from '../../../lib/services/monitor/check-run.js';

let n = 0;
function finding(over: Partial<StoredFinding> = {}): StoredFinding {
  n += 1;
  return {
    file: '.github/workflows/ci.yml',
    line: 10,
    column: 3,
    severity: 'HIGH',
    category: 'INJECT-1',
    rule_id: 'script-injection',
    title: 'Script injection',
    description: 'Attacker-controlled text reaches a shell.',
    recommendation: 'Pass it through an environment variable.',
    job: 'build',
    fingerprint: `fp-${n}`,
    ...over,
  };
}
const input = (head: StoredFinding[], base: StoredFinding[], failOnHigh = true) => ({ head, base, headPaths: [], basePaths: [], failOnHigh, baseSha: 'b'.repeat(40) });

describe('checkRunOutput', () => {
  it('annotates only findings above LOW whose fingerprint the base does not have; a new HIGH fails the check', () => {
    const kept = finding({ severity: 'HIGH' });
    const added = finding({ severity: 'MEDIUM', line: 4 });
    const low = finding({ severity: 'LOW' });
    const out = checkRunOutput(input([kept, added, low], [{ ...kept, line: 99 }]));
    expect(out.newFindings).toEqual([added]);
    expect(out.annotations).toEqual([expect.objectContaining({ path: '.github/workflows/ci.yml', start_line: 4, end_line: 4, annotation_level: 'warning' })]);
    expect(out.conclusion).toBe('success');
    expect(checkRunOutput(input([finding()], [])).conclusion).toBe('failure');
    expect(checkRunOutput(input([finding()], [], false)).conclusion).toBe('success');
  });

  it('is neutral when a scan met a bound and nothing new blocks; a new HIGH still fails', () => {
    const limit = finding({ severity: 'INFO', rule_id: 'scan-limit-reached' });
    expect(checkRunOutput(input([limit], [])).conclusion).toBe('neutral');
    expect(checkRunOutput(input([limit, finding()], [])).conclusion).toBe('failure');
    expect(checkRunOutput(input([finding({ severity: 'MEDIUM' })], [limit])).conclusion).toBe('neutral');
  });

  it('a new MEDIUM attack path (someone else\'s code on a tag) is listed but does not fail the check; a HIGH one does', () => {
    const path = (severity: 'HIGH' | 'MEDIUM', fingerprint: string) => ({
      id: 'mutable-action-secret-theft',
      title: 'Mutable third-party action in a job with secrets',
      severity,
      scope: 'file' as const,
      file: '.github/workflows/release.yml',
      impact: 'Secrets stolen through the action.',
      break_chain: 'Pin the action to a full commit SHA.',
      break_chain_rule: 'unpinned-action',
      stages: [],
      components: [],
      fingerprint,
    });
    const withPaths = (headPaths: ReturnType<typeof path>[]) => ({ ...input([], []), headPaths });
    const medium = checkRunOutput(withPaths([path('MEDIUM', 'p1')]));
    expect(medium.conclusion).toBe('success');
    expect(medium.summary).toContain('- **MEDIUM** ');
    expect(checkRunOutput(withPaths([path('MEDIUM', 'p1'), path('HIGH', 'p2')])).conclusion).toBe('failure');
  });

  it('does not annotate settings findings (no file in the repository) and bounds the annotations', () => {
    const settings = finding({ file: '<repository settings>', line: 0 });
    const many = Array.from({ length: MAX_ANNOTATIONS + 5 }, (_, i) => finding({ line: i + 1 }));
    const out = checkRunOutput(input([settings, ...many], []));
    expect(out.annotations).toHaveLength(MAX_ANNOTATIONS);
    expect(out.annotations.some((a) => a.path.startsWith('<'))).toBe(false);
    expect(out.summary).toContain(`6 of them are not annotated`);
  });

  it("escapes a repository's strings in the summary: no link, image, HTML or mention survives", () => {
    const hostile = finding({ file: '.github/workflows/`x`|y.yml', title: 'Hi @acme/admins [click](https://evil.example) <img src=x onerror=alert(1)> ![i](https://evil.example/p.png)\u202e' });
    const { summary, annotations } = checkRunOutput(input([hostile], []));
    expect(summary).not.toMatch(/@acme/);
    expect(summary).not.toMatch(/<img/);
    expect(summary).not.toMatch(/\]\(https/);
    expect(summary).not.toContain('\u202e');
    expect(summary).toContain("`.github/workflows/'x''y.yml`");
    expect(annotations[0]?.title.startsWith('HIGH: Hi @acme')).toBe(true);
    expect(annotations[0]?.title).not.toContain('\u202e');
  });
});

describe('text helpers', () => {
  it('bound and clean', () => {
    expect(plain('a\u0007b\u001b[31m\nc', 100)).toBe('ab[31m c');
    expect(plain('one\r\ntwo\u0000', 100, true)).toBe('one\ntwo');
    expect(plain('x'.repeat(300), 255)).toHaveLength(255);
    expect(markdown('*bold* _i_ # h', 100)).toBe('\\*bold\\* \\_i\\_ \\# h');
    expect(markdown('a&b', 100)).toBe('a&amp;b');
    expect(code('a`b|c', 100)).toBe("a'b'c");
  });
});
