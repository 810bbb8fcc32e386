import { operations } from '../../../lib/api/operations.js';
import { repositoryCombinations } from '../../../lib/services/attack-paths.js';
import { endpoint, preflight } from '../../../lib/http/endpoint.js';

export const GET = endpoint(operations.repositoryCombos, async ({ user, params }) => repositoryCombinations(user, params.repo_id));
export const OPTIONS = preflight(operations.repositoryCombos.path);
