import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'missing-concurrency';

describe(RULE, () => {
  it('reports a deploying workflow once, at the first deploying job, bound to it', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps: [{ run: make }]
        staging:
          runs-on: ubuntu-latest
          environment: staging
          steps: [{ run: ./deploy.sh staging }]
        production:
          runs-on: ubuntu-latest
          environment:
            name: production
            url: https://example.com
          steps: [{ run: ./deploy.sh production }]
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['6:3 INFO']);
    expect(records[0]?.job).toBe('staging');
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.finding.description).toContain('`production`');
  });

  it('reports a publishing job', () => {
    const findings = scanWith(RULE, yaml`
      on:
        push:
          tags: ['v*']
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            - run: npm publish
    `);
    expect(positions(findings)).toEqual(['5:3 INFO']);
    expect(findings[0]?.description).toContain('npm publish');
  });

  it('accepts concurrency at workflow level or on the job', () => {
    expect(scanWith(RULE, yaml`
      on: push
      concurrency: deploy-\${{ github.ref }}
      jobs:
        production:
          runs-on: ubuntu-latest
          environment: production
          steps: [{ run: ./deploy.sh }]
    `)).toEqual([]);
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        production:
          runs-on: ubuntu-latest
          environment: production
          concurrency:
            group: production
          steps: [{ run: ./deploy.sh }]
    `)).toEqual([]);
  });

  it('reports the next job when only one of several has concurrency', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          environment: production
          concurrency: production
          steps: [{ run: ./deploy.sh }]
        b:
          runs-on: ubuntu-latest
          steps: [{ uses: softprops/action-gh-release@v2 }]
    `))).toEqual(['8:3 INFO']);
  });

  it('ignores environments that only scope automation secrets, dry runs and plain CI', () => {
    expect(scanWith(RULE, yaml`
      on: [issues, pull_request]
      jobs:
        triage:
          runs-on: ubuntu-latest
          environment: automations
          steps: [{ run: ./triage.sh }]
        flaky:
          runs-on: ubuntu-latest
          environment: \${{ github.event_name == 'push' && 'allow-uploading-flakiness-results' || null }}
          steps: [{ run: ./upload.sh }]
        check:
          runs-on: ubuntu-latest
          steps: [{ run: cargo publish --dry-run }]
        test:
          runs-on: ubuntu-latest
          environment:
          steps: [{ run: make test }]
    `)).toEqual([]);
  });

  it('counts only publishing that publishes for real: not an image push to a registry the job started, or a goreleaser build', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        image:
          runs-on: ubuntu-latest
          services:
            registry:
              image: registry:2
              ports: ['5000:5000']
          steps: [{ run: docker push localhost:5000/app:test }]
        snapshot:
          runs-on: ubuntu-latest
          steps: [{ uses: goreleaser/goreleaser-action@v6, with: { args: build --clean } }]
    `))).toEqual([]);
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        image:
          runs-on: ubuntu-latest
          steps: [{ run: docker push ghcr.io/acme/app:latest }]
        release:
          runs-on: ubuntu-latest
          steps: [{ uses: goreleaser/goreleaser-action@v6, with: { args: release --clean } }]
    `))).toEqual(['3:3 INFO']);
  });

  it('takes an environment chosen by an expression without literals as a deployment', () => {
    expect(positions(scanWith(RULE, yaml`
      on: workflow_dispatch
      jobs:
        deploy:
          runs-on: ubuntu-latest
          environment: \${{ inputs.environment }}
          steps: [{ run: ./deploy.sh }]
    `))).toEqual(['3:3 INFO']);
  });
  describe('a reusable workflow only `workflow_call` starts', () => {
    const reusable = yaml`
      on: workflow_call
      jobs:
        deploy:
          runs-on: ubuntu-latest
          environment: production
          steps: [{ run: ./deploy.sh }]
    `;
    const caller = (concurrency: string) => yaml`
      on:
        push:
          branches: [main]
      ${concurrency}
      jobs:
        release:
          uses: ./.github/workflows/deploy.yml
    `;
    const files = (callerText: string | null) => [
      { path: '.github/workflows/deploy.yml', text: reusable },
      ...(callerText === null ? [] : [{ path: '.github/workflows/ci.yml', text: callerText }]),
    ];

    it('is not reported when every caller of the repository queues its runs (workflow- or job-level)', () => {
      expect(scanWith(RULE, files(caller('concurrency: deploy')))).toEqual([]);
      expect(scanWith(RULE, files(yaml`
        on: push
        jobs:
          release:
            concurrency: { group: deploy, cancel-in-progress: false }
            uses: ./.github/workflows/deploy.yml
      `))).toEqual([]);
    });

    it('is reported when a caller sets no concurrency, or when no caller is in the repository', () => {
      const unguarded = scanWith(RULE, files(caller('')));
      expect(unguarded.map((f) => f.file)).toEqual(['.github/workflows/deploy.yml']);
      expect(scanWith(RULE, files(null)).map((f) => f.file)).toEqual(['.github/workflows/deploy.yml']);
    });

    it('is reported when the workflow also has a trigger of its own', () => {
      const both = scanWith(RULE, [
        { path: '.github/workflows/deploy.yml', text: reusable.replace('on: workflow_call', 'on: [workflow_call, workflow_dispatch]') },
        { path: '.github/workflows/ci.yml', text: caller('concurrency: deploy') },
      ]);
      expect(both.map((f) => f.file)).toEqual(['.github/workflows/deploy.yml']);
    });
  });
});
