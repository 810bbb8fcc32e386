import { createHash } from 'node:crypto';
import type { User } from '../auth.js';
import { codeHost } from '../codehost/index.js';
import { database } from '../db/connection.js';
import { consumeRateLimit, githubIdentity, installationSuspended, listInstallations, recordScan, scanContext, setActionReferences } from '../db/operations.js';
import type { Database } from '../db/port.js';
import type { StoredFinding } from '../db/types.js';
import type { ApiFix, apiFixes } from '../engine/fixes/apply.js';
import type { ScanResult as EngineScanResult, scanRepository } from '../engine/scan.js';
import type { OnlinePass } from '../online/service.js';
import { applySeverities } from '../engine/severities.js';
import type { Counts, Finding, Ruleset } from '../engine/types.js';
import { env } from '../env.js';
import { invalidRequest, notFound, rateLimited, storageQuotaExceeded } from '../http/errors.js';
import { acquireEngine, prewarmEngine, TIMED_OUT } from './engine-runner.js';
import type { EngineJob } from './engine-worker.js';
import { checkInstallationUsable, checkScanEntitlement } from './installations.js';
import { checkMemberScanEntitlement, memberSnapshot } from './user-access.js';

/**
 * The scan service: fetch -> engine -> filter -> persist. One scan is one repository, so an org-wide scan is
 * a client calling `POST /api/scan` once per repository, each request well inside the function limit.
 */

/**
 * How long the code host may take to deliver a snapshot, from the start of the scan. The functions may run
 * 30 s (vercel.json); this leaves a third of that for the engine and for recording the scan.
 */
export const SNAPSHOT_DEADLINE_MS = 20_000;
/** How long the online audits (lib/online) may ask GitHub, after the snapshot; the rest is unassessed. */
export const ONLINE_DEADLINE_MS = 4_000;
/** The rate-limit bucket of scans (per user; `SCAN_RATE_LIMIT` per `SCAN_RATE_LIMIT_WINDOW_SECONDS`). */
export const SCAN_RATE_LIMIT_BUCKET = 'scan';

export interface ScanRequest {
  repo_id: string;
  ruleset: Ruleset;
}

export interface ScanResult {
  scan_id: string;
  repo_id: string;
  counts: Counts;
  findings: (Finding & { fix?: ApiFix })[];
  /** The commit the files were read at, when the code host said. */
  commit_sha?: string;
  /** The findings dismissed in the repository, left out of `findings` and `counts`; absent when none. */
  dismissed_findings?: (Finding & { fix?: ApiFix })[];
  /** Set when findings that may have a fix got none because fix computation met a bound (time, size, count). */
  fixes_limited?: string;
}

/**
 * Scans one of the user's repositories and records the result. Database round trips: the rate limit and the
 * scan context (ownership + the rules disabled for this repository) in parallel, the installation's
 * suspension (409 while GitHub has it suspended; 503 while its GitHub budget is under the reserve) with the
 * user's links and identity (the entitlement, re-checked beside the snapshot: `checkScanEntitlement`), then
 * `recordScan`, which stores the scan and its findings atomically. The engine runs within the scan limits
 * (`SCAN_MAX_*`). Rules disabled by the user's settings never run, so they
 * neither appear in the findings nor in the counts. A code-host failure throws before anything is stored.
 */
