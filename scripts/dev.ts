// `npm run dev`: the whole API on PORT (default 3000) with no configuration. The embedded database (PGlite in
// PGLITE_DATA_DIR, default .data/pglite) is created and migrated at start, or DATABASE_URL's server is
// migrated; supabase/seed.sql adds a development user, and a ready-to-paste curl line with a token signed by
// JWT_SIGNING_SECRET (default: the public development secret) is printed.
//
// Why not `vercel dev`: it runs every request in a fresh process (measured with CLI 60.1.3: a new pid per
// request), and the embedded database is a single-process engine whose data directory must not be opened
// by two processes at once. This server loads the same api/ files with the same routing (lib/dev/router.ts).

import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { useDatabase } from '../lib/database.js';
import { createDatabase, migrate, seed, type Database, type SqlDatabase } from '../lib/db/index.js';
import { createRouter, discoverRoutes } from '../lib/dev/router.js';
import { serve } from '../lib/dev/node-server.js';
import { env } from '../lib/env.js';

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

const server = await serve(createRouter(ROOT, await discoverRoutes(ROOT)), config.port);
const base = `http://localhost:${config.port}`;
const where =
  config.database.kind === 'pglite'
    ? `embedded database in ${config.database.dataDir}`
    : config.database.kind === 'postgres'
      ? 'database from DATABASE_URL'
      : 'Supabase database';
console.log(`Chainbreaker API on ${base} (${where}; code host: ${config.codeHost.kind === 'local' ? config.codeHost.dir : 'GitHub App'})`);
if (config.auth.usingDevelopmentSecret) console.log('Tokens are signed with the public development secret (set JWT_SIGNING_SECRET to change it).');
if (userId !== null) {
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ aud: 'authenticated', role: 'authenticated', email: 'dev@chainbreaker.local', ...(config.auth.issuer ? { iss: config.auth.issuer } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
    .sign(new TextEncoder().encode(config.auth.jwtSigningSecret));
  console.log(`Development user dev@chainbreaker.local (${userId}); its token is valid for 7 days:\n`);
  console.log(`  curl -s -H "Authorization: Bearer ${token}" ${base}/api/rules\n`);
}

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  server.close();
  server.closeAllConnections();
  // PGlite writes its data directory on close; a hard exit could leave it inconsistent.
  void db.close().finally(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
