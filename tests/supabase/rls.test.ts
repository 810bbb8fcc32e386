// Row-level security and privileges exactly as browsers meet them through PostgREST: `set local role` to
// anon or authenticated, the verified JWT claims in `request.jwt.claims`, then plain SQL.

import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  recordCheckRun,
  recordScan,
  setDismissal,
  setRuleOverride,
  setRuleSetting,
  consumeRateLimit,
} from '../../lib/db/operations.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { countsOf, finding, userWithRepositories } from '../support/db-fixtures.js';

const BROWSER_READABLE_TABLES = ['installations', 'repositories', 'scans', 'findings', 'rule_settings', 'rule_overrides', 'dismissals', 'dismissal_events', 'check_runs'];
const ALL_TABLES = [...BROWSER_READABLE_TABLES, 'rate_limits'];
/** Tables of no user: what GitHub's webhooks said (suspended installations, deliveries acted on), the online audits' facts. */
const SERVICE_TABLES = ['suspended_installations', 'webhook_deliveries', 'online_facts', 'repository_action_references', 'installation_rate_limits', 'installation_check_policies', 'monitor_jobs'];
/** Per user, never readable by a browser: the users' GitHub tokens (ciphertexts), read by the API only. */
const SECRET_USER_TABLES = ['github_user_authorizations'];

let t: TestDatabase;
let owner: string;
let stranger: string;

/** Every row a user owns, per table, as the database owner sees it. */
async function ownedRowCounts(userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ALL_TABLES) {
    const [row] = await t.query<{ n: number }>(`select count(*)::int as n from public.${table} where user_id = $1`, [userId]);
    counts[table] = row!.n;
  }
  return counts;
}

async function giveData(userId: string): Promise<void> {
  const { repositories } = await userWithRepositories(t.db, userId, 2);
  const repo = repositories[0]!;
  const findings = [finding(), finding({ severity: 'LOW', rule_id: 'missing-permissions' })];
  await recordScan(t.db, userId, { repositoryId: repo.id, ruleset: 'all', counts: countsOf(findings), findings });
  await setRuleSetting(t.db, userId, 'pipe-to-shell', false);
  await setRuleOverride(t.db, userId, repo.id, 'pipe-to-shell', true);
  await setDismissal(t.db, userId, repo.id, { fingerprint: 'abc123', kind: 'finding', reason: 'wont_fix', comment: 'later' });
  await consumeRateLimit(t.db, userId, { bucket: 'scan', limit: 10, windowSeconds: 60 });
  await recordCheckRun(t.db, repo.installation_id, repo.github_id, {
    pull_number: 7,
    head_sha: 'a'.repeat(40),
    check_run_id: 1,
    conclusion: 'success',
    html_url: 'https://github.com/acme/widget/runs/1',
    new_findings: 0,
    new_attack_paths: 0,
  });
}

/** The SQLSTATE a statement fails with, or null when it succeeds. */
async function sqlStateOf(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (error) {
    return (error as { code?: string }).code ?? 'no code';
  }
}

beforeAll(async () => {
  t = await openTestDatabase();
  owner = await t.createUser();
  stranger = await t.createUser();
  await giveData(owner);
  await giveData(stranger);
});
afterAll(() => t.close());

describe('reads', () => {
  test.each(BROWSER_READABLE_TABLES)('the owner reads exactly their own rows of %s', async (table) => {
    const expected = (await ownedRowCounts(owner))[table]!;
    expect(expected).toBeGreaterThan(0);
    const rows = await t.as('authenticated', owner, (tx) => tx.query<{ user_id: string }>(`select user_id from public.${table}`));
    expect(rows).toHaveLength(expected);
    expect(new Set(rows.map((row) => row.user_id))).toEqual(new Set([owner]));
  });

  test.each(BROWSER_READABLE_TABLES)("another user reads none of the owner's %s", async (table) => {
    const rows = await t.as('authenticated', stranger, (tx) =>
      tx.query<{ n: number }>(`select count(*)::int as n from public.${table} where user_id = $1`, [owner]),
    );
    expect(rows[0]!.n).toBe(0);
  });

  test.each(BROWSER_READABLE_TABLES)('an authenticated request without a subject reads nothing of %s', async (table) => {
    const rows = await t.as('authenticated', null, (tx) => tx.query<{ n: number }>(`select count(*)::int as n from public.${table}`));
    expect(rows[0]!.n).toBe(0);
  });

  test.each(ALL_TABLES)('anon cannot read %s at all', async (table) => {
    expect(await sqlStateOf(() => t.as('anon', null, (tx) => tx.query(`select * from public.${table}`)))).toBe('42501');
  });

  test('rate_limits are internal: not even their owner reads them', async () => {
    expect((await ownedRowCounts(owner)).rate_limits).toBe(1);
    expect(await sqlStateOf(() => t.as('authenticated', owner, (tx) => tx.query('select * from public.rate_limits')))).toBe('42501');
  });

  test('auth.uid() and auth.jwt() read the claims PostgREST sets, in either of its formats', async () => {
    const [row] = await t.as('authenticated', owner, (tx) =>
      tx.query<{ uid: string; role: string; sub: string }>(`select auth.uid() as uid, auth.role() as role, auth.jwt() ->> 'sub' as sub`),
    );
    expect(row).toEqual({ uid: owner, role: 'authenticated', sub: owner });
    const [legacy] = await t.as('authenticated', null, async (tx) => {
      await tx.query(`select set_config('request.jwt.claims', '', true), set_config('request.jwt.claim.sub', $1, true)`, [stranger]);
      return tx.query<{ uid: string }>('select auth.uid() as uid');
    });
    expect(legacy!.uid).toBe(stranger);
  });
});

