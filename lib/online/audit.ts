import { isFullSha } from '../engine/model/uses.js';
import { hash53 } from '../engine/fingerprint.js';
import { findingOf } from '../engine/rule.js';
import { WORKFLOW_RULES } from '../engine/rules/index.js';
import type { FindingRecord } from '../engine/types.js';
import { TTL, type CacheEntry, type FactCache } from './cache.js';
import { liveFinding, releaseAt, type AdvisoryFact, type Resolved, type VulnerableUse } from './advisories.js';
import { BudgetExhausted, field, GraphQLUnavailable, type GitHubAnswer, type GitHubReader } from './client.js';
import { BATCH_REPOSITORIES, buildQuery, parseAnswer, type ArchivedFact, type ListPage, type RepositoryNeeds } from './graphql.js';
import { liveArchivedFindings, type ArchivedSite } from './archived.js';
import { isReleaseVersion, liveImmutableFindings, type ReleaseFact, type TagSite } from './immutable.js';
import { archivedAction } from '../engine/data/archived-actions.js';
import { MAX_REFERENCES, type ActionReference } from './refs.js';
import { parseRefVersion } from '../engine/analysis/action-version.js';
import { LIVE_RULES as ENGINE_LIVE_RULES, ONLINE_ONLY_RULES } from '../engine/rules/index.js';

/** The rules the online pass reports (their `create` reports nothing offline). */
export const ONLINE_RULES = ONLINE_ONLY_RULES;
/** Offline with their snapshots, and live in the online pass (lib/online/advisories.ts, lib/online/archived.ts). */
export const LIVE_RULES = ENGINE_LIVE_RULES;
/** The rules about a pinned SHA (they need the tag list, and membership for the first two). */
const SHA_RULES = ['impostor-commit', 'stale-action-ref', 'ref-version-mismatch'] as const;
export type OnlineRule = (typeof ONLINE_RULES)[number] | (typeof LIVE_RULES)[number];

/** Repositories whose visibility a run asks over REST before caching their facts (the rest are not cached). */
export const MAX_VISIBILITY_CHECKS = 20;
/** Pages of 100 tags or branches read per repository; a longer list leaves some verdicts unassessed. */
export const MAX_LIST_PAGES = 3;
/** Compares spent proving that a commit is on no branch or tag (beyond the default branch). */
export const MAX_COMPARES = 30;
/** References named in one `online-audit-incomplete` finding. */
const NAMED_UNASSESSED = 10;

export interface OnlineAuditOptions {
  reader: GitHubReader;
  cache: FactCache;
  /** Rules for which this returns false are not reported (default: all). */
  isEnabled?: (ruleId: string) => boolean;
  /** Facts already gathered for this run (`prefetchFacts`), with the same reader and cache. */
  facts?: Facts;
}

export interface OnlineAuditResult {
  records: FindingRecord[];
  /** References that could not be checked (reported by `online-audit-incomplete`). */
  unassessed: number;
}

/** A verdict could not be reached for this reference: it is reported as unassessed, with the reason. */
class Unassessable extends Error {}

interface Verdict {
  rule: Exclude<OnlineRule, 'online-audit-incomplete' | (typeof LIVE_RULES)[number]>;
  message: string;
  recommendation?: string;
}

type Listed = { items: [name: string, sha: string][]; complete: boolean } | { missing: true };
type Membership = { member: boolean };

/**
 * Checks each reference against GitHub (through the cache first) and returns the online rules' findings in
 * the engine's shape. Identical references (same repository, ref and version comment) are checked once.
 * Never throws for GitHub's answers: what could not be checked becomes `online-audit-incomplete`.
 */
