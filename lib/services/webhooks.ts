import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { codeHost } from '../codehost/index.js';
import { CodeHostError, UserTokenRefused, type OrganizationRole } from '../codehost/port.js';
import { database } from '../db/connection.js';
import {
  claimWebhookDelivery,
  githubAuthorizationRevoked,
  githubAuthorizationsOf,
  installationDeleted,
  installationRepositoriesRemoved,
  organizationMemberLinks,
  organizationMemberRemoved,
  organizationOwnerLinksRemoved,
  releaseWebhookDelivery,
  setInstallationSuspended,
} from '../db/operations.js';
import type { Database } from '../db/port.js';
import { env } from '../env.js';
import { HttpError, invalidRequest } from '../http/errors.js';
import { log } from '../http/log.js';
import { drain, enqueue } from '../queue/queue.js';
import type { MonitorJob } from '../queue/types.js';
import { forgetRoles, organizationRole } from './installations.js';
import { forgetMemberAccess, openToken } from './user-access.js';

/**
 * GitHub's webhooks, so that links follow GitHub: an uninstalled installation, a repository taken out of an
 * installation, or a member removed from an organization take the matching rows with them for every user,
 * and a suspended installation is refused scans and syncs until it is unsuspended.
 *
 * Every delivery is verified first (`X-Hub-Signature-256`, HMAC-SHA256 of the exact body with
 * `GITHUB_WEBHOOK_SECRET`, compared in constant time by `@octokit/webhooks`, which `@octokit/app` carries as
 * `app.webhooks`); without a valid signature nothing is read or done (401). Each `X-GitHub-Delivery` is acted
 * on once: it is claimed before anything is done, and given back when acting fails, so that GitHub's
 * redelivery is acted on instead.
 *
 * `push` and `pull_request` start monitoring work (issue 28): they enqueue jobs (lib/queue), and the delivery
 * then runs a small batch of its own installation's jobs before it answers; the cron drain takes the rest.
 */

/** What verifies a delivery's signature: `app.webhooks` of `@octokit/app` (an `@octokit/webhooks` instance). */
export interface WebhookVerifier {
  verify(payload: string, signature: string): Promise<boolean>;
}

let verifier: Promise<WebhookVerifier | null> | undefined;

/**
 * The process's verifier: the GitHub App's webhooks, with `GITHUB_WEBHOOK_SECRET`. Null (every delivery
 * refused) when no secret or no GitHub App is configured: then no GitHub sends this service anything.
 */
function webhookVerifier(): Promise<WebhookVerifier | null> {
  verifier ??= (async () => {
    const config = env();
    if (config.githubWebhookSecret === null || config.codeHost.kind !== 'github') return null;
    const { App } = await import('@octokit/app');
    const app = new App({ appId: Number(config.codeHost.appId), privateKey: config.codeHost.privateKey, webhooks: { secret: config.githubWebhookSecret } });
    return app.webhooks;
  })();
  return verifier;
}

/** Uses this verifier from now on (tests: an App built on test credentials). */
export function useWebhookVerifier(next: WebhookVerifier | null): void {
  verifier = Promise.resolve(next);
}

const refused = (message: string) => new HttpError(401, 'unauthorized', message);

const DELIVERY_ID = /^[A-Za-z0-9-]{1,100}$/;
const EVENT = /^[a-z_]{1,64}$/;
const MAX_REPOSITORIES = 100_000;