export async function scan(user: User, request: ScanRequest): Promise<ScanResult> {
  const deadline = Date.now() + SNAPSHOT_DEADLINE_MS;
  // An engine thread starts now (unless one is idle), and loads the engine while the database and GitHub answer.
  prewarmEngine();
  const onlineModule = import('../online/service.js');
  onlineModule.catch(() => undefined);
  const db = await database();
  const [context] = await Promise.all([scanContext(db, user.id, request.repo_id), enforceRateLimit(db, user.id)]);
  if (context === null) throw notFound();
  const { repository } = context;
  const ruleOptions = await storedRuleOptions(context.rule_options);

  const host = await codeHost();
  const disabled = new Set(context.disabled_rules);
  const isEnabled = (ruleId: string) => !disabled.has(ruleId);
  const links = Promise.all([listInstallations(db, user.id), githubIdentity(db, user.id)]);
  links.catch(() => undefined);
  // How the user reaches the installation is known with `usable` (a member's scan reads with their own token),
  // so the snapshot starts at once after it, as the online audits' reader does.
  let asMember = false;
  const usable = Promise.all([installationSuspended(db, repository.installation_id), links]).then(([suspended, [installations]]) => {
    asMember = installations.find((i) => i.installation_id === repository.installation_id)?.access === 'member';
    checkInstallationUsable(host, { installationId: repository.installation_id, account: repository.full_name.split('/')[0] ?? repository.full_name, suspended });
  });
  usable.catch(() => undefined);
  // The user must still be entitled to the installation (an organization's owner): checked beside the
  // snapshot, so a cached role costs nothing and a stale one one request in parallel, never a round trip.
  // A repository the user reaches as a member (their own GitHub access): GitHub must still list it for them.
  const entitled = Promise.all([usable, links]).then(([, [installations, identity]]) =>
    installations.find((i) => i.installation_id === repository.installation_id)?.access === 'member'
      ? checkMemberScanEntitlement(db, host, user, repository)
      : checkScanEntitlement(db, host, user.id, repository.installation_id, { installations, identity }),
  );
  entitled.catch(() => undefined);
  // The online audits read ahead, beside the snapshot, what the previous scan's `uses:` need
  // (lib/online/service.ts): the shared cache at once, GitHub once the installation is known usable.
  const online =
    host.onlineReader === undefined
      ? undefined
      : onlineModule.then(({ startOnlineAudits }) =>
          startOnlineAudits({
            reader: () => usable.then(() => host.onlineReader?.(repository.installation_id, { deadline })),
            db,
            previous: context.action_references ?? [],
            isEnabled,
            deadline,
          }),
        );
  online?.catch(() => undefined);
  await usable;
  const locator = {
    installationId: repository.installation_id,
    fullName: repository.full_name,
    defaultBranch: repository.default_branch,
    private: repository.private,
  };
  // A repository the user reaches as a member is read with their own token: no more than they may see.
  // A member's snapshot GitHub refuses is most likely access just lost: the entitlement says so, in words.
  const snapshot = asMember
    ? await memberSnapshot(db, host, user, locator, { deadline }).catch(async (error: unknown) => {
        await entitled;
        throw error;
      })
    : await host.fetchSnapshot(locator, { deadline });
  await entitled;

  // The API contract enables every rule without a stored preference, hygiene (pedantic) ones included, as the CLI
  // does: the same repository gets the same findings everywhere (a user turns rules off with PUT /api/rule-settings).
  // The engine and the fixes run in a worker thread (engine-runner.ts) within one budget, `maxEngineMs`: the
  // engine stops cooperatively at it, the fixes get what the engine left, and the worker is terminated
  // `HARD_STOP_GRACE_MS` past it whatever it is doing. Out of time, the scan is what the engine would report
  // for a deadline already passed (a scan-limit-reached finding naming every file) and the fixes are left out.
  const { maxEngineMs, ...limits } = env().scanLimits;
  const job: EngineJob = {
    files: snapshot.files,
    ruleset: request.ruleset,
    disabled: [...disabled],
    ...(snapshot.settings === undefined ? {} : { settings: snapshot.settings }),
    repository: repository.full_name,
    defaultBranch: repository.default_branch,
    ruleOptions,
    ...(context.rule_severities === undefined ? {} : { severities: context.rule_severities }),
    online: host.onlineReader !== undefined,
    limits,
    maxEngineMs,
  };
  const { result, references, fixes, fixesLimited } = await runEngineJob(job, online, snapshot.files);
  const findings = storedFindings(result, fixes);
  const { history, quota } = env().scanStorage;
  const [recorded] = await Promise.all([
    recordScan(db, user.id, {
      repositoryId: repository.id,
      ruleset: request.ruleset,
      counts: result.counts,
      findings,
      retention: { contentHash: contentHash(snapshot.files, findings), keep: history, quota },
      ...(snapshot.commitSha === undefined ? {} : { commitSha: snapshot.commitSha }),
    }),
    rememberReferences(db, user.id, repository.id, context.action_references ?? [], references),
  ]);
  if (recorded.quota_exceeded === true) {
    throw storageQuotaExceeded(
      `Your stored scans hold ${recorded.stored_findings ?? 'too many'} findings in their latest scans alone, and the quota is ${recorded.quota ?? quota}: this scan (${findings.length} findings) was not stored. Turn off rules you do not need, or unlink installations whose repositories you no longer scan.`,
    );
  }
  const withFixes = result.records.map((record, i) => withFix({ ...record.finding, fingerprint: record.fingerprint }, fixes[i]));
  // Dismissed findings leave the answer's findings and counts (the stored scan keeps them all).
  const dismissed = new Set(context.dismissed ?? []);
  const open = dismissed.size === 0 ? withFixes : withFixes.filter((f) => !dismissed.has(f.fingerprint));
  const counts = open.length === withFixes.length ? result.counts : countOf(open);
  return {
    scan_id: recorded.scan_id,
    repo_id: repository.id,
    counts,
    findings: open,
    ...(open.length === withFixes.length ? {} : { dismissed_findings: withFixes.filter((f) => dismissed.has(f.fingerprint)) }),
    ...(snapshot.commitSha === undefined ? {} : { commit_sha: snapshot.commitSha }),
    ...(fixesLimited === null ? {} : { fixes_limited: fixesLimited }),
  };
}

