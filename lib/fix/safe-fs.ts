/**
 * File access of `scan --fix` inside a checkout, which is the scanned repository's and so hostile: a path is
 * taken component by component from the checkout's real root, and a symbolic link anywhere on it is refused,
 * never followed (a `.chainbreaker` that links elsewhere must not make the fix write outside the checkout).
 * Reads are bounded; writes go to a new temporary file in the verified directory, then replace the target by
 * rename, so a link swapped in for the target is replaced rather than written through.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readBounded } from '../codehost/checkout.js';

/** A path of the checkout that --fix will not use: a link, or not the kind of file expected. */
export class RefusedPath extends Error {}

function components(relative: string): string[] {
  const parts = relative.split('/');
  for (const part of parts) if (part === '' || part === '.' || part === '..') throw new RefusedPath(`${relative}: not a plain path inside the checkout`);
  return parts;
}

async function lstatOrNull(path: string) {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The directory `relative` (to `realRoot`) after checking that every component is a real directory, not a
 * link; missing ones are created when `create` (and checked again after). Null when missing and not created.
 */
export async function checkedDirectory(realRoot: string, relative: string, create: boolean): Promise<string | null> {
  let current = realRoot;
  if (relative === '') return current;
  for (const part of components(relative)) {
    const next = join(current, part);
    let stat = await lstatOrNull(next);
    if (stat === null) {
      if (!create) return null;
      await mkdir(next);
      stat = await lstat(next);
    }
    if (stat.isSymbolicLink()) throw new RefusedPath(`${relative}: ${part} is a symbolic link, which --fix does not follow`);
    if (!stat.isDirectory()) throw new RefusedPath(`${relative}: ${part} is not a directory`);
    current = next;
  }
  return current;
}

function split(relative: string): { dir: string; name: string } {
  const slash = relative.lastIndexOf('/');
  return { dir: slash === -1 ? '' : relative.slice(0, slash), name: relative.slice(slash + 1) };
}

/** The text of the regular file `relative`, at most `maxBytes` (more is an error), or null when it does not exist. */
export async function readInside(realRoot: string, relative: string, maxBytes: number): Promise<string | null> {
  const { dir, name } = split(relative);
  components(relative);
  const parent = await checkedDirectory(realRoot, dir, false);
  if (parent === null) return null;
  const path = join(parent, name);
  const stat = await lstatOrNull(path);
  if (stat === null) return null;
  if (stat.isSymbolicLink()) throw new RefusedPath(`${relative} is a symbolic link, which --fix does not follow`);
  if (!stat.isFile()) throw new RefusedPath(`${relative} is not a regular file`);
  // Opened without following a link (O_NOFOLLOW), read up to one byte past the bound.
  const text = await readBounded(path, maxBytes + 1);
  if (Buffer.byteLength(text, 'utf8') > maxBytes) throw new RefusedPath(`${relative} is larger than ${maxBytes} bytes`);
  return text;
}

async function writable(realRoot: string, relative: string, createDirectories: boolean) {
  const { dir, name } = split(relative);
  components(relative);
  const parent = await checkedDirectory(realRoot, dir, createDirectories);
  if (parent === null) throw new RefusedPath(`${relative}: its directory does not exist`);
  const path = join(parent, name);
  const stat = await lstatOrNull(path);
  if (stat !== null && stat.isSymbolicLink()) throw new RefusedPath(`${relative} is a symbolic link, which --fix does not write through`);
  if (stat !== null && !stat.isFile()) throw new RefusedPath(`${relative} is not a regular file`);
  return { parent, path, stat };
}

/** Throws `RefusedPath` unless `relative` could be written by `writeInside` (an existing directory, no link). */
export async function checkWritable(realRoot: string, relative: string): Promise<void> {
  await writable(realRoot, relative, false);
}

/**
 * Writes `text` to the regular file `relative` (created when missing, with its directories when
 * `createDirectories`): the path is checked just before writing, the text goes to a new temporary file beside
 * it (exclusive create: nothing existing is followed or overwritten) and replaces the target by rename.
 */
export async function writeInside(realRoot: string, relative: string, text: string, createDirectories = false): Promise<void> {
  const { parent, path, stat } = await writable(realRoot, relative, createDirectories);
  const name = split(relative).name;
  const temporary = join(parent, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temporary, text, { flag: 'wx', mode: stat === null ? 0o644 : stat.mode & 0o777 });
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}