test.each(SERVICE_TABLES.flatMap((table) => (['anon', 'authenticated'] as const).map((role) => [table, role] as const)))(
  '%s is neither readable nor writable by %s',
  async (table, role) => {
    for (const sql of [`select * from public.${table}`, `delete from public.${table}`, `truncate public.${table}`]) {
      expect(await sqlStateOf(() => t.as(role, role === 'anon' ? null : owner, (tx) => tx.query(sql))), sql).toBe('42501');
    }
  },
);

describe('writes', () => {
  const attempts: Record<string, (table: string, userId: string) => string> = {
    insert: (table, userId) => `insert into public.${table} (user_id) values ('${userId}')`,
    update: (table, userId) => `update public.${table} set user_id = '${userId}'`,
    delete: (table) => `delete from public.${table}`,
    truncate: (table) => `truncate public.${table} cascade`,
  };

  describe.each(['authenticated', 'anon'] as const)('as %s', (role) => {
    test.each(ALL_TABLES.flatMap((table) => Object.keys(attempts).map((verb) => [verb, table] as const)))(
      '%s on %s is refused',
      async (verb, table) => {
        const before = await ownedRowCounts(owner);
        const sql = attempts[verb]!(table, owner);
        expect(await sqlStateOf(() => t.as(role, role === 'anon' ? null : owner, (tx) => tx.query(sql)))).toBe('42501');
        expect(await ownedRowCounts(owner)).toEqual(before);
      },
    );
  });
});

