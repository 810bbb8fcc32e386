import { describe, expect, it } from 'vitest';
import { contextController, controllerCeiling, eventController, worseController } from '../../../../lib/engine/expressions/controller.js';
import { parseUses } from '../../../../lib/engine/model/uses.js';
import { scanWith, yaml } from '../../../support/engine.js';

const path = (dotted: string) => dotted.split('.');
const on = (...names: string[]) => new Set(names);

describe('the attacker model', () => {
  it('gives pull request, issue and comment data to anyone with a GitHub account', () => {
    expect(contextController(path('github.event.pull_request.title'), on('pull_request_target'))).toBe('external');
    expect(contextController(path('github.head_ref'), on('pull_request'))).toBe('external');
    expect(contextController(path('github.event.comment.body'), on('issue_comment'))).toBe('external');
    expect(contextController(path('github.event.workflow_run.head_branch'), on('workflow_run'))).toBe('external');
  });

  it('gives commit text of a push to an outside contributor only after a merge', () => {
    expect(contextController(path('github.event.head_commit.message'), on('push'))).toBe('external-after-merge');
    expect(contextController(path('github.event.commits.*.author.name'), on('push'))).toBe('external-after-merge');
  });

  it('gives dispatch payloads and data of collaborator-only events to collaborators', () => {
    expect(contextController(path('github.event.client_payload.tag'), on('repository_dispatch'))).toBe('collaborator');
    expect(contextController(path('github.event.client_payload.tag'), on('pull_request_target', 'repository_dispatch'))).toBe('collaborator');
    expect(contextController(path('github.head_ref'), on('push', 'schedule'))).toBe('collaborator');
    // workflow_run following only push workflows is marked trusted by the analyser.
    expect(contextController(path('github.event.workflow_run.head_branch'), on('workflow_run:trusted'))).toBe('collaborator');
  });

  it('ranks controllers and caps the severity of an injection by them', () => {
    expect(worseController('collaborator', 'external')).toBe('external');
    expect(worseController('unknown', 'collaborator')).toBe('collaborator');
    expect(controllerCeiling('external')).toBe('HIGH');
    expect(controllerCeiling('external-after-merge')).toBe('MEDIUM');
    expect(controllerCeiling('collaborator')).toBe('LOW');
    expect(controllerCeiling('unknown')).toBe('LOW');
    expect(eventController(on('push'))).toBe('external-after-merge');
    expect(eventController(on('workflow_dispatch'))).toBe('collaborator');
  });

  it('reads the self-repository form `$/path` of uses: like `./path`', () => {
    expect(parseUses('$/.github/workflows/build.yml')).toEqual({ kind: 'local', path: './.github/workflows/build.yml', self: true });
    expect(parseUses('$/.github/actions/setup')).toEqual({ kind: 'local', path: './.github/actions/setup', self: true });
  });

  const reusable = {
    path: '.github/workflows/reusable.yml',
    text: yaml`
      on:
        workflow_call:
          inputs:
            title: { type: string }
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ inputs.title }}"
    `,
  };
  const caller = (uses: string, value: string) => ({
    path: '.github/workflows/caller.yml',
    text: yaml`
      on: [pull_request_target, workflow_dispatch]
      jobs:
        call:
          uses: ${uses}
          with:
            title: ${value}
    `,
  });

  it('resolves workflow_call inputs through local callers, `./` and `$/` alike, to the worst value passed', () => {
    for (const uses of ['./.github/workflows/reusable.yml', '$/.github/workflows/reusable.yml']) {
      const found = scanWith('script-injection', [reusable, caller(uses, '${{ github.event.pull_request.title }}')]);
      expect(found.map((f) => f.severity), uses).toEqual(['HIGH']);
      expect(found[0]?.description).toContain('set by anyone with a GitHub account, via `inputs.title`');
    }
  });

  it('keeps workflow_call inputs without a local caller, and collaborator-only values, at LOW', () => {
    const alone = scanWith('script-injection', [reusable]);
    expect(alone.map((f) => f.severity)).toEqual(['LOW']);
    expect(alone[0]?.description).toContain('whoever calls it (no caller in this repository)');
    // A dispatcher's input (declared: an undeclared one is empty, as the dispatch API rejects it) is a collaborator's.
    const declared = caller('$/.github/workflows/reusable.yml', '${{ github.event.inputs.title }}');
    declared.text = declared.text.replace('on: [pull_request_target, workflow_dispatch]', 'on:\n  pull_request_target:\n  workflow_dispatch:\n    inputs:\n      title: { type: string }');
    const dispatched = scanWith('script-injection', [reusable, declared]);
    expect(dispatched.map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith('script-injection', [reusable, caller('$/.github/workflows/reusable.yml', '${{ github.event.inputs.title }}')])).toEqual([]);
  });

  it("reads a call by the repository's own name as a local caller, and another repository's call as none", () => {
    const own = 'acme/widget/.github/workflows/reusable.yml@main';
    // The caller passes a fixed value: nobody outside sets the input, so nothing is reported.
    expect(scanWith('script-injection', [reusable, caller(own, 'release')], { repository: 'Acme/Widget' })).toEqual([]);
    const titled = scanWith('script-injection', [reusable, caller(own, '${{ github.event.pull_request.title }}')], { repository: 'acme/widget' });
    expect(titled.map((f) => f.severity)).toEqual(['HIGH']);
    // Negative: the same call in another repository (or with the name unknown) is not this workflow's caller.
    for (const repository of ['other/widget', undefined]) {
      const other = scanWith('script-injection', [reusable, caller(own, 'release')], repository === undefined ? {} : { repository });
      expect(other.map((f) => f.severity), repository).toEqual(['LOW']);
      expect(other[0]?.description).toContain('no caller in this repository');
    }
  });
});

describe('which events carry an event field', () => {
  it('names the triggers whose payload has the field, and keeps every trigger for fields all events have', async () => {
    const { eventsWithField, triggersWithField, outsiderEvents } = await import('../../../../lib/engine/expressions/controller.js');
    expect(eventsWithField(path('github.event.issue.title'))).toEqual(['issues', 'issue_comment']);
    expect(eventsWithField(path('github.head_ref'))).toContain('pull_request_target');
    expect(eventsWithField(path('github.event.sender.login'))).toBeNull();
    expect(eventsWithField(path('env.X'))).toBeNull();
    expect([...(triggersWithField(path('github.event.workflow_run.head_branch'), on('workflow_run:trusted', 'push')) ?? [])]).toEqual(['workflow_run:trusted']);
    expect(triggersWithField(path('github.event.issue.title'), null)).toBeNull();
    expect(outsiderEvents(['push', 'issues', 'workflow_run:trusted', 'pull_request'])).toEqual(['issues', 'pull_request']);
  });
});
