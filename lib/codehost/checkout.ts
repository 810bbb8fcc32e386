import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { classifyPath } from '../engine/scan.js';
import { MAX_FILE_BYTES } from '../engine/yaml/parse.js';
import type { RepositoryFile } from '../engine/types.js';

/** Reads at most one byte past the engine's limit: the engine reports the file as too large. */
export async function readBounded(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    // lstat: symbolic links are not followed, so a checkout cannot make the scanner read outside it.
    return (await lstat(path)).isFile();
  } catch {
    return false;
  }
}

async function listDirectory(path: string): Promise<{ name: string; dir: boolean }[]> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries.filter((e) => !e.isSymbolicLink()).map((e) => ({ name: e.name, dir: e.isDirectory() }));
  } catch {
    return [];
  }
}

/** Local action directories a workflow or action names with `uses: ./path`. */
export function localActionPaths(text: string): string[] {
  const paths: string[] = [];
  for (const match of text.matchAll(/uses:\s*["']?\.\/([^"'\s#@]*)/g)) {
    const path = (match[1] ?? '').replace(/\/+$/, '');
    if (!path.split('/').includes('..')) paths.push(path);
  }
  return paths;
}

/**
 * The files of a repository checkout the engine reads: workflows, Dependabot config, the root action,
 * actions under `.github/actions/**`, and any local action a workflow or action uses.
 */
export async function collectRepositoryFiles(root: string): Promise<RepositoryFile[]> {
  const files = new Map<string, RepositoryFile>();
  const add = async (path: string) => {
    if (files.has(path) || classifyPath(path) === null || !(await isFile(join(root, path)))) return;
    files.set(path, { path, text: await readBounded(join(root, path)) });
  };
  for (const entry of await listDirectory(join(root, '.github/workflows'))) {
    if (!entry.dir) await add(`.github/workflows/${entry.name}`);
  }
  for (const name of ['dependabot.yml', 'dependabot.yaml']) await add(`.github/${name}`);
  for (const name of ['action.yml', 'action.yaml']) await add(name);
  const walk = async (dir: string, depth: number) => {
    if (depth > 8) return;
    for (const entry of await listDirectory(join(root, dir))) {
      if (entry.dir) await walk(`${dir}/${entry.name}`, depth + 1);
      else await add(`${dir}/${entry.name}`);
    }
  };
  await walk('.github/actions', 0);
  const queue = [...files.values()];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === undefined) break;
    for (const dir of localActionPaths(file.text)) {
      for (const name of ['action.yml', 'action.yaml']) {
        const path = dir === '' ? name : `${dir}/${name}`;
        const before = files.size;
        await add(path);
        const added = files.get(path);
        if (files.size > before && added !== undefined) queue.push(added);
      }
    }
  }
  return [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
