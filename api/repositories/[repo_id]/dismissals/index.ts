import { operations } from '../../../../lib/api/operations.js';
import { endpoint, preflight } from '../../../../lib/http/endpoint.js';
import { listDismissals } from '../../../../lib/services/dismissals.js';

export const GET = endpoint(operations.listDismissals, async ({ user, params }) => listDismissals(user, params.repo_id));
export const OPTIONS = preflight(operations.listDismissals.path);