/** What one engine run gave: the result (online findings joined), the `uses:` references, each finding's fix. */
export interface EngineRun {
  result: EngineScanResult;
  /** The scan's `uses:` references (for the next scan's read-ahead); undefined without online audits. */
  references: string[] | undefined;
  /** Each finding's fix (null: none), in the result's order. */
  fixes: (ApiFix | null)[];
  fixesLimited: string | null;
}

/**
 * Runs the engine, the online audits (when `online` is given) and the fixes on one snapshot's files, in
 * a worker thread within one budget, `maxEngineMs` (see `scan`). Shared by the manual scan and the monitor's jobs.
 * `fixes: false` computes none (a pull request's check shows no diff).
 */
export async function runEngineJob(job: EngineJob, online: Promise<OnlinePass> | undefined, files: EngineJob['files'], options: { fixes?: boolean } = {}): Promise<EngineRun> {
  const { maxEngineMs } = job;
  let result: EngineScanResult;
  let references: string[] | undefined;
  let fixes: (ApiFix | null)[];
  let fixesLimited: string | null;
  const session = await acquireEngine();
  try {
    const scanned = await session.scan(job, HARD_STOP_GRACE_MS);
    result = scanned.result === TIMED_OUT ? await outOfTime(job) : scanned.result;
    references = online === undefined ? undefined : await (await online).finish(result, files, Date.now() + ONLINE_DEADLINE_MS);
    // The user's severities re-rate the findings, the engine's and the online audits' alike, as the CLI's
    // config does (lib/engine/report.ts): what is stored, counted, gated and read by the attack paths.
    if (job.severities !== undefined && applySeverities(result.records, new Map(Object.entries(job.severities))) > 0) {
      result.findings = result.records.map((r) => r.finding);
      result.counts = countOf(result.findings);
    }
    // Each finding's fix (a diff, or the settings call), from the same snapshot, in what the engine left of
    // the budget (the online audits' wait is not the engine's), stored with the scan so that the stored reads
    // show what this response shows.
    const budgetMs = scanned.result === TIMED_OUT ? 0 : maxEngineMs - scanned.ms;
    const computed = options.fixes === false ? null : budgetMs <= 0 ? TIMED_OUT : await session.fix(result.findings, {}, budgetMs, HARD_STOP_GRACE_MS);
    if (computed === null) {
      fixes = result.findings.map(() => null);
      fixesLimited = null;
    } else if (computed === TIMED_OUT) {
      fixes = result.findings.map(() => null);
      fixesLimited = 'No finding has a fix: the scan\'s time ran out before its fixes were computed.';
    } else {
      fixes = boundFixes(computed.fixes);
      fixesLimited = computed.limited;
    }
  } finally {
    session.release();
  }
  return { result, references, fixes, fixesLimited };
}

/** The findings as `record_scan` stores them: each with its job, fingerprint, facts and fix. */
export function storedFindings(result: EngineScanResult, fixes: readonly (ApiFix | null)[]): StoredFinding[] {
  return result.records.map((record, i) =>
    withFix({ ...record.finding, job: record.job, fingerprint: record.fingerprint, ...(record.facts === undefined ? {} : { facts: record.facts }) }, fixes[i]),
  );
}

