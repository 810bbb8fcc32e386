import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { hashParams, hashWith, MAX_QUERY_LENGTH, type QueryState } from '../data/query.js';

/**
 * A view's search, sort, filters and page, read from the address once and written back to it on every
 * change (replaceState: the Back button leaves the view rather than stepping through keystrokes).
 */
export function useViewQuery<T extends Record<string, string>>(path: string, defaults: T, read: (raw: Record<string, string>) => T): [T, (change: Partial<T>) => void] {
  const [state, setState] = useState<T>(() => read({ ...defaults, ...hashParams(location.hash) }));
  const update = (change: Partial<T>) => {
    // A change of anything but the page goes back to the first page.
    const next = { ...state, ...change, ...('page' in change || !('page' in defaults) ? {} : { page: '1' }) } as T;
    setState(next);
    history.replaceState(null, '', `${location.pathname}${location.search}${hashWith(path, next as QueryState, defaults)}`);
  };
  return [state, update];
}

export function SearchBox({ label, value, onInput, placeholder }: { label: string; value: string; onInput: (value: string) => void; placeholder?: string }) {
  return (
    <label class="search">
      {label}
      <input type="search" value={value} maxLength={MAX_QUERY_LENGTH} placeholder={placeholder} onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)} />
    </label>
  );
}

export function Choice<T extends string>({ label, value, options, onChange }: { label: string; value: T; options: readonly { value: T; label: string }[]; onChange: (value: T) => void }) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value as T)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export function Toolbar({ children }: { children: ComponentChildren }) {
  return <div class="filters toolbar">{children}</div>;
}

/** Export buttons: CSV and the structured format of the view (SARIF or JSON). */
export function ExportButtons({ what, onCsv, onStructured, structured }: { what: string; onCsv: () => void; onStructured: () => void; structured: 'SARIF' | 'JSON' }) {
  return (
    <div class="export" role="group" aria-label={`Export ${what}`}>
      <button type="button" onClick={onCsv}>
        Export CSV
      </button>
      <button type="button" onClick={onStructured}>
        Export {structured}
      </button>
    </div>
  );
}

/** Previous / next with "page N of M" and how many items match. */
export function Pager({ page, pages, total, perPage, noun, onPage, at }: { at?: 'end'; page: number; pages: number; total: number; perPage: number; noun: string; onPage: (page: number) => void }) {
  const first = total === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return (
    <nav class="pager" aria-label={at === 'end' ? `Pages of ${noun} (end of the list)` : `Pages of ${noun}`}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span role={at === 'end' ? undefined : 'status'}>
        {first}–{last} of {total} {noun} · page {page} of {pages}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
