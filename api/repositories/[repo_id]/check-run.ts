import { operations } from '../../../lib/api/operations.js';
import { endpoint, preflight } from '../../../lib/http/endpoint.js';
import { latestCheckRun } from '../../../lib/services/check-runs.js';

export const GET = endpoint(operations.getRepositoryCheckRun, async ({ user, params }) => latestCheckRun(user, params.repo_id));
export const OPTIONS = preflight(operations.getRepositoryCheckRun.path);
