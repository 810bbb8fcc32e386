import { describe, expect, it } from 'vitest';
import { GET, OPTIONS } from '../../api/health.js';
import { apiRequest } from '../support/http.js';

describe('GET /api/health', () => {
  it('answers ok without a token, with a request id and no cache restriction', async () => {
    const response = await GET(await apiRequest('GET', '/api/health'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(response.headers.get('cache-control')).toBeNull();
  });

  it('ignores a token, even a bad one', async () => {
    const response = await GET(await apiRequest('GET', '/api/health', { authorization: 'Bearer garbage' }));
    expect(response.status).toBe(200);
  });

  it('answers OPTIONS with Allow', async () => {
    const response = await OPTIONS(await apiRequest('OPTIONS', '/api/health'));
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, OPTIONS');
  });
});
