import { describe, expect, it } from 'vitest';
import { classifyPath } from '../../../lib/engine/paths.js';
import { classifyPath as fromScan } from '../../../lib/engine/scan.js';

describe('classifyPath', () => {
  it('reads workflows, dependabot config and action definitions', () => {
    expect(classifyPath('.github/workflows/ci.yml')).toBe('workflow');
    expect(classifyPath('.github/workflows/release.yaml')).toBe('workflow');
    expect(classifyPath('.github/dependabot.yml')).toBe('dependabot');
    expect(classifyPath('action.yml')).toBe('action');
    expect(classifyPath('.github/actions/setup/action.yaml')).toBe('action');
  });

  it('ignores everything else, nested workflow folders included', () => {
    expect(classifyPath('.github/workflows/sub/ci.yml')).toBeNull();
    expect(classifyPath('docs/.github/workflows/ci.yml')).toBeNull();
    expect(classifyPath('.github/workflows/ci.json')).toBeNull();
    expect(classifyPath('myaction.yml')).toBeNull();
    expect(classifyPath('README.md')).toBeNull();
  });

  it('is the function scan.ts exports', () => {
    expect(fromScan).toBe(classifyPath);
  });
});
