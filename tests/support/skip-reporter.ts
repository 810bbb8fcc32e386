import type { Reporter, TestModule } from 'vitest/node';

/**
 * Says, after the default reporter's summary, why each skipped test was skipped: the note of `ctx.skip(note)`,
 * else the `(skipped: ...)` part of its name (see `skipReason` in tests/support/skips.ts). Tests are grouped by
 * reason, so a skipped suite is one line. A skip with no reason is listed as such: every skip must say why.
 */
export default class SkipReasons implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const reasons = new Map<string, { files: Set<string>; count: number }>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped') continue;
        const reason = result.note ?? /\(skipped: (.+?)\)(?= >|$)/.exec(test.fullName)?.[1] ?? `no reason given (${test.fullName})`;
        const entry = reasons.get(reason) ?? { files: new Set<string>(), count: 0 };
        entry.files.add(module.relativeModuleId);
        entry.count++;
        reasons.set(reason, entry);
      }
    }
    if (reasons.size === 0) return;
    const lines = [...reasons].map(([reason, { files, count }]) => `  ${count} skipped: ${reason} [${[...files].sort().join(', ')}]`);
    process.stdout.write(`\nSkipped tests and why:\n${lines.join('\n')}\n`);
  }
}
