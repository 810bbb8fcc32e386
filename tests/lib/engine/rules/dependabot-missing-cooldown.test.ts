import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'dependabot-missing-cooldown';
const PATH = '.github/dependabot.yml';

describe(RULE, () => {
  it('reports each entry without cooldown at its package-ecosystem key, bound to no job', () => {
    const records = recordsWith(RULE, [{
      path: PATH,
      text: yaml`
        version: 2
        updates:
          - package-ecosystem: github-actions
            directory: /
            schedule: { interval: weekly }
          - package-ecosystem: npm
            directory: /web
            cooldown:
              default-days: 5
          - directory: /api
            package-ecosystem: gomod
      `,
    }]);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:5 LOW', '11:5 LOW']);
    expect(records.map((r) => r.job)).toEqual([null, null]);
    expect(records[1]?.finding.description).toBe('The `gomod` update entry for `/api` has no `cooldown`: new releases are proposed as soon as they are published.');
  });

  it('finds cooldown through merge keys and skips security-only entries', () => {
    expect(scanWith(RULE, [{
      path: PATH,
      text: yaml`
        version: 2
        x-defaults: &defaults
          cooldown:
            default-days: 7
        updates:
          - <<: *defaults
            package-ecosystem: pip
            directory: /
          - package-ecosystem: docker
            directory: /
            open-pull-requests-limit: 0
      `,
    }])).toEqual([]);
  });

  it('skips an entry that ignores every dependency, and still reports one whose ignore of "*" is narrowed (negative)', () => {
    const findings = scanWith(RULE, [{
      path: PATH,
      text: yaml`
        version: 2
        updates:
          - package-ecosystem: bundler
            directory: /samples
            schedule: { interval: daily }
            ignore:
              - dependency-name: "*"
          - package-ecosystem: npm
            directory: /web
            schedule: { interval: daily }
            ignore:
              - dependency-name: "*"
                update-types: ["version-update:semver-major"]
          - package-ecosystem: pip
            directory: /
            schedule: { interval: daily }
            ignore:
              - dependency-name: "django*"
      `,
    }]);
    expect(positions(findings)).toEqual(['8:5 LOW', '14:5 LOW']);
  });

  it('reports an empty cooldown, or one whose days are all 0, as no cooldown', () => {
    const findings = scanWith(RULE, [{
      path: PATH,
      text: yaml`
        version: 2
        updates:
          - package-ecosystem: npm
            directory: /
            cooldown: {}
          - package-ecosystem: pip
            directory: /
            cooldown:
              default-days: 0
          - package-ecosystem: cargo
            directory: /
            cooldown:
              semver-major-days: 30
          - package-ecosystem: gomod
            directory: /
            cooldown:
              default-days: 3
              semver-patch-days: 0
      `,
    }]);
    expect(positions(findings)).toEqual(['3:5 LOW', '6:5 LOW']);
    expect(findings[0]?.description).toContain('has a `cooldown` that sets no waiting days');
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, [{ path: PATH, text: 'version: 2\nupdates: 7\n' }])).toEqual([]);
    expect(positions(scanWith(RULE, [{ path: PATH, text: 'version: 2\nupdates:\n  - 1\n  - {}\n' }]))).toEqual(['4:5 LOW']);
  });

  it('reports a cooldown shorter than 3 days at its days, and accepts 3 days or more', () => {
    const findings = scanWith(RULE, [{
      path: PATH,
      text: yaml`
        version: 2
        updates:
          - package-ecosystem: pip
            directory: /
            cooldown:
              default-days: 2
          - package-ecosystem: npm
            directory: /
            cooldown:
              semver-major-days: 1
              semver-minor-days: 1
          - package-ecosystem: cargo
            directory: /
            cooldown:
              default-days: 5
          - package-ecosystem: gomod
            directory: /
            cooldown:
              default-days: 3
              semver-patch-days: 1
          - package-ecosystem: docker
            directory: /
            cooldown:
              default-days: 1
              semver-major-days: 14
      `,
    }]);
    expect(positions(findings)).toEqual(['6:21 LOW', '10:26 LOW', '24:21 LOW']);
    expect(findings[0]?.description).toBe('The `pip` update entry for `/` waits only 2 days before proposing a new release: a compromised or broken release is usually noticed and pulled within a few days, so a cooldown shorter than 3 days rarely outlasts it.');
  });
});
