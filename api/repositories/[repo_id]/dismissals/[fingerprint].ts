import { operations } from '../../../../lib/api/operations.js';
import { endpoint, preflight } from '../../../../lib/http/endpoint.js';
import { dismiss, reopen } from '../../../../lib/services/dismissals.js';

export const PUT = endpoint(operations.setDismissal, async ({ user, params, body }) => dismiss(user, params.repo_id, params.fingerprint, body));

export const DELETE = endpoint(operations.clearDismissal, async ({ user, params }) => {
  await reopen(user, params.repo_id, params.fingerprint);
});

export const OPTIONS = preflight(operations.setDismissal.path);
