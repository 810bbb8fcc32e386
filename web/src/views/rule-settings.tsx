import { useEffect, useState } from 'preact/hooks';
import type { Services } from '../app.js';
import { SEVERITIES, type Repository, type Rule, type RuleSetting, type Severity } from '../data/types.js';
import { RULE_OPTION_FIELDS, optionsFromText, optionsSummary, textFromOptions } from '../data/rule-options.js';
import { Loading, Notice, SeverityBadge, errorText, storedRepos } from './common.js';

/** A rule's options, edited one entry per line; saved with the rule's global preference, checked by the API. */
function OptionsEditor({ rule, options, onSave, onCancel }: { rule: Rule; options: Record<string, unknown> | undefined; onSave: (options: Record<string, string[]>) => Promise<void>; onCancel: () => void }) {
  const [text, setText] = useState(() => textFromOptions(rule.id, options));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fields = RULE_OPTION_FIELDS[rule.id] ?? [];
  return (
    <form
      class="options-form"
      aria-label={`Options of ${rule.id}`}
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        onSave(optionsFromText(rule.id, text)).catch((err: unknown) => {
          setError(errorText(err));
          setBusy(false);
        });
      }}
    >
      {fields.map((field) => (
        <label key={field.key}>
          {field.label} <code>{field.key}</code>
          <span class="muted small">One per line: {field.hint}.</span>
          <textarea rows={3} value={text[field.key] ?? ''} onInput={(e) => setText({ ...text, [field.key]: (e.currentTarget as HTMLTextAreaElement).value })} />
        </label>
      ))}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Save options
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {error && (
        <p role="alert" class="error-text">
          {error}
        </p>
      )}
    </form>
  );
}

const GLOBAL = '';

/**
 * A rule's severity as the user set it: the rule's own (`''`), or HIGH, MEDIUM, LOW, INFO, as `rules.<id>.severity`
 * in the CLI's config. In a repository, `''` inherits the global choice, which the first option names.
 */
function SeveritySelect({ rule, value, inherited, scoped, onChange }: { rule: Rule; value: Severity | undefined; inherited: Severity | undefined; scoped: boolean; onChange: (severity: Severity | null) => void }) {
  const own = `rule’s own (${rule.default_severity})`;
  return (
    <select
      class="severity-select"
      aria-label={scoped ? `${rule.id} severity in this repository` : `${rule.id} severity`}
      value={value ?? ''}
      onChange={(e) => {
        const chosen = (e.currentTarget as HTMLSelectElement).value;
        onChange(chosen === '' ? null : (chosen as Severity));
      }}
    >
      <option value="">{scoped ? `Inherit (${inherited ?? own})` : own.charAt(0).toUpperCase() + own.slice(1)}</option>
      {SEVERITIES.map((sev) => (
        <option key={sev} value={sev}>
          {sev}
        </option>
      ))}
    </select>
  );
}

/**
 * The rule catalog with a switch per rule (global preference) and, for one repository, a three-way choice per
 * rule: inherit the global state, on, or off. Each change is one API call; attack paths are computed with the
 * current settings, so the Attack paths view reflects it at once, without a re-scan. A severity per rule (global,
 * and per repository over it) re-rates the rule's findings when they are found: from the next scan on.
 */
