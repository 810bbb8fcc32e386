import { describe, expect, it } from 'vitest';
import { actionSlug, parseUses, type UsesRef } from '../../../../lib/engine/model/uses.js';

function repository(text: string): Extract<UsesRef, { kind: 'repository' }> {
  const ref = parseUses(text);
  if (ref.kind !== 'repository') throw new Error(`${text} is not a repository reference`);
  return ref;
}

describe('actionSlug', () => {
  it('is owner/repo in lower case, without the sub-path or ref', () => {
    expect(actionSlug(repository('Actions/Checkout@v4'))).toBe('actions/checkout');
    expect(actionSlug(repository('github/codeql-action/upload-sarif@v3'))).toBe('github/codeql-action');
    expect(actionSlug(repository('Org/Repo/.github/workflows/Release.yml@main'))).toBe('org/repo');
  });

  it('answers the same reference the same way every time, and each reference by its own fields', () => {
    const a = repository('Docker/Build-Push-Action@v6');
    const b = repository('docker/login-action@v3');
    expect(actionSlug(a)).toBe('docker/build-push-action');
    expect(actionSlug(b)).toBe('docker/login-action');
    expect(actionSlug(a)).toBe('docker/build-push-action');
    // A reference built by hand (the online audits do) with the same fields as a parsed one.
    expect(actionSlug({ kind: 'repository', owner: 'DOCKER', repo: 'login-action', path: '', ref: 'v3', isWorkflow: false })).toBe('docker/login-action');
  });

  it('lower-cases non-ASCII names as toLowerCase does (the slug is compared, never trusted)', () => {
    expect(actionSlug(repository('ÄCME/Tool@v1'))).toBe('äcme/tool');
  });
});

describe('parseUses', () => {
  it('reads local, docker, repository and invalid references', () => {
    expect(parseUses('./.github/actions/setup')).toEqual({ kind: 'local', path: './.github/actions/setup' });
    expect(parseUses('$/.github/actions/setup@main')).toEqual({ kind: 'local', path: './.github/actions/setup', self: true });
    expect(parseUses('docker://alpine:3.20')).toEqual({ kind: 'docker', image: 'alpine:3.20' });
    expect(parseUses('actions/checkout@v4')).toEqual({ kind: 'repository', owner: 'actions', repo: 'checkout', path: '', ref: 'v4', isWorkflow: false });
    expect(parseUses('o/r/.github/workflows/ci.yml@v1')).toMatchObject({ kind: 'repository', isWorkflow: true });
    expect(parseUses('actions/checkout')).toEqual({ kind: 'invalid', text: 'actions/checkout' });
    expect(parseUses('checkout@v4')).toEqual({ kind: 'invalid', text: 'checkout@v4' });
  });
});
