import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { GET } from '../../api/rules.js';
import { RulesResponse } from '../../lib/api/schemas.js';
import { CATALOG } from '../../lib/engine/catalog.js';
import { bearer } from '../support/auth.js';
import { apiRequest, errorOf } from '../support/http.js';

describe('GET /api/rules', () => {
  it('returns the static catalog in the documented shape', async () => {
    const response = await GET(await apiRequest('GET', '/api/rules', { authorization: await bearer(randomUUID()) }));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { rules: { id: string }[] };
    expect(v.is(RulesResponse, body)).toBe(true);
    expect(body.rules.map((rule) => rule.id)).toEqual(CATALOG.map((rule) => rule.id));
    expect(body.rules.length).toBeGreaterThan(10);
  });

  it('requires a token', async () => {
    const response = await GET(await apiRequest('GET', '/api/rules'));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect((await errorOf(response)).code).toBe('unauthorized');
  });
});
