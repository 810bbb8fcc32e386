// One error type for every adapter, classified so that the HTTP layer can pick a status without looking at
// SQL: not_found -> 404, unknown_user -> 401, conflict -> 409 (or retry), unavailable -> 503, internal -> 500.
// The message is generic on purpose (it may reach a client); what went wrong in detail stays in `sqlState`
// and `cause`, for server logs only.

export type DatabaseErrorKind = 'not_found' | 'unknown_user' | 'conflict' | 'unavailable' | 'internal';

const MESSAGES: Record<DatabaseErrorKind, string> = {
  not_found: 'Not found',
  unknown_user: 'Unknown user',
  conflict: 'Conflicting concurrent change',
  unavailable: 'Database unavailable',
  internal: 'Database error',
};

export class DatabaseError extends Error {
  override readonly name = 'DatabaseError';
  readonly kind: DatabaseErrorKind;
  /** The server function that failed. */
  readonly fn: string;
  /** SQLSTATE or PostgREST error code, when the failure came with one. */
  readonly sqlState: string | undefined;

  constructor(kind: DatabaseErrorKind, fn: string, options: { sqlState?: string; cause?: unknown } = {}) {
    super(MESSAGES[kind], { cause: options.cause });
    this.kind = kind;
    this.fn = fn;
    this.sqlState = options.sqlState;
  }
}

/**
 * Classifies a Postgres SQLSTATE (https://www.postgresql.org/docs/current/errcodes-appendix.html).
 * P0002 (no_data_found) is what the server functions raise for a repository the user does not own, 28000
 * (invalid_authorization_specification) for a user that does not exist (a token that outlived its user).
 */
export function kindOfSqlState(sqlState: string): DatabaseErrorKind {
  if (sqlState === 'P0002') return 'not_found';
  if (sqlState === '28000') return 'unknown_user';
  // unique_violation, foreign_key_violation, serialization_failure, deadlock_detected, lock_not_available
  if (['23505', '23503', '40001', '40P01', '55P03'].includes(sqlState)) return 'conflict';
  const errorClass = sqlState.slice(0, 2);
  // 08 connection exception, 53 insufficient resources, 57 operator intervention (shutdown, statement
  // timeout, cancel), 58 system error
  if (['08', '53', '57', '58'].includes(errorClass)) return 'unavailable';
  return 'internal';
}

// Node's socket-level error codes that mean the server could not be reached or went away.
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** Turns whatever a Postgres driver threw into a DatabaseError. */
export function toDatabaseError(error: unknown, fn: string): DatabaseError {
  if (error instanceof DatabaseError) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  if (typeof code === 'string' && SQLSTATE.test(code)) {
    return new DatabaseError(kindOfSqlState(code), fn, { sqlState: code, cause: error });
  }
  if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) {
    return new DatabaseError('unavailable', fn, { cause: error });
  }
  // node-postgres reports a lost or timed-out connection with a bare Error and no code.
  const message = error instanceof Error ? error.message : '';
  if (/connection terminated|timeout exceeded when trying to connect|connection timeout/i.test(message)) {
    return new DatabaseError('unavailable', fn, { cause: error });
  }
  return new DatabaseError('internal', fn, { cause: error });
}
