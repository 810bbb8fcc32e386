import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { completeAuthorization, signOut } from '../../lib/services/user-access.js';

export const POST = endpoint(operations.completeGitHubAuthorization, async ({ user, body }) => completeAuthorization(user, body));
export const DELETE = endpoint(operations.revokeGitHubAuthorization, async ({ user }) => signOut(user));
export const OPTIONS = preflight(operations.completeGitHubAuthorization.path);
