import { operations } from '../../../lib/api/operations.js';
import { endpoint, preflight } from '../../../lib/http/endpoint.js';
import { repositoryScans } from '../../../lib/services/scans.js';

export const GET = endpoint(operations.listRepositoryScans, async ({ user, params, query }) => repositoryScans(user, params.repo_id, query));
export const OPTIONS = preflight(operations.listRepositoryScans.path);
