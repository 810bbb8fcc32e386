// chainbreaker scan --fix on copies of the example repositories, GitHub's GraphQL API mocked with msw:
// what remains are findings without a fix, a second run changes nothing, --fix=diff changes nothing.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../bin/cli.js';
import { FIXERS } from '../../lib/engine/fixes/index.js';
import type { Finding } from '../../lib/engine/types.js';
import { actionlint } from '../support/actionlint.js';

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;
const shaOf = (key: string) => createHash('sha1').update(key).digest('hex');

/** Answers every `rN: repository(...) { tag: ref(...refs/tags/REF) }` with a lightweight tag. */
const server = setupServer(
  http.post('https://api.github.com/graphql', async ({ request }) => {
    const { query } = (await request.json()) as { query: string };
    const data: Record<string, unknown> = {};
    for (const m of query.matchAll(/(r\d+): repository\(owner: "([^"]+)", name: "([^"]+)"\) \{ tag: ref\(qualifiedName: "refs\/tags\/([^"]+)"\)/g)) {
      const [, alias = '', owner, name, ref = ''] = m;
      const oid = shaOf(`${owner}/${name}@${ref}`);
      data[alias] = { tag: { name: ref, target: { __typename: 'Commit', oid } }, branch: null, versions: { nodes: [{ name: `${ref}.99.0`, target: { __typename: 'Commit', oid } }] } };
    }
    return HttpResponse.json({ data });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function copyOf(example: string): string {
  const root = mkdtempSync(join(tmpdir(), 'chainbreaker-fix-'));
  roots.push(root);
  cpSync(join(EXAMPLES, example), root, { recursive: true });
  return root;
}

async function run(argv: string[], env: Record<string, string> = { GITHUB_TOKEN: 'test-token' }) {
  let stdout = '';
  let stderr = '';
  const code = await main({ argv, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env, cwd: process.cwd() });
  return { code, stdout, stderr };
}

function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = dir === '' ? name : `${dir}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else out[path] = readFileSync(join(root, path), 'utf8');
    }
  };
  walk('');
  return out;
}

// What plain --fix applies: the rules whose fixes are safe (missing-timeout guesses a value, so it needs --fix=unsafe).
const FIXABLE = new Set(FIXERS.filter((f) => f.safe).map((f) => f.ruleId));

describe('chainbreaker scan --fix on the examples', () => {
  for (const example of ['issue-triage-bot', 'release-pipeline', 'hardened-service']) {
    it(`${example}: leaves only findings without a fix, is idempotent, and stays actionlint-clean`, async () => {
      const root = copyOf(example);
      const settings = existsSync(join(root, '.chainbreaker/settings.json')) ? ['--settings', join(root, '.chainbreaker/settings.json')] : [];
      const before = snapshot(root);
      const first = await run(['scan', root, '--fix', '--format', 'json', '--fail-on', 'none', ...settings]);
      expect(first.code, first.stderr).toBe(0);
      const report = JSON.parse(first.stdout) as { findings: Finding[] };
      const left = report.findings.filter((f) => FIXABLE.has(f.rule_id) && f.file !== '<repository settings>');
      expect(left.map((f) => `${f.file}:${f.line} ${f.rule_id}`)).toEqual([]);
      const fixed = snapshot(root);
      // Pins come from GitHub once, then from the lock cache.
      if (example !== 'hardened-service') expect(fixed['.chainbreaker/pins.json']).toContain(shaOf('actions/checkout@v4'));
      for (const [path, text] of Object.entries(fixed)) {
        if (path.startsWith('.github/workflows/') && text !== before[path]) {
          const complaints = (await actionlint(text, path)).filter((c) => !c.includes('[shellcheck]'));
          expect(complaints, path).toEqual([]);
        }
      }
      const second = await run(['scan', root, '--fix', '--format', 'json', '--fail-on', 'none', ...settings], {});
      expect(second.stderr).toContain('fixed 0 findings in 0 files');
      expect(snapshot(root)).toEqual(fixed);
    });
  }

  it('--fix=diff prints the diff and changes nothing', async () => {
    const root = copyOf('issue-triage-bot');
    const before = snapshot(root);
    const result = await run(['scan', root, '--fix=diff'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--- a/.github/workflows/triage.yml\n+++ b/.github/workflows/triage.yml\n');
    expect(result.stdout).toContain('+          ISSUE_TITLE: ${{ github.event.issue.title }}');
    expect(result.stderr).toContain('would fix 3 findings in 1 file');
    expect(result.stderr).toContain('skipped 1 pin (needs network or the lock cache .chainbreaker/pins.json)');
    expect(snapshot(root)).toEqual(before);
  });

  it('rejects a bad mode and --fix with --github, in one line', async () => {
    const bad = await run(['scan', '.', '--fix=everything']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('chainbreaker: --fix must be one of safe, unsafe, diff (got "everything"); run "chainbreaker --help" for usage\n');
    const remote = await run(['scan', '--github', 'octo/app', '--fix']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toBe('chainbreaker: --fix works on local checkouts, not with --github; run "chainbreaker --help" for usage\n');
  });
});
