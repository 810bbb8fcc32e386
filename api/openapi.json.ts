import { openApiDocument } from '../lib/api/openapi.js';
import { operations } from '../lib/api/operations.js';
import { endpoint, preflight } from '../lib/http/endpoint.js';

export const GET = endpoint(operations.openapi, async () => openApiDocument());
export const OPTIONS = preflight(operations.openapi.path);
