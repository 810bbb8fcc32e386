import { describe, expect, it } from 'vitest';
import { codeUrl, ghApiCommand, settingsUrl } from '../../web/src/data/links.js';

const SHA = 'a'.repeat(40);

describe('links to the code', () => {
  it('links a file and line at the scanned commit, the default branch without one', () => {
    expect(codeUrl('https://github.com/o/r', SHA, '.github/workflows/ci.yml', 12)).toBe(`https://github.com/o/r/blob/${SHA}/.github/workflows/ci.yml#L12`);
    expect(codeUrl('https://github.com/o/r/', undefined, 'action.yml', 0)).toBe('https://github.com/o/r/blob/HEAD/action.yml');
    expect(codeUrl('https://github.com/o/r', 'not-a-sha', 'a.yml', 1)).toBe('https://github.com/o/r/blob/HEAD/a.yml#L1');
  });

  it('keeps a hostile path inside the repository and links nothing but https repositories', () => {
    expect(codeUrl('https://github.com/o/r', SHA, '../../evil/x y#?.yml', 3)).toBe(`https://github.com/o/r/blob/${SHA}/evil/x%20y%23%3F.yml#L3`);
    expect(codeUrl('file:///srv/examples/r', SHA, 'a.yml', 1)).toBeNull();
    expect(codeUrl('javascript:alert(1)', SHA, 'a.yml', 1)).toBeNull();
    expect(codeUrl('https://github.com/o/r', SHA, '<repository settings>', 0)).toBeNull();
  });

  it('links a settings finding to the page its fix is about, and shows the fix as a gh api command', () => {
    expect(settingsUrl('https://github.com/o/r', '/repos/{owner}/{repo}/actions/permissions/workflow')).toBe('https://github.com/o/r/settings/actions');
    expect(settingsUrl('https://github.com/o/r', '/repos/{owner}/{repo}/vulnerability-alerts')).toBe('https://github.com/o/r/settings/security_analysis');
    expect(settingsUrl('https://github.com/o/r', undefined)).toBe('https://github.com/o/r/settings');
    expect(ghApiCommand({ method: 'PUT', path: '/repos/{owner}/{repo}/actions/permissions/workflow', body: { default_workflow_permissions: 'read' } }, 'o/r')).toBe(
      `echo '{"default_workflow_permissions":"read"}' | gh api --method PUT '/repos/o/r/actions/permissions/workflow' --input -`,
    );
    expect(ghApiCommand({ method: 'PUT', path: '/repos/{owner}/{repo}/vulnerability-alerts' }, 'o/r')).toBe(`gh api --method PUT '/repos/o/r/vulnerability-alerts'`);
    // A quote in a value cannot end the shell string.
    expect(ghApiCommand({ method: 'PATCH', path: '/repos/{owner}/{repo}', body: { x: "it's" } }, 'o/r')).toBe(`echo '{"x":"it'\\''s"}' | gh api --method PATCH '/repos/o/r' --input -`);
  });
});
