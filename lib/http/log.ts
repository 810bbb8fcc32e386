import { createHash, createHmac } from 'node:crypto';
import { env, type LogLevel } from '../env.js';

/**
 * Structured logs: one JSON object per line. Callers pass only the fields below, never headers, tokens or
 * bodies, so nothing secret can reach the log by accident.
 */

export interface RequestLogRecord {
  level: 'info';
  msg: 'request';
  request_id: string;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  /** A stable pseudonym of the user (not the id itself), or null before authentication. */
  user: string | null;
}

export interface ErrorLogRecord {
  level: 'error';
  msg: 'unexpected error';
  request_id: string;
  method: string;
  route: string;
  error: { name: string; message: string; stack?: string; cause?: { name: string; message: string } };
}

/**
 * A queue job's attempt that did not end done (`error`: the error's name only; the reason, its message, is
 * kept with the job in the database), or one drain's counts.
 */
export interface QueueLogRecord {
  level: 'info' | 'error';
  msg: 'queue job failed' | 'queue drained';
  job_id?: number;
  kind?: string;
  attempt?: number;
  outcome?: string;
  error?: string;
  counts?: Record<string, number>;
}

export type LogRecord = RequestLogRecord | ErrorLogRecord | QueueLogRecord;
export type LogSink = (record: LogRecord & { time: string }) => void;

const defaultSink: LogSink = (record) => {
  const line = `${JSON.stringify(record)}\n`;
  if (record.level === 'error') process.stderr.write(line);
  else process.stdout.write(line);
};

let sink: LogSink = defaultSink;
let level: LogLevel | undefined;

/** Replaces where log records go (tests); returns a function restoring the previous sink and level. */
export function setLogSink(next: LogSink, nextLevel: LogLevel = 'info'): () => void {
  const previous = { sink, level };
  sink = next;
  level = nextLevel;
  return () => {
    sink = previous.sink;
    level = previous.level;
  };
}

export function log(record: LogRecord): void {
  const threshold = (level ??= env().logLevel);
  if (threshold === 'silent' || (threshold === 'error' && record.level !== 'error')) return;
  sink({ time: new Date().toISOString(), ...record });
}

let pseudonymKey: Buffer | undefined;

/**
 * A stable pseudonym of a user id for the logs: an HMAC keyed with a secret of the deployment (derived from
 * the JWT signing secret, else the database's service key or URL), so that whoever reads the logs cannot
 * test a known user id against them as they could a bare hash. The same on every instance of a deployment.
 */
export function userPseudonym(userId: string): string {
  pseudonymKey ??= pseudonymKeyOf(env());
  return createHmac('sha256', pseudonymKey).update(`chainbreaker-user:${userId}`).digest('hex').slice(0, 16);
}

function pseudonymKeyOf(config: ReturnType<typeof env>): Buffer {
  const material =
    config.auth.jwtSigningSecret ??
    (config.database.kind === 'supabase' ? config.database.serviceRoleKey : config.database.kind === 'postgres' ? config.database.url : 'chainbreaker-embedded');
  return createHash('sha256').update(`chainbreaker-log-pseudonym\0${material}`).digest();
}

/**
 * What the log keeps of an error: name, message, stack, and the message of its cause (a driver's error, or
 * the plain `{message, code, ...}` object supabase-js returns), with credentials cut out. Error texts come
 * from lower layers and upstream services (a database that echoes a statement, a proxy that echoes
 * headers), so they are the one way a secret could reach a log line.
 */
export function describeError(error: unknown): ErrorLogRecord['error'] {
  if (!(error instanceof Error)) return { name: typeof error, message: redact(String(error)) };
  const cause = causeOf(error.cause);
  return { name: error.name, message: redact(error.message), ...(error.stack ? { stack: redact(error.stack) } : {}), ...(cause ? { cause } : {}) };
}

function causeOf(cause: unknown): { name: string; message: string } | undefined {
  if (typeof cause !== 'object' || cause === null || !('message' in cause) || typeof cause.message !== 'string') return undefined;
  const name = 'name' in cause && typeof cause.name === 'string' ? cause.name : 'Error';
  return { name, message: redact(cause.message) };
}

const REDACTED = '[redacted]';
/** Credentials by their shape: JWTs (access tokens, service keys, App JWTs), bearer values, GitHub and Supabase tokens, PEM keys, URL passwords. */
const CREDENTIAL_SHAPES: readonly [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, REDACTED],
  [/\beyJ[\w-]*\.[\w-]+(\.[\w-]*)?/g, REDACTED],
  [/\b(bearer|basic)\s+[\w\-.~+/]{12,}=*/gi, `$1 ${REDACTED}`],
  [/\b(gh[opsuer]_[\w-]{16,}|github_pat_\w{20,}|sb_(secret|publishable)_[\w-]{10,})/g, REDACTED],
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s:@/]+:[^\s@/]+@/gi, `$1${REDACTED}@`],
];

let knownSecrets: string[] | undefined;

/** The configured secrets, by value: the JWT secret, the database key or password, the App's key and its lines. */
function configuredSecrets(): string[] {
  if (knownSecrets === undefined) {
    const config = env();
    const values = [config.auth.jwtSigningSecret, config.githubWebhookSecret].filter((value) => value !== null);
    if (config.database.kind === 'supabase') values.push(config.database.serviceRoleKey);
    if (config.database.kind === 'postgres') values.push(passwordOf(config.database.url));
    if (config.codeHost.kind === 'github') {
      const key = config.codeHost.privateKey;
      values.push(key, ...key.split('\n').map((line) => line.trim()).filter((line) => !line.startsWith('-----')));
    }
    knownSecrets = values.filter((value) => value.length >= 8).sort((a, b) => b.length - a.length);
  }
  return knownSecrets;
}

function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}

/** `text` with every configured secret and anything shaped like a credential replaced by `[redacted]`. */
export function redact(text: string): string {
  let out = text;
  for (const secret of configuredSecrets()) out = out.split(secret).join(REDACTED);
  for (const [shape, replacement] of CREDENTIAL_SHAPES) out = out.replace(shape, replacement);
  return out;
}
