// The one endpoint GitHub calls: hostile deliveries against POST /api/github/webhooks through the router.
// Without a valid signature nothing is read, claimed or changed (401); an oversized body is 413; a signed
// delivery of any event never answers 5xx; a burst of the same delivery is acted on once.

import { App } from '@octokit/app';
import { createHmac, randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { linkInstallation } from '../../lib/db/operations.js';
import { useWebhookVerifier } from '../../lib/services/webhooks.js';
import { examplesCodeHost, githubUser } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { testAppCredentials } from '../support/github/index.js';
import { countingDatabase, expectErrorBody, send } from './support.js';

const SECRET = 'hardening-webhook-secret';
let t: TestDatabase;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  useCodeHost(examplesCodeHost());
  const { appId, privateKey } = testAppCredentials();
  useWebhookVerifier(new App({ appId, privateKey, webhooks: { secret: SECRET } }).webhooks);
});
afterAll(async () => t.close());

const sign = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
const headers = (event: string, body: string, extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  'x-github-event': event,
  'x-github-delivery': randomUUID(),
  'x-hub-signature-256': sign(body),
  ...extra,
});

describe('POST /api/github/webhooks under attack', () => {
  it('reaches no database function without a valid signature, whatever the body', async () => {
    const db = countingDatabase(t.db);
    useDatabase(db);
    try {
      const bodies = ['{"action":"deleted","installation":{"id":1}}', '[]', 'null', '{"__proto__":{"polluted":true}}', 'x'.repeat(100_000)];
      for (const body of bodies) {
        for (const signature of [undefined, '', 'sha256=', `sha256=${'0'.repeat(64)}`, sign(`${body} `), `SHA256=${sign(body).slice(7).toUpperCase()}x`]) {
          const h: Record<string, string> = headers('installation', body);
          if (signature === undefined) delete h['x-hub-signature-256'];
          else h['x-hub-signature-256'] = signature;
          const response = await send('POST', '/api/github/webhooks', { body, headers: h });
          expect(response.status).toBe(401);
          await expectErrorBody(response, 'unauthorized');
        }
      }
    } finally {
      useDatabase(t.db);
    }
    expect(db.calls).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers 413 past its body limit, declared or not, before verifying anything', async () => {
    const body = 'x'.repeat(5 * 1024 * 1024 + 1);
    const response = await send('POST', '/api/github/webhooks', { body, headers: headers('installation', '') });
    expect(response.status).toBe(413);
  });

  it('answers a signed delivery of any shape with 204 or 400, never a 5xx', async () => {
    const payloads: [string, unknown][] = [
      ['installation', { action: 'deleted' }],
      ['installation', { action: 'deleted', installation: { id: -1 } }],
      ['installation', { action: 'deleted', installation: { id: 2 ** 60 } }],
      ['installation_repositories', { action: 'removed', installation: { id: 1 }, repositories_removed: [{ id: 'x' }] }],
      ['installation_repositories', { action: 'removed', installation: { id: 1 }, repositories_removed: 'all' }],
      ['organization', { action: 'member_removed', organization: { login: '' }, membership: { user: { id: 1 } } }],
      ['organization', { action: 'member_removed', organization: { login: 'o' }, membership: { user: null } }],
      ['meta', { action: 'deleted' }],
      ['installation', [1, 2, 3]],
      ['installation', 'text'],
    ];
    for (const [event, payload] of payloads) {
      const body = JSON.stringify(payload);
      const response = await send('POST', '/api/github/webhooks', { body, headers: headers(event, body) });
      expect([204, 400], `${event} ${body}`).toContain(response.status);
      if (response.status === 400) await expectErrorBody(response, 'invalid_request');
    }
  });

  it('acts once on ten concurrent copies of the same delivery', async () => {
    const { userId, account } = await githubUser(t);
    const installationId = randomInt(1, 2 ** 40);
    await linkInstallation(t.db, userId, { installationId, accountLogin: 'o', accountType: 'Organization', githubUserId: account.id });
    const body = JSON.stringify({ action: 'suspend', installation: { id: installationId, account: { login: 'o', id: 5, type: 'Organization' } }, sender: { login: 'o-owner', id: 6 } });
    const h = headers('installation', body);
    const statuses = await Promise.all(Array.from({ length: 10 }, () => send('POST', '/api/github/webhooks', { body, headers: h }).then((r) => r.status)));
    expect(statuses).toEqual(Array(10).fill(204));
    const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.webhook_deliveries where delivery_id = $1', [h['x-github-delivery']]);
    expect(row!.n).toBe(1);
    const [state] = await t.query<{ n: number }>('select count(*)::int as n from public.suspended_installations where installation_id = $1', [installationId]);
    expect(state!.n).toBe(1);
  });
});
