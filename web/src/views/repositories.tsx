import { useEffect, useState } from 'preact/hooks';
import type { Services } from '../app.js';
import type { Installation, Repository, ScanSummary } from '../data/types.js';
import { runPool } from '../pool.js';
import { CountBadges, Loading, Notice, cachedRepos, errorText, formatTime } from './common.js';

type RowStatus = { state: 'idle' } | { state: 'queued' } | { state: 'scanning' } | { state: 'done' } | { state: 'failed'; message: string };

const SCAN_CONCURRENCY = 3;

export function RepositoriesView({ services }: { services: Services }) {
  const { api, reads, config } = services;
  const [data, setData] = useState<{ connected: boolean; repositories: Repository[] } | null>(null);
  const [installations, setInstallations] = useState<Installation[]>([]);
  const [latest, setLatest] = useState<Record<string, ScanSummary | null>>({});
  const [status, setStatus] = useState<Record<string, RowStatus>>({});
  const [error, setError] = useState<string | null>(null);
  const [batch, setBatch] = useState<{ total: number; finished: number; failed: number } | null>(null);

  const loadLatest = async (repositories: Repository[]) => {
    const pairs = await Promise.all(
      repositories.map(async (repo) => [repo.id, (await reads.scans(repo.id, { limit: 1 }).catch(() => ({ scans: [] }))).scans[0] ?? null] as const),
    );
    setLatest(Object.fromEntries(pairs));
  };

  useEffect(() => {
    void (async () => {
      try {
        const [listed, linked] = await Promise.all([cachedRepos(api, true), reads.installations()]);
        setData(listed);
        setInstallations(linked);
        await loadLatest(listed.repositories);
      } catch (e) {
        setError(errorText(e));
      }
    })();
  }, []);

  const scanOne = async (repo: Repository) => {
    setStatus((s) => ({ ...s, [repo.id]: { state: 'scanning' } }));
    try {
      const result = await api.scan(repo.id);
      setStatus((s) => ({ ...s, [repo.id]: { state: 'done' } }));
      const [newest] = (await reads.scans(repo.id, { limit: 1 })).scans;
      setLatest((l) => ({ ...l, [repo.id]: newest ?? { ...result, ruleset: 'all', created_at: new Date().toISOString() } }));
    } catch (e) {
      setStatus((s) => ({ ...s, [repo.id]: { state: 'failed', message: errorText(e) } }));
      throw e;
    }
  };

  const scanMany = async (repos: Repository[]) => {
    setBatch({ total: repos.length, finished: 0, failed: 0 });
    setStatus((s) => ({ ...s, ...Object.fromEntries(repos.map((r) => [r.id, { state: 'queued' } as RowStatus])) }));
    await runPool(repos, SCAN_CONCURRENCY, async (repo) => {
      try {
        await scanOne(repo);
        setBatch((b) => b && { ...b, finished: b.finished + 1 });
      } catch {
        setBatch((b) => b && { ...b, finished: b.finished + 1, failed: b.failed + 1 });
      }
    });
  };

  const connect = () => {
    if (config.connectUrl) location.href = config.connectUrl;
  };
  const busy = Object.values(status).some((s) => s.state === 'queued' || s.state === 'scanning');
  const repositories = data?.repositories ?? [];
  const failed = repositories.filter((r) => status[r.id]?.state === 'failed');

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
      {data === null && !error && <Loading what="repositories" />}
      {data !== null && !data.connected && (
        <Notice kind="info">
          No GitHub account is connected yet. Use “Connect GitHub” to install the Chainbreaker App on your account or organization; you come back here when it is done.
        </Notice>
      )}
      {data !== null && data.connected && repositories.length === 0 && <Notice kind="info">The connected installations give access to no repository.</Notice>}
      {repositories.length > 0 && (
        <div class="table-wrap">
          <table class="repos">
            <caption class="sr-only">Your repositories with their last scan</caption>
            <thead>
              <tr>
                <th scope="col">Repository</th>
                <th scope="col">Last scan</th>
                <th scope="col">Findings</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {repositories.map((repo) => {
                const last = latest[repo.id];
                const row = status[repo.id] ?? { state: 'idle' };
                return (
                  <tr key={repo.id} data-repo={repo.full_name}>
                    <th scope="row">
                      <a href={`#/repos/${encodeURIComponent(repo.id)}`}>{repo.full_name}</a>
                      {repo.private && <span class="tag">private</span>}
                    </th>
                    <td>{last === undefined ? '…' : last === null ? 'Never' : formatTime(last.created_at)}</td>
                    <td>{last ? <CountBadges counts={last.counts} /> : <span class="muted">—</span>}</td>
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
      )}
    </section>
  );
}
