import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { unlinkInstallation } from '../../lib/services/installations.js';

export const DELETE = endpoint(operations.unlinkInstallation, async ({ user, params }) => unlinkInstallation(user, params.installation_id));
export const OPTIONS = preflight(operations.unlinkInstallation.path);
