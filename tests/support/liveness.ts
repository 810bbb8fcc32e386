import { expect } from 'vitest';

/**
 * A liveness check, not a performance claim (performance lives in `npm run bench`): the ceiling is
 * generous enough for a loaded 2-core CI machine, and the inputs that use it are sized so that the
 * quadratic behaviour each one guards against would take far longer than the ceiling.
 */
export const LIVENESS_MS = 10_000;

export function expectLive<T>(label: string, run: () => T): T {
  const start = performance.now();
  const result = run();
  expect(performance.now() - start, `${label}: liveness ceiling (a hang or a quadratic path, not a slow run)`).toBeLessThan(LIVENESS_MS);
  return result;
}
