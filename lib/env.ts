import * as v from 'valibot';
import { createHash } from 'node:crypto';

/**
 * The service's configuration: the only reader of `process.env`. `loadEnv` is pure (tests pass a plain
 * object); `env()` validates `process.env` once per process, at cold start, and caches the result.
 */

/** Signs and verifies tokens when nothing is configured outside production. Public on purpose: never secret. */
export const DEVELOPMENT_JWT_SIGNING_SECRET = 'chainbreaker-development-signing-secret-do-not-deploy';
export const DEFAULT_PORT = 3000;
/** The webhook secret's shortest length in production (GitHub's HMAC is as strong as the secret). */
export const MIN_WEBHOOK_SECRET_LENGTH = 32;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PGLITE_DATA_DIR = '.data/pglite';
export const DEFAULT_CODEHOST_DIR = 'examples';
export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';
/** Where GitHub's OAuth endpoints are (`GITHUB_WEB_URL`; Enterprise Server: `https://HOST`). */
export const DEFAULT_GITHUB_WEB_URL = 'https://github.com';
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;
/** An org-wide scan of a few hundred repositories with a client concurrency of 4-8 stays under this. */
export const DEFAULT_SCAN_RATE_LIMIT = 300;
export const DEFAULT_SCAN_RATE_LIMIT_WINDOW_SECONDS = 60;
/** Per user, on `GET /api/repos` (each is a code-host listing of every installation). */
export const DEFAULT_REPOS_RATE_LIMIT = 60;
/** Per user, on the installation callback, before any GitHub call (same window as scans). */
export const DEFAULT_CALLBACK_RATE_LIMIT = 10;
/** Membership checks the callback makes per installation per hour for users not linked to it. */
export const DEFAULT_INSTALLATION_CHECK_LIMIT = 30;
/** Per user, on the expensive reads (`/api/attack-paths`, combinations, `/api/scans/{id}`), same window as scans. */
export const DEFAULT_READS_RATE_LIMIT = 120;
/** Scans a repository keeps (the web client's history shows a few). */
export const DEFAULT_SCAN_HISTORY = 20;
/** Findings stored per user, all scans together (about 0.7 KB each: ~350 MB). */
export const DEFAULT_SCAN_STORAGE_QUOTA = 500_000;
/** Scans and syncs of an installation stop while its GitHub budget is under this many requests. */
export const DEFAULT_GITHUB_RATE_RESERVE = 200;
/** What one scan of the service reads and stores at most (see `ScanLimits` in lib/engine/scan.ts). */
export const DEFAULT_SCAN_LIMITS = {
  maxFiles: 300,
  maxFileBytes: 512 * 1024,
  maxTotalBytes: 8 * 1024 * 1024,
  maxFindings: 5_000,
  maxEngineMs: 8_000,
} as const;
const MIN_SECRET_LENGTH = 32;

export type DatabaseConfig =
  | { kind: 'supabase'; url: string; serviceRoleKey: string }
  | { kind: 'postgres'; url: string }
  /** `dataDir` is a directory, or `memory://` for a throw-away database. */
  | { kind: 'pglite'; dataDir: string };

export type CodeHostConfig =
  /** `apiUrl`: the REST root every App, REST and GraphQL call goes to (GitHub Enterprise Server: `https://HOST/api/v3`). */
  | {
      kind: 'github';
      appId: string;
      privateKey: string;
      apiUrl: string;
      /** The App's URL name, for "Connect GitHub" links (optional). */
      appSlug: string | null;
      /** The App's OAuth client, for its user authorization (members reach repositories through their own access); null: not offered. */
      oauth: { clientId: string; clientSecret: string; webUrl: string } | null;
    }
  | { kind: 'local'; dir: string };

export type LogLevel = 'info' | 'error' | 'silent';