export function RuleSettingsView({ services }: { services: Services }) {
  const { api, reads } = services;
  const [rules, setRules] = useState<Rule[] | null>(null);
  const [global, setGlobal] = useState<Record<string, boolean>>({});
  const [globalOptions, setGlobalOptions] = useState<Record<string, Record<string, unknown>>>({});
  const [editing, setEditing] = useState<string | null>(null);
  const [repos, setRepos] = useState<Repository[]>([]);
  const [scope, setScope] = useState<string>(GLOBAL);
  const [overrides, setOverrides] = useState<Record<string, boolean>>({});
  // Severities the user set (no key: the rule's own), globally and in the chosen repository.
  const [globalSeverity, setGlobalSeverity] = useState<Record<string, Severity>>({});
  const [overrideSeverity, setOverrideSeverity] = useState<Record<string, Severity>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [query, setQuery] = useState('');

  const asMap = (rows: RuleSetting[]) => Object.fromEntries(rows.map((r) => [r.rule_id, r.enabled]));
  const severities = (rows: RuleSetting[]) => Object.fromEntries(rows.flatMap((r) => (r.severity === undefined ? [] : [[r.rule_id, r.severity]])));

  useEffect(() => {
    void (async () => {
      try {
        // The repositories (for the scope) load beside the rules without holding them up.
        storedRepos(api).then(setRepos, (e: unknown) => setError(errorText(e)));
        const [catalog, settings] = await Promise.all([api.rules(), reads.ruleSettings()]);
        setRules(catalog.rules);
        setGlobal(asMap(settings));
        setGlobalSeverity(severities(settings));
        setGlobalOptions(Object.fromEntries(settings.filter((r) => r.options !== undefined).map((r) => [r.rule_id, r.options ?? {}])));
      } catch (e) {
        setError(errorText(e));
      }
    })();
  }, []);

  useEffect(() => {
    if (scope === GLOBAL) return;
    setOverrides({});
    setOverrideSeverity({});
    reads.overrides(scope).then(
      (rows) => {
        setOverrides(asMap(rows));
        setOverrideSeverity(severities(rows));
      },
      (e: unknown) => setError(errorText(e)),
    );
  }, [scope]);

  const change = async (label: string, apply: () => void, revert: () => void, call: () => Promise<void>) => {
    setError(null);
    apply();
    try {
      await call();
      setSaved(label);
    } catch (e) {
      revert();
      setError(`Not saved: ${errorText(e)}`);
    }
  };

  const setGlobalRule = (rule: Rule, enabled: boolean) => {
    const before = global[rule.id];
    const next = { ...global };
    // Back to the default (on) clears the row, so the settings stay sparse.
    if (enabled) delete next[rule.id];
    else next[rule.id] = false;
    void change(
      `${rule.id} ${enabled ? 'on' : 'off'} for every repository`,
      () => setGlobal(next),
      () => setGlobal((g) => ({ ...g, [rule.id]: before ?? true })),
      // A rule with options or a severity keeps its row (clearing it would drop them): on is then a PUT.
      () => (enabled && globalOptions[rule.id] === undefined && globalSeverity[rule.id] === undefined ? api.clearRuleSetting(rule.id) : api.setRuleSetting(rule.id, enabled)),
    );
  };

  const saveOptions = async (rule: Rule, options: Record<string, string[]>) => {
    const enabled = global[rule.id] ?? true;
    await api.setRuleSetting(rule.id, enabled, options);
    setGlobalOptions((all) => {
      const next = { ...all };
      if (Object.keys(options).length === 0) delete next[rule.id];
      else next[rule.id] = options;
      return next;
    });
    // The row now exists (with the options, or none): keep the switch's state explicit.
    setGlobal((g) => ({ ...g, [rule.id]: enabled }));
    setEditing(null);
    setSaved(Object.keys(options).length === 0 ? `${rule.id} uses its default options` : `options of ${rule.id}`);
  };

  const without = (all: Record<string, Severity>, id: string) => Object.fromEntries(Object.entries(all).filter(([key]) => key !== id));

  /** The global severity: one PUT that keeps the switch's state and the options. */
  const setRuleSeverity = (rule: Rule, severity: Severity | null) => {
    const before = globalSeverity;
    const enabled = global[rule.id] ?? true;
    void change(
      severity === null ? `${rule.id} at its own severity` : `${rule.id} at ${severity} in every repository`,
      () => {
        setGlobalSeverity(severity === null ? without(before, rule.id) : { ...before, [rule.id]: severity });
        setGlobal((g) => ({ ...g, [rule.id]: enabled }));
      },
      () => setGlobalSeverity(before),
      () => api.setRuleSetting(rule.id, enabled, undefined, severity),
    );
  };

  /**
   * The repository's severity. An override row always says on or off (the API's `enabled` is required), so a
   * severity set where the switch inherits records the state it inherits now; Inherit (on/off) removes the
   * override, its severity included.
   */
  const setRepoSeverity = (rule: Rule, severity: Severity | null) => {
    const enabled = overrides[rule.id];
    if (severity === null && enabled === undefined) return;
    const before = { severity: overrideSeverity, overrides };
    const state = enabled ?? global[rule.id] ?? true;
    const repo = repos.find((r) => r.id === scope)?.full_name ?? 'this repository';
    void change(
      severity === null ? `${rule.id} inherits its severity in ${repo}` : `${rule.id} at ${severity} in ${repo}`,
      () => {
        setOverrideSeverity(severity === null ? without(before.severity, rule.id) : { ...before.severity, [rule.id]: severity });
        setOverrides({ ...before.overrides, [rule.id]: state });
      },
      () => {
        setOverrideSeverity(before.severity);
        setOverrides(before.overrides);
      },
      () => api.setOverride(scope, rule.id, state, severity),
    );
  };

  const setOverride = (rule: Rule, value: 'inherit' | 'on' | 'off') => {
    const before = { ...overrides };
    const beforeSeverity = overrideSeverity;
    const next = { ...overrides };
    if (value === 'inherit') delete next[rule.id];
    else next[rule.id] = value === 'on';
    const repo = repos.find((r) => r.id === scope)?.full_name ?? 'this repository';
    void change(
      value === 'inherit' ? `${rule.id} inherits the global setting in ${repo}` : `${rule.id} ${value} in ${repo}`,
      () => {
        setOverrides(next);
        if (value === 'inherit') setOverrideSeverity(without(beforeSeverity, rule.id));
      },
      () => {
        setOverrides(before);
        setOverrideSeverity(beforeSeverity);
      },
      () => (value === 'inherit' ? api.clearOverride(scope, rule.id) : api.setOverride(scope, rule.id, value === 'on')),
    );
  };

  const needle = query.trim().toLowerCase();
  const shown = (rules ?? []).filter((r) => needle === '' || r.id.includes(needle) || r.title.toLowerCase().includes(needle));

  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Rule settings</h1>
      <p class="muted">
        A rule that is off produces no findings in new scans and takes no part in attack paths from now on. A severity you choose re-rates every finding
        of the rule from the next scan on (counts, gates and attack paths read it), as <code>severity:</code> in the CLI’s <code>.chainbreaker.yml</code>{' '}
        does. A repository’s override wins over the global setting; “Inherit” follows it.
      </p>
      <div class="filters">
        <label>
          Applies to
          <select value={scope} onChange={(e) => setScope((e.currentTarget as HTMLSelectElement).value)}>
            <option value={GLOBAL}>All repositories (global)</option>
            {repos.map((r) => (
              <option key={r.id} value={r.id}>
                {r.full_name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Find a rule
          <input type="search" value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} placeholder="id or title" />
        </label>
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      <p class="sr-only" role="status">
        {saved ? `Saved: ${saved}.` : ''}
      </p>
      {rules === null && !error && <Loading what="rules" />}
      {rules && (
        <div class="table-wrap">
          <table class="rules">
            <caption class="sr-only">{scope === GLOBAL ? 'Global rule settings' : 'Rule overrides for one repository'}</caption>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Severity</th>
                <th scope="col">{scope === GLOBAL ? 'Enabled' : 'In this repository'}</th>
                {scope === GLOBAL && <th scope="col">Options</th>}
              </tr>
            </thead>
            <tbody>
              {shown.map((rule) => {
                const globalOn = global[rule.id] ?? true;
                const override = overrides[rule.id];
                return (
                  <tr key={rule.id} data-rule={rule.id}>
                    <th scope="row">
                      <a href={`/rules/${encodeURIComponent(rule.id)}`}>{rule.title}</a>
                      <code class="id">{rule.id}</code>
                    </th>
                    <td class="severity-cell">
                      <SeverityBadge severity={(scope === GLOBAL ? undefined : overrideSeverity[rule.id]) ?? globalSeverity[rule.id] ?? rule.default_severity} />{' '}
                      {scope === GLOBAL ? (
                        <SeveritySelect rule={rule} value={globalSeverity[rule.id]} inherited={undefined} scoped={false} onChange={(sev) => setRuleSeverity(rule, sev)} />
                      ) : (
                        <SeveritySelect rule={rule} value={overrideSeverity[rule.id]} inherited={globalSeverity[rule.id]} scoped onChange={(sev) => setRepoSeverity(rule, sev)} />
                      )}
                    </td>
                    <td>
                      {scope === GLOBAL ? (
                        <label class="switch">
                          <input type="checkbox" role="switch" checked={globalOn} aria-label={rule.id} onChange={(e) => setGlobalRule(rule, (e.currentTarget as HTMLInputElement).checked)} />
                          <span>{globalOn ? 'On' : 'Off'}</span>
                        </label>
                      ) : (
                        <select
                          aria-label={`${rule.id} in this repository`}
                          value={override === undefined ? 'inherit' : override ? 'on' : 'off'}
                          onChange={(e) => setOverride(rule, (e.currentTarget as HTMLSelectElement).value as 'inherit' | 'on' | 'off')}
                        >
                          <option value="inherit">Inherit ({globalOn ? 'on' : 'off'})</option>
                          <option value="on">On</option>
                          <option value="off">Off</option>
                        </select>
                      )}
                    </td>
                    {scope === GLOBAL && (
                      <td class="options">
                        {RULE_OPTION_FIELDS[rule.id] === undefined ? (
                          <span class="muted">—</span>
                        ) : editing === rule.id ? (
                          <OptionsEditor rule={rule} options={globalOptions[rule.id]} onSave={(options) => saveOptions(rule, options)} onCancel={() => setEditing(null)} />
                        ) : (
                          <>
                            <span class="options-summary">{optionsSummary(globalOptions[rule.id]) || 'Defaults'}</span>{' '}
                            <button type="button" onClick={() => setEditing(rule.id)} aria-label={`Edit the options of ${rule.id}`}>
                              Edit
                            </button>
                          </>
                        )}
                      </td>
                    )}
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
