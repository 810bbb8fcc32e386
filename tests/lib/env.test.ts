import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_JWT_SIGNING_SECRET, EnvError, loadEnv } from '../../lib/env.js';

const SECRET = 'a-real-signing-secret-that-is-long-enough-0123456789';
const PEM = '-----BEGIN PRIVATE KEY-----\\nabc\\n-----END PRIVATE KEY-----';
const production = {
  VERCEL_ENV: 'production',
  JWT_SIGNING_SECRET: SECRET,
  SUPABASE_URL: 'https://project.supabase.co',
  SUPABASE_SERVICE_ROLE_KEY: 'service-role-key',
  GITHUB_APP_ID: '12345',
  GITHUB_APP_PRIVATE_KEY: PEM,
  GITHUB_WEBHOOK_SECRET: 'webhook-secret-of-the-app-32-characters-long',
};

function errorOf(source: Record<string, string>): string {
  try {
    loadEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error('loadEnv accepted the configuration');
}

describe('loadEnv', () => {
  it('runs with no configuration in development: embedded database, local code host, public dev secret', () => {
    const env = loadEnv({});
    expect(env.mode).toBe('development');
    expect(env.database).toEqual({ kind: 'pglite', dataDir: '.data/pglite' });
    expect(env.codeHost).toEqual({ kind: 'local', dir: 'examples' });
    expect(env.auth).toEqual({ jwtSigningSecret: DEVELOPMENT_JWT_SIGNING_SECRET, usingDevelopmentSecret: true, jwksUrl: null, issuer: null });
    expect(env.embedded).toBe(true);
    expect(env.port).toBe(3000);
    expect(env.host).toBe('127.0.0.1');
    // Beyond this machine only with a secret of its own: anyone can sign tokens with the development secret.
    expect(errorOf({ HOST: '0.0.0.0' })).toContain('HOST=0.0.0.0 exposes a server whose tokens are signed with the public development secret');
    expect(errorOf({ HOST: '::' })).toContain('public development secret');
    expect(errorOf({ HOST: '192.168.1.5' })).toContain('public development secret');
    expect(loadEnv({ HOST: '0.0.0.0', JWT_SIGNING_SECRET: SECRET }).host).toBe('0.0.0.0');
    expect(loadEnv({ HOST: '::1' }).host).toBe('::1');
    expect(loadEnv({ HOST: 'localhost' }).host).toBe('localhost');
    expect(errorOf({ HOST: 'a b' })).toContain('HOST must be a host name or an IP address');
    expect(env.corsOrigins).toEqual([]);
    expect(env.bodyLimitBytes).toBe(65536);
    expect(env.scanRateLimit).toEqual({ max: 300, windowSeconds: 60 });
    expect(env.reposRateLimit).toEqual({ max: 60, windowSeconds: 60 });
    expect(env.githubRateReserve).toBe(200);
    expect(env.githubWebhookSecret).toBeNull();
    expect(env.scanLimits).toEqual({ maxFiles: 300, maxFileBytes: 524288, maxTotalBytes: 8388608, maxFindings: 5000, maxEngineMs: 8000 });
    expect(env.logLevel).toBe('info');
  });

  it('reads the scan limits, the repository sync limit and the GitHub reserve', () => {
    const env = loadEnv({
      SCAN_MAX_FILES: '10',
      SCAN_MAX_FILE_BYTES: '2048',
      SCAN_MAX_BYTES: '4096',
      SCAN_MAX_FINDINGS: '7',
      SCAN_MAX_ENGINE_MS: '500',
      REPOS_RATE_LIMIT: '0',
      GITHUB_RATE_RESERVE: '0',
    });
    expect(env.scanLimits).toEqual({ maxFiles: 10, maxFileBytes: 2048, maxTotalBytes: 4096, maxFindings: 7, maxEngineMs: 500 });
    expect(env.reposRateLimit.max).toBe(0);
    expect(env.githubRateReserve).toBe(0);
    expect(errorOf({ SCAN_MAX_FILES: '0' })).toContain('SCAN_MAX_FILES');
    expect(errorOf({ SCAN_MAX_FILE_BYTES: '2000000' })).toContain('SCAN_MAX_FILE_BYTES');
  });

  it('is silent by default under NODE_ENV=test', () => {
    expect(loadEnv({ NODE_ENV: 'test' }).logLevel).toBe('silent');
    expect(loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info' }).logLevel).toBe('info');
  });

  it('chooses the database adapter', () => {
    expect(loadEnv({ DATABASE_URL: 'postgres://u@h:5432/db', JWT_SIGNING_SECRET: SECRET }).database).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db' });
    expect(loadEnv({ SUPABASE_URL: 'https://p.supabase.co', SUPABASE_SERVICE_ROLE_KEY: 'k', JWT_SIGNING_SECRET: SECRET }).database).toEqual({
      kind: 'supabase',
      url: 'https://p.supabase.co',
      serviceRoleKey: 'k',
    });
    expect(loadEnv({ PGLITE_DATA_DIR: 'memory://' }).database).toEqual({ kind: 'pglite', dataDir: 'memory://' });
  });

  it('chooses the code host and restores newlines of a one-line PEM', () => {
    expect(loadEnv({ CODEHOST_DIR: 'fixtures/repos' }).codeHost).toEqual({ kind: 'local', dir: 'fixtures/repos' });
    expect(loadEnv({ GITHUB_APP_ID: '42', GITHUB_APP_PRIVATE_KEY: PEM, JWT_SIGNING_SECRET: SECRET }).codeHost).toEqual({
      kind: 'github',
      appId: '42',
      privateKey: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----',
      apiUrl: 'https://api.github.com',
      appSlug: null,
      oauth: null,
    });
  });

  it("reads the App's OAuth client for its user authorization, which needs the token encryption key", () => {
    const github = { GITHUB_APP_ID: '42', GITHUB_APP_PRIVATE_KEY: PEM, JWT_SIGNING_SECRET: SECRET };
    const key = 'a'.repeat(64);
    const config = loadEnv({ ...github, GITHUB_APP_CLIENT_ID: 'Iv23liAbc', GITHUB_APP_CLIENT_SECRET: 's3cret', GITHUB_TOKEN_ENCRYPTION_KEY: key });
    expect(config.codeHost).toMatchObject({ oauth: { clientId: 'Iv23liAbc', clientSecret: 's3cret', webUrl: 'https://github.com' } });
    expect(config.tokenEncryptionKey?.length).toBe(32);
    expect(loadEnv({ ...github, GITHUB_TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }).tokenEncryptionKey).toEqual(Buffer.alloc(32, 7));
    expect(errorOf({ ...github, GITHUB_APP_CLIENT_ID: 'Iv23liAbc', GITHUB_APP_CLIENT_SECRET: 's3cret' })).toContain('GITHUB_TOKEN_ENCRYPTION_KEY is required');
    expect(errorOf({ ...github, GITHUB_APP_CLIENT_ID: 'Iv23liAbc', GITHUB_TOKEN_ENCRYPTION_KEY: key })).toContain('go together');
    expect(errorOf({ ...github, GITHUB_TOKEN_ENCRYPTION_KEY: 'short' })).toContain('must be 32 bytes');
    // A GitHub App deployment without the key offers no user authorization; the embedded mode has a development key.
    expect(loadEnv(github).tokenEncryptionKey).toBeNull();
    expect(loadEnv({}).tokenEncryptionKey?.length).toBe(32);
  });

  it('reads the App slug for "Connect GitHub" links and refuses one that is not a URL name', () => {
    const github = { GITHUB_APP_ID: '42', GITHUB_APP_PRIVATE_KEY: PEM, JWT_SIGNING_SECRET: SECRET };
    expect(loadEnv({ ...github, GITHUB_APP_SLUG: 'chainbreaker-dev' }).codeHost).toMatchObject({ kind: 'github', appSlug: 'chainbreaker-dev' });
    expect(errorOf({ ...github, GITHUB_APP_SLUG: '../evil' })).toContain('GITHUB_APP_SLUG must be the App');
  });

  it('sends every GitHub call to GITHUB_API_URL (GitHub Enterprise Server)', () => {
    const config = loadEnv({ GITHUB_APP_ID: '42', GITHUB_APP_PRIVATE_KEY: PEM, JWT_SIGNING_SECRET: SECRET, GITHUB_API_URL: 'https://ghe.example.com/api/v3/' });
    expect(config.codeHost).toMatchObject({ kind: 'github', apiUrl: 'https://ghe.example.com/api/v3' });
    expect(errorOf({ GITHUB_API_URL: 'ftp://x' })).toContain('GITHUB_API_URL must be an http(s) URL');
  });

  describe('fails closed outside the embedded mode (PGlite + local code host), whatever NODE_ENV says', () => {
    const real = [
      ['a GitHub App', { GITHUB_APP_ID: '42', GITHUB_APP_PRIVATE_KEY: PEM }],
      ['a Postgres database', { DATABASE_URL: 'postgres://u@h:5432/db' }],
      ['a Supabase project', { SUPABASE_URL: 'https://p.supabase.co', SUPABASE_SERVICE_ROLE_KEY: 'k' }],
    ] as const;
    it.each(real)('refuses to start with %s and no signing keys, under any NODE_ENV but production', (_what, source) => {
      for (const NODE_ENV of [undefined, 'development', 'test']) {
        expect(errorOf({ ...source, ...(NODE_ENV === undefined ? {} : { NODE_ENV }) })).toContain('JWT_SIGNING_SECRET or SUPABASE_JWKS_URL is required');
        expect(errorOf({ ...source, JWT_SIGNING_SECRET: DEVELOPMENT_JWT_SIGNING_SECRET })).toContain('must not be the public development secret');
      }
    });
    it.each(real)('starts with %s and a secret of its own, or a JWKS alone (then HS256 is off)', (_what, source) => {
      expect(loadEnv({ ...source, JWT_SIGNING_SECRET: SECRET }).auth.jwtSigningSecret).toBe(SECRET);
      const jwksOnly = loadEnv({ ...source, SUPABASE_JWKS_URL: 'https://p.supabase.co/auth/v1/.well-known/jwks.json' });
      expect(jwksOnly.auth.jwtSigningSecret).toBeNull();
      expect(jwksOnly.auth.usingDevelopmentSecret).toBe(false);
      expect(jwksOnly.embedded).toBe(false);
    });
  });

  it('requires the issuer when SUPABASE_URL is set, derived from it unless JWT_ISSUER says otherwise', () => {
    const supabase = { SUPABASE_URL: 'https://p.supabase.co/', SUPABASE_SERVICE_ROLE_KEY: 'k', JWT_SIGNING_SECRET: SECRET };
    expect(loadEnv(supabase).auth.issuer).toBe('https://p.supabase.co/auth/v1');
    expect(loadEnv({ ...supabase, JWT_ISSUER: 'https://auth.example.com' }).auth.issuer).toBe('https://auth.example.com');
    expect(loadEnv({}).auth.issuer).toBeNull();
  });

  it('reads the optional settings', () => {
    const env = loadEnv({
      JWT_SIGNING_SECRET: SECRET,
      SUPABASE_JWKS_URL: 'https://p.supabase.co/auth/v1/.well-known/jwks.json',
      JWT_ISSUER: 'https://p.supabase.co/auth/v1',
      CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
      PORT: '8080',
      BODY_LIMIT_BYTES: '4096',
      SCAN_RATE_LIMIT: '10',
      SCAN_RATE_LIMIT_WINDOW_SECONDS: '3600',
      LOG_LEVEL: 'error',
    });
    expect(env.auth.jwksUrl?.href).toBe('https://p.supabase.co/auth/v1/.well-known/jwks.json');
    expect(env.auth.issuer).toBe('https://p.supabase.co/auth/v1');
    expect(env.auth.usingDevelopmentSecret).toBe(false);
    expect(env.corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(env.port).toBe(8080);
    expect(env.bodyLimitBytes).toBe(4096);
    expect(env.scanRateLimit).toEqual({ max: 10, windowSeconds: 3600 });
    expect(env.logLevel).toBe('error');
  });

  it('accepts a complete production configuration', () => {
    const env = loadEnv(production);
    expect(env.mode).toBe('production');
    expect(env.auth.jwtSigningSecret).toBe(SECRET);
    expect(env.database.kind).toBe('supabase');
    expect(env.codeHost.kind).toBe('github');
    expect(loadEnv({ ...production, VERCEL_ENV: undefined, NODE_ENV: 'production' }).mode).toBe('production');
    expect(loadEnv({ ...production, VERCEL_ENV: 'preview' }).mode).toBe('production');
    // A self-hosted database names its issuer; GitHub Enterprise Server over https.
    expect(loadEnv({ ...production, SUPABASE_URL: '', SUPABASE_SERVICE_ROLE_KEY: '', DATABASE_URL: 'postgres://db.example.com/prod', JWT_ISSUER: 'https://auth.example.com/auth/v1' }).auth.issuer).toBe('https://auth.example.com/auth/v1');
    expect(loadEnv({ ...production, GITHUB_API_URL: 'https://github.example.com/api/v3' }).mode).toBe('production');
  });

  it.each([
    ['JWT_SIGNING_SECRET', { JWT_SIGNING_SECRET: '' }, 'JWT_SIGNING_SECRET is required in production'],
    ['the development secret', { JWT_SIGNING_SECRET: DEVELOPMENT_JWT_SIGNING_SECRET }, 'must not be the public development secret'],
    ['a database', { SUPABASE_URL: '', SUPABASE_SERVICE_ROLE_KEY: '' }, 'a database is required in production'],
    ['the GitHub App', { GITHUB_APP_ID: '', GITHUB_APP_PRIVATE_KEY: '' }, 'GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY are required'],
    ['the webhook secret', { GITHUB_WEBHOOK_SECRET: '' }, 'GITHUB_WEBHOOK_SECRET is required in production'],
    ['an https JWKS URL', { SUPABASE_JWKS_URL: 'http://p.supabase.co/jwks' }, 'SUPABASE_JWKS_URL must use https'],
    ['an issuer (a server database without Supabase)', { SUPABASE_URL: '', SUPABASE_SERVICE_ROLE_KEY: '', DATABASE_URL: 'postgres://db.example.com/prod' }, 'an issuer is required in production'],
    ['a webhook secret of 32 characters', { GITHUB_WEBHOOK_SECRET: 'x'.repeat(31) }, 'GITHUB_WEBHOOK_SECRET must be at least 32 characters'],
    ['an https GitHub API', { GITHUB_API_URL: 'http://github.example.com/api/v3' }, 'GITHUB_API_URL must use https'],
  ])('refuses to start in production without %s', (_what, change, message) => {
    expect(errorOf({ ...production, ...change })).toContain(message);
  });

  it.each([
    [{ JWT_SIGNING_SECRET: 'short' }, 'JWT_SIGNING_SECRET must be at least 32 characters'],
    [{ PORT: 'eighty' }, 'PORT must be a whole number'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres:// URL'],
    [{ SUPABASE_URL: 'https://p.supabase.co' }, 'SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY go together'],
    [{ SUPABASE_URL: 'https://p.supabase.co', SUPABASE_SERVICE_ROLE_KEY: 'k', DATABASE_URL: 'postgres://h/db', JWT_SIGNING_SECRET: SECRET }, 'not both'],
    [{ GITHUB_APP_ID: '1' }, 'GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY go together'],
    [{ GITHUB_APP_ID: 'my-app', GITHUB_APP_PRIVATE_KEY: PEM }, 'GITHUB_APP_ID must be the numeric App id'],
    [{ CORS_ORIGINS: '*' }, 'CORS_ORIGINS each entry must be an origin'],
    [{ CORS_ORIGINS: 'https://app.example.com/path' }, 'CORS_ORIGINS each entry must be an origin'],
    [{ BODY_LIMIT_BYTES: '10' }, 'BODY_LIMIT_BYTES'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be info, error or silent'],
    [{ SUPABASE_JWKS_URL: 'not a url' }, 'SUPABASE_JWKS_URL must be a URL'],
  ])('names the invalid variable: %o', (source, message) => {
    expect(errorOf(source)).toContain(message);
  });

  it('never puts a secret value into its error message', () => {
    const message = errorOf({ JWT_SIGNING_SECRET: 'tooshort-secret-value', SUPABASE_URL: 'https://p.supabase.co' });
    expect(message).not.toContain('tooshort-secret-value');
  });

  it('reports every problem at once', () => {
    const message = errorOf({ PORT: 'x', LOG_LEVEL: 'y' });
    expect(message).toContain('PORT');
    expect(message).toContain('LOG_LEVEL');
  });
});
