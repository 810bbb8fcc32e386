// The `fix` of findings in POST /api/scan: a unified diff for workflow findings that have a fix (applying it
// removes the finding), the GitHub call for settings findings, and nothing for findings without a fix.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { GET as CALLBACK } from '../../api/github/callback.js';
import { GET as REPOS } from '../../api/repos.js';
import { POST } from '../../api/scan.js';
import { ScanResult } from '../../lib/api/schemas.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { bearer } from '../support/auth.js';
import { examplesCodeHost, githubUser } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest } from '../support/http.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  useCodeHost(examplesCodeHost());
});
afterAll(async () => t.close());

async function scanExample(name: string) {
  const { userId } = await githubUser(t);
  const authorization = await bearer(userId);
  expect((await CALLBACK(await apiRequest('GET', '/api/github/callback?installation_id=1', { authorization }))).status).toBe(200);
  const listed = (await (await REPOS(await apiRequest('GET', '/api/repos', { authorization }))).json()) as { repositories: { id: string; full_name: string }[] };
  const repo = listed.repositories.find((r) => r.full_name === `examples/${name}`)?.id ?? '';
  const response = await POST(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: repo } }));
  expect(response.status).toBe(200);
  return v.parse(ScanResult, await response.json());
}

describe('POST /api/scan: fix', () => {
  it('carries a diff on workflow findings that have a fix, and none on the others', async () => {
    const result = await scanExample('issue-triage-bot');
    const byRule = (id: string) => result.findings.find((f) => f.rule_id === id);
    const injection = byRule('script-injection');
    expect(injection?.fix?.safe).toBe(true);
    expect(injection?.fix?.diff).toContain('+          ISSUE_TITLE: ${{ github.event.issue.title }}');
    expect(injection?.fix?.diff).toContain('-          title="${{ github.event.issue.title }}"');
    expect(injection?.fix?.diff?.startsWith('--- a/.github/workflows/triage.yml\n+++ b/.github/workflows/triage.yml\n@@ ')).toBe(true);
    expect(byRule('missing-permissions')?.fix?.diff).toContain('+permissions: {}');
    // The service resolves no pins: an unpinned action has no fix here (the CLI pins with the network).
    expect(byRule('unpinned-action')?.fix).toBeUndefined();
  });

  it('carries the GitHub API call on settings findings, marked unsafe', async () => {
    const result = await scanExample('issue-triage-bot');
    const token = result.findings.find((f) => f.rule_id === 'default-token-write');
    expect(token?.fix).toEqual({
      safe: false,
      api: { method: 'PUT', path: '/repos/examples/issue-triage-bot/actions/permissions/workflow', body: { default_workflow_permissions: 'read' } },
    });
    expect(result.findings.find((f) => f.rule_id === 'branch-protection-missing')?.fix).toBeUndefined();
  });

  it('release-pipeline: job-level permissions replace the workflow-level write', async () => {
    const result = await scanExample('release-pipeline');
    const excessive = result.findings.find((f) => f.rule_id === 'excessive-permissions');
    expect(excessive?.fix?.diff).toContain('-permissions:\n-  contents: write\n+permissions: {}');
    expect(result.findings.find((f) => f.rule_id === 'pipe-to-shell')?.fix).toBeUndefined();
  });
});