export interface Env {
  /** `production` for deployments (production and preview), else `development` or `test`. */
  mode: 'production' | 'development' | 'test';
  database: DatabaseConfig;
  codeHost: CodeHostConfig;
  auth: {
    /** The HS256 secret; null when only a JWKS is configured (then HS256 tokens are refused). */
    jwtSigningSecret: string | null;
    /** True when the secret is the public development default (only ever in the embedded mode). */
    usingDevelopmentSecret: boolean;
    jwksUrl: URL | null;
    /** Required `iss`: `JWT_ISSUER`, else `${SUPABASE_URL}/auth/v1` when SUPABASE_URL is set, else none. */
    issuer: string | null;
  };
  /** PGlite + the local code host: the only configuration that may run on the public development secret. */
  embedded: boolean;
  corsOrigins: readonly string[];
  port: number;
  /** Interface the development server listens on (`HOST`; default 127.0.0.1, this machine only). */
  host: string;
  bodyLimitBytes: number;
  /** Per user, on `POST /api/scan`; `max` 0 turns the limit off. */
  scanRateLimit: { max: number; windowSeconds: number };
  /** Per user, on `GET /api/repos` (same window as scans); `max` 0 turns the limit off. */
  reposRateLimit: { max: number; windowSeconds: number };
  /** Per user, on `GET /api/github/callback` (same window as scans), before any GitHub call; `max` 0 turns it off. */
  callbackRateLimit: { max: number; windowSeconds: number };
  /** Membership checks per installation per hour for users not linked to it (the installation's budget); 0: no cap. */
  installationCheckLimit: number;
  /** Per user, on the expensive reads (same window as scans); `max` 0 turns the limit off. */
  readsRateLimit: { max: number; windowSeconds: number };
  /** What stored scans may hold: the last `history` scans per repository, `quota` findings per user (0: none). */
  scanStorage: { history: number; quota: number };
  /** Scans and syncs of an installation are refused (503) while its GitHub budget is under this; 0: never. */
  githubRateReserve: number;
  /** Verifies `POST /api/github/webhooks`; null: webhooks are refused (401). */
  githubWebhookSecret: string | null;
  /** Vercel's `CRON_SECRET`: the bearer token of `/api/cron/*`; null: those endpoints refuse everything (401). */
  cronSecret: string | null;
  /** AES-256-GCM key of the stored GitHub user tokens (`GITHUB_TOKEN_ENCRYPTION_KEY`); null: the user authorization is off. */
  tokenEncryptionKey: Buffer | null;
  /** What one scan reads, stores and spends at most. */
  scanLimits: { maxFiles: number; maxFileBytes: number; maxTotalBytes: number; maxFindings: number; maxEngineMs: number };
  logLevel: LogLevel;
}

export class EnvError extends Error {
  override name = 'EnvError';
}

export type EnvSource = Readonly<Record<string, string | undefined>>;

const blankToUndefined = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());
const text = () => v.pipe(v.optional(v.string()), v.transform(blankToUndefined));
const integer = (min: number, max: number) =>
  v.pipe(
    v.optional(v.string()),
    v.transform(blankToUndefined),
    v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(min), v.maxValue(max))),
  );
