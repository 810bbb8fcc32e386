import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { repositoriesOverview } from '../../lib/services/repositories.js';

export const GET = endpoint(operations.repositoryOverview, async ({ user }) => repositoriesOverview(user));
export const OPTIONS = preflight(operations.repositoryOverview.path);
