// GET /api/repos with a scripted code host: what is listed, synced and returned, and what a failing or
// uninstalled installation does. (The paginated GitHub listing is in github.test.ts, the local one in flow.)

import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET } from '../../api/repos.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { CodeHostError, type HostedRepository } from '../../lib/codehost/port.js';
import { useDatabase } from '../../lib/db/connection.js';
import { linkInstallation } from '../../lib/db/operations.js';
import { bearer } from '../support/auth.js';
import { githubUser, ScriptedCodeHost } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest, errorOf } from '../support/http.js';

let t: TestDatabase;
let host: ScriptedCodeHost;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
beforeEach(() => {
  host = new ScriptedCodeHost();
  useCodeHost(host);
});
afterAll(async () => t.close());

type Listing = { connected: boolean; repositories: { id: string; full_name: string; private: boolean; html_url: string }[] };

function hosted(installationId: number, name: string, overrides: Partial<HostedRepository> = {}): HostedRepository {
  return {
    githubId: randomInt(1, 2 ** 47),
    installationId,
    fullName: name,
    private: false,
    htmlUrl: `https://github.com/${name}`,
    defaultBranch: 'main',
    ...overrides,
  };
}

/** A user (with a GitHub identity) who owns organizations and linked their installations (ids fresh per user). */
async function userWith(count: number): Promise<{ userId: string; authorization: string; installations: number[] }> {
  const { userId, account } = await githubUser(t);
  const installations = Array.from({ length: count }, () => randomInt(1, 2 ** 40));
  for (const installationId of installations) {
    await linkInstallation(t.db, userId, { installationId, accountLogin: `org-${installationId}`, accountType: 'Organization' });
    host.owners[`org-${installationId}`] = [account.login];
  }
  return { userId, authorization: await bearer(userId), installations };
}

async function list(authorization: string): Promise<Listing> {
  const response = await GET(await apiRequest('GET', '/api/repos', { authorization }));
  expect(response.status).toBe(200);
  return (await response.json()) as Listing;
}

async function storedCount(userId: string): Promise<number> {
  const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.repositories where user_id = $1', [userId]);
  return row?.n ?? -1;
}

describe('GET /api/repos (2)', () => {
  it('is not connected without an installation, and asks the code host nothing', async () => {
    const { authorization } = await userWith(0);
    expect(await list(authorization)).toEqual({ connected: false, repositories: [] });
    expect(host.calls).toEqual([]);
  });

  it('is connected with no repositories when the installations have none', async () => {
    const { authorization, userId } = await userWith(2);
    expect(await list(authorization)).toEqual({ connected: true, repositories: [] });
    expect(await storedCount(userId)).toBe(0);
  });

  it('returns the stored rows of every installation by full name, with ids that survive a rename', async () => {
    const { authorization, installations } = await userWith(2);
    const [a = 0, b = 0] = installations;
    host.repositories = [hosted(b, 'zeta/api', { private: true }), hosted(a, 'alpha/web'), hosted(b, 'zeta/cli')];
    const first = await list(authorization);
    expect(first.repositories.map((r) => r.full_name)).toEqual(['alpha/web', 'zeta/api', 'zeta/cli']);
    expect(first.repositories[1]).toEqual({ id: expect.any(String), full_name: 'zeta/api', private: true, html_url: 'https://github.com/zeta/api' });

    const renamed = host.repositories[0];
    if (renamed !== undefined) Object.assign(renamed, { fullName: 'zeta/api-v2', htmlUrl: 'https://github.com/zeta/api-v2' });
    const second = await list(authorization);
    expect(second.repositories.find((r) => r.full_name === 'zeta/api-v2')?.id).toBe(first.repositories[1]?.id);
    expect(second.repositories.map((r) => r.id).sort()).toEqual(first.repositories.map((r) => r.id).sort());
  });

  it('still lists the other installations when one was uninstalled', async () => {
    const { authorization, installations } = await userWith(2);
    const [gone = 0, kept = 0] = installations;
    host.repositories = [hosted(gone, 'gone/repo'), hosted(kept, 'kept/repo')];
    const original = host.listRepositories.bind(host);
    host.listRepositories = async (ids) => {
      if (ids.includes(gone)) throw new CodeHostError('not_found', `installation ${gone}: 404 Not Found`);
      return original(ids);
    };
    expect((await list(authorization)).repositories.map((r) => r.full_name)).toEqual(['kept/repo']);
  });

  it('answers 502/503 when an installation cannot be listed, and stores nothing', async () => {
    const { authorization, userId, installations } = await userWith(2);
    const [failing = 0, fine = 0] = installations;
    host.repositories = [hosted(failing, 'a/one'), hosted(fine, 'b/two')];
    const original = host.listRepositories.bind(host);
    host.listRepositories = async (ids) => {
      if (ids.includes(failing)) throw new CodeHostError('unavailable', 'GitHub answered 502');
      return original(ids);
    };
    const response = await GET(await apiRequest('GET', '/api/repos', { authorization }));
    expect(response.status).toBe(502);
    expect((await errorOf(response)).code).toBe('upstream_unavailable');
    expect(await storedCount(userId)).toBe(0);
  });
});
