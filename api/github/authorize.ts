import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { startAuthorization } from '../../lib/services/user-access.js';

export const GET = endpoint(operations.startGitHubAuthorization, async ({ user }) => startAuthorization(user));
export const OPTIONS = preflight(operations.startGitHubAuthorization.path);