export async function auditReferences(
  references: readonly ActionReference[],
  options: OnlineAuditOptions,
  /** The uses as the offline rule groups them (parses the files): called only when a live advisory may apply. */
  uses: () => readonly VulnerableUse[] = () => [],
  /** Every repository `uses:` node as the offline `archived-action` reports it: called only when a repository is archived. */
  sites: () => readonly ArchivedSite[] = () => [],
  /** Every repository `uses:` node as the offline `unpinned-action` reports it: called only when a release is immutable. */
  tagSites: () => readonly TagSite[] = () => [],
): Promise<OnlineAuditResult> {
  const isEnabled = options.isEnabled ?? (() => true);
  const plan = planAudit(references, isEnabled);
  const { shaRules, confusion, advisories, archivedRule, groups, audited, packages, archivable, releases } = plan;
  const facts = options.facts ?? new Facts(options.reader, options.cache);
  await facts.gather(plan);

  const verdicts: { reference: ActionReference; verdict: Verdict }[] = [];
  const unassessed: { reference: ActionReference; reason: string }[] = references.slice(MAX_REFERENCES).map((reference) => ({ reference, reason: `more than ${MAX_REFERENCES} references in the repository` }));
  for (const group of groups.values()) {
    const first = group[0];
    if (first === undefined || !(isFullSha(first.ref) ? shaRules : confusion)) continue;
    try {
      const found = await check(first, facts);
      for (const reference of group) for (const verdict of found) verdicts.push({ reference, verdict });
    } catch (error) {
      if (!(error instanceof Unassessable || error instanceof BudgetExhausted)) throw error;
      for (const reference of group) unassessed.push({ reference, reason: error.message });
    }
  }
  const live: FindingRecord[] = [];
  if (advisories) {
    const asked = new Set(packages.filter((p) => facts.known(`advisories:${p}`) !== undefined));
    for (const reference of audited) {
      if (asked.has(slug(reference))) continue;
      unassessed.push({ reference, reason: `the GitHub Advisory Database could not be asked${facts.graphqlFailure === null ? '' : ` (${facts.graphqlFailure})`}, so known-vulnerable-action used the built-in snapshot only` });
    }
    // The files are parsed again (as the offline rule sees them) only when some package has an advisory.
    const affected = packages.filter((p) => ((facts.known(`advisories:${p}`) as AdvisoryFact | undefined)?.vulnerabilities.length ?? 0) > 0);
    for (const use of affected.length === 0 ? [] : uses().slice(0, MAX_REFERENCES)) {
      const fact = facts.known(`advisories:${use.slug}`) as AdvisoryFact | undefined;
      if (fact === undefined || fact.vulnerabilities.length === 0) continue;
      const [owner = '', repo = ''] = use.slug.split('/');
      const at: ActionReference = { file: use.file, line: use.line, column: use.column, owner, repo, ref: use.ref, version: null };
      try {
        const record = liveFinding(use, fact, await resolveUse(use, at, facts));
        if (record !== null) live.push(record);
      } catch (error) {
        if (!(error instanceof Unassessable || error instanceof BudgetExhausted)) throw error;
        unassessed.push({ reference: at, reason: error.message });
      }
    }
  }
  if (archivedRule) {
    const asked = new Set(archivable.filter((s) => facts.known(`archived:${s}`) !== undefined));
    for (const reference of audited) {
      const s = slug(reference);
      if (asked.has(s) || archivedAction(s) !== undefined) continue;
      const reason = facts.isMissing(s)
        ? `${s} was not found`
        : `whether ${s} is archived could not be asked${facts.graphqlFailure === null ? '' : ` (${facts.graphqlFailure})`}, so archived-action used the built-in snapshot only`;
      unassessed.push({ reference, reason });
    }
    if (archivable.some((s) => (facts.known(`archived:${s}`) as ArchivedFact | undefined)?.archived === true)) {
      // The files are parsed again (as the offline rule sees them) only when some repository is archived.
      live.push(...liveArchivedFindings(sites(), (s) => facts.known(`archived:${s}`) as ArchivedFact | undefined));
    }
  }
  if (releases.length > 0) {
    // Each distinct `owner/repo@tag` of a full version is asked once (REST, cached); what is not answered
    // keeps the offline finding and is named unassessed.
    for (const r of releases) {
      try {
        await facts.release(r);
      } catch (error) {
        if (!(error instanceof Unassessable || error instanceof BudgetExhausted)) throw error;
        const reason = `whether the release ${slug(r)}@${r.ref} is immutable could not be asked (${error.message}), so unpinned-action judged its tag as movable`;
        for (const reference of audited) if (slug(reference) === slug(r) && reference.ref === r.ref) unassessed.push({ reference, reason });
      }
    }
    const immutable = (s: string, ref: string) => facts.known(`release:${s}@${ref}`) as ReleaseFact | undefined;
    if (releases.some((r) => immutable(slug(r), r.ref)?.immutable === true)) live.push(...liveImmutableFindings(tagSites(), immutable));
  }
  await facts.flush();

  const records: FindingRecord[] = [...live];
  const seen = new Map<string, number>();
  const add = (rule: OnlineRule, reference: ActionReference, message: string, recommendation?: string) => {
    if (!isEnabled(rule)) return;
    const meta = WORKFLOW_RULES.find((r) => r.meta.id === rule)?.meta;
    if (meta === undefined) return;
    const identity = `online\0${rule}\0${reference.file}\0${reference.owner}/${reference.repo}@${reference.ref}`;
    const occurrence = seen.get(identity) ?? 0;
    seen.set(identity, occurrence + 1);
    records.push({
      finding: findingOf(meta, reference, { message, recommendation }),
      job: null,
      fingerprint: hash53(`${identity}\0${occurrence}`),
    });
  };
  for (const { reference, verdict } of verdicts) add(verdict.rule, reference, verdict.message, verdict.recommendation);
  // One reference may be unassessed twice (its pin and its advisories): named and counted once.
  const byFile = new Map<string, Map<string, { reference: ActionReference; reason: string }>>();
  const reasonsByFile = new Map<string, Set<string>>();
  for (const u of unassessed) {
    const here = byFile.get(u.reference.file) ?? new Map<string, { reference: ActionReference; reason: string }>();
    const key = `${u.reference.line}:${u.reference.column}:${u.reference.owner}/${u.reference.repo}@${u.reference.ref.toLowerCase()}`;
    if (!here.has(key)) here.set(key, u);
    byFile.set(u.reference.file, here);
    reasonsByFile.set(u.reference.file, (reasonsByFile.get(u.reference.file) ?? new Set()).add(u.reason));
  }
  let unassessedCount = 0;
  for (const [file, unique] of byFile) {
    const sorted = [...unique.values()].sort((a, b) => a.reference.line - b.reference.line || a.reference.column - b.reference.column);
    unassessedCount += sorted.length;
    const head = sorted[0];
    if (head === undefined) continue;
    const reasons = [...(reasonsByFile.get(file) ?? [])].join('; ');
    const named = sorted.slice(0, NAMED_UNASSESSED).map((u) => `\`${u.reference.owner}/${u.reference.repo}@${u.reference.ref}\``);
    const more = sorted.length > NAMED_UNASSESSED ? ` and ${sorted.length - NAMED_UNASSESSED} more` : '';
    add(
      'online-audit-incomplete',
      head.reference,
      `${sorted.length} \`uses:\` reference${sorted.length === 1 ? ' was' : 's were'} not checked online (${reasons}): ${named.join(', ')}${more}. They are unassessed, not clean.`,
    );
  }
  records.sort((a, b) => compare(a.finding.file, b.finding.file) || a.finding.line - b.finding.line || a.finding.column - b.finding.column || compare(a.finding.rule_id, b.finding.rule_id));
  return { records, unassessed: unassessedCount };
}

