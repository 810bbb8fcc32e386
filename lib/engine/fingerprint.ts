/** cyrb53: a fast, well-distributed 53-bit string hash, as 14 hex digits. Deterministic across runtimes. */
export function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * A finding's fingerprint: its rule, file, job binding and anchor (what identifies it apart from its line),
 * and its occurrence among the findings with that identity. The engine's collector and the online audits
 * (whose live findings must match the offline rule's) both use it.
 */
export function findingFingerprint(ruleId: string, file: string, job: string | null, anchor: string, occurrence = 0): string {
  return hash53(`${ruleId}\0${file}\0${job ?? ''}\0${anchor}\0${occurrence}`);
}

/** The anchor of a report on a node that names no key: its first 120 characters, white space collapsed. */
export function nodeAnchor(text: string, start: number, end: number): string {
  return text.slice(start, Math.min(Math.max(end, start + 1), start + 120)).replace(/\s+/g, ' ').trim();
}
