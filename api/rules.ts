import { operations } from '../lib/api/operations.js';
import { CATALOG } from '../lib/engine/catalog.js';
import { endpoint, preflight } from '../lib/http/endpoint.js';

export const GET = endpoint(operations.listRules, async () => ({ rules: [...CATALOG] }));
export const OPTIONS = preflight(operations.listRules.path);
