// A repository read through GitHub and the same repository checked out give the engine the same bytes, hence
// the same findings; and the CLI's token-authenticated fetch reads what the service's App reads.

import { afterAll, afterEach, expect, test } from 'vitest';
import { fetchSnapshotWithToken } from '../../../../lib/codehost/github/token.js';
import { collectRepositoryFiles } from '../../../../lib/codehost/checkout.js';
import { cleanup, tempDir } from '../../../bin/support.js';
import { startFakeGitHub } from '../../../support/github/index.js';
import { findingsOf, REPOSITORY_FILES, settingsFixture, setup } from './support.js';

const { github, close } = startFakeGitHub();
afterAll(() => {
  close();
  cleanup();
});
afterEach(() => github.reset());


test('the files of a checkout and of GitHub are the same, byte for byte, with the same findings', async () => {
  const weak = settingsFixture('weak');
  const { host, locator } = setup(github, { fullName: 'acme/legacy-tool', defaultBranch: 'master', files: REPOSITORY_FILES, settings: weak });
  const snapshot = await host.fetchSnapshot(locator);
  const local = await collectRepositoryFiles(tempDir(REPOSITORY_FILES));
  expect(snapshot.files).toEqual(local);
  expect(findingsOf(snapshot.files, snapshot.settings)).toEqual(findingsOf(local, weak));
  expect(findingsOf(local).length).toBeGreaterThan(5);
});

test('a token reads what the App reads: same files, same findings', async () => {
  const hardened = settingsFixture('hardened');
  const { host, locator, fullName } = setup(github, { fullName: 'acme/widget', files: REPOSITORY_FILES, settings: hardened });
  github.addUserToken('ghp_parityOwnerToken', { login: 'owner', admin: true });
  const viaApp = await host.fetchSnapshot(locator);
  const viaToken = await fetchSnapshotWithToken({ token: 'ghp_parityOwnerToken', fullName, retry: false, throttle: false });
  expect(viaToken.files).toEqual(viaApp.files);
  expect(findingsOf(viaToken.files, viaToken.settings)).toEqual(findingsOf(viaApp.files, viaApp.settings));
  expect(viaToken.settings.unreadable).toEqual({});
  expect(github.requests.filter((r) => r.auth === 'user').map((r) => r.route).sort()).toEqual(github.requests.filter((r) => r.auth === 'installation').map((r) => r.route).sort());
});

test('a token without admin rights: the admin-only areas are unreadable, never read as "off"', async () => {
  const { fullName } = setup(github, { files: REPOSITORY_FILES, settings: settingsFixture('hardened') });
  github.addUserToken('ghp_readOnlyToken', { login: 'reader' });
  const snapshot = await fetchSnapshotWithToken({ token: 'ghp_readOnlyToken', fullName, retry: false, throttle: false });
  expect(Object.keys(snapshot.settings.unreadable ?? {}).sort()).toEqual([
    'actions_permissions',
    'branch_protection',
    'fork_pr_approval',
    'hooks',
    'rulesets',
    'runners',
    'security_and_analysis',
    'vulnerability_alerts',
    'workflow_permissions',
  ]);
  expect(snapshot.settings.unreadable?.branch_protection).toBe('FORBIDDEN: Must have admin rights to Repository.');
  expect(snapshot.settings.unreadable?.rulesets).toBe('the token has no admin rights on the repository');
  expect(snapshot.settings.unreadable?.hooks).toBe('403 Must have admin rights to Repository.');
  expect(snapshot.settings.branch_rules).toEqual(settingsFixture('hardened').branch_rules);
  expect(snapshot.files).toHaveLength(8);
});
