import { http, HttpResponse } from 'msw';

/**
 * Action repositories on a fake GitHub, answering the REST reads of the online audits with GitHub's
 * response shapes (repository, tags, branches, compare, matching-refs, git refs and annotated tags) and
 * counting every request. Commits form a graph: a commit is on a ref when the ref's head reaches it.
 */
export interface FakeActionRepository {
  defaultBranch: string;
  /** sha -> parent shas; commits of forks live here too (GitHub shares a network's objects). */
  commits: Record<string, string[]>;
  branches: Record<string, string>;
  tags: Record<string, string>;
  /** Tag names that are annotated (their ref points at a tag object). */
  annotated?: string[];
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

  add(fullName: string, repository: FakeActionRepository): this {
    this.repositories.set(fullName.toLowerCase(), repository);
    return this;
  }

  get handlers() {
    return [
      http.get(`${API}/repos/:owner/:repo/*`, ({ request, params }) => this.#answer(request, `${String(params.owner)}/${String(params.repo)}`, decodeURIComponent(String((params as Record<string, unknown>)['0'] ?? '')))),
      http.get(`${API}/repos/:owner/:repo`, ({ request, params }) => this.#answer(request, `${String(params.owner)}/${String(params.repo)}`, '')),
    ];
  }

  #headers(): Record<string, string> {
    this.remaining = Math.max(0, this.remaining - 1);
    return { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': String(this.remaining), 'x-ratelimit-used': String(5000 - this.remaining), 'x-ratelimit-resource': 'core' };
  }

  #answer(request: Request, fullName: string, rest: string): Response {
    const url = new URL(request.url);
    this.requests.push(`${url.pathname}${url.search}`);
    if (this.rateLimit !== null && this.requests.length > this.rateLimit.after) {
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
    const headers = this.#headers();
    const repo = this.repositories.get(fullName.toLowerCase());
    const notFound = () => HttpResponse.json({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' }, { status: 404, headers });
    if (repo === undefined) return notFound();
    const base = `${API}/repos/${fullName}`;
    if (rest === '') {
      return HttpResponse.json({ id: 1, name: fullName.split('/')[1], full_name: fullName, private: false, default_branch: repo.defaultBranch, archived: false, fork: false }, { headers });
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
