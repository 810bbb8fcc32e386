import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { listDeadJobs } from '../../lib/services/monitor-status.js';

export const GET = endpoint(operations.listDeadJobs, async ({ user }) => listDeadJobs(user));
export const OPTIONS = preflight(operations.listDeadJobs.path);
