/**
 * Why a test or suite is skipped, written into its name so that the default reporter's output says it
 * (tests/support/skip-reporter.ts lists every skip with its reason after the summary).
 *
 *   describe.skipIf(reason !== null)(`the shared corpus${skipReason(reason)}`, ...)
 */
export function skipReason(reason: string | null): string {
  return reason === null ? '' : ` (skipped: ${reason})`;
}

/**
 * `SKIP_SLOW_TESTS=1` skips the slow suites, the engine's fuzzing and the web client in Chromium, for a quick
 * run while working (`SKIP_SLOW_TESTS=1 npm test`). CI never sets it: .ci/run runs everything.
 */
export const SLOW_SKIPPED = process.env.SKIP_SLOW_TESTS === '1' ? 'SKIP_SLOW_TESTS=1 (a slow suite; CI runs it)' : null;
