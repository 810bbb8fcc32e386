import { useState } from 'preact/hooks';
import { DISMISSAL_REASONS, type Dismissal, type DismissalEvent, type DismissalReason } from '../data/types.js';
import { formatTime } from './common.js';

export const MAX_COMMENT = 1000;

export function reasonLabel(reason: DismissalReason | null): string {
  return DISMISSAL_REASONS.find((r) => r.value === reason)?.label ?? 'Reopened';
}

/** The dismiss form: a reason from the fixed list and a free-text comment. */
export function DismissForm({ what, onSubmit, onCancel }: { what: string; onSubmit: (reason: DismissalReason, comment: string) => Promise<void>; onCancel: () => void }) {
  const [reason, setReason] = useState<DismissalReason>('false_positive');
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      class="dismiss-form"
      aria-label={`Dismiss ${what}`}
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        onSubmit(reason, comment.trim()).catch((err: unknown) => {
          setError(err instanceof Error ? err.message : 'The dismissal could not be saved.');
          setBusy(false);
        });
      }}
    >
      <label>
        Reason
        <select value={reason} onChange={(e) => setReason((e.currentTarget as HTMLSelectElement).value as DismissalReason)}>
          {DISMISSAL_REASONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Why (optional)
        <input type="text" maxLength={MAX_COMMENT} value={comment} onInput={(e) => setComment((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <button type="submit" class="primary" disabled={busy}>
        Dismiss
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      {error && (
        <span role="alert" class="error-text">
          {error}
        </span>
      )}
    </form>
  );
}

/** Who dismissed it, when and why, with the trail of earlier decisions. */
export function DismissalNote({ dismissal, events }: { dismissal: Dismissal | { reason: DismissalReason; comment: string; updated_at: string }; events?: readonly DismissalEvent[] }) {
  return (
    <div class="dismissal">
      <p>
        <strong>Dismissed: {reasonLabel(dismissal.reason)}</strong> by you, {formatTime(dismissal.updated_at)}
        {dismissal.comment !== '' && <> · “{dismissal.comment}”</>}
      </p>
      {events && events.length > 1 && (
        <details>
          <summary>History ({events.length})</summary>
          <ul>
            {events.map((e, i) => (
              <li key={i}>
                {formatTime(e.at)}: {e.action === 'dismiss' ? `dismissed as ${reasonLabel(e.reason).toLowerCase()}` : 'reopened'}
                {e.comment !== '' && ` (“${e.comment}”)`}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
