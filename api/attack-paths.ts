import { operations } from '../lib/api/operations.js';
import { attackPaths } from '../lib/services/attack-paths.js';
import { endpoint, preflight } from '../lib/http/endpoint.js';

export const GET = endpoint(operations.attackPaths, async ({ user }) => attackPaths(user));
export const OPTIONS = preflight(operations.attackPaths.path);
