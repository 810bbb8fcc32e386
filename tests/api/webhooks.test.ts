// POST /api/github/webhooks: verified with X-Hub-Signature-256 through @octokit/app's webhooks (401 and
// nothing done without a valid signature), each delivery acted on once, and the events that make links
// follow GitHub: installation deleted / suspend / unsuspend, installation_repositories removed, organization
// member_removed.

import { App } from '@octokit/app';
import { createHmac, randomInt, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST } from '../../api/github/webhooks.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { linkInstallation, syncRepositories } from '../../lib/db/operations.js';
import { jobKey } from '../../lib/queue/queue.js';
import { useJobHandlers } from '../../lib/queue/handlers.js';
import type { MonitorJob } from '../../lib/queue/types.js';
import { touchesPipelines, useWebhookVerifier } from '../../lib/services/webhooks.js';
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
    expect((await deliver('push', pushEvent(installationId, 1, { ref: 'refs/heads/feature' }))).status).toBe(204);
    expect(await counts(members[0]!.userId)).toEqual({ installations: 1, repositories: 3 });
  });
});

const sha = () => randomUUID().replace(/-/g, '').padEnd(40, 'a').slice(0, 40);

/** A `push` delivery as GitHub sends it for an App installation (the fields the service reads, and a few it does not). */
function pushEvent(installationId: number, repoId: number, overrides: { ref?: string; after?: string; deleted?: boolean; paths?: string[]; commits?: unknown[] } = {}) {
  const after = overrides.after ?? sha();
  return {
    ref: overrides.ref ?? 'refs/heads/main',
    before: sha(),
    after,
    created: false,
    deleted: overrides.deleted ?? false,
    forced: false,
    base_ref: null,
    compare: `https://github.com/o/r/compare/a...b`,
    commits: overrides.commits ?? [
      { id: after, message: 'ci: pin actions', added: [], removed: [], modified: overrides.paths ?? ['.github/workflows/ci.yml'] },
    ],
    head_commit: { id: after },
    repository: { id: repoId, name: 'r', full_name: 'o/r', default_branch: 'main', private: true },
    pusher: { name: 'octocat', email: 'octocat@example.com' },
    sender: { login: 'octocat', id: 1 },
    installation: { id: installationId, node_id: 'MDIz' },
  };
}

function pullRequestEvent(installationId: number, repoId: number, overrides: { action?: string; headRepoId?: number | null; headSha?: string; number?: number } = {}) {
  const number = overrides.number ?? randomInt(1, 10_000);
  const headRepoId = overrides.headRepoId === undefined ? repoId : overrides.headRepoId;
  return {
    action: overrides.action ?? 'opened',
    number,
    pull_request: {
      number,
      state: 'open',
      head: { ref: 'feature', sha: overrides.headSha ?? sha(), repo: headRepoId === null ? null : { id: headRepoId, full_name: 'fork/r' } },
      base: { ref: 'main', sha: sha(), repo: { id: repoId, full_name: 'o/r' } },
    },
    repository: { id: repoId, name: 'r', full_name: 'o/r', default_branch: 'main' },
    sender: { login: 'contributor', id: 2 },
    installation: { id: installationId },
  };
}

interface QueuedJob {
  job_key: string;
  kind: string;
  state: string;
  payload: MonitorJob;
}
const jobsOf = (installationId: number) =>
  t.query<QueuedJob>(
    `select j.job_key, j.kind, j.state, coalesce(q.message, a.message) as payload
     from public.monitor_jobs j left join pgmq.q_monitor q on q.msg_id = j.msg_id left join pgmq.a_monitor a on a.msg_id = j.msg_id
     where j.installation_id = $1 order by j.msg_id`,
    [installationId],
  );