interface AuditPlan {
  shaRules: boolean;
  confusion: boolean;
  advisories: boolean;
  archivedRule: boolean;
  /** References audited (the first MAX_REFERENCES), grouped by repository, ref and version comment. */
  audited: readonly ActionReference[];
  groups: Map<string, ActionReference[]>;
  /** The first of each group whose rule is enabled: what the pin and ref rules check. */
  checked: readonly ActionReference[];
  /** Packages whose advisories are asked (validated names only). */
  packages: readonly string[];
  /** Repositories asked whether they are archived (the snapshot decides for those it lists). */
  archivable: readonly string[];
  /** One reference per distinct `owner/repo@tag` of a full version, whose release is asked whether it is immutable. */
  releases: readonly ActionReference[];
}

/** What an audit of these references asks, with the rules enabled. */
function planAudit(references: readonly ActionReference[], isEnabled: (ruleId: string) => boolean): AuditPlan {
  const shaRules = SHA_RULES.some((id) => isEnabled(id));
  const confusion = isEnabled('ref-confusion');
  const advisories = isEnabled('known-vulnerable-action');
  const archivedRule = isEnabled('archived-action');
  const audited = references.slice(0, MAX_REFERENCES);
  const groups = new Map<string, ActionReference[]>();
  for (const reference of audited) {
    const key = `${reference.owner}/${reference.repo}@${reference.ref}#${reference.version ?? ''}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [reference]);
    else group.push(reference);
  }
  const firsts = [...groups.values()].flatMap(([r]) => (r === undefined ? [] : [r]));
  const checked = firsts.filter((r) => (isFullSha(r.ref) ? shaRules : confusion));
  const packages = advisories ? [...new Set(audited.map((r) => slug(r)))] : [];
  const archivable = archivedRule ? [...new Set(audited.map((r) => slug(r)))].filter((s) => archivedAction(s) === undefined) : [];
  const releases = new Map<string, ActionReference>();
  if (isEnabled('unpinned-action')) for (const r of audited) if (isReleaseVersion(r.ref) && !releases.has(`${slug(r)}@${r.ref}`)) releases.set(`${slug(r)}@${r.ref}`, r);
  return { shaRules, confusion, advisories, archivedRule, audited, groups, checked, packages, archivable, releases: [...releases.values()] };
}

/**
 * The facts an audit of `references` will need, read ahead (the cache, then GraphQL for what it lacks)
 * into a `Facts` that a later `auditReferences` (`options.facts`) starts from. The service calls it with the
 * repository's references of its previous scan while the snapshot is being fetched, so the audit after the
 * snapshot asks GitHub only about references added since. Never throws for GitHub's answers.
 */
export async function prefetchFacts(references: readonly ActionReference[], options: OnlineAuditOptions): Promise<Facts> {
  const facts = options.facts ?? new Facts(options.reader, options.cache);
  await facts.gather(planAudit(references, options.isEnabled ?? (() => true)));
  return facts;
}

/**
 * What a use runs, for matching advisory ranges: a SHA by the release tag at that commit (else its version
 * comment; else not judged, null); an exact version tag by itself; a floating tag (`v4`) by the release at
 * its commit, else as the newest of its line; any other name by the release at the tag of that name, else
 * as a branch. Reads the tag list only when needed (it is usually cached or batched already).
 */
async function resolveUse(use: VulnerableUse, at: ActionReference, facts: Facts): Promise<Resolved | null> {
  const version = parseRefVersion(use.ref);
  if (version !== null && !version.floating) return { kind: 'release', version: version.normalized };
  const tags = await facts.list(at, 'tags');
  if ('missing' in tags) throw new Unassessable(`${use.slug} was not found`);
  if (isFullSha(use.ref)) {
    const release = releaseAt(tags.items, use.ref.toLowerCase());
    if (release !== null) return { kind: 'release', version: release };
    return use.version === null || use.version.floating ? null : { kind: 'release', version: use.version.normalized };
  }
  const tagged = tags.items.find(([name]) => name === use.ref);
  const release = tagged === undefined ? null : releaseAt(tags.items, tagged[1]);
  if (release !== null) return { kind: 'release', version: release };
  if (version !== null) return { kind: 'line', version: version.normalized };
  if (tagged !== undefined) return null;
  if (!tags.complete) throw new Unassessable(`${use.slug} has too many tags to tell whether ${use.ref} is one`);
  return { kind: 'branch' };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function slug(r: ActionReference): string {
  return `${r.owner}/${r.repo}`;
}

function factKeys(r: ActionReference): string[] {
  const keys = [`repo:${slug(r)}`, `tags:${slug(r)}`, `branches:${slug(r)}`];
  if (isFullSha(r.ref)) keys.push(`commit:${slug(r)}@${r.ref}`);
  else keys.push(`refkind:${slug(r)}@${r.ref}`);
  if (r.version !== null) keys.push(`tag:${slug(r)}@${r.version}`);
  return keys;
}

async function check(r: ActionReference, facts: Facts): Promise<Verdict[]> {
  if (!isFullSha(r.ref)) {
    const kinds = await facts.refKinds(r);
    return kinds.branch && kinds.tag
      ? [{ rule: 'ref-confusion', message: `\`${r.ref}\` names both a branch and a tag of ${slug(r)}: which one runs is not what a reader of the workflow sees.` }]
      : [];
  }
  const tags = await facts.list(r, 'tags');
  if ('missing' in tags) throw new Unassessable(`${slug(r)} was not found`);
  const member = await facts.membership(r, tags);
  if (!member) {
    return [
      {
        rule: 'impostor-commit',
        message: `\`${r.ref}\` is on no branch and no tag of ${slug(r)}: it is a commit from elsewhere in its fork network, not a commit of the repository the workflow names.`,
      },
    ];
  }
  const verdicts: Verdict[] = [];
  const tagged = tags.items.some(([, sha]) => sha === r.ref);
  if (!tagged && tags.complete) {
    verdicts.push({ rule: 'stale-action-ref', message: `\`${r.ref}\` is a commit of ${slug(r)} that no tag points at: an unreleased commit.` });
  }
  if (r.version !== null) {
    const version = r.version;
    const named = await facts.tagCommit(r, version, tags);
    const floating = /^v?\d+(\.\d+)?$/.test(version) && tags.items.some(([name, sha]) => sha === r.ref && name.startsWith(`${version}.`));
    if (named !== null && named !== r.ref && !floating) {
      verdicts.push({
        rule: 'ref-version-mismatch',
        message: `The comment names ${version}, but ${version} of ${slug(r)} is commit ${named.slice(0, 12)}, not the pinned ${r.ref.slice(0, 12)}.`,
        recommendation: `Pin \`${slug(r)}@${named} # ${version}\`, or correct the comment to the version the SHA is.`,
      });
    }
  }
  return verdicts;
}

