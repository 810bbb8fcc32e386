import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { codeCacheDirectory, codeCacheFile, loadClassicScript, readCodeCache, writeCodeCache, type CacheContext } from '../../lib/cli/code-cache.js';
import { compileCacheDirectory } from '../../lib/cli/compile-cache.js';
import { cleanup, tempDir } from './support.js';

/*
 * The code cache of the CLI's classic-script body (lib/cli/code-cache.ts), in process, on a small CommonJS script
 * of the shape the build writes (dist/cli.cjs). tests/bin/process.test.ts runs the built CLI with it.
 */

afterAll(cleanup);

/*
 * Each load reads its own copy of the script: V8 keeps what it compiled by source and file name for the life of the
 * isolate, and would answer a second compile of the same file from there without looking at the cached data.
 */

/** A script that reports what the loader gave it, with enough functions for V8 to cache. */
const SCRIPT = `"use strict";
function add(a, b) { return a + b; }
function sloppyThis() { return this; }
module.exports = {
  sum: [1, 2, 3].reduce(add, 0),
  url: __cbImportMetaUrl,
  strict: sloppyThis() === undefined,
  join: require('node:path').join('a', 'b'),
  file: __filename,
};
`;

/** A new copy of the script; the same text shares the same cache file. */
function script(text = SCRIPT): string {
  const dir = tempDir({ 'cli.cjs': text });
  return join(dir, 'cli.cjs');
}

const CONTEXT: Omit<CacheContext, 'kind'> = { nodeVersion: 'v20.0.0', arch: 'x64', execArgv: [], nodeOptions: '' };

interface Exports {
  sum: number;
  url: string;
  strict: boolean;
  join: string;
  file: string;
}

describe('codeCacheDirectory', () => {
  it('is code-cache in the user cache directory, absolute only', () => {
    expect(codeCacheDirectory({ XDG_CACHE_HOME: '/var/cache/me', HOME: '/home/me' })).toBe(join('/var/cache/me', 'chainbreaker', 'code-cache'));
    expect(codeCacheDirectory({ HOME: '/home/me' })).toBe(join('/home/me', '.cache', 'chainbreaker', 'code-cache'));
    expect(codeCacheDirectory({ XDG_CACHE_HOME: 'relative', HOME: 'home' })).toBeNull();
    expect(codeCacheDirectory({})).toBeNull();
  });

  it('is off in a GitHub Actions job, whose ~/.cache a workflow may restore from a cache pull requests can write', () => {
    expect(codeCacheDirectory({ GITHUB_ACTIONS: 'true', HOME: '/home/me' })).toBeNull();
    expect(compileCacheDirectory({ GITHUB_ACTIONS: 'true', HOME: '/home/me' })).toBeNull();
    expect(codeCacheDirectory({ GITHUB_ACTIONS: 'false', HOME: '/home/me' })).toBe(join('/home/me', '.cache', 'chainbreaker', 'code-cache'));
  });

  it('is off with CHAINBREAKER_NO_CACHE set (but not empty or 0)', () => {
    expect(codeCacheDirectory({ CHAINBREAKER_NO_CACHE: '1', HOME: '/home/me' })).toBeNull();
    expect(codeCacheDirectory({ CHAINBREAKER_NO_CACHE: 'yes', HOME: '/home/me' })).toBeNull();
    expect(codeCacheDirectory({ CHAINBREAKER_NO_CACHE: '', HOME: '/home/me' })).toBe(join('/home/me', '.cache', 'chainbreaker', 'code-cache'));
    expect(codeCacheDirectory({ CHAINBREAKER_NO_CACHE: '0', HOME: '/home/me' })).toBe(join('/home/me', '.cache', 'chainbreaker', 'code-cache'));
  });
});

describe('codeCacheFile', () => {
  it('changes with the script, the Node binary, the V8 flags and the kind of command', () => {
    const base = codeCacheFile('a', { kind: 'scan', ...CONTEXT });
    expect(base).toMatch(/^scan-[0-9a-f]{32}\.bin$/);
    expect(codeCacheFile('a', { kind: 'scan', ...CONTEXT })).toBe(base);
    expect(codeCacheFile('b', { kind: 'scan', ...CONTEXT })).not.toBe(base);
    expect(codeCacheFile('a', { kind: 'scan', ...CONTEXT, nodeVersion: 'v20.0.1' })).not.toBe(base);
    expect(codeCacheFile('a', { kind: 'scan', ...CONTEXT, arch: 'arm64' })).not.toBe(base);
    expect(codeCacheFile('a', { kind: 'scan', ...CONTEXT, execArgv: ['--max-opt=1'] })).not.toBe(base);
    expect(codeCacheFile('a', { kind: 'scan', ...CONTEXT, nodeOptions: '--jitless' })).not.toBe(base);
    expect(codeCacheFile('a', { kind: 'cli', ...CONTEXT })).toMatch(/^cli-/);
    expect(codeCacheFile('a', { kind: '../x', ...CONTEXT })).toMatch(/^___x-/);
  });
});

