import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ACTION_PERMISSIONS, GH_COMMANDS, type Scopes } from '../../../../lib/engine/data/permissions.js';
import { fixRepository } from '../../../../lib/engine/fixes/apply.js';
import { FIXERS } from '../../../../lib/engine/fixes/index.js';
import { RULES } from '../../../../lib/engine/rules/index.js';
import { yaml } from '../../../support/engine.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const PATH = '.github/workflows/ci.yml';

/** The `permissions:` the fix writes for a one-job workflow, or null when it writes nothing. */
function fixedPermissions(steps: string, mode: 'safe' | 'unsafe' = 'safe'): { job: unknown; workflow: unknown } | null {
  const text = ['on: push', 'jobs:', '  job:', '    runs-on: ubuntu-latest', '    timeout-minutes: 5', '    steps:', steps, ''].join('\n');
  const result = fixRepository([{ path: PATH, text }], { mode, fixRule: (id) => id === 'missing-permissions' });
  if (result.changed.length === 0) return null;
  const doc = parse(result.files[0]?.text ?? '') as { permissions: unknown; jobs: { job: { permissions: unknown } } };
  return { job: doc.jobs.job.permissions, workflow: doc.permissions };
}

function step(uses: string, inputs: Record<string, string> = {}): string {
  const entries = Object.entries(inputs);
  const withBlock = entries.length === 0 ? '' : `\n          with:\n${entries.map(([k, v]) => `            ${k}: ${v}`).join('\n')}`;
  return `        - uses: ${uses}@${SHA}${withBlock}`;
}

describe('fix registry', () => {
  it('declares a fix in the meta of exactly the rules that have a fixer', () => {
    const declared = RULES.filter((r) => r.meta.fix !== undefined).map((r) => r.meta.id).sort();
    expect(FIXERS.map((f) => f.ruleId).sort()).toEqual(declared);
    for (const fixer of FIXERS) expect(RULES.find((r) => r.meta.id === fixer.ruleId)?.meta.fix?.safe).toBe(fixer.safe);
  });
});

describe('the permissions table: one test per action', () => {
  it.each(Object.entries(ACTION_PERMISSIONS))('%s', (slug, entry) => {
    const expected: Scopes = { contents: 'read' };
    // The step sets no inputs: conditions on an absent input apply, the others do not; nor do those on events a
    // `push` workflow lacks or on versions a SHA does not name.
    const holds = (w: NonNullable<typeof entry.when>[number]) => w.absent === true && (w.events === undefined || w.events.includes('push')) && (w.refs === undefined || w.refs.test(SHA));
    const applying = [entry.scopes, ...(entry.when ?? []).filter(holds).map((w) => w.scopes)];
    for (const scopes of applying) for (const [scope, access] of Object.entries(scopes)) if (expected[scope as keyof Scopes] !== 'write') expected[scope as keyof Scopes] = access;
    const fixed = fixedPermissions(step(slug));
    expect(fixed).not.toBeNull();
    expect(fixed?.workflow).toEqual({});
    expect(fixed?.job).toEqual(expected);
  });

  it('every entry is lower case owner/repo[/path] with known scopes', () => {
    const scopes = new Set(['actions', 'attestations', 'checks', 'contents', 'deployments', 'discussions', 'id-token', 'issues', 'packages', 'pages', 'pull-requests', 'security-events', 'statuses']);
    for (const [slug, entry] of Object.entries(ACTION_PERMISSIONS)) {
      expect(slug).toMatch(/^[a-z0-9-]+\/[a-z0-9._-]+(\/[a-z0-9._/-]+)?$/);
      for (const s of Object.keys(entry.scopes)) expect(scopes.has(s), `${slug}: ${s}`).toBe(true);
    }
  });
});

describe('scopes that depend on inputs', () => {
  it('docker/login-action to GHCR needs packages: write; to Docker Hub nothing', () => {
    expect(fixedPermissions(step('docker/login-action', { registry: 'ghcr.io', password: '${{ secrets.GITHUB_TOKEN }}' }))?.job).toEqual({ contents: 'read', packages: 'write' });
    expect(fixedPermissions(step('docker/login-action', { username: 'me', password: '${{ secrets.HUB }}' }))?.job).toEqual({ contents: 'read' });
  });

  it('configure-aws-credentials with a role (OIDC) needs id-token: write; with keys it does not', () => {
    expect(fixedPermissions(step('aws-actions/configure-aws-credentials', { 'role-to-assume': 'arn:aws:iam::1:role/x' }))?.job).toEqual({ contents: 'read', 'id-token': 'write' });
    expect(fixedPermissions(step('aws-actions/configure-aws-credentials', { 'aws-access-key-id': '${{ secrets.K }}' }))?.job).toEqual({ contents: 'read' });
  });

  it('pypi trusted publishing needs id-token: write', () => {
    expect(fixedPermissions(step('pypa/gh-action-pypi-publish'))?.job).toEqual({ contents: 'read', 'id-token': 'write' });
  });
});

describe('run scripts: one test per gh command', () => {
  it.each(Object.entries(GH_COMMANDS))('gh %s', (command, scopes) => {
    const fixed = fixedPermissions(`        - run: gh ${command} 1\n          env:\n            GH_TOKEN: \${{ github.token }}`);
    expect(fixed?.job).toEqual({ contents: 'read', ...scopes, ...(scopes.contents === 'write' ? { contents: 'write' } : {}) });
  });

  it('git push needs contents: write', () => {
    expect(fixedPermissions('        - run: |\n            git commit -am bump\n            git push origin HEAD')?.job).toEqual({ contents: 'write' });
  });

  it('an OIDC token request needs id-token: write', () => {
    expect(fixedPermissions('        - run: cosign sign --yes "$IMAGE"')?.job).toEqual({ contents: 'read', 'id-token': 'write' });
  });

  it('gh api and unknown actions make the fix unsafe: plain --fix leaves the file alone', () => {
    expect(fixedPermissions('        - run: gh api repos/o/r/issues')).toBeNull();
    expect(fixedPermissions(step('some-org/unknown-action'))).toBeNull();
    expect(fixedPermissions(step('some-org/unknown-action'), 'unsafe')?.job).toEqual({ contents: 'read' });
  });
});

describe('excessive-permissions: never grants a job more than it had', () => {
  it('caps computed scopes by the workflow-level grant', () => {
    const text = yaml`
      on: push
      permissions:
        contents: write
        issues: read
      jobs:
        a:
          runs-on: ubuntu-latest
          timeout-minutes: 5
          steps:
            - run: gh issue comment 1 --body hi
        b:
          runs-on: ubuntu-latest
          timeout-minutes: 5
          steps:
            - run: git push
    `;
    const result = fixRepository([{ path: PATH, text }], { fixRule: (id) => id === 'excessive-permissions' });
    const doc = parse(result.files[0]?.text ?? '') as { permissions: unknown; jobs: Record<string, { permissions: unknown }> };
    expect(doc.permissions).toEqual({});
    expect(doc.jobs.a?.permissions).toEqual({ contents: 'read', issues: 'read' });
    expect(doc.jobs.b?.permissions).toEqual({ contents: 'write' });
  });
});