/** Path segments as GitHub expects them in a URL (refs may contain slashes). */
/** `owner/repo` (lower case) of a fact key such as `tags:owner/repo` or `commit:owner/repo@sha`. */
function slugOfKey(key: string): string {
  return key.slice(key.indexOf(':') + 1).split('@')[0]?.toLowerCase() ?? '';
}

function refPath(ref: string): string {
  return ref.split('/').map(encodeURIComponent).join('/');
}

/** Facts about repositories: the cache first, then GitHub; new facts are written back in one batch. */
export class Facts {
  readonly #known = new Map<string, unknown>();
  /** Keys already looked up in the cache in this run (found or not): not looked up again. */
  readonly #looked = new Set<string>();
  readonly #pending: CacheEntry[] = [];
  /** Repositories GitHub said it does not know (this run only: a name can be registered later). */
  readonly #missing = new Set<string>();
  /**
   * What GitHub said of each repository's visibility in this run (lower-case `owner/repo`): GraphQL
   * `isPrivate`, REST `private` / `visibility`. The cache is shared across users and installations (the
   * service's Postgres table), so only the facts of a repository positively known to be public are written
   * to it; the others serve this run only (a private repository's existence, branch names, tag commits and
   * commit membership are its installation's alone).
   */
  readonly #visibility = new Map<string, 'public' | 'private'>();
  /** Why GraphQL was given up in this run, if it was. */
  graphqlFailure: string | null = null;

