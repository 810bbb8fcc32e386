// `npm run fixture:scale -- <dir>`: the web client's scale fixture (issue 27, item 7), generated, never
// committed: 1,000 repositories of the local code host (`<dir>/repos`, each a copy of one of the example
// repositories' workflows) and an embedded database (`<dir>/pglite`) in which the development user has linked
// them and each has a latest scan of exactly 50 findings, 300 attack paths in all. Start the dev server on it
// with `CODEHOST_DIR=<dir>/repos PGLITE_DATA_DIR=<dir>/pglite npm run dev`.
//
// How: the example repositories are scanned for real through the service (so their stored findings, facts
// and attack paths are what a scan stores), each template scan is padded to 50 findings with copies of its
// findings of rules that take part in no attack path (new fingerprints and lines, so the count of paths does
// not change), and the other repositories' scans are copied from the templates in SQL. The mix of templates
// is chosen so that the paths add up to the asked number; the generator then reads the attack paths back
// through the service and fails unless they do.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database, SqlDatabase } from '../lib/db/index.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DEV_USER = 'de7e1000-0000-4000-8000-000000000001';
const TEMPLATES = ['issue-triage-bot', 'release-pipeline', 'hardened-service'];

export interface ScaleOptions {
  repositories: number;
  findingsPerRepository: number;
  attackPaths: number;
}
export const SCALE: ScaleOptions = { repositories: 1000, findingsPerRepository: 50, attackPaths: 300 };

export interface ScaleFixture {
  codehostDir: string;
  dataDir: string;
  repositories: number;
  findings: number;
  attackPaths: number;
  ms: number;
}

/** How many repositories take each template so that their paths add up to `paths` (null if no mix does). */
export function mix(pathsPerTemplate: readonly number[], repositories: number, paths: number): number[] | null {
  const zero = pathsPerTemplate.indexOf(0);
  const solve = (index: number, left: number, reposLeft: number): number[] | null => {
    if (index === pathsPerTemplate.length) return left === 0 && (reposLeft === 0 || zero >= 0) ? [] : null;
    const per = pathsPerTemplate[index] ?? 0;
    const most = per === 0 ? 0 : Math.min(reposLeft, Math.floor(left / per));
    for (let n = most; n >= 0; n -= 1) {
      const rest = solve(index + 1, left - n * per, reposLeft - n);
      if (rest !== null) return [n, ...rest];
    }
    return null;
  };
  const counts = solve(0, paths, repositories);
  if (counts === null || zero < 0) return counts;
  // The repositories no path needs take the template without paths.
  const used = counts.reduce((a, b) => a + b, 0);
  counts[zero] = (counts[zero] ?? 0) + repositories - used;
  return counts;
}

