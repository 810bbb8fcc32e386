import { randomBytes } from 'node:crypto';
import { setupServer, type SetupServer } from 'msw/node';
import { createGitHubCodeHost, type GitHubCodeHost, type GitHubCodeHostOptions } from '../../../lib/codehost/github/index.js';
import { FakeGitHub, type FakeGitHubOptions } from './fake.js';
import { testAppCredentials } from './keys.js';

export { FAKE_OAUTH_CLIENT, FakeGitHub, type FakeAppUser, type Fault, type FakeGitHubOptions, type FakeInstallationInit, type FakeRepositoryInit, type RecordedRequest } from './fake.js';
export { FULL_PERMISSIONS, type FakeAccount, type FakeFile, type FakeInstallation, type FakeRepository, type Permissions } from './model.js';
export { testAppCredentials, type TestAppCredentials } from './keys.js';

export interface RunningFakeGitHub {
  github: FakeGitHub;
  /** The msw server (add handlers with `server.use`, e.g. a second fake on another host). */
  server: SetupServer;
  close(): void;
}

/**
 * A fake GitHub served through msw (`onUnhandledRequest: 'error'`: a request the fake does not know fails
 * the test). For tests that already run an msw server, add `github.handlers` to it instead.
 */
export function startFakeGitHub(options: FakeGitHubOptions = {}): RunningFakeGitHub {
  const github = new FakeGitHub(options);
  const server = setupServer(...github.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  return { github, server, close: () => server.close() };
}

/**
 * The GitHub adapter as the service builds it, for the test App, with retries and throttling off (tests
 * see every fault at once) and a fresh token cache.
 */
export function testGitHubCodeHost(options: Partial<GitHubCodeHostOptions> = {}): GitHubCodeHost {
  // msw's error paths (network errors, aborted requests) can leave an entry in OpenSSL's error queue, which
  // makes the next key import fail; random bytes clear it before the adapter parses the App's key.
  randomBytes(1);
  const { appId, privateKey } = testAppCredentials();
  return createGitHubCodeHost({ appId, privateKey, retry: false, throttle: false, ...options });
}
