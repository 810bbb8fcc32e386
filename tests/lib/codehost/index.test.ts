import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as CodeHostModule from '../../../lib/codehost/index.js';
import type { CodeHost } from '../../../lib/codehost/port.js';
import { testAppCredentials } from '../../support/github/index.js';

/** lib/codehost/index.ts (and the env it reads) freshly imported, with these variables set meanwhile. */
async function freshCodeHost(variables: Record<string, string>): Promise<typeof CodeHostModule> {
  vi.resetModules();
  const saved = Object.fromEntries(Object.keys(variables).map((key) => [key, process.env[key]]));
  Object.assign(process.env, variables);
  try {
    const module = await import('../../../lib/codehost/index.js');
    await module.codeHost();
    return module;
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

afterEach(() => {
  vi.resetModules();
});

describe('codeHost()', () => {
  it("is the local directory (the project's examples/) when no GitHub App is configured, created once", async () => {
    const { codeHost } = await freshCodeHost({});
    const host = await codeHost();
    expect(await codeHost()).toBe(host);
    expect((await host.listRepositories([1])).map((r) => r.fullName)).toContain('examples/issue-triage-bot');
    expect('apiUrl' in host).toBe(false);
  });

  it('is the GitHub App adapter when GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY are set', async () => {
    const { appId, privateKey } = testAppCredentials();
    const secret = { JWT_SIGNING_SECRET: 'a-real-signing-secret-that-is-long-enough-0123456789' };
    const { codeHost } = await freshCodeHost({ ...secret, GITHUB_APP_ID: String(appId), GITHUB_APP_PRIVATE_KEY: privateKey.replace(/\n/g, '\\n') });
    expect(await codeHost()).toMatchObject({ apiUrl: 'https://api.github.com' });
  });

  it('talks to GITHUB_API_URL (GitHub Enterprise Server) for every App call', async () => {
    const { appId, privateKey } = testAppCredentials();
    const secret = { JWT_SIGNING_SECRET: 'a-real-signing-secret-that-is-long-enough-0123456789' };
    const { codeHost } = await freshCodeHost({ ...secret, GITHUB_APP_ID: String(appId), GITHUB_APP_PRIVATE_KEY: privateKey, GITHUB_API_URL: 'https://ghe.example.com/api/v3' });
    expect(await codeHost()).toMatchObject({ apiUrl: 'https://ghe.example.com/api/v3' });
  });

  it('can be replaced (tests inject fakes and failing hosts)', async () => {
    const { codeHost, useCodeHost } = await freshCodeHost({});
    const fake = { getInstallation: vi.fn() } as unknown as CodeHost;
    useCodeHost(fake);
    expect(await codeHost()).toBe(fake);
  });
});
