import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Services } from '../app.js';
import { SEVERITIES, type Finding, type Repository, type Scan, type Severity } from '../data/types.js';
import { CountBadges, Loading, Notice, Prose, SeverityBadge, cachedRepos, errorText, formatTime } from './common.js';

/** A finding's fix: a workflow diff with a copy button, or whatever else it carries (a settings API call) as text. */
function Fix({ fix }: { fix: NonNullable<Finding['fix']> }) {
  const [copied, setCopied] = useState(false);
  const text = typeof fix.diff === 'string' ? fix.diff : JSON.stringify(fix, null, 2);
  return (
    <div class="fix">
      <div class="fix-head">
        <strong>{typeof fix.diff === 'string' ? (fix.safe ? 'Suggested fix (safe to apply)' : 'Suggested fix (review before applying)') : 'Fix'}</strong>
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre>
        <code>{text}</code>
      </pre>
    </div>
  );
}

export function FindingsView({ services, repoId, rule }: { services: Services; repoId: string; rule: string | null }) {
  const { api, reads } = services;
  const [repo, setRepo] = useState<Repository | null>(null);
  const [scan, setScan] = useState<Scan | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [severity, setSeverity] = useState<Severity | ''>('');
  const [ruleFilter, setRuleFilter] = useState<string>(rule ?? '');

  useEffect(() => {
    void (async () => {
      try {
        const listed = await cachedRepos(api);
        setRepo(listed.repositories.find((r) => r.id === repoId) ?? null);
        const [latest] = (await reads.scans(repoId, { limit: 1 })).scans;
        setScan(latest ? await reads.scan(latest.scan_id) : null);
      } catch (e) {
        setError(errorText(e));
      }
    })();
  }, [repoId]);

  const findings = scan?.findings ?? [];
  const rules = useMemo(() => [...new Set(findings.map((f) => f.rule_id))].sort(), [scan]);
  const shown = findings.filter((f) => (severity === '' || f.severity === severity) && (ruleFilter === '' || f.rule_id === ruleFilter));
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
        </p>
      )}
      {error && <Notice kind="error">{error}</Notice>}
      {scan === undefined && !error && <Loading what="findings" />}
      {scan === null && <Notice kind="info">This repository has not been scanned yet. Scan it from the Repositories view.</Notice>}
      {scan && (
        <>
          <div class="summary">
            <CountBadges counts={scan.counts} />
            <span class="muted">
              {findings.length} findings{shown.length !== findings.length ? `, ${shown.length} shown` : ''}
            </span>
          </div>
          <div class="filters">
            <label>
              Severity
              <select value={severity} onChange={(e) => setSeverity((e.currentTarget as HTMLSelectElement).value as Severity | '')}>
                <option value="">All severities</option>
                {SEVERITIES.map((s) => (
                  <option key={s} value={s}>
                    {s} ({scan.counts[s]})
                  </option>
                ))}
              </select>
            </label>
            <label>
              Rule
              <select value={ruleFilter} onChange={(e) => setRuleFilter((e.currentTarget as HTMLSelectElement).value)}>
                <option value="">All rules</option>
                {rules.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {findings.length === 0 && <Notice kind="ok">No findings: nothing to fix in this repository under the current settings.</Notice>}
          {groups.map((group) => (
            <section key={group.severity} class="sev-group" aria-labelledby={`sev-${group.severity}`}>
              <h2 id={`sev-${group.severity}`}>
                <SeverityBadge severity={group.severity} /> {group.count} {group.count === 1 ? 'finding' : 'findings'}
              </h2>
              {group.rules.map(([ruleId, list]) => (
                <article key={ruleId} class="rule-group">
                  <h3>
                    {list[0]?.title} <code>{ruleId}</code>{' '}
                    <a href={`/rules/${encodeURIComponent(ruleId)}`} class="small">
                      About this rule
                    </a>
                  </h3>
                  <ul class="findings">
                    {list.map((f, i) => (
                      <li key={`${f.file}:${f.line}:${f.column}:${i}`} id={`finding-${ruleId}-${i}`}>
                        <code class="where">
                          {f.file}:{f.line}:{f.column}
                        </code>
                        <p>
                          <Prose text={f.description} />
                        </p>
                        <p class="recommendation">
                          <strong>Fix:</strong> <Prose text={f.recommendation} />
                        </p>
                        {f.fix && <Fix fix={f.fix} />}
                      </li>
                    ))}
                  </ul>
                </article>
              ))}
            </section>
          ))}
        </>
      )}
    </section>
  );
}
