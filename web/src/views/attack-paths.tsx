import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Services } from '../app.js';
import { layoutChain, wrapText } from '../chain.js';
import type { AttackPaths, Combination, DismissalReason } from '../data/types.js';
import { Loading, Notice, Prose, SeverityBadge, errorText } from './common.js';
import { DismissForm, DismissalNote } from './triage.js';
import { codeUrl, settingsUrl, SETTINGS_FILE } from '../data/links.js';

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

const NODE_HEIGHT = 104;

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
  const layout = layoutChain(stages.length, { available: Math.max(160, width - 4), nodeWidth: 190, nodeHeight: NODE_HEIGHT, gap: 36 });
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
          const component = combo.components.find((c) => c.rule_id === stage.rule_id);
          // The file is shown above the chain; the node names its last segment and the line.
          const where = component ? `${component.finding.file.split('/').pop() ?? ''}:${component.finding.line}` : stage.rule_id;
          const perLine = Math.floor((node.width - 20) / 7.2);
          const title = wrapText(stage.title, perLine, 2);
          const detail = wrapText(where, perLine, 1);
          const label = `Stage ${node.index + 1}: ${stage.title}`;
          const body = (
            <>
              <desc>{stage.description}</desc>
              <rect x={node.x} y={node.y} width={node.width} height={node.height} rx="8" />
              {breaks && (
                <text x={node.x + 10} y={node.y - 4} class="break-label">
                  ✂ break here
                </text>
              )}
              <text x={node.x + 10} y={node.y + 20} class="stage-no">
                {stage.rule_id ? `${node.index + 1}. ${stage.rule_id}` : `${node.index + 1}. outcome`}
              </text>
              {title.map((line, i) => (
                <text key={`t${i}`} x={node.x + 10} y={node.y + 44 + i * 18} class="stage-title">
                  {line}
                </text>
              ))}
              {stage.rule_id &&
                detail.map((line) => (
                  <text key="d" x={node.x + 10} y={node.y + node.height - 12} class="stage-where">
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

const RANK = { CRITICAL: 0, HIGH: 1 } as const;

export function AttackPathsView({ services }: { services: Services }) {
  const [data, setData] = useState<AttackPaths | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dismissing, setDismissing] = useState<string | null>(null);
  const [showDismissed, setShowDismissed] = useState(false);
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
  const dismissed = data?.dismissed ?? [];

  const all = (data?.repos ?? [])
    .flatMap((repo) => repo.combos.map((combo) => ({ repo, combo })))
    .sort((a, b) => RANK[a.combo.severity] - RANK[b.combo.severity] || a.repo.full_name.localeCompare(b.repo.full_name) || a.combo.file.localeCompare(b.combo.file));

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
        </p>
      )}
      {data && all.length === 0 && <Notice kind="ok">No attack paths in your scanned repositories under the current settings.</Notice>}
      {all.map(({ repo, combo }, i) => (
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
