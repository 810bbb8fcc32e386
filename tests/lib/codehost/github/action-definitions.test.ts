// Action definitions anywhere in the repository (`**/action.yml|yaml`, issue 17): the GitHub code host finds
// them with one recursive tree listing and reads them in batched GraphQL queries; the checkout reader walks
// the checkout. Both share the bounds of lib/codehost/actions.ts, and what the bounds leave out reaches the
// engine as `skipped` files, which it names in one scan-limit-reached finding: never silently clean.

import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { LISTING_TRUNCATED, MAX_ACTION_DEFINITIONS, OVER_COUNT, planActionDefinitions, UNLISTED_PATH } from '../../../../lib/codehost/actions.js';
import { collectRepositoryFiles, listActionDefinitions } from '../../../../lib/codehost/checkout.js';
import { cleanup, tempDir } from '../../../bin/support.js';
import { startFakeGitHub } from '../../../support/github/index.js';
import { COMPOSITE, findingsOf, setup, WORKFLOW } from './support.js';

// Round trips are counted from overlapping request windows: a latency far above scheduling noise on a loaded machine.
const { github, close } = startFakeGitHub({ latencyMs: 100 });
afterAll(() => {
  close();
  cleanup();
});
afterEach(() => github.reset());

const GRAPHQL = 'POST /graphql';
const TREE = 'GET /repos/{owner}/{repo}/git/trees/{tree_sha}';

/** A docker action whose image is a mutable tag: `unpinnable-action` reports it wherever it sits. */
const DOCKER = 'name: lint\ndescription: lint\nruns:\n  using: docker\n  image: docker://alpine:latest\n';

/** `n` action definitions in `packages/pNNN/action.yml`. */
function manyActions(n: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`packages/p${String(i).padStart(3, '0')}/action.yml`, COMPOSITE]));
}

describe('through GitHub', () => {
  test('an action nobody references, deep in the repository, is read and scanned: its docker image pin is checked', async () => {
    const { host, locator } = setup(github, { files: { '.github/workflows/ci.yml': 'on: push\njobs: {}\n', 'tools/ci/lint/action.yml': DOCKER } });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.files.map((f) => f.path)).toEqual(['.github/workflows/ci.yml', 'tools/ci/lint/action.yml']);
    expect(findingsOf(snapshot.files).filter((f) => f.rule_id === 'unpinnable-action').map((f) => f.file)).toEqual(['tools/ci/lint/action.yml']);
    expect(github.count(TREE)).toBe(1);
    expect(github.requests.find((r) => r.route === TREE)?.url).toMatch(/\/git\/trees\/HEAD\?recursive=1$/);
  });

  test('no action outside the workflow surface: no query beyond the snapshot', async () => {
    const { host, locator } = setup(github, { files: { '.github/workflows/ci.yml': WORKFLOW.replace('./tools/setup', './.github/actions/setup'), '.github/actions/setup/action.yml': COMPOSITE, 'src/index.ts': '' } });
    await host.fetchSnapshot(locator);
    expect(github.count(GRAPHQL)).toBe(1);
    expect(github.roundTrips()).toBe(2); // the token, then the one batch
  });

  test(`more than ${MAX_ACTION_DEFINITIONS}: the first ones in path order are read in batched queries, the rest named by scan-limit-reached`, async () => {
    const files = { '.github/workflows/ci.yml': 'on: push\njobs: {}\n', ...manyActions(MAX_ACTION_DEFINITIONS + 3) };
    const { host, locator } = setup(github, { files });
    const snapshot = await host.fetchSnapshot(locator);
    const read = snapshot.files.filter((f) => f.skipped === undefined && f.path.startsWith('packages/'));
    const skipped = snapshot.files.filter((f) => f.skipped !== undefined);
    expect(read).toHaveLength(MAX_ACTION_DEFINITIONS);
    expect(skipped.map((f) => f.path)).toEqual(['packages/p200/action.yml', 'packages/p201/action.yml', 'packages/p202/action.yml']);
    expect(skipped.every((f) => f.text === '' && f.skipped === OVER_COUNT)).toBe(true);
    // 200 blobs: two queries of 100, sent together.
    expect(github.requests.filter((r) => r.route === GRAPHQL).map((r) => r.operation)).toEqual(['ChainbreakerSnapshot', 'ChainbreakerActionDefinitions', 'ChainbreakerActionDefinitions']);
    expect(github.roundTrips()).toBe(3);
    const limit = findingsOf(snapshot.files).filter((f) => f.rule_id === 'scan-limit-reached');
    expect(limit).toHaveLength(1);
    expect(limit[0]?.description).toContain(`${OVER_COUNT}: 3 files not scanned (packages/p200/action.yml, packages/p201/action.yml, packages/p202/action.yml)`);
  });

  test('an action over the bound that a workflow uses is read all the same', async () => {
    const workflow = WORKFLOW.replace('./tools/setup', './packages/p201');
    const { host, locator } = setup(github, { files: { '.github/workflows/ci.yml': workflow, ...manyActions(MAX_ACTION_DEFINITIONS + 3) } });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.files.find((f) => f.path === 'packages/p201/action.yml')).toEqual({ path: 'packages/p201/action.yml', text: COMPOSITE });
    expect(snapshot.files.filter((f) => f.skipped !== undefined).map((f) => f.path)).toEqual(['packages/p200/action.yml', 'packages/p202/action.yml']);
  });

  test('a tree GitHub cuts short: what it listed is read, and the scan says the search stopped', async () => {
    const { host, locator } = setup(github, { files: { '.github/workflows/ci.yml': WORKFLOW, 'a/action.yml': DOCKER, 'tools/setup/action.yml': COMPOSITE, 'z/action.yml': DOCKER } });
    github.treeLimit = 4; // .github, .github/workflows, its file, a/ ... then cut
    const snapshot = await host.fetchSnapshot(locator);
    const paths = snapshot.files.map((f) => f.path);
    expect(paths).toContain(UNLISTED_PATH);
    expect(paths).not.toContain('z/action.yml');
    // A local action the workflow uses is still followed: a cut listing never rules a directory out.
    expect(paths).toContain('tools/setup/action.yml');
    const limit = findingsOf(snapshot.files).find((f) => f.rule_id === 'scan-limit-reached');
    expect(limit?.description).toContain(`${LISTING_TRUNCATED}: 1 file not scanned (${UNLISTED_PATH})`);
  });

  test('an oversized action definition is not fetched: its size makes it unreadable, with the engine\'s words', async () => {
    const huge = `${COMPOSITE}# ${'x'.repeat(1_100_000)}\n`;
    const { host, locator } = setup(github, { files: { 'deploy/action.yml': huge } });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.files).toEqual([{ path: 'deploy/action.yml', text: '', unreadable: 'the file is larger than the 1024 KiB limit' }]);
    expect(github.count(GRAPHQL)).toBe(1);
  });

  test('an empty repository has no tree (409): no files, no failure', async () => {
    const { host, locator } = setup(github, { empty: true });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.files).toEqual([]);
    expect(github.requests.find((r) => r.route === TREE)?.status).toBe(409);
  });

  test('a listing that fails fails the scan: never a scan without the files it could not look for', async () => {
    const { host, locator } = setup(github, { files: { '.github/workflows/ci.yml': WORKFLOW } });
    github.fault(TREE, { kind: 'status', status: 502 });
    await expect(host.fetchSnapshot(locator)).rejects.toMatchObject({ name: 'CodeHostError', kind: 'unavailable' });
    github.clearFaults();
    github.fault(TREE, { kind: 'body', body: '{"sha":"x"}', contentType: 'application/json' });
    await expect(host.fetchSnapshot(locator)).rejects.toMatchObject({ name: 'CodeHostError', kind: 'unavailable' });
  });
});