describe('readCodeCache and writeCodeCache', () => {
  it('write the data after its digest, atomically, and read back only data that matches it', () => {
    const dir = tempDir();
    const file = join(dir, 'nested', 'c.bin');
    expect(readCodeCache(file)).toEqual({ data: null, present: false });
    expect(writeCodeCache(file, Buffer.from('hello'))).toBe(true);
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 32)).toEqual(createHash('sha256').update('hello').digest());
    expect(readCodeCache(file)).toEqual({ data: Buffer.from('hello'), present: true });
    expect(readdirSync(join(dir, 'nested'))).toEqual(['c.bin']); // no temporary file left
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(file, Buffer.concat([bytes.subarray(0, 32), Buffer.from('hellO')]));
    expect(readCodeCache(file)).toEqual({ data: null, present: true });
    writeFileSync(file, bytes.subarray(0, 20));
    expect(readCodeCache(file)).toEqual({ data: null, present: true });
  });

  it('report failure, without throwing, where the directory cannot be made', () => {
    const blocked = tempDir({ chainbreaker: 'a file, not a directory' });
    expect(writeCodeCache(join(blocked, 'chainbreaker', 'code-cache', 'c.bin'), Buffer.from('x'))).toBe(false);
    expect(readdirSync(blocked)).toEqual(['chainbreaker']);
  });
});

describe('loadClassicScript', () => {
  it('runs the script in strict mode with require, its file and its file URL as import.meta.url', () => {
    const path = script();
    const loaded = loadClassicScript<Exports>(path, { env: { CHAINBREAKER_NO_CACHE: '1' }, kind: 'scan', context: CONTEXT });
    expect(loaded.state).toBe('off');
    expect(loaded.file).toBeNull();
    expect(loaded.exports).toEqual({ sum: 6, url: pathToFileURL(path).href, strict: true, join: join('a', 'b'), file: path });
    expect(loaded.save()).toBe(false);
  });

  it('writes the cache after the first run, then reuses it without writing again', () => {
    const path = script();
    const env = { XDG_CACHE_HOME: tempDir() };
    const first = loadClassicScript<Exports>(path, { env, kind: 'scan', context: CONTEXT });
    expect(first.state).toBe('absent');
    expect(first.file).toBe(join(env.XDG_CACHE_HOME, 'chainbreaker', 'code-cache', codeCacheFile(SCRIPT, { kind: 'scan', ...CONTEXT })));
    expect(first.save()).toBe(true);
    expect(first.save()).toBe(false); // once per load
    const written = readFileSync(first.file ?? '');
    expect(readCodeCache(first.file ?? '').data?.length).toBeGreaterThan(0);
    const second = loadClassicScript<Exports>(script(), { env, kind: 'scan', context: CONTEXT });
    expect(second.state).toBe('accepted');
    expect(second.exports.sum).toBe(6);
    expect(second.save()).toBe(false);
    expect(readFileSync(first.file ?? '')).toEqual(written);
    // Another kind of command has a cache of its own.
    expect(loadClassicScript<Exports>(script(), { env, kind: 'cli', context: CONTEXT }).state).toBe('absent');
  });

  it('refuses a corrupt cache and a cache V8 rejects, runs the same, and replaces it', () => {
    const path = script();
    const env = { XDG_CACHE_HOME: tempDir() };
    const first = loadClassicScript<Exports>(path, { env, kind: 'scan', context: CONTEXT });
    first.save();
    const file = first.file ?? '';
    const good = readFileSync(file);
    // A byte changed: the digest does not match, so V8 never sees it.
    const corrupt = Buffer.from(good);
    corrupt.writeUInt8(corrupt.readUInt8(corrupt.length - 1) ^ 0xff, corrupt.length - 1);
    writeFileSync(file, corrupt);
    const refused = loadClassicScript<Exports>(script(), { env, kind: 'scan', context: CONTEXT });
    expect(refused.state).toBe('rejected');
    expect(refused.exports.sum).toBe(6);
    expect(refused.save()).toBe(true);
    expect(readCodeCache(file).data).not.toBeNull();
    expect(loadClassicScript<Exports>(script(), { env, kind: 'scan', context: CONTEXT }).state).toBe('accepted');
    // Data that matches its digest but is not a code cache of this script: V8 rejects it (cachedDataRejected).
    expect(writeCodeCache(file, Buffer.alloc(good.length, 7))).toBe(true);
    const rejected = loadClassicScript<Exports>(script(), { env, kind: 'scan', context: CONTEXT });
    expect(rejected.state).toBe('rejected');
    expect(rejected.exports.sum).toBe(6);
    expect(rejected.save()).toBe(true);
    expect(loadClassicScript<Exports>(script(), { env, kind: 'scan', context: CONTEXT }).state).toBe('accepted');
  });

  it('runs the same where the cache directory cannot be written', () => {
    const path = script();
    const env = { XDG_CACHE_HOME: tempDir({ chainbreaker: 'a file, not a directory' }) };
    const loaded = loadClassicScript<Exports>(path, { env, kind: 'scan', context: CONTEXT });
    expect(loaded.state).toBe('absent');
    expect(loaded.exports.sum).toBe(6);
    expect(loaded.save()).toBe(false);
  });
});
