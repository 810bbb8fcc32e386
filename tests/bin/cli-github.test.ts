// `chainbreaker scan --github owner/repo`: the repository read from (fake) GitHub with GITHUB_TOKEN through the
// service's own snapshot fetch, so the CLI, the API and a local checkout report the same findings.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { EXIT, main } from '../../bin/cli.js';
import type { Finding } from '../../lib/engine/types.js';
import { findingsOf, REPOSITORY_FILES, settingsFixture, setup } from '../lib/codehost/github/support.js';
import { startFakeGitHub } from '../support/github/index.js';
import { cleanup, tempDir } from './support.js';

const { github, close } = startFakeGitHub();
afterAll(() => {
  close();
  cleanup();
});
afterEach(() => github.reset());

const TOKEN = 'ghp_cliOwnerToken0123456789';
github.addUserToken(TOKEN, { login: 'owner', admin: true });

async function run(argv: string[], env: Record<string, string> = { GITHUB_TOKEN: TOKEN }) {
  let stdout = '';
  let stderr = '';
  const code = await main({
    argv,
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text) },
    env,
    cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}

// The public shape, without the fingerprint the CLI adds (the service's findings are compared field by field).
const findings = (stdout: string) => (JSON.parse(stdout) as { findings: (Finding & { fingerprint?: string })[] }).findings.map(({ fingerprint: _f, ...f }) => f);

describe('scan --github', () => {
  const weak = settingsFixture('weak');
  const repository = setup(github, { fullName: 'acme/legacy-tool', defaultBranch: 'master', files: REPOSITORY_FILES, settings: weak });

  it('reports what the service reports for the same repository, and what a checkout with its settings reports', async () => {
    const service = await repository.host.fetchSnapshot(repository.locator);
    github.reset();
    const cli = await run(['scan', '--github', 'acme/legacy-tool', '--format', 'json', '--fail-on', 'none']);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(EXIT.ok);
    // The same rules as the service: every rule of the catalog, hygiene ones included.
    expect(findings(cli.stdout)).toEqual(findingsOf(service.files, service.settings));
    expect(findings(cli.stdout).some((f) => f.file === '<repository settings>')).toBe(true);

    const checkout = tempDir(REPOSITORY_FILES);
    const settingsFile = join(tempDir(), 'settings.json');
    writeFileSync(settingsFile, JSON.stringify(weak));
    const local = await run(['scan', checkout, '--settings', settingsFile, '--format', 'json', '--fail-on', 'none'], {});
    expect(findings(local.stdout)).toEqual(findings(cli.stdout));
    expect(github.requests.every((r) => r.auth === 'user')).toBe(true);
  });

  it('exits 1 on findings at the threshold, like a local scan', async () => {
    const r = await run(['scan', '--github', 'acme/legacy-tool']);
    expect(r.code).toBe(EXIT.findings);
    expect(r.stdout).toContain('.github/workflows/ci.yml');
  });

  it('scans a checkout and a GitHub repository together, each file prefixed with its repository', async () => {
    const r = await run(['scan', tempDir({ '.github/workflows/a.yml': 'on: push\njobs: {}\n' }), '--github', 'acme/legacy-tool', '--format', 'json', '--fail-on', 'none']);
    expect(r.code).toBe(EXIT.ok);
    expect(findings(r.stdout).some((f) => f.file.startsWith('acme/legacy-tool/.github/workflows/'))).toBe(true);
  });

  it('without GITHUB_TOKEN: usage error 2, nothing requested', async () => {
    const r = await run(['scan', '--github', 'acme/legacy-tool'], {});
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('--github needs a token in GITHUB_TOKEN');
    expect(github.count()).toBe(0);
  });

  it('a malformed name: usage error 2', async () => {
    const r = await run(['scan', '--github', 'https://github.com/acme/legacy-tool']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('is not a repository name (owner/repo)');
  });

  it('a repository GitHub does not show: operational error 3 with a hint', async () => {
    const r = await run(['scan', '--github', 'acme/nowhere']);
    expect(r.code).toBe(EXIT.operational);
    expect(r.stderr).toMatch(/^chainbreaker: cannot read GitHub repository acme\/nowhere: .+ \(check the name, and that GITHUB_TOKEN can read the repository\)\n$/);
  });

  it('a rate limit: operational error 3 saying when to retry; the token never appears', async () => {
    github.fault('POST /graphql', { kind: 'secondary-rate-limit', retryAfter: 60 });
    const r = await run(['scan', '--github', 'acme/legacy-tool']);
    expect(r.code).toBe(EXIT.operational);
    expect(r.stderr).toContain('cannot read GitHub repository acme/legacy-tool: 403 You have exceeded a secondary rate limit');
    expect(r.stderr).toContain('(retry in 60 s)');
    expect(r.stderr + r.stdout).not.toContain(TOKEN);
  });

  it('a bad token: operational error 3', async () => {
    const r = await run(['scan', '--github', 'acme/legacy-tool'], { GITHUB_TOKEN: 'ghp_revoked' });
    expect(r.code).toBe(EXIT.operational);
    expect(r.stderr).toContain('401 Bad credentials');
    expect(r.stderr).not.toContain('ghp_revoked');
  });
});