export async function generateScaleFixture(dir: string, options: ScaleOptions = SCALE): Promise<ScaleFixture> {
  const started = Date.now();
  const trace = (what: string) => {
    if (process.env.SCALE_FIXTURE_TRACE) console.error(`${((Date.now() - started) / 1000).toFixed(1)} s ${what}`);
  };
  const codehostDir = join(dir, 'repos');
  const dataDir = join(dir, 'pglite');
  rmSync(codehostDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(codehostDir, { recursive: true });
  mkdirSync(dataDir, { recursive: true });

  // The services read their configuration (the code host's directory) from the environment.
  process.env.CODEHOST_DIR = codehostDir;
  process.env.PGLITE_DATA_DIR = dataDir;
  process.env.LOG_LEVEL ??= 'silent';
  for (const name of ['DATABASE_URL', 'SUPABASE_URL', 'SUPABASE_SERVICE_ROLE_KEY', 'GITHUB_APP_ID', 'GITHUB_APP_PRIVATE_KEY']) delete process.env[name];
  const { createDatabase, migrate, seed } = await import('../lib/db/index.js');
  const { useDatabase } = await import('../lib/db/connection.js');
  const { linkInstallation } = await import('../lib/services/installations.js');
  const { listRepositories } = await import('../lib/services/repositories.js');
  const { scan } = await import('../lib/services/scan.js');
  const { attackPaths, COMBINATION_INPUTS } = await import('../lib/services/attack-paths.js');

  // The templates first, alone, to scan them.
  for (const name of TEMPLATES) copyTemplate(name, join(codehostDir, `template-${name}`));
  const opened = await createDatabase({ kind: 'pglite', dataDir });
  const isSql = (candidate: Database): candidate is SqlDatabase => 'transaction' in candidate;
  if (!isSql(opened)) throw new Error('the embedded database speaks SQL');
  const db = opened;
    trace('open');
  await migrate(db);
  await seed(db);
  useDatabase(db);
  const user = { id: DEV_USER };
  try {
    trace('migrated');
    await linkInstallation(user, 1);
    const listed = await listRepositories(user);
    const templates: { name: string; repoId: string; scanId: string; paths: number }[] = [];
    for (const name of TEMPLATES) {
      const repo = listed.repositories.find((r) => r.full_name.endsWith(`/template-${name}`));
      if (!repo) throw new Error(`template-${name} was not listed`);
      const result = await scan(user, { repo_id: repo.id, ruleset: 'all' });
      templates.push({ name, repoId: repo.id, scanId: result.scan_id, paths: 0 });
    }
    trace('templates scanned');
    const paths = await attackPaths(user);
    for (const t of templates) t.paths = paths.repos.find((r) => r.repo_id === t.repoId)?.combos.length ?? 0;

    const sql = (text: string, values: unknown[] = []) => db.transaction((tx) => tx.query<Record<string, unknown>>(text, values));
    const columns = async (table: string, skip: string[]) =>
      (await sql(`select column_name from information_schema.columns where table_schema = 'public' and table_name = $1 order by ordinal_position`, [table]))
        .map((r) => String(r.column_name))
        .filter((c) => !skip.includes(c))
        .map((c) => `"${c}"`);
    const findingColumns = await columns('findings', ['scan_id', 'ordinal', 'fingerprint', 'line']);
    const scanColumns = await columns('scans', ['id', 'repository_id', 'seq', 'high_count', 'medium_count', 'low_count', 'info_count', 'content_hash']);
    const combinationRules = Object.keys(COMBINATION_INPUTS.rules);

    // Each template scan padded (or found) to exactly findingsPerRepository findings, with copies of findings of
    // rules that take part in no attack path: its own, else another template's.
    const pool = await sql(
      `select scan_id, ordinal from public.findings where scan_id = any($1::uuid[]) and not (rule_id = any($2::text[])) order by scan_id, ordinal`,
      [templates.map((t) => t.scanId), combinationRules],
    );
    if (pool.length === 0) throw new Error('no template has a finding outside the attack paths to pad with');
    const cols = findingColumns.join(', ');
    for (const t of templates) {
      const [row] = await sql(`select count(*)::int as n from public.findings where scan_id = $1`, [t.scanId]);
      const have = Number(row?.n ?? 0);
      if (have > options.findingsPerRepository) throw new Error(`${t.name} has ${have} findings, more than ${options.findingsPerRepository}`);
      const own = pool.filter((p) => p.scan_id === t.scanId);
      const sources = own.length > 0 ? own : pool;
      for (let n = 0; have + n < options.findingsPerRepository; n += 1) {
        const source = sources[n % sources.length];
        await sql(
          `insert into public.findings (scan_id, ordinal, fingerprint, line, ${cols})
           select $1::uuid, $2::int, md5(fingerprint || ':' || $2::text), line + 1000 + $2::int, ${cols} from public.findings where scan_id = $3 and ordinal = $4`,
          [t.scanId, have + n, source?.scan_id, source?.ordinal],
        );
      }
      await sql(
        `update public.scans s set
           high_count = (select count(*) from public.findings f where f.scan_id = s.id and f.severity = 'HIGH'),
           medium_count = (select count(*) from public.findings f where f.scan_id = s.id and f.severity = 'MEDIUM'),
           low_count = (select count(*) from public.findings f where f.scan_id = s.id and f.severity = 'LOW'),
           info_count = (select count(*) from public.findings f where f.scan_id = s.id and f.severity = 'INFO'),
           content_hash = null
         where s.id = $1`,
        [t.scanId],
      );
    }

    trace('padded');
    const counts = mix(
      templates.map((t) => t.paths),
      options.repositories,
      options.attackPaths,
    );
    if (counts === null) throw new Error(`no mix of the templates (${templates.map((t) => `${t.name}: ${t.paths} paths`).join(', ')}) gives ${options.attackPaths} attack paths`);

    // The repositories: the templates stay (they count), the rest are copies of a template's workflows.
    const plan: string[] = [];
    templates.forEach((t, i) => {
      for (let n = 1; n < (counts[i] ?? 0); n += 1) plan.push(t.name);
    });
    const names: { dir: string; template: string }[] = plan.map((template, i) => ({ dir: `app-${String(i + 1).padStart(4, '0')}-${template}`, template }));
    // A template with no repository in the mix is removed from the code host (the sync then drops it).
    for (const [i, t] of templates.entries()) if ((counts[i] ?? 0) === 0) rmSync(join(codehostDir, `template-${t.name}`), { recursive: true, force: true });
    for (const { dir: name, template } of names) copyTemplate(template, join(codehostDir, name));
    trace('copied folders');
    const synced = await listRepositories(user);
    if (synced.repositories.length !== options.repositories) throw new Error(`the code host lists ${synced.repositories.length} repositories, not ${options.repositories}`);

    trace('synced');
    // Every other repository's latest scan: a copy of its template's, in SQL.
    const templateScan = new Map(templates.map((t) => [t.name, t.scanId]));
    const targets = synced.repositories
      .map((r) => {
        const template = /\/app-\d+-(.+)$/.exec(r.full_name)?.[1];
        return template === undefined ? null : { repo: r.id, scan: templateScan.get(template) ?? '' };
      })
      .filter((t): t is { repo: string; scan: string } => t !== null);
    await sql(`create temp table fixture_map (repo_id uuid, scan_id uuid, template uuid)`);
    await sql(`insert into fixture_map select (t->>'repo')::uuid, gen_random_uuid(), (t->>'scan')::uuid from jsonb_array_elements($1::jsonb) t`, [JSON.stringify(targets)]);
    const sc = scanColumns.join(', ');
    await sql(
      `insert into public.scans (id, repository_id, high_count, medium_count, low_count, info_count, ${sc})
       select m.scan_id, m.repo_id, s.high_count, s.medium_count, s.low_count, s.info_count, ${scanColumns.map((c) => `s.${c}`).join(', ')}
       from fixture_map m join public.scans s on s.id = m.template`,
    );
    const fc = findingColumns.join(', ');
    await sql(
      `insert into public.findings (scan_id, ordinal, fingerprint, line, ${fc})
       select m.scan_id, f.ordinal, f.fingerprint, f.line, ${findingColumns.map((c) => `f.${c}`).join(', ')}
       from fixture_map m join public.findings f on f.scan_id = m.template`,
    );
    trace('copied scans');
    await sql(`drop table fixture_map`);
    // The planner's statistics, as a server's autovacuum would gather them after such a load (the embedded
    // database has no autovacuum): without them it reads every finding of the user once per repository.
    await sql('analyze public.repositories, public.scans, public.findings, public.dismissals');

    trace('analyzed');
    const [total] = await sql(`select count(*)::int as n from public.findings f join public.scans s on s.id = f.scan_id where s.user_id = $1`, [DEV_USER]);
    const formed = await attackPaths(user);
    if (formed.total_combos !== options.attackPaths) throw new Error(`the fixture forms ${formed.total_combos} attack paths, not ${options.attackPaths}`);
    return { codehostDir, dataDir, repositories: synced.repositories.length, findings: Number(total?.n ?? 0), attackPaths: formed.total_combos, ms: Date.now() - started };
  } finally {
    await db.close();
  }
}

/** The files of a repository of the fixture: the example's workflows and settings snapshot (not its code). */
const templateFiles = new Map<string, { path: string; content: Buffer }[]>();
function filesOf(name: string): { path: string; content: Buffer }[] {
  const known = templateFiles.get(name);
  if (known) return known;
  const from = join(ROOT, 'examples', name);
  const files: { path: string; content: Buffer }[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(join(from, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, prefix);
      else if (entry.isFile()) files.push({ path, content: readFileSync(join(from, path)) });
    }
  };
  for (const part of ['.github', '.chainbreaker']) if (existsSync(join(from, part))) walk(part, part);
  templateFiles.set(name, files);
  return files;
}

function copyTemplate(name: string, to: string): void {
  for (const file of filesOf(name)) {
    mkdirSync(dirname(join(to, file.path)), { recursive: true });
    writeFileSync(join(to, file.path), file.content);
  }
}

/**
 * The fixture for these sources, generated once into `cacheRoot/<key>` and reused while the migrations, the
 * examples and this generator are unchanged; the caller copies its database before writing to it.
 */
export async function cachedScaleFixture(cacheRoot: string, options: ScaleOptions = SCALE): Promise<ScaleFixture & { cached: boolean }> {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(options));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const file of readdirSync(join(ROOT, 'supabase/migrations')).sort()) hash.update(file).update(readFileSync(join(ROOT, 'supabase/migrations', file)));
  for (const name of TEMPLATES) for (const file of filesOf(name)) hash.update(`${name}/${file.path}`).update(file.content);
  const dir = join(cacheRoot, hash.digest('hex').slice(0, 16));
  const stamp = join(dir, 'fixture.json');
  if (existsSync(stamp)) return { ...(JSON.parse(readFileSync(stamp, 'utf8')) as ScaleFixture), cached: true };
  // Generated in a child process: the engine's worker threads and the embedded database end with it.
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), dir], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'silent' } });
  if (child.status !== 0 || !existsSync(stamp)) throw new Error(`the scale fixture could not be generated:\n${child.stdout}\n${child.stderr}`);
  return { ...(JSON.parse(readFileSync(stamp, 'utf8')) as ScaleFixture), cached: false };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (dir === undefined) {
    console.error('usage: npm run fixture:scale -- <dir>');
    process.exit(2);
  }
  const fixture = await generateScaleFixture(resolve(dir));
  writeFileSync(join(resolve(dir), 'fixture.json'), `${JSON.stringify(fixture)}\n`);
  console.log(
    `${fixture.repositories} repositories, ${fixture.findings} findings, ${fixture.attackPaths} attack paths in ${(fixture.ms / 1000).toFixed(1)} s\n` +
      `CODEHOST_DIR=${fixture.codehostDir} PGLITE_DATA_DIR=${fixture.dataDir} npm run dev`,
  );
  process.exit(0);
}
