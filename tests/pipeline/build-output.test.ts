import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiRoutes, checkBuildOutput } from './check-build-output.js';

// The check the deploy jobs run between `vercel build` and `vercel deploy --prebuilt`. `vercel build` itself
// takes minutes and needs the Vercel CLI, so these tests lay out Build Output API v3 trees by hand, in the shape
// `vercel build` writes them (`functions/<route>.func/.vc-config.json`, `static/`, `config.json`).

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
let dir: string;

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), text);
}

const vcConfig = (runtime = 'nodejs24.x') => JSON.stringify({ handler: 'api/x.js', runtime, launcherType: 'Nodejs' });

/** A checkout with two functions (one dynamic, one helper that is no function) and a two-file web client. */
async function layOutProject(scripts: Record<string, string> = { 'build:web': 'node build.js' }): Promise<void> {
  await write('package.json', JSON.stringify({ scripts }));
  await write('api/health.ts', 'export default () => {}');
  await write('api/repositories/[repo_id]/combos.ts', 'export default () => {}');
  await write('api/_shared.ts', 'export const x = 1;');
  await write('api/types.d.ts', 'export {};');
  await write('public/index.html', '<!doctype html>');
  await write('public/assets/app.js', '');
}

async function layOutOutput(): Promise<void> {
  await write('.vercel/output/config.json', JSON.stringify({ version: 3 }));
  await write('.vercel/output/functions/api/health.func/.vc-config.json', vcConfig());
  await write('.vercel/output/functions/api/repositories/[repo_id]/combos.func/.vc-config.json', vcConfig());
  await write('.vercel/output/static/index.html', '<!doctype html>');
  await write('.vercel/output/static/assets/app.js', '');
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chainbreaker-build-output-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('checkBuildOutput', () => {
  it('accepts an output with every function and every static file', async () => {
    await layOutProject();
    await layOutOutput();
    const report = await checkBuildOutput(dir, join(dir, '.vercel/output'));
    expect(report).toEqual({
      functions: ['api/health', 'api/repositories/[repo_id]/combos'],
      staticFiles: ['assets/app.js', 'index.html'],
      problems: [],
    });
  });

  it('names a missing function', async () => {
    await layOutProject();
    await layOutOutput();
    await rm(join(dir, '.vercel/output/functions/api/repositories'), { recursive: true });
    const { problems } = await checkBuildOutput(dir, join(dir, '.vercel/output'));
    expect(problems).toEqual([
      'function api/repositories/[repo_id]/combos is missing (no .vercel/output/functions/api/repositories/[repo_id]/combos.func/.vc-config.json)',
    ]);
  });

  it('names a function built for another runtime', async () => {
    await layOutProject();
    await layOutOutput();
    await write('.vercel/output/functions/api/health.func/.vc-config.json', vcConfig('edge'));
    const { problems } = await checkBuildOutput(dir, join(dir, '.vercel/output'));
    expect(problems).toEqual(['function api/health has runtime "edge", expected a Node.js runtime']);
  });

  it('names a static file of the web client that was not published', async () => {
    await layOutProject();
    await layOutOutput();
    await rm(join(dir, '.vercel/output/static/assets/app.js'));
    const { problems } = await checkBuildOutput(dir, join(dir, '.vercel/output'));
    expect(problems).toEqual(['static file assets/app.js of public/ is missing from the build output']);
  });

  it('requires the web client when the project builds one, even if public/ was never built', async () => {
    await layOutProject();
    await layOutOutput();
    await rm(join(dir, 'public'), { recursive: true });
    await rm(join(dir, '.vercel/output/static'), { recursive: true });
    const { problems } = await checkBuildOutput(dir, join(dir, '.vercel/output'));
    expect(problems).toEqual([
      'the web client (index.html) is missing from the build output: does vercel.json run `npm run build:web`?',
    ]);
  });

  it('does not ask for index.html from a project without a web client build', async () => {
    await layOutProject({});
    await layOutOutput();
    await rm(join(dir, 'public/index.html'));
    await rm(join(dir, '.vercel/output/static/index.html'));
    expect((await checkBuildOutput(dir, join(dir, '.vercel/output'))).problems).toEqual([]);
  });

  it('says to run vercel build when there is no output', async () => {
    await layOutProject();
    const { problems } = await checkBuildOutput(dir, join(dir, '.vercel/output'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/no Build Output \(no config\.json\): run `vercel build` first$/);
  });
});

describe('apiRoutes', () => {
  it('makes one route per api/ file of this project', async () => {
    const files = (await readdir(join(root, 'api'), { recursive: true })).map(String).filter((f) => f.endsWith('.ts'));
    const routes = apiRoutes(files.map((f) => f.split('\\').join('/')));
    expect(routes.length).toBe(files.length);
    expect(routes).toContain('api/health');
    expect(routes).toContain('api/repositories/[repo_id]/rule-overrides/[rule_id]');
  });

  it('skips declarations and paths Vercel does not deploy (_ and . prefixes)', () => {
    expect(apiRoutes(['a.ts', 'b.d.ts', '_lib/c.ts', 'x/_d.ts', '.e.ts', 'f.js', 'g.json'])).toEqual(['api/a', 'api/f']);
  });
});
