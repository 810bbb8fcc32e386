import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { cronDrain } from '../../lib/services/cron.js';

export const GET = endpoint(operations.cronDrain, async ({ request }) => {
  await cronDrain(request.headers.get('authorization'));
});
export const OPTIONS = preflight(operations.cronDrain.path);
