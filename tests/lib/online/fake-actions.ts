import { execute, GraphQLError } from 'graphql';
import { http, HttpResponse } from 'msw';
import { prepare } from '../../support/github/graphql.js';
import { githubSchema } from '../../support/github/schema.js';

/**
 * Action repositories on a fake GitHub, answering the REST reads of the online audits with GitHub's
 * response shapes (repository, tags, branches, compare, matching-refs, git refs and annotated tags) and
 * their GraphQL queries (`POST /graphql`: validated and executed against GitHub's published schema,
 * `@octokit/graphql-schema`, so a field GitHub does not have fails the test; `repository` with
 * `defaultBranchRef`, `refs`, `ref`; `securityVulnerabilities`; `rateLimit`), counting every request.
 * Commits form a graph: a commit is on a ref when the ref's head reaches it.
 */
export interface FakeActionRepository {
  defaultBranch: string;
  /** sha -> parent shas; commits of forks live here too (GitHub shares a network's objects). */
  commits: Record<string, string[]>;
  branches: Record<string, string>;
  tags: Record<string, string>;
  /** Tag names that are annotated (their ref points at a tag object). */
  annotated?: string[];
  /** Archived by its owner, at this time (ISO 8601); `true` when GitHub gives no date. */
  archived?: string | true;
  /** A private repository the token can read (GraphQL `isPrivate`, REST `private` and `visibility`). */
  private?: boolean;
  /** Published releases by tag name, with GitHub's `immutable` flag (REST `releases/tags/{tag}`); a tag without one answers 404. */
  releases?: Record<string, { immutable: boolean }>;
}

/** One vulnerability of a package in the fake Advisory Database. */
export interface FakeVulnerability {
  ghsaId: string;
  summary: string;
  severity: 'LOW' | 'MODERATE' | 'HIGH' | 'CRITICAL';
  range: string;
  patched: string | null;
  cve?: string;
  withdrawn?: boolean;
}

export const API = 'https://api.github.com';

