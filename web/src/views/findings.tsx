import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Services } from '../app.js';
import { SEVERITIES, type CheckRun, type Counts, type Dismissal, type DismissalEvent, type DismissalReason, type Dismissals, type Finding, type Repository, type Scan, type ScanSummary, type Severity } from '../data/types.js';
import { CheckRunResult, Commit, CountBadges, Loading, Notice, Prose, SeverityBadge, TRIGGER_LABELS, errorText, formatTime, storedRepos } from './common.js';
import { DismissForm, DismissalNote } from './triage.js';
import { History, changesBetween } from './history.js';
import { BASELINE_NAME, baselineOf, parseBaselineDecisions } from '../data/baseline.js';
import { codeUrl, ghApiCommand, settingsUrl, SETTINGS_FILE, type ApiCall } from '../data/links.js';
import { download, findingsCsv, findingsSarif, type FindingRow } from '../data/export.js';
import { matches, oneOf } from '../data/query.js';
import { ExportButtons, SearchBox, useViewQuery } from './find.js';
import { diffLineKind } from '../data/diff.js';
import { ratedBy, type RatedBy } from '../data/rated.js';

export type FindingStatus = 'open' | 'dismissed';

function countsOf(findings: readonly Finding[]): Counts {
  const counts: Counts = { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
  for (const f of findings) counts[f.severity] += 1;
  return counts;
}

function apiCallOf(fix: Finding['fix']): ApiCall | undefined {
  const api = fix?.api as Partial<ApiCall> | undefined;
  return api && typeof api.method === 'string' && typeof api.path === 'string' ? (api as ApiCall) : undefined;
}

/** A diff coloured line by line (the text stays exactly the diff: Copy and a reader's selection get it whole). */
function DiffLines({ diff }: { diff: string }) {
  const lines = diff.split('\n');
  return (
    <>
      {lines.map((line, i) => (
        <span key={i} class={diffLineKind(line)}>
          {line}
          {i < lines.length - 1 ? '\n' : ''}
        </span>
      ))}
    </>
  );
}

/** A finding's fix: a workflow diff with a copy button, a settings fix as the `gh api` command, else as text. */
function Fix({ fix, fullName }: { fix: NonNullable<Finding['fix']>; fullName: string }) {
  const [copied, setCopied] = useState(false);
  const call = apiCallOf(fix);
  const text = typeof fix.diff === 'string' ? fix.diff : call ? ghApiCommand(call, fullName) : JSON.stringify(fix, null, 2);
  return (
    <div class="fix">
      <div class="fix-head">
        <strong>{typeof fix.diff === 'string' ? (fix.safe ? 'Suggested fix (safe to apply)' : 'Suggested fix (review before applying)') : call ? 'Fix with the GitHub CLI' : 'Fix'}</strong>
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre class={call && typeof fix.diff !== 'string' ? 'command' : typeof fix.diff === 'string' ? 'diff' : undefined}>
        <code>{typeof fix.diff === 'string' ? <DiffLines diff={fix.diff} /> : text}</code>
      </pre>
    </div>
  );
}

/** Where the finding is, linked to the file and line at the scanned commit, or to the settings page it is about. */
function Where({ finding: f, htmlUrl, commitSha }: { finding: Finding; htmlUrl: string; commitSha: string | undefined }) {
  if (f.file === SETTINGS_FILE) {
    const href = settingsUrl(htmlUrl, apiCallOf(f.fix)?.path);
    const label = 'Repository settings';
    return href ? (
      <a class="where" href={href} rel="noreferrer noopener" target="_blank">
        {label}
      </a>
    ) : (
      <code class="where">{label}</code>
    );
  }
  const text = `${f.file}:${f.line}:${f.column}`;
  const href = codeUrl(htmlUrl, commitSha, f.file, f.line);
  return href ? (
    <a class="where" href={href} rel="noreferrer noopener" target="_blank">
      <code>{text}</code>
    </a>
  ) : (
    <code class="where">{text}</code>
  );
}

/** A finding's triage: Dismiss (with the form), or for a dismissed one its decision and Reopen. */
function Triage(props: {
  finding: Finding;
  what: string;
  dismissal: Dismissal | undefined;
  events: DismissalEvent[];
  open: boolean;
  onOpen: (open: boolean) => void;
  onDismiss: (reason: DismissalReason, comment: string) => Promise<void>;
  onReopen: () => Promise<void>;
}) {
  const [error, setError] = useState<string | null>(null);
  // A finding read from a scan stored before fingerprints were returned cannot be triaged.
  if (props.finding.fingerprint === undefined) return null;
  if (props.dismissal) {
    return (
      <div class="triage">
        <DismissalNote dismissal={props.dismissal} events={props.events} />
        <button type="button" onClick={() => props.onReopen().catch((e: unknown) => setError(errorText(e)))} aria-label={`Reopen ${props.what}`}>
          Reopen
        </button>
        {error && <span role="alert">{error}</span>}
      </div>
    );
  }
  if (props.open) return <DismissForm what={props.what} onSubmit={props.onDismiss} onCancel={() => props.onOpen(false)} />;
  return (
    <div class="triage">
      <button type="button" onClick={() => props.onOpen(true)} aria-label={`Dismiss ${props.what}`}>
        Dismiss…
      </button>
    </div>
  );
}

/** Says that a rule's findings are at the severity the user's Rule settings give it (not the rule's own). */
function RatedNote({ rated }: { rated: RatedBy }) {
  return (
    <span class="rerated small" data-testid="rerated">
      Rated {rated.severity} by your{' '}
      <a href="#/settings">{rated.scope === 'repository' ? 'setting for this repository' : 'global rule setting'}</a>
    </span>
  );
}

const FINDING_DEFAULTS = { q: '', severity: '', rule: '', status: 'open' };
type FindingQuery = typeof FINDING_DEFAULTS;
const readFindingQuery = (raw: Record<string, string>): FindingQuery => ({
  q: raw.q ?? '',
  severity: oneOf(raw.severity, ['', ...SEVERITIES] as const, ''),
  // Checked against the scan's rules when it is shown (an unknown one matches nothing and says so).
  rule: /^[a-z0-9-]{1,64}$/.test(raw.rule ?? '') ? (raw.rule ?? '') : '',
  status: oneOf(raw.status, ['open', 'dismissed'] as const, 'open'),
});

export function FindingsView({ services, repoId }: { services: Services; repoId: string; rule?: string | null; status?: FindingStatus }) {
  const { api, reads } = services;
  const [repo, setRepo] = useState<Repository | null>(null);
  const [scan, setScan] = useState<Scan | null | undefined>(undefined);
  const [triage, setTriage] = useState<Dismissals>({ dismissals: [], events: [] });
  const [error, setError] = useState<string | null>(null);
  // Search, severity, rule and status are kept in the address: a reload or a shared link shows the same list.
  const [query, setQuery] = useViewQuery(`/repos/${encodeURIComponent(repoId)}`, FINDING_DEFAULTS, readFindingQuery);
  const severity = query.severity as Severity | '';
  const ruleFilter = query.rule;
  const status = query.status as FindingStatus;
  const setStatus = (next: FindingStatus) => setQuery({ status: next });
  const [dismissing, setDismissing] = useState<string | null>(null);
  const [scans, setScans] = useState<ScanSummary[]>([]);
  const [changes, setChanges] = useState<ReturnType<typeof changesBetween> | null>(null);
  const [checkRun, setCheckRun] = useState<CheckRun | null>(null);
  const [rated, setRated] = useState<Map<string, RatedBy>>(new Map());

  const loadTriage = async () => setTriage(await reads.dismissals(repoId));
  const [importNote, setImportNote] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  /** A baseline file's decisions become dismissals of the latest scan's findings (at most 3 requests at a time). */
  const importBaseline = async (file: File) => {
    try {
      const decisions = parseBaselineDecisions(await file.text());
      const present = new Set((scan?.findings ?? []).map((f) => f.fingerprint));
      const todo = decisions.filter((d) => present.has(d.fingerprint) && !dismissedBy.has(d.fingerprint));
      for (let i = 0; i < todo.length; i += 3) {
        await Promise.all(todo.slice(i, i + 3).map((d) => api.dismiss(repoId, d.fingerprint, { reason: d.reason, comment: d.comment, kind: 'finding' })));
      }
      await loadTriage();
      const skipped = decisions.length - todo.length;
      setImportNote({ kind: 'ok', text: `Imported ${todo.length} ${todo.length === 1 ? 'decision' : 'decisions'} from ${file.name}${skipped > 0 ? `; ${skipped} skipped (already dismissed, or not in the latest scan)` : ''}.` });
    } catch (e) {
      setImportNote({ kind: 'error', text: `${file.name}: ${errorText(e)}` });
    }
  };
  const downloadBaseline = () => {
    const url = URL.createObjectURL(new Blob([baselineOf(scan?.findings ?? [], dismissedBy)], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = BASELINE_NAME;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  useEffect(() => {
    void (async () => {
      try {
        // The stored repositories name it (no sync with the code host), beside the scans and the decisions.
        const [listed, recent, decisions] = await Promise.all([storedRepos(api), reads.scans(repoId, { limit: 20 }).then((page) => page.scans), reads.dismissals(repoId)]);
        setRepo(listed.find((r) => r.id === repoId) ?? null);
        setTriage(decisions);
        setScans(recent);
        // The GitHub App's latest pull request check; a failed read only leaves it out.
        void reads.checkRun(repoId).then(setCheckRun, () => setCheckRun(null));
        // The severities set in Rule settings, to say which findings they re-rated; a failed read only leaves the note out.
        void Promise.all([reads.ruleSettings(), reads.overrides(repoId)]).then(([global, overrides]) => setRated(ratedBy(global, overrides)), () => setRated(new Map()));
        const [latest, previous] = recent;
        const [latestScan, previousScan] = await Promise.all([latest ? reads.scan(latest.scan_id) : null, previous ? reads.scan(previous.scan_id) : null]);
        setChanges(latestScan && previousScan ? changesBetween(latestScan, previousScan) : null);
        setScan(latestScan);
      } catch (e) {
        setError(errorText(e));
      }
    })();
  }, [repoId]);

  const dismissedBy = useMemo(() => new Map(triage.dismissals.filter((d) => d.kind === 'finding').map((d) => [d.fingerprint, d])), [triage]);
  const all = scan?.findings ?? [];
  const isDismissed = (f: Finding) => f.fingerprint !== undefined && dismissedBy.has(f.fingerprint);
  const open = all.filter((f) => !isDismissed(f));
  const dismissedFindings = all.filter(isDismissed);
  // Dismissed findings leave the counts; the Dismissed filter lists them.
  const counts = useMemo(() => countsOf(open), [scan, triage]);
  const findings = status === 'dismissed' ? dismissedFindings : open;
  const rules = useMemo(() => [...new Set(all.map((f) => f.rule_id))].sort(), [scan]);
  const shown = findings.filter(
    (f) => (severity === '' || f.severity === severity) && (ruleFilter === '' || f.rule_id === ruleFilter) && matches(query.q, f.title, f.file, f.rule_id, f.description),
  );
  const exportRows = (): FindingRow[] => shown.map((finding) => ({ finding, repository: repo?.full_name ?? '', htmlUrl: repo?.html_url ?? '', commitSha: scan?.commit_sha, status }));
  const exportName = `chainbreaker-findings-${(repo?.full_name ?? 'repository').replace(/[^A-Za-z0-9._-]+/g, '-')}`;
  const groups = SEVERITIES.map((sev) => {
    const ofSeverity = shown.filter((f) => f.severity === sev);
    const byRule = new Map<string, Finding[]>();
    for (const f of ofSeverity) byRule.set(f.rule_id, [...(byRule.get(f.rule_id) ?? []), f]);
    return { severity: sev, count: ofSeverity.length, rules: [...byRule.entries()] };
  }).filter((g) => g.count > 0);

  return (
    <section aria-labelledby="findings-title">
      <p class="crumbs">
        <a href="#/">Repositories</a> / {repo?.full_name ?? '…'}
      </p>
      <h1 id="findings-title">Findings</h1>
      {repo && (
        <p class="muted">
          <a href={repo.html_url} rel="noreferrer noopener" target="_blank">
            {repo.full_name}
          </a>
          {scan && ` · scanned ${formatTime(scan.created_at)} (ruleset ${scan.ruleset})`}
          {scan && (
            <span data-testid="scan-origin">
              {` · ${TRIGGER_LABELS[scan.trigger] ?? 'manual'}`}
              {scan.commit_sha !== undefined && (
                <>
                  {' at '}
                  <Commit sha={scan.commit_sha} htmlUrl={repo.html_url} />
                </>
              )}
            </span>
          )}
        </p>
      )}
      {checkRun && (
        <p>
          <CheckRunResult run={checkRun} />
        </p>
      )}
      {error && <Notice kind="error">{error}</Notice>}
      {scan === undefined && !error && <Loading what="findings" />}
      {scan === null && <Notice kind="info">This repository has not been scanned yet. Scan it from the Repositories view.</Notice>}
      {scan && (
        <>
          <div class="summary">
            <CountBadges counts={counts} />
            <span class="muted" role="status">
              {open.length} open findings, {dismissedFindings.length} dismissed{shown.length !== findings.length ? `; ${shown.length} shown` : ''}
            </span>
          </div>
          <div class="filters toolbar">
            <SearchBox label="Search" value={query.q} placeholder="title, file or rule" onInput={(q) => setQuery({ q })} />
            <label>
              Severity
              <select value={severity} onChange={(e) => setQuery({ severity: (e.currentTarget as HTMLSelectElement).value })}>
                <option value="">All severities</option>
                {SEVERITIES.map((s) => (
                  <option key={s} value={s}>
                    {s} ({counts[s]})
                  </option>
                ))}
              </select>
            </label>
            <label>
              Rule
              <select value={ruleFilter} onChange={(e) => setQuery({ rule: (e.currentTarget as HTMLSelectElement).value })}>
                <option value="">All rules</option>
                {ruleFilter !== '' && !rules.includes(ruleFilter) && <option value={ruleFilter}>{ruleFilter} (no finding)</option>}
                {rules.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Status
              <select value={status} onChange={(e) => setStatus((e.currentTarget as HTMLSelectElement).value as FindingStatus)}>
                <option value="open">Open ({open.length})</option>
                <option value="dismissed">Dismissed ({dismissedFindings.length})</option>
              </select>
            </label>
            <ExportButtons
              what="findings"
              structured="SARIF"
              onCsv={() => download(`${exportName}.csv`, 'text/csv', findingsCsv(exportRows()))}
              onStructured={() => download(`${exportName}.sarif`, 'application/sarif+json', findingsSarif(exportRows(), location.origin))}
            />
          </div>
          <History scans={scans} changes={changes} htmlUrl={repo?.html_url ?? ''} />
          <div class="baseline-actions">
            <button type="button" onClick={downloadBaseline} disabled={dismissedFindings.length === 0}>
              Download dismissals as a baseline
            </button>
            <label class="file-button">
              Import a baseline…
              <input
                type="file"
                accept="application/json,.json"
                onChange={(e) => {
                  const input = e.currentTarget as HTMLInputElement;
                  const file = input.files?.[0];
                  if (file) void importBaseline(file).finally(() => (input.value = ''));
                }}
              />
            </label>
          </div>
          {importNote && (
            <Notice kind={importNote.kind} onDismiss={() => setImportNote(null)}>
              {importNote.text}
            </Notice>
          )}
          {status === 'open' && findings.length === 0 && <Notice kind="ok">No open findings: nothing to fix in this repository under the current settings.</Notice>}
          {status === 'dismissed' && findings.length === 0 && <Notice kind="info">No dismissed findings in this repository.</Notice>}
          {groups.map((group) => (
            <section key={group.severity} class="sev-group" aria-labelledby={`sev-${group.severity}`}>
              <h2 id={`sev-${group.severity}`}>
                <SeverityBadge severity={group.severity} /> {group.count} {group.count === 1 ? 'finding' : 'findings'}
              </h2>
              {group.rules.map(([ruleId, list]) => {
                // Findings recorded at the severity the settings give the rule: re-rated by them (the scan applied them).
                const rating = rated.get(ruleId);
                return (
                  <article key={ruleId} class="rule-group">
                    <h3>
                      {list[0]?.title} <code>{ruleId}</code>{' '}
                      <a href={`/rules/${encodeURIComponent(ruleId)}`} class="small">
                        About this rule
                      </a>
                      {rating !== undefined && rating.severity === group.severity && (
                        <>
                          {' '}
                          <RatedNote rated={rating} />
                        </>
                      )}
                    </h3>
                    <ul class="findings">
                      {list.map((f, i) => (
                        <li key={`${f.file}:${f.line}:${f.column}:${i}`} id={`finding-${ruleId}-${i}`}>
                          <Where finding={f} htmlUrl={repo?.html_url ?? ''} commitSha={scan.commit_sha} />
                          <p>
                            <Prose text={f.description} />
                          </p>
                          <p class="recommendation">
                            <strong>Fix:</strong> <Prose text={f.recommendation} />
                          </p>
                          {f.fix && <Fix fix={f.fix} fullName={repo?.full_name ?? ''} />}
                          <Triage
                            finding={f}
                            what={`${f.title} at ${f.file}:${f.line}`}
                            dismissal={f.fingerprint === undefined ? undefined : dismissedBy.get(f.fingerprint)}
                            events={triage.events.filter((e) => e.fingerprint === f.fingerprint)}
                            open={dismissing === `${f.fingerprint}`}
                            onOpen={(on) => setDismissing(on ? `${f.fingerprint}` : null)}
                            onDismiss={async (reason, comment) => {
                              await api.dismiss(repoId, f.fingerprint ?? '', { reason, comment, kind: 'finding' });
                              setDismissing(null);
                              await loadTriage();
                            }}
                            onReopen={async () => {
                              await api.reopen(repoId, f.fingerprint ?? '');
                              await loadTriage();
                            }}
                          />
                        </li>
                      ))}
                    </ul>
                  </article>
                );
              })}
            </section>
          ))}
        </>
      )}
    </section>
  );
}
