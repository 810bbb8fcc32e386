import { operations } from '../../../../lib/api/operations.js';
import { endpoint, preflight } from '../../../../lib/http/endpoint.js';
import { clearRuleOverride, setRuleOverride } from '../../../../lib/services/rule-settings.js';

export const PUT = endpoint(operations.setRuleOverride, async ({ user, params, body }) => {
  await setRuleOverride(user, params.repo_id, params.rule_id, body.enabled, body.severity);
});

export const DELETE = endpoint(operations.clearRuleOverride, async ({ user, params }) => {
  await clearRuleOverride(user, params.repo_id, params.rule_id);
});

export const OPTIONS = preflight(operations.setRuleOverride.path);