export function sha(seed: string): string {
  let out = '';
  let h = 0x811c9dc5;
  while (out.length < 40) {
    for (const ch of `${seed}${out.length}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 40);
}

function tagObjectSha(name: string): string {
  return sha(`tag-object-${name}`);
}

export class FakeActions {
  readonly repositories = new Map<string, FakeActionRepository>();
  requests: string[] = [];
  /** x-ratelimit-remaining sent with each answer (decremented per request). */
  remaining = 5000;
  /** Answer every request with this rate-limit fault once `requests.length` reaches `after`. */
  rateLimit: { after: number; kind: '403' | '429' } | null = null;
  /** Vulnerabilities by package (`owner/repo`, lower case). */
  readonly advisories = new Map<string, FakeVulnerability[]>();
  /** GraphQL points left (`rateLimit.remaining`); each query costs one. */
  graphqlRemaining = 5000;
  /** Answer GraphQL queries with GitHub's RATE_LIMITED error (200) or a 403 with `x-ratelimit-remaining: 0`. */
  graphqlLimited: 'error' | '403' | null = null;
  /** Queries received (the documents), for assertions on batching. */
  queries: string[] = [];

  advise(pkg: string, ...vulnerabilities: FakeVulnerability[]): this {
    this.advisories.set(pkg.toLowerCase(), [...(this.advisories.get(pkg.toLowerCase()) ?? []), ...vulnerabilities]);
    return this;
  }

  add(fullName: string, repository: FakeActionRepository): this {
    this.repositories.set(fullName.toLowerCase(), repository);
    return this;
  }

  get handlers() {
    return [
      http.post(`${API}/graphql`, async ({ request }) => this.#graphql(request),),
      http.get(`${API}/repos/:owner/:repo/*`, ({ request, params }) => this.#answer(request, `${String(params.owner)}/${String(params.repo)}`, decodeURIComponent(String((params as Record<string, unknown>)['0'] ?? '')))),
      http.get(`${API}/repos/:owner/:repo`, ({ request, params }) => this.#answer(request, `${String(params.owner)}/${String(params.repo)}`, '')),
    ];
  }

  #headers(): Record<string, string> {
    this.remaining = Math.max(0, this.remaining - 1);
    return { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': String(this.remaining), 'x-ratelimit-used': String(5000 - this.remaining), 'x-ratelimit-resource': 'core' };
  }

  async #graphql(request: Request): Promise<Response> {
    this.requests.push('POST /graphql');
    const limited = this.#limited();
    if (limited !== null) return limited;
    const { query, variables } = (await request.json()) as { query: string; variables?: Record<string, unknown> };
    this.queries.push(query);
    const headers = { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': String(Math.max(0, this.graphqlRemaining - 1)), 'x-ratelimit-resource': 'graphql' };
    if (this.graphqlLimited === '403') {
      return HttpResponse.json({ message: 'API rate limit exceeded for installation ID 1.', documentation_url: 'https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api' }, { status: 403, headers: { ...headers, 'x-ratelimit-remaining': '0' } });
    }
    if (this.graphqlLimited === 'error' || this.graphqlRemaining <= 0) {
      return HttpResponse.json({ errors: [{ type: 'RATE_LIMITED', code: 'graphql_rate_limit', message: 'API rate limit already exceeded for installation ID 1.' }] }, { headers: { ...headers, 'x-ratelimit-remaining': '0' } });
    }
    this.graphqlRemaining--;
    const document = prepare(query);
    if (!('kind' in document)) return HttpResponse.json({ errors: document.map((e) => ({ message: e.message, locations: e.locations })) }, { headers });
    const rootValue = {
      rateLimit: () => ({ cost: 1, limit: 5000, nodeCount: 1, remaining: this.graphqlRemaining, resetAt: '2026-11-26T15:00:00Z', used: 5000 - this.graphqlRemaining }),
      repository: ({ owner, name }: { owner: string; name: string }) => {
        const repo = this.repositories.get(`${owner}/${name}`.toLowerCase());
        if (repo === undefined) throw new GraphQLError(`Could not resolve to a Repository with the name '${owner}/${name}'.`, { extensions: { type: 'NOT_FOUND' } });
        return repositoryObject(`${owner}/${name}`, repo);
      },
      securityVulnerabilities: ({ ecosystem, package: pkg, first }: { ecosystem?: string; package?: string; first?: number }) => {
        const all = ecosystem === 'ACTIONS' && pkg !== undefined ? (this.advisories.get(pkg.toLowerCase()) ?? []) : [];
        return connection(all.map((v) => vulnerabilityObject(pkg ?? '', v)), first, 0);
      },
    };
    const result = await execute({ schema: githubSchema(), document, rootValue, variableValues: variables ?? {} });
    const body: Record<string, unknown> = { data: result.data ?? null };
    if (result.errors !== undefined && result.errors.length > 0) {
      body.errors = result.errors.map((e) => ({ ...(typeof e.extensions.type === 'string' ? { type: e.extensions.type } : {}), path: e.path, locations: e.locations, message: e.message }));
    }
    return HttpResponse.json(body, { headers });
  }

  /** The REST rate-limit fault, once `requests` passed `rateLimit.after` (REST and GraphQL alike). */
  #limited(): Response | null {
    if (this.rateLimit === null || this.requests.length <= this.rateLimit.after) return null;
    if (this.rateLimit.kind === '403') {
      return HttpResponse.json(
        { message: 'API rate limit exceeded for installation ID 1.', documentation_url: 'https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting' },
        { status: 403, headers: { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1764000000' } },
      );
    }
    return HttpResponse.json(
      { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits' },
      { status: 429, headers: { 'retry-after': '60' } },
    );
  }

  #answer(request: Request, fullName: string, rest: string): Response {
    const url = new URL(request.url);
    this.requests.push(`${url.pathname}${url.search}`);
    const limited = this.#limited();
    if (limited !== null) return limited;
    const headers = this.#headers();
    const repo = this.repositories.get(fullName.toLowerCase());
    const notFound = () => HttpResponse.json({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' }, { status: 404, headers });
    if (repo === undefined) return notFound();
    const base = `${API}/repos/${fullName}`;
    if (rest === '') {
      return HttpResponse.json({ id: 1, name: fullName.split('/')[1], full_name: fullName, private: repo.private === true, visibility: repo.private === true ? 'private' : 'public', default_branch: repo.defaultBranch, archived: repo.archived !== undefined, fork: false }, { headers });
    }
    const page = Number(url.searchParams.get('page') ?? '1');
    const perPage = Number(url.searchParams.get('per_page') ?? '30');
    if (rest === 'tags' || rest === 'branches') {
      const all = Object.entries(rest === 'tags' ? repo.tags : repo.branches).sort(([a], [b]) => (a < b ? 1 : -1));
      const items = all.slice((page - 1) * perPage, page * perPage).map(([name, commit]) =>
        rest === 'tags'
          ? { name, zipball_url: `${base}/zipball/refs/tags/${name}`, tarball_url: `${base}/tarball/refs/tags/${name}`, commit: { sha: commit, url: `${base}/commits/${commit}` }, node_id: 'REF_x' }
          : { name, commit: { sha: commit, url: `${base}/commits/${commit}` }, protected: name === repo.defaultBranch },
      );
      return HttpResponse.json(items, { headers });
    }
    const compare = /^compare\/(.+)\.\.\.([0-9a-f]{40})$/.exec(rest);
    if (compare !== null) {
      const [, baseRef = '', head = ''] = compare;
      const baseSha = repo.branches[baseRef] ?? repo.tags[baseRef] ?? (baseRef in repo.commits ? baseRef : undefined);
      if (baseSha === undefined || !(head in repo.commits)) return notFound();
      const behind = reaches(repo, baseSha, head);
      const ahead = reaches(repo, head, baseSha);
      const status = head === baseSha ? 'identical' : behind ? 'behind' : ahead ? 'ahead' : 'diverged';
      return HttpResponse.json(
        {
          url: `${base}/compare/${baseRef}...${head}`,
          status,
          ahead_by: status === 'ahead' || status === 'diverged' ? 1 : 0,
          behind_by: status === 'behind' || status === 'diverged' ? 1 : 0,
          total_commits: status === 'ahead' || status === 'diverged' ? 1 : 0,
          base_commit: { sha: baseSha },
          merge_base_commit: { sha: baseSha },
          commits: [],
          files: [],
        },
        { headers },
      );
    }
    const matching = /^git\/matching-refs\/(heads|tags)\/(.+)$/.exec(rest);
    if (matching !== null) {
      const [, kind = '', prefix = ''] = matching;
      const refs = Object.entries(kind === 'heads' ? repo.branches : repo.tags)
        .filter(([name]) => name.startsWith(prefix))
        .map(([name, commit]) => ({ ref: `refs/${kind}/${name}`, node_id: 'REF_x', url: `${base}/git/refs/${kind}/${name}`, object: { sha: commit, type: 'commit', url: `${base}/git/commits/${commit}` } }));
      return HttpResponse.json(refs, { headers });
    }
    const release = /^releases\/tags\/(.+)$/.exec(rest);
    if (release !== null) {
      const tag = release[1] ?? '';
      const found = repo.releases?.[tag];
      if (found === undefined || !(tag in repo.tags)) return notFound();
      return HttpResponse.json(
        { url: `${base}/releases/1`, id: 1, tag_name: tag, target_commitish: repo.defaultBranch, name: tag, draft: false, prerelease: false, immutable: found.immutable, created_at: '2026-01-02T03:04:05Z', published_at: '2026-01-02T03:04:05Z', assets: [] },
        { headers },
      );
    }
    const tagRef = /^git\/ref\/tags\/(.+)$/.exec(rest);
    if (tagRef !== null) {
      const name = tagRef[1] ?? '';
      const commit = repo.tags[name];
      if (commit === undefined) return notFound();
      const annotated = repo.annotated?.includes(name) === true;
      const object = annotated ? { sha: tagObjectSha(name), type: 'tag', url: `${base}/git/tags/${tagObjectSha(name)}` } : { sha: commit, type: 'commit', url: `${base}/git/commits/${commit}` };
      return HttpResponse.json({ ref: `refs/tags/${name}`, node_id: 'REF_x', url: `${base}/git/refs/tags/${name}`, object }, { headers });
    }
    const tagObject = /^git\/tags\/([0-9a-f]{40})$/.exec(rest);
    if (tagObject !== null) {
      const name = (repo.annotated ?? []).find((n) => tagObjectSha(n) === tagObject[1]);
      if (name === undefined) return notFound();
      return HttpResponse.json({ sha: tagObject[1], tag: name, message: name, object: { sha: repo.tags[name], type: 'commit' } }, { headers });
    }
    return notFound();
  }
}

/** Whether `from` reaches `target` through parents. */
function reaches(repo: FakeActionRepository, from: string, target: string): boolean {
  const stack = [from];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const current = stack.pop() ?? '';
    if (current === target) return true;
    if (seen.has(current)) continue;
    seen.add(current);
    stack.push(...(repo.commits[current] ?? []));
  }
  return false;
}

function connection<T>(items: readonly T[], first: number | undefined, offset: number): Record<string, unknown> {
  const nodes = items.slice(offset, first === undefined ? undefined : offset + first);
  const end = offset + nodes.length;
  return {
    totalCount: items.length,
    nodes,
    edges: nodes.map((node, i) => ({ cursor: cursor(offset + i), node })),
    pageInfo: { hasNextPage: end < items.length, hasPreviousPage: offset > 0, startCursor: nodes.length > 0 ? cursor(offset) : null, endCursor: nodes.length > 0 ? cursor(end - 1) : null },
  };
}

function cursor(index: number): string {
  return Buffer.from(`cursor:v2:${index}`).toString('base64');
}

function offsetAfter(after: string | null | undefined): number {
  if (after === null || after === undefined) return 0;
  const match = /^cursor:v2:(\d+)$/.exec(Buffer.from(after, 'base64').toString());
  return match === null ? 0 : Number(match[1]) + 1;
}

function gitTarget(fullName: string, repo: FakeActionRepository, name: string, commit: string): Record<string, unknown> {
  const commitObject = { __typename: 'Commit', oid: commit, id: `C_${commit}` };
  return repo.annotated?.includes(name) === true ? { __typename: 'Tag', oid: tagObjectSha(name), id: `TAG_${name}`, name, target: commitObject } : commitObject;
}

function repositoryObject(fullName: string, repo: FakeActionRepository): Record<string, unknown> {
  const refObject = (prefix: 'refs/heads/' | 'refs/tags/', name: string, commit: string) => ({
    __typename: 'Ref',
    id: `REF_${prefix}${name}`,
    name,
    prefix,
    target: prefix === 'refs/tags/' ? gitTarget(fullName, repo, name, commit) : { __typename: 'Commit', oid: commit, id: `C_${commit}` },
  });
  const refsOf = (prefix: string) => (prefix === 'refs/heads/' ? repo.branches : prefix === 'refs/tags/' ? repo.tags : null);
  return {
    __typename: 'Repository',
    nameWithOwner: fullName,
    isPrivate: repo.private === true,
    isArchived: repo.archived !== undefined,
    archivedAt: typeof repo.archived === 'string' ? repo.archived : null,
    defaultBranchRef: () => {
      const head = repo.branches[repo.defaultBranch];
      return head === undefined ? null : refObject('refs/heads/', repo.defaultBranch, head);
    },
    // GitHub orders refs alphabetically by default.
    refs: ({ refPrefix, first, after }: { refPrefix: string; first?: number; after?: string | null }) => {
      const refs = refsOf(refPrefix);
      if (refs === null) return connection([], first, 0);
      const items = Object.entries(refs)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, commit]) => refObject(refPrefix as 'refs/heads/' | 'refs/tags/', name, commit));
      return connection(items, first, offsetAfter(after));
    },
    ref: ({ qualifiedName }: { qualifiedName: string }) => {
      for (const prefix of ['refs/heads/', 'refs/tags/'] as const) {
        if (!qualifiedName.startsWith(prefix)) continue;
        const name = qualifiedName.slice(prefix.length);
        const commit = refsOf(prefix)?.[name];
        return commit === undefined ? null : refObject(prefix, name, commit);
      }
      return null;
    },
  };
}

function vulnerabilityObject(pkg: string, v: FakeVulnerability): Record<string, unknown> {
  return {
    __typename: 'SecurityVulnerability',
    vulnerableVersionRange: v.range,
    firstPatchedVersion: v.patched === null ? null : { identifier: v.patched },
    severity: v.severity,
    updatedAt: '2026-11-01T00:00:00Z',
    package: { ecosystem: 'ACTIONS', name: pkg },
    advisory: {
      __typename: 'SecurityAdvisory',
      ghsaId: v.ghsaId,
      summary: v.summary,
      severity: v.severity,
      permalink: `https://github.com/advisories/${v.ghsaId}`,
      publishedAt: '2026-10-01T00:00:00Z',
      withdrawnAt: v.withdrawn === true ? '2026-10-20T00:00:00Z' : null,
      identifiers: [{ type: 'GHSA', value: v.ghsaId }, ...(v.cve === undefined ? [] : [{ type: 'CVE', value: v.cve }])],
    },
  };
}
