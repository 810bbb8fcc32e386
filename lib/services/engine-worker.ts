/**
 * The scan's engine thread (lib/services/engine-runner.ts starts it): the engine and the fixes run here, in a
 * worker the service terminates at the scan's deadline, so no rule, regular expression or fix can hold the
 * process (and its other requests, `GET /api/health` among them) past the scan's budget.
 *
 * One job at a time: `scan` runs the engine and answers `scanned`; then `fix` (the findings after the online
 * audits joined theirs) computes their fixes within the time left and answers `fixed`. A worker that answered
 * is used again by a later scan; one that ran out of time is terminated, never reused.
 */
import { isMainThread, parentPort } from 'node:worker_threads';
import type { ApiFix, FixLimits } from '../engine/fixes/apply.js';
import type { ScanOptions, ScanResult } from '../engine/scan.js';
import type { SettingsSnapshot } from '../engine/settings/snapshot.js';
import type { Finding, RepositoryFile, Ruleset, Severity } from '../engine/types.js';

/** What the engine thread needs of a scan (plain data: it crosses threads). */
export interface EngineJob {
  files: RepositoryFile[];
  ruleset: Ruleset;
  /** Rules switched off by the user's settings (they never run). */
  disabled: string[];
  settings?: SettingsSnapshot;
  repository: string;
  /** The repository's default branch, as GitHub reported it with the repository (`ScanOptions.defaultBranch`). */
  defaultBranch?: string;
  ruleOptions: Record<string, unknown>;
  /** The user's severity per rule (override, else global setting), applied once the online findings are joined (`runEngineJob`). */
  severities?: Record<string, Severity>;
  online: boolean;
  limits: Omit<NonNullable<ScanOptions['limits']>, 'now' | 'deadline'>;
  /** The engine's budget: its deadline is this long after the thread starts the scan. */
  maxEngineMs: number;
}

export type ToEngine = { kind: 'scan'; job: EngineJob } | { kind: 'fix'; findings: Finding[]; limits: Omit<FixLimits, 'now' | 'deadline'>; budgetMs: number };
export type FromEngine =
  | { kind: 'started' }
  | { kind: 'scanned'; result: ScanResult }
  | { kind: 'fixed'; fixes: (ApiFix | null)[]; limited: string | null }
  | { kind: 'failed'; message: string };

if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  // The engine loads as soon as the thread starts, while the scan's database and GitHub round trips run.
  const engine = Promise.all([import('../engine/scan.js'), import('../engine/fixes/apply.js')]);
  engine.catch(() => undefined);
  let job: EngineJob | undefined;
  port.on('message', (message: ToEngine) => {
    void handle(message).then(
      (answer) => port.postMessage(answer),
      (error: unknown) => port.postMessage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies FromEngine),
    );
  });

  async function handle(message: ToEngine): Promise<FromEngine> {
    // The step's budget starts now, with the engine loaded: the main thread's clock starts on `started`.
    const [{ scanRepository }, { apiFixesWithLimits }] = await engine;
    port.postMessage({ kind: 'started' } satisfies FromEngine);
    if (message.kind === 'scan') {
      job = message.job;
      const disabled = new Set(job.disabled);
      const result = scanRepository(job.files, {
        ruleset: job.ruleset,
        isEnabled: (id) => !disabled.has(id),
        ...(job.settings === undefined ? {} : { settings: job.settings }),
        repository: job.repository,
        ...(job.defaultBranch === undefined ? {} : { defaultBranch: job.defaultBranch }),
        ruleOptions: job.ruleOptions,
        online: job.online,
        limits: { ...job.limits, deadline: Date.now() + job.maxEngineMs },
      });
      return { kind: 'scanned', result };
    }
    if (job === undefined) throw new Error('fix before scan');
    const disabled = new Set(job.disabled);
    const { fixes, limited } = apiFixesWithLimits(job.files, message.findings, job.repository, {
      ruleset: job.ruleset,
      isEnabled: (id) => !disabled.has(id),
      ...(job.settings === undefined ? {} : { settings: job.settings }),
      ruleOptions: job.ruleOptions,
      ...message.limits,
      deadline: Date.now() + message.budgetMs,
    });
    job = undefined;
    return { kind: 'fixed', fixes, limited };
  }
}
