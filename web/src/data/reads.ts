import { ApiError, type Api } from './api.js';
import type { CheckRun, Counts, Dismissals, Finding, Installation, RuleSetting, Scan, ScanPage, ScanSummary } from './types.js';
import { withoutBidi } from './text.js';

/**
 * The reads the contract lets a client take straight from the database (installations, scans, findings, rule
 * settings), behind one interface with two backends: the API's read endpoints (the embedded mode, which has
 * no Supabase) and Supabase's tables under row-level security (a client configured with the project URL and
 * anon key). Both return the same shapes for the same rows; a test holds them to that.
 */
export interface Reads {
  installations(): Promise<Installation[]>;
  /** Newest first; `cursor` is the previous page's `next_cursor`. */
  scans(repoId: string, page?: { limit?: number; cursor?: string | null }): Promise<ScanPage>;
  /** Null when the scan is not the user's (or does not exist). */
  scan(scanId: string): Promise<Scan | null>;
  ruleSettings(): Promise<RuleSetting[]>;
  overrides(repoId: string): Promise<RuleSetting[]>;
  /** The repository's triage decisions and their trail (newest first, at most 500 events). */
  dismissals(repoId: string): Promise<Dismissals>;
  /** The latest check run the GitHub App published on one of the repository's pull requests; null before one. */
  checkRun(repoId: string): Promise<CheckRun | null>;
}

export class ApiReads implements Reads {
  constructor(private readonly api: Api) {}
  async installations() {
    return (await this.api.installations()).installations;
  }
  scans(repoId: string, page: { limit?: number; cursor?: string | null } = {}) {
    return this.api.scans(repoId, page);
  }
  async scan(scanId: string) {
    try {
      return await this.api.scanById(scanId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }
  async ruleSettings() {
    return (await this.api.ruleSettings()).settings;
  }
  async overrides(repoId: string) {
    return (await this.api.overrides(repoId)).overrides;
  }
  dismissals(repoId: string) {
    return this.api.dismissals(repoId);
  }
  async checkRun(repoId: string) {
    return (await this.api.checkRun(repoId)).check_run;
  }
}

/** The part of supabase-js's query builder these reads use (a PostgREST query; awaiting it runs it). */
export interface TableQuery extends PromiseLike<{ data: Record<string, unknown>[] | null; error: { message: string } | null }> {
  eq(column: string, value: unknown): TableQuery;
  lt(column: string, value: unknown): TableQuery;
  order(column: string, options?: { ascending?: boolean }): TableQuery;
  limit(count: number): TableQuery;
}
export interface TableClient {
  from(table: string): { select(columns: string): TableQuery };
}

const SCAN_COLUMNS = 'id,repository_id,ruleset,trigger,high_count,medium_count,low_count,info_count,created_at,seq,commit_sha';
const FINDING_COLUMNS = 'file,line,column,severity,category,rule_id,title,description,recommendation,fingerprint,fix';
const SETTING_COLUMNS = 'rule_id,enabled,updated_at,severity';
const GLOBAL_SETTING_COLUMNS = `${SETTING_COLUMNS},options`;

/** A row as the API shows it: null columns (no options, no severity) leave their key out. */
const settingOf = (row: Record<string, unknown>): RuleSetting =>
  Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null && value !== undefined)) as unknown as RuleSetting;
const DISMISSAL_COLUMNS = 'fingerprint,kind,reason,comment,dismissed_by,created_at,updated_at';
const EVENT_COLUMNS = 'fingerprint,action,kind,reason,comment,actor,at';
const CHECK_RUN_COLUMNS = 'pull_number,head_sha,conclusion,html_url,new_findings,new_attack_paths,updated_at';
const MAX_EVENTS = 500;
const MAX_PAGE = 100;

async function rows(query: TableQuery): Promise<Record<string, unknown>[]> {
  const { data, error } = await query;
  if (error !== null) throw new ApiError(0, 'database', `The database refused the read: ${error.message}`);
  return withoutBidi(data ?? []);
}

function summary(row: Record<string, unknown>): ScanSummary {
  const counts: Counts = { HIGH: Number(row.high_count), MEDIUM: Number(row.medium_count), LOW: Number(row.low_count), INFO: Number(row.info_count) };
  return {
    scan_id: String(row.id),
    repo_id: String(row.repository_id),
    ruleset: row.ruleset as ScanSummary['ruleset'],
    trigger: row.trigger as ScanSummary['trigger'],
    counts,
    created_at: String(row.created_at),
    ...(typeof row.commit_sha === 'string' ? { commit_sha: row.commit_sha } : {}),
  };
}

export class SupabaseReads implements Reads {
  constructor(private readonly client: TableClient) {}

  async installations(): Promise<Installation[]> {
    const found = await rows(this.client.from('installations').select('installation_id,account_login,account_type,created_at').order('installation_id'));
    return found.map((row) => ({
      installation_id: Number(row.installation_id),
      account: String(row.account_login),
      account_type: String(row.account_type),
      created_at: String(row.created_at),
    }));
  }

  async scans(repoId: string, page: { limit?: number; cursor?: string | null } = {}): Promise<ScanPage> {
    const limit = Math.max(1, Math.min(page.limit ?? 20, MAX_PAGE));
    let query = this.client.from('scans').select(SCAN_COLUMNS).eq('repository_id', repoId);
    if (page.cursor) query = query.lt('seq', Number(page.cursor));
    const found = await rows(query.order('seq', { ascending: false }).limit(limit + 1));
    const shown = found.slice(0, limit);
    const last = shown.at(-1);
    return { scans: shown.map(summary), next_cursor: found.length > limit && last !== undefined ? String(last.seq) : null };
  }

  async scan(scanId: string): Promise<Scan | null> {
    const [row] = await rows(this.client.from('scans').select(SCAN_COLUMNS).eq('id', scanId).limit(1));
    if (row === undefined) return null;
    const findings = await rows(this.client.from('findings').select(FINDING_COLUMNS).eq('scan_id', scanId).order('ordinal'));
    // A finding without a fix has a null column; the API leaves the key out, and so does this.
    return { ...summary(row), findings: findings.map(({ fix, ...rest }) => (fix === null || fix === undefined ? rest : { ...rest, fix })) as unknown as Finding[] };
  }

  async ruleSettings(): Promise<RuleSetting[]> {
    return (await rows(this.client.from('rule_settings').select(GLOBAL_SETTING_COLUMNS).order('rule_id'))).map(settingOf);
  }

  async overrides(repoId: string): Promise<RuleSetting[]> {
    return (await rows(this.client.from('rule_overrides').select(SETTING_COLUMNS).eq('repository_id', repoId).order('rule_id'))).map(settingOf);
  }

  async dismissals(repoId: string): Promise<Dismissals> {
    const [dismissals, events] = await Promise.all([
      rows(this.client.from('dismissals').select(DISMISSAL_COLUMNS).eq('repository_id', repoId).order('fingerprint')),
      rows(this.client.from('dismissal_events').select(EVENT_COLUMNS).eq('repository_id', repoId).order('id', { ascending: false }).limit(MAX_EVENTS)),
    ]);
    return { dismissals, events } as unknown as Dismissals;
  }

  async checkRun(repoId: string): Promise<CheckRun | null> {
    const [row] = await rows(this.client.from('check_runs').select(CHECK_RUN_COLUMNS).eq('repository_id', repoId).limit(1));
    return row === undefined ? null : (row as unknown as CheckRun);
  }
}
