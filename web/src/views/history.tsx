import { SEVERITIES, type Finding, type Scan, type ScanSummary } from '../data/types.js';
import { Commit, CountBadges, formatTime, TRIGGER_LABELS } from './common.js';

/** What changed between two scans, by fingerprint (line-independent: a moved finding is neither new nor fixed). */
export function changesBetween(latest: Scan, previous: Scan): { added: Finding[]; fixed: Finding[] } {
  const before = new Set(previous.findings.map((f) => f.fingerprint));
  const now = new Set(latest.findings.map((f) => f.fingerprint));
  return {
    added: latest.findings.filter((f) => f.fingerprint !== undefined && !before.has(f.fingerprint)),
    fixed: previous.findings.filter((f) => f.fingerprint !== undefined && !now.has(f.fingerprint)),
  };
}

const total = (s: ScanSummary) => SEVERITIES.reduce((n, sev) => n + s.counts[sev], 0);

/** Findings per scan, oldest to newest, as a small line chart (the table below has the same numbers). */
function Trend({ scans }: { scans: readonly ScanSummary[] }) {
  const points = [...scans].reverse();
  if (points.length < 2) return null;
  const width = 320;
  const height = 60;
  const max = Math.max(1, ...points.map(total));
  const xy = points.map((s, i) => [4 + (i * (width - 8)) / (points.length - 1), height - 4 - (total(s) * (height - 8)) / max] as const);
  return (
    <svg class="trend" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Findings per scan, oldest to newest: ${points.map(total).join(', ')}`}>
      <polyline points={xy.map((p) => p.join(',')).join(' ')} />
      {xy.map(([x, y], i) => (
        <circle key={i} cx={x} cy={y} r="3" />
      ))}
    </svg>
  );
}

function Changed({ title, findings, id }: { title: string; findings: readonly Finding[]; id: string }) {
  return (
    <div class="changed" data-changes={id}>
      <h3>
        {title} ({findings.length})
      </h3>
      {findings.length > 0 && (
        <ul>
          {findings.map((f, i) => (
            <li key={`${f.fingerprint}:${i}`}>
              <code>{f.rule_id}</code> {f.severity} · <code>{f.file === '<repository settings>' ? 'Repository settings' : `${f.file}:${f.line}`}</code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The repository's scans over time with their counts, and what the latest scan found new or no longer found. */
export function History({ scans, changes, htmlUrl = '' }: { scans: readonly ScanSummary[]; changes: { added: Finding[]; fixed: Finding[] } | null; htmlUrl?: string }) {
  return (
    <section class="history" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      {scans.length < 2 ? (
        <p class="muted">One scan so far: scan again to see what changed.</p>
      ) : (
        <>
          <Trend scans={scans} />
          {changes && (
            <div class="changes">
              <Changed id="new" title="New since the previous scan" findings={changes.added} />
              <Changed id="fixed" title="Fixed since the previous scan" findings={changes.fixed} />
            </div>
          )}
        </>
      )}
      <details>
        <summary>Scans ({scans.length})</summary>
        <table class="scans">
          <thead>
            <tr>
              <th scope="col">Scanned</th>
              <th scope="col">Trigger</th>
              <th scope="col">Commit</th>
              <th scope="col">Findings</th>
            </tr>
          </thead>
          <tbody>
            {scans.map((s) => (
              <tr key={s.scan_id}>
                <td>{formatTime(s.created_at)}</td>
                <td data-testid="scan-trigger">{TRIGGER_LABELS[s.trigger] ?? 'manual'}</td>
                <td>
                  <Commit sha={s.commit_sha} htmlUrl={htmlUrl} />
                </td>
                <td>
                  <CountBadges counts={s.counts} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
