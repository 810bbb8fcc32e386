// POST /api/github/webhooks: verified with X-Hub-Signature-256 through @octokit/app's webhooks (401 and
// nothing done without a valid signature), each delivery acted on once, and the events that make links
// follow GitHub: installation deleted / suspend / unsuspend, installation_repositories removed, organization
// member_removed.

import { App } from '@octokit/app';
import { createHmac, randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST } from '../../api/github/webhooks.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { linkInstallation, syncRepositories } from '../../lib/db/operations.js';
import { useWebhookVerifier } from '../../lib/services/webhooks.js';
import { githubUser, ScriptedCodeHost } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { testAppCredentials } from '../support/github/index.js';
import { apiRequest, errorOf } from '../support/http.js';

const SECRET = 'webhook-secret-for-the-tests';
let t: TestDatabase;

let host: ScriptedCodeHost;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
beforeEach(() => {
  host = new ScriptedCodeHost();
  useCodeHost(host);
  const { appId, privateKey } = testAppCredentials();
  useWebhookVerifier(new App({ appId, privateKey, webhooks: { secret: SECRET } }).webhooks);
});
afterAll(async () => t.close());

const sign = (body: string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

async function deliver(event: string, payload: unknown, options: { signature?: string | null; delivery?: string; body?: string } = {}): Promise<Response> {
  const body = options.body ?? JSON.stringify(payload);
  const headers: Record<string, string> = { 'x-github-event': event, 'x-github-delivery': options.delivery ?? randomUUID() };
  const signature = options.signature === undefined ? sign(body) : options.signature;
  if (signature !== null) headers['x-hub-signature-256'] = signature;
  return POST(await apiRequest('POST', '/api/github/webhooks', { body, headers }));
}

/** `users` GitHub users who each linked the same organization installation and synced its repositories. */
async function linked(users = 2, repositories = 3) {
  const installationId = randomInt(1, 2 ** 40);
  const org = `org-${installationId}`;
  const githubIds = Array.from({ length: repositories }, () => randomInt(1, 2 ** 47));
  const members = [];
  for (let i = 0; i < users; i += 1) {
    const { userId, account } = await githubUser(t);
    await linkInstallation(t.db, userId, { installationId, accountLogin: org, accountType: 'Organization', githubUserId: account.id });
    await syncRepositories(
      t.db,
      userId,
      githubIds.map((githubId, n) => ({ github_id: githubId, installation_id: installationId, full_name: `${org}/r${n}`, private: true, html_url: `https://github.com/${org}/r${n}`, default_branch: 'main' })),
    );
    members.push({ userId, account });
  }
  return { installationId, org, githubIds, members };
}

async function counts(userId: string): Promise<{ installations: number; repositories: number }> {
  const [row] = await t.query<{ installations: number; repositories: number }>(
    `select (select count(*)::int from public.installations where user_id = $1) as installations,
            (select count(*)::int from public.repositories where user_id = $1) as repositories`,
    [userId],
  );
  return row!;
}

async function suspended(installationId: number): Promise<boolean> {
  const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.suspended_installations where installation_id = $1', [installationId]);
  return row!.n === 1;
}

const installationEvent = (action: string, installationId: number) => ({ action, installation: { id: installationId, account: { login: 'x', id: 1, type: 'Organization' } }, sender: { login: 'x', id: 1 } });

describe('POST /api/github/webhooks: the signature', () => {
  it('answers 401 and does nothing without a valid X-Hub-Signature-256', async () => {
    const { installationId, members } = await linked(1);
    const payload = installationEvent('deleted', installationId);
    const body = JSON.stringify(payload);
    const forgeries: [string, { signature?: string | null; body?: string }][] = [
      ['missing', { signature: null }],
      ['empty', { signature: '' }],
      ['another secret', { signature: sign(body, 'not-the-secret') }],
      ['the body changed after signing', { signature: sign(body), body: body.replace('deleted', 'deleted ') }],
      ['sha1 instead of sha256', { signature: `sha1=${createHmac('sha1', SECRET).update(body).digest('hex')}` }],
      ['truncated', { signature: sign(body).slice(0, 40) }],
      ['not hex', { signature: `sha256=${'z'.repeat(64)}` }],
    ];
    for (const [what, options] of forgeries) {
      const response = await deliver('installation', payload, options);
      expect(response.status, what).toBe(401);
      expect((await errorOf(response)).code, what).toBe('unauthorized');
    }
    expect(await counts(members[0]!.userId)).toEqual({ installations: 1, repositories: 3 });
    const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.webhook_deliveries');
    const before = row!.n;
    expect((await deliver('installation', payload, { signature: null })).status).toBe(401);
    const [after] = await t.query<{ n: number }>('select count(*)::int as n from public.webhook_deliveries');
    expect(after!.n).toBe(before);
  });

  it('refuses everything when no secret is configured', async () => {
    useWebhookVerifier(null);
    const { installationId, members } = await linked(1);
    const response = await deliver('installation', installationEvent('deleted', installationId));
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toContain('GITHUB_WEBHOOK_SECRET');
    expect(await counts(members[0]!.userId)).toEqual({ installations: 1, repositories: 3 });
  });

  it('answers 400 for a signed delivery without a delivery id or with a payload that is not GitHub’s shape', async () => {
    const { installationId } = await linked(1);
    expect((await deliver('installation', installationEvent('deleted', installationId), { delivery: 'bad id!' })).status).toBe(400);
    expect((await deliver('installation', { action: 'deleted', installation: { id: 'x' } })).status).toBe(400);
    expect((await deliver('installation', null, { body: 'not json' })).status).toBe(400);
  });
});

describe('POST /api/github/webhooks: the events', () => {
  it('installation deleted: every user’s link goes, with its repositories; the same delivery again does nothing more', async () => {
    const { installationId, members } = await linked(2);
    const bystander = await linked(1);
    const delivery = randomUUID();
    const response = await deliver('installation', installationEvent('deleted', installationId), { delivery });
    expect(response.status).toBe(204);
    for (const { userId } of members) expect(await counts(userId)).toEqual({ installations: 0, repositories: 0 });
    expect(await counts(bystander.members[0]!.userId)).toEqual({ installations: 1, repositories: 3 });

    // Handled once: a redelivery of the same id is accepted and ignored (relinking in between is kept).
    const again = members[0]!;
    await linkInstallation(t.db, again.userId, { installationId, accountLogin: 'x', accountType: 'Organization', githubUserId: again.account.id });
    expect((await deliver('installation', installationEvent('deleted', installationId), { delivery })).status).toBe(204);
    expect((await counts(again.userId)).installations).toBe(1);
  });

  it('installation suspend and unsuspend', async () => {
    const { installationId, members } = await linked(1);
    expect((await deliver('installation', installationEvent('suspend', installationId))).status).toBe(204);
    expect(await suspended(installationId)).toBe(true);
    expect(await counts(members[0]!.userId)).toEqual({ installations: 1, repositories: 3 });
    expect((await deliver('installation', installationEvent('unsuspend', installationId))).status).toBe(204);
    expect(await suspended(installationId)).toBe(false);
  });

  it('installation_repositories removed: those repositories go for every linked user, the others stay', async () => {
    const { installationId, githubIds, members } = await linked(2, 3);
    const payload = {
      action: 'removed',
      installation: { id: installationId },
      repository_selection: 'selected',
      repositories_added: [],
      repositories_removed: [{ id: githubIds[0], name: 'r0', full_name: 'x/r0', private: true }],
      requester: null,
      sender: { login: 'an-owner', id: 7, type: 'User' },
    };
    expect((await deliver('installation_repositories', payload)).status).toBe(204);
    for (const { userId } of members) expect(await counts(userId)).toEqual({ installations: 1, repositories: 2 });
  });

  it('organization member_removed: that account’s links to the organization go, other members keep theirs', async () => {
    const { installationId, org, members } = await linked(2);
    const [leaver, stayer] = members;
    const payload = {
      action: 'member_removed',
      membership: { state: 'active', role: 'admin', user: { login: leaver!.account.login, id: Number(leaver!.account.id) } },
      organization: { login: org, id: 99 },
      installation: { id: installationId },
      sender: { login: 'an-owner', id: 7, type: 'User' },
    };
    expect((await deliver('organization', payload)).status).toBe(204);
    expect(await counts(leaver!.userId)).toEqual({ installations: 0, repositories: 0 });
    expect(await counts(stayer!.userId)).toEqual({ installations: 1, repositories: 3 });
    // Without an installation in the delivery, by the organization's login (case-insensitively).
    const withoutInstallation = {
      action: 'member_removed',
      membership: { state: 'active', role: 'member', user: { login: stayer!.account.login, id: Number(stayer!.account.id) } },
      organization: { login: org.toUpperCase(), id: 99 },
      sender: { login: 'an-owner', id: 7, type: 'User' },
    };
    expect((await deliver('organization', withoutInstallation)).status).toBe(204);
    expect(await counts(stayer!.userId)).toEqual({ installations: 0, repositories: 0 });
  });

  it('organization member_added with a role other than admin (a demotion): the links go once GitHub confirms it', async () => {
    const { installationId, org, members } = await linked(2);
    const [demoted, stale] = members;
    host.owners[org] = [stale!.account.login];
    host.members[org] = [demoted!.account.login];
    const roleChange = (member: { login: string; id: string }) => ({
      action: 'member_added',
      membership: { url: `https://api.github.com/orgs/${org}/memberships/${member.login}`, state: 'active', role: 'member', organization_url: `https://api.github.com/orgs/${org}`, user: { login: member.login, id: Number(member.id), type: 'User' } },
      organization: { login: org, id: 99 },
      installation: { id: installationId, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' },
      sender: { login: 'an-owner', id: 7, type: 'User' },
    });
    expect((await deliver('organization', roleChange(demoted!.account))).status).toBe(204);
    expect(await counts(demoted!.userId)).toEqual({ installations: 0, repositories: 0 });
    // A delivery GitHub does not confirm (an old one, delivered late: the member is an owner again) removes nothing.
    expect((await deliver('organization', roleChange(stale!.account))).status).toBe(204);
    expect(await counts(stale!.userId)).toEqual({ installations: 1, repositories: 3 });
    const asked = host.calls.filter((c) => c.method === 'organizationRole').length;
    expect(asked).toBe(2);
    // A member who linked nothing costs no GitHub request.
    expect((await deliver('organization', roleChange({ login: 'someone-else', id: '123456' }))).status).toBe(204);
    expect(host.calls.filter((c) => c.method === 'organizationRole').length).toBe(asked);
  });

  it('a captured delivery replayed under a new delivery id is a duplicate: acted on once', async () => {
    const { installationId, members } = await linked(1);
    const body = JSON.stringify(installationEvent('suspend', installationId));
    expect((await deliver('installation', null, { body })).status).toBe(204);
    expect((await deliver('installation', installationEvent('unsuspend', installationId))).status).toBe(204);
    // The first body again, with a fresh X-GitHub-Delivery: not acted on (the installation stays unsuspended).
    expect((await deliver('installation', null, { body })).status).toBe(204);
    expect(await suspended(installationId)).toBe(false);
    expect(await counts(members[0]!.userId)).toEqual({ installations: 1, repositories: 3 });
  });

  it('refuses (400) a signed body whose shape belongs to another event, changing nothing', async () => {
    const { installationId, org, members } = await linked(1);
    const sender = { login: 'an-owner', id: 7, type: 'User' };
    // A repository event (action deleted, with the installation) replayed as an installation event.
    const repositoryDeleted = { action: 'deleted', repository: { id: 1, name: 'r', full_name: `${org}/r` }, installation: { id: installationId }, sender };
    expect((await deliver('installation', repositoryDeleted)).status).toBe(400);
    // An installation_repositories body as an installation event, and an installation body as an organization event.
    const repositoriesRemoved = { action: 'removed', installation: { id: installationId, account: { login: org, id: 99 } }, repository_selection: 'selected', repositories_added: [], repositories_removed: [], requester: null, sender };
    expect((await deliver('installation', { ...repositoriesRemoved, action: 'deleted' })).status).toBe(400);
    const member = members[0]!;
    const memberRemoved = { action: 'member_removed', membership: { state: 'active', role: 'admin', user: { login: member.account.login, id: Number(member.account.id) } }, organization: { login: org, id: 99 }, installation: { id: installationId }, sender };
    expect((await deliver('installation_repositories', { ...memberRemoved, action: 'removed', repositories_removed: [] })).status).toBe(400);
    expect((await deliver('organization', { ...memberRemoved, repository: { id: 1 } })).status).toBe(400);
    expect(await counts(member.userId)).toEqual({ installations: 1, repositories: 3 });
  });

  it('confirms with GitHub before removing: an installation it still knows, or a member it still calls owner, keeps its links', async () => {
    const { installationId, org, members } = await linked(1);
    const member = members[0]!;
    host.installations.push({ installationId, account: org, accountType: 'Organization', accountId: '99' });
    host.owners[org] = [member.account.login];
    expect((await deliver('installation', installationEvent('deleted', installationId))).status).toBe(204);
    const removed = { action: 'member_removed', membership: { state: 'active', role: 'admin', user: { login: member.account.login, id: Number(member.account.id) } }, organization: { login: org, id: 99 }, installation: { id: installationId }, sender: { login: 'an-owner', id: 7 } };
    expect((await deliver('organization', removed)).status).toBe(204);
    expect(await counts(member.userId)).toEqual({ installations: 1, repositories: 3 });
    // Once GitHub agrees, the same kind of delivery removes.
    host.owners[org] = [];
    expect((await deliver('organization', { ...removed, sender: { login: 'an-owner', id: 8 } })).status).toBe(204);
    expect(await counts(member.userId)).toEqual({ installations: 0, repositories: 0 });
  });

  it('other events and actions are accepted and change nothing', async () => {
    const { installationId, members } = await linked(1);
    expect((await deliver('ping', { zen: 'Keep it logically awesome.', hook_id: 1 })).status).toBe(204);
    expect((await deliver('installation', installationEvent('new_permissions_accepted', installationId))).status).toBe(204);
    expect((await deliver('push', { ref: 'refs/heads/main' })).status).toBe(204);
    expect(await counts(members[0]!.userId)).toEqual({ installations: 1, repositories: 3 });
  });
});