const Id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER));
const Login = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const Sender = v.object({ id: Id, login: Login });
// Each event's schema asks for what only that event's payloads carry (GitHub's webhook payloads), so a
// signed body of one event replayed under another event's header is refused (400) rather than acted on:
// `installation` has the installation's `account`; `installation_repositories` its `repository_selection`
// and both lists; `organization` its organization and, for members, the membership. (`REFUSED_KEYS` below.)
const InstallationEvent = v.object({
  action: v.string(),
  installation: v.object({ id: Id, account: v.object({ id: Id }) }),
  sender: Sender,
});
const InstallationRepositoriesEvent = v.object({
  action: v.string(),
  installation: v.object({ id: Id }),
  repository_selection: v.picklist(['all', 'selected']),
  repositories_added: v.pipe(v.array(v.unknown()), v.maxLength(MAX_REPOSITORIES)),
  repositories_removed: v.pipe(v.array(v.object({ id: Id })), v.maxLength(MAX_REPOSITORIES)),
  sender: Sender,
});
const OrganizationEvent = v.object({
  action: v.string(),
  installation: v.optional(v.object({ id: Id })),
  organization: v.object({ login: Login }),
  sender: Sender,
  membership: v.optional(
    v.object({
      role: v.optional(v.pipe(v.string(), v.maxLength(100))),
      user: v.nullish(v.object({ id: Id, login: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))) })),
    }),
  ),
});

// `github_app_authorization`: GitHub's only action is `revoked`; `sender` is the account that revoked it.
const AuthorizationEvent = v.object({
  action: v.string(),
  sender: v.object({ id: Id, login: v.optional(v.pipe(v.string(), v.maxLength(100))) }),
});
// `membership` (team membership added or removed): the member's reachable repositories may have changed.
const MembershipEvent = v.object({
  action: v.string(),
  installation: v.optional(v.object({ id: Id })),
  member: v.nullish(v.object({ id: Id })),
});

const Sha = v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/));
const MAX_COMMITS = 2048; // GitHub lists at most 2,048 commits in a push
const Paths = v.pipe(v.array(v.pipe(v.string(), v.maxLength(4096))), v.maxLength(10_000));
const PushEvent = v.object({
  ref: v.pipe(v.string(), v.maxLength(1024)),
  after: Sha,
  deleted: v.optional(v.boolean()),
  repository: v.object({ id: Id, default_branch: v.pipe(v.string(), v.minLength(1), v.maxLength(1024)) }),
  installation: v.optional(v.object({ id: Id })),
  pusher: v.object({}),
  commits: v.pipe(v.array(v.object({ added: v.optional(Paths), modified: v.optional(Paths), removed: v.optional(Paths) })), v.maxLength(MAX_COMMITS)),
});
const PullRequestEvent = v.object({
  action: v.string(),
  number: Id,
  pull_request: v.object({
    number: Id,
    head: v.object({ sha: Sha, repo: v.nullable(v.object({ id: Id })) }),
    base: v.object({ sha: Sha, repo: v.object({ id: Id }) }),
  }),
  repository: v.object({ id: Id }),
  installation: v.optional(v.object({ id: Id })),
});

/**
 * Whether a changed path is one the scan reads: anything under `.github/` (workflows, local actions,
 * `dependabot.yml`), an action's metadata (`action.yml|yaml` anywhere) or a `dependabot.yml|yaml`.
 */
export function touchesPipelines(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return path.startsWith('.github/') || /^(action|dependabot)\.ya?ml$/.test(name);
}

/** What a push changed, when the delivery can tell: null when the list may be incomplete (a scan is cheaper than a miss). */
function changedPaths(commits: v.InferOutput<typeof PushEvent>['commits']): string[] | null {
  if (commits.length === 0 || commits.length >= MAX_COMMITS) return null;
  return commits.flatMap((c) => [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])]);
}

/** Monitoring jobs one delivery enqueued: the delivery drains its own installation's batch before it answers. */
class Enqueued {
  constructor(
    readonly installationId: number,
    readonly keys: readonly string[],
  ) {}
}

/** What the delivery's own drain may take: GitHub waits 10 s for an answer; the function may run 30 s. */
export interface DeliveryDrain {
  maxJobs: number;
  budgetMs: number;
}
const DEFAULT_DELIVERY_DRAIN: DeliveryDrain = { maxJobs: 2, budgetMs: 7_000 };
let deliveryDrain: DeliveryDrain | null = DEFAULT_DELIVERY_DRAIN;