  constructor(
    readonly reader: GitHubReader,
    readonly cache: FactCache,
  ) {}

  async prefetch(keys: string[]): Promise<void> {
    const unique = [...new Set(keys)].filter((key) => !this.#known.has(key) && !this.#looked.has(key));
    if (unique.length === 0) return;
    for (const key of unique) this.#looked.add(key);
    for (const [key, value] of await this.cache.get(unique)) this.#known.set(key, value);
  }

  /** The plan's facts: from the cache, then, for what it lacks, from GraphQL. */
  async gather(plan: AuditPlan): Promise<void> {
    const { checked, packages, archivable, releases } = plan;
    await this.prefetch([...checked.flatMap(factKeys), ...packages.map((p) => `advisories:${p}`), ...archivable.map((s) => `archived:${s}`), ...releases.map((r) => `release:${slug(r)}@${r.ref}`)]);
    await this.batch(checked, packages, archivable);
  }

  known(key: string): unknown {
    return this.#known.get(key);
  }

  /** GitHub said in this run that it does not know the repository. */
  isMissing(slugText: string): boolean {
    return this.#missing.has(slugText);
  }

  #learn(key: string, value: unknown, ttlSeconds: number): void {
    this.#known.set(key, value);
    this.#pending.push({ key, value, ttlSeconds });
  }

