// prefetchFacts: the service's read-ahead (lib/online/service.ts) gathers the previous scan's facts while the
// snapshot is fetched; the audit after it asks only about what it lacks, and gives GraphQL up for the run
// when the read-ahead's query failed (reading over REST, as a single audit would).
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RepositoryFile } from '../../../lib/engine/types.js';
import { prefetchFacts } from '../../../lib/online/audit.js';
import { auditRepository, BudgetedReader, collectReferences, fetchReader, MemoryCache } from '../../../lib/online/index.js';
import { referenceKeys, referencesOfKeys } from '../../../lib/online/refs.js';
import { FakeActions, sha } from './fake-actions.js';

const C1 = sha('p1');
const C2 = sha('p2');
const fake = new FakeActions()
  .add('actions/checkout', { defaultBranch: 'main', commits: { [C1]: [], [C2]: [C1] }, branches: { main: C2 }, tags: { 'v4.0.0': C1, 'v4.1.0': C2 } })
  .add('some-org/deploy', { defaultBranch: 'main', commits: { [C1]: [] }, branches: { main: C1, v1: C1 }, tags: { v1: C1 } });
const server = setupServer(...fake.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const workflow = (...uses: string[]): RepositoryFile[] => [
  { path: '.github/workflows/ci.yml', text: `on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n${uses.map((u) => `      - uses: ${u}`).join('\n')}\n` },
];

it('stores references as validated keys and reads back only well-formed ones', () => {
  const keys = referenceKeys(collectReferences(workflow(`actions/checkout@${C1} # v4.0.0`, 'some-org/deploy@v1', 'some-org/deploy@v1')));
  expect(keys).toEqual([`actions/checkout@${C1}#v4.0.0`, 'some-org/deploy@v1#']);
  expect(referencesOfKeys([...keys, 'evil/../x@main#', 'a/b@..#', 42, 'no-at-sign#']).map((r) => `${r.owner}/${r.repo}@${r.ref}#${r.version ?? ''}`)).toEqual(keys);
});

it('asks nothing more after a read-ahead of the same references, and only the new ones otherwise', async () => {
  const previous = referencesOfKeys(referenceKeys(collectReferences(workflow(`actions/checkout@${C1} # v4.0.0`))));
  const reader = new BudgetedReader(fetchReader({ token: 'ghs_test' }));
  const cache = new MemoryCache();
  fake.requests = [];
  const facts = await prefetchFacts(previous, { reader, cache });
  expect(fake.requests).toEqual(['POST /graphql']);
  const same = await auditRepository(workflow(`actions/checkout@${C1} # v4.0.0`), { reader, cache, facts });
  expect(same.records.map((r) => r.finding.rule_id)).toEqual([]);
  expect(fake.requests).toEqual(['POST /graphql']);
  const more = await prefetchFacts(previous, { reader, cache });
  fake.requests = [];
  await auditRepository(workflow(`actions/checkout@${C1} # v4.0.0`, 'some-org/deploy@v1'), { reader, cache, facts: more });
  // One more query, for some-org/deploy alone (its ref kinds: a branch and a tag named v1).
  expect(fake.requests).toEqual(['POST /graphql']);
});

it('gives GraphQL up for the run when the read-ahead query failed: the audit reads over REST, without asking GraphQL again', async () => {
  const inner = fetchReader({ token: 'ghs_test' });
  let queries = 0;
  const reader = new BudgetedReader({ get: (path) => inner.get(path), graphql: () => (queries++, Promise.resolve({ status: 502, body: null, remaining: null })) });
  const facts = await prefetchFacts(referencesOfKeys(['some-org/deploy@v1#']), { reader, cache: new MemoryCache() });
  expect(queries).toBe(1);
  const { records } = await auditRepository(workflow('some-org/deploy@v1'), { reader, cache: new MemoryCache(), facts, isEnabled: (id) => id === 'ref-confusion' });
  expect(queries).toBe(1);
  expect(records.map((r) => r.finding.rule_id)).toEqual(['ref-confusion']);
});
