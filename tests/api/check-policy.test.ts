// GET/PUT /api/installations/{installation_id}/check-policy: whether a new HIGH finding or attack path fails
// the installation's pull request checks (default on); set only by a user who linked the installation itself.

import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDatabase } from '../../lib/db/connection.js';
import { installationCheckPolicy, linkInstallation, syncMemberInstallations } from '../../lib/db/operations.js';
import { bearer } from '../support/auth.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest, dispatch, errorOf } from '../support/http.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
afterAll(async () => t.close());

const path = (id: number) => `/api/installations/${id}/check-policy`;
const get = async (id: number, authorization?: string) => dispatch(await apiRequest('GET', path(id), authorization === undefined ? {} : { authorization }));
const put = async (id: number, body: unknown, authorization: string) => dispatch(await apiRequest('PUT', path(id), { authorization, body }));

describe('the installation check policy', () => {
  it('is on by default; the user who linked the installation turns it off and on, for every user of it', async () => {
    const installationId = randomInt(1, 2 ** 40);
    const owner = await t.createUser();
    await linkInstallation(t.db, owner, { installationId, accountLogin: 'acme', accountType: 'Organization' });
    const authorization = await bearer(owner);
    const first = await get(installationId, authorization);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ fail_on_high: true });
    const off = await put(installationId, { fail_on_high: false }, authorization);
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ fail_on_high: false });
    expect(await (await get(installationId, authorization)).json()).toEqual({ fail_on_high: false });
    expect(await installationCheckPolicy(t.db, installationId)).toEqual({ fail_on_high: false });
    expect((await put(installationId, { fail_on_high: true }, authorization)).status).toBe(200);
    expect(await installationCheckPolicy(t.db, installationId)).toEqual({ fail_on_high: true });
  });

  it('is 404 for an installation the user has not linked, and a member reads it but may not set it', async () => {
    const installationId = randomInt(1, 2 ** 40);
    const owner = await t.createUser();
    await linkInstallation(t.db, owner, { installationId, accountLogin: 'acme', accountType: 'Organization' });
    const stranger = await bearer(await t.createUser());
    expect((await get(installationId, stranger)).status).toBe(404);
    expect((await put(installationId, { fail_on_high: false }, stranger)).status).toBe(404);
    const memberId = await t.createUser();
    await syncMemberInstallations(t.db, memberId, String(randomInt(1, 2 ** 40)), [{ installation_id: installationId, account_login: 'acme', account_type: 'Organization' }]);
    const member = await bearer(memberId);
    expect((await get(installationId, member)).status).toBe(200);
    const refused = await put(installationId, { fail_on_high: false }, member);
    expect(refused.status).toBe(404);
    expect(await installationCheckPolicy(t.db, installationId)).toEqual({ fail_on_high: true });
  });

  it('refuses a body that is not {fail_on_high: boolean} (400) and a request without a token (401)', async () => {
    const installationId = randomInt(1, 2 ** 40);
    const owner = await t.createUser();
    await linkInstallation(t.db, owner, { installationId, accountLogin: 'acme', accountType: 'Organization' });
    const authorization = await bearer(owner);
    for (const body of [{ fail_on_high: 'no' }, {}, { fail_on_high: true, extra: 1 }, [true]]) {
      const response = await put(installationId, body, authorization);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).code).toBe('invalid_request');
    }
    expect((await get(installationId)).status).toBe(401);
    expect((await get(0, authorization)).status).toBe(404);
  });
});
