import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'repository-dispatch-unfiltered';

describe(RULE, () => {
  it('reports repository_dispatch without types at the trigger, bound to no job', () => {
    const records = recordsWith(RULE, yaml`
      on:
        push:
        repository_dispatch:
      jobs:
        build:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:3 LOW']);
    expect(records[0]?.job).toBeNull();
    expect(records[0]?.finding.rule_id).toBe(RULE);
  });

  it('is MEDIUM when the workflow reads the payload or event type, LOW when it reads neither', () => {
    const workflow = (run: string) => yaml`
      on: repository_dispatch
      jobs:
        check:
          runs-on: ubuntu-latest
          steps:
            - run: ${run}
    `;
    const low = scanWith(RULE, workflow('lychee --no-progress docs/'));
    expect(positions(low)).toEqual(['1:5 LOW']);
    expect(low[0]?.description).toContain('reads neither the event type nor its `client_payload`');
    expect(positions(scanWith(RULE, workflow('echo "$REF"\n              env: { REF: "${{ github.event.client_payload.ref }}" }')))).toEqual(['1:5 MEDIUM']);
    expect(positions(scanWith(RULE, workflow("echo '${{ github.event.action }}'")))).toEqual(['1:5 MEDIUM']);
  });

  it('reports the scalar and list forms of on:, and empty types', () => {
    expect(positions(scanWith(RULE, yaml`
      on: repository_dispatch
      jobs: {}
    `))).toEqual(['1:5 LOW']);
    expect(positions(scanWith(RULE, yaml`
      on: [push, repository_dispatch]
      jobs: {}
    `))).toEqual(['1:12 LOW']);
    expect(positions(scanWith(RULE, yaml`
      on:
        repository_dispatch:
          types: []
      jobs: {}
    `))).toEqual(['2:3 LOW']);
    expect(positions(scanWith(RULE, yaml`
      on:
        repository_dispatch:
          types:
      jobs: {}
    `))).toEqual(['2:3 LOW']);
  });

  it('accepts a non-empty types list or string', () => {
    expect(scanWith(RULE, yaml`
      on:
        repository_dispatch:
          types: [deploy, release-published]
      jobs: {}
    `)).toEqual([]);
    expect(scanWith(RULE, yaml`
      on:
        repository_dispatch:
          types: deploy
      jobs: {}
    `)).toEqual([]);
  });

  it('ignores workflows without the trigger', () => {
    expect(scanWith(RULE, yaml`
      on:
        workflow_dispatch:
        push:
      jobs: {}
    `)).toEqual([]);
  });
});
