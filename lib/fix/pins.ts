/**
 * Resolving pins for the unpinned-action and unpinned-image fixes, outside the (pure) engine: the lock cache
 * `.chainbreaker/pins.json`, one GitHub GraphQL request per run for action refs (annotated and lightweight
 * tags, then branches), and registry manifest lookups for Docker Hub and GHCR images. Anything that cannot
 * be resolved stays unresolved: the fix reports it as needing the network and never invents a SHA.
 */
import { realpathSync } from 'node:fs';
import { readInside, writeInside } from './safe-fs.js';
import * as v from 'valibot';
import type { ActionPin } from '../engine/fixes/types.js';
import { graphqlUrl } from '../codehost/github/client.js';

export const LOCK_PATH = '.chainbreaker/pins.json';
const MAX_LOCK_BYTES = 1_000_000;
/** Refs resolved per run: one GraphQL request, bounded in size. */
export const MAX_REFS_PER_RUN = 100;
const TIMEOUT_MS = 15_000;

const Sha = v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/));
const LockSchema = v.object({
  version: v.literal(1),
  actions: v.optional(v.record(v.string(), v.object({ sha: Sha, version: v.nullable(v.string()) })), {}),
  images: v.optional(v.record(v.string(), v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/))), {}),
});

export interface PinLock {
  actions: Map<string, ActionPin>;
  images: Map<string, string>;
}

export function emptyLock(): PinLock {
  return { actions: new Map(), images: new Map() };
}

/** Reads the lock cache of a checkout; a missing file is an empty cache, a malformed one an error. */
export async function readLock(root: string): Promise<PinLock> {
  let text: string | null;
  try {
    // Inside the checkout, no link followed, bounded (lib/fix/safe-fs.ts).
    text = await readInside(realpathSync.native(root), LOCK_PATH, MAX_LOCK_BYTES);
  } catch (error) {
    throw new Error(`cannot read ${LOCK_PATH}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (text === null) return emptyLock();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${LOCK_PATH} is not valid JSON: fix or delete it`);
  }
  const parsed = v.safeParse(LockSchema, json);
  if (!parsed.success) throw new Error(`${LOCK_PATH} is not a pins lock (version 1 with actions and images): fix or delete it`);
  return { actions: new Map(Object.entries(parsed.output.actions)), images: new Map(Object.entries(parsed.output.images)) };
}

/** Writes the lock cache, keys sorted, so it diffs well in review. */
export async function writeLock(root: string, lock: PinLock): Promise<void> {
  const sorted = <T>(map: Map<string, T>) => Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  // `.chainbreaker` and the lock are checked not to be links, and the lock is replaced by rename (safe-fs.ts).
  await writeInside(realpathSync.native(root), LOCK_PATH, `${JSON.stringify({ version: 1, actions: sorted(lock.actions), images: sorted(lock.images) }, null, 2)}\n`, true);
}

type Fetch = typeof fetch;

interface GitObject {
  __typename?: string;
  oid?: string;
  target?: GitObject | null;
}

interface RefNode {
  name: string;
  target: GitObject | null;
}

/** The commit a ref's target names, through annotated tags (a tag may point at a tag). */
function commitOf(object: GitObject | null | undefined, depth = 0): string | null {
  if (object === null || object === undefined || depth > 4) return null;
  if (object.__typename === 'Commit') return object.oid ?? null;
  if (object.__typename === 'Tag') return commitOf(object.target, depth + 1);
  return null;
}

const TARGET = 'target { __typename oid ... on Tag { target { __typename oid ... on Tag { target { __typename oid } } } } }';

/** The GraphQL document resolving each `owner/repo@ref` (alias `r<i>`): tag, branch, and tags that share the prefix. */
export function pinQuery(keys: readonly string[]): string {
  const parts = keys.map((key, i) => {
    const at = key.lastIndexOf('@');
    const [owner = '', name = ''] = key.slice(0, at).split('/');
    const ref = key.slice(at + 1);
    return (
      `r${i}: repository(owner: ${JSON.stringify(owner)}, name: ${JSON.stringify(name)}) { ` +
      `tag: ref(qualifiedName: ${JSON.stringify(`refs/tags/${ref}`)}) { name ${TARGET} } ` +
      `branch: ref(qualifiedName: ${JSON.stringify(`refs/heads/${ref}`)}) { name ${TARGET} } ` +
      `versions: refs(refPrefix: "refs/tags/", query: ${JSON.stringify(ref)}, first: 50, orderBy: { field: TAG_COMMIT_DATE, direction: DESC }) { nodes { name ${TARGET} } } }`
    );
  });
  return `query { ${parts.join(' ')} }`;
}

/** The most specific release tag on the same commit (`v4` -> `v4.2.2`), else the ref itself. */
function versionFor(ref: string, sha: string, versions: readonly RefNode[]): string {
  const same = versions.filter((n) => commitOf(n.target) === sha && n.name.startsWith(ref)).map((n) => n.name);
  same.sort((a, b) => b.split('.').length - a.split('.').length || b.length - a.length);
  return same[0] ?? ref;
}

export interface ResolveResult {
  pins: Map<string, ActionPin>;
  /** Why nothing or not everything was resolved (no token, network error), one line; null when all went well. */
  problem: string | null;
}

