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
  for (let i = 0; i < text.length; i++) {
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

function digest(): string {
  let a = h1;
  let b = h2;
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return (4294967296 * (2097151 & b) + (a >>> 0)).toString(16).padStart(14, '0');
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
  return text.slice(start, Math.min(Math.max(end, start + 1), start + 120)).replace(/\s+/g, ' ').trim();
}