/** Changes what a delivery drains after enqueueing (tests); null: nothing (the cron drains). */
export function useDeliveryDrain(next: DeliveryDrain | null | 'default'): void {
  deliveryDrain = next === 'default' ? DEFAULT_DELIVERY_DRAIN : next;
}

export interface Delivery {
  /** `X-Hub-Signature-256`. */
  signature: string | null;
  /** `X-GitHub-Event`. */
  event: string | null;
  /** `X-GitHub-Delivery`. */
  deliveryId: string | null;
  /** The exact body GitHub signed. */
  body: string;
}

/** What a delivery led to (for the log and the tests). */
export type WebhookOutcome = 'acted' | 'ignored' | 'duplicate';

/** Verifies a delivery, then acts on it once. Throws a 401 `HttpError`, doing nothing, when it is not GitHub's. */
export async function receiveWebhook(delivery: Delivery): Promise<WebhookOutcome> {
  const verify = await webhookVerifier();
  if (verify === null) throw refused('Webhooks are not configured on this deployment (GITHUB_WEBHOOK_SECRET and the GitHub App).');
  if (delivery.signature === null || !/^sha256=[0-9a-f]{64}$/i.test(delivery.signature)) {
    throw refused('A valid X-Hub-Signature-256 header is required.');
  }
  const valid = await verify.verify(delivery.body, delivery.signature).catch(() => false);
  if (!valid) throw refused('The X-Hub-Signature-256 signature does not match the body.');

  if (delivery.deliveryId === null || !DELIVERY_ID.test(delivery.deliveryId)) throw invalidRequest('A valid X-GitHub-Delivery header is required.');
  if (delivery.event === null || !EVENT.test(delivery.event)) throw invalidRequest('A valid X-GitHub-Event header is required.');
  let payload: unknown;
  try {
    payload = JSON.parse(delivery.body);
  } catch {
    throw invalidRequest('The delivery is not JSON.');
  }
  const action = actionOf(delivery.event, payload, delivery.deliveryId);
  if (action === null) return 'ignored';

  const db = await database();
  const { first } = await claimWebhookDelivery(db, delivery.deliveryId, delivery.event);
  if (!first) return 'duplicate';
  // The same body again under a new delivery id (a captured delivery replayed) is a duplicate too.
  const bodyKey = `sha256:${createHash('sha256').update(delivery.body).digest('hex')}`;
  const { first: newBody } = await claimWebhookDelivery(db, bodyKey, delivery.event);
  if (!newBody) return 'duplicate';
  let result: unknown;
  try {
    result = await action(db);
  } catch (error) {
    await Promise.all([releaseWebhookDelivery(db, delivery.deliveryId), releaseWebhookDelivery(db, bodyKey)]).catch(() => undefined);
    throw error;
  }
  if (result instanceof Enqueued && result.keys.length > 0 && deliveryDrain !== null) await drainDelivery(db, result.installationId, deliveryDrain);
  return 'acted';
}

/**
 * Runs a small batch of the installation's jobs. The jobs are queued already, so a failure here fails no
 * delivery: whatever did not finish is the cron drain's.
 */
async function drainDelivery(db: Database, installationId: number, limits: DeliveryDrain): Promise<void> {
  try {
    await drain({ db, maxJobs: limits.maxJobs, budgetMs: limits.budgetMs, installationIds: [installationId] });
  } catch (error) {
    log({ level: 'error', msg: 'queue job failed', error: error instanceof Error ? error.name : typeof error });
  }
}

/** Enqueues a delivery's jobs, when it names an installation. */
async function enqueueFor(db: Database, installationId: number, jobs: readonly MonitorJob[]): Promise<Enqueued> {
  return new Enqueued(installationId, await enqueue(db, jobs));
}

/**
 * `github_app_authorization` *revoked*: the authorizations acting for that account end once GitHub confirms
 * it: each stored token is tried (`GET /user`) and those GitHub refuses (or that cannot be read) are ended;
 * one GitHub still accepts stays (a late or replayed delivery signs nobody out). A GitHub failure fails the
 * delivery (answered 5xx, given back); meanwhile a truly revoked token fails at its next use, which ends it too.
 */
