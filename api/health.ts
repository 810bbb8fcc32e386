import { operations } from '../lib/api/operations.js';
import { endpoint, preflight } from '../lib/http/endpoint.js';

export const GET = endpoint(operations.health, async () => ({ status: 'ok' as const }));
export const OPTIONS = preflight(operations.health.path);
