import { createHash } from 'node:crypto';
import type { SettingsSnapshot } from '../../../lib/engine/settings/snapshot.js';

/** The state of the fake GitHub: accounts, installations, repositories with their files and settings. */

export interface FakeAccount {
  login: string;
  id: number;
  type: 'User' | 'Organization';
}

/** GitHub App permissions as GitHub names them (`administration`, `repository_hooks`, `members`, ...). */
export type Permissions = Record<string, 'read' | 'write'>;

/** What a GitHub App reading everything this service needs is granted. */
export const FULL_PERMISSIONS: Readonly<Permissions> = {
  metadata: 'read',
  contents: 'read',
  actions: 'read',
  administration: 'read',
  repository_hooks: 'read',
  members: 'read',
  organization_administration: 'read',
  // The pull request checks (lib/services/monitor): check runs on the head commit, and the pull request itself.
  checks: 'write',
  pull_requests: 'read',
};

export interface FakeInstallation {
  id: number;
  account: FakeAccount;
  permissions: Permissions;
  /** Lifetime of the tokens issued for it (GitHub: one hour). */
  tokenLifetimeMs: number;
  suspended: boolean;
}

/**
 * A file: its text, or an object for the unusual ones. `truncated` makes GitHub's GraphQL API report the
 * text as cut even when it is short (it cuts at 512,000 bytes on its own).
 */
export type FakeFile = string | { text: string; binary?: boolean; symlink?: boolean; truncated?: boolean };

export interface FakeRepository {
  id: number;
  owner: FakeAccount;
  name: string;
  fullName: string;
  installationId: number | null;
  visibility: 'public' | 'private' | 'internal';
  defaultBranch: string;
  /** No commit at all: no default branch ref, no files. */
  empty: boolean;
  files: Map<string, FakeFile>;
  /** REST bodies by area (the format of tests/fixtures/settings); areas in `unreadable` answer 403. */
  settings: SettingsSnapshot;
  createdAt: string;
  /**
   * Commits other than the default branch's head, by SHA: their files (`FakeGitHub.addCommit`). A pull
   * request's head commits are here too, a fork's included: GitHub keeps them in the base repository
   * (`refs/pull/<n>/head`), where the base repository's token reads them.
   */
  commits: Map<string, Map<string, FakeFile>>;
}

/** A check run as GitHub keeps it: what was created, then every update (annotations are appended). */
export interface FakeCheckRun {
  id: number;
  repository: string;
  name: string;
  head_sha: string;
  external_id: string | null;
  status: string;
  conclusion: string | null;
  /** The App that created it (the installation's). */
  appId: number;
  output: { title: string | null; summary: string | null; text: string | null };
  annotations: Record<string, unknown>[];
  /** The request bodies, in order (the POST, then each PATCH). */
  bodies: Record<string, unknown>[];
}

export interface FakeUser {
  login: string;
  id: number;
  /** Admin rights on every repository (else read access). */
  admin: boolean;
}

/** The default settings of a new repository, as GitHub creates it. */
export function defaultSettings(): SettingsSnapshot {
  return {
    branch_protection: null,
    branch_rules: [],
    rulesets: [],
    actions_permissions: { enabled: true, allowed_actions: 'all', sha_pinning_required: false },
    workflow_permissions: { default_workflow_permissions: 'read', can_approve_pull_request_reviews: false },
    fork_pr_approval: { approval_policy: 'first_time_contributors' },
    vulnerability_alerts: false,
    runners: { total_count: 0, runners: [] },
    hooks: [],
  };
}

export function fileText(file: FakeFile): string {
  return typeof file === 'string' ? file : file.text;
}

/** Git's object id of a blob with this content. */
export function blobOid(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** A stable fake object id for anything else (trees, refs). */
export function fakeOid(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

export type TreeNode = { kind: 'tree'; path: string; entries: Map<string, TreeNode> } | { kind: 'blob'; path: string; file: FakeFile };

/** The repository's files as a git tree. */
export function buildTree(files: ReadonlyMap<string, FakeFile>): TreeNode & { kind: 'tree' } {
  const root: TreeNode & { kind: 'tree' } = { kind: 'tree', path: '', entries: new Map() };
  for (const [path, file] of files) {
    const parts = path.split('/');
    let node = root;
    parts.forEach((part, i) => {
      const at = parts.slice(0, i + 1).join('/');
      if (i === parts.length - 1) {
        node.entries.set(part, { kind: 'blob', path: at, file });
        return;
      }
      let next = node.entries.get(part);
      if (next === undefined || next.kind !== 'tree') {
        next = { kind: 'tree', path: at, entries: new Map() };
        node.entries.set(part, next);
      }
      node = next;
    });
  }
  return root;
}

export function findNode(root: TreeNode, path: string): TreeNode | null {
  if (path === '' || path === '/') return root;
  let node: TreeNode | undefined = root;
  for (const part of path.replace(/\/+$/, '').split('/')) {
    if (node?.kind !== 'tree') return null;
    node = node.entries.get(part);
  }
  return node ?? null;
}