describe('parity with a checkout', () => {
  test('the same files, skipped ones included, and the same findings', async () => {
    const files: Record<string, string> = {
      '.github/workflows/ci.yml': WORKFLOW.replace('./tools/setup', './packages/p202'),
      '.github/actions/a/b/c/d/e/action.yml': COMPOSITE,
      'tools/ci/lint/action.yml': DOCKER,
      'web/node_modules/dep/action.yml': COMPOSITE,
      ...manyActions(MAX_ACTION_DEFINITIONS + 4),
    };
    const { host, locator } = setup(github, { files });
    const remote = await host.fetchSnapshot(locator);
    const root = tempDir(files);
    const local = await collectRepositoryFiles(root);
    expect(remote.files).toEqual(local);
    expect(findingsOf(remote.files)).toEqual(findingsOf(local));
    expect(local.filter((f) => f.skipped !== undefined).map((f) => f.path)).toEqual(['packages/p200/action.yml', 'packages/p201/action.yml', 'packages/p203/action.yml', 'tools/ci/lint/action.yml']);
    expect(local.some((f) => f.path.includes('node_modules'))).toBe(false);
  });

  test('the checkout reader does not follow a linked directory or read a linked action file in its search', async () => {
    const root = tempDir({ 'real/action.yml': DOCKER, '.github/workflows/ci.yml': 'on: push\njobs: {}\n' });
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    mkdirSync(join(root, 'links'));
    symlinkSync(join(root, 'real', 'action.yml'), join(root, 'links', 'action.yml'));
    const outside = tempDir({ 'action.yml': DOCKER });
    mkdirSync(dirname(join(root, 'out/x')), { recursive: true });
    symlinkSync(outside, join(root, 'out', 'x'));
    writeFileSync(join(root, 'README.md'), '# r\n');
    expect((await collectRepositoryFiles(root)).map((f) => f.path)).toEqual(['.github/workflows/ci.yml', 'real/action.yml']);
  });
});

test('planActionDefinitions: workflow-surface actions are not counted, vendored ones not searched, order by path', () => {
  const plan = planActionDefinitions(['z/action.yml', 'action.yml', '.github/actions/x/action.yml', 'node_modules/a/action.yml', 'a/node_modules/b/action.yaml', 'b/action.yaml', 'b/not-action.yml']);
  expect(plan).toEqual({ read: ['b/action.yaml', 'z/action.yml'], over: [] });
});

describe('the checkout listing', () => {
  test('breadth-first in name order, bounded: past the bound it says it stopped', async () => {
    const root = tempDir({ 'a/action.yml': DOCKER, 'b/c/action.yaml': DOCKER, 'node_modules/x/action.yml': DOCKER, 'z.txt': '' });
    expect(await listActionDefinitions(root)).toEqual({ paths: ['a/action.yml', 'b/c/action.yaml'], truncated: false });
    // Root entries a, b, node_modules, z.txt, then a/action.yml: the fifth entry is past a bound of 4.
    expect(await listActionDefinitions(root, 4)).toEqual({ paths: [], truncated: true });
    expect(await listActionDefinitions(root, 5)).toEqual({ paths: ['a/action.yml'], truncated: true });
  });
});
