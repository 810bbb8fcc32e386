/**
 * Actions whose releases are GitHub immutable releases from a version on: once such a release is published, its
 * tag cannot be moved or deleted and its assets cannot change
 * (https://docs.github.com/en/code-security/concepts/supply-chain-security/immutable-releases), so `uses:` at the
 * exact tag of one (`@v8.2.0`) runs the code that was released, as a commit SHA would. Each entry names the first
 * immutable version and where the action's maintainers say so; a floating tag (`@v8`) is never covered.
 */
export const IMMUTABLE_RELEASES: Readonly<Record<string, { since: readonly [number, number, number]; source: string }>> = {
  'astral-sh/setup-uv': { since: [8, 0, 0], source: 'https://github.com/astral-sh/setup-uv/releases/tag/v8.0.0 ("the first immutable release"; no major or minor tags from v8)' },
};

/** True when `ref` is the exact version tag (`v8.2.0`, `8.2.0`) of an immutable release of `slug` (lower case). */
export function immutableReleaseTag(slug: string, ref: string): boolean {
  const entry = IMMUTABLE_RELEASES[slug];
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(ref);
  if (entry === undefined || m === null) return false;
  const version = [Number(m[1]), Number(m[2]), Number(m[3])];
  for (let i = 0; i < 3; i++) {
    const a = version[i] as number;
    const b = entry.since[i] as number;
    if (a !== b) return a > b;
  }
  return true;
}
