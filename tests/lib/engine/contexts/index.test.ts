import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Capability } from '../../../../lib/engine/contexts/index.js';
import { githubContextCapability } from '../../../../lib/engine/contexts/index.js';
import type { ContextNode } from '../../../../lib/engine/contexts/webhook-contexts.generated.js';
import { GITHUB_CONTEXT } from '../../../../lib/engine/contexts/webhook-contexts.generated.js';
import {
  GENERATED_MODULE_URL,
  buildGithubContextTree,
  contextStatistics,
  generateWebhookContextsModule,
  loadInstalledSchemas,
} from '../../../../scripts/gen-contexts.js';

const capabilityOf = (dotted: string): Capability => githubContextCapability(dotted === '' ? [] : dotted.split('.'));

describe('githubContextCapability', () => {
  it.each<[string, Capability]>([
    // Free text written by whoever opens an issue, pull request, comment, review or discussion.
    ['event.issue.title', 'arbitrary'],
    ['event.issue.body', 'arbitrary'],
    ['event.comment.body', 'arbitrary'],
    ['event.review.body', 'arbitrary'],
    ['event.discussion.title', 'arbitrary'],
    ['event.pull_request.title', 'arbitrary'],
    ['event.pull_request.body', 'arbitrary'],
    ['event.pull_request.head.ref', 'arbitrary'],
    // "<owner>:<branch>": embeds the fork's branch name.
    ['event.pull_request.head.label', 'arbitrary'],
    ['event.pull_request.labels.*.name', 'arbitrary'],
    ['event.head_commit.message', 'arbitrary'],
    ['event.head_commit.author.name', 'arbitrary'],
    ['event.commits.*.message', 'arbitrary'],
    ['event.commits.*.added.*', 'arbitrary'],
    ['event.workflow_run.head_branch', 'arbitrary'],
    ['event.workflow_run.head_commit.message', 'arbitrary'],
    ['event.workflow_run.display_title', 'arbitrary'],
    ['event.pages.*.page_name', 'arbitrary'],
    ['event.release.name', 'arbitrary'],
    ['event.release.body', 'arbitrary'],
    ['event.release.tag_name', 'arbitrary'],
    ['event.client_payload', 'arbitrary'],
    ['event.client_payload.anything.deep', 'arbitrary'],
    ['event.deployment.payload.key', 'arbitrary'],
    // The fork owner picks the fork's default branch.
    ['event.pull_request.head.repo.default_branch', 'arbitrary'],
    // repository_dispatch's action is the caller-chosen event_type; the most dangerous class wins.
    ['event.action', 'arbitrary'],
    ['head_ref', 'arbitrary'],

    // Emails and URLs have a shape but can still carry attacker-chosen text.
    ['event.head_commit.author.email', 'structured'],
    ['event.pull_request.html_url', 'structured'],

    // Repository names only allow [A-Za-z0-9._-], owners are logins: a fork's full_name cannot carry syntax.
    ['event.pull_request.head.repo.full_name', 'fixed'],
    ['event.repository.full_name', 'fixed'],
    ['event.pull_request.head.sha', 'fixed'],
    ['event.head_commit.id', 'fixed'],
    ['event.before', 'fixed'],
    ['event.pull_request.number', 'fixed'],
    ['event.issue.user.login', 'fixed'],
    ['event.pull_request.merged_at', 'fixed'],
    ['event.pull_request.draft', 'fixed'],
    // Enums.
    ['event.pull_request.state', 'fixed'],
    ['event.pull_request.author_association', 'fixed'],
    ['event.schedule', 'fixed'],
    ['sha', 'fixed'],
    ['ref', 'fixed'],
    ['ref_name', 'fixed'],
    ['event_name', 'fixed'],
    ['repository', 'fixed'],
    ['actor', 'fixed'],
    ['triggering_actor', 'fixed'],
    ['run_id', 'fixed'],
  ])('%s is %s', (path, expected) => {
    expect(capabilityOf(path)).toBe(expected);
  });

  it.each<[string, Capability]>([
    ['', 'arbitrary'],
    ['event', 'arbitrary'],
    ['event.pull_request', 'arbitrary'],
    ['event.pull_request.head', 'arbitrary'],
    ['event.commits', 'arbitrary'],
    ['event.commits.*', 'arbitrary'],
    ['event.head_commit.author', 'arbitrary'],
    // Objects whose free text is at most structured, or absent.
    ['event.issue.pull_request', 'structured'],
    ['event.pull_request.head.repo.owner', 'arbitrary'],
    ['event.pull_request.head.repo.permissions', 'fixed'],
  ])('object path %s aggregates to %s', (path, expected) => {
    expect(capabilityOf(path)).toBe(expected);
  });

  it.each<[string, Capability]>([
    ['event.commits.0.message', 'arbitrary'],
    ['event.pull_request.labels.3.id', 'fixed'],
    // An object filter takes the most dangerous property value.
    ['event.pull_request.head.*', 'arbitrary'],
    ['event.pull_request.*.login', 'fixed'],
  ])('index or object filter %s is %s', (path, expected) => {
    expect(capabilityOf(path)).toBe(expected);
  });

  it.each([
    'event.no_such_field',
    'event.pull_request.no_such_field',
    'event.pull_request.title.length',
    'no_such_context',
    'event.inputs',
    'event.inputs.name',
    // Object.prototype members must not be mistaken for table entries.
    'event.constructor',
    'event.__proto__',
    'event.pull_request.hasOwnProperty',
    'event.pull_request.*.no_such_field',
  ])('%s is unknown', (path) => {
    expect(capabilityOf(path)).toBe('unknown');
  });

  it('keeps every key below a free-form object arbitrary, prototype names included', () => {
    expect(githubContextCapability(['event', 'client_payload', '__proto__'])).toBe('arbitrary');
    expect(githubContextCapability(['event', 'client_payload', 'constructor', 'x'])).toBe('arbitrary');
  });

  it('never ranks an object below anything it contains', () => {
    const rank = { fixed: 0, unknown: 0, structured: 1, arbitrary: 2 } as const;
    let checked = 0;
    const visit = (node: ContextNode, path: string[]): void => {
      if (typeof node === 'number') return;
      const own = githubContextCapability(path);
      expect(own, path.join('.')).not.toBe('unknown');
      for (const [key, child] of Object.entries(node.k ?? {})) {
        const childPath = [...path, key];
        if (childPath[0] === 'event' && childPath[1] === 'inputs') continue;
        expect(rank[own], childPath.join('.')).toBeGreaterThanOrEqual(rank[githubContextCapability(childPath)]);
        checked += 1;
        visit(child, childPath);
      }
    };
    visit(GITHUB_CONTEXT, []);
    expect(checked).toBeGreaterThan(1000);
  });
});

