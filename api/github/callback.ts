import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { linkInstallation } from '../../lib/services/installations.js';

export const GET = endpoint(operations.installationCallback, async ({ user, query }) => linkInstallation(user, query.installation_id));
export const OPTIONS = preflight(operations.installationCallback.path);