function countOf(findings: readonly Finding[]): Counts {
  const counts: Counts = { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
  for (const f of findings) counts[f.severity] += 1;
  return counts;
}

/**
 * How far past `maxEngineMs` the engine thread may go before it is terminated: the engine reads its deadline
 * between files, so a normal scan ends a little after it with its own scan-limit-reached finding.
 */
export const HARD_STOP_GRACE_MS = 1_000;

/**
 * The result of a scan whose engine thread was stopped: what the engine reports for a deadline already passed
 * (no workflow file parsed, one scan-limit-reached finding naming them all; the settings rules, which read only
 * the code host's bounded answers, still run). On the main thread, so the engine is loaded here, on this path only.
 */
async function outOfTime(job: EngineJob): Promise<EngineScanResult> {
  const { scanRepository } = await loadEngine();
  const disabled = new Set(job.disabled);
  return scanRepository(job.files, {
    ruleset: job.ruleset,
    isEnabled: (id) => !disabled.has(id),
    ...(job.settings === undefined ? {} : { settings: job.settings }),
    repository: job.repository,
    ...(job.defaultBranch === undefined ? {} : { defaultBranch: job.defaultBranch }),
    ruleOptions: job.ruleOptions,
    online: job.online,
    limits: { ...job.limits, deadline: 0, now: () => 1 },
  });
}

interface Engine {
  scanRepository: typeof scanRepository;
  apiFixes: typeof apiFixes;
}
let engineModules: Promise<Engine> | undefined;

/**
 * The engine and its fixes (most of the endpoint's code: the rules, the YAML parser, the diff library),
 * imported on the first scan of the process instead of when the endpoint module loads. Each scan starts
 * this before its first database round trip, so the loading runs while the database and GitHub answer
 * rather than before the request is even read. A failed import is tried again by the next scan.
 */
export function loadEngine(): Promise<Engine> {
  engineModules ??= Promise.all([import('../engine/scan.js'), import('../engine/fixes/apply.js')]).then(
    ([{ scanRepository }, { apiFixes }]) => ({ scanRepository, apiFixes }),
    (error: unknown) => {
      engineModules = undefined;
      throw error;
    },
  );
  const loading = engineModules;
  // A scan that fails before it needs the engine (404, 429, GitHub down) must not leave a rejection unhandled.
  loading.catch(() => undefined);
  return loading;
}

/**
 * The options of the user's rule settings, checked again: they were valid when stored, but a rule's schema may
 * have tightened since. Such options are never dropped silently (a policy would quietly stop applying): the
 * scan is refused with what to change. The rule catalog and the option schemas are loaded only for a user
 * who has stored options.
 */
export async function storedRuleOptions(stored: Readonly<Record<string, unknown>> | undefined): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const entries = Object.entries(stored ?? {});
  if (entries.length === 0) return out;
  const [{ isKnownRule }, { checkRuleOptions }] = await Promise.all([import('../engine/catalog.js'), import('../engine/rule-options.js')]);
  for (const [ruleId, options] of entries) {
    // A rule this version no longer has: nothing would apply its options.
    if (!isKnownRule(ruleId)) continue;
    const checked = checkRuleOptions(ruleId, options);
    if (!checked.ok) throw invalidRequest(`Your rule setting for ${ruleId} has options this version no longer takes (${checked.message}); change them with PUT /api/rule-settings/${ruleId}.`);
    out[ruleId] = options;
  }
  return out;
}

/** The largest fix stored or returned (its JSON, in UTF-8 bytes): a workflow file's diff is far smaller. */
export const MAX_FIX_BYTES = 64 * 1024;
/** The most fix bytes one scan stores or returns, all findings together. */
export const MAX_SCAN_FIX_BYTES = 2 * 1024 * 1024;

/**
 * The fixes within the bounds: a fix over `MAX_FIX_BYTES`, or past `MAX_SCAN_FIX_BYTES` for the scan, is
 * dropped whole (a cut diff would not apply), so the finding has none, in the response and in the database.
 */
export function boundFixes(fixes: readonly (ApiFix | null | undefined)[]): (ApiFix | null)[] {
  let room = MAX_SCAN_FIX_BYTES;
  return fixes.map((fix) => {
    if (fix === null || fix === undefined) return null;
    const bytes = Buffer.byteLength(JSON.stringify(fix), 'utf8');
    if (bytes > MAX_FIX_BYTES || bytes > room) return null;
    room -= bytes;
    return fix;
  });
}

function withFix<T extends object>(finding: T, fix: ApiFix | null | undefined): T & { fix?: ApiFix } {
  return fix === null || fix === undefined ? finding : { ...finding, fix };
}

/**
 * Stores the scan's `uses:` references for the next scan's read-ahead, when they changed. Beside
 * `recordScan` (no round trip of its own); a failure only costs the next scan a round trip to GitHub.
 */
export async function rememberReferences(db: Database, userId: string, repositoryId: string, previous: readonly string[], current: readonly string[] | undefined): Promise<void> {
  if (current === undefined || (current.length === previous.length && current.every((key, i) => key === previous[i]))) return;
  await setActionReferences(db, userId, repositoryId, current).catch(() => undefined);
}

/**
 * What makes a scan the same as an earlier one: the files it read and the findings made of them (fixes
 * included), hashed. An identical latest scan is not stored again (record_scan returns it).
 */
export function contentHash(files: readonly { path: string; text: string }[], findings: readonly StoredFinding[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.path.length}:${file.path}${file.text.length}:`).update(file.text);
  hash.update(JSON.stringify(findings));
  return hash.digest('hex');
}

/** Counts the scan against the user's limit (kept in the database, so it holds across instances); 429 when spent. */
async function enforceRateLimit(db: Database, userId: string): Promise<void> {
  const { max, windowSeconds } = env().scanRateLimit;
  if (max === 0) return;
  const decision = await consumeRateLimit(db, userId, { bucket: SCAN_RATE_LIMIT_BUCKET, limit: max, windowSeconds });
  if (!decision.allowed) throw rateLimited(decision.retry_after_seconds);
}
