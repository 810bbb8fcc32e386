import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { scanById } from '../../lib/services/scans.js';

export const GET = endpoint(operations.getScan, async ({ user, params }) => scanById(user, params.scan_id));
export const OPTIONS = preflight(operations.getScan.path);
