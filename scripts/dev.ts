// `npm run dev`: the whole API on HOST:PORT (default 127.0.0.1:3000, this machine only) with no
// configuration. The embedded database (PGlite in PGLITE_DATA_DIR, default .data/pglite) is created and
// migrated at start, or DATABASE_URL's server is
// migrated; supabase/seed.sql adds a development user, and a ready-to-paste curl line with a token signed by
// JWT_SIGNING_SECRET (default: the public development secret) is printed.
//
// Why not `vercel dev`: it runs every request in a fresh process (measured with CLI 60.1.3: a new pid per
// request), and the embedded database is a single-process engine whose data directory must not be opened
// by two processes at once. This server loads the same api/ files with the same routing (lib/dev/router.ts).
//
// The monitoring queue is drained in the background every 5 s, as Vercel's crons do in production
// (`DEV_BACKGROUND_DRAIN=0` turns it off: the web client's scale measurements want a server doing nothing
// else, where the day's re-checks would re-scan the fixture's repositories under them).

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { useDatabase } from '../lib/db/connection.js';
import { createDatabase, migrate, seed, type Database, type SqlDatabase } from '../lib/db/index.js';
import { devTokenRoute } from '../lib/dev/dev-token.js';
import { createRouter, discoverRoutes } from '../lib/dev/router.js';
import { serve } from '../lib/dev/node-server.js';
import { PAGE_HEADERS, staticFiles } from '../lib/dev/static.js';
import { env } from '../lib/env.js';
import { startBackgroundDrain } from '../lib/queue/background.js';

const TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;
const ROOT = fileURLToPath(new URL('../', import.meta.url));

const config = env();
if (config.mode === 'production') {
  console.error('npm run dev is a development server; unset NODE_ENV=production / VERCEL_ENV to use it.');
  process.exit(1);
}

if (config.database.kind === 'pglite' && !config.database.dataDir.startsWith('memory://')) {
  await mkdir(config.database.dataDir, { recursive: true });
}
const db = await createDatabase(config.database);
const isSql = (candidate: Database): candidate is SqlDatabase => 'transaction' in candidate;
let userId: string | null = null;
if (isSql(db)) {
  await migrate(db);
  await seed(db);
  const [user] = await db.transaction((tx) => tx.query<{ id: string }>("select id from auth.users where email = 'dev@chainbreaker.local'"));
  userId = user?.id ?? null;
}
useDatabase(db);
const drainer = process.env.DEV_BACKGROUND_DRAIN === '0' ? null : startBackgroundDrain(db);

