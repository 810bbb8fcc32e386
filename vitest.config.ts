import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    pool: 'forks',
    // The growth test collects garbage before each timed scan (tests/lib/engine/growth.test.ts).
    execArgv: ['--expose-gc'],
    // One migrated database per run for the data tests (PGlite, or TEST_DATABASE_URL's server).
    // And the CLI bundle (dist/), which the CLI tests run as a child process.
    globalSetup: ['tests/support/db-global-setup.ts', 'tests/bin/build-setup.ts'],
    // fast-check's properties draw from one fixed seed unless FC_SEED says otherwise (tests/support/fast-check-seed.ts).
    setupFiles: ['tests/support/fast-check-seed.ts'],
    // The default reporter, then why each skipped test was skipped (tests/support/skip-reporter.ts).
    reporters: ['default', './tests/support/skip-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