describe('webhook-contexts.generated.ts', () => {
  const { schemas, version } = loadInstalledSchemas();

  it('is exactly what scripts/gen-contexts.ts generates from the installed schemas', () => {
    expect(readFileSync(GENERATED_MODULE_URL, 'utf8')).toBe(generateWebhookContextsModule(schemas, version));
  });

  it('names the schema version it was generated from', () => {
    expect(readFileSync(GENERATED_MODULE_URL, 'utf8')).toContain(`@octokit/webhooks-schemas ${version}. Do not edit.`);
  });

  it('classifies fields of every class', () => {
    const { eventLeaves } = contextStatistics(buildGithubContextTree(schemas));
    expect(eventLeaves.arbitrary).toBeGreaterThan(100);
    expect(eventLeaves.structured).toBeGreaterThan(100);
    expect(eventLeaves.fixed).toBeGreaterThan(100);
  });

  it('terminates on cyclic $refs and keeps the non-cyclic part', () => {
    const cyclic = {
      definitions: {
        node: {
          type: 'object',
          properties: { title: { type: 'string' }, parent: { $ref: '#/definitions/node' } },
          additionalProperties: false,
        },
        push$event: { type: 'object', properties: { node: { $ref: '#/definitions/node' } }, additionalProperties: false },
      },
    };
    const tree = buildGithubContextTree(cyclic, { push: ['push$event'] });
    const event = tree.children.get('event');
    const node = event?.children.get('node');
    expect(node?.children.get('title')?.scalar).toBe(2);
    expect(node?.children.get('parent')?.children.size).toBe(0);
  });
});
