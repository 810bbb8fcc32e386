/**
 * `chainbreaker scan --fix`: fixes a local checkout in place (or prints the diff), with pins resolved from
 * the lock cache and, when it can, from GitHub and the container registries. The engine computes and
 * verifies the edits (lib/engine/fixes); this module does the I/O around it.
 */
import { realpathSync } from 'node:fs';
import { collectRepositoryFiles } from '../codehost/checkout.js';
import { fixRepository, type FixMode, type FixResult } from '../engine/fixes/apply.js';
import { unifiedDiff } from '../engine/fixes/diff.js';
import { pinKey } from '../engine/fixes/by-rule/unpinned-action.js';
import { parseUses } from '../engine/model/uses.js';
import { scanRepository, type ScanOptions } from '../engine/scan.js';
import type { Finding, RepositoryFile } from '../engine/types.js';
import { SourceFile } from '../engine/yaml/source.js';
import { readLock, resolveActionPins, resolveImageDigests, writeLock, type PinLock } from './pins.js';
import { checkWritable, writeInside } from './safe-fs.js';

export interface FixCheckoutOptions extends ScanOptions {
  mode: FixMode;
  /** Print the diff, change nothing (the lock cache included). */
  dryRun: boolean;
  env: Readonly<Record<string, string | undefined>>;
  fetch?: typeof fetch;
  /** The budget of the fixes' computation (the network's wait for pins is not in it); none: unbounded. */
  maxEngineMs?: number;
  /** Told when bounded work starts (its budget) and ends (`null`): the CLI's watchdog (bin/worker-run.ts). */
  watch?: (budgetMs: number | null) => void;
}

export interface FixCheckoutOutcome {
  result: FixResult;
  /** Unified diff of every changed file (paths relative to the checkout). */
  diff: string;
  /** One line each: why pins could not be resolved. */
  networkProblems: string[];
}

/** The scalar text a finding points at (`actions/checkout@v4`, `node:22`). */
function referenceAt(files: readonly RepositoryFile[], finding: Finding): string | null {
  const file = files.find((f) => f.path === finding.file);
  if (file === undefined) return null;
  const source = new SourceFile(file.path, file.text);
  const offset = (source.lineStarts[finding.line - 1] ?? 0) + finding.column - 1;
  const match = /^["']?([^\s"'#]+)/.exec(file.text.slice(offset, offset + 500));
  return match?.[1] ?? null;
}

/** The pins the fixes will ask for that the lock cache lacks. */
function wanted(files: readonly RepositoryFile[], options: ScanOptions, lock: PinLock): { actions: string[]; images: string[] } {
  const actions = new Set<string>();
  const images = new Set<string>();
  for (const finding of scanRepository(files, options).findings) {
    if (finding.rule_id !== 'unpinned-action' && finding.rule_id !== 'unpinned-image') continue;
    const text = referenceAt(files, finding);
    if (text === null) continue;
    if (finding.rule_id === 'unpinned-action') {
      const ref = parseUses(text);
      if (ref.kind === 'repository') {
        const key = pinKey(ref.owner, ref.repo, ref.ref);
        if (!lock.actions.has(key)) actions.add(key);
      }
    } else {
      const image = text.replace(/^docker:\/\//, '');
      if (!image.includes('${{') && !lock.images.has(image)) images.add(image);
    }
  }
  return { actions: [...actions].sort(), images: [...images].sort() };
}

export async function fixCheckout(root: string, options: FixCheckoutOptions): Promise<FixCheckoutOutcome> {
  const files = await collectRepositoryFiles(root);
  const lock = await readLock(root);
  const { maxEngineMs, watch, ...scanOptions } = options;
  watch?.(maxEngineMs ?? null);
  const need = wanted(files, scanOptions, lock);
  watch?.(null);
  const networkProblems: string[] = [];
  let resolvedSomething = false;
  if (need.actions.length > 0) {
    const apiUrl = options.env.GITHUB_API_URL?.trim();
    const { pins, problem } = await resolveActionPins(need.actions, {
      token: options.env.GITHUB_TOKEN?.trim(),
      ...(apiUrl === undefined || apiUrl === '' ? {} : { apiUrl }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    for (const [key, pin] of pins) lock.actions.set(key, pin);
    resolvedSomething ||= pins.size > 0;
    if (problem !== null) networkProblems.push(`action pins: ${problem}`);
  }
  if (need.images.length > 0) {
    const { digests, problem } = await resolveImageDigests(need.images, options.fetch === undefined ? {} : { fetch: options.fetch });
    for (const [image, digest] of digests) lock.images.set(image, digest);
    resolvedSomething ||= digests.size > 0;
    if (problem !== null) networkProblems.push(`image digests: ${problem}`);
  }
  watch?.(maxEngineMs ?? null);
  const result = fixRepository(files, {
    ...scanOptions,
    data: { actionPins: lock.actions, imageDigests: lock.images },
    ...(maxEngineMs === undefined ? {} : { deadline: Date.now() + maxEngineMs }),
  });
  watch?.(null);
  // Each fixed file against the same file as read from disk (by path, whatever the order of result.files).
  const before = new Map(files.map((f) => [f.path, f.text]));
  const diff = result.files.map((f) => unifiedDiff(f.path, before.get(f.path) ?? '', f.text)).join('');
  if (!options.dryRun) {
    // Each fixed file is written inside the checkout without following a link (checked again just before
    // writing, replaced by rename: lib/fix/safe-fs.ts); a path through a link is refused, and the fix fails.
    const realRoot = realpathSync.native(root);
    // All of them first, so that a refused path leaves the checkout as it was.
    for (const path of result.changed) await checkWritable(realRoot, path);
    for (const path of result.changed) {
      const file = result.files.find((f) => f.path === path);
      if (file === undefined) continue;
      await writeInside(realRoot, path, file.text);
    }
    if (resolvedSomething) await writeLock(root, lock);
  }
  return { result, diff, networkProblems };
}

/** What happened, for people (standard error): counts, then each skipped fix with its reason. */
export function formatFixSummary(name: string, outcome: FixCheckoutOutcome, dryRun: boolean): string {
  const { applied, skipped, changed } = outcome.result;
  const verb = dryRun ? 'would fix' : 'fixed';
  const lines = [`chainbreaker: ${name}: ${verb} ${applied.length} finding${applied.length === 1 ? '' : 's'} in ${changed.length} file${changed.length === 1 ? '' : 's'}`];
  const pins = skipped.filter((s) => s.needsNetwork === true);
  const others = skipped.filter((s) => s.needsNetwork !== true);
  for (const s of others) lines.push(`  skipped ${s.rule_id} at ${s.file}:${s.line}: ${s.reason}`);
  if (pins.length > 0) {
    lines.push(`  skipped ${pins.length} pin${pins.length === 1 ? '' : 's'} (needs network or the lock cache .chainbreaker/pins.json):`);
    for (const s of pins) lines.push(`    ${s.file}:${s.line}: ${s.reason.replace(/^needs network: /, '')}`);
  }
  for (const p of outcome.networkProblems) lines.push(`  ${p}`);
  return `${lines.join('\n')}\n`;
}
