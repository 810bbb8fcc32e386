import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { connectSources, withConnectPolicy } from '../../scripts/web-csp.js';
import { ROOT } from '../support/http.js';

describe("the pages' connect-src", () => {
  it('is this origin and the configured Supabase project only (its origin, whatever else the URL holds)', () => {
    expect(connectSources('https://abcd1234.supabase.co')).toBe("'self' https://abcd1234.supabase.co");
    expect(connectSources('https://abcd1234.supabase.co/rest/v1/?x="\'><script>')).toBe("'self' https://abcd1234.supabase.co");
    expect(connectSources('http://127.0.0.1:54321')).toBe("'self' http://127.0.0.1:54321");
    expect(connectSources(undefined)).toBe("'self'");
    expect(connectSources('')).toBe("'self'");
  });

  it('refuses a configuration that is not an https:// address, with what to set', () => {
    expect(() => connectSources('abcd.supabase.co')).toThrow(/SUPABASE_URL is not a URL: set it to the project's https:\/\//);
    expect(() => connectSources('http://abcd.supabase.co')).toThrow(/must be an https:\/\/ address/);
    expect(() => connectSources('javascript:alert(1)')).toThrow(/must be an https:\/\/ address/);
  });

  it('is placed right after <meta charset>, before any script', () => {
    const html = withConnectPolicy('<!doctype html><html><head><meta charset="utf-8"><script src="/a.js"></script></head></html>', 'https://p.supabase.co');
    expect(html).toMatch(/<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="connect-src 'self' https:\/\/p\.supabase\.co"><script/);
    expect(() => withConnectPolicy('<html></html>', undefined)).toThrow(/no <meta charset>/);
  });

  it('the build refuses a bad SUPABASE_URL in one line, before writing anything', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-web.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, SUPABASE_URL: 'http://evil.example', SUPABASE_ANON_KEY: 'x' },
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('build:web: SUPABASE_URL must be an https:// address (http:// only on localhost), not http:');
  });
});
