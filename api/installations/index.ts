import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { listInstallations } from '../../lib/services/installations.js';

export const GET = endpoint(operations.listInstallations, async ({ user }) => ({ installations: await listInstallations(user) }));
export const OPTIONS = preflight(operations.listInstallations.path);
