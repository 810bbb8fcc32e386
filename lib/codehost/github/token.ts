import type { RepositorySnapshot } from '../port.js';
import { bindRequest, DEFAULT_BASE_URL, octokitClass, type ClientOptions } from './client.js';
import { withDeadline } from './deadline.js';
import { fetchRepositorySnapshot, OPTIONAL_AREA_RESERVE_MS } from './snapshot.js';

export interface TokenSnapshotOptions extends ClientOptions {
  /** A personal access token, a `gh auth token`, or the `GITHUB_TOKEN` of a workflow run. */
  token: string;
  /** `owner/name`. */
  fullName: string;
  /** Abort at this time (epoch ms); 60 s from now by default. */
  deadline?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * One repository's scan snapshot read with a token instead of the App (the CLI's `scan --github`): the
 * same requests and the same mapping as the service, so both give the same findings. A token's rights
 * are unknown in advance, so every area is asked for; those it cannot read become unreadable.
 */
export function fetchSnapshotWithToken(options: TokenSnapshotOptions): Promise<RepositorySnapshot> {
  const Octokit = octokitClass(options);
  const octokit = new Octokit({ auth: options.token });
  const apiUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  return withDeadline(options.deadline ?? Date.now() + DEFAULT_TIMEOUT_MS, async (deadline) => {
    const bound = bindRequest(octokit, deadline.signal, options);
    const snapshot = await fetchRepositorySnapshot({ request: bound.request, permissions: null, apiUrl, optionalSignal: deadline.early(OPTIONAL_AREA_RESERVE_MS) }, { fullName: options.fullName });
    return { ...snapshot, requests: bound.count };
  });
}
