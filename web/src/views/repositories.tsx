import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Services } from '../app.js';
import { SEVERITIES, type Installation, type RepositoryOverview, type Severity } from '../data/types.js';
import { download, repositoriesCsv, type RepositoryRow } from '../data/export.js';
import { matches, oneOf, pageNumber, paginate } from '../data/query.js';
import { runPool } from '../pool.js';
import { CountBadges, Loading, Notice, PersistentNotice, cachedRepos, errorText, formatTime, rememberStoredRepos } from './common.js';
import { Choice, ExportButtons, Pager, SearchBox, Toolbar, useViewQuery } from './find.js';

type RowStatus = { state: 'idle' } | { state: 'queued' } | { state: 'scanning' } | { state: 'done' } | { state: 'failed'; message: string };

const SCAN_CONCURRENCY = 3;
export const REPOS_PER_PAGE = 50;

const SORTS = ['name', 'severity', 'count', 'last-scan'] as const;
const SCANNED = ['all', 'scanned', 'never'] as const;
const DEFAULTS = { q: '', sort: 'name', dir: 'asc', severity: '', scanned: 'all', page: '1' };
type RepoQuery = typeof DEFAULTS;

function readQuery(raw: Record<string, string>): RepoQuery {
  return {
    q: raw.q ?? '',
    sort: oneOf(raw.sort, SORTS, 'name'),
    dir: oneOf(raw.dir, ['asc', 'desc'] as const, 'asc'),
    severity: oneOf(raw.severity, ['', ...SEVERITIES] as const, ''),
    scanned: oneOf(raw.scanned, SCANNED, 'all'),
    page: String(pageNumber(raw.page)),
  };
}

