import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, type Api } from '../data/api.js';
import { commitUrl } from '../data/links.js';
import { SEVERITIES, type CheckRun, type Counts, type Repository, type RepositoryOverview, type ScanTrigger } from '../data/types.js';

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

export function Notice(props: { kind: 'ok' | 'error' | 'info'; children: ComponentChildren; onDismiss?: () => void }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      <span>{props.children}</span>
      {props.onDismiss && (
        <button type="button" class="link" onClick={props.onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  );
}

export function SeverityBadge(props: { severity: string; count?: number }) {
  const label = props.count === undefined ? props.severity : `${props.count} ${props.severity}`;
  return <span class={`badge sev-${props.severity.toLowerCase()}${props.count === 0 ? ' zero' : ''}`}>{label}</span>;
}

export function CountBadges(props: { counts: Counts }) {
  return (
    <span class="counts">
      {SEVERITIES.map((s) => (
        <SeverityBadge key={s} severity={s} count={props.counts[s]} />
      ))}
    </span>
  );
}

export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function Loading(props: { what: string }) {
  return (
    <p class="muted" aria-busy="true">
      Loading {props.what}…
    </p>
  );
}

// GET /api/repos asks the code host each time; views after the first reuse its answer for this page load.
let repos: Promise<{ connected: boolean; repositories: Repository[] }> | null = null;
export function cachedRepos(api: Api, refresh = false) {
  if (refresh || repos === null) {
    repos = api.repos();
    repos.catch(() => {
      repos = null;
    });
  }
  return repos;
}

// GET /api/repositories reads the stored rows (no code host): what a view needs to name a repository and
// link to it, fast at any number of repositories. The Repositories view refreshes it after its sync.
let stored: Promise<Repository[]> | null = null;
const asRepository = (r: RepositoryOverview): Repository => ({ id: r.repo_id, full_name: r.full_name, private: r.private, html_url: r.html_url });
/** What the Repositories view read last, for the other views. */
export function rememberStoredRepos(rows: readonly RepositoryOverview[]): void {
  stored = Promise.resolve(rows.map(asRepository));
}
export function storedRepos(api: Api, refresh = false): Promise<Repository[]> {
  if (refresh || stored === null) {
    stored = api.overview().then(({ repositories }) => repositories.map(asRepository));
    stored.catch(() => {
      stored = null;
    });
  }
  return stored;
}

/** Text with `code spans` (as the rule and combination texts write them) shown as code; everything else as text. */
export function Prose({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/);
  return (
    <>
      {parts.map((part, i) => (part.length > 2 && part.startsWith('`') && part.endsWith('`') ? <code key={i}>{part.slice(1, -1)}</code> : part))}
    </>
  );
}

const DISMISSED_NOTICES = 'chainbreaker.dismissedNotices';

function dismissedNotices(): string[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(DISMISSED_NOTICES) ?? '[]');
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string').slice(0, 100) : [];
  } catch {
    return [];
  }
}

/** Whether the notice `id` was dismissed in this browser (kept in localStorage: a reload or a later visit keeps it so). */
export function noticeDismissed(id: string): boolean {
  return dismissedNotices().includes(id);
}

export function rememberNoticeDismissed(id: string): void {
  try {
    localStorage.setItem(DISMISSED_NOTICES, JSON.stringify([...new Set([...dismissedNotices(), id])].slice(-100)));
  } catch {
    // Storage refused (private mode, quota): the notice is gone for this page load only.
  }
}

/** A notice that, once dismissed, stays dismissed in this browser. */
export function PersistentNotice({ id, kind, children }: { id: string; kind: 'ok' | 'info'; children: ComponentChildren }) {
  const [hidden, setHidden] = useState(() => noticeDismissed(id));
  if (hidden) return null;
  return (
    <div data-notice={id}>
      <Notice
        kind={kind}
        onDismiss={() => {
          rememberNoticeDismissed(id);
          setHidden(true);
        }}
      >
        {children}
      </Notice>
    </div>
  );
}

/** What started a scan, in the words the views use. */
export const TRIGGER_LABELS: Readonly<Record<ScanTrigger, string>> = { manual: 'manual', push: 'push', pull_request: 'pull request', schedule: 'schedule' };

/** A commit as its short SHA, linked to it on GitHub when the repository has an `https:` URL. */
export function Commit({ sha, htmlUrl }: { sha: string | undefined; htmlUrl: string }) {
  if (sha === undefined) return <span class="muted">–</span>;
  const url = commitUrl(htmlUrl, sha);
  const short = <code title={sha}>{sha.slice(0, 7)}</code>;
  return url === null ? short : (
    <a href={url} rel="noreferrer noopener" target="_blank" aria-label={`Commit ${sha.slice(0, 7)} on GitHub`}>
      {short}
    </a>
  );
}

/** The latest pull request check run: its conclusion, linked to it on GitHub. */
export function CheckRunResult({ run }: { run: CheckRun }) {
  const label = { success: 'passed', failure: 'failed', neutral: 'neutral (scan limited)' }[run.conclusion];
  return (
    <span class={`check-run check-${run.conclusion}`} data-testid="check-run">
      Latest pull request check (#{run.pull_number}):{' '}
      <a href={run.html_url.startsWith('https://') ? run.html_url : undefined} rel="noreferrer noopener" target="_blank">
        {label}
      </a>
      {run.new_findings + run.new_attack_paths > 0 && ` · ${run.new_attack_paths} new attack ${run.new_attack_paths === 1 ? 'path' : 'paths'}, ${run.new_findings} new ${run.new_findings === 1 ? 'finding' : 'findings'}`}
    </span>
  );
}
