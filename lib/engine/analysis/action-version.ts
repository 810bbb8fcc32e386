import type { SourceFile } from '../yaml/source.js';
import type { YScalar } from '../yaml/model.js';

/** A version-like action ref: `v4`, `v4.1`, `v4.1.0`, `4.1.0-beta`. */
export interface RefVersion {
  /** Up to three numeric components, as written. */
  parts: number[];
  /** A major or major.minor tag (`v4`), which moves to the newest release of that line. */
  floating: boolean;
  /** The ref without a leading `v`. */
  normalized: string;
}

const VERSION = /^v?(\d{1,9})(?:\.(\d{1,9}))?(?:\.(\d{1,9}))?([-+][0-9A-Za-z.-]*)?$/;

export function parseRefVersion(ref: string): RefVersion | null {
  const trimmed = ref.trim();
  const match = VERSION.exec(trimmed);
  if (match === null) return null;
  // Every step's action ref is read so (checkout's in every job): the components pushed as present, no list filtered.
  const parts = [Number(match[1])];
  if (match[2] !== undefined) parts.push(Number(match[2]));
  if (match[3] !== undefined) parts.push(Number(match[3]));
  return { parts, floating: parts.length < 3 && match[4] === undefined, normalized: trimmed.charCodeAt(0) === 0x76 /* v */ ? trimmed.slice(1) : trimmed };
}

export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export function parseVersion(text: string): number[] {
  return text
    .replace(/^v/, '')
    .split('.')
    .slice(0, 3)
    .map((p) => Number.parseInt(p, 10) || 0);
}

/**
 * True when `version` falls in `[introduced, fixed)`. A floating tag is judged by the newest release it
 * can point to (`v4` as 4.∞.∞).
 */
export function inRange(version: RefVersion, introduced: string, fixed: string | undefined): boolean {
  const low = parseVersion(introduced);
  const newest = [...version.parts];
  while (newest.length < 3) newest.push(Number.MAX_SAFE_INTEGER);
  if (compareVersions(newest, low) < 0) return false;
  return fixed === undefined || compareVersions(newest, parseVersion(fixed)) < 0;
}

/**
 * The version named by the comment after a `uses:` value (`@<sha> # v4.2.0`, `# tag: v4`,
 * `# owner/repo@v4`), or null.
 */
export function versionComment(file: SourceFile, uses: YScalar): RefVersion | null {
  const text = file.text;
  let end = text.indexOf('\n', uses.end);
  if (end === -1) end = text.length;
  const rest = text.slice(uses.end, Math.min(end, uses.end + 200));
  const match = /^[^#]*#\s*(?:[\w-]+:\s*)?(?:[\w.-]+\/[\w.-]+[^@\s]*@)?(v?\d[\w.+-]*)/.exec(rest);
  return match?.[1] === undefined ? null : parseRefVersion(match[1]);
}