const httpUrl = () =>
  v.pipe(text(), v.optional(v.pipe(v.string(), v.url('must be a URL'), v.regex(/^https?:\/\//, 'must be an http(s) URL'))));
const originList = v.pipe(
  text(),
  v.transform((value) => (value === undefined ? [] : value.split(',').map((o) => o.trim()).filter((o) => o !== ''))),
  v.array(
    v.pipe(
      v.string(),
      v.check((o) => isOrigin(o), 'each entry must be an origin such as https://app.example.com (scheme, host, optional port; no path, no *)'),
    ),
  ),
);

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

const EnvSchema = v.object({
  NODE_ENV: text(),
  VERCEL_ENV: text(),
  JWT_SIGNING_SECRET: text(),
  SUPABASE_JWKS_URL: httpUrl(),
  JWT_ISSUER: text(),
  SUPABASE_URL: httpUrl(),
  SUPABASE_SERVICE_ROLE_KEY: text(),
  DATABASE_URL: v.pipe(text(), v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')))),
  PGLITE_DATA_DIR: text(),
  GITHUB_APP_ID: v.pipe(text(), v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be the numeric App id')))),
  GITHUB_APP_PRIVATE_KEY: text(),
  GITHUB_API_URL: httpUrl(),
  GITHUB_APP_SLUG: v.pipe(text(), v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,99}$/, 'must be the App\'s URL name (lower-case letters, digits and dashes)')))),
  CODEHOST_DIR: text(),
  CORS_ORIGINS: originList,
  PORT: integer(1, 65535),
  HOST: v.pipe(text(), v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9.:[\]-]{1,255}$/, 'must be a host name or an IP address')))),
  BODY_LIMIT_BYTES: integer(1024, 10 * 1024 * 1024),
  SCAN_RATE_LIMIT: integer(0, 1_000_000),
  SCAN_RATE_LIMIT_WINDOW_SECONDS: integer(1, 86_400),
  REPOS_RATE_LIMIT: integer(0, 1_000_000),
  CALLBACK_RATE_LIMIT: integer(0, 1_000_000),
  INSTALLATION_CHECK_LIMIT: integer(0, 1_000_000),
  READS_RATE_LIMIT: integer(0, 1_000_000),
  SCAN_HISTORY: integer(1, 10_000),
  SCAN_STORAGE_QUOTA: integer(0, 1_000_000_000),
  GITHUB_RATE_RESERVE: integer(0, 1_000_000),
  GITHUB_WEBHOOK_SECRET: text(),
  CRON_SECRET: text(),
  GITHUB_APP_CLIENT_ID: v.pipe(text(), v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{1,100}$/, "must be the App's client id")))),
  GITHUB_APP_CLIENT_SECRET: text(),
  GITHUB_WEB_URL: httpUrl(),
  GITHUB_TOKEN_ENCRYPTION_KEY: v.pipe(text(), v.optional(v.pipe(v.string(), v.regex(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, 'must be 32 bytes, as 64 hex digits or base64')))),
  SCAN_MAX_FILES: integer(1, 100_000),
  SCAN_MAX_FILE_BYTES: integer(1024, 1024 * 1024),
  SCAN_MAX_BYTES: integer(1024, 1024 * 1024 * 1024),
  SCAN_MAX_FINDINGS: integer(1, 1_000_000),
  SCAN_MAX_ENGINE_MS: integer(100, 600_000),
  LOG_LEVEL: v.optional(v.picklist(['info', 'error', 'silent'], 'must be info, error or silent')),
});

