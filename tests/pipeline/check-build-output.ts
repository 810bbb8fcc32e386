// `npx tsx tests/pipeline/check-build-output.ts [output-dir]`: checks what `vercel build` produced (default
// `.vercel/output`, Vercel's Build Output API v3) against the checkout it was built from: one Node.js function
// per file of `api/`, and every file of the web client (`public/` after the build) among the static files.
// The preview and release workflows run it between `vercel build` and `vercel deploy --prebuilt`, so a
// deployment never goes out with a route missing. Exit 0 with a summary line, or 1 with one line per problem.

import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface BuildOutputReport {
  /** Routes of the `api/` files, e.g. `api/repositories/[repo_id]/combos`. */
  functions: string[];
  /** Files of `public/`, relative to it. */
  staticFiles: string[];
  problems: string[];
}

/** Files under `dir`, relative to it with `/` separators; empty when `dir` does not exist. */
async function listFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The function routes Vercel makes of `api/`: every `.ts`/`.js` file except declarations, and except paths
 * with a segment starting with `_` or `.`, which Vercel does not deploy as functions.
 */
export function apiRoutes(files: readonly string[]): string[] {
  return files
    .filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts'))
    .filter((f) => !f.split('/').some((segment) => segment.startsWith('_') || segment.startsWith('.')))
    .map((f) => `api/${f.replace(/\.(ts|js|mjs)$/, '')}`)
    .sort();
}

export async function checkBuildOutput(root: string, outputDir: string): Promise<BuildOutputReport> {
  const problems: string[] = [];
  const config = join(outputDir, 'config.json');
  if (!(await exists(config))) {
    return {
      functions: [],
      staticFiles: [],
      problems: [`${outputDir} holds no Build Output (no config.json): run \`vercel build\` first`],
    };
  }

  const functions = apiRoutes(await listFiles(join(root, 'api')));
  if (functions.length === 0) problems.push('api/ holds no function: nothing to check the build output against');
  for (const route of functions) {
    const vcConfig = join(outputDir, 'functions', `${route}.func`, '.vc-config.json');
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(vcConfig, 'utf8'));
    } catch {
      problems.push(`function ${route} is missing (no ${relative(root, vcConfig) || vcConfig})`);
      continue;
    }
    const runtime = (parsed as { runtime?: unknown }).runtime;
    if (typeof runtime !== 'string' || !runtime.startsWith('nodejs')) {
      problems.push(`function ${route} has runtime ${JSON.stringify(runtime)}, expected a Node.js runtime`);
    }
  }

  // The web client: whatever the build wrote to public/ (the output directory of vercel.json) is served.
  const staticFiles = await listFiles(join(root, 'public'));
  const served = new Set(await listFiles(join(outputDir, 'static')));
  for (const file of staticFiles) {
    if (!served.has(file)) problems.push(`static file ${file} of public/ is missing from the build output`);
  }
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  if (pkg.scripts?.['build:web'] !== undefined && !served.has('index.html')) {
    problems.push('the web client (index.html) is missing from the build output: does vercel.json run `npm run build:web`?');
  }
  return { functions, staticFiles, problems };
}

async function main(): Promise<void> {
  const root = process.cwd();
  const outputDir = join(root, process.argv[2] ?? '.vercel/output');
  const report = await checkBuildOutput(root, outputDir);
  if (report.problems.length > 0) {
    for (const problem of report.problems) console.error(`build output: ${problem}`);
    process.exitCode = 1;
    return;
  }
  console.log(`build output: ${report.functions.length} functions and ${report.staticFiles.length} static files, all present`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