// The web client (built into public/ by `npm run build:web`), its configuration, the development sign-in
// route, and the API under /api/.
const api = createRouter(ROOT, await discoverRoutes(ROOT));
const files = staticFiles(join(ROOT, 'public'));
const devToken = devTokenRoute({
  user: userId === null ? null : { id: userId, email: 'dev@chainbreaker.local' },
  secret: config.auth.jwtSigningSecret ?? '', // unused when disabled: only the development secret enables the route
  issuer: config.auth.issuer,
  enabled: config.auth.usingDevelopmentSecret,
});
const clientConfig = {
  mode: 'embedded',
  devSignIn: config.auth.usingDevelopmentSecret && userId !== null,
  // The local code host has one installation (id 1): "Connect GitHub" comes back as GitHub's setup URL would.
  connectUrl:
    config.codeHost.kind === 'local'
      ? '/?installation_id=1&setup_action=install'
      : config.codeHost.appSlug !== null
        ? `https://github.com/apps/${encodeURIComponent(config.codeHost.appSlug)}/installations/new`
        : null,
  // The local code host fakes the App's user authorization (it comes straight back with a code).
  memberAccess: config.codeHost.kind === 'local' || config.codeHost.oauth !== null,
  supabaseUrl: null,
  supabaseAnonKey: null,
};
const server = await serve(async (request, peer) => {
  const pathname = new URL(request.url).pathname;
  if (pathname === '/api' || pathname.startsWith('/api/')) return api(request);
  const token = await devToken(request, peer.remoteAddress);
  if (token !== null) return token;
  if (pathname === '/config.json') return Response.json(clientConfig, { headers: { 'cache-control': 'no-store', ...PAGE_HEADERS } });
  const file = await files(request);
  if (file !== null) return file;
  if (pathname === '/' || pathname === '/index.html') {
    return new Response('The web client is not built: run npm run build:web (npm run dev does it first).\n', { status: 503, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  return new Response('Not found.\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', ...PAGE_HEADERS } });
}, config.port, config.host).catch((error: NodeJS.ErrnoException) =>
  error.code === 'EADDRINUSE'
    ? (console.error(`dev: port ${config.port} is in use; stop the other server or set PORT to a free port`), process.exit(1))
    : Promise.reject(error),
);
const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${config.port}`;
const where =
  config.database.kind === 'pglite'
    ? `embedded database in ${config.database.dataDir}`
    : config.database.kind === 'postgres'
      ? 'database from DATABASE_URL'
      : 'Supabase database';
console.log(`Chainbreaker web client and API on ${base} (${where}; code host: ${config.codeHost.kind === 'local' ? config.codeHost.dir : 'GitHub App'})`);
if (config.auth.usingDevelopmentSecret) console.log('Tokens are signed with the public development secret (set JWT_SIGNING_SECRET to change it).');
if (userId !== null && config.auth.jwtSigningSecret !== null) {
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ aud: 'authenticated', role: 'authenticated', email: 'dev@chainbreaker.local', ...(config.auth.issuer ? { iss: config.auth.issuer } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
    .sign(new TextEncoder().encode(config.auth.jwtSigningSecret));
  console.log(`Development user dev@chainbreaker.local (${userId}); its token is valid for 7 days.\n`);
  console.log(walkThrough(token, base, config.codeHost.kind === 'local'));
}

/**
 * The flow as lines to paste in order: link the installation, list, scan every repository, the combinations
 * of one, the attack paths of all, and a setting that changes them without a re-scan. `json` (node, which
 * every machine running this has) prints a summary of a body; without it curl prints the whole body.
 */
function walkThrough(token: string, base: string, local: boolean): string {
  const combos = `curl -s -H "$H" $B/api/repositories/$REPO/combos | json 'v.combos.map((c) => c.severity + " " + c.id).join("\\n")'`;
  const lines = [
    `B=${base}`,
    `H="Authorization: Bearer ${token}"`,
    `json() { node -pe "const v = JSON.parse(require('fs').readFileSync(0, 'utf8')); $1"; }`,
    local
      ? `curl -s -H "$H" "$B/api/github/callback?installation_id=1"; echo    # link the local code host's installation (examples/)`
      : `curl -s -H "$H" "$B/api/github/callback?installation_id=<the installation id GitHub redirected with>"; echo`,
    `curl -s -H "$H" $B/api/repos; echo`,
    `for id in $(curl -s -H "$H" $B/api/repos | json 'v.repositories.map((r) => r.id).join(" ")'); do curl -s -X POST -H "$H" -d "{\\"repo_id\\":\\"$id\\"}" $B/api/scan | json 'JSON.stringify(v.counts ?? v)'; done`,
    local
      ? `REPO=$(curl -s -H "$H" $B/api/repos | json 'v.repositories.find((r) => r.full_name === "examples/issue-triage-bot").id')`
      : `REPO=$(curl -s -H "$H" $B/api/repos | json 'v.repositories[0].id')`,
    combos,
    `curl -s -H "$H" $B/api/attack-paths | json 'JSON.stringify({ repos: v.repos.map((r) => r.full_name), total_combos: v.total_combos, critical_count: v.critical_count, high_count: v.high_count })'`,
    `curl -s -X PUT -H "$H" -d '{"enabled":false}' $B/api/rule-settings/default-token-write    # 204: off for every repository`,
    `${combos}    # repository-takeover is gone, without a re-scan`,
    `curl -s -X DELETE -H "$H" $B/api/rule-settings/default-token-write    # 204: on again`,
  ];
  return `${lines.map((line) => `  ${line}`).join('\n')}\n`;
}

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  server.close();
  server.closeAllConnections();
  // PGlite writes its data directory on close; a hard exit could leave it inconsistent.
  void (drainer?.stop() ?? Promise.resolve())
    .then(() => db.close())
    .finally(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
