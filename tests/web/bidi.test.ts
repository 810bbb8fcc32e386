// The web client drops Unicode's bidirectional controls from everything it reads (issue 29): a repository's
// strings (a file name, an expression, a diff) must not make a view show text in another order than it is.

import { describe, expect, it } from 'vitest';
import { Api } from '../../web/src/data/api.js';
import { SupabaseReads, type TableClient } from '../../web/src/data/reads.js';
import { withoutBidi } from '../../web/src/data/text.js';

const HOSTILE = 'run `\u202Eexe.tset\u202C` \u2066isolated\u2069 \u200Fmark';
const CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

describe('withoutBidi', () => {
  it('removes overrides, isolates and marks from strings and keys at any depth, leaving other text alone', () => {
    const cleaned = withoutBidi({ a: [HOSTILE, { [`k\u202E`]: HOSTILE }], n: 1, t: 'héllo — مرحبا', z: null });
    expect(JSON.stringify(cleaned)).not.toMatch(CONTROLS);
    expect(cleaned).toEqual({ a: ['run `exe.tset` isolated mark', { k: 'run `exe.tset` isolated mark' }], n: 1, t: 'héllo — مرحبا', z: null });
  });
});

describe('the client reads no bidirectional control', () => {
  it('from the HTTP API', async () => {
    const api = new Api(
      () => Promise.resolve('token'),
      () => Promise.resolve(new Response(JSON.stringify({ connected: true, repositories: [{ id: 'r', full_name: `org/\u202Erepo`, private: false, html_url: 'https://github.com/org/repo' }] }), { headers: { 'content-type': 'application/json' } })),
    );
    const listing = await api.repos();
    expect(listing.repositories[0]?.full_name).toBe('org/repo');
  });

  it('from the database reads', async () => {
    const query = {
      then: (resolve: (value: { data: Record<string, unknown>[]; error: null }) => unknown) => resolve({ data: [{ installation_id: 1, account_login: `a\u2066b`, account_type: 'User', created_at: '2026-11-28T00:00:00Z' }], error: null }),
    };
    const chain: Record<string, unknown> = {};
    for (const method of ['select', 'eq', 'order', 'limit', 'lt', 'in']) chain[method] = () => Object.assign(Object.create(null) as object, chain, query);
    const client = { from: () => Object.assign(Object.create(null) as object, chain, query) } as unknown as TableClient;
    const reads = new SupabaseReads(client);
    const installations = await reads.installations();
    expect(JSON.stringify(installations)).not.toMatch(CONTROLS);
  });
});
