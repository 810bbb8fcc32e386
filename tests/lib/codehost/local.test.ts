import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalCodeHost, LOCAL_INSTALLATION_ID, localId } from '../../../lib/codehost/local.js';
import { CodeHostError, type CodeHost } from '../../../lib/codehost/port.js';
import { SETTINGS_AREAS } from '../../../lib/engine/settings/areas.js';
import { EXAMPLES_DIR } from '../../support/codehost.js';

const WORKFLOW = 'on: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n';

async function rejection(promise: Promise<unknown>): Promise<CodeHostError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CodeHostError);
  return error as CodeHostError;
}

describe('local code host on examples/', () => {
  const host = createLocalCodeHost({ dir: EXAMPLES_DIR });

  it('is installation 1 of the organization `examples`, and every login is a member', async () => {
    expect(await host.getInstallation(LOCAL_INSTALLATION_ID)).toEqual({
      installationId: 1,
      account: 'examples',
      accountType: 'Organization',
      accountId: String(localId('account:examples')),
    });
    expect(await host.organizationRole(1, 'examples', 'anyone')).toBe('admin');
    expect(await host.organizationRole(1, 'someone-else', 'anyone')).toBeNull();
    expect(await host.organizationRole(2, 'examples', 'anyone')).toBeNull();
    for (const id of [0, 2, 123456]) expect((await rejection(host.getInstallation(id))).kind).toBe('not_found');
  });

  it('lists the example repositories by name, with ids derived from their names', async () => {
    const repositories = await host.listRepositories([1]);
    expect(repositories.map((r) => r.fullName)).toEqual(['examples/hardened-service', 'examples/issue-triage-bot', 'examples/release-pipeline']);
    for (const r of repositories) {
      expect(r.githubId).toBe(localId(r.fullName));
      expect(Number.isSafeInteger(r.githubId) && r.githubId > 0).toBe(true);
      expect(r).toMatchObject({ installationId: 1, private: false, defaultBranch: 'main' });
      expect(new URL(r.htmlUrl).protocol).toBe('file:');
    }
    // Another instance (another process, another machine) gives the same ids.
    expect(await createLocalCodeHost({ dir: EXAMPLES_DIR }).listRepositories([1])).toEqual(repositories);
    expect(new Set(repositories.map((r) => r.githubId)).size).toBe(3);
    expect(await host.listRepositories([2, 3])).toEqual([]);
  });

  it("fetches a repository's workflow files and its settings snapshot", async () => {
    const snapshot = await host.fetchSnapshot({ installationId: 1, fullName: 'examples/issue-triage-bot', defaultBranch: 'main' });
    expect(snapshot.files.map((f) => f.path)).toEqual(['.github/workflows/ci.yml', '.github/workflows/triage.yml']);
    expect(snapshot.settings.workflow_permissions).toEqual({ default_workflow_permissions: 'write', can_approve_pull_request_reviews: true });
    expect(snapshot.settings.branch_protection).toBeNull();
    expect(snapshot).toMatchObject({ defaultBranch: 'main', requests: 0 });
  });

  it('reports every settings area unreadable, naming the missing file, when a repository has no snapshot', async () => {
    const snapshot = await host.fetchSnapshot({ installationId: 1, fullName: 'examples/release-pipeline', defaultBranch: 'main' });
    expect(Object.keys(snapshot.settings.unreadable ?? {})).toEqual(SETTINGS_AREAS.filter((a) => a !== 'codeowners'));
    expect(Object.values(snapshot.settings.unreadable ?? {})).toContain('.chainbreaker/settings.json is missing from the local repository');
    expect(snapshot.settings.codeowners).toBe(false);
  });

  it('answers not_found for names outside its directory and for other installations', async () => {
    for (const fullName of ['examples/../examples/hardened-service', 'examples/..', 'examples/.', 'other/hardened-service', 'examples/nope', 'examples/a/b', 'examples/']) {
      expect((await rejection(host.fetchSnapshot({ installationId: 1, fullName, defaultBranch: 'main' }))).kind, fullName).toBe('not_found');
    }
    expect((await rejection(host.fetchSnapshot({ installationId: 2, fullName: 'examples/hardened-service', defaultBranch: 'main' }))).kind).toBe('not_found');
  });

  it('gives up with a timeout once the deadline has passed', async () => {
    const error = await rejection(host.fetchSnapshot({ installationId: 1, fullName: 'examples/hardened-service', defaultBranch: 'main' }, { deadline: Date.now() - 1 }));
    expect(error.kind).toBe('timeout');
  });
});

