import { operations } from '../../../lib/api/operations.js';
import { endpoint, preflight } from '../../../lib/http/endpoint.js';
import { checkPolicy, setCheckPolicy } from '../../../lib/services/check-runs.js';

export const GET = endpoint(operations.getInstallationCheckPolicy, async ({ user, params }) => checkPolicy(user, params.installation_id));
export const PUT = endpoint(operations.setInstallationCheckPolicy, async ({ user, params, body }) => setCheckPolicy(user, params.installation_id, body));
export const OPTIONS = preflight(operations.getInstallationCheckPolicy.path);