async function confirmedRevocation(db: Database, githubUserId: string): Promise<unknown> {
  const rows = await githubAuthorizationsOf(db, githubUserId);
  if (rows.length === 0) return { user_ids: [] };
  const host = await codeHost();
  const key = env().tokenEncryptionKey;
  const ended: string[] = [];
  for (const row of rows) {
    const token = key === null || row.access_token === null ? null : openToken(key, row.user_id, row.access_token);
    if (token !== null && host.userAccess !== undefined) {
      try {
        if ((await host.userAccess.user(token)).id === githubUserId) continue;
      } catch (error) {
        if (!(error instanceof UserTokenRefused)) throw error;
      }
    }
    ended.push(row.user_id);
  }
  return ended.length === 0 ? { user_ids: [] } : githubAuthorizationRevoked(db, githubUserId, ended);
}

/**
 * `installation` *deleted*: every user's link goes once GitHub confirms it no longer knows the installation
 * (a late or replayed delivery about an installation that exists again removes nothing).
 */
async function confirmedUninstall(db: Database, installationId: number): Promise<unknown> {
  const host = await codeHost();
  try {
    await host.getInstallation(installationId);
    return { links: 0 };
  } catch (error) {
    if (!(error instanceof CodeHostError && error.kind === 'not_found')) throw error;
  }
  return installationDeleted(db, installationId);
}

/**
 * An organization member removed, or whose role GitHub reports is no longer `admin`: when that account linked the
 * organization's installation, GitHub is asked (afresh, with the installation's token) whether they are an
 * owner, and the links go when not. A delivery is never enough by itself to remove access (it may be an old
 * one, delivered late); nor does a change in an organization nobody linked through that account cost a request.
 */
async function memberDemoted(db: Database, member: { installationId: number | null; orgLogin: string; githubUserId: string }, login: string): Promise<unknown> {
  const { installation_ids: installationIds } = await organizationMemberLinks(db, member);
  if (installationIds.length === 0) return { links: 0 };
  const host = await codeHost();
  for (const installationId of installationIds) {
    let role: OrganizationRole | null = null;
    try {
      role = await organizationRole(host, installationId, member.orgLogin, login, { fresh: true, userId: member.githubUserId });
    } catch (error) {
      if (!(error instanceof CodeHostError && error.kind === 'not_found')) throw error;
    }
    // Still a member: only the owner's links go (what they reach as a member follows their own access).
    if (role === 'member') await organizationOwnerLinksRemoved(db, installationId, member.githubUserId);
    else if (role !== 'admin') await organizationMemberRemoved(db, { ...member, installationId });
  }
  return { links: installationIds.length };
}

/** Keys of other events' payloads: a body that has one is not this event's (a replay under another header). */
const REFUSED_KEYS: Record<string, readonly string[]> = {
  installation: ['repository', 'repository_selection', 'repositories_removed', 'membership', 'member', 'organization'],
  installation_repositories: ['repository', 'membership', 'member', 'organization'],
  organization: ['repository', 'repository_selection', 'repositories_removed', 'repositories', 'member'],
  push: ['pull_request', 'membership', 'member', 'repository_selection', 'repositories_removed'],
  pull_request: ['pusher', 'commits', 'membership', 'member', 'repository_selection', 'repositories_removed'],
};