/** Validates a set of variables (normally `process.env`); throws an `EnvError` naming every problem. */
/** Whether a `HOST` to listen on is this machine only (lib/dev/node-server.ts refuses other Host headers there). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

export function loadEnv(source: EnvSource): Env {
  const parsed = v.safeParse(EnvSchema, pick(source));
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${String(issue.path?.[0]?.key ?? 'environment')} ${issue.message}`);
    throw new EnvError(`Invalid configuration: ${problems.join('; ')}.`);
  }
  const e = parsed.output;
  const mode =
    e.NODE_ENV === 'production' || e.VERCEL_ENV === 'production' || e.VERCEL_ENV === 'preview'
      ? 'production'
      : e.NODE_ENV === 'test'
        ? 'test'
        : 'development';
  const problems: string[] = [];
  const need = (condition: boolean, message: string) => {
    if (!condition) problems.push(message);
  };

  if (mode === 'production') {
    need(e.JWT_SIGNING_SECRET !== undefined, 'JWT_SIGNING_SECRET is required in production');
    need(
      e.SUPABASE_URL !== undefined || e.DATABASE_URL !== undefined,
      'a database is required in production: set SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY, or DATABASE_URL',
    );
    need(e.GITHUB_APP_ID !== undefined, 'GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY are required in production');
    need(e.GITHUB_WEBHOOK_SECRET !== undefined, 'GITHUB_WEBHOOK_SECRET is required in production (links follow GitHub through its webhooks)');
    need(e.SUPABASE_JWKS_URL === undefined || e.SUPABASE_JWKS_URL.startsWith('https://'), 'SUPABASE_JWKS_URL must use https in production');
    // A token of another project signed with a shared secret must not pass: the issuer is always checked.
    need(e.JWT_ISSUER !== undefined || e.SUPABASE_URL !== undefined, 'an issuer is required in production: set JWT_ISSUER, or SUPABASE_URL (its /auth/v1 is the issuer)');
    need(
      e.GITHUB_WEBHOOK_SECRET === undefined || e.GITHUB_WEBHOOK_SECRET.length >= MIN_WEBHOOK_SECRET_LENGTH,
      `GITHUB_WEBHOOK_SECRET must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters in production`,
    );
    need(
      e.CRON_SECRET === undefined || e.CRON_SECRET.length >= MIN_WEBHOOK_SECRET_LENGTH,
      `CRON_SECRET must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters in production (openssl rand -hex 32)`,
    );
    need(e.GITHUB_API_URL === undefined || e.GITHUB_API_URL.startsWith('https://'), 'GITHUB_API_URL must use https in production (the App\'s key signs what it sends there)');
    need(e.GITHUB_WEB_URL === undefined || e.GITHUB_WEB_URL.startsWith('https://'), "GITHUB_WEB_URL must use https in production (the App's client secret and users' codes go there)");
    need(e.GITHUB_TOKEN_ENCRYPTION_KEY === undefined || !/^(.)\1+$/.test(e.GITHUB_TOKEN_ENCRYPTION_KEY), 'GITHUB_TOKEN_ENCRYPTION_KEY must be random (openssl rand -hex 32)');
  }
  // Fails closed: anything that holds real data (a server database, a real GitHub App) needs keys of its own,
  // whatever NODE_ENV says; only the embedded mode (PGlite + local code host) runs on the public secret.
  const embedded = e.SUPABASE_URL === undefined && e.DATABASE_URL === undefined && e.GITHUB_APP_ID === undefined;
  if (!embedded && mode !== 'production') {
    need(
      e.JWT_SIGNING_SECRET !== undefined || e.SUPABASE_JWKS_URL !== undefined,
      'JWT_SIGNING_SECRET or SUPABASE_JWKS_URL is required outside the embedded mode (with a server database or a GitHub App configured)',
    );
  }
  if (e.JWT_SIGNING_SECRET !== undefined) {
    need(e.JWT_SIGNING_SECRET.length >= MIN_SECRET_LENGTH, `JWT_SIGNING_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
    need(
      mode !== 'production' || e.JWT_SIGNING_SECRET !== DEVELOPMENT_JWT_SIGNING_SECRET,
      'JWT_SIGNING_SECRET must not be the public development secret in production',
    );
    need(
      mode === 'production' || embedded || e.JWT_SIGNING_SECRET !== DEVELOPMENT_JWT_SIGNING_SECRET,
      'JWT_SIGNING_SECRET must not be the public development secret outside the embedded mode',
    );
  }
  need((e.SUPABASE_URL === undefined) === (e.SUPABASE_SERVICE_ROLE_KEY === undefined), 'SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY go together: set both or neither');
  need(!(e.SUPABASE_URL !== undefined && e.DATABASE_URL !== undefined), 'set either SUPABASE_URL or DATABASE_URL, not both');
  need((e.GITHUB_APP_ID === undefined) === (e.GITHUB_APP_PRIVATE_KEY === undefined), 'GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY go together: set both or neither');
  need((e.GITHUB_APP_CLIENT_ID === undefined) === (e.GITHUB_APP_CLIENT_SECRET === undefined), 'GITHUB_APP_CLIENT_ID and GITHUB_APP_CLIENT_SECRET go together: set both or neither');
  need(e.GITHUB_APP_CLIENT_ID === undefined || e.GITHUB_APP_ID !== undefined, 'GITHUB_APP_CLIENT_ID needs the GitHub App (GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY)');
  need(
    e.GITHUB_APP_CLIENT_ID === undefined || e.GITHUB_TOKEN_ENCRYPTION_KEY !== undefined,
    "GITHUB_TOKEN_ENCRYPTION_KEY is required with GITHUB_APP_CLIENT_ID (users' GitHub tokens are stored encrypted with it)",
  );
  if (problems.length > 0) throw new EnvError(`Invalid configuration: ${problems.join('; ')}.`);

  const database: DatabaseConfig =
    e.SUPABASE_URL !== undefined && e.SUPABASE_SERVICE_ROLE_KEY !== undefined
      ? { kind: 'supabase', url: e.SUPABASE_URL, serviceRoleKey: e.SUPABASE_SERVICE_ROLE_KEY }
      : e.DATABASE_URL !== undefined
        ? { kind: 'postgres', url: e.DATABASE_URL }
        : { kind: 'pglite', dataDir: e.PGLITE_DATA_DIR ?? DEFAULT_PGLITE_DATA_DIR };
  const codeHost: CodeHostConfig =
    e.GITHUB_APP_ID !== undefined && e.GITHUB_APP_PRIVATE_KEY !== undefined
      ? // Environment editors often store a PEM on one line with literal "\n".
        {
          kind: 'github',
          appId: e.GITHUB_APP_ID,
          privateKey: e.GITHUB_APP_PRIVATE_KEY.replace(/\\n/g, '\n'),
          apiUrl: (e.GITHUB_API_URL ?? DEFAULT_GITHUB_API_URL).replace(/\/+$/, ''),
          appSlug: e.GITHUB_APP_SLUG ?? null,
          oauth:
            e.GITHUB_APP_CLIENT_ID !== undefined && e.GITHUB_APP_CLIENT_SECRET !== undefined
              ? { clientId: e.GITHUB_APP_CLIENT_ID, clientSecret: e.GITHUB_APP_CLIENT_SECRET, webUrl: (e.GITHUB_WEB_URL ?? DEFAULT_GITHUB_WEB_URL).replace(/\/+$/, '') }
              : null,
        }
      : { kind: 'local', dir: e.CODEHOST_DIR ?? DEFAULT_CODEHOST_DIR };

  // The development secret only stands in when nothing else is configured (the checks above make that the
  // embedded mode); a JWKS alone means asymmetric tokens only.
  const jwtSigningSecret = e.JWT_SIGNING_SECRET ?? (e.SUPABASE_JWKS_URL === undefined ? DEVELOPMENT_JWT_SIGNING_SECRET : null);
  // Anyone can sign tokens with the public development secret: such a server listens on this machine only.
  const host = e.HOST ?? DEFAULT_HOST;
  if (jwtSigningSecret === DEVELOPMENT_JWT_SIGNING_SECRET && !isLoopbackHost(host)) {
    throw new EnvError(`Invalid configuration: HOST=${host} exposes a server whose tokens are signed with the public development secret; set JWT_SIGNING_SECRET (or SUPABASE_JWKS_URL) to listen beyond this machine.`);
  }
  return {
    mode,
    database,
    codeHost,
    auth: {
      jwtSigningSecret,
      usingDevelopmentSecret: jwtSigningSecret === DEVELOPMENT_JWT_SIGNING_SECRET,
      jwksUrl: e.SUPABASE_JWKS_URL === undefined ? null : new URL(e.SUPABASE_JWKS_URL),
      issuer: e.JWT_ISSUER ?? (e.SUPABASE_URL === undefined ? null : `${e.SUPABASE_URL.replace(/\/+$/, '')}/auth/v1`),
    },
    embedded,
    corsOrigins: e.CORS_ORIGINS ?? [],
    port: e.PORT ?? DEFAULT_PORT,
    host,
    bodyLimitBytes: e.BODY_LIMIT_BYTES ?? DEFAULT_BODY_LIMIT_BYTES,
    scanRateLimit: {
      max: e.SCAN_RATE_LIMIT ?? DEFAULT_SCAN_RATE_LIMIT,
      windowSeconds: e.SCAN_RATE_LIMIT_WINDOW_SECONDS ?? DEFAULT_SCAN_RATE_LIMIT_WINDOW_SECONDS,
    },
    reposRateLimit: {
      max: e.REPOS_RATE_LIMIT ?? DEFAULT_REPOS_RATE_LIMIT,
      windowSeconds: e.SCAN_RATE_LIMIT_WINDOW_SECONDS ?? DEFAULT_SCAN_RATE_LIMIT_WINDOW_SECONDS,
    },
    callbackRateLimit: {
      max: e.CALLBACK_RATE_LIMIT ?? DEFAULT_CALLBACK_RATE_LIMIT,
      windowSeconds: e.SCAN_RATE_LIMIT_WINDOW_SECONDS ?? DEFAULT_SCAN_RATE_LIMIT_WINDOW_SECONDS,
    },
    installationCheckLimit: e.INSTALLATION_CHECK_LIMIT ?? DEFAULT_INSTALLATION_CHECK_LIMIT,
    readsRateLimit: {
      max: e.READS_RATE_LIMIT ?? DEFAULT_READS_RATE_LIMIT,
      windowSeconds: e.SCAN_RATE_LIMIT_WINDOW_SECONDS ?? DEFAULT_SCAN_RATE_LIMIT_WINDOW_SECONDS,
    },
    scanStorage: { history: e.SCAN_HISTORY ?? DEFAULT_SCAN_HISTORY, quota: e.SCAN_STORAGE_QUOTA ?? DEFAULT_SCAN_STORAGE_QUOTA },
    githubRateReserve: e.GITHUB_RATE_RESERVE ?? DEFAULT_GITHUB_RATE_RESERVE,
    githubWebhookSecret: e.GITHUB_WEBHOOK_SECRET ?? null,
    cronSecret: e.CRON_SECRET ?? null,
    // The embedded mode (local code host, public development secret) seals with a key derived from that
    // public secret: its tokens are the local host's fakes. Anywhere else the key must be configured.
    tokenEncryptionKey:
      e.GITHUB_TOKEN_ENCRYPTION_KEY !== undefined
        ? decodeKey(e.GITHUB_TOKEN_ENCRYPTION_KEY)
        : codeHost.kind === 'local'
          ? createHash('sha256').update(`chainbreaker-development-token-key:${DEVELOPMENT_JWT_SIGNING_SECRET}`).digest()
          : null,
    scanLimits: {
      maxFiles: e.SCAN_MAX_FILES ?? DEFAULT_SCAN_LIMITS.maxFiles,
      maxFileBytes: e.SCAN_MAX_FILE_BYTES ?? DEFAULT_SCAN_LIMITS.maxFileBytes,
      maxTotalBytes: e.SCAN_MAX_BYTES ?? DEFAULT_SCAN_LIMITS.maxTotalBytes,
      maxFindings: e.SCAN_MAX_FINDINGS ?? DEFAULT_SCAN_LIMITS.maxFindings,
      maxEngineMs: e.SCAN_MAX_ENGINE_MS ?? DEFAULT_SCAN_LIMITS.maxEngineMs,
    },
    logLevel: e.LOG_LEVEL ?? (mode === 'test' ? 'silent' : 'info'),
  };
}

function decodeKey(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** Only the variables the schema knows: the rest of the environment never enters the parsed object. */
function pick(source: EnvSource): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of Object.keys(EnvSchema.entries)) out[key] = source[key];
  return out;
}

let cached: Env | undefined;

/** The process's configuration, validated on first use. */
export function env(): Env {
  cached ??= loadEnv(process.env);
  return cached;
}
