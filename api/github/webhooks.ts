import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { receiveWebhook } from '../../lib/services/webhooks.js';

export const POST = endpoint(operations.githubWebhook, async ({ request, body }) => {
  await receiveWebhook({
    signature: request.headers.get('x-hub-signature-256'),
    event: request.headers.get('x-github-event'),
    deliveryId: request.headers.get('x-github-delivery'),
    body,
  });
});
export const OPTIONS = preflight(operations.githubWebhook.path);
