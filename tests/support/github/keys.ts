import { generateKeyPairSync, type KeyObject } from 'node:crypto';

export interface TestAppCredentials {
  appId: number;
  /** PKCS#8 PEM, as GitHub's "Generate a private key" gives it (after conversion) and the App reads it. */
  privateKey: string;
  /** What the fake GitHub verifies the App's JWTs with. */
  publicKey: KeyObject;
}

let credentials: TestAppCredentials | undefined;

/**
 * A GitHub App identity for tests, generated once per process: no private key is ever committed. The id is
 * the fake's default App id.
 */
export function testAppCredentials(): TestAppCredentials {
  if (credentials === undefined) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    credentials = { appId: 1043210, privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
  }
  return credentials;
}