describe('POST /api/github/webhooks: push and pull_request enqueue monitoring jobs', () => {
  let ran: MonitorJob[];
  beforeEach(() => {
    ran = [];
    useJobHandlers({ run: async (job) => void ran.push(job) });
  });
  afterEach(() => useJobHandlers(null));

  it('a push to the default branch that changes a workflow enqueues one scan of that commit, which the delivery runs', async () => {
    const { installationId, githubIds } = await linked(2);
    const push = pushEvent(installationId, githubIds[0]!);
    const delivery = randomUUID();
    expect((await deliver('push', push, { delivery })).status).toBe(204);
    const expected: MonitorJob = { kind: 'push-scan', installationId, repoId: githubIds[0]!, sha: push.after, deliveryId: delivery };
    // One job for the repository, however many users linked the installation: the handler serves each of them.
    // Done, its message deleted: nothing of the job stays but its key (a redelivery adds nothing).
    expect(await jobsOf(installationId)).toEqual([{ job_key: jobKey(expected), kind: 'push-scan', state: 'done', payload: null }]);
    expect(ran).toEqual([expected]);
  });

  it('the same push delivered again, under a new delivery id or as a new body, enqueues nothing', async () => {
    const { installationId, githubIds } = await linked(1);
    const push = pushEvent(installationId, githubIds[0]!);
    const delivery = randomUUID();
    expect((await deliver('push', push, { delivery })).status).toBe(204);
    expect((await deliver('push', push, { delivery })).status).toBe(204);
    expect((await deliver('push', push)).status).toBe(204);
    expect((await deliver('push', { ...push, pusher: { name: 'someone-else' } })).status).toBe(204);
    expect(await jobsOf(installationId)).toHaveLength(1);
    expect(ran).toHaveLength(1);
  });

  it('enqueues nothing for another branch, a deleted branch, a change outside the pipelines or an installation nobody linked', async () => {
    const { installationId, githubIds } = await linked(1);
    const repoId = githubIds[0]!;
    const unlinked = randomInt(1, 2 ** 40);
    for (const payload of [
      pushEvent(installationId, repoId, { ref: 'refs/heads/feature' }),
      pushEvent(installationId, repoId, { ref: 'refs/tags/main' }),
      pushEvent(installationId, repoId, { deleted: true }),
      pushEvent(installationId, repoId, { paths: ['README.md', 'src/.github.ts', 'docs/action.yml.md'] }),
      pushEvent(unlinked, repoId),
      pushEvent(installationId, randomInt(1, 2 ** 47)),
    ]) {
      expect((await deliver('push', payload)).status).toBe(204);
    }
    expect(await jobsOf(installationId)).toEqual([]);
    expect(await jobsOf(unlinked)).toEqual([]);
  });

  it('enqueues a scan when an action or dependabot file changes anywhere, or when the push does not list every file', async () => {
    const { installationId, githubIds } = await linked(1);
    const repoId = githubIds[0]!;
    const pushes = [
      pushEvent(installationId, repoId, { paths: ['actions/build/action.yaml'] }),
      pushEvent(installationId, repoId, { paths: ['dependabot.yml'] }),
      pushEvent(installationId, repoId, { commits: [{ id: sha(), added: [], modified: ['README.md'], removed: ['.github/workflows/old.yml'] }] }),
      pushEvent(installationId, repoId, { commits: [] }),
    ];
    for (const payload of pushes) expect((await deliver('push', payload)).status).toBe(204);
    expect((await jobsOf(installationId)).map((j) => j.kind)).toEqual(['push-scan', 'push-scan', 'push-scan', 'push-scan']);
  });

  it('refuses an unsigned or wrongly signed push (401) and a push without its commit (400), enqueueing nothing', async () => {
    const { installationId, githubIds } = await linked(1);
    const push = pushEvent(installationId, githubIds[0]!);
    expect((await deliver('push', push, { signature: null })).status).toBe(401);
    expect((await deliver('push', push, { signature: sign(JSON.stringify(push), 'another-secret') })).status).toBe(401);
    expect((await deliver('push', { ...push, after: 'main' })).status).toBe(400);
    expect((await deliver('push', { ...push, pull_request: { number: 1 } })).status).toBe(400);
    expect(await jobsOf(installationId)).toEqual([]);
  });

  it('a pull request opened, synchronized or reopened enqueues a check of its head commit; a fork head is named by its own id', async () => {
    const { installationId, githubIds } = await linked(1);
    const repoId = githubIds[0]!;
    const fork = randomInt(1, 2 ** 47);
    const opened = pullRequestEvent(installationId, repoId, { headRepoId: fork });
    const delivery = randomUUID();
    expect((await deliver('pull_request', opened, { delivery })).status).toBe(204);
    const expected: MonitorJob = {
      kind: 'pr-check',
      installationId,
      repoId,
      pullNumber: opened.number,
      headSha: opened.pull_request.head.sha,
      baseSha: opened.pull_request.base.sha,
      headRepoId: fork,
      deliveryId: delivery,
    };
    expect(ran).toEqual([expected]);
    for (const action of ['synchronize', 'reopened']) {
      expect((await deliver('pull_request', pullRequestEvent(installationId, repoId, { action, number: opened.number }))).status).toBe(204);
    }
    // The same head again (a reopened pull request GitHub delivers twice) is the same check.
    expect((await deliver('pull_request', { ...opened, action: 'reopened' })).status).toBe(204);
    for (const action of ['closed', 'edited', 'labeled']) {
      expect((await deliver('pull_request', pullRequestEvent(installationId, repoId, { action }))).status).toBe(204);
    }
    expect((await deliver('pull_request', pullRequestEvent(installationId, repoId, { headRepoId: null }))).status).toBe(204);
    const jobs = await jobsOf(installationId);
    expect(jobs.map((j) => j.kind)).toEqual(['pr-check', 'pr-check', 'pr-check']);
    expect(jobs.every((j) => !JSON.stringify(j.payload).includes('token'))).toBe(true);
  });
});

describe('touchesPipelines', () => {
  it('is true for what a scan reads and false for look-alikes', () => {
    for (const path of ['.github/workflows/ci.yml', '.github/dependabot.yml', '.github/actions/x/action.yml', 'action.yaml', 'a/b/action.yml', 'tools/dependabot.yaml']) {
      expect(touchesPipelines(path), path).toBe(true);
    }
    for (const path of ['README.md', 'src/.github/x', 'github/workflows/ci.yml', 'my-action.yml', 'action.yml.bak', 'dependabot.json']) {
      expect(touchesPipelines(path), path).toBe(false);
    }
  });
});