/** What to do for a delivery, or null for events and actions this service does not act on. */
function actionOf(event: string, payload: unknown, deliveryId: string): ((db: Database) => Promise<unknown>) | null {
  const parse = <S extends v.GenericSchema>(schema: S): v.InferOutput<S> => {
    const parsed = v.safeParse(schema, payload);
    const foreign = (REFUSED_KEYS[event] ?? []).some((key) => typeof payload === 'object' && payload !== null && Object.hasOwn(payload, key));
    if (!parsed.success || foreign) throw invalidRequest(`The ${event} delivery does not have the shape GitHub sends.`);
    return parsed.output;
  };
  switch (event) {
    case 'installation': {
      const p = parse(InstallationEvent);
      const id = p.installation.id;
      if (p.action === 'deleted') return (db) => confirmedUninstall(db, id);
      if (p.action === 'suspend') return (db) => setInstallationSuspended(db, id, true);
      if (p.action === 'unsuspend') return (db) => setInstallationSuspended(db, id, false);
      return null;
    }
    case 'github_app_authorization': {
      const p = parse(AuthorizationEvent);
      if (p.action !== 'revoked') return null;
      const githubUserId = String(p.sender.id);
      forgetMemberAccess({ githubUserId });
      // The user's tokens go, with what they reached as a member, and their sessions end (they sign in again).
      return (db) => confirmedRevocation(db, githubUserId);
    }
    case 'membership': {
      const p = parse(MembershipEvent);
      if (p.action !== 'added' && p.action !== 'removed') return null;
      // A team's members changed: the repositories they reach may have too; the next scan asks GitHub again.
      forgetMemberAccess(p.member === null || p.member === undefined ? (p.installation === undefined ? {} : { installationId: p.installation.id }) : { githubUserId: String(p.member.id) });
      return async () => ({ forgotten: true });
    }
    case 'installation_repositories': {
      const p = parse(InstallationRepositoriesEvent);
      forgetMemberAccess({ installationId: p.installation.id });
      if (p.action !== 'removed' || p.repositories_removed.length === 0) return null;
      const ids = p.repositories_removed.map((r) => r.id);
      return (db) => installationRepositoriesRemoved(db, p.installation.id, ids);
    }
    case 'organization': {
      const p = parse(OrganizationEvent);
      const user = p.membership?.user;
      if (user === undefined || user === null) return null;
      // A membership changed: this process's cached role of that member is no longer trusted.
      if (user.login !== undefined) forgetRoles(p.organization.login, user.login);
      forgetMemberAccess({ githubUserId: String(user.id) });
      const member = { installationId: p.installation?.id ?? null, orgLogin: p.organization.login, githubUserId: String(user.id) };
      // Removed, or (GitHub sends `member_added` when a member's role changes too) made a plain member: the
      // links go once GitHub confirms the account is no longer an owner.
      const removed = p.action === 'member_removed';
      if ((removed || (p.action === 'member_added' && p.membership?.role !== 'admin')) && user.login !== undefined) {
        const login = user.login;
        return (db) => memberDemoted(db, member, login);
      }
      // Without the login GitHub always sends, nothing can be confirmed: as before, a removal removes.
      if (removed) return (db) => organizationMemberRemoved(db, member);
      return null;
    }
    case 'push': {
      const p = parse(PushEvent);
      const installationId = p.installation?.id;
      // Only the default branch, and only a commit that may change what a scan finds.
      if (installationId === undefined || p.deleted === true || p.ref !== `refs/heads/${p.repository.default_branch}`) return null;
      const paths = changedPaths(p.commits);
      if (paths !== null && !paths.some(touchesPipelines)) return null;
      const job: MonitorJob = { kind: 'push-scan', installationId, repoId: p.repository.id, sha: p.after, deliveryId };
      return (db) => enqueueFor(db, installationId, [job]);
    }
    case 'pull_request': {
      const p = parse(PullRequestEvent);
      const installationId = p.installation?.id;
      const head = p.pull_request.head;
      // The delivery does not list the pull request's files, so every such pull request is checked (the check
      // compares head with base: no pipeline change, nothing new). A deleted head repository has nothing to read.
      if (installationId === undefined || head.repo === null || !['opened', 'synchronize', 'reopened'].includes(p.action)) return null;
      const job: MonitorJob = {
        kind: 'pr-check',
        installationId,
        repoId: p.repository.id,
        pullNumber: p.pull_request.number,
        headSha: head.sha,
        baseSha: p.pull_request.base.sha,
        headRepoId: head.repo.id,
        deliveryId,
      };
      return (db) => enqueueFor(db, installationId, [job]);
    }
    default:
      return null;
  }
}