const total = (row: RepositoryOverview) => (row.latest_scan ? SEVERITIES.reduce((n, s) => n + (row.latest_scan?.counts[s] ?? 0), 0) : -1);
/** Most severe first: HIGH count, then MEDIUM, LOW and INFO; a never-scanned repository last. */
function bySeverity(a: RepositoryOverview, b: RepositoryOverview): number {
  for (const s of SEVERITIES) {
    const d = (b.latest_scan?.counts[s] ?? -1) - (a.latest_scan?.counts[s] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}
const COMPARE: Record<(typeof SORTS)[number], (a: RepositoryOverview, b: RepositoryOverview) => number> = {
  name: () => 0,
  severity: bySeverity,
  count: (a, b) => total(b) - total(a),
  'last-scan': (a, b) => (b.latest_scan?.created_at ?? '').localeCompare(a.latest_scan?.created_at ?? ''),
};

/** The rows the filters keep, in the chosen order (the name breaks ties). Pure, for the tests. */
export function selectRepositories(rows: readonly RepositoryOverview[], query: RepoQuery): RepositoryOverview[] {
  const kept = rows.filter(
    (r) =>
      matches(query.q, r.full_name) &&
      (query.scanned === 'all' || (query.scanned === 'scanned') === (r.latest_scan !== null)) &&
      (query.severity === '' || (r.latest_scan?.counts[query.severity as Severity] ?? 0) > 0),
  );
  const compare = COMPARE[query.sort as (typeof SORTS)[number]];
  const sign = query.dir === 'desc' ? -1 : 1;
  return kept.sort((a, b) => sign * (compare(a, b) || a.full_name.localeCompare(b.full_name)));
}

const asRow = (r: RepositoryOverview): RepositoryRow => ({
  full_name: r.full_name,
  private: r.private,
  html_url: r.html_url,
  last_scan: r.latest_scan?.created_at ?? null,
  counts: r.latest_scan?.counts ?? null,
  dismissed: r.latest_scan?.dismissed ?? 0,
});

export function RepositoriesView({ services }: { services: Services }) {
  const { api, reads, config } = services;
  const [rows, setRows] = useState<RepositoryOverview[] | null>(null);
  const [connected, setConnected] = useState<boolean | null>(null);
  const [installations, setInstallations] = useState<Installation[]>([]);
  const [status, setStatus] = useState<Record<string, RowStatus>>({});
  const [error, setError] = useState<string | null>(null);
  const [batch, setBatch] = useState<{ total: number; finished: number; failed: number } | null>(null);
  const [query, setQuery] = useViewQuery('/', DEFAULTS, readQuery);

  // One request for every repository's latest scan and open counts, however many there are.
  const loadOverview = async () => {
    const { repositories } = await api.overview();
    setRows(repositories);
    rememberStoredRepos(repositories);
  };

  useEffect(() => {
    void (async () => {
      try {
        // What is stored shows first; the sync with the code host follows (after it, not beside it: the
        // sync's writes would hold up the read), then the list once more.
        await Promise.all([loadOverview(), reads.installations().then(setInstallations)]);
        const listed = await cachedRepos(api, true);
        setConnected(listed.connected);
        await loadOverview();
      } catch (e) {
        setError(errorText(e));
      }
    })();
  }, []);

  const scanOne = async (repo: RepositoryOverview) => {
    setStatus((s) => ({ ...s, [repo.repo_id]: { state: 'scanning' } }));
    try {
      // The scan's counts are the open ones already (dismissed findings are left out of them).
      const result = await api.scan(repo.repo_id);
      setStatus((s) => ({ ...s, [repo.repo_id]: { state: 'done' } }));
      const latest = { scan_id: result.scan_id, ruleset: result.ruleset ?? 'all', created_at: new Date().toISOString(), counts: result.counts, dismissed: result.dismissed_findings?.length ?? 0 };
      setRows((list) => list && list.map((r) => (r.repo_id === repo.repo_id ? { ...r, latest_scan: latest } : r)));
    } catch (e) {
      setStatus((s) => ({ ...s, [repo.repo_id]: { state: 'failed', message: errorText(e) } }));
      throw e;
    }
  };

  const scanMany = async (repos: RepositoryOverview[]) => {
    setBatch({ total: repos.length, finished: 0, failed: 0 });
    setStatus((s) => ({ ...s, ...Object.fromEntries(repos.map((r) => [r.repo_id, { state: 'queued' } as RowStatus])) }));
    await runPool(repos, SCAN_CONCURRENCY, async (repo) => {
      try {
        await scanOne(repo);
        setBatch((b) => b && { ...b, finished: b.finished + 1 });
      } catch {
        setBatch((b) => b && { ...b, finished: b.finished + 1, failed: b.failed + 1 });
      }
    });
    // The stored times and counts, once for the batch.
    await loadOverview().catch(() => undefined);
  };

  const connect = () => {
    if (config.connectUrl) location.href = config.connectUrl;
  };
  const busy = Object.values(status).some((s) => s.state === 'queued' || s.state === 'scanning');
  const repositories = rows ?? [];
  const failed = repositories.filter((r) => status[r.repo_id]?.state === 'failed');
  const selected = useMemo(() => selectRepositories(repositories, query), [rows, query]);
  const shown = paginate(selected, Number(query.page), REPOS_PER_PAGE);
  const totals = useMemo(() => {
    const counts = { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
    let scanned = 0;
    for (const r of repositories) {
      if (!r.latest_scan) continue;
      scanned += 1;
      for (const s of SEVERITIES) counts[s] += r.latest_scan.counts[s];
    }
    return { counts, scanned };
  }, [rows]);
  const exportName = `chainbreaker-repositories-${new Date().toISOString().slice(0, 10)}`;

  return (
    <section aria-labelledby="repos-title">
      <div class="title-row">
        <h1 id="repos-title">Repositories</h1>
        <div class="actions">
          <button type="button" onClick={connect} disabled={!config.connectUrl} title={config.connectUrl ? undefined : 'GITHUB_APP_SLUG is not set'}>
            Connect GitHub
          </button>
          <button type="button" class="primary" disabled={busy || repositories.length === 0} onClick={() => void scanMany(repositories)}>
            Scan all
          </button>
        </div>
      </div>
      {installations.length > 0 && (
        <p class="muted">
          Connected: {installations.map((i) => `${i.account} (${i.account_type === 'Organization' ? 'organization' : 'account'})`).join(', ')}
        </p>
      )}
      {error && <Notice kind="error">{error}</Notice>}
      <PersistentNotice id="getting-started" kind="info">
        Scan your repositories, then open Attack paths: each path is drawn as a chain, and fixing its stage marked “break here” breaks it. Searches, filters and pages are kept
        in the address, so a link shares the view you see.
      </PersistentNotice>
      {batch && (
        <div class="progress" role="status">
          <progress max={batch.total} value={batch.finished} aria-label="Scan progress" />
          <span>
            {batch.finished} of {batch.total} scanned{batch.failed > 0 ? `, ${batch.failed} failed` : ''}
          </span>
          {!busy && failed.length > 0 && (
            <button type="button" onClick={() => void scanMany(failed)}>
              Retry failed
            </button>
          )}
        </div>
      )}
      {rows === null && !error && <Loading what="repositories" />}
      {connected === false && repositories.length === 0 && (
        <Notice kind="info">
          No GitHub account is connected yet. Use “Connect GitHub” to install the Chainbreaker App on your account or organization; you come back here when it is done.
        </Notice>
      )}
      {connected === true && repositories.length === 0 && <Notice kind="info">The connected installations give access to no repository.</Notice>}
      {repositories.length > 0 && (
        <>
          <p class="totals" data-totals>
            {repositories.length} {repositories.length === 1 ? 'repository' : 'repositories'}, {totals.scanned} scanned · open findings <CountBadges counts={totals.counts} />
          </p>
          <Toolbar>
            <SearchBox label="Search" value={query.q} placeholder="owner/name" onInput={(q) => setQuery({ q })} />
            <Choice
              label="Sort by"
              value={query.sort}
              onChange={(sort) => setQuery({ sort })}
              options={[
                { value: 'name', label: 'Name' },
                { value: 'severity', label: 'Severity (most severe first)' },
                { value: 'count', label: 'Open findings (most first)' },
                { value: 'last-scan', label: 'Last scan (newest first)' },
              ]}
            />
            <Choice
              label="Order"
              value={query.dir}
              onChange={(dir) => setQuery({ dir })}
              options={[
                { value: 'asc', label: 'As sorted' },
                { value: 'desc', label: 'Reversed' },
              ]}
            />
            <Choice
              label="With findings of"
              value={query.severity}
              onChange={(severity) => setQuery({ severity })}
              options={[{ value: '', label: 'Any severity' }, ...SEVERITIES.map((s) => ({ value: s, label: s }))]}
            />
            <Choice
              label="Scanned"
              value={query.scanned}
              onChange={(scanned) => setQuery({ scanned })}
              options={[
                { value: 'all', label: 'All' },
                { value: 'scanned', label: 'Scanned' },
                { value: 'never', label: 'Never scanned' },
              ]}
            />
            <ExportButtons
              what="repositories"
              structured="JSON"
              onCsv={() => download(`${exportName}.csv`, 'text/csv', repositoriesCsv(selected.map(asRow)))}
              onStructured={() => download(`${exportName}.json`, 'application/json', `${JSON.stringify({ repositories: selected.map(asRow) }, null, 2)}\n`)}
            />
          </Toolbar>
          <Pager page={shown.page} pages={shown.pages} total={selected.length} perPage={REPOS_PER_PAGE} noun="repositories" onPage={(page) => setQuery({ page: String(page) })} />
          <div class="table-wrap">
            <table class="repos">
              <caption class="sr-only">Your repositories with their last scan</caption>
              <thead>
                <tr>
                  <th scope="col">Repository</th>
                  <th scope="col">Last scan</th>
                  <th scope="col">Open findings</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.items.map((repo) => {
                  const last = repo.latest_scan;
                  const row = status[repo.repo_id] ?? { state: 'idle' };
                  return (
                    <tr key={repo.repo_id} data-repo={repo.full_name}>
                      <th scope="row">
                        <a href={`#/repos/${encodeURIComponent(repo.repo_id)}`}>{repo.full_name}</a>
                        {repo.private && <span class="tag">private</span>}
                      </th>
                      <td>{last === null ? 'Never' : formatTime(last.created_at)}</td>
                      <td>
                        {last ? (
                          <>
                            <CountBadges counts={last.counts} />
                            {last.dismissed > 0 && <span class="muted small"> {last.dismissed} dismissed</span>}
                          </>
                        ) : (
                          <span class="muted">—</span>
                        )}
                      </td>
                      <td class={`status ${row.state}`}>
                        {row.state === 'idle' && <span class="muted">—</span>}
                        {row.state === 'queued' && 'Queued'}
                        {row.state === 'scanning' && 'Scanning…'}
                        {row.state === 'done' && 'Scanned'}
                        {row.state === 'failed' && <span>Failed: {row.message}</span>}
                      </td>
                      <td class="row-actions">
                        <button
                          type="button"
                          aria-label={row.state === 'failed' ? `Retry ${repo.full_name}` : `Scan ${repo.full_name}`}
                          disabled={row.state === 'queued' || row.state === 'scanning'}
                          onClick={() => void scanOne(repo).catch(() => undefined)}
                        >
                          {row.state === 'failed' ? 'Retry' : 'Scan'}
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {selected.length === 0 && <Notice kind="info">No repository matches the search and filters.</Notice>}
          {shown.pages > 1 && <Pager at="end" page={shown.page} pages={shown.pages} total={selected.length} perPage={REPOS_PER_PAGE} noun="repositories" onPage={(page) => setQuery({ page: String(page) })} />}
        </>
      )}
    </section>
  );
}
