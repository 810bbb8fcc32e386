import { isAbsolute, resolve } from 'node:path';
import { env, type CodeHostConfig } from '../env.js';
import type { CodeHost } from './port.js';

let current: Promise<CodeHost> | undefined;

/**
 * The process's code host, created on first use from the configuration (`env().codeHost`): the GitHub App
 * when one is configured, else the local directory. The adapter module is imported only then, so an endpoint
 * that never talks to the code host does not load Octokit at cold start.
 */
export function codeHost(): Promise<CodeHost> {
  current ??= createCodeHost(env().codeHost).catch((error: unknown) => {
    current = undefined; // the next request tries again
    throw error;
  });
  return current;
}

/** Uses this code host from now on (tests: a fake or failing host; the dev server could pass its own). */
export function useCodeHost(host: CodeHost): void {
  current = Promise.resolve(host);
}

async function createCodeHost(config: CodeHostConfig): Promise<CodeHost> {
  switch (config.kind) {
    case 'local': {
      const { createLocalCodeHost } = await import('./local.js');
      // Relative to the working directory, like every path in the environment (`npm run dev` runs at the root).
      return createLocalCodeHost({ dir: isAbsolute(config.dir) ? config.dir : resolve(config.dir) });
    }
    case 'github': {
      // Retries and throttling stay on (the adapter's defaults); the App's tokens are cached in the instance.
      const { createGitHubCodeHost } = await import('./github/index.js');
      return createGitHubCodeHost({ appId: config.appId, privateKey: config.privateKey, baseUrl: config.apiUrl, ...(config.oauth === null ? {} : { oauth: config.oauth }) });
    }
  }
}
