import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCheckoutAction, parseUses, type UsesRef } from '../../../../lib/engine/model/uses.js';

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

  it('is not set on local, docker and invalid references', () => {
    const slug = (ref: UsesRef) => (ref as { slug?: string }).slug;
    expect(slug(parseUses('./a'))).toBeUndefined();
    expect(slug(parseUses('docker://alpine:3.20'))).toBeUndefined();
    expect(slug(parseUses('checkout@v4'))).toBeUndefined();
  });
});

// parseUses as first written (split on `/`, one object literal per kind), for the comparison below.
function reference(text: string): Record<string, unknown> {
  const value = text.trim();
  const self = /^\$\/([^@]*)(?:@.*)?$/.exec(value);
  if (self !== null) return { kind: 'local', path: `./${self[1] ?? ''}`, self: true };
  if (value.startsWith('./') || value.startsWith('../') || value === '.') return { kind: 'local', path: value };
  if (value.startsWith('docker://')) return { kind: 'docker', image: value.slice('docker://'.length) };
  const at = value.lastIndexOf('@');
  if (at <= 0) return { kind: 'invalid', text: value };
  const target = value.slice(0, at);
  const ref = value.slice(at + 1);
  const parts = target.split('/');
  const owner = parts[0] ?? '';
  const repo = parts[1] ?? '';
  if (owner === '' || repo === '' || ref === '') return { kind: 'invalid', text: value };
  const path = parts.slice(2).join('/');
  const isWorkflow = /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(path);
  return { kind: 'repository', owner, repo, path, ref, isWorkflow, slug: `${owner}/${repo}`.toLowerCase() };
}

/** The fields that are set (the others are undefined: every reference has every kind's fields). */
function setFields(ref: UsesRef): Record<string, unknown> {
  return Object.fromEntries(Object.entries(ref).filter(([, v]) => v !== undefined));
}

describe('parseUses, one shape for every kind', () => {
  it('gives every reference the same fields, in the same order', () => {
    const keys = Object.keys(parseUses('actions/checkout@v4'));
    for (const text of ['./a', '$/a@main', 'docker://alpine', 'checkout@v4', 'o/r/.github/workflows/x.yml@v1']) expect(Object.keys(parseUses(text))).toEqual(keys);
  });

  it('sets the same fields to the same values as splitting on slashes', () => {
    const part = fc.constantFrom('', 'a', 'Org', '.', '..', '.github', 'workflows', 'ci.yml', 'x@y', ' ', '$', 'docker:');
    const text = fc.array(fc.oneof(part, fc.constantFrom('/', '@', '//', './', '$/', 'docker://')), { maxLength: 10 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(text, fc.string()), (t) => {
        expect(setFields(parseUses(t))).toEqual(reference(t));
      }),
      { numRuns: 5000 },
    );
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

  it('reads a copy of actions/checkout kept under another owner as a checkout, and nothing else named like it', () => {
    expect(isCheckoutAction(parseUses('actions/checkout@v4'))).toBe(true);
    expect(isCheckoutAction(parseUses('my-org/checkout@0123456789abcdef0123456789abcdef01234567'))).toBe(true);
    expect(isCheckoutAction(parseUses('My-Org/Checkout@v4'))).toBe(true);
    // Another action kept in such a repository, a differently named action, a workflow, a local action.
    expect(isCheckoutAction(parseUses('my-org/checkout/sparse@v1'))).toBe(false);
    expect(isCheckoutAction(parseUses('my-org/checkout-tools@v1'))).toBe(false);
    expect(isCheckoutAction(parseUses('actions/checkout-extra@v1'))).toBe(false);
    expect(isCheckoutAction(parseUses('./checkout'))).toBe(false);
    expect(isCheckoutAction(undefined)).toBe(false);
  });
});
