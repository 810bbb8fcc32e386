import type { RefObject } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Services } from '../app.js';
import { layoutChain, wrapAll } from '../chain.js';
import type { AttackPaths, Combination, DismissalReason, Stage } from '../data/types.js';
import { Loading, Notice, Prose, SeverityBadge, errorText } from './common.js';
import { DismissForm, DismissalNote } from './triage.js';
import { codeUrl, settingsUrl, SETTINGS_FILE } from '../data/links.js';
import { attackPathsCsv, attackPathsJson, download } from '../data/export.js';
import { matches, oneOf, pageNumber, paginate } from '../data/query.js';
import { Choice, ExportButtons, Pager, SearchBox, Toolbar, useViewQuery } from './find.js';

/** Each stage's finding, linked to its file and line at the scanned commit (or its settings page). */
function StagesInCode({ combo, htmlUrl, commitSha }: { combo: Combination; htmlUrl: string; commitSha: string | undefined }) {
  const stages = [...combo.stages].sort((a, b) => a.order - b.order).filter((s) => s.rule_id !== '');
  return (
    <ol class="stages-in-code" aria-label="The stages in the code">
      {stages.map((stage) => {
        const finding = combo.components.find((c) => c.rule_id === stage.rule_id)?.finding;
        if (!finding) return null;
        const settings = finding.file === SETTINGS_FILE;
        const href = settings ? settingsUrl(htmlUrl, undefined) : codeUrl(htmlUrl, commitSha, finding.file, finding.line);
        const text = settings ? 'Repository settings' : `${finding.file}:${finding.line}`;
        return (
          <li key={stage.order}>
            <code>{stage.rule_id}</code>:{' '}
            {href ? (
              <a href={href} rel="noreferrer noopener" target="_blank">
                {text}
              </a>
            ) : (
              <span>{text}</span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

const LINE = 18;
/** Room in a node above and below its title lines (the stage number, the place of its finding). */
const NODE_CHROME = 68;

/** The width of an element, followed as it changes (the chain re-flows on a narrow screen). */
function useWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(900);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** One combination as a chain: a node per stage, each a link to its finding, the breaking stage marked. */
export function Chain({ combo, repoId }: { combo: Combination; repoId: string }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const stages = [...combo.stages].sort((a, b) => a.order - b.order);
  const available = Math.max(160, width - 4);
  // Every label is shown whole: the nodes are as tall as the longest wrapped title needs.
  const columnsFit = Math.max(1, Math.floor((available + 36) / (190 + 36)));
  const nodeWidth = Math.min(columnsFit, stages.length) === 1 ? Math.max(160, Math.min(360, available)) : 190;
  const perLine = Math.floor((nodeWidth - 20) / 7.2);
  const where = (stage: Stage) => {
    const component = combo.components.find((c) => c.rule_id === stage.rule_id);
    // The file is shown above the chain; the node names its last segment and the line.
    return component ? `${component.finding.file.split('/').pop() ?? ''}:${component.finding.line}` : stage.rule_id;
  };
  const titles = stages.map((stage) => wrapAll(stage.title, perLine));
  const details = stages.map((stage) => (stage.rule_id ? wrapAll(where(stage), Math.floor((nodeWidth - 20) / 6.6)) : []));
  const heads = stages.map((stage, i) => wrapAll(stage.rule_id ? `${i + 1}. ${stage.rule_id}` : `${i + 1}. outcome`, Math.floor((nodeWidth - 20) / 6.6)));
  const nodeHeight = NODE_CHROME + Math.max(2, ...titles.map((t) => t.length)) * LINE + Math.max(0, ...heads.map((h) => h.length - 1), ...details.map((d) => d.length - 1)) * 14;
  const layout = layoutChain(stages.length, { available, nodeWidth: 190, nodeHeight, gap: 36 });
  const pad = 14; // room for the "break here" mark above the nodes
  return (
    <div class="chain" ref={ref}>
      <svg
        width={layout.width + 4}
        height={layout.height + pad + 4}
        viewBox={`-2 ${-pad - 2} ${layout.width + 4} ${layout.height + pad + 4}`}
        role="group"
        aria-label={`Attack path ${combo.title}: ${stages.length} stages`}
      >
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" class="arrowhead" />
          </marker>
        </defs>
        {layout.edges.map((edge) => (
          <polyline key={`e${edge.from}`} class="edge" points={edge.points.map((p) => p.join(',')).join(' ')} marker-end="url(#arrow)" />
        ))}
        {layout.nodes.map((node) => {
          const stage = stages[node.index];
          if (!stage) return null;
          const breaks = stage.rule_id === combo.break_chain_rule;
          const title = titles[node.index] ?? [];
          const head = heads[node.index] ?? [];
          const detail = details[node.index] ?? [];
          const label = `Stage ${node.index + 1}: ${stage.title}`;
          const body = (
            <>
              <title>{stage.rule_id ? `${stage.title} (${stage.rule_id}, ${where(stage)})` : stage.title}</title>
              <desc>{stage.description}</desc>
              <rect x={node.x} y={node.y} width={node.width} height={node.height} rx="8" />
              {breaks && (
                <text x={node.x + 10} y={node.y - 4} class="break-label">
                  ✂ break here
                </text>
              )}
              {head.map((line, i) => (
                <text key={`h${i}`} x={node.x + 10} y={node.y + 20 + i * 14} class="stage-no">
                  {line}
                </text>
              ))}
              {title.map((line, i) => (
                <text key={`t${i}`} x={node.x + 10} y={node.y + 30 + head.length * 14 + i * LINE} class="stage-title">
                  {line}
                </text>
              ))}
              {detail.map((line, i) => (
                <text key={`d${i}`} x={node.x + 10} y={node.y + node.height - 12 - (detail.length - 1 - i) * 14} class="stage-where">
                  {line}
                </text>
              ))}
            </>
          );
          // The outcome stage has no rule and no finding: drawn, not a link.
          if (!stage.rule_id) {
            return (
              <g key={`n${node.index}`} class="node outcome" role="img" aria-label={label}>
                {body}
              </g>
            );
          }
          return (
            // Named by its visible text (the stage, its rule and where its finding is), described by <desc>.
            <a key={`n${node.index}`} href={`#/repos/${encodeURIComponent(repoId)}?rule=${encodeURIComponent(stage.rule_id)}`} class={breaks ? 'node break' : 'node'}>
              {body}
            </a>
          );
        })}
      </svg>
    </div>
  );
}

const RANK = { CRITICAL: 0, HIGH: 1, MEDIUM: 2 } as const;
export const PATHS_PER_PAGE = 20;

const PATH_DEFAULTS = { q: '', severity: '', kind: '', repo: '', sort: 'severity', dismissed: '', page: '1' };
type PathQuery = typeof PATH_DEFAULTS;
const readPathQuery = (raw: Record<string, string>): PathQuery => ({
  q: raw.q ?? '',
  severity: oneOf(raw.severity, ['', 'CRITICAL', 'HIGH', 'MEDIUM'] as const, ''),
  kind: /^[a-z0-9-]{1,64}$/.test(raw.kind ?? '') ? (raw.kind ?? '') : '',
  repo: /^[0-9a-f-]{36}$/.test(raw.repo ?? '') ? (raw.repo ?? '') : '',
  sort: oneOf(raw.sort, ['severity', 'repository', 'kind'] as const, 'severity'),
  dismissed: oneOf(raw.dismissed, ['', 'show'] as const, ''),
  page: String(pageNumber(raw.page)),
});

type Entry = { repo: { repo_id: string; full_name: string; html_url: string; commit_sha?: string }; combo: Combination };
const ORDER: Record<string, (a: Entry, b: Entry) => number> = {
  severity: (a, b) => RANK[a.combo.severity] - RANK[b.combo.severity] || a.repo.full_name.localeCompare(b.repo.full_name) || a.combo.file.localeCompare(b.combo.file),
  repository: (a, b) => a.repo.full_name.localeCompare(b.repo.full_name) || RANK[a.combo.severity] - RANK[b.combo.severity] || a.combo.file.localeCompare(b.combo.file),
  kind: (a, b) => a.combo.title.localeCompare(b.combo.title) || RANK[a.combo.severity] - RANK[b.combo.severity] || a.repo.full_name.localeCompare(b.repo.full_name),
};

/** The paths the search and filters keep, in the chosen order. Pure, for the tests. */
export function selectPaths(entries: readonly Entry[], query: PathQuery): Entry[] {
  return entries
    .filter(
      ({ repo, combo }) =>
        (query.severity === '' || combo.severity === query.severity) &&
        (query.kind === '' || combo.id === query.kind) &&
        (query.repo === '' || repo.repo_id === query.repo) &&
        matches(query.q, combo.title, repo.full_name, combo.file, combo.id, ...combo.stages.map((st) => st.rule_id)),
    )
    .sort(ORDER[query.sort] ?? ORDER.severity);
}

export function AttackPathsView({ services }: { services: Services }) {
  const [data, setData] = useState<AttackPaths | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dismissing, setDismissing] = useState<string | null>(null);
  const [query, setQuery] = useViewQuery('/attack-paths', PATH_DEFAULTS, readPathQuery);
  const showDismissed = query.dismissed === 'show';
  const setShowDismissed = (show: boolean) => setQuery({ dismissed: show ? 'show' : '', page: query.page });
  const load = () => services.api.attackPaths().then(setData, (e: unknown) => setError(errorText(e)));
  useEffect(() => {
    void load();
  }, []);
  const dismiss = async (repoId: string, fingerprint: string, reason: DismissalReason, comment: string) => {
    await services.api.dismiss(repoId, fingerprint, { reason, comment, kind: 'attack_path' });
    setDismissing(null);
    await load();
  };
  const reopen = async (repoId: string, fingerprint: string) => {
    try {
      await services.api.reopen(repoId, fingerprint);
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  };

  const everything = useMemo(() => (data?.repos ?? []).flatMap((repo) => repo.combos.map((combo) => ({ repo, combo }))), [data]);
  const medium = useMemo(() => everything.filter((e) => e.combo.severity === 'MEDIUM').length, [everything]);
  const all = useMemo(() => selectPaths(everything, query), [everything, query.q, query.severity, query.kind, query.repo, query.sort]);
  const dismissed = useMemo(
    () => selectPaths((data?.dismissed ?? []).map(({ combo, ...repo }) => ({ repo, combo })), query).map(({ repo, combo }) => ({ ...repo, combo })),
    [data, query.q, query.severity, query.kind, query.repo, query.sort],
  );
  const shown = paginate(all, Number(query.page), PATHS_PER_PAGE);
  const kinds = useMemo(() => {
    const titles = new Map<string, string>();
    for (const { combo } of [...everything, ...(data?.dismissed ?? [])]) titles.set(combo.id, combo.title);
    return [...titles.entries()].sort((a, b) => a[1].localeCompare(b[1]));
  }, [data]);
  const repositories = useMemo(() => {
    const names = new Map<string, string>();
    for (const { repo } of everything) names.set(repo.repo_id, repo.full_name);
    for (const d of data?.dismissed ?? []) names.set(d.repo_id, d.full_name);
    return [...names.entries()].sort((a, b) => a[1].localeCompare(b[1]));
  }, [data]);
  const filtered = all.length !== everything.length;
  const exportRows = () => all.map(({ repo, combo }) => ({ repository: repo.full_name, combo }));
  const exportName = `chainbreaker-attack-paths-${new Date().toISOString().slice(0, 10)}`;

  return (
    <section aria-labelledby="paths-title">
      <h1 id="paths-title">Attack paths</h1>
      <p class="muted">Findings that chain into a compromise, across your repositories, most severe first. Each one is broken by fixing the marked stage.</p>
      {error && <Notice kind="error">{error}</Notice>}
      {data === null && !error && <Loading what="attack paths" />}
      {data && (
        <p class="summary" role="status">
          {data.total_combos} attack {data.total_combos === 1 ? 'path' : 'paths'}: <SeverityBadge severity="CRITICAL" count={data.critical_count} />{' '}
          <SeverityBadge severity="HIGH" count={data.high_count} />
          {medium > 0 && (
            <>
              {' '}
              <SeverityBadge severity="MEDIUM" count={medium} />
            </>
          )}
        </p>
      )}
      {data && everything.length > 0 && (
        <Toolbar>
          <SearchBox label="Search" value={query.q} placeholder="title, repository, file or rule" onInput={(q) => setQuery({ q })} />
          <Choice
            label="Severity"
            value={query.severity}
            onChange={(severity) => setQuery({ severity })}
            options={[
              { value: '', label: 'All severities' },
              { value: 'CRITICAL', label: `CRITICAL (${data.critical_count})` },
              { value: 'HIGH', label: `HIGH (${data.high_count})` },
              { value: 'MEDIUM', label: `MEDIUM (${medium})` },
            ]}
          />
          <Choice label="Kind" value={query.kind} onChange={(kind) => setQuery({ kind })} options={[{ value: '', label: 'All kinds' }, ...kinds.map(([id, title]) => ({ value: id, label: title }))]} />
          <Choice
            label="Repository"
            value={query.repo}
            onChange={(repo) => setQuery({ repo })}
            options={[{ value: '', label: 'All repositories' }, ...repositories.map(([id, name]) => ({ value: id, label: name }))]}
          />
          <Choice
            label="Sort by"
            value={query.sort}
            onChange={(sort) => setQuery({ sort })}
            options={[
              { value: 'severity', label: 'Severity' },
              { value: 'repository', label: 'Repository' },
              { value: 'kind', label: 'Kind' },
            ]}
          />
          <ExportButtons
            what="attack paths"
            structured="JSON"
            onCsv={() => download(`${exportName}.csv`, 'text/csv', attackPathsCsv(exportRows()))}
            onStructured={() => download(`${exportName}.json`, 'application/json', attackPathsJson(exportRows()))}
          />
        </Toolbar>
      )}
      {data && everything.length > 0 && (
        <Pager page={shown.page} pages={shown.pages} total={all.length} perPage={PATHS_PER_PAGE} noun={filtered ? 'matching attack paths' : 'attack paths'} onPage={(page) => setQuery({ page: String(page) })} />
      )}
      {data && everything.length === 0 && <Notice kind="ok">No attack paths in your scanned repositories under the current settings.</Notice>}
      {data && everything.length > 0 && all.length === 0 && <Notice kind="info">No attack path matches the search and filters.</Notice>}
      {shown.items.map(({ repo, combo }, i) => (
        <article key={`${repo.repo_id}:${combo.id}:${combo.file}:${i}`} class={`combo sev-${combo.severity.toLowerCase()}`} data-combo={combo.id} aria-labelledby={`combo-${i}`}>
          <header>
            <SeverityBadge severity={combo.severity} />
            <h2 id={`combo-${i}`}>{combo.title}</h2>
          </header>
          <p class="muted">
            <a href={`#/repos/${encodeURIComponent(repo.repo_id)}`}>{repo.full_name}</a> · <code>{combo.file}</code>
          </p>
          <Chain combo={combo} repoId={repo.repo_id} />
          <StagesInCode combo={combo} htmlUrl={repo.html_url} commitSha={repo.commit_sha} />
          <dl>
            <dt>Impact</dt>
            <dd>
              <Prose text={combo.impact} />
            </dd>
            <dt>Break the chain</dt>
            <dd>
              <Prose text={combo.break_chain} /> <a href={`/rules/${encodeURIComponent(combo.break_chain_rule)}`}>({combo.break_chain_rule})</a>
            </dd>
          </dl>
          {combo.fingerprint !== undefined &&
            (dismissing === `${repo.repo_id}:${combo.fingerprint}` ? (
              <DismissForm
                what={`the attack path ${combo.title} in ${repo.full_name}`}
                onSubmit={(reason, comment) => dismiss(repo.repo_id, combo.fingerprint ?? '', reason, comment)}
                onCancel={() => setDismissing(null)}
              />
            ) : (
              <div class="triage">
                <button type="button" onClick={() => setDismissing(`${repo.repo_id}:${combo.fingerprint}`)} aria-label={`Dismiss the attack path ${combo.title} in ${repo.full_name}`}>
                  Dismiss…
                </button>
              </div>
            ))}
        </article>
      ))}
      {shown.pages > 1 && (
        <Pager at="end" page={shown.page} pages={shown.pages} total={all.length} perPage={PATHS_PER_PAGE} noun={filtered ? 'matching attack paths' : 'attack paths'} onPage={(page) => setQuery({ page: String(page) })} />
      )}
      {dismissed.length > 0 && (
        <section class="dismissed-paths" aria-labelledby="dismissed-paths-title">
          <h2 id="dismissed-paths-title">Dismissed ({dismissed.length})</h2>
          <button type="button" aria-expanded={showDismissed} onClick={() => setShowDismissed(!showDismissed)}>
            {showDismissed ? 'Hide dismissed attack paths' : 'Show dismissed attack paths'}
          </button>
          {showDismissed && (
            <ul class="dismissed-list">
              {dismissed.map(({ repo_id, full_name, combo }) => (
                <li key={`${repo_id}:${combo.fingerprint}`} data-combo={combo.id}>
                  <SeverityBadge severity={combo.severity} /> <strong>{combo.title}</strong> · <a href={`#/repos/${encodeURIComponent(repo_id)}`}>{full_name}</a> · <code>{combo.file}</code>
                  {combo.dismissal && <DismissalNote dismissal={combo.dismissal} />}
                  <button type="button" onClick={() => void reopen(repo_id, combo.fingerprint ?? '')} aria-label={`Reopen the attack path ${combo.title} in ${full_name}`}>
                    Reopen
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </section>
  );
}
