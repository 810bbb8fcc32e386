import { isSpace } from './suppress.js';

/** cyrb53: a fast, well-distributed 53-bit string hash, as 14 hex digits. Deterministic across runtimes. */
export function hash53(text: string): string {
  reset();
  feed(text);
  return digest();
}

// The hash's state, fed piece by piece: hashing the parts of an identity one after another gives the hash
// of their concatenation without building it (a finding's fingerprint is computed for every finding).
let h1 = 0;
let h2 = 0;

function reset(): void {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
}

function feed(text: string): void {
  let a = h1;
  let b = h2;
  // The length read once: before TurboFan optimizes this loop, each read is a call.
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const ch = text.charCodeAt(i);
    a = Math.imul(a ^ ch, 2654435761);
    b = Math.imul(b ^ ch, 1597334677);
  }
  h1 = a;
  h2 = b;
}

/** Feeds the separator `\0`. */
function separator(): void {
  h1 = Math.imul(h1, 2654435761);
  h2 = Math.imul(h2, 1597334677);
}

/** Character codes of the hex digits. */
const HEX = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));

function digest(): string {
  let a = h1;
  let b = h2;
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  // The 53-bit number 2^32 * (b & 0x1fffff) + (a >>> 0) in 14 hex digits, zero-padded: the top 21 bits make the
  // first 6 digits and `a` the last 8. Written digit by digit because Number#toString(16) of a number past 2^31
  // takes the slow path for doubles, and every finding gets a fingerprint.
  const high = b & 0x1fffff;
  return String.fromCharCode(
    HEX[high >>> 20]!,
    HEX[(high >>> 16) & 15]!,
    HEX[(high >>> 12) & 15]!,
    HEX[(high >>> 8) & 15]!,
    HEX[(high >>> 4) & 15]!,
    HEX[high & 15]!,
    HEX[a >>> 28]!,
    HEX[(a >>> 24) & 15]!,
    HEX[(a >>> 20) & 15]!,
    HEX[(a >>> 16) & 15]!,
    HEX[(a >>> 12) & 15]!,
    HEX[(a >>> 8) & 15]!,
    HEX[(a >>> 4) & 15]!,
    HEX[a & 15]!,
  );
}

/**
 * A finding's fingerprint: its rule, file, job binding and anchor (what identifies it apart from its line),
 * and its occurrence among the findings with that identity. The engine's collector and the online audits
 * (whose live findings must match the offline rule's) both use it.
 */
export function findingFingerprint(ruleId: string, file: string, job: string | null, anchor: string, occurrence = 0): string {
  // hash53(`${ruleId}\0${file}\0${job ?? ''}\0${anchor}\0${occurrence}`), without the string.
  reset();
  feed(ruleId);
  separator();
  feed(file);
  separator();
  if (job !== null) feed(job);
  separator();
  feed(anchor);
  separator();
  feed(String(occurrence));
  return digest();
}

/** The anchor of a report on a node that names no key: its first 120 characters, white space collapsed. */
export function nodeAnchor(text: string, start: number, end: number): string {
  const anchor = text.slice(start, Math.min(Math.max(end, start + 1), start + 120));
  return isCollapsed(anchor) ? anchor : anchor.replace(/\s+/g, ' ').trim();
}

/**
 * True when collapsing and trimming white space would leave `text` as it is: its only white space is single
 * spaces between other characters. Most anchors (a `uses:` value, a key, a one-line expression) are, and then
 * need no new string.
 */
function isCollapsed(text: string): boolean {
  const last = text.length - 1;
  for (let i = 0; i <= last; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x20 && code < 0x7f) continue;
    if (code === 0x20) {
      if (i === 0 || i === last || text.charCodeAt(i + 1) === 0x20) return false;
      continue;
    }
    if (isSpace(code)) return false;
  }
  return true;
}
