import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { listRuleSettings } from '../../lib/services/rule-settings.js';

export const GET = endpoint(operations.listRuleSettings, async ({ user }) => ({ settings: await listRuleSettings(user) }));
export const OPTIONS = preflight(operations.listRuleSettings.path);
