import { operations } from '../lib/api/operations.js';
import { endpoint, preflight } from '../lib/http/endpoint.js';
import { listRepositories } from '../lib/services/repositories.js';

export const GET = endpoint(operations.listRepositories, async ({ user }) => listRepositories(user));
export const OPTIONS = preflight(operations.listRepositories.path);
