import { isObject } from '../../engine/settings/json.js';
import { CodeHostError, type CheckRunRef, type ChecksHost } from '../port.js';
import type { RequestFunction } from './client.js';
import { codeHostError } from './errors.js';
import { splitFullName } from './snapshot.js';

/**
 * The App's check runs (`ChecksHost`): find the one a job already made on a commit, create one, update it.
 * `requestFor` gives a request function bound to the installation's token and an operation deadline. A
 * check run needs the App permission "Checks: write"; without it GitHub answers 403 and this rejects with
 * CodeHostError 'forbidden'.
 */
/** GitHub lists at most 3,000 files of a pull request, 100 a page. */
const PULL_FILES_PAGES = 30;

export function createChecksHost(requestFor: (installationId: number) => Promise<RequestFunction>): ChecksHost {
  return {
    async find(installationId, fullName, headSha, name, externalId) {
      const [owner, repo] = splitFullName(fullName);
      const request = await requestFor(installationId);
      try {
        // The App's own check runs of that name on the commit: one page holds them (a job makes one per commit).
        const { data } = await request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { owner, repo, ref: headSha, check_name: name, filter: 'all', per_page: 100 });
        const runs: unknown = isObject(data) ? data.check_runs : undefined;
        if (!Array.isArray(runs)) throw new CodeHostError('unavailable', `check runs of ${fullName}: GitHub's answer is not a list of check runs`);
        const found = runs.filter(isObject).find((run) => run.external_id === externalId);
        return found === undefined ? null : checkRunRef(found, fullName);
      } catch (error) {
        throw codeHostError(error, `check runs of ${fullName}`);
      }
    },
    async create(installationId, fullName, body) {
      const [owner, repo] = splitFullName(fullName);
      const request = await requestFor(installationId);
      try {
        const { data } = await request('POST /repos/{owner}/{repo}/check-runs', { owner, repo, ...body } as never);
        return checkRunRef(data, fullName);
      } catch (error) {
        throw codeHostError(error, `check run on ${fullName}`);
      }
    },
    async pullRequestFiles(installationId, fullName, pullNumber) {
      const [owner, repo] = splitFullName(fullName);
      const request = await requestFor(installationId);
      const paths: string[] = [];
      try {
        for (let page = 1; page <= PULL_FILES_PAGES; page++) {
          const { data } = await request('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', { owner, repo, pull_number: pullNumber, per_page: 100, page });
          if (!Array.isArray(data)) throw new CodeHostError('unavailable', `files of pull request #${pullNumber} of ${fullName}: GitHub's answer is not a list`);
          for (const file of data as unknown[]) {
            if (!isObject(file) || typeof file.filename !== 'string') continue;
            paths.push(file.filename);
            if (typeof file.previous_filename === 'string') paths.push(file.previous_filename);
          }
          if (data.length < 100) return paths;
        }
        // GitHub lists at most 3,000 files of a pull request: the rest are unknown.
        return null;
      } catch (error) {
        const failure = codeHostError(error, `files of pull request #${pullNumber} of ${fullName}`);
        if (failure.kind === 'not_found') return null;
        throw failure;
      }
    },
    async update(installationId, fullName, checkRunId, body) {
      const [owner, repo] = splitFullName(fullName);
      const request = await requestFor(installationId);
      try {
        const { data } = await request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', { owner, repo, check_run_id: checkRunId, ...body } as never);
        return checkRunRef(data, fullName);
      } catch (error) {
        throw codeHostError(error, `check run ${checkRunId} on ${fullName}`);
      }
    },
  };
}

function checkRunRef(data: unknown, fullName: string): CheckRunRef {
  if (!isObject(data) || typeof data.id !== 'number' || typeof data.html_url !== 'string') {
    throw new CodeHostError('unavailable', `check run on ${fullName}: GitHub's answer is not a check run`);
  }
  const output = isObject(data.output) ? data.output : {};
  return {
    id: data.id,
    htmlUrl: data.html_url,
    status: typeof data.status === 'string' ? data.status : 'queued',
    conclusion: typeof data.conclusion === 'string' ? data.conclusion : null,
    annotationsCount: typeof output.annotations_count === 'number' ? output.annotations_count : 0,
  };
}
