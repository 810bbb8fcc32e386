/**
 * Cold start of every endpoint module (each file under `api/`): bundled on its own with esbuild the way a
 * function ships (ESM, Node, dependencies included; modules the code imports dynamically become separate
 * chunks loaded on first use, so they are reported apart and not counted in the import), then imported
 * in a fresh Node process: the time from the first line of the process to the module's evaluation, best
 * of several processes. Also the bytes of the bundle and its largest inputs, and the import unbundled, the
 * way Vercel's Node runtime ships a function by default: every project file transpiled to JavaScript on
 * its own, dependencies loaded from node_modules as they are.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { discoverRoutes } from '../lib/dev/router.js';
import { NODE_BUNDLE } from '../scripts/node-bundle.js';
import { ms, table } from './stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PROCESSES = 5;

export interface ColdStartEntry {
  file: string;
  /** Best import time over the processes, ms. */
  importMs: number;
  /** Median import time, ms. */
  importP50Ms: number;
  /** Median import time unbundled (each file transpiled, node_modules as they are), ms. */
  sourceP50Ms: number;
  /** The entry chunk and what it imports statically: what loads at cold start. */
  bundleBytes: number;
  /** Chunks imported dynamically (the database adapter, the code host, ...): loaded on first use. */
  lazyBytes: number;
  /** The heaviest inputs of the static part. */
  heaviest: { input: string; bytes: number }[];
}

export interface ColdStartBenchResult {
  entries: ColdStartEntry[];
}

/** Bytes of the chunks reachable through static imports from `chunk`, and of all others. */
function staticClosure(meta: Metafile, chunk: string): { staticBytes: number; lazyBytes: number; inputs: Map<string, number> } {
  const seen = new Set<string>();
  const stack = [chunk];
  while (stack.length > 0) {
    const next = stack.pop() ?? '';
    if (seen.has(next)) continue;
    seen.add(next);
    for (const imported of meta.outputs[next]?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) stack.push(imported.path);
  }
  let staticBytes = 0;
  let lazyBytes = 0;
  const inputs = new Map<string, number>();
  for (const [path, output] of Object.entries(meta.outputs)) {
    if (path.endsWith('.map')) continue;
    if (seen.has(path)) {
      staticBytes += output.bytes;
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) inputs.set(input, (inputs.get(input) ?? 0) + bytesInOutput);
    } else lazyBytes += output.bytes;
  }
  return { staticBytes, lazyBytes, inputs };
}

function importTimes(entry: string, nodeArgs: string[] = []): number[] {
  const script = [
    `const start = performance.now();`,
    `await import(${JSON.stringify(pathToFileURL(entry).href)});`,
    `process.stdout.write(String(performance.now() - start));`,
  ].join('\n');
  const times: number[] = [];
  for (let i = 0; i < PROCESSES; i++) {
    const out = execFileSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], { env: { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'development' }, encoding: 'utf8' });
    times.push(Number(out));
  }
  return times.sort((a, b) => a - b);
}

/** A name for an input: the package, or the project file. */
function inputName(input: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return pkg?.[1] ?? input;
}

export async function benchColdStart(): Promise<ColdStartBenchResult> {
  const routes = await discoverRoutes(ROOT);
  const dir = mkdtempSync(join(tmpdir(), 'chainbreaker-cold-start-'));
  const entries: ColdStartEntry[] = [];
  try {
    const unbundled = join(dir, 'unbundled');
    const sources = (await readdir(ROOT, { recursive: true })).filter((f) => /^(api|lib)\/.*\.ts$/.test(f) && !f.endsWith('.d.ts'));
    await build({ entryPoints: sources.map((f) => join(ROOT, f)), outbase: ROOT, outdir: unbundled, bundle: false, format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent' });
    writeFileSync(join(unbundled, 'package.json'), '{"type":"module"}\n');
    symlinkSync(join(ROOT, 'node_modules'), join(unbundled, 'node_modules'), 'dir');
    for (const route of routes) {
      const out = join(dir, route.file.replace(/[^A-Za-z0-9]+/g, '_'));
      const result = await build({
        entryPoints: [join(ROOT, route.file)],
        ...NODE_BUNDLE,
        splitting: true,
        outdir: out,
        metafile: true,
        logLevel: 'silent',
      });
      const entryChunk = Object.keys(result.metafile.outputs).find((k) => result.metafile.outputs[k]?.entryPoint === route.file) ?? '';
      const closure = staticClosure(result.metafile, entryChunk);
      const byName = new Map<string, number>();
      for (const [input, bytes] of closure.inputs) byName.set(inputName(input), (byName.get(inputName(input)) ?? 0) + bytes);
      const times = importTimes(join(process.cwd(), entryChunk));
      const source = importTimes(join(unbundled, route.file.replace(/\.ts$/, '.js')));
      entries.push({
        file: route.file,
        importMs: times[0] ?? NaN,
        importP50Ms: times[Math.floor(times.length / 2)] ?? NaN,
        sourceP50Ms: source[Math.floor(source.length / 2)] ?? NaN,
        bundleBytes: closure.staticBytes,
        lazyBytes: closure.lazyBytes,
        heaviest: [...byName].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([input, bytes]) => ({ input, bytes })),
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { entries };
}

export function formatColdStart(r: ColdStartBenchResult): string {
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const worst = Math.max(...r.entries.map((e) => e.importP50Ms));
  const worstSource = Math.max(...r.entries.map((e) => e.sourceP50Ms));
  return [
    `Cold start: each api/ file bundled alone (esbuild, ESM), imported in a fresh Node process; best and median of ${PROCESSES}`,
    table([
      ['endpoint', 'import best', 'p50', 'unbundled p50', 'bundle (static)', 'lazy chunks', 'heaviest static inputs'],
      ...r.entries.map((e) => [
        e.file,
        ms(e.importMs, 1),
        ms(e.importP50Ms, 1),
        ms(e.sourceP50Ms, 1),
        kib(e.bundleBytes),
        kib(e.lazyBytes),
        e.heaviest.map((h) => `${h.input.replace(/^lib\//, '')} ${kib(h.bytes)}`).join(', '),
      ]),
    ]),
    `slowest import (p50): bundled ${ms(worst, 1)}, unbundled ${ms(worstSource, 1)} (budget < 150 ms: ${Math.max(worst, worstSource) < 150 ? 'met' : 'NOT met'})`,
  ].join('\n');
}
