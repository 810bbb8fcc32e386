import { readFileSync } from 'node:fs';
import type { RepositoryLocator } from '../../../../lib/codehost/port.js';
import { scanRepository } from '../../../../lib/engine/scan.js';
import type { SettingsSnapshot } from '../../../../lib/engine/settings/snapshot.js';
import type { Finding, RepositoryFile } from '../../../../lib/engine/types.js';
import { testGitHubCodeHost, type FakeGitHub, type FakeRepositoryInit, type Permissions } from '../../../support/github/index.js';

export type FixtureName = 'hardened' | 'weak' | 'metadata-only';

export function settingsFixture(name: FixtureName): SettingsSnapshot {
  return JSON.parse(readFileSync(new URL(`../../../fixtures/settings/${name}.json`, import.meta.url), 'utf8')) as SettingsSnapshot;
}

let nextInstallation = 1000;

export interface Setup {
  installationId: number;
  fullName: string;
  locator: RepositoryLocator;
  host: ReturnType<typeof testGitHubCodeHost>;
}

/** A fresh installation (organization account) with one repository, and an adapter with an empty token cache. */
export function setup(github: FakeGitHub, init: Partial<FakeRepositoryInit> & { permissions?: Permissions } = {}): Setup {
  const installationId = nextInstallation++;
  const login = init.fullName?.split('/')[0] ?? `org-${installationId}`;
  github.addInstallation({ id: installationId, account: { login, id: 90_000_000 + installationId, type: 'Organization' }, permissions: init.permissions });
  const fullName = init.fullName ?? `${login}/service`;
  const repository = github.addRepository({ ...init, fullName, installationId });
  return {
    installationId,
    fullName,
    locator: { installationId, fullName, defaultBranch: repository.defaultBranch, private: repository.visibility !== 'public' },
    host: testGitHubCodeHost(),
  };
}

/** The findings the engine gives for these files and settings (all rules). */
export function findingsOf(files: readonly RepositoryFile[], settings?: SettingsSnapshot): Finding[] {
  return scanRepository(files, settings === undefined ? {} : { settings }).findings;
}

/** The areas `settings-unreadable` reports, from its messages. */
export function unreadableAreas(settings: SettingsSnapshot): string[] {
  return findingsOf([], settings)
    .filter((f) => f.rule_id === 'settings-unreadable')
    .map((f) => /\(`(\w+)`:/.exec(f.description)?.[1] ?? '?')
    .sort();
}

export const WORKFLOW = `name: ci
on:
  pull_request_target:
permissions:
  contents: read
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          ref: \${{ github.event.pull_request.head.sha }}
      - uses: ./tools/setup
      - run: echo "\${{ github.event.pull_request.title }}"
`;

export const COMPOSITE = `name: setup
description: set up the toolchain
runs:
  using: composite
  steps:
    - run: curl -sSL https://example.com/install.sh | bash
      shell: bash
`;

/** A repository with something for most of the engine to say, in awkward encodings. */
export const REPOSITORY_FILES: Record<string, string> = {
  '.github/workflows/ci.yml': WORKFLOW,
  '.github/workflows/release.yaml': `\uFEFFname: release\r\non:\r\n  push:\r\n    tags: ['v*']\r\njobs:\r\n  publish:\r\n    runs-on: [self-hosted, linux]\r\n    steps:\r\n      - uses: actions/checkout@v4\r\n      - uses: ./.github/actions/publish\r\n      - run: npm publish # “quoted” ✓\r\n        env:\r\n          NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}\r\n`,
  '.github/workflows/broken.yml': 'on: [push\njobs: {\n',
  '.github/workflows/notes.txt': 'not a workflow\n',
  '.github/workflows/nested/ignored.yml': 'on: push\n',
  '.github/dependabot.yml': 'version: 2\nupdates:\n  - package-ecosystem: npm\n    directory: /\n    schedule:\n      interval: weekly\n    insecure-external-code-execution: allow\n',
  '.github/actions/publish/action.yml': COMPOSITE,
  'tools/setup/action.yml': COMPOSITE.replace('curl -sSL https://example.com/install.sh | bash', 'echo "${{ github.event.issue.title }}"'),
  'tools/setup/README.md': '# setup\n',
  'action.yaml': 'name: root\nruns:\n  using: node20\n  main: index.js\n',
  // Read from docs/ (GitHub's third place) once the recursive listing shows it: the accounts it names own code here.
  'docs/CODEOWNERS': '# release lead\n* @release-lead @acme/maintainers\n',
};