describe('server functions', () => {
  const publicFunctions = () =>
    t.query<{ signature: string; anon: boolean; authenticated: boolean; service_role: boolean; definer: boolean; config: string[] | null }>(`
      select p.oid::regprocedure::text as signature,
             has_function_privilege('anon', p.oid, 'execute') as anon,
             has_function_privilege('authenticated', p.oid, 'execute') as authenticated,
             has_function_privilege('service_role', p.oid, 'execute') as service_role,
             p.prosecdef as definer,
             p.proconfig as config
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public'
      order by 1`);

  test('every function in public is executable by service_role and by neither browser role', async () => {
    const functions = await publicFunctions();
    expect(functions.map((f) => f.signature.replace(/\(.*/, ''))).toEqual(
      expect.arrayContaining(['record_scan', 'attack_path_inputs', 'set_rule_override', 'consume_rate_limit', 'github_identity']),
    );
    for (const f of functions) {
      expect({ signature: f.signature, anon: f.anon, authenticated: f.authenticated, service_role: f.service_role }).toEqual({
        signature: f.signature,
        anon: false,
        authenticated: false,
        service_role: true,
      });
    }
  });

  test('every function pins an empty search_path, and only github_identity and github_authorization_revoked (auth.sessions) are security definer', async () => {
    const functions = await publicFunctions();
    for (const f of functions) expect(f.config, f.signature).toContain('search_path=""');
    expect(functions.filter((f) => f.definer).map((f) => f.signature).sort()).toEqual(['github_authorization_revoked(text,jsonb)', 'github_identity(uuid)']);
  });

  test.each(['anon', 'authenticated'] as const)('%s cannot execute them', async (role) => {
    const calls = [
      `select public.list_rule_settings('${owner}')`,
      `select public.set_rule_setting('${owner}', 'pipe-to-shell', true)`,
      `select public.attack_path_inputs('${owner}', '{}', '[]')`,
      `select public.github_identity('${owner}')`,
      `select public.github_authorization('${owner}')`,
      `select public.github_authorization_revoked('1', '[]')`,
      `select public.github_authorizations_of('1')`,
      `select public.consume_rate_limit('${owner}', 'scan', 1, 60)`,
    ];
    for (const sql of calls) {
      expect(await sqlStateOf(() => t.as(role, role === 'anon' ? null : owner, (tx) => tx.query(sql))), sql).toBe('42501');
    }
  });

  test('service_role, as PostgREST runs it, may execute them and bypasses row-level security', async () => {
    const [row] = await t.as('service_role', null, (tx) =>
      tx.query<{ settings: { rule_id: string }[] }>(`select public.list_rule_settings($1) as settings`, [owner]),
    );
    expect(row!.settings.map((s) => s.rule_id)).toEqual(['pipe-to-shell']);
  });
});

test('no sequence in public is usable by a browser role', async () => {
  const sequences = await t.query<{ name: string; anon: boolean; authenticated: boolean }>(
    `select c.oid::regclass::text as name,
            has_sequence_privilege('anon', c.oid, 'usage,select,update') as anon,
            has_sequence_privilege('authenticated', c.oid, 'usage,select,update') as authenticated
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'S'`,
  );
  expect(sequences.map((s) => s.name).sort()).toEqual(['dismissal_events_id_seq', 'scans_seq_seq']);
  for (const sequence of sequences) expect(sequence).toEqual({ name: sequence.name, anon: false, authenticated: false });
});

describe('the monitoring queue (pgmq)', () => {
  test.each(['anon', 'authenticated'] as const)('%s can neither read nor move its messages', async (role) => {
    const calls = [
      'select * from pgmq.q_monitor',
      'select * from pgmq.a_monitor',
      `select pgmq.send('monitor', '{}'::jsonb, 0)`,
      `select * from pgmq.read('monitor', 30, 1)`,
      `select pgmq.create('mine')`,
      'select public.monitor_claim(1, 1, 1, 1, 1, 1)',
      'select public.monitor_stats()',
    ];
    for (const sql of calls) {
      expect(await sqlStateOf(() => t.as(role, role === 'anon' ? null : owner, (tx) => tx.query(sql))), sql).toBe('42501');
    }
  });

  test('service_role, as PostgREST runs it, enqueues, claims and settles through pgmq', async () => {
    const { installationId, repositories } = await userWithRepositories(t.db, owner, 1);
    const repoId = repositories[0]!.github_id;
    const sha = 'a'.repeat(40);
    const key = `push-scan:${installationId}:${repoId}:${sha}`;
    const payload = { kind: 'push-scan', installationId, repoId, sha, deliveryId: 'd-1' };
    const added = await t.callAsServiceRole<{ enqueued: string[] }>('monitor_enqueue', {
      p_jobs: [{ key, kind: 'push-scan', installation_id: installationId, repo_id: repoId, payload }],
    });
    expect(added.enqueued).toEqual([key]);
    const claimed = await t.callAsServiceRole<{ id: number; read_ct: number; payload: unknown }[]>('monitor_claim', {
      p_limit: 5, p_lease_seconds: 60, p_max_attempts: 5, p_concurrency: 2, p_budget: 10, p_budget_window_seconds: 3600,
      p_installation_ids: [installationId],
    });
    expect(claimed.map((c) => c.payload)).toEqual([payload]);
    const settled = await t.callAsServiceRole<{ settled: boolean }>('monitor_settle', {
      p_id: claimed[0]!.id, p_read_ct: claimed[0]!.read_ct, p_outcome: 'dead', p_reason: 'gone', p_after_seconds: 0,
    });
    expect(settled).toEqual({ settled: true });
    expect(await t.callAsServiceRole('monitor_stats', {})).toMatchObject({ dead: expect.any(Number) });
    expect(await t.callAsServiceRole('monitor_prune', { p_done_days: 7, p_dead_days: 30, p_limit: 10 })).toEqual({ deleted: 0 });
  });
});

test('every table has row-level security and only SELECT policies for authenticated', async () => {
  const tables = await t.query<{ relname: string; rls: boolean }>(
    `select c.relname, c.relrowsecurity as rls from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'r' order by 1`,
  );
  expect(tables.map((row) => row.relname).sort()).toEqual([...ALL_TABLES, ...SERVICE_TABLES, ...SECRET_USER_TABLES].sort());
  expect(tables.every((row) => row.rls)).toBe(true);
  const policies = await t.query<{ tablename: string; cmd: string; roles: string[] | string }>(
    `select tablename, cmd, roles from pg_policies where schemaname = 'public' order by tablename`,
  );
  expect(policies.map((p) => p.tablename)).toEqual([...BROWSER_READABLE_TABLES].sort());
  for (const policy of policies) {
    expect(policy.cmd).toBe('SELECT');
    expect(String(policy.roles)).toMatch(/^\{?authenticated\}?$/);
  }
  // The users' GitHub tokens: no policy, and no privilege at all for the browser roles (not even on their own row).
  for (const table of SECRET_USER_TABLES) {
    const grants = await t.query<{ grantee: string }>(`select grantee from information_schema.role_table_grants where table_schema = 'public' and table_name = $1 and grantee in ('anon', 'authenticated', 'PUBLIC')`, [table]);
    expect(grants, table).toEqual([]);
  }
});
