import { defineSettingsRule } from '../rule.js';
import { readArea } from '../settings/areas.js';
import { field, flag, integer, text } from '../settings/json.js';

export default defineSettingsRule({
  meta: {
    id: 'webhook-without-secret',
    category: 'CICD-SEC-8',
    title: 'Webhook without a secret',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description:
      'An active repository webhook has no secret, so its receiver cannot tell GitHub\'s deliveries from forged ones. HIGH when TLS verification is off (`insecure_ssl`) or the URL is plain HTTP, as deliveries can then also be read and altered in transit.',
    recommendation:
      'Settings → Webhooks → the webhook: set a random Secret and verify the `X-Hub-Signature-256` header in the receiver; keep "Enable SSL verification" on and use an https URL (`PATCH /repos/{owner}/{repo}/hooks/{hook_id}/config` with `secret` and `insecure_ssl: "0"`).',
  },
  check(snapshot, context) {
    const hooks = readArea(snapshot, 'hooks');
    if (!hooks.readable) return;
    for (const hook of hooks.value) {
      // An inactive webhook delivers nothing.
      if (flag(hook, 'active') === false) continue;
      const config = field(hook, 'config');
      // GitHub masks a configured secret as "********".
      const secret = text(config, 'secret');
      if (secret !== undefined && secret !== '') continue;
      const url = text(config, 'url') ?? '';
      const host = hostOf(url);
      // GitHub sends "0"/"1"; a hand-written snapshot may say 1 or true. Never stringify an unknown value.
      const rawInsecureSsl = field(config, 'insecure_ssl');
      const insecureSsl = rawInsecureSsl === '1' || rawInsecureSsl === 1 || rawInsecureSsl === true;
      const plainHttp = /^http:/i.test(url);
      const id = integer(hook, 'id');
      const transport = insecureSsl
        ? ' TLS certificate verification is also off (`insecure_ssl` is 1), so anyone on the network path can read and alter its deliveries.'
        : plainHttp
          ? ' It also delivers over plain HTTP, so anyone on the network path can read and alter its deliveries.'
          : '';
      context.report({
        severity: insecureSsl || plainHttp ? 'HIGH' : 'MEDIUM',
        key: `hook:${id ?? host}`,
        message: `Webhook ${id === undefined ? '' : `${id} `}to ${host} has no secret, so its receiver cannot verify that a delivery comes from GitHub: anyone who learns the URL can send it forged events.${transport}`,
      });
    }
  },
});

function hostOf(url: string): string {
  try {
    return `\`${new URL(url).host}\``;
  } catch {
    return 'an unparsable URL';
  }
}
