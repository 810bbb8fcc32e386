import { describe, expect, it } from 'vitest';
import { parseUses, type UsesRef } from '../../../../lib/engine/model/uses.js';

function repository(text: string): Extract<UsesRef, { kind: 'repository' }> {
  const ref = parseUses(text);
  if (ref.kind !== 'repository') throw new Error(`${text} is not a repository reference`);
  return ref;
}

describe('UsesRef.slug', () => {
  it('is owner/repo in lower case, without the sub-path or ref', () => {
    expect(repository('Actions/Checkout@v4').slug).toBe('actions/checkout');
    expect(repository('github/codeql-action/upload-sarif@v3').slug).toBe('github/codeql-action');
    expect(repository('Org/Repo/.github/workflows/Release.yml@main').slug).toBe('org/repo');
  });

  it('belongs to each reference by its own fields', () => {
    const a = repository('Docker/Build-Push-Action@v6');
    const b = repository('docker/login-action@v3');
    expect(a.slug).toBe('docker/build-push-action');
    expect(b.slug).toBe('docker/login-action');
    expect(a.owner).toBe('Docker');
  });

  it('lower-cases non-ASCII names as toLowerCase does (the slug is compared, never trusted)', () => {
    expect(repository('ÄCME/Tool@v1').slug).toBe('äcme/tool');
  });

  it('is absent from local, docker and invalid references', () => {
    expect(parseUses('./a')).not.toHaveProperty('slug');
    expect(parseUses('docker://alpine:3.20')).not.toHaveProperty('slug');
    expect(parseUses('checkout@v4')).not.toHaveProperty('slug');
  });
});

describe('parseUses', () => {
  it('reads local, docker, repository and invalid references', () => {
    expect(parseUses('./.github/actions/setup')).toEqual({ kind: 'local', path: './.github/actions/setup' });
    expect(parseUses('$/.github/actions/setup@main')).toEqual({ kind: 'local', path: './.github/actions/setup', self: true });
    expect(parseUses('docker://alpine:3.20')).toEqual({ kind: 'docker', image: 'alpine:3.20' });
    expect(parseUses('actions/checkout@v4')).toEqual({ kind: 'repository', owner: 'actions', repo: 'checkout', path: '', ref: 'v4', isWorkflow: false, slug: 'actions/checkout' });
    expect(parseUses('o/r/.github/workflows/ci.yml@v1')).toMatchObject({ kind: 'repository', isWorkflow: true });
    expect(parseUses('actions/checkout')).toEqual({ kind: 'invalid', text: 'actions/checkout' });
    expect(parseUses('checkout@v4')).toEqual({ kind: 'invalid', text: 'checkout@v4' });
  });
});