  /**
   * Asks GraphQL, in batches, every fact the references will need that the cache did not have: the tag
   * list (and, for pinned SHAs whose membership is not known, the default branch and the branch list),
   * exact branch/tag names for the other refs, and the packages' advisories. Lists longer than a page are
   * paged in further rounds (up to MAX_LIST_PAGES). Whatever GraphQL does not answer is left to REST.
   */
  async batch(references: readonly ActionReference[], packages: readonly string[], archivable: readonly string[] = []): Promise<void> {
    const graphql = this.reader.graphql;
    if (graphql === undefined) {
      this.graphqlFailure = 'this reader has no GraphQL';
      return;
    }
    const needs = new Map<string, RepositoryNeeds>();
    const need = (slugText: string): RepositoryNeeds => {
      let entry = needs.get(slugText);
      if (entry === undefined) {
        const [owner = '', repo = ''] = slugText.split('/');
        entry = { owner, repo };
        needs.set(slugText, entry);
      }
      return entry;
    };
    for (const r of references) {
      const s = slug(r);
      // GitHub said in this run that it has no such repository (an earlier batch): nothing more to ask.
      if (this.#missing.has(s)) continue;
      if (isFullSha(r.ref)) {
        if (!this.#known.has(`tags:${s}`)) need(s).tags = { after: null };
        if (!this.#known.has(`commit:${s}@${r.ref}`)) {
          if (!this.#known.has(`repo:${s}`)) need(s).defaultBranch = true;
          if (!this.#known.has(`branches:${s}`)) need(s).branches = { after: null };
        }
      } else if (!this.#known.has(`refkind:${s}@${r.ref}`)) {
        const entry = need(s);
        entry.refKinds = [...new Set([...(entry.refKinds ?? []), r.ref])];
      }
    }
    for (const p of packages) {
      if (this.#known.has(`advisories:${p}`)) continue;
      need(p).advisories = true;
      // The release a tag or SHA is, for matching ranges: cheap here, a REST request later.
      if (!this.#known.has(`tags:${p}`) && !this.#missing.has(p)) need(p).tags = { after: null };
    }
    for (const s of archivable) if (!this.#known.has(`archived:${s}`) && !this.#missing.has(s)) need(s).archived = true;
    // GraphQL given up earlier in this run (the read-ahead's query failed): the rest is read over REST, as it
    // would have been had the audit asked everything at once.
    if (needs.size === 0 || this.graphqlFailure !== null) return;
    const lists = new Map<string, { items: [string, string][]; pages: number }>();
    let round = [...needs.entries()];
    for (let pass = 0; pass < MAX_LIST_PAGES && round.length > 0; pass++) {
      const next: [string, RepositoryNeeds][] = [];
      const chunks: [string, RepositoryNeeds][][] = [];
      for (let i = 0; i < round.length; i += BATCH_REPOSITORIES) chunks.push(round.slice(i, i + BATCH_REPOSITORIES));
      // The queries of a pass go together (one round trip, whatever the number of repositories), as many
      // as the reader's budget admits at once: the first query of a run goes alone, to learn the share of
      // GraphQL points it may spend; a query beyond the share is refused (GraphQLUnavailable) as before.
      const answers: (GitHubAnswer | string)[] = [];
      while (answers.length < chunks.length) {
        const allowance = Math.max(1, Math.min(chunks.length - answers.length, this.reader.graphqlAllowance?.() ?? Infinity));
        const wave = chunks.slice(answers.length, answers.length + allowance);
        answers.push(
          ...(await Promise.all(
            wave.map(async (chunk): Promise<GitHubAnswer | string> => {
              const { query, variables } = buildQuery(chunk.map(([, n]) => n));
              try {
                const answer = await graphql(query, variables);
                if (answer.status !== 200 || typeof field(answer.body, 'data') !== 'object' || field(answer.body, 'data') === null) return `GitHub answered ${answer.status} to a GraphQL query`;
                return answer;
              } catch (error) {
                if (error instanceof GraphQLUnavailable || error instanceof BudgetExhausted) return error.message;
                throw error;
              }
            }),
          )),
        );
        if (answers.some((a) => typeof a === 'string')) break;
      }
      let failed = false;
      answers.forEach((answer, c) => {
        const chunk = chunks[c] ?? [];
        if (typeof answer === 'string') {
          this.graphqlFailure ??= answer;
          failed = true;
          return;
        }
        const batch = chunk.map(([, n]) => n);
        parseAnswer(batch, answer.body).forEach((result, k) => {
          const [s, asked] = chunk[k] ?? [];
          if (s === undefined || asked === undefined) return;
          if (result.private !== undefined) this.#visibility.set(s.toLowerCase(), result.private ? 'private' : 'public');
          if (result.advisories !== undefined) this.#learn(`advisories:${s}`, result.advisories, TTL.advisories);
          if (result.missing === true) {
            this.#missing.add(s);
            return;
          }
          if (result.archived !== undefined) this.#learn(`archived:${s}`, result.archived, TTL.archived);
          if (result.defaultBranch !== undefined) this.#learn(`repo:${s}`, result.defaultBranch, TTL.repository);
          for (const [ref, kinds] of result.refKinds ?? []) this.#learn(`refkind:${s}@${ref}`, kinds, TTL.refs);
          const more: RepositoryNeeds = { owner: asked.owner, repo: asked.repo };
          for (const kind of ['tags', 'branches'] as const) {
            const page: ListPage | undefined = result[kind];
            if (page === undefined) continue;
            const list = lists.get(`${kind}:${s}`) ?? { items: [], pages: 0 };
            list.items.push(...page.items);
            list.pages++;
            lists.set(`${kind}:${s}`, list);
            if (page.hasNextPage && page.endCursor !== null && list.pages < MAX_LIST_PAGES) more[kind] = { after: page.endCursor };
            else this.#learn(`${kind}:${s}`, { items: list.items, complete: !page.hasNextPage } satisfies Listed, TTL.refs);
          }
          if (more.tags !== undefined || more.branches !== undefined) next.push([s, more]);
        });
      });
      // GraphQL failing gives up GraphQL for the run (what it did not answer is read over REST), as before.
      if (failed) return;
      round = next;
    }
  }

  /** Records the visibility a REST repository answer states (`private`, `visibility`), if it states one. */
  #noteVisibility(slugText: string, body: unknown): void {
    const isPrivate = field(body, 'private');
    const visibility = field(body, 'visibility');
    // Positively public only when GitHub says so; `internal` (an enterprise's members) is not public.
    if (isPrivate === true || visibility === 'private' || visibility === 'internal') this.#visibility.set(slugText.toLowerCase(), 'private');
    else if (isPrivate === false || visibility === 'public') this.#visibility.set(slugText.toLowerCase(), 'public');
  }

  /**
   * Writes what this run learnt to the cache, for repositories GitHub said are public only. A repository
   * whose facts came over REST without its visibility (GraphQL unavailable) is asked once
   * (`GET /repos/o/r`, at most MAX_VISIBILITY_CHECKS a run); one that cannot be asked is not cached.
   */
  async flush(): Promise<void> {
    const pending = this.#pending.splice(0);
    // The Advisory Database's answer for a package name is public and the same for every token: shared
    // unless the repository of that name is known to be private (it would tell that someone uses it).
    const shareable = (e: CacheEntry) => (e.key.startsWith('advisories:') ? this.#visibility.get(slugOfKey(e.key)) !== 'private' : this.#visibility.get(slugOfKey(e.key)) === 'public');
    const missing = new Set([...this.#missing].map((s) => s.toLowerCase()));
    const unknown = [...new Set(pending.filter((e) => !e.key.startsWith('advisories:')).map((e) => slugOfKey(e.key)))].filter((s) => s.includes('/') && !this.#visibility.has(s) && !missing.has(s));
    for (const s of unknown.slice(0, MAX_VISIBILITY_CHECKS)) {
      try {
        const answer = await this.reader.get(`/repos/${s.split('/').map(encodeURIComponent).join('/')}`);
        if (answer.status === 200) this.#noteVisibility(s, answer.body);
      } catch {
        // Not known: its facts stay out of the cache.
      }
    }
    const entries = pending.filter(shareable);
    if (entries.length > 0) await this.cache.set(entries);
  }

  async #fact<T>(key: string, ttl: (value: T) => number, fetchFact: () => Promise<T>): Promise<T> {
    if (this.#known.has(key)) return this.#known.get(key) as T;
    const value = await fetchFact();
    this.#known.set(key, value);
    this.#pending.push({ key, value, ttlSeconds: ttl(value) });
    return value;
  }

  async #get(path: string): Promise<GitHubAnswer> {
    const repository = /^\/repos\/([^/]+\/[^/?]+)/.exec(path)?.[1];
    if (repository !== undefined && this.#missing.has(repository)) throw new Unassessable(`${repository} was not found`);
    const answer = await this.reader.get(path);
    if (answer.status >= 500) throw new Unassessable(`GitHub answered ${answer.status}`);
    if (answer.status === 401 || answer.status === 403) throw new Unassessable(`GitHub refused the token (${answer.status})`);
    return answer;
  }

  defaultBranch(r: ActionReference): Promise<string | null> {
    return this.#fact(`repo:${slug(r)}`, () => TTL.repository, async () => {
      const answer = await this.#get(`/repos/${r.owner}/${r.repo}`);
      if (answer.status === 404) return null;
      if (answer.status === 200) this.#noteVisibility(slug(r), answer.body);
      const branch = field(answer.body, 'default_branch');
      if (answer.status !== 200 || typeof branch !== 'string') throw new Unassessable(`unexpected answer ${answer.status} for ${slug(r)}`);
      return branch;
    });
  }

  /**
   * Whether GitHub says the release of the reference's tag is immutable (`GET /repos/o/r/releases/tags/t`,
   * `immutable`): a 404 is no release, hence not immutable. A tag the ref-kind check found to be a branch
   * too is not asked (which of the two runs is ref-confusion's finding).
   */
  release(r: ActionReference): Promise<ReleaseFact> {
    return this.#fact(`release:${slug(r)}@${r.ref}`, (f) => (f.immutable ? TTL.immutableRelease : TTL.release), async (): Promise<ReleaseFact> => {
      const kinds = this.#known.get(`refkind:${slug(r)}@${r.ref}`) as { branch: boolean } | undefined;
      if (kinds?.branch === true) return { immutable: false };
      const answer = await this.#get(`/repos/${r.owner}/${r.repo}/releases/tags/${refPath(r.ref)}`);
      if (answer.status === 404) return { immutable: false };
      if (answer.status !== 200 || field(answer.body, 'tag_name') !== r.ref) throw new Unassessable(`unexpected answer ${answer.status} for the release ${r.ref} of ${slug(r)}`);
      return { immutable: field(answer.body, 'immutable') === true };
    });
  }

  /** Tags (`/tags`, commits already dereferenced) or branches, name and commit, up to MAX_LIST_PAGES pages. */
  list(r: ActionReference, kind: 'tags' | 'branches'): Promise<Listed> {
    return this.#fact(`${kind}:${slug(r)}`, () => TTL.refs, async (): Promise<Listed> => {
      const items: [string, string][] = [];
      for (let page = 1; page <= MAX_LIST_PAGES; page++) {
        const answer = await this.#get(`/repos/${r.owner}/${r.repo}/${kind}?per_page=100&page=${page}`);
        if (answer.status === 404) return { missing: true };
        if (answer.status !== 200 || !Array.isArray(answer.body)) throw new Unassessable(`unexpected answer ${answer.status} listing the ${kind} of ${slug(r)}`);
        for (const item of answer.body as unknown[]) {
          const name = field(item, 'name');
          const sha = field(field(item, 'commit'), 'sha');
          if (typeof name === 'string' && typeof sha === 'string') items.push([name, sha.toLowerCase()]);
        }
        if (answer.body.length < 100) return { items, complete: true };
      }
      return { items, complete: false };
    });
  }

  /** Whether `base` contains the commit: compare `status` identical or behind. Null when GitHub does not know one of them. */
  async #contains(r: ActionReference, base: string): Promise<boolean | null> {
    const answer = await this.#get(`/repos/${r.owner}/${r.repo}/compare/${refPath(base)}...${r.ref}?per_page=1`);
    if (answer.status === 404 || answer.status === 422) return null;
    const status = field(answer.body, 'status');
    if (answer.status !== 200 || typeof status !== 'string') throw new Unassessable(`unexpected answer ${answer.status} comparing in ${slug(r)}`);
    return status === 'identical' || status === 'behind';
  }

  /**
   * Whether a commit is on a branch or tag of the repository, cheapest first: a tag's commit; the compare
   * API against the default branch; a branch head; then compares against the other branches and the tags.
   * "Not a member" is only concluded after every branch and tag was compared.
   */
  async membership(r: ActionReference, tags: Extract<Listed, { items: unknown }>): Promise<boolean> {
    const found = await this.#fact<Membership>(`commit:${slug(r)}@${r.ref}`, (m) => (m.member ? TTL.member : TTL.notMember), async () => {
      if (tags.items.some(([, sha]) => sha === r.ref)) return { member: true };
      // A branch head, when the branch list is already known (batched or cached): no request.
      const heads = this.#known.get(`branches:${slug(r)}`) as Listed | undefined;
      if (heads !== undefined && 'items' in heads && heads.items.some(([, sha]) => sha === r.ref)) return { member: true };
      const defaultBranch = await this.defaultBranch(r);
      if (defaultBranch === null) throw new Unassessable(`${slug(r)} was not found`);
      const onDefault = await this.#contains(r, defaultBranch);
      if (onDefault === null) throw new Unassessable(`${r.ref.slice(0, 12)} was not found in ${slug(r)} or its forks`);
      if (onDefault) return { member: true };
      const branches = await this.list(r, 'branches');
      if ('missing' in branches) throw new Unassessable(`${slug(r)} was not found`);
      if (branches.items.some(([, sha]) => sha === r.ref)) return { member: true };
      // One compare per distinct commit: refs at a commit already compared (the default branch's head, a
      // release branch and its tag) cannot answer differently.
      const compared = new Set(branches.items.filter(([name]) => name === defaultBranch).map(([, sha]) => sha));
      const candidates: string[] = [];
      for (const [name, sha] of [...branches.items, ...tags.items]) {
        if (compared.has(sha)) continue;
        compared.add(sha);
        candidates.push(name);
      }
      if (!branches.complete || !tags.complete || candidates.length > MAX_COMPARES) {
        throw new Unassessable(`${slug(r)} has too many branches and tags to decide whether ${r.ref.slice(0, 12)} is one of its commits`);
      }
      for (const name of candidates) if ((await this.#contains(r, name)) === true) return { member: true };
      return { member: false };
    });
    return found.member;
  }

  /** Whether a ref names a branch, a tag, or both (matching-refs answers prefixes; only exact names count). */
  refKinds(r: ActionReference): Promise<{ branch: boolean; tag: boolean }> {
    return this.#fact(`refkind:${slug(r)}@${r.ref}`, () => TTL.refs, async () => {
      const exact = async (kind: 'heads' | 'tags') => {
        const answer = await this.#get(`/repos/${r.owner}/${r.repo}/git/matching-refs/${kind}/${refPath(r.ref)}`);
        if (answer.status === 404) throw new Unassessable(`${slug(r)} was not found`);
        if (answer.status !== 200 || !Array.isArray(answer.body)) throw new Unassessable(`unexpected answer ${answer.status} for the refs of ${slug(r)}`);
        return (answer.body as unknown[]).some((item) => field(item, 'ref') === `refs/${kind}/${r.ref}`);
      };
      return { branch: await exact('heads'), tag: await exact('tags') };
    });
  }

  /** The commit a tag points at (annotated tags dereferenced), from the tag list when it has it; null when no such tag. */
  tagCommit(r: ActionReference, version: string, tags: Extract<Listed, { items: unknown }>): Promise<string | null> {
    const listed = tags.items.find(([name]) => name === version) ?? (version.startsWith('v') ? undefined : tags.items.find(([name]) => name === `v${version}`));
    if (listed !== undefined) return Promise.resolve(listed[1]);
    if (tags.complete) return Promise.resolve(null);
    return this.#fact(`tag:${slug(r)}@${version}`, () => TTL.refs, async () => {
      const answer = await this.#get(`/repos/${r.owner}/${r.repo}/git/ref/tags/${refPath(version)}`);
      if (answer.status === 404) return null;
      const object = field(answer.body, 'object');
      const type = field(object, 'type');
      const sha = field(object, 'sha');
      if (answer.status !== 200 || typeof sha !== 'string') throw new Unassessable(`unexpected answer ${answer.status} for tag ${version} of ${slug(r)}`);
      if (type !== 'tag') return sha.toLowerCase();
      const annotated = await this.#get(`/repos/${r.owner}/${r.repo}/git/tags/${sha}`);
      const target = field(field(annotated.body, 'object'), 'sha');
      if (annotated.status !== 200 || typeof target !== 'string') throw new Unassessable(`unexpected answer ${annotated.status} for tag ${version} of ${slug(r)}`);
      return target.toLowerCase();
    });
  }
}
