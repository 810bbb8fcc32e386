import { describe, expect, it } from 'vitest';
import { codeOwners } from '../../../lib/engine/codeowners.js';

describe('codeOwners', () => {
  it('reads the users the first CODEOWNERS GitHub would use names, lower-cased, not teams or e-mail addresses', () => {
    const files = [
      { path: 'docs/CODEOWNERS', text: '* @someone-else\n' },
      { path: '.github/CODEOWNERS', text: '# owners\n*       @JC5 @acme/maintainers  # the lead\n/docs/ docs@example.com @Writer-1\n\\#literal @not#a-user\n' },
    ];
    expect([...codeOwners(files)]).toEqual(['jc5', 'writer-1']);
  });

  it('takes the root file before docs/, and nothing from a file the reader could not read or another path', () => {
    expect([...codeOwners([{ path: 'docs/CODEOWNERS', text: '* @docs-owner\n' }, { path: 'CODEOWNERS', text: '* @root-owner\n' }])]).toEqual(['root-owner']);
    expect([...codeOwners([{ path: '.github/CODEOWNERS', text: '', unreadable: 'outside the checkout' }, { path: 'docs/CODEOWNERS', text: '* @docs-owner\n' }])]).toEqual(['docs-owner']);
    expect([...codeOwners([{ path: 'src/CODEOWNERS', text: '* @nested\n' }])]).toEqual([]);
  });

  it('is bounded: a huge file yields at most 200 owners, read from its first 64 KiB', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `/dir${i}/ @user${i}`).join('\n');
    expect(codeOwners([{ path: 'CODEOWNERS', text }]).size).toBe(200);
    const late = `${'#'.repeat(70 * 1024)}\n* @too-late\n`;
    expect(codeOwners([{ path: 'CODEOWNERS', text: late }]).size).toBe(0);
  });
});
