import { describe, expect, it } from 'vitest';
import { positions } from '../../../support/engine.js';
import { recordsWith } from '../../../support/engine.js';
import { FORBIDDEN, settingsFindings } from '../../../support/settings.js';

const RULE = 'webhook-without-secret';
const hook = (id: number, url: string, config: Record<string, unknown> = {}, active = true) => ({
  type: 'Repository',
  id,
  name: 'web',
  active,
  events: ['push'],
  config: { content_type: 'json', insecure_ssl: '0', url, ...config },
});

describe(RULE, () => {
  it('reports an active webhook without a secret, naming its id and host', () => {
    const findings = settingsFindings(RULE, { hooks: [hook(12, 'https://ci.example.com/hook?token=abc')] });
    expect(positions(findings)).toEqual(['0:0 MEDIUM']);
    expect(findings[0]?.description).toMatch(/^Webhook 12 to `ci\.example\.com` has no secret, so its receiver cannot verify/);
    expect(findings[0]?.description).not.toContain('token=abc');
  });

  it('is HIGH when TLS verification is off or the URL is plain HTTP', () => {
    const findings = settingsFindings(RULE, {
      hooks: [hook(1, 'https://a.example.com/', { insecure_ssl: '1' }), hook(2, 'http://b.example.com/'), hook(3, 'https://c.example.com/', { insecure_ssl: 1 })],
    });
    expect(positions(findings)).toEqual(['0:0 HIGH', '0:0 HIGH', '0:0 HIGH']);
    expect(findings.map((f) => f.description).join('\n')).toContain('TLS certificate verification is also off (`insecure_ssl` is 1)');
    expect(findings.map((f) => f.description).join('\n')).toContain('It also delivers over plain HTTP');
  });

  it('gives each webhook its own fingerprint', () => {
    const records = recordsWith(RULE, [], { settings: { hooks: [hook(1, 'https://a.example.com/'), hook(2, 'https://a.example.com/')] } });
    expect(records).toHaveLength(2);
    expect(new Set(records.map((r) => r.fingerprint)).size).toBe(2);
  });

  it('accepts webhooks with a (masked) secret and ignores inactive ones', () => {
    expect(settingsFindings(RULE, { hooks: [hook(1, 'https://a.example.com/', { secret: '********', insecure_ssl: '1' })] })).toEqual([]);
    expect(settingsFindings(RULE, { hooks: [hook(1, 'https://a.example.com/', {}, false)] })).toEqual([]);
    expect(settingsFindings(RULE, { hooks: [] })).toEqual([]);
  });

  it('stays silent when hooks is unreadable', () => {
    expect(settingsFindings(RULE, { hooks: [hook(1, 'https://a.example.com/')], unreadable: { hooks: FORBIDDEN } })).toEqual([]);
    expect(settingsFindings(RULE, {})).toEqual([]);
  });
});
