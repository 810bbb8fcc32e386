import { operations } from '../lib/api/operations.js';
import { endpoint, preflight } from '../lib/http/endpoint.js';
import { scan } from '../lib/services/scan.js';

export const POST = endpoint(operations.scan, async ({ user, body }) => scan(user, body));
export const OPTIONS = preflight(operations.scan.path);
