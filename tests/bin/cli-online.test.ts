import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT, main } from '../../bin/cli.js';
import type { Finding } from '../../lib/engine/types.js';
import { FakeActions, sha } from '../lib/online/fake-actions.js';
import { cleanup, only, tempDir } from './support.js';

const C1 = sha('c1');
const C2 = sha('c2');
const FORK = sha('fork');

let fake: FakeActions;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  cleanup();
});
beforeEach(() => {
  fake = new FakeActions().add('actions/checkout', { defaultBranch: 'main', commits: { [C1]: [], [C2]: [C1], [FORK]: [C2] }, branches: { main: C2 }, tags: { 'v4.0.0': C1, 'v4.1.0': C2 } });
  server.resetHandlers(...fake.handlers);
});
afterEach(() => server.resetHandlers());

const WORKFLOW = `on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@${FORK} # v4.1.0
      - uses: actions/checkout@${C2} # v4.0.0
`;

async function run(argv: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await main({ argv, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env, cwd: process.cwd() });
  return { code, stdout, stderr };
}

const ONLINE = ['impostor-commit', 'ref-confusion', 'stale-action-ref', 'ref-version-mismatch', 'online-audit-incomplete'];

describe('chainbreaker scan --online', () => {
  it('needs GITHUB_TOKEN (usage error, exit 2, no request)', async () => {
    const r = await run(['scan', tempDir({ '.github/workflows/ci.yml': WORKFLOW }), '--online'], {});
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('--online needs a token in GITHUB_TOKEN');
    expect(fake.requests).toEqual([]);
  });

  it('reports the online findings at the uses: lines, gates on them, and caches on disk for the next run', async () => {
    const dir = tempDir({ '.github/workflows/ci.yml': WORKFLOW });
    const cacheHome = tempDir();
    const env = { GITHUB_TOKEN: 'ghp_test', XDG_CACHE_HOME: cacheHome };
    const first = await run(['scan', dir, '--online', '--format', 'json', ...only(...ONLINE)], env);
    expect(first.code).toBe(EXIT.findings);
    const findings = (JSON.parse(first.stdout) as { findings: Finding[] }).findings;
    expect(findings.map((f) => `${f.line}:${f.column} ${f.rule_id} ${f.severity}`)).toEqual(['6:15 impostor-commit HIGH', '7:15 ref-version-mismatch MEDIUM']);
    expect(first.stderr).toMatch(/online audits: \d+ GitHub requests \(1 GraphQL query\)\n/);
    expect(existsSync(join(cacheHome, 'chainbreaker', 'online.json'))).toBe(true);

    const spent = fake.requests.length;
    const second = await run(['scan', dir, '--online', '--format', 'json', ...only(...ONLINE)], env);
    expect(second.stdout).toBe(first.stdout);
    expect(fake.requests.length).toBe(spent);
    expect(second.stderr).toContain('online audits: 0 GitHub requests');
  });

  it('runs no online audit without --online, and none of a disabled rule', async () => {
    const dir = tempDir({ '.github/workflows/ci.yml': WORKFLOW });
    const offline = await run(['scan', dir, '--format', 'json', ...only(...ONLINE)], { GITHUB_TOKEN: 'ghp_test' });
    expect((JSON.parse(offline.stdout) as { findings: Finding[] }).findings).toEqual([]);
    const disabled = await run(['scan', dir, '--online', '--format', 'json', ...only('impostor-commit')], { GITHUB_TOKEN: 'ghp_test', XDG_CACHE_HOME: tempDir() });
    expect((JSON.parse(disabled.stdout) as { findings: Finding[] }).findings.map((f) => f.rule_id)).toEqual(['impostor-commit']);
    expect(fake.requests.length).toBeGreaterThan(0);
  });

  it('reports a rate-limited run as unassessed (INFO), not clean, and exits 0 under the default threshold', async () => {
    fake.rateLimit = { after: 0, kind: '403' };
    const r = await run(['scan', tempDir({ '.github/workflows/ci.yml': WORKFLOW }), '--online', '--format', 'json', ...only(...ONLINE)], { GITHUB_TOKEN: 'ghp_test', XDG_CACHE_HOME: tempDir() });
    expect(r.code).toBe(EXIT.ok);
    const findings = (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
    expect(findings.map((f) => `${f.line} ${f.rule_id} ${f.severity}`)).toEqual(['6 online-audit-incomplete INFO']);
    expect(r.stderr).toContain('2 references unassessed');
  });
});
