// The scan endpoint's cold start: the engine, its fixes (with the diff library) and the rule catalog are
// not imported with the endpoint module but on the first scan (lib/services/scan.ts, loadEngine), and they
// work on that first use.

import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The inputs reachable from the entry through static imports only. */
function staticInputs(meta: Metafile, entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const next = stack.pop() ?? '';
    if (seen.has(next)) continue;
    seen.add(next);
    for (const imported of meta.inputs[next]?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) stack.push(imported.path);
  }
  return seen;
}

describe('the scan endpoint loads the engine lazily', () => {
  it('imports neither the engine, nor the fixes, nor the rule catalog statically', async () => {
    const result = await build({ entryPoints: ['api/scan.ts'], absWorkingDir: ROOT, bundle: true, write: false, metafile: true, format: 'esm', platform: 'node', packages: 'external', logLevel: 'silent' });
    const inputs = staticInputs(result.metafile, 'api/scan.ts');
    expect(inputs.has('lib/services/scan.ts')).toBe(true);
    for (const lazy of ['lib/engine/scan.ts', 'lib/engine/fixes/apply.ts', 'lib/engine/catalog.ts', 'lib/engine/rule-metadata.generated.ts', 'lib/online/service.ts']) {
      expect(inputs.has(lazy), lazy).toBe(false);
    }
    // The engine is still part of the function: imported dynamically.
    const dynamic = Object.values(result.metafile.inputs).flatMap((input) => input.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
    expect(dynamic).toEqual(expect.arrayContaining(['lib/engine/scan.ts', 'lib/engine/fixes/apply.ts', 'lib/engine/catalog.ts']));
    // The engine thread's entry is imported by name too, so a function's file tracer ships it (and the
    // engine) beside the endpoint, where lib/services/engine-runner.ts starts it.
    expect(dynamic).toContain('lib/services/engine-worker.ts');
  });

  it('gives a working engine and fixes on first use, and the same modules to every later scan', async () => {
    const { loadEngine } = await import('../../../lib/services/scan.js');
    const first = loadEngine();
    const { scanRepository, apiFixes } = await first;
    const files = [{ path: '.github/workflows/ci.yml', text: 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n' }];
    const result = scanRepository(files, { repository: 'acme/widget' });
    const pin = result.findings.find((f) => f.rule_id === 'unpinned-action');
    expect(pin).toBeDefined();
    const fixes = apiFixes(files, result.findings, 'acme/widget');
    expect(fixes).toHaveLength(result.findings.length);
    expect(fixes.some((fix) => fix !== null && fix !== undefined)).toBe(true);
    expect(loadEngine()).toBe(first);
  });
});