describe('local code host on a directory of its own', () => {
  let dir: string;
  let host: CodeHost;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chainbreaker-local-'));
    await mkdir(join(dir, 'service/.github/workflows'), { recursive: true });
    await writeFile(join(dir, 'service/.github/workflows/ci.yml'), WORKFLOW);
    await writeFile(join(dir, 'service/CODEOWNERS'), '* @acme/team\n');
    await mkdir(join(dir, 'service/.chainbreaker'));
    await writeFile(
      join(dir, 'service/.chainbreaker/settings.json'),
      JSON.stringify({ repository: { private: true, default_branch: 'trunk' }, codeowners: false }),
    );
    await mkdir(join(dir, 'broken/.chainbreaker'), { recursive: true });
    await writeFile(join(dir, 'broken/.chainbreaker/settings.json'), '{ not json');
    await mkdir(join(dir, 'listed/.chainbreaker'), { recursive: true });
    await writeFile(join(dir, 'listed/.chainbreaker/settings.json'), '[]');
    await mkdir(join(dir, '.hidden'));
    await mkdir(join(dir, 'with space'));
    await writeFile(join(dir, 'plain-file'), 'not a repository');
    await symlink(join(dir, 'service'), join(dir, 'linked'));
    host = createLocalCodeHost({ dir, account: 'acme' });
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('lists only plain subdirectories with repository names, never links, hidden directories or files', async () => {
    const repositories = await host.listRepositories([1]);
    expect(repositories.map((r) => r.fullName)).toEqual(['acme/broken', 'acme/listed', 'acme/service']);
    expect(repositories.find((r) => r.fullName === 'acme/service')).toMatchObject({ private: true, defaultBranch: 'trunk' });
    expect((await rejection(host.fetchSnapshot({ installationId: 1, fullName: 'acme/linked', defaultBranch: 'main' }))).kind).toBe('not_found');
  });

  it('takes the snapshot as stored, codeowners from the directory only when the snapshot does not say', async () => {
    const snapshot = await host.fetchSnapshot({ installationId: 1, fullName: 'acme/service', defaultBranch: 'main' });
    expect(snapshot.settings).toEqual({ repository: { private: true, default_branch: 'trunk' }, codeowners: false });
    expect(snapshot.defaultBranch).toBe('trunk');
    // The CODEOWNERS file is read too: the accounts it names own the code (engine/codeowners.ts).
    expect(snapshot.files).toEqual([{ path: '.github/workflows/ci.yml', text: WORKFLOW }, { path: 'CODEOWNERS', text: '* @acme/team\n' }]);
  });

  it('reports every area unreadable when the snapshot file is not a JSON object', async () => {
    const broken = await host.fetchSnapshot({ installationId: 1, fullName: 'acme/broken', defaultBranch: 'main' });
    expect(broken.settings.unreadable?.['branch_protection']).toBe('.chainbreaker/settings.json is not valid JSON');
    const listed = await host.fetchSnapshot({ installationId: 1, fullName: 'acme/listed', defaultBranch: 'main' });
    expect(listed.settings.unreadable?.['workflow_permissions']).toBe('.chainbreaker/settings.json is not a JSON object');
    expect(listed.files).toEqual([]);
  });

  it('fails as the code host being unavailable when its directory cannot be read', async () => {
    const missing = createLocalCodeHost({ dir: join(dir, 'does-not-exist') });
    expect((await rejection(missing.listRepositories([1]))).kind).toBe('unavailable');
  });
});