/** Resolves action refs with one GraphQL request (at most MAX_REFS_PER_RUN refs). */
export async function resolveActionPins(keys: readonly string[], options: { token: string | undefined; apiUrl?: string; fetch?: Fetch }): Promise<ResolveResult> {
  const pins = new Map<string, ActionPin>();
  if (keys.length === 0) return { pins, problem: null };
  if (options.token === undefined || options.token === '') return { pins, problem: 'GITHUB_TOKEN is not set' };
  const batch = keys.slice(0, MAX_REFS_PER_RUN);
  const doFetch = options.fetch ?? fetch;
  let body: { data?: Record<string, { tag: RefNode | null; branch: RefNode | null; versions: { nodes: RefNode[] } | null } | null> | null; errors?: unknown[] };
  try {
    const response = await doFetch(graphqlUrl(options.apiUrl ?? 'https://api.github.com'), {
      method: 'POST',
      headers: { authorization: `bearer ${options.token}`, 'content-type': 'application/json', 'user-agent': 'chainbreaker' },
      body: JSON.stringify({ query: pinQuery(batch) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) return { pins, problem: `GitHub answered ${response.status} to the pin lookup` };
    body = (await response.json()) as typeof body;
  } catch (error) {
    return { pins, problem: `GitHub is unreachable (${error instanceof Error ? error.message : String(error)})` };
  }
  batch.forEach((key, i) => {
    const repository = body.data?.[`r${i}`];
    if (repository === null || repository === undefined) return;
    const ref = key.slice(key.lastIndexOf('@') + 1);
    const sha = commitOf(repository.tag?.target) ?? commitOf(repository.branch?.target);
    if (sha === null || !/^[0-9a-f]{40}$/.test(sha)) return;
    pins.set(key, { sha, version: repository.tag === null ? ref : versionFor(ref, sha, repository.versions?.nodes ?? []) });
  });
  const missing = batch.length - pins.size;
  const skipped = keys.length - batch.length;
  const problem =
    missing > 0 || skipped > 0
      ? [missing > 0 ? `${missing} ref${missing === 1 ? '' : 's'} not found on GitHub` : '', skipped > 0 ? `${skipped} more than the ${MAX_REFS_PER_RUN} resolved per run` : ''].filter((s) => s !== '').join('; ')
      : null;
  return { pins, problem };
}

/** `node:22` -> registry, repository and reference; null for images on registries we do not query. */
export function parseImage(image: string): { registry: 'docker.io' | 'ghcr.io'; repository: string; reference: string } | null {
  if (image.includes('@')) return null;
  const slash = image.indexOf('/');
  const first = slash === -1 ? '' : image.slice(0, slash);
  const hasRegistry = first.includes('.') || first.includes(':') || first === 'localhost';
  const registry = hasRegistry ? first : 'docker.io';
  if (registry !== 'docker.io' && registry !== 'ghcr.io' && registry !== 'index.docker.io') return null;
  const rest = hasRegistry ? image.slice(slash + 1) : image;
  const colon = rest.lastIndexOf(':');
  const name = colon === -1 ? rest : rest.slice(0, colon);
  const reference = colon === -1 ? 'latest' : rest.slice(colon + 1);
  if (!/^[a-z0-9._/-]+$/.test(name) || !/^[\w.-]+$/.test(reference)) return null;
  const repository = registry === 'ghcr.io' || name.includes('/') ? name : `library/${name}`;
  return { registry: registry === 'ghcr.io' ? 'ghcr.io' : 'docker.io', repository, reference };
}

const MANIFEST_TYPES = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

/** Digests of public images on Docker Hub and GHCR (anonymous pull tokens); others stay unresolved. */
export async function resolveImageDigests(images: readonly string[], options: { fetch?: Fetch } = {}): Promise<ResolveResult & { digests: Map<string, string> }> {
  const digests = new Map<string, string>();
  const doFetch = options.fetch ?? fetch;
  const problems: string[] = [];
  for (const image of images.slice(0, MAX_REFS_PER_RUN)) {
    const parsed = parseImage(image);
    if (parsed === null) {
      problems.push(`${image}: only Docker Hub and GHCR images are looked up`);
      continue;
    }
    const [auth, registryUrl] =
      parsed.registry === 'ghcr.io'
        ? [`https://ghcr.io/token?scope=repository:${parsed.repository}:pull`, `https://ghcr.io/v2/${parsed.repository}/manifests/${parsed.reference}`]
        : [`https://auth.docker.io/token?service=registry.docker.io&scope=repository:${parsed.repository}:pull`, `https://registry-1.docker.io/v2/${parsed.repository}/manifests/${parsed.reference}`];
    try {
      const tokenResponse = await doFetch(auth, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      const token = tokenResponse.ok ? ((await tokenResponse.json()) as { token?: unknown }).token : undefined;
      if (typeof token !== 'string') throw new Error(`no pull token (${tokenResponse.status})`);
      const manifest = await doFetch(registryUrl, { method: 'HEAD', headers: { authorization: `Bearer ${token}`, accept: MANIFEST_TYPES }, signal: AbortSignal.timeout(TIMEOUT_MS) });
      const digest = manifest.headers.get('docker-content-digest');
      if (!manifest.ok || digest === null || !/^sha256:[0-9a-f]{64}$/.test(digest)) throw new Error(`no digest (${manifest.status})`);
      digests.set(image, digest);
    } catch (error) {
      problems.push(`${image}: needs network (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return { pins: new Map(), digests, problem: problems.length === 0 ? null : problems.join('; ') };
}
