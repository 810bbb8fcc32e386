import { advisoryFact, VULNERABILITIES_SELECTION, type AdvisoryFact } from './advisories.js';
import { field } from './client.js';

/**
 * The online audits' GraphQL batches: many repositories (and advisory packages) per query, each under its
 * own alias, with the names in variables (never spliced into the document). One query answers what takes
 * several REST requests per repository: the default branch, the tag and branch heads (annotated tags
 * dereferenced), whether a ref names a branch, a tag or both, and the package's advisories. What GraphQL
 * cannot answer (whether a commit is in a branch's history: the compare API) stays REST.
 */

/** What one repository needs from a query; absent parts are not asked. */
export interface RepositoryNeeds {
  owner: string;
  repo: string;
  defaultBranch?: boolean;
  /** A page of tags / branches, after this cursor (null: the first page). */
  tags?: { after: string | null };
  branches?: { after: string | null };
  /** Refs whose exact `refs/heads/<ref>` and `refs/tags/<ref>` existence is asked. */
  refKinds?: string[];
  /** The package's vulnerabilities (`securityVulnerabilities(ecosystem: ACTIONS, package: "owner/repo")`). */
  advisories?: boolean;
  /** Whether the repository is archived (`isArchived`, `archivedAt`): two scalars on the same alias. */
  archived?: boolean;
}

/** The cached fact `archived:owner/repo`. */
export interface ArchivedFact {
  archived: boolean;
  /** `archivedAt` (ISO 8601) when GitHub gives it. */
  archivedAt: string | null;
}

export interface ListPage {
  items: [name: string, sha: string][];
  hasNextPage: boolean;
  endCursor: string | null;
}

/** What a query taught about one repository; a part is absent when it was not asked or GitHub did not answer it. */
export interface RepositoryAnswer {
  /** GitHub answered NOT_FOUND for the repository. */
  missing?: true;
  /** `isPrivate`: facts of a private repository stay out of the cache shared across users. */
  private?: boolean;
  defaultBranch?: string | null;
  tags?: ListPage;
  branches?: ListPage;
  refKinds?: Map<string, { branch: boolean; tag: boolean }>;
  advisories?: AdvisoryFact;
  archived?: ArchivedFact;
}

/** Repositories (or packages) per query: far inside GitHub's node limit, one point of the rate limit. */
export const BATCH_REPOSITORIES = 25;
const PAGE = 100;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T[0-9:.]+Z$/;

const TAG_TARGET = 'target { __typename oid ... on Tag { target { oid } } }';

export function buildQuery(batch: readonly RepositoryNeeds[]): { query: string; variables: Record<string, unknown> } {
  const declarations: string[] = [];
  const fields: string[] = ['rateLimit { cost remaining resetAt }'];
  const variables: Record<string, unknown> = {};
  const declare = (name: string, type: string, value: unknown) => {
    declarations.push(`$${name}: ${type}`);
    variables[name] = value;
  };
  batch.forEach((needs, i) => {
    const parts: string[] = [];
    if (needs.defaultBranch === true) parts.push('defaultBranchRef { name }');
    if (needs.archived === true) parts.push('isArchived archivedAt');
    if (needs.tags !== undefined) {
      declare(`ta${i}`, 'String', needs.tags.after);
      parts.push(`tags: refs(refPrefix: "refs/tags/", first: ${PAGE}, after: $ta${i}) { pageInfo { hasNextPage endCursor } nodes { name ${TAG_TARGET} } }`);
    }
    if (needs.branches !== undefined) {
      declare(`ba${i}`, 'String', needs.branches.after);
      parts.push(`branches: refs(refPrefix: "refs/heads/", first: ${PAGE}, after: $ba${i}) { pageInfo { hasNextPage endCursor } nodes { name target { oid } } }`);
    }
    (needs.refKinds ?? []).forEach((ref, j) => {
      declare(`h${i}_${j}`, 'String!', `refs/heads/${ref}`);
      declare(`t${i}_${j}`, 'String!', `refs/tags/${ref}`);
      parts.push(`h${j}: ref(qualifiedName: $h${i}_${j}) { name } t${j}: ref(qualifiedName: $t${i}_${j}) { name }`);
    });
    if (parts.length > 0) {
      // Visibility with every repository asked: a private repository's facts are this installation's alone.
      parts.unshift('isPrivate');
      declare(`o${i}`, 'String!', needs.owner);
      declare(`n${i}`, 'String!', needs.repo);
      fields.push(`r${i}: repository(owner: $o${i}, name: $n${i}) { ${parts.join(' ')} }`);
    }
    if (needs.advisories === true) {
      declare(`p${i}`, 'String!', `${needs.owner}/${needs.repo}`);
      fields.push(`a${i}: securityVulnerabilities(ecosystem: ACTIONS, package: $p${i}, first: 100) { ${VULNERABILITIES_SELECTION} }`);
    }
  });
  const head = declarations.length === 0 ? 'query OnlineAudit' : `query OnlineAudit(${declarations.join(', ')})`;
  return { query: `${head} { ${fields.join(' ')} }`, variables };
}

