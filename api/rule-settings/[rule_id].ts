import { operations } from '../../lib/api/operations.js';
import { endpoint, preflight } from '../../lib/http/endpoint.js';
import { clearRuleSetting, setRuleSetting } from '../../lib/services/rule-settings.js';

export const PUT = endpoint(operations.setRuleSetting, async ({ user, params, body }) => {
  await setRuleSetting(user, params.rule_id, body.enabled, body.options, body.severity);
});

export const DELETE = endpoint(operations.clearRuleSetting, async ({ user, params }) => {
  await clearRuleSetting(user, params.rule_id);
});

export const OPTIONS = preflight(operations.setRuleSetting.path);
