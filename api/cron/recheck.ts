import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { cronRecheck } from '../../lib/services/cron.js';

export const GET = endpoint(operations.cronRecheck, async ({ request }) => {
  await cronRecheck(request.headers.get('authorization'));
});
export const OPTIONS = preflight(operations.cronRecheck.path);
