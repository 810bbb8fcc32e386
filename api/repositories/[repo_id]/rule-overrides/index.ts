import { operations } from '../../../../lib/api/operations.js';
import { endpoint, preflight } from '../../../../lib/http/endpoint.js';
import { listRuleOverrides } from '../../../../lib/services/rule-settings.js';

export const GET = endpoint(operations.listRuleOverrides, async ({ user, params }) => ({
  overrides: await listRuleOverrides(user, params.repo_id),
}));
export const OPTIONS = preflight(operations.listRuleOverrides.path);