/**
 * The answers of a batch, by index. A repository GitHub says it does not know is `missing`; a field that
 * failed otherwise (FORBIDDEN, a timeout, a malformed answer) is left out, so its fact is read over REST.
 */
export function parseAnswer(batch: readonly RepositoryNeeds[], body: unknown): RepositoryAnswer[] {
  const data = field(body, 'data');
  const errors = field(body, 'errors');
  const notFound = new Set<string>();
  if (Array.isArray(errors)) {
    for (const error of errors) {
      const path = field(error, 'path');
      if (field(error, 'type') === 'NOT_FOUND' && Array.isArray(path) && typeof path[0] === 'string' && path.length === 1) notFound.add(path[0]);
    }
  }
  return batch.map((needs, i): RepositoryAnswer => {
    const answer: RepositoryAnswer = {};
    if (needs.advisories === true) {
      const fact = advisoryFact(field(data, `a${i}`));
      if (fact !== null) answer.advisories = fact;
    }
    const repository = field(data, `r${i}`);
    if (repository === null && notFound.has(`r${i}`)) return { ...answer, missing: true };
    if (typeof repository !== 'object' || repository === null) return answer;
    const isPrivate = field(repository, 'isPrivate');
    if (typeof isPrivate === 'boolean') answer.private = isPrivate;
    if (needs.defaultBranch === true) {
      const ref = field(repository, 'defaultBranchRef');
      const name = field(ref, 'name');
      if (ref === null) answer.defaultBranch = null;
      else if (typeof name === 'string') answer.defaultBranch = name;
    }
    if (needs.archived === true) {
      const archived = field(repository, 'isArchived');
      const at = field(repository, 'archivedAt');
      if (typeof archived === 'boolean') answer.archived = { archived, archivedAt: typeof at === 'string' && ISO_DATE.test(at) ? at.slice(0, 40) : null };
    }
    if (needs.tags !== undefined) {
      const page = listPage(field(repository, 'tags'));
      if (page !== null) answer.tags = page;
    }
    if (needs.branches !== undefined) {
      const page = listPage(field(repository, 'branches'));
      if (page !== null) answer.branches = page;
    }
    if (needs.refKinds !== undefined) {
      const kinds = new Map<string, { branch: boolean; tag: boolean }>();
      needs.refKinds.forEach((ref, j) => {
        const head = field(repository, `h${j}`);
        const tag = field(repository, `t${j}`);
        // A ref GitHub does not have is null; undefined means the field failed.
        if (head !== undefined && tag !== undefined) kinds.set(ref, { branch: head !== null, tag: tag !== null });
      });
      answer.refKinds = kinds;
    }
    return answer;
  });
}

/** A page of `refs`: names with their commits (an annotated tag's target commit). */
function listPage(connection: unknown): ListPage | null {
  const nodes = field(connection, 'nodes');
  const pageInfo = field(connection, 'pageInfo');
  const hasNextPage = field(pageInfo, 'hasNextPage');
  const endCursor = field(pageInfo, 'endCursor');
  if (!Array.isArray(nodes) || typeof hasNextPage !== 'boolean') return null;
  const items: [string, string][] = [];
  for (const node of nodes) {
    const name = field(node, 'name');
    const target = field(node, 'target');
    const sha = field(target, '__typename') === 'Tag' ? field(field(target, 'target'), 'oid') : field(target, 'oid');
    if (typeof name === 'string' && typeof sha === 'string') items.push([name, sha.toLowerCase()]);
  }
  return { items, hasNextPage, endCursor: typeof endCursor === 'string' ? endCursor : null };
}
